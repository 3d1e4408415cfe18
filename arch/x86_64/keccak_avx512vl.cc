// Keccak-p[1600,24] with AVX-512VL on 256-bit registers: four states at once, one per 64-bit element (SHA-3 and
// SHAKE of four messages, the ML-KEM/ML-DSA shape); single states through the BMI1/BMI2 scalar permutation.
//
// The lanes of x86_64/avx2 with AVX-512's rotate and three-input logic (lanes_avx512.h: Avx512VlLanes64): ρ in one
// vprolq instead of two shifts and an OR, χ and θ's XORs in one vpternlogq, and the 25 lanes of four states held
// in ymm0-31 instead of spilled from AVX2's 16 registers. Four messages are what x86_64/avx512's eight lanes run
// half empty, on 512-bit operations that Zen 4 executes in two halves. Single messages: keccak_x86.h.
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

// What the 32 registers do not hold (gcc 12: frames of 840-904 bytes; clang 19: 200), burnt after each call.
constexpr std::size_t kX4Stack = 1536;

// AVX-512F/VL with OS-saved ZMM state (the 256-bit EVEX forms fault without it); ANDN and RORX for one state.
bool available(const CpuFeatures& f) { return x86::avx512vl(f) && f.has(CpuFeature::x86_bmi1); }

}  // namespace

constinit const KeccakBackend rows::keccak_x86_64_avx512vl = {
    {"x86_64/avx512vl", "AVX-512F/VL, BMI1, BMI2 and OS-enabled ZMM state", available, kBackendDefault},
    keccak_x86_permute_seam, keccak_x86_absorb_seam, nullptr,
    // Four lanes: from two busy ones they beat the scalar code one message at a time (2.5x at two messages of 4 KiB
    // on Zen 4); x86_64/avx512 before it takes five and more (bench/: shake128-x<N>, sha3-256-x<N>).
    {4, 2, keccak_lanes_seam<Avx512VlLanes64, kX4Stack>}};

}  // namespace shakedown::internal
