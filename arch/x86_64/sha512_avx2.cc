// SHA-512 for x86-64 with AVX2: message schedule for two blocks at once with BMI2 rorx rounds, and four messages
// at once, one per 64-bit element.
//
// The block loops are compiled for AVX2 and BMI2 (x86_target.h). Single messages: the schedule and round
// structure is shared with the AVX-512 variant (sha512_x86.h); only σ0/σ1 differ, because AVX2 has no 64-bit
// vector rotate. Many messages: sha2_lanes.h on lanes_avx2.h.
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
#include "lanes_avx2.h"
#include "sha2_lanes.h"
#include "sha512_x86.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// Four lanes: W[16], the state and its copy are 32 registers, twice what AVX2 has; the spills (gcc 12: a frame
// of 1384 bytes) are burnt after each call.
constexpr std::size_t kX4Stack = 2048;

}  // namespace

constinit const Sha512Backend rows::sha512_x86_64_avx2 = {
    {"x86_64/avx2", "AVX2, BMI2 and OS-enabled YMM state", x86::avx2_bmi2, kBackendDefault},
    sha512_x86_blocks<Sha2SmallSigmas<Avx2Lanes<std::uint64_t>>>,
    // Four lanes; below three busy ones blocks() is faster per message (bench/).
    {4, 3, sha2_lanes_seam<Avx2Lanes<std::uint64_t>, kX4Stack>}};

}  // namespace shakedown::internal
