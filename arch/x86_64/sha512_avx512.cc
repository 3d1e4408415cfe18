// SHA-512 with AVX-512VL: the AVX2 two-block schedule with vprorq rotates and vpternlogq XORs.
//
// Compiled with -mavx512f -mavx512vl -mavx2 -mbmi2 (CMakeLists.txt). Only 256-bit registers are
// used (VL), so there is no 512-bit frequency licence to pay; the gain is fewer schedule uops.
#include "sha512_x86.h"
#include "x86_backends.h"

namespace shakedown::internal {
namespace {

// vpternlogq immediate 0x96 is the truth table of a ^ b ^ c (Intel SDM Vol. 2, VPTERNLOGQ).
constexpr int kXor3 = 0x96;

// FIPS 180-4 §4.1.3 (4.12), (4.13) on four words.
struct Avx512SmallSigma {
  [[gnu::always_inline]] static __m256i sigma0(__m256i x) {
    return _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 1), _mm256_ror_epi64(x, 8), _mm256_srli_epi64(x, 7), kXor3);
  }
  [[gnu::always_inline]] static __m256i sigma1(__m256i x) {
    return _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 19), _mm256_ror_epi64(x, 61), _mm256_srli_epi64(x, 6),
                                     kXor3);
  }
};

}  // namespace

void sha512_blocks_avx512(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  sha512_blocks_burning<Avx512SmallSigma>(h, data, nblocks);
}

}  // namespace shakedown::internal
