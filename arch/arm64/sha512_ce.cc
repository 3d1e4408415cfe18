// SHA-512 with the Armv8.2 SHA-512 instructions (FEAT_SHA512: SHA512H, SHA512H2, SHA512SU0, SHA512SU1).
#include <arm_neon.h>

#include "backend_rows.h"
#include "internal/stack_burn.h"
#include "arm64_target.h"
#include "internal/sha2_constants.h"

namespace shakedown::internal {
namespace {

// One stream's state in four vectors of two words, {a,b}, {c,d}, {e,f}, {g,h}, as loaded from h[0..7].
struct Sha512Vectors {
  uint64x2_t v[4];
};

// One 128-byte block of each of N independent streams (FIPS 180-4 §6.4.2), step by step side by side. Each step
// performs two rounds t, t+1 (Arm ARM, SHA512H / SHA512H2): SHA512H adds Σ1 and Ch of the e..h half into the
// {g,h} vector (which first receives W+K, high word first), SHA512H2 then adds Σ0 and Maj from {a,b} and {c,d}.
// After the step, {g,h} holds the new {a,b}, and {c,d} + the SHA512H result is the new {e,f}; the four vectors
// rotate roles, which the assignments at the end of the step express. One stream's rounds are a single dependency
// chain through instructions of several cycles' latency; a second, independent stream fills the gaps. N = 1 is
// the single-message code.
template <int N>
[[gnu::always_inline]] SHAKEDOWN_ARM64_TARGET_SHA3 inline void compress_streams(Sha512Vectors (&s)[N],
                                                                                const std::uint8_t* const (&block)[N]) {
  // The stream loops are unrolled (the pragmas) so that every stream's vectors are registers of their own rather
  // than an array indexed at run time.
  static_assert(N >= 1 && N <= 4, "the unroll pragmas cover at most 4 streams");
  // W[0..15] are big-endian 64-bit words (§3.1): byte-reverse each lane.
  uint64x2_t w[N][8];
  uint64x2_t ab[N], cd[N], ef[N], gh[N];
#pragma GCC unroll 4
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < 8; ++j) w[i][j] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(block[i] + 16 * j)));
    ab[i] = s[i].v[0];
    cd[i] = s[i].v[1];
    ef[i] = s[i].v[2];
    gh[i] = s[i].v[3];
  }
  for (int step = 0; step < 40; ++step) {
    const uint64x2_t k = vld1q_u64(kSha512K + 2 * step);
#pragma GCC unroll 4
    for (int i = 0; i < N; ++i) {
      uint64x2_t& cur = w[i][step % 8];  // holds W[2 step], W[2 step + 1]
      const uint64x2_t wk = vaddq_u64(cur, k);
      const uint64x2_t fg = vextq_u64(ef[i], gh[i], 1);  // {f, g}
      const uint64x2_t de = vextq_u64(cd[i], ef[i], 1);  // {d, e}
      gh[i] = vaddq_u64(gh[i], vextq_u64(wk, wk, 1));    // h + W[t] + K[t] in the high lane's partner order
      if (step < 32) {
        // §6.4.2 step 1: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for t = 2 step + 16, +17.
        // SHA512SU0 adds σ0(W[t-15]); SHA512SU1 adds σ1(W[t-2]) from W[t-2..] and W[t-7] from the
        // pair that straddles two vectors.
        const uint64x2_t w9_10 = vextq_u64(w[i][(step + 4) % 8], w[i][(step + 5) % 8], 1);
        cur = vsha512su1q_u64(vsha512su0q_u64(cur, w[i][(step + 1) % 8]), w[i][(step + 7) % 8], w9_10);
      }
      const uint64x2_t sum1 = vsha512hq_u64(gh[i], fg, de);
      const uint64x2_t new_ef = vaddq_u64(cd[i], sum1);
      const uint64x2_t new_ab = vsha512h2q_u64(sum1, cd[i], ab[i]);
      gh[i] = ef[i];
      ef[i] = new_ef;
      cd[i] = ab[i];
      ab[i] = new_ab;
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < N; ++i) {  // §6.4.2 step 4: add the block's input state
    s[i].v[0] = vaddq_u64(s[i].v[0], ab[i]);
    s[i].v[1] = vaddq_u64(s[i].v[1], cd[i]);
    s[i].v[2] = vaddq_u64(s[i].v[2], ef[i]);
    s[i].v[3] = vaddq_u64(s[i].v[3], gh[i]);
  }
}

// N streams over nblocks blocks each, from and back to their h[].
template <int N>
[[gnu::always_inline]] SHAKEDOWN_ARM64_TARGET_SHA3 inline void compress_runs(std::uint64_t* const (&h)[N],
                                                                             const std::uint8_t* const (&data)[N],
                                                                             std::size_t nblocks) {
  Sha512Vectors s[N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < 4; ++j) s[i].v[j] = vld1q_u64(h[i] + 2 * j);
  for (std::size_t b = 0; b < nblocks; ++b) {
    const std::uint8_t* block[N];
    for (int i = 0; i < N; ++i) block[i] = data[i] + 128 * b;
    compress_streams<N>(s, block);
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < 4; ++j) vst1q_u64(h[i] + 2 * j, s[i].v[j]);
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA3 void compress_blocks(std::uint64_t h[8], const std::uint8_t* data,
                                                                     std::size_t nblocks) {
  std::uint64_t* const state[1] = {h};
  const std::uint8_t* const run[1] = {data};
  compress_runs<1>(state, run, nblocks);
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA3 void compress_x2(std::uint64_t* const h[],
                                                              const std::uint8_t* const data[], std::size_t nblocks) {
  std::uint64_t* const state[2] = {h[0], h[1]};
  const std::uint8_t* const run[2] = {data[0], data[1]};
  compress_runs<2>(state, run, nblocks);
}

// The seam entry points: the intrinsics code's spills (state vectors, W + K) are burnt after it returns
// (stack_burn.h). Two streams' schedule, state and input state are 32 vectors, all NEON has, so their step loop
// keeps W in the frame; deepest frames: gcc 12 -O3 with UBSan, 656 bytes for one stream and 1216 for two (clang 19:
// 528 and 832; without sanitizers 128-432).
constexpr std::size_t kSha512Stack = 1024;
constexpr std::size_t kSha512X2Stack = 2048;

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(kSha512Stack);
}

// Two streams: the multi-lane entry (backend.h).
void blocks_x2(std::uint64_t* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  if (nblocks == 0) return;  // not even the pointer arrays
  compress_x2(h, data, nblocks);
  burn_stack(kSha512X2Stack);
}

bool available(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha512); }

}  // namespace

constinit const Sha512Backend rows::sha512_arm64_sha512 = {
    {"arm64/sha512", "FEAT_SHA512 (HWCAP_SHA512)", available, kBackendDefault}, blocks,
    // Two lanes from two busy ones, as arm64/ce: not measured (no arm64 hardware here).
    {2, 2, blocks_x2}};

}  // namespace shakedown::internal
