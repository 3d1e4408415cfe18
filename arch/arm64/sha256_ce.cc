// SHA-256 with the Armv8 Cryptographic Extension (FEAT_SHA256: SHA256H, SHA256H2, SHA256SU0, SHA256SU1).
#include <arm_neon.h>

#include "backend_rows.h"
#include "internal/stack_burn.h"
#include "arm64_target.h"
#include "internal/sha2_constants.h"

namespace shakedown::internal {
namespace {

// One 64-byte block (FIPS 180-4 §6.2.2). The state lives in two vectors, ABCD and EFGH, as loaded
// from h[0..7]; each step performs four rounds: SHA256H updates ABCD, SHA256H2 updates EFGH from
// the old ABCD, both taking the four W[t] + K[t] sums (Arm ARM, SHA256H/SHA256H2).
SHAKEDOWN_ARM64_TARGET_SHA2 void compress(uint32x4_t& abcd, uint32x4_t& efgh, const std::uint8_t* block) {
  // W[0..15] are big-endian words (§3.1): byte-reverse each 32-bit lane.
  uint32x4_t w[4];
  for (int i = 0; i < 4; ++i) w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block + 16 * i)));

  const uint32x4_t abcd_in = abcd, efgh_in = efgh;
  for (int step = 0; step < 16; ++step) {
    uint32x4_t& cur = w[step % 4];  // holds W[4 step .. 4 step + 3]
    const uint32x4_t wk = vaddq_u32(cur, vld1q_u32(kSha256K + 4 * step));
    if (step < 12) {
      // §6.2.2 step 1: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for t = 4 step + 16 ..
      // 4 step + 19. SHA256SU0 adds σ0 of the next four words, SHA256SU1 the rest.
      cur = vsha256su1q_u32(vsha256su0q_u32(cur, w[(step + 1) % 4]), w[(step + 2) % 4], w[(step + 3) % 4]);
    }
    const uint32x4_t abcd_old = abcd;
    abcd = vsha256hq_u32(abcd, efgh, wk);
    efgh = vsha256h2q_u32(efgh, abcd_old, wk);
  }
  // §6.2.2 step 4: add the block's input state.
  abcd = vaddq_u32(abcd, abcd_in);
  efgh = vaddq_u32(efgh, efgh_in);
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA2 void compress_blocks(std::uint32_t h[8], const std::uint8_t* data,
                                                                     std::size_t nblocks) {
  uint32x4_t abcd = vld1q_u32(h), efgh = vld1q_u32(h + 4);
  for (std::size_t i = 0; i < nblocks; ++i) compress(abcd, efgh, data + 64 * i);
  vst1q_u32(h, abcd);
  vst1q_u32(h + 4, efgh);
}

// The seam entry point: the intrinsics code's spills (state vectors, W + K) are burnt after it returns
// (stack_burn.h; gcc 12 frame: 112 bytes).
void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(512);
}

// HWCAP_SHA2: Cortex-A72 and Neoverse-N1 have it (and only it: their SHA-512 and Keccak lists fall through).
bool available(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha2); }

}  // namespace

constinit const Sha256Backend rows::sha256_arm64_ce = {
    {"arm64/ce", "FEAT_SHA256 (HWCAP_SHA2)", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
