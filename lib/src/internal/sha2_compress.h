// The SHA-2 compression loop (FIPS 180-4 §6.2.2 / §6.4.2), written once for both word sizes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "internal/bytes.h"

namespace shakedown::internal {

// Traits supply: Word, kRounds, K[kRounds], load(const uint8_t*), and the four §4.1.2/§4.1.3
// functions Sigma0, Sigma1, sigma0, sigma1.
template <class T>
struct Sha2Compress {
  using Word = typename T::Word;

  static constexpr Word Ch(Word x, Word y, Word z) { return z ^ (x & (y ^ z)); }    // §4.1.2 (4.2)
  static constexpr Word Maj(Word x, Word y, Word z) { return (x & y) | (z & (x | y)); }  // (4.3)

  // One round; callers rename the working variables instead of shifting them.
  static inline __attribute__((always_inline)) void round(Word a, Word b, Word c, Word& d, Word e, Word f,
                                                          Word g, Word& h, Word kw) {
    Word t1 = h + T::Sigma1(e) + Ch(e, f, g) + kw;
    d += t1;
    h = t1 + T::Sigma0(a) + Maj(a, b, c);
  }

  // W[t] for t >= 16 in a 16-word ring (§6.2.2 step 1).
  static inline __attribute__((always_inline)) Word schedule(Word* W, int t) {
    return W[t & 15] += T::sigma1(W[(t - 2) & 15]) + W[(t - 7) & 15] + T::sigma0(W[(t - 15) & 15]);
  }

  // Eight rounds: after them the variables are back in their original roles.
  template <bool kExpand>
  static inline __attribute__((always_inline)) void eight(Word& a, Word& b, Word& c, Word& d, Word& e,
                                                          Word& f, Word& g, Word& h, Word* W, int t) {
    auto w = [&](int i) { return kExpand ? schedule(W, t + i) : W[t + i]; };
    round(a, b, c, d, e, f, g, h, T::K[t + 0] + w(0));
    round(h, a, b, c, d, e, f, g, T::K[t + 1] + w(1));
    round(g, h, a, b, c, d, e, f, T::K[t + 2] + w(2));
    round(f, g, h, a, b, c, d, e, T::K[t + 3] + w(3));
    round(e, f, g, h, a, b, c, d, T::K[t + 4] + w(4));
    round(d, e, f, g, h, a, b, c, T::K[t + 5] + w(5));
    round(c, d, e, f, g, h, a, b, T::K[t + 6] + w(6));
    round(b, c, d, e, f, g, h, a, T::K[t + 7] + w(7));
  }

  static void blocks(Word state[8], const std::uint8_t* data, std::size_t nblocks) {
    constexpr std::size_t kBlock = 16 * sizeof(Word);
    Word W[16];
    while (nblocks--) {
      Word a = state[0], b = state[1], c = state[2], d = state[3];
      Word e = state[4], f = state[5], g = state[6], h = state[7];
      for (int t = 0; t < 16; ++t) W[t] = T::load(data + sizeof(Word) * t);
      eight<false>(a, b, c, d, e, f, g, h, W, 0);
      eight<false>(a, b, c, d, e, f, g, h, W, 8);
      for (int t = 16; t < T::kRounds; t += 8) eight<true>(a, b, c, d, e, f, g, h, W, t);
      state[0] += a; state[1] += b; state[2] += c; state[3] += d;
      state[4] += e; state[5] += f; state[6] += g; state[7] += h;
      data += kBlock;
    }
    secure_zero(W, sizeof W);  // message schedule words are message-derived
  }
};

}  // namespace shakedown::internal
