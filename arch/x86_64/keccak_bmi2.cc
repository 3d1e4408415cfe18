// Keccak-p[1600,24] for x86-64 with BMI1/BMI2: the state lives in registers, ANDN does χ, RORX does ρ.
//
// The permutation is compiled for BMI1 and BMI2 (x86_target.h). χ's ~a & b is one ANDN (BMI1), so the lane-complementing
// transform that OpenSSL's scalar code uses to avoid NOTs is unnecessary here; RORX is a non-destructive
// rotate (BMI2), which saves the copies that ROL needs in ρ and θ.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/bytes.h"
#include "internal/keccak_constants.h"
#include "internal/stack_burn.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("bmi,bmi2")

namespace shakedown::internal {
namespace {

using keccak_constants::kRhoOffsets;
using keccak_constants::kRoundConstants;
using keccak_constants::pi_source;

using State = std::uint64_t[25];

// Lambdas are not inlined reliably at 25-lane size without this (gcc-12 outlines the row loop).
#define SHAKEDOWN_INLINE __attribute__((always_inline))

// Calls f(integral_constant<int, I>) for I = 0..N-1: compile-time lane indices, so that every lane
// stays a register (the arrays below never have their address taken).
template <int N, class F>
SHAKEDOWN_INLINE inline void for_each_index(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) SHAKEDOWN_INLINE { (f(std::integral_constant<int, I>{}), ...); }(
      std::make_integer_sequence<int, N>{});
}

// One round Rnd(A, ir) = ι(χ(π(ρ(θ(A))))) (FIPS 202 §3.3), reading `a` and writing `e`.
SHAKEDOWN_INLINE inline void keccak_round(const State& a, State& e, std::uint64_t rc) {
  std::uint64_t c[5], d[5];
  for_each_index<5>([&](auto x) SHAKEDOWN_INLINE { c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]; });  // θ (§3.2.1)
  for_each_index<5>([&](auto x) SHAKEDOWN_INLINE { d[x] = c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1); });
  // Row by row: the five lanes π moves into output row y (§3.2.3), each after θ and ρ (§3.2.2), then χ
  // across the row (§3.2.4). Only one row of B is live at a time.
  for_each_index<5>([&](auto y) SHAKEDOWN_INLINE {
    std::uint64_t b[5];
    for_each_index<5>([&](auto x) SHAKEDOWN_INLINE {
      constexpr int src = pi_source(x, y);
      b[x] = std::rotl(a[src] ^ d[src % 5], kRhoOffsets[src]);
    });
    for_each_index<5>([&](auto x) SHAKEDOWN_INLINE { e[x + 5 * y] = b[x] ^ (~b[(x + 1) % 5] & b[(x + 2) % 5]); });
  });
  e[0] ^= rc;  // ι (§3.2.5)
}

// 24 rounds, two per iteration so that the state ping-pongs between a and e without copies.
SHAKEDOWN_INLINE inline void keccak_rounds(State& a) {
  State e;
  for (int ir = 0; ir < 24; ir += 2) {
    keccak_round(a, e, kRoundConstants[ir]);
    keccak_round(e, a, kRoundConstants[ir + 1]);
  }
}

// The rate is a whole number of lanes for every SHA-3/SHAKE instance (FIPS 202 §6.1, §6.2); one copy
// of the loop per lane count keeps the XOR indices constant.
template <int RateLanes>
[[gnu::noinline]] void absorb_lanes(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks) {
  State a;
  for_each_index<25>([&](auto i) SHAKEDOWN_INLINE { a[i] = state[i]; });
  for (; nblocks; --nblocks, data += 8 * RateLanes) {
    for_each_index<RateLanes>([&](auto i) SHAKEDOWN_INLINE { a[i] ^= load_le64(data + 8 * i); });
    keccak_rounds(a);
  }
  for_each_index<25>([&](auto i) SHAKEDOWN_INLINE { state[i] = a[i]; });
}

[[gnu::noinline]] void permute(std::uint64_t state[25]) {
  State a;
  for_each_index<25>([&](auto i) SHAKEDOWN_INLINE { a[i] = state[i]; });
  keccak_rounds(a);
  for_each_index<25>([&](auto i) SHAKEDOWN_INLINE { state[i] = a[i]; });
}

[[gnu::noinline]] void absorb(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                              std::size_t rate) {
  switch (rate) {
    case 168: return absorb_lanes<21>(state, data, nblocks);  // SHAKE128
    case 144: return absorb_lanes<18>(state, data, nblocks);  // SHA3-224
    case 136: return absorb_lanes<17>(state, data, nblocks);  // SHA3-256, SHAKE256
    case 104: return absorb_lanes<13>(state, data, nblocks);  // SHA3-384
    case 72: return absorb_lanes<9>(state, data, nblocks);    // SHA3-512
    default:  // any other whole-lane rate (not used by FIPS 202 instances): block by block
      for (; nblocks; --nblocks, data += rate) {
        for (std::size_t i = 0; i < rate / 8; ++i) state[i] ^= load_le64(data + 8 * i);
        permute(state);
      }
  }
}

}  // namespace
}  // namespace shakedown::internal
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// Lanes of the state spilled by the rounds (gcc 12: frames of 160 and 320 bytes), burnt after each call.
constexpr std::size_t kBmi2Stack = 768;

void permute_and_burn(std::uint64_t state[25]) {
  permute(state);
  burn_stack(kBmi2Stack);
}

void absorb_and_burn(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks, std::size_t rate) {
  if (nblocks == 0) return;  // the seam's contract (backend.h): touch no memory, not even the state
  absorb(state, data, nblocks, rate);
  burn_stack(kBmi2Stack);
}

// andn (BMI1) and rorx (BMI2); the permutation is scalar, so no OS vector-state requirement.
bool available(const CpuFeatures& f) { return f.has(CpuFeature::x86_bmi1) && f.has(CpuFeature::x86_bmi2); }

}  // namespace

constinit const KeccakBackend rows::keccak_x86_64_bmi2 = {
    {"x86_64/bmi2", "BMI1 and BMI2 (ANDN, RORX)", available, kBackendDefault}, permute_and_burn, absorb_and_burn,
    nullptr};

}  // namespace shakedown::internal
