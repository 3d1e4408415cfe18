// SHA-256 with AVX-512: sixteen messages at once, one per 32-bit element of a 512-bit register; single messages
// through the AVX2 two-block schedule with AVX-512VL rotates.
//
// The block functions are compiled for AVX-512F/VL/BW, AVX2 and BMI2 (x86_target.h). Many messages:
// sha2_lanes.h on lanes_avx512.h (vprord for the rotations, vpternlogd for Ch, Maj and the three-way XORs).
// Single messages: sha256_x86.h, as x86_64/avx2 but with σ0/σ1 in four instructions instead of nine.
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
#include "sha256_x86.h"
#include "sha2_lanes.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  sha256_blocks_2lane<Sha2SmallSigmas<Avx512VlWords<std::uint32_t>>>(h, data, nblocks);
  burn_stack(kSha256Avx2Stack);  // K + W pairs, spilled working variables (stack_burn.h)
}

// Sixteen lanes: W[16] and the state fit the 32 ZMM registers; the state's copy and the transposes spill (gcc 12:
// a frame of 1864 bytes), burnt after each call.
constexpr std::size_t kX16Stack = 2560;

// min_busy 10 is measured against two SHA-NI streams where SHA256RNDS2 issues every third cycle; where it issues
// every cycle those stay ahead at every count, and hash_many() leaves the sixteen lanes to a name or a pin.
bool lanes_ahead(const CpuFeatures& f) { return !x86::sha256rnds2_every_cycle(f); }

}  // namespace

// vpshufb on ZMM (BW), vprord/vpternlogd on YMM (VL), rorx (BMI2). Many-only: first in the table for its lanes,
// while single messages go to x86_64/shani (or x86_64/avx2: this row's blocks() is reachable by name only).
constinit const Sha256Backend rows::sha256_x86_64_avx512 = {
    {"x86_64/avx512", "AVX-512F/VL/BW, BMI2 and OS-enabled ZMM state", x86::avx512bw, kBackendManyOnly}, blocks,
    // Sixteen lanes; with fewer than ten busy, x86_64/shani (two lanes, or one message at a time) is faster (bench/).
    {16, 10, sha2_lanes_seam<Avx512Lanes<std::uint32_t>, kX16Stack>, lanes_ahead}};

}  // namespace shakedown::internal
