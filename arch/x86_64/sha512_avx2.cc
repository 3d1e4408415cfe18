// SHA-512 for x86-64 with AVX2: message schedule for two blocks at once, BMI2 rorx rounds.
//
// The block loop is compiled for AVX2 and BMI2 (x86_target.h). The schedule and round structure is shared with
// the AVX-512 variant (sha512_x86.h); only σ0/σ1 differ, because AVX2 has no 64-bit vector rotate.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "backend_rows.h"
#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "x86_features.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("avx2,bmi2")
#include "sha512_x86.h"

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
}  // namespace shakedown::internal
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  sha512_blocks_2lane<Avx2SmallSigma>(h, data, nblocks);
  burn_stack(kSha512X86Stack);  // K + W pairs, spilled working variables (stack_burn.h)
}

}  // namespace

constinit const Sha512Backend rows::sha512_x86_64_avx2 = {
    {"x86_64/avx2", "AVX2, BMI2 and OS-enabled YMM state", x86::avx2_bmi2, kBackendDefault}, blocks};

}  // namespace shakedown::internal
