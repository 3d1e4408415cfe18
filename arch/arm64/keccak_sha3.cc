// Keccak-p[1600,24] with the Armv8.2 SHA-3 instructions (FEAT_SHA3: EOR3, RAX1, XAR, BCAX).
#include <arm_neon.h>

#include <utility>

#include "backend_rows.h"
#include "internal/stack_burn.h"
#include "arm64_target.h"
// The FIPS 202 step constants are derived at compile time there and are arch-neutral; see the
// report: they belong in lib/src/internal/ (shared by every Keccak backend).
#include "internal/keccak_constants.h"

namespace shakedown::internal {
namespace {

namespace kc = keccak_constants;

// Each 64-bit lane A[x,y] (index x + 5y, FIPS 202 §3.1.2) sits in its own vector register; only
// lane 0 of each vector is stored back. The upper half carries an identical copy, which costs nothing
// and keeps every operation well defined.
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

[[gnu::noinline]] SHAKEDOWN_ARM64_TARGET_SHA3 void permute_lanes(std::uint64_t state[25]) {
  Lanes a;
  for (int i = 0; i < 25; ++i) a[i] = vdupq_n_u64(state[i]);
  for (std::uint64_t rc : kc::kRoundConstants) round(a, rc);  // Keccak-p[1600,24]: rounds 0..23 (§3.3)
  for (int i = 0; i < 25; ++i) state[i] = vgetq_lane_u64(a[i], 0);
}

// The seam entry point: the 25 vector lanes spill, and are burnt after the rounds return (stack_burn.h; gcc 12
// frame: 1232 bytes).
void permute(std::uint64_t state[25]) {
  permute_lanes(state);
  burn_stack(2560);
}

bool available(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha3); }

}  // namespace

// permute only: the framing XORs the rate bytes (keccak_xor_bytes) between permutations.
constinit const KeccakBackend rows::keccak_arm64_sha3 = {
    {"arm64/sha3", "FEAT_SHA3 (HWCAP_SHA3)", available, kBackendDefault}, permute, nullptr, nullptr};

}  // namespace shakedown::internal
