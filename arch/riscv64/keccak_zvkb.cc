// Keccak-p[1600,24] for two states at once with RVV 1.0 and Zvkb (SHA-3 and SHAKE of two messages), VLEN >= 128.
//
// Lane i of state l is element l of vector register i (two 64-bit elements: SEW 64, LMUL 1, vl 2), so every
// instruction of the permutation advances both states; FIPS 202 §3.2-3.3 is unchanged per state. The lanes are
// GNU vectors of two 64-bit words in functions compiled for V and Zvkb (the target attribute below; nothing else
// in the file is): clang lowers them at the minimum VLEN that V implies (Zvl128b), with `vsetivli 2, e64, m1`, so
// the code is right at every VLEN >= 128 and a longer register only leaves its tail unused. ρ and θ's ROT 1 are
// Zvkb's vror.vi, χ's ~b & c its vandn.vv. Single messages run the generic code: this row is only its lanes.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/bytes.h"
#include "internal/generic.h"
#include "internal/keccak_constants.h"
#include "internal/stack_burn.h"
#include "rv_features.h"

namespace shakedown::internal {
namespace {

namespace kc = keccak_constants;

// One lane (x, y) of both states: element l belongs to state l.
using LanePair = std::uint64_t __attribute__((vector_size(16)));
constexpr int kStates = 2;
static_assert(sizeof(LanePair) == kStates * sizeof(std::uint64_t) && alignof(LanePair) <= 16);

// Vector code generation for V and Zvkb, per function (cmake/Backend.cmake: never per file, so the predicate and
// the row stay baseline code). Everything that touches a LanePair is inlined into the one function that has it.
#define SHAKEDOWN_RV_ZVKB __attribute__((target("arch=+v,+zvkb")))
#define SHAKEDOWN_RV_ZVKB_INLINE SHAKEDOWN_RV_ZVKB inline __attribute__((always_inline))

// ROT(v, n) of §3.2.2 on both elements: the shift pair that clang selects as one vror.vi (by 64 - n).
template <int N>
SHAKEDOWN_RV_ZVKB_INLINE LanePair rotl(LanePair v) {
  if constexpr (N == 0) {
    return v;
  } else {
    return (v << N) | (v >> (64 - N));
  }
}

// θ's last step, ρ and π (§3.2.1-3.2.3) for output lane Out = x + 5y: its π source lane XORed with the source
// column's D, rotated by the source's ρ offset.
template <int Out>
SHAKEDOWN_RV_ZVKB_INLINE LanePair theta_rho_pi(const LanePair (&a)[25], const LanePair (&d)[5]) {
  constexpr int src = kc::pi_source(Out % 5, Out / 5);
  return rotl<kc::kRhoOffsets[src]>(a[src] ^ d[src % 5]);
}

template <int... Out>
SHAKEDOWN_RV_ZVKB_INLINE void all_theta_rho_pi(const LanePair (&a)[25], const LanePair (&d)[5], LanePair (&b)[25],
                                              std::integer_sequence<int, Out...>) {
  ((b[Out] = theta_rho_pi<Out>(a, d)), ...);
}

// Rnd(A, ir) = ι ∘ χ ∘ π ∘ ρ ∘ θ (§3.3) on both states, in place.
SHAKEDOWN_RV_ZVKB_INLINE void round(LanePair (&a)[25], std::uint64_t rc) {
  LanePair c[5], d[5];
  for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];  // θ: column parities
  for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rotl<1>(c[(x + 1) % 5]);
  LanePair b[25];
  all_theta_rho_pi(a, d, b, std::make_integer_sequence<int, 25>{});
  // χ (§3.2.4): A[x,y] = B[x,y] ^ (~B[x+1,y] & B[x+2,y]), the AND-NOT one vandn.vv.
  for (int y = 0; y < 25; y += 5)
    for (int x = 0; x < 5; ++x) a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
  a[0] ^= rc;  // ι (§3.2.5), the constant in both elements
}

// Lanes 2g and 2g + 1 of one state's block as element 0 and 1: sixteen bytes of any alignment, which clang 19 reads
// with one vle8.v (a scalar 64-bit load of data that may be unaligned is eight byte loads and their shifts);
// riscv64 Linux is little-endian, so each element is its lane (FIPS 202 §B.1: lane i is bytes 8i..8i+7, least
// significant first).
static_assert(std::endian::native == std::endian::little);
SHAKEDOWN_RV_ZVKB_INLINE LanePair load_two_lanes(const std::uint8_t* p) {
  LanePair v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// XOR lanes 2G and 2G + 1 of a block into both states, those of them below the rate: the two states' lane pairs
// transposed (element l of a[i] is state l's lane i). Lane indices are compile-time constants, so that the 25 lanes
// stay registers; the branches on the (public) rate serve every whole-lane rate, the FIPS 202 ones and any other.
template <int G>
SHAKEDOWN_RV_ZVKB_INLINE void xor_lane_pair(LanePair (&a)[25], const std::uint8_t* const data[], std::size_t at,
                                           std::size_t rate_lanes) {
  constexpr int lane = 2 * G;
  if (static_cast<std::size_t>(lane) >= rate_lanes) return;
  const std::uint8_t* const p0 = data[0] + at + 8 * lane;
  const std::uint8_t* const p1 = data[1] + at + 8 * lane;
  if constexpr (lane + 1 < 25) {
    if (static_cast<std::size_t>(lane + 1) < rate_lanes) {
      const LanePair s0 = load_two_lanes(p0), s1 = load_two_lanes(p1);
      a[lane] ^= __builtin_shufflevector(s0, s1, 0, 2);
      a[lane + 1] ^= __builtin_shufflevector(s0, s1, 1, 3);
      return;
    }
  }
  a[lane] ^= LanePair{load_le64(p0), load_le64(p1)};  // the last lane of an odd rate: never read past it
}

template <int... G>
SHAKEDOWN_RV_ZVKB_INLINE void xor_block(LanePair (&a)[25], const std::uint8_t* const data[], std::size_t at,
                                       std::size_t rate_lanes, std::integer_sequence<int, G...>) {
  (xor_lane_pair<G>(a, data, at, rate_lanes), ...);
}

[[gnu::noinline]] SHAKEDOWN_RV_ZVKB void absorb_pairs(std::uint64_t* const st[], const std::uint8_t* const data[],
                                                      std::size_t nblocks, std::size_t rate) {
  LanePair a[25];
  for (int i = 0; i < 25; ++i) a[i] = LanePair{st[0][i], st[1][i]};
  for (std::size_t b = 0; b < nblocks; ++b) {
    xor_block(a, data, b * rate, rate / 8, std::make_integer_sequence<int, 13>{});
    for (std::uint64_t rc : kc::kRoundConstants) round(a, rc);  // Keccak-p[1600,24]: rounds 0..23 (§3.3)
  }
  for (int i = 0; i < 25; ++i) {
    st[0][i] = a[i][0];
    st[1][i] = a[i][1];
  }
}

// absorb_pairs' frame, burnt after each call (stack_burn.h): what the 25 lanes and the round's temporaries spill
// from the 32 vector registers (clang 19 -O3: a frame of 128 bytes; 800 with UBSan), with margin.
constexpr std::size_t kPairsStack = 1536;

// The multi-lane seam (backend.h): nothing at all for nblocks = 0, else the two states, then the burn.
void absorb_seam(std::uint64_t* const st[], const std::uint8_t* const data[], std::size_t nblocks, std::size_t rate) {
  static_assert(kPairsStack <= kMaxStackBurn);
  if (nblocks == 0) return;
  absorb_pairs(st, data, nblocks, rate);
  burn_stack(kPairsStack);
}

// V with VLEN >= 128 (the two 64-bit elements of one register) and Zvkb (vror, vandn).
bool available(const CpuFeatures& f) { return rv::vector_crypto_base(f); }

}  // namespace

// Many-only (backend.h): its single-message functions are the generic ones, so single messages select generic
// itself, and hash_many() these lanes. min_busy 2: both lanes busy; with one, the generic code runs alone (no
// riscv64 hardware here measured either choice).
constinit const KeccakBackend rows::keccak_riscv64_zvkb = {
    {"riscv64/zvkb", "V with VLEN >= 128 and Zvkb", available, kBackendManyOnly},
    keccak_permute_generic, keccak_absorb_generic, nullptr, {kStates, 2, absorb_seam}};

}  // namespace shakedown::internal
