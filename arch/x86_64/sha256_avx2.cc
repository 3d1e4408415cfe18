// SHA-256 for x86-64 CPUs without SHA-NI: AVX2 message schedule for two blocks at once with BMI2 rounds, and
// eight messages at once, one per 32-bit element.
//
// The block functions are compiled for AVX2 and BMI2 (x86_target.h). Single messages: sha256_x86.h (two blocks'
// schedule in one register, scalar rounds). Many messages: sha2_lanes.h on lanes_avx2.h.
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
#include "sha256_x86.h"
#include "sha2_lanes.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

using Words = Avx2Lanes<std::uint32_t>;

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  sha256_blocks_2lane<Sha2SmallSigmas<Words>>(h, data, nblocks);
  burn_stack(kSha256Avx2Stack);  // K + W pairs, spilled working variables (stack_burn.h)
}

// Eight lanes: W[16], the state and its copy are 32 registers, twice what AVX2 has; the spills (gcc 12: a frame
// of 1416 bytes) are burnt after each call.
constexpr std::size_t kX8Stack = 2048;

}  // namespace

constinit const Sha256Backend rows::sha256_x86_64_avx2 = {
    {"x86_64/avx2", "AVX2, BMI2 and OS-enabled YMM state", x86::avx2_bmi2, kBackendDefault}, blocks,
    // Eight lanes; below three busy ones blocks() is faster per message (bench/).
    {8, 3, sha2_lanes_seam<Words, kX8Stack>}};

}  // namespace shakedown::internal
