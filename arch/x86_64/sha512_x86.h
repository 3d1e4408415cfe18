// SHA-512 block loop shared by the AVX2 and AVX-512 backends: two-block vector schedule, scalar rounds.
//
// Each 256-bit register holds two schedule words of block A in its low 128-bit lane and the same
// two words of block B in its high lane, so one schedule serves two blocks. Two words per lane
// means the σ1 inputs W[t-2], W[t-1] are always in the previous register (no intra-register
// dependency, unlike SHA-256). The schedule of W[t+16..] is computed while the scalar rounds of
// block A consume W[t..]; block B's rounds then run on the stored K + W with no schedule work.
// The includer includes this inside its ISA region (x86_target.h) and supplies σ0/σ1; internal linkage (see
// sha2_x86.h) keeps the two compilations apart.
#pragma once

#include <immintrin.h>

#include <cstring>

#include "sha2_x86.h"

namespace shakedown::internal {
namespace {

// The stored K + W of the two blocks, each contiguous so that a round reads its word at a fixed
// displacement from the start of its group of eight (sha2_rounds2). A ring for block A would take 384 bytes off
// the burn, but measured 9% slower on AMD Zen 3 (SHA-512 at 16 KiB, bench/: 647 against 718 MB/s).
struct Sha512WkPair {
  alignas(32) std::uint64_t w[2][80];
  const std::uint64_t* at(int lane, int t) const { return w[lane] + t; }
  // K[t, t+1] + W[t, t+1] of both blocks (t even): the low lane is block A's.
  [[gnu::always_inline]] void store(int t, __m256i sum) {
    _mm_store_si128(reinterpret_cast<__m128i*>(w[0] + t), _mm256_castsi256_si128(sum));
    _mm_store_si128(reinterpret_cast<__m128i*>(w[1] + t), _mm256_extracti128_si256(sum, 1));
  }
  // Zeroes K + W [t, t+1] of both blocks (t even), once both rounds that read them have run.
  [[gnu::always_inline]] void wipe(int t) {
    _mm_store_si128(reinterpret_cast<__m128i*>(w[0] + t), _mm_setzero_si128());
    _mm_store_si128(reinterpret_cast<__m128i*>(w[1] + t), _mm_setzero_si128());
  }
};
static_assert(sizeof(Sha512WkPair) == 1280);

// §6.4.2 step 1 for t, t+1, given the ring x[0..7] = W[t-16, t-15], ..., W[t-2, t-1] (per lane)
// rotated so that x[(I0 + j) % 8] holds W[t-16+2j, t-15+2j]. Overwrites the oldest entry.
template <class Sigma, int I0>
[[gnu::always_inline]] inline __m256i sha512_schedule2(__m256i (&x)[8]) {
  const __m256i w15 = _mm256_alignr_epi8(x[(I0 + 1) % 8], x[I0 % 8], 8);        // W[t-15, t-14]
  const __m256i w7 = _mm256_alignr_epi8(x[(I0 + 5) % 8], x[(I0 + 4) % 8], 8);   // W[t-7, t-6]
  const __m256i s = _mm256_add_epi64(Sigma::sigma0(w15), Sigma::sigma1(x[(I0 + 7) % 8]));
  x[I0 % 8] = _mm256_add_epi64(_mm256_add_epi64(x[I0 % 8], w7), s);
  return x[I0 % 8];
}

// K[t], K[t+1] for both 128-bit lanes, laid out as the schedule registers are (§4.2.3 constants): the add
// that forms K + W takes them as its memory operand, where a broadcast would be a separate load uop.
struct Sha512KTwice {
  alignas(32) std::uint64_t k[80 * 2];
};
inline constexpr Sha512KTwice kSha512KTwice = [] {
  Sha512KTwice r{};
  for (int t = 0; t < 80; ++t) r.k[2 * (t & ~1) + (t & 1)] = r.k[2 * (t & ~1) + 2 + (t & 1)] = kSha512K[t];
  return r;
}();
static_assert(kSha512KTwice.k[0] == kSha512K[0] && kSha512KTwice.k[3] == kSha512K[1] &&
              kSha512KTwice.k[158] == kSha512K[78] && kSha512KTwice.k[157] == kSha512K[79]);

// Stores K[t, t+1] + W[t, t+1] (t even) of both blocks.
[[gnu::always_inline]] inline void sha512_store_wk(Sha512WkPair& wk, int t, __m256i w) {
  wk.store(t, _mm256_add_epi64(w, _mm256_load_si256(reinterpret_cast<const __m256i*>(kSha512KTwice.k + 2 * t))));
}

// 64-bit words from big-endian bytes (§3.1), in both lanes.
[[gnu::always_inline]] inline __m256i sha512_bswap_words(__m256i raw) {
  const __m256i bswap64 = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                                           7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  return _mm256_shuffle_epi8(raw, bswap64);
}

// Loads 16 bytes of each block into the two lanes, as words (§6.4.2 step 1).
[[gnu::always_inline]] inline __m256i sha512_load_words(const std::uint8_t* a, const std::uint8_t* b) {
  return sha512_bswap_words(_mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), 1));
}

// Schedule step J (W[t+16+2J, t+17+2J] of both blocks, stored with K), then rounds t+2J, t+2J+1 of block A:
// one step per pair of rounds, so that the vector work issues among the scalar rounds.
template <class Sigma, int J>
[[gnu::always_inline]] inline void sha512_step_and_rounds2(Sha2Vars<std::uint64_t>& s, __m256i (&x)[8],
                                                           Sha512WkPair& wk, int t) {
  sha512_store_wk(wk, t + 16 + 2 * J, sha512_schedule2<Sigma, J>(x));
  sha2_rounds2<(2 * J) % 8>(s, wk.at(0, t + (J / 4) * 8));
}

// Sixteen rounds t..t+15 of block A, scheduling W[t+16..t+31] of both blocks alongside.
template <class Sigma>
[[gnu::always_inline]] inline void sha512_rounds16_scheduling(Sha2Vars<std::uint64_t>& s, __m256i (&x)[8],
                                                              Sha512WkPair& wk, int t) {
  sha512_step_and_rounds2<Sigma, 0>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 1>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 2>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 3>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 4>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 5>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 6>(s, x, wk, t);
  sha512_step_and_rounds2<Sigma, 7>(s, x, wk, t);
}

// The 80 rounds of block A into h, scheduling as they go: x holds its first 16 words, wk their K + W.
template <class Sigma>
[[gnu::always_inline]] inline void sha512_rounds80_lane_a(std::uint64_t h[8], __m256i (&x)[8], Sha512WkPair& wk) {
  Sha2Vars<std::uint64_t> s = sha2_load_vars(h);
  // The ring index restarts at 0 every 16 rounds because 8 schedule steps rotate it fully.
  for (int t = 0; t < 64; t += 16) sha512_rounds16_scheduling<Sigma>(s, x, wk, t);
  sha2_rounds8(s, wk.at(0, 64));
  sha2_rounds8(s, wk.at(0, 72));
  sha2_add_vars(h, s);
}

// Block B's 80 rounds on its stored K + W. In the last pair of a call (kWipe) they also zero the K + W of both
// blocks as they consume it, so that the burn after the call skips those 1280 bytes (WipedSpan, stack_burn.h):
// issued among the last rounds, the zeroing stores cost less than in the burn after them (AMD Zen 3, bench/:
// sha512-upd100 576 -> 605-636 MB/s, by where the message lies). Only the last pair: wiping in every pair cost 8% at
// 16 KiB (736 -> 676 MB/s).
template <bool kWipe>
[[gnu::always_inline]] inline void sha512_rounds80_lane_b(std::uint64_t h[8], Sha512WkPair& wk) {
  Sha2Vars<std::uint64_t> s = sha2_load_vars(h);
  for (int t = 0; t < 80; t += 8) {
    sha2_rounds2<0>(s, wk.at(1, t));
    if constexpr (kWipe) wk.wipe(t);
    sha2_rounds2<2>(s, wk.at(1, t));
    if constexpr (kWipe) wk.wipe(t + 2);
    sha2_rounds2<4>(s, wk.at(1, t));
    if constexpr (kWipe) wk.wipe(t + 4);
    sha2_rounds2<6>(s, wk.at(1, t));
    if constexpr (kWipe) wk.wipe(t + 6);
  }
  sha2_add_vars(h, s);
}

// Not inlined into the seam entry point, which burns its frame afterwards (stack_burn.h) except for the K + W
// pairs, which it leaves zero: the span it returns. Aligned to 64 bytes because where it starts within a 64-byte
// line changed its speed (AMD Zen 3, bench/: the same code measured 710 MB/s at 16 KiB starting 48 bytes into a
// line, 734-736 starting at 0 or 16, in four builds).
template <class Sigma>
[[gnu::noinline, gnu::aligned(64)]] WipedSpan sha512_blocks_2lane(std::uint64_t h[8], const std::uint8_t* data,
                                                                  std::size_t nblocks) {
  Sha512WkPair wk;
  while (nblocks > 0) {
    // An odd last block, or a lone one, also goes in lane B; its copy's rounds are skipped. A lone block (a short
    // message's padded tail, say) costs less this way than through a ring of 32 K + W words with 1024 bytes burnt
    // (Zen 3, bench/: SHA-512 of 64 bytes 177 -> 184 MB/s, of 256 bytes 335 -> 348).
    const bool pair = nblocks >= 2;
    const std::uint8_t* block_b = pair ? data + 128 : data;
    __m256i x[8];
    for (int j = 0; j < 8; ++j) {
      x[j] = sha512_load_words(data + 16 * j, block_b + 16 * j);
      sha512_store_wk(wk, 2 * j, x[j]);
    }
    sha512_rounds80_lane_a<Sigma>(h, x, wk);

    if (nblocks > 2) {
      sha512_rounds80_lane_b<false>(h, wk);
    } else if (pair) {
      sha512_rounds80_lane_b<true>(h, wk);
    } else {
      std::memset(&wk, 0, sizeof wk);  // the last block, alone
    }
    const std::size_t done = pair ? 2 : 1;
    data += 128 * done;
    nblocks -= done;
  }
  return wiped_span(&wk, sizeof wk);
}

// The seam entry point of both single-message SHA-512 backends: the pairs, then the burn of the frame
// (stack_burn.h): K + W and spilled working variables, less the K + W, which the last block's rounds or a memset
// left zero. Frames (-O3, gcc 12 / clang 19): AVX-512 1352 / 1432 bytes, AVX2 1512 / 1432 (kSha512X86Stack).
template <class Sigma>
void sha512_x86_blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  burn_stack(kSha512X86Stack, sha512_blocks_2lane<Sigma>(h, data, nblocks));
}

}  // namespace
}  // namespace shakedown::internal
