// SHA-256 with the Armv8 Cryptographic Extension (FEAT_SHA256: SHA256H, SHA256H2, SHA256SU0, SHA256SU1).
#include <arm_neon.h>

#include "backend_rows.h"
#include "internal/stack_burn.h"
#include "arm64_target.h"
#include "internal/sha2_constants.h"

namespace shakedown::internal {
namespace {

// One stream's state in two vectors, ABCD and EFGH, as loaded from h[0..7].
struct AbcdEfgh {
  uint32x4_t abcd, efgh;
};

// One 64-byte block of each of N independent streams (FIPS 180-4 §6.2.2), step by step side by side. Each step
// performs four rounds: SHA256H updates ABCD, SHA256H2 updates EFGH from the old ABCD, both taking the four
// W[t] + K[t] sums (Arm ARM, SHA256H/SHA256H2). One stream's rounds are a single dependency chain through
// instructions of several cycles' latency; a second, independent stream fills the gaps (as x86_64/shani's two
// streams do). N = 1 is the single-message code.
template <int N>
[[gnu::always_inline]] SHAKEDOWN_ARM64_TARGET_SHA2 inline void compress_streams(AbcdEfgh (&s)[N],
                                                                                const std::uint8_t* const (&block)[N]) {
  // The stream loops are unrolled (the pragmas) so that every stream's vectors are registers of their own rather
  // than an array indexed at run time.
  static_assert(N >= 1 && N <= 4, "the unroll pragmas cover at most 4 streams");
  // W[0..15] are big-endian words (§3.1): byte-reverse each 32-bit lane.
  uint32x4_t w[N][4];
  AbcdEfgh in[N];
#pragma GCC unroll 4
  for (int i = 0; i < N; ++i) {
    in[i] = s[i];
    for (int j = 0; j < 4; ++j) w[i][j] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block[i] + 16 * j)));
  }
#pragma GCC unroll 16
  for (int step = 0; step < 16; ++step) {
    const uint32x4_t k = vld1q_u32(kSha256K + 4 * step);
#pragma GCC unroll 4
    for (int i = 0; i < N; ++i) {
      uint32x4_t& cur = w[i][step % 4];  // holds W[4 step .. 4 step + 3]
      const uint32x4_t wk = vaddq_u32(cur, k);
      if (step < 12) {
        // §6.2.2 step 1: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for t = 4 step + 16 ..
        // 4 step + 19. SHA256SU0 adds σ0 of the next four words, SHA256SU1 the rest.
        cur = vsha256su1q_u32(vsha256su0q_u32(cur, w[i][(step + 1) % 4]), w[i][(step + 2) % 4],
                              w[i][(step + 3) % 4]);
      }
      const uint32x4_t abcd_old = s[i].abcd;
      s[i].abcd = vsha256hq_u32(s[i].abcd, s[i].efgh, wk);
      s[i].efgh = vsha256h2q_u32(s[i].efgh, abcd_old, wk);
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < N; ++i) {  // §6.2.2 step 4: add the block's input state
    s[i].abcd = vaddq_u32(s[i].abcd, in[i].abcd);
    s[i].efgh = vaddq_u32(s[i].efgh, in[i].efgh);
  }
}

// N streams over nblocks blocks each, from and back to their h[].
template <int N>
[[gnu::always_inline]] SHAKEDOWN_ARM64_TARGET_SHA2 inline void compress_runs(std::uint32_t* const (&h)[N],
                                                                             const std::uint8_t* const (&data)[N],
                                                                             std::size_t nblocks) {
  AbcdEfgh s[N];
  for (int i = 0; i < N; ++i) s[i] = {vld1q_u32(h[i]), vld1q_u32(h[i] + 4)};
  for (std::size_t b = 0; b < nblocks; ++b) {
    const std::uint8_t* block[N];
    for (int i = 0; i < N; ++i) block[i] = data[i] + 64 * b;
    compress_streams<N>(s, block);
  }
  for (int i = 0; i < N; ++i) {
    vst1q_u32(h[i], s[i].abcd);
    vst1q_u32(h[i] + 4, s[i].efgh);
  }
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA2 void compress_blocks(std::uint32_t h[8], const std::uint8_t* data,
                                                                     std::size_t nblocks) {
  std::uint32_t* const state[1] = {h};
  const std::uint8_t* const run[1] = {data};
  compress_runs<1>(state, run, nblocks);
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA2 void compress_x2(std::uint32_t* const h[],
                                                              const std::uint8_t* const data[], std::size_t nblocks) {
  std::uint32_t* const state[2] = {h[0], h[1]};
  const std::uint8_t* const run[2] = {data[0], data[1]};
  compress_runs<2>(state, run, nblocks);
}

// The seam entry points: the intrinsics code's spills are burnt after it returns (stack_burn.h). Without
// sanitizers both compilers keep the streams in registers (frames of 16-128 bytes: callee-saved d8-d15, a few
// vectors); UBSan's pointer-overflow checks of the unrolled rounds spill, deepest in clang 19 -O3 (784 bytes for
// one stream, 1104 for two; gcc 12: 176 and 384).
constexpr std::size_t kCeStack = 1024;
constexpr std::size_t kCeX2Stack = 1536;

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(kCeStack);
}

// Two streams: the multi-lane entry (backend.h).
void blocks_x2(std::uint32_t* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  if (nblocks == 0) return;  // not even the pointer arrays
  compress_x2(h, data, nblocks);
  burn_stack(kCeX2Stack);
}

// HWCAP_SHA2: Cortex-A72 and Neoverse-N1 have it (and only it: their SHA-512 and Keccak lists fall through).
bool available(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha2); }

}  // namespace

constinit const Sha256Backend rows::sha256_arm64_ce = {
    {"arm64/ce", "FEAT_SHA256 (HWCAP_SHA2)", available, kBackendDefault}, blocks,
    // Two lanes from two busy ones, as x86_64/shani: not measured (no arm64 hardware here).
    {2, 2, blocks_x2}};

}  // namespace shakedown::internal
