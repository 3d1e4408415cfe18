// Multi-lane Keccak for x86-64: L states at once, lane i of state l in element l of register i, so every
// instruction of the permutation (keccak_x86.h) advances all L states (FIPS 202 §3.3, unchanged per state).
//
// Written once over a 64-bit word-lane vector policy V (lanes_avx2.h: 4 states, lanes_avx512.h: 8). The states
// and each block's data are transposed in groups of L lanes (square transposes); the lanes left over (25 mod L of
// a state, rate/8 mod L of a block) are assembled element by element. Internal linkage: the includer includes
// this inside its ISA region, after keccak_x86.h and the policy header (x86_target.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "internal/msan.h"
#include "internal/stack_burn.h"

namespace shakedown::internal {
namespace {

template <class V>
struct KeccakLanes {
  using Reg = typename V::Reg;
  using Rounds = KeccakRounds<V>;
  static constexpr int L = V::kLanes;

  // The 64-bit words at byte `at` of the L places p[l], element by element.
  template <class T>
  [[gnu::always_inline]] static Reg gather(T* const p[], std::size_t at) {
    long long w[L];
    for (int l = 0; l < L; ++l)
      w[l] = static_cast<long long>(load_le64(reinterpret_cast<const std::uint8_t*>(p[l]) + at));
    return V::set(w);
  }

  // Lane i of every state: a[i] = {st[0][i], ..., st[L-1][i]}.
  [[gnu::always_inline]] static void load_states(Reg (&a)[25], std::uint64_t* const st[]) {
    for (int g = 0; g < 25 / L; ++g) {
      Reg r[L];
      for (int l = 0; l < L; ++l) r[l] = V::load(st[l] + L * g);
      V::transpose(r);
      for (int j = 0; j < L; ++j) a[L * g + j] = r[j];
    }
    for (int i = 25 / L * L; i < 25; ++i) a[i] = gather(st, 8 * i);
  }
  [[gnu::always_inline]] static void store_states(std::uint64_t* const st[], const Reg (&a)[25]) {
    for (int g = 0; g < 25 / L; ++g) {
      Reg r[L];
      for (int j = 0; j < L; ++j) r[j] = a[L * g + j];
      V::transpose(r);
      for (int l = 0; l < L; ++l) V::store(st[l] + L * g, r[l]);
    }
    for (int i = 25 / L * L; i < 25; ++i) {
      alignas(64) std::uint64_t lane[L];
      V::store(lane, a[i]);
      for (int l = 0; l < L; ++l) st[l][i] = lane[l];
    }
  }

  // XOR one block (RateLanes little-endian lanes, FIPS 202 §B.1) of every state's data at byte `at`.
  template <int RateLanes>
  [[gnu::always_inline]] static void xor_block(Reg (&a)[25], const std::uint8_t* const data[], std::size_t at) {
    for (int g = 0; g < RateLanes / L; ++g) {
      Reg r[L];
      for (int l = 0; l < L; ++l) r[l] = V::load(data[l] + at + 8 * L * g);
      V::transpose(r);
      for (int j = 0; j < L; ++j) a[L * g + j] = V::xor2(a[L * g + j], r[j]);
    }
    for (int i = RateLanes / L * L; i < RateLanes; ++i) a[i] = V::xor2(a[i], gather(data, at + 8 * i));
  }

  template <int RateLanes>
  [[gnu::noinline]] static void absorb_rate(std::uint64_t* const st[], const std::uint8_t* const data[],
                                            std::size_t nblocks) {
    Reg a[25];
    load_states(a, st);
    for (std::size_t b = 0; b < nblocks; ++b) {
      xor_block<RateLanes>(a, data, 8 * RateLanes * b);
      Rounds::permute(a);
    }
    store_states(st, a);
  }

  // The multi-lane entry (backend.h): absorb nblocks blocks of its own data into each of L states.
  static void absorb(std::uint64_t* const st[], const std::uint8_t* const data[], std::size_t nblocks,
                     std::size_t rate) {
    // MSan cannot follow the elements through the transposes and vpternlogq: a state is marked whole when its old
    // value or its data was (lib/src/internal/msan.h).
    bool tainted[L];
    for (int l = 0; l < L; ++l)
      tainted[l] = msan::any_poisoned(st[l], 25 * 8) || msan::any_poisoned(data[l], rate * nblocks);
    const bool fips = with_rate_lanes(rate, [&](auto lanes) SHAKEDOWN_KECCAK_INLINE {
      absorb_rate<lanes>(st, data, nblocks);
    });
    if (!fips) {  // any other whole-lane rate (no FIPS 202 instance): state by state
      for (int l = 0; l < L; ++l) keccak_x86_absorb(st[l], data[l], nblocks, rate);
    }
    for (int l = 0; l < L; ++l)
      if (tainted[l]) msan::poison(st[l], 25 * 8);
  }
};

// The multi-lane seam entry point (backend.h): nothing at all for nblocks = 0, else the lanes, then the burn of the
// frame they left (stack_burn.h): Burn bytes, the gcc 12 frame with margin (the backend's file says how much).
template <class V, std::size_t Burn>
void keccak_lanes_seam(std::uint64_t* const st[], const std::uint8_t* const data[], std::size_t nblocks,
                       std::size_t rate) {
  static_assert(Burn <= kMaxStackBurn);
  if (nblocks == 0) return;
  KeccakLanes<V>::absorb(st, data, nblocks, rate);
  burn_stack(Burn);
}

}  // namespace
}  // namespace shakedown::internal
