// SHA-512 with AVX-512VL on 256-bit registers: four messages at once, one per 64-bit element; single messages
// through x86_64/avx512's two-block schedule.
//
// The lanes of x86_64/avx2 with AVX-512's rotate and three-input logic (lanes_avx512.h: Avx512VlLanes64): Σ and σ
// in four instructions instead of nine, Ch and Maj in one, and W[16], the state and its copy in ymm0-31 instead of
// spilled from AVX2's 16 registers. Four messages are what x86_64/avx512's eight lanes run half empty.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "backend_rows.h"
#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "x86_features.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("avx512f,avx512vl,avx512bw,avx2,bmi2")
#include "lanes_avx512.h"
#include "sha2_lanes.h"
#include "sha512_x86.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// What the 32 registers do not hold (gcc 12: a frame of 648 bytes; clang 19: 408), burnt after each call.
constexpr std::size_t kX4Stack = 1024;

}  // namespace

// The single-message code is x86_64/avx512's (vpshufb on YMM, vprorq/vpternlogq, rorx), so the predicate is its.
constinit const Sha512Backend rows::sha512_x86_64_avx512vl = {
    {"x86_64/avx512vl", "AVX-512F/VL/BW, BMI2 and OS-enabled ZMM state", x86::avx512bw, kBackendDefault},
    sha512_x86_blocks<Sha2SmallSigmas<Avx512VlWords<std::uint64_t>>>,
    // Four lanes; from two busy ones they beat blocks() one message at a time: 4 KiB messages on Zen 4, 2 per call
    // 1131-1158 MB/s against 801-813, 4 per call 2311 (bench/: sha512-x<N>).
    {4, 2, sha2_lanes_seam<Avx512VlLanes64, kX4Stack>}};

}  // namespace shakedown::internal
