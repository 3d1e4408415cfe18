// Keccak-p[1600,24] with AVX2: four states at once, one per 64-bit element (SHA-3 and SHAKE of four messages);
// single states through the BMI1/BMI2 scalar permutation.
//
// The permutations are compiled for AVX2, BMI1 and BMI2 (x86_target.h). Many messages: keccak_lanes.h on
// lanes_avx2.h (ρ by two shifts and an OR, or one byte shuffle for 8 and 56; χ by ANDN and XOR). Single
// messages: keccak_x86.h, the code of x86_64/bmi2. What bounds the four lanes, and what was tried: docs/history.md §4.
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

SHAKEDOWN_X86_TARGET_BEGIN("avx2,bmi,bmi2")
#include "keccak_x86.h"
#include "lanes_avx2.h"
#include "keccak_lanes.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// Four states' 25 lanes and the round's temporaries are far more than 16 YMM registers: the spills (gcc 12: a
// frame of about 1.5 KiB) are burnt after each call.
constexpr std::size_t kX4Stack = 3072;

// AVX2 with OS-saved YMM state for the four lanes; ANDN (BMI1) and RORX (BMI2) for the scalar permutation.
bool available(const CpuFeatures& f) { return x86::avx2_bmi2(f) && f.has(CpuFeature::x86_bmi1); }

}  // namespace

constinit const KeccakBackend rows::keccak_x86_64_avx2 = {
    {"x86_64/avx2", "AVX2, BMI1, BMI2 and OS-enabled YMM state", available, kBackendDefault},
    keccak_x86_permute_seam, keccak_x86_absorb_seam, nullptr,
    // Four lanes; below two busy ones the scalar code is faster per message (bench/).
    {4, 2, keccak_lanes_seam<Avx2Lanes<std::uint64_t>, kX4Stack>}};

}  // namespace shakedown::internal
