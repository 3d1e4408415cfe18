// SHA-512 with the Armv8.2 SHA-512 instructions (FEAT_SHA512: SHA512H, SHA512H2, SHA512SU0, SHA512SU1).
#include <arm_neon.h>

#include "backend_rows.h"
#include "internal/stack_burn.h"
#include "arm64_target.h"
#include "internal/sha2_constants.h"

namespace shakedown::internal {
namespace {

// One 128-byte block (FIPS 180-4 §6.4.2). The state lives in four vectors of two words, {a,b},
// {c,d}, {e,f}, {g,h}, as loaded from h[0..7]. Each step performs two rounds t, t+1 (Arm ARM,
// SHA512H / SHA512H2): SHA512H adds Σ1 and Ch of the e..h half into the {g,h} vector (which first
// receives W+K, high word first), SHA512H2 then adds Σ0 and Maj from {a,b} and {c,d}. After the
// step, {g,h} holds the new {a,b}, and {c,d} + the SHA512H result is the new {e,f}; the four
// vectors rotate roles, which the assignments at the end of the loop express.
SHAKEDOWN_ARM64_TARGET_SHA3 void compress(uint64x2_t state[4], const std::uint8_t* block) {
  // W[0..15] are big-endian 64-bit words (§3.1): byte-reverse each lane.
  uint64x2_t w[8];
  for (int i = 0; i < 8; ++i) w[i] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(block + 16 * i)));

  uint64x2_t ab = state[0], cd = state[1], ef = state[2], gh = state[3];
  for (int step = 0; step < 40; ++step) {
    uint64x2_t& cur = w[step % 8];  // holds W[2 step], W[2 step + 1]
    const uint64x2_t wk = vaddq_u64(cur, vld1q_u64(kSha512K + 2 * step));
    const uint64x2_t fg = vextq_u64(ef, gh, 1);  // {f, g}
    const uint64x2_t de = vextq_u64(cd, ef, 1);  // {d, e}
    gh = vaddq_u64(gh, vextq_u64(wk, wk, 1));    // h + W[t] + K[t] in the high lane's partner order
    if (step < 32) {
      // §6.4.2 step 1: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for t = 2 step + 16, +17.
      // SHA512SU0 adds σ0(W[t-15]); SHA512SU1 adds σ1(W[t-2]) from W[t-2..] and W[t-7] from the
      // pair that straddles two vectors.
      const uint64x2_t w9_10 = vextq_u64(w[(step + 4) % 8], w[(step + 5) % 8], 1);
      cur = vsha512su1q_u64(vsha512su0q_u64(cur, w[(step + 1) % 8]), w[(step + 7) % 8], w9_10);
    }
    const uint64x2_t sum1 = vsha512hq_u64(gh, fg, de);
    const uint64x2_t new_ef = vaddq_u64(cd, sum1);
    const uint64x2_t new_ab = vsha512h2q_u64(sum1, cd, ab);
    gh = ef;
    ef = new_ef;
    cd = ab;
    ab = new_ab;
  }
  // §6.4.2 step 4: add the block's input state.
  state[0] = vaddq_u64(state[0], ab);
  state[1] = vaddq_u64(state[1], cd);
  state[2] = vaddq_u64(state[2], ef);
  state[3] = vaddq_u64(state[3], gh);
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA3 void compress_blocks(std::uint64_t h[8], const std::uint8_t* data,
                                                                     std::size_t nblocks) {
  uint64x2_t state[4];
  for (int i = 0; i < 4; ++i) state[i] = vld1q_u64(h + 2 * i);
  for (std::size_t i = 0; i < nblocks; ++i) compress(state, data + 128 * i);
  for (int i = 0; i < 4; ++i) vst1q_u64(h + 2 * i, state[i]);
}

// The seam entry point: the intrinsics code's spills (state vectors, W + K) are burnt after it returns
// (stack_burn.h; gcc 12 frame: 208 bytes).
void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(1024);
}

bool available(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha512); }

}  // namespace

constinit const Sha512Backend rows::sha512_arm64_sha512 = {
    {"arm64/sha512", "FEAT_SHA512 (HWCAP_SHA512)", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
