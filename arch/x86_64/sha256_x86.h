// SHA-256 block loop shared by the AVX2 and AVX-512 backends: two-block vector schedule, scalar rounds.
//
// Each 256-bit register holds four schedule words of block A in its low 128-bit lane and the same
// four words of block B in its high lane, so one schedule serves two blocks. The schedule of W[t+16..] is
// computed while the scalar rounds of block A consume W[t..], and block B's rounds then run on the stored
// K + W with no schedule work. The includer includes this inside its ISA region (x86_target.h) and supplies
// σ0/σ1 on eight words; internal linkage (see sha2_x86.h) keeps the two compilations apart.
#pragma once

#include <immintrin.h>

#include "sha2_x86.h"

namespace shakedown::internal {
namespace {

// §6.2.2 step 1 for t..t+3, given x0..x3 = W[t-16..t-13], W[t-12..t-9], W[t-8..t-5], W[t-4..t-1]
// (per 128-bit lane, word t-16 in element 0). W[t+2], W[t+3] need σ1 of W[t], W[t+1], computed here
// first, so σ1 is applied in two halves.
template <class Sigma>
[[gnu::always_inline]] inline __m256i sha256_schedule4(__m256i x0, __m256i x1, __m256i x2, __m256i x3) {
  const __m256i w15 = _mm256_alignr_epi8(x1, x0, 4);  // W[t-15..t-12]
  const __m256i w7 = _mm256_alignr_epi8(x3, x2, 4);   // W[t-7..t-4]
  __m256i w = _mm256_add_epi32(_mm256_add_epi32(x0, w7), Sigma::sigma0(w15));
  w = _mm256_add_epi32(w, _mm256_bsrli_epi128(Sigma::sigma1(x3), 8));  // + σ1(W[t-2], W[t-1]) -> W[t], W[t+1]
  return _mm256_add_epi32(w, _mm256_bslli_epi128(Sigma::sigma1(w), 8));  // + σ1(W[t], W[t+1]) -> W[t+2], W[t+3]
}

// The stored K + W of the two blocks, each contiguous so that a round reads its word at a fixed
// displacement from the start of its group of eight (sha2_rounds2).
struct Sha256WkPair {
  alignas(32) std::uint32_t w[2][64];
  const std::uint32_t* at(int lane, int t) const { return w[lane] + t; }
};
static_assert(sizeof(Sha256WkPair) == 512);

// Stores K[t..t+3] + W[t..t+3] of both blocks (t a multiple of 4): the low lane is block A's.
[[gnu::always_inline]] inline void sha256_store_wk(Sha256WkPair& wk, int t, __m256i w) {
  const __m256i k = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + t)));
  const __m256i sum = _mm256_add_epi32(w, k);
  _mm_store_si128(reinterpret_cast<__m128i*>(wk.w[0] + t), _mm256_castsi256_si128(sum));
  _mm_store_si128(reinterpret_cast<__m128i*>(wk.w[1] + t), _mm256_extracti128_si256(sum, 1));
}

// Loads 16 bytes of each block into the two lanes, as big-endian words (§3.1, §6.2.2 step 1).
[[gnu::always_inline]] inline __m256i sha256_load_words(const std::uint8_t* a, const std::uint8_t* b) {
  const __m256i bswap32 = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,  //
                                           3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  const __m256i raw = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), 1);
  return _mm256_shuffle_epi8(raw, bswap32);
}

// Not inlined into the seam entry point, which burns its frame afterwards (stack_burn.h).
template <class Sigma>
[[gnu::noinline]] void sha256_blocks_2lane(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  Sha256WkPair wk;
  while (nblocks > 0) {
    // An odd last block also goes in lane B; its copy's rounds are skipped.
    const bool pair = nblocks >= 2;
    const std::uint8_t* block_b = pair ? data + 64 : data;
    __m256i x0 = sha256_load_words(data, block_b), x1 = sha256_load_words(data + 16, block_b + 16);
    __m256i x2 = sha256_load_words(data + 32, block_b + 32), x3 = sha256_load_words(data + 48, block_b + 48);
    sha256_store_wk(wk, 0, x0);
    sha256_store_wk(wk, 4, x1);
    sha256_store_wk(wk, 8, x2);
    sha256_store_wk(wk, 12, x3);

    Sha2Vars<std::uint32_t> s = sha2_load_vars(h);
    for (int t = 0; t < 48; t += 16) {
      // Schedule W[t+16..t+31] while the rounds t..t+15 of block A run on what is stored.
      // One schedule step per four rounds, so that the vector work issues among the scalar rounds.
      x0 = sha256_schedule4<Sigma>(x0, x1, x2, x3);
      sha256_store_wk(wk, t + 16, x0);
      sha2_rounds2<0>(s, wk.at(0, t));
      sha2_rounds2<2>(s, wk.at(0, t));
      x1 = sha256_schedule4<Sigma>(x1, x2, x3, x0);
      sha256_store_wk(wk, t + 20, x1);
      sha2_rounds2<4>(s, wk.at(0, t));
      sha2_rounds2<6>(s, wk.at(0, t));
      x2 = sha256_schedule4<Sigma>(x2, x3, x0, x1);
      sha256_store_wk(wk, t + 24, x2);
      sha2_rounds2<0>(s, wk.at(0, t + 8));
      sha2_rounds2<2>(s, wk.at(0, t + 8));
      x3 = sha256_schedule4<Sigma>(x3, x0, x1, x2);
      sha256_store_wk(wk, t + 28, x3);
      sha2_rounds2<4>(s, wk.at(0, t + 8));
      sha2_rounds2<6>(s, wk.at(0, t + 8));
    }
    sha2_rounds8(s, wk.at(0, 48));
    sha2_rounds8(s, wk.at(0, 56));
    sha2_add_vars(h, s);

    if (pair) {
      s = sha2_load_vars(h);
      for (int t = 0; t < 64; t += 8) sha2_rounds8(s, wk.at(1, t));
      sha2_add_vars(h, s);
    }
    const std::size_t done = pair ? 2 : 1;
    data += 64 * done;
    nblocks -= done;
  }
}

}  // namespace
}  // namespace shakedown::internal
