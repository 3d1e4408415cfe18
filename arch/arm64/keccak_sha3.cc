// Keccak-p[1600,24] with the Armv8.2 SHA-3 instructions (FEAT_SHA3: EOR3, RAX1, XAR, BCAX): one state, or two
// states at once for hash_many(), one per 64-bit element of each vector.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/bytes.h"
#include "internal/keccak_constants.h"
#include "internal/keccak_rates.h"
#include "internal/stack_burn.h"
#include "arm64_target.h"

namespace shakedown::internal {
namespace {

namespace kc = keccak_constants;

// Each 64-bit lane A[x,y] (index x + 5y, FIPS 202 §3.1.2) sits in its own vector register, element s holding
// that lane of state s. Every instruction below works on the two elements independently (EOR3, RAX1, XAR and BCAX
// are element-wise on 64-bit elements, Arm ARM C7.2), so the same instructions advance two states.
// A single state is duplicated into both elements; only element 0 is stored back.
using Lanes = uint64x2_t[25];

// ρ and π (§3.2.2, §3.2.3) fused with θ's final XOR: output lane `Out` is the source lane XORed with
// its column's D and rotated left by ρ. XAR rotates right, so the immediate is 64 - ρ (mod 64).
template <int Out>
SHAKEDOWN_ARM64_TARGET_SHA3 inline __attribute__((always_inline)) uint64x2_t theta_rho_pi(const Lanes& a,
                                                                                          const uint64x2_t d[5]) {
  constexpr int src = kc::pi_source(Out % 5, Out / 5);
  constexpr int ror = (64 - kc::kRhoOffsets[src]) % 64;
  return vxarq_u64(a[src], d[src % 5], ror);
}

template <int... Out>
SHAKEDOWN_ARM64_TARGET_SHA3 inline __attribute__((always_inline)) void all_theta_rho_pi(
    const Lanes& a, const uint64x2_t d[5], Lanes& b, std::integer_sequence<int, Out...>) {
  ((b[Out] = theta_rho_pi<Out>(a, d)), ...);
}

SHAKEDOWN_ARM64_TARGET_SHA3 inline __attribute__((always_inline)) void round(Lanes& a, std::uint64_t rc) {
  // θ (§3.2.1): column parities C[x] with EOR3, then D[x] = C[x-1] ^ ROT(C[x+1], 1) with RAX1.
  uint64x2_t c[5], d[5];
  for (int x = 0; x < 5; ++x) c[x] = veor3q_u64(veor3q_u64(a[x], a[x + 5], a[x + 10]), a[x + 15], a[x + 20]);
  for (int x = 0; x < 5; ++x) d[x] = vrax1q_u64(c[(x + 4) % 5], c[(x + 1) % 5]);

  Lanes b;
  all_theta_rho_pi(a, d, b, std::make_integer_sequence<int, 25>{});

  // χ (§3.2.4): A[x,y] = B[x,y] ^ (~B[x+1,y] & B[x+2,y]); BCAX computes a ^ (b & ~c).
  for (int y = 0; y < 25; y += 5)
    for (int x = 0; x < 5; ++x) a[x + y] = vbcaxq_u64(b[x + y], b[(x + 2) % 5 + y], b[(x + 1) % 5 + y]);

  // ι (§3.2.5).
  a[0] = veorq_u64(a[0], vdupq_n_u64(rc));
}

SHAKEDOWN_ARM64_TARGET_SHA3 inline __attribute__((always_inline)) void rounds(Lanes& a) {
  for (std::uint64_t rc : kc::kRoundConstants) round(a, rc);  // Keccak-p[1600,24]: rounds 0..23 (§3.3)
}

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA3 void permute_lanes(std::uint64_t state[25]) {
  Lanes a;
  for (int i = 0; i < 25; ++i) a[i] = vdupq_n_u64(state[i]);
  rounds(a);
  for (int i = 0; i < 25; ++i) state[i] = vgetq_lane_u64(a[i], 0);
}

// Two states over nblocks blocks of RateLanes lanes each: XOR the blocks' lanes (little-endian, FIPS 202 §B.1)
// into both halves, then permute. The lane count is a constant so that the state stays in registers.
template <int RateLanes>
[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA3 void absorb_two(std::uint64_t* const st[],
                                                                const std::uint8_t* const data[], std::size_t nblocks) {
  Lanes a;
  for (int i = 0; i < 25; ++i) a[i] = vcombine_u64(vld1_u64(st[0] + i), vld1_u64(st[1] + i));
  for (std::size_t b = 0; b < nblocks; ++b) {
    const std::size_t at = 8 * RateLanes * b;
    for (int i = 0; i < RateLanes; ++i) {
      const uint64x2_t block = vcombine_u64(vcreate_u64(load_le64(data[0] + at + 8 * i)),
                                            vcreate_u64(load_le64(data[1] + at + 8 * i)));
      a[i] = veorq_u64(a[i], block);
    }
    rounds(a);
  }
  for (int i = 0; i < 25; ++i) {
    vst1q_lane_u64(st[0] + i, a[i], 0);
    vst1q_lane_u64(st[1] + i, a[i], 1);
  }
}

// The seam entry points: the 25 vector lanes spill, and are burnt after the rounds return (stack_burn.h). Deepest
// frames, with UBSan: gcc 12 -O2 1248 bytes for one state and 1408 for two, clang 19 -O3 1184 and 1280; without
// sanitizers gcc 12 528 and 608, clang 19 under 200.
constexpr std::size_t kSha3Stack = 2560;
constexpr std::size_t kSha3X2Stack = 2560;

void permute(std::uint64_t state[25]) {
  permute_lanes(state);
  burn_stack(kSha3Stack);
}

// The multi-lane entry (backend.h): two states, each over nblocks rate blocks of its own data.
void absorb_x2(std::uint64_t* const st[], const std::uint8_t* const data[], std::size_t nblocks, std::size_t rate) {
  if (nblocks == 0) return;  // not even the pointer arrays
  const bool fips = with_rate_lanes(rate, [&](auto lanes) __attribute__((always_inline)) {
    absorb_two<lanes>(st, data, nblocks);
  });
  if (!fips) {  // any other whole-lane rate (no FIPS 202 instance): state by state, block by block
    for (int s = 0; s < 2; ++s)
      for (std::size_t b = 0; b < nblocks; ++b) {
        for (std::size_t i = 0; i < rate / 8; ++i) st[s][i] ^= load_le64(data[s] + rate * b + 8 * i);
        permute_lanes(st[s]);
      }
  }
  burn_stack(kSha3X2Stack);
}

bool available(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha3); }

}  // namespace

// permute only for single messages: the framing XORs the rate bytes (keccak_xor_bytes) between permutations.
constinit const KeccakBackend rows::keccak_arm64_sha3 = {
    {"arm64/sha3", "FEAT_SHA3 (HWCAP_SHA3)", available, kBackendDefault}, permute, nullptr, nullptr,
    // Two lanes from two busy ones, as arm64/ce: not measured (no arm64 hardware here). One state already
    // occupies both elements of every vector, so the second state adds only its loads, XORs and stores.
    {2, 2, absorb_x2}};

}  // namespace shakedown::internal
