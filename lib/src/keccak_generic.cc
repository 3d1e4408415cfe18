// Portable Keccak-p[1600,24] (FIPS 202 §3.3, §3.4) with fully unrolled steps, and sponge byte I/O.
#include <bit>
#include <cstring>
#include <utility>

#include "internal/bytes.h"
#include "internal/generic.h"
#include "internal/keccak_constants.h"
#include "internal/stack_burn.h"

namespace shakedown::internal {
namespace {

// Round constants (§3.2.5) and ρ offsets (§3.2.2) come from internal/keccak_constants.h, derived at
// compile time from the FIPS 202 algorithms and shared with every arch backend.
using keccak_constants::kRhoOffsets;
using keccak_constants::kRoundConstants;

constexpr int lane(int x, int y) { return (x + 5) % 5 + 5 * ((y + 5) % 5); }

// ---- Lane complementing ----
// χ (§3.2.4) costs a NOT per lane: out[x] = B[x] ^ (~B[x+1] & B[x+2]). If some lanes are kept
// complemented in memory, De Morgan turns most of those into plain AND/OR. The set below is the
// one the Keccak team's implementation overview (lane complementing transform) proposes:
// A[1,0] A[2,0] A[3,1] A[2,2] A[2,3] A[0,4]. Everything else follows from it at compile time:
// θ is linear, so the stored column parities differ from the true ones by a constant mask, and
// so do D, the π output B, and χ's inputs; chi_lane picks the operation for each lane.
constexpr bool kComplemented[25] = {
    false, true,  true,  false, false,  // y = 0: x = 1, 2
    false, false, false, true,  false,  // y = 1: x = 3
    false, false, true,  false, false,  // y = 2: x = 2
    false, false, true,  false, false,  // y = 3: x = 2
    true,  false, false, false, false,  // y = 4: x = 0
};

// Complement mask of D[x] (θ step 2) when the stored state carries kComplemented.
constexpr bool d_complemented(int x) {
  auto column = [](int c) {
    bool parity = false;
    for (int y = 0; y < 5; ++y) parity ^= kComplemented[lane(c, y)];
    return parity;
  };
  return column((x + 4) % 5) ^ column((x + 1) % 5);  // rotation keeps an all-ones mask all-ones
}

// The lane of A that π (§3.2.3) moves to position (X, Y): A[x, y] -> B[y, 2x + 3y], so
// y = X and x = 3(Y - 3X) = X + 3Y (mod 5).
constexpr int pi_source(int X, int Y) { return lane(X + 3 * Y, X); }

// Complement mask of the π output at (X, Y): the source lane's mask plus its column's D mask.
constexpr bool b_complemented(int X, int Y) {
  int src = pi_source(X, Y);
  return kComplemented[src] ^ d_complemented(src % 5);
}

// Lanes whose χ still needs a NOT (forms ~b1 & b2, b1 | ~b2, ~(b1 & b2), ...): 8 of 25 with
// the set above. A typo in kComplemented would stay correct but slow; this catches it.
constexpr int lanes_needing_not() {
  int n = 0;
  for (int Y = 0; Y < 5; ++Y)
    for (int X = 0; X < 5; ++X) {
      bool m1 = b_complemented((X + 1) % 5, Y), m2 = b_complemented((X + 2) % 5, Y);
      bool flip = b_complemented(X, Y) ^ kComplemented[lane(X, Y)];
      bool plain_and = m1 && !m2 && !flip, plain_or = !m1 && m2 && flip;
      n += !(plain_and || plain_or);
    }
  return n;
}
static_assert(lanes_needing_not() == 8, "lane complementing set does not remove the expected NOTs");

void complement_lanes(std::uint64_t* A) {
  for (int i = 0; i < 25; ++i)
    if (kComplemented[i]) A[i] = ~A[i];
}

// χ for output lane (X, Y) on complemented inputs b0, b1, b2 = B[X..X+2, Y], producing the
// lane with the complement that kComplemented asks for.
template <int X, int Y>
inline __attribute__((always_inline)) std::uint64_t chi_lane(std::uint64_t b0, std::uint64_t b1, std::uint64_t b2) {
  constexpr bool m1 = b_complemented((X + 1) % 5, Y), m2 = b_complemented((X + 2) % 5, Y);
  constexpr bool flip = b_complemented(X, Y) ^ kComplemented[lane(X, Y)];
  std::uint64_t t;  // the true ~B1 & B2, expressed on the stored values
  if constexpr (!m1 && !m2) t = ~b1 & b2;
  else if constexpr (m1 && !m2) t = b1 & b2;
  else if constexpr (!m1 && m2) t = ~(b1 | b2);
  else t = b1 & ~b2;
  if constexpr (flip) t = ~t;  // folds with the line above: ~(b1 & b2), b1 | b2, ...
  return b0 ^ t;
}

// Output plane Y of one round: θ (with D given), ρ, π for the five lanes that land in the plane,
// then χ, ι on lane (0,0), and the plane's contribution to the next round's column parities.
template <int Y>
inline __attribute__((always_inline)) void round_plane(const std::uint64_t* A, std::uint64_t* E,
                                                       const std::uint64_t* D, std::uint64_t* C_next,
                                                       std::uint64_t rc) {
  std::uint64_t B[5];
  [&]<int... X>(std::integer_sequence<int, X...>) {
    ((B[X] = std::rotl(A[pi_source(X, Y)] ^ D[pi_source(X, Y) % 5], kRhoOffsets[pi_source(X, Y)])), ...);
    ((E[lane(X, Y)] = chi_lane<X, Y>(B[X], B[(X + 1) % 5], B[(X + 2) % 5])), ...);
  }(std::make_integer_sequence<int, 5>{});
  if constexpr (Y == 0) E[0] ^= rc;  // ι (§3.2.5)
#pragma GCC unroll 5
  for (int x = 0; x < 5; ++x) C_next[x] = (Y == 0 ? 0 : C_next[x]) ^ E[lane(x, Y)];
}

// One round Rnd(A, ir) = ι(χ(π(ρ(θ(A))))) (§3.3) from A into E. C holds the column parities of A
// (θ step 1) on entry and those of E on return, accumulated while E is written.
inline __attribute__((always_inline)) void round(const std::uint64_t* A, std::uint64_t* E, std::uint64_t* C,
                                                  std::uint64_t rc) {
  std::uint64_t D[5];
#pragma GCC unroll 5
  for (int x = 0; x < 5; ++x) D[x] = C[(x + 4) % 5] ^ std::rotl(C[(x + 1) % 5], 1);  // θ step 2
  round_plane<0>(A, E, D, C, rc);
  round_plane<1>(A, E, D, C, rc);
  round_plane<2>(A, E, D, C, rc);
  round_plane<3>(A, E, D, C, rc);
  round_plane<4>(A, E, D, C, rc);
}

// Keccak-p[1600,24] on a state stored with kComplemented applied.
inline __attribute__((always_inline)) void permute_complemented(std::uint64_t* state) {
  std::uint64_t A[25], E[25], C[5];
  std::memcpy(A, state, sizeof A);
#pragma GCC unroll 5
  for (int x = 0; x < 5; ++x) C[x] = A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20];  // θ step 1
  for (int ir = 0; ir < 24; ir += 2) {  // two rounds per iteration: no copy back between rounds
    round(A, E, C, kRoundConstants[ir]);
    round(E, A, C, kRoundConstants[ir + 1]);
  }
  std::memcpy(state, A, sizeof A);
  // A, E, C and the spilled lanes stay in the dead frame: the entry points below burn it (stack_burn.h).
}

// Lanes spilled by the rounds, burnt after each call (stack_burn.h): gcc 12 -O3 x86-64 frames of 648 (permute)
// and 744 (absorb) bytes.
constexpr std::size_t kKeccakGenericStack = 1536;

[[gnu::noinline]] void permute(std::uint64_t state[25]) {
  complement_lanes(state);
  permute_complemented(state);
  complement_lanes(state);
}

[[gnu::noinline]] void absorb(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                              std::size_t rate) {
  const std::size_t lanes = rate / 8;  // every SHA-3/SHAKE rate is a whole number of lanes
  complement_lanes(state);  // XOR commutes with complementing: absorb straight into the stored form
  while (nblocks--) {
    for (std::size_t i = 0; i < lanes; ++i) state[i] ^= load_le64(data + 8 * i);
    permute_complemented(state);
    data += rate;
  }
  complement_lanes(state);
}

}  // namespace

void keccak_permute_generic(std::uint64_t state[25]) {
  permute(state);
  burn_stack(kKeccakGenericStack);
}

void keccak_xor_bytes(std::uint64_t state[25], std::size_t offset, const std::uint8_t* data, std::size_t len) {
  if constexpr (std::endian::native == std::endian::little) {
    auto* bytes = reinterpret_cast<std::uint8_t*>(state);
    for (std::size_t i = 0; i < len; ++i) bytes[offset + i] ^= data[i];
  } else {
    for (std::size_t i = 0; i < len; ++i) {
      std::size_t at = offset + i;
      state[at / 8] ^= static_cast<std::uint64_t>(data[i]) << (8 * (at % 8));
    }
  }
}

void keccak_extract_bytes(const std::uint64_t state[25], std::size_t offset, std::uint8_t* out, std::size_t len) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, reinterpret_cast<const std::uint8_t*>(state) + offset, len);
  } else {
    for (std::size_t i = 0; i < len; ++i) {
      std::size_t at = offset + i;
      out[i] = static_cast<std::uint8_t>(state[at / 8] >> (8 * (at % 8)));
    }
  }
}

void keccak_absorb_generic(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                           std::size_t rate) {
  if (nblocks == 0) return;
  absorb(state, data, nblocks, rate);
  burn_stack(kKeccakGenericStack);
}

constinit const KeccakBackend kKeccakGeneric = {{"generic", "nothing", always_available, kBackendDefault},
                                                keccak_permute_generic, keccak_absorb_generic, nullptr};

}  // namespace shakedown::internal
