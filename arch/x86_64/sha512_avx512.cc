// SHA-512 with AVX-512VL: the AVX2 two-block schedule with vprorq rotates and vpternlogq XORs.
//
// The block loop is compiled for AVX-512F/VL, AVX2 and BMI2 (x86_target.h). Only 256-bit registers are
// used (VL), so there is no 512-bit frequency licence to pay; the gain is fewer schedule uops.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "backend_rows.h"
#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "x86_features.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("avx512f,avx512vl,avx2,bmi2")
#include "sha512_x86.h"

namespace shakedown::internal {
namespace {

// a ^ b ^ c in one vpternlogq: immediate 0x96 is the truth table of a ^ b ^ c (Intel SDM Vol. 2, VPTERNLOGQ).
// MSan has no shadow rule for it and checks its operands instead, so the mark is carried around it
// (lib/src/internal/msan.h); a no-op outside MSan builds.
[[gnu::always_inline]] inline __m256i xor3(__m256i a, __m256i b, __m256i c) {
  const bool marked_a = msan::take_mark(&a, sizeof a), marked_b = msan::take_mark(&b, sizeof b);
  const bool marked = msan::take_mark(&c, sizeof c) || marked_a || marked_b;
  __m256i r = _mm256_ternarylogic_epi64(a, b, c, 0x96);
  if (marked) msan::poison(&r, sizeof r);
  return r;
}

// FIPS 180-4 §4.1.3 (4.12), (4.13) on four words.
struct Avx512SmallSigma {
  [[gnu::always_inline]] static __m256i sigma0(__m256i x) {
    return xor3(_mm256_ror_epi64(x, 1), _mm256_ror_epi64(x, 8), _mm256_srli_epi64(x, 7));
  }
  [[gnu::always_inline]] static __m256i sigma1(__m256i x) {
    return xor3(_mm256_ror_epi64(x, 19), _mm256_ror_epi64(x, 61), _mm256_srli_epi64(x, 6));
  }
};

}  // namespace
}  // namespace shakedown::internal
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  sha512_blocks_2lane<Avx512SmallSigma>(h, data, nblocks);
  burn_stack(kSha512X86Stack);  // K + W pairs, spilled working variables (stack_burn.h)
}

}  // namespace

constinit const Sha512Backend rows::sha512_x86_64_avx512 = {
    {"x86_64/avx512", "AVX-512F/VL, BMI2 and OS-enabled ZMM state", x86::avx512vl, kBackendDefault}, blocks};

}  // namespace shakedown::internal
