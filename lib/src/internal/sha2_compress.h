// The SHA-2 compression loop (FIPS 180-4 §6.2.2 / §6.4.2), written once for both word sizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "internal/bytes.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"

namespace shakedown::internal {

// What the two SHA-2 word sizes fix, whichever instructions compute Σ/σ: the word, the round count, the
// constants (§4.2.2, §4.2.3) and the big-endian message load (§5.2). Traits derive from one of these.
struct Sha256Words {
  using Word = std::uint32_t;
  static constexpr int kRounds = 64;
  static constexpr const Word (&K)[64] = kSha256K;
  static Word load(const std::uint8_t* p) { return load_be32(p); }
};
struct Sha512Words {
  using Word = std::uint64_t;
  static constexpr int kRounds = 80;
  static constexpr const Word (&K)[80] = kSha512K;
  static Word load(const std::uint8_t* p) { return load_be64(p); }
};

// Traits supply: Word, kRounds (a multiple of 8), K[kRounds], load(const uint8_t*) (from Sha256Words or
// Sha512Words), and the four §4.1.2/§4.1.3 functions Sigma0, Sigma1, sigma0, sigma1.
//
// Speed without intrinsics: every round is unrolled at compile time (round number t is a template
// argument), so the message-schedule ring indices and the round constants are constants, the
// working variables are renamed instead of shifted, and W[t] is computed inside round t, where
// the out-of-order core can overlap it with the previous round's dependency chain.
template <class T>
struct Sha2Compress {
  using Word = typename T::Word;

  // §4.1.2 (4.2): Ch(x,y,z) = (x & y) ^ (~x & z), in its three-operation form.
  static constexpr Word Ch(Word x, Word y, Word z) { return z ^ (x & (y ^ z)); }

  // W[t] (§6.2.2 step 1): the first 16 are message words, the rest live in a 16-word ring.
  template <int t>
  static inline __attribute__((always_inline)) Word message_word(Word* W, const std::uint8_t* block) {
    if constexpr (t < 16) {
      return W[t] = T::load(block + sizeof(Word) * t);
    } else {
      return W[t & 15] += T::sigma1(W[(t - 2) & 15]) + W[(t - 7) & 15] + T::sigma0(W[(t - 15) & 15]);
    }
  }

  // Round t with the roles given by the argument order (the caller rotates them).
  // Maj (§4.1.2 (4.3)) as b ^ ((a ^ b) & (b ^ c)): this round's a ^ b is the next round's b ^ c,
  // so `b_xor_c` carries it over, c itself is never read, and Maj costs three operations, not four.
  template <int t>
  static inline __attribute__((always_inline)) void round(Word a, Word b, Word& d, Word e, Word f, Word g,
                                                          Word& h, Word& b_xor_c, Word* W,
                                                          const std::uint8_t* block) {
    // h + K[t] + W[t] does not depend on e: keep it off the e-to-e critical path.
    Word t1 = h + T::K[t] + message_word<t>(W, block);
    t1 += T::Sigma1(e) + Ch(e, f, g);
    Word a_xor_b = a ^ b;
    Word maj = b ^ (a_xor_b & b_xor_c);
    b_xor_c = a_xor_b;
    d += t1;
    h = t1 + T::Sigma0(a) + maj;
  }

  // Rounds t..t+7: after eight renamings the variables are back in their original roles.
  template <int t>
  static inline __attribute__((always_inline)) void eight_rounds(Word& a, Word& b, Word& c, Word& d, Word& e,
                                                                 Word& f, Word& g, Word& h, Word& bc, Word* W,
                                                                 const std::uint8_t* block) {
    round<t + 0>(a, b, d, e, f, g, h, bc, W, block);
    round<t + 1>(h, a, c, d, e, f, g, bc, W, block);
    round<t + 2>(g, h, b, c, d, e, f, bc, W, block);
    round<t + 3>(f, g, a, b, c, d, e, bc, W, block);
    round<t + 4>(e, f, h, a, b, c, d, bc, W, block);
    round<t + 5>(d, e, g, h, a, b, c, bc, W, block);
    round<t + 6>(c, d, f, g, h, a, b, bc, W, block);
    round<t + 7>(b, c, e, f, g, h, a, bc, W, block);
  }

  // The seam entry point: the loop below, then the burn of the frame it left (stack_burn.h): W and the
  // working variables, spilled or not. -O3 frames (gcc -fstack-usage), SHA-256 / SHA-512: gcc 12 x86-64 72 / 168
  // bytes; with UBSan, as the cross presets build, s390x 760 / 528 and aarch64 768 / 544; clang 19 with ASan and
  // UBSan 536 / 536, riscv64 with UBSan 400 / 496; s390x callers add a 160-byte register save area, and the
  // DeadStack suite found SHA-512's dead stack reaching past 1 KiB there. So 1024 / 1536.
  static void blocks_and_burn(Word state[8], const std::uint8_t* data, std::size_t nblocks) {
    blocks(state, data, nblocks);
    burn_stack(sizeof(Word) == 4 ? 1024 : 1536);
  }

  [[gnu::noinline]] static void blocks(Word state[8], const std::uint8_t* data, std::size_t nblocks) {
    static_assert(T::kRounds % 8 == 0);
    constexpr std::size_t kBlock = 16 * sizeof(Word);
    Word W[16];
    while (nblocks--) {
      Word a = state[0], b = state[1], c = state[2], d = state[3];
      Word e = state[4], f = state[5], g = state[6], h = state[7];
      Word bc = b ^ c;
      [&]<int... group>(std::integer_sequence<int, group...>) {
        (eight_rounds<8 * group>(a, b, c, d, e, f, g, h, bc, W, data), ...);
      }(std::make_integer_sequence<int, T::kRounds / 8>{});
      state[0] += a; state[1] += b; state[2] += c; state[3] += d;
      state[4] += e; state[5] += f; state[6] += g; state[7] += h;
      data += kBlock;
    }
  }
};

}  // namespace shakedown::internal
