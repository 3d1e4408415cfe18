// Keccak-p[1600,24] with AVX-512: eight states at once, one per 64-bit element of a 512-bit register (SHA-3 and
// SHAKE of eight messages); single states through the BMI1/BMI2 scalar permutation.
//
// The permutations are compiled for AVX-512F, AVX2, BMI1 and BMI2 (x86_target.h). Many messages: keccak_lanes.h on
// lanes_avx512.h (ρ by vprolq, χ and θ's five-way XOR by vpternlogq; 25 lanes and the temporaries nearly fit the
// 32 ZMM registers). Single messages: keccak_x86.h, the code of x86_64/bmi2.
#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/bytes.h"
#include "internal/keccak_constants.h"
#include "internal/msan.h"
#include "internal/stack_burn.h"
#include "x86_features.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("avx512f,avx512vl,avx2,bmi,bmi2")
#include "keccak_x86.h"
#include "lanes_avx512.h"
#include "keccak_lanes.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// The states in and out and the ping-pong state spill (gcc 12: a frame of about 1.7 KiB), burnt after each call.
constexpr std::size_t kX8Stack = 3072;

// AVX-512F with OS-saved ZMM state for the eight lanes; ANDN (BMI1) and RORX (BMI2) for the scalar permutation.
bool available(const CpuFeatures& f) { return x86::avx512vl(f) && f.has(CpuFeature::x86_bmi1); }

}  // namespace

constinit const KeccakBackend rows::keccak_x86_64_avx512 = {
    {"x86_64/avx512", "AVX-512F, BMI1, BMI2 and OS-enabled ZMM state", available, kBackendDefault},
    keccak_x86_permute_seam, keccak_x86_absorb_seam, nullptr,
    // Eight lanes; below five busy ones the four lanes of x86_64/avx512vl (next in the table) are faster: SHAKE128,
    // 4 KiB messages on Zen 4, 4 per call 2835 MB/s there against 1537 here; 5 per call 1930 here against 1678
    // there, 6 per call 2305 against 2131 (bench/: shake128-x<N>).
    {8, 5, keccak_lanes_seam<Avx512Lanes<std::uint64_t>, kX8Stack>}};

}  // namespace shakedown::internal
