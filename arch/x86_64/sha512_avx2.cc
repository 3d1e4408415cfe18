// SHA-512 for x86-64 with AVX2: message schedule for two blocks at once, BMI2 rorx rounds.
//
// Compiled with -mavx2 -mbmi2 (CMakeLists.txt). The schedule and round structure is shared with
// the AVX-512 variant (sha512_x86.h); only σ0/σ1 differ, because AVX2 has no 64-bit vector rotate.
#include "sha512_x86.h"
#include "x86_backends.h"

namespace shakedown::internal {
namespace {

// FIPS 180-4 §4.1.3 (4.12), (4.13) on four words: ROTR^n(x) = (x >> n) | (x << (64 - n)); the
// terms are disjoint bit fields, so XOR combines them like OR.
struct Avx2SmallSigma {
  [[gnu::always_inline]] static __m256i sigma0(__m256i x) {
    __m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_slli_epi64(x, 63));
    r = _mm256_xor_si256(r, _mm256_xor_si256(_mm256_srli_epi64(x, 8), _mm256_slli_epi64(x, 56)));
    return _mm256_xor_si256(r, _mm256_srli_epi64(x, 7));
  }
  [[gnu::always_inline]] static __m256i sigma1(__m256i x) {
    __m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_slli_epi64(x, 45));
    r = _mm256_xor_si256(r, _mm256_xor_si256(_mm256_srli_epi64(x, 61), _mm256_slli_epi64(x, 3)));
    return _mm256_xor_si256(r, _mm256_srli_epi64(x, 6));
  }
};

}  // namespace

void sha512_blocks_avx2(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  sha512_blocks_burning<Avx2SmallSigma>(h, data, nblocks);
}

}  // namespace shakedown::internal
