// SHA-512 with AVX-512: single messages through the AVX2 two-block schedule with vprorq rotates and vpternlogq
// XORs, and eight messages at once, one per 64-bit element of a 512-bit register.
//
// The block loops are compiled for AVX-512F/VL/BW, AVX2 and BMI2 (x86_target.h). Single messages use only 256-bit
// registers (VL), so there is no 512-bit frequency licence to pay; the gain is fewer schedule uops. Many
// messages: sha2_lanes.h on lanes_avx512.h.
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

// Eight lanes: W[16] and the state fit the 32 ZMM registers; the state's copy and the transposes spill (gcc 12: a
// frame of 1736 bytes), burnt after each call.
constexpr std::size_t kX8Stack = 2560;

}  // namespace

// vpshufb on ZMM (BW) for the eight lanes, vprorq/vpternlogq on YMM (VL), rorx (BMI2).
constinit const Sha512Backend rows::sha512_x86_64_avx512 = {
    {"x86_64/avx512", "AVX-512F/VL/BW, BMI2 and OS-enabled ZMM state", x86::avx512bw, kBackendDefault},
    sha512_x86_blocks<Sha2SmallSigmas<Avx512VlWords<std::uint64_t>>>,
    // Eight lanes; below five busy ones the four lanes of x86_64/avx512vl (next in the table) are faster: 4 KiB
    // messages on Zen 4, 4 per call 2311 MB/s there. At five the two are even on Zen 4 (1635-1646 here against
    // 1683-1685 there), whose 512-bit operations run as two halves; at six 1954 against 1430 (bench/: sha512-x<N>).
    {8, 5, sha2_lanes_seam<Avx512Lanes<std::uint64_t>, kX8Stack>}};

}  // namespace shakedown::internal
