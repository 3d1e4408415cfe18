// Keccak-p[1600,24] for the x86-64 backends, written once over the word it runs on: a 64-bit register (one
// state) or a vector of 64-bit elements (one state per element, keccak_lanes.h).
//
// The round is FIPS 202 §3.3 Rnd = ι ∘ χ ∘ π ∘ ρ ∘ θ, computed output row by output row so that only one row of
// π's output is live at a time, with the next round's column parities accumulated as those rows come out rather
// than read back from the new state. Lane indices are compile-time constants, so that every lane stays a register
// (or a fixed stack slot) and no array is indexed at run time. Ops supplies the word and its operations (ScalarOps
// below, lanes_avx2.h, lanes_avx512.h). Internal linkage: the includer includes this inside its ISA region
// (x86_target.h), after the ISA's ops header.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "internal/bytes.h"
#include "internal/keccak_constants.h"
#include "internal/keccak_rates.h"
#include "internal/stack_burn.h"

namespace shakedown::internal {
namespace {

// Lambdas are not inlined reliably at 25-lane size without this (gcc-12 outlines the row loop).
#define SHAKEDOWN_KECCAK_INLINE __attribute__((always_inline))
// The round's lambdas index only the round's local lane arrays, each index a constexpr below the array's bound (an
// index past it is a -Warray-bounds diagnostic in gcc and clang, an error in every preset). UBSan's pointer-overflow
// check still tests each such access at run time, because clang emits it for constant indices too. In an ASan+UBSan
// build that check cannot fire here, yet it made keccak_avx512.cc take 26 s to compile instead of 10 s, with 297 KB
// of code instead of 162 KB (clang 19, -O3). So only these lambdas leave it out; the rest of UBSan and ASan still run
// on the round, and the pointer-overflow check still runs on the code that reads the caller's data.
#define SHAKEDOWN_KECCAK_ROUND_CODE __attribute__((always_inline, no_sanitize("pointer-overflow")))

// Calls f(integral_constant<int, I>) for I = 0..N-1: compile-time lane indices.
template <int N, class F>
SHAKEDOWN_KECCAK_INLINE inline void for_each_index(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) SHAKEDOWN_KECCAK_INLINE {
    (f(std::integral_constant<int, I>{}), ...);
  }(std::make_integer_sequence<int, N>{});
}

// One state in 64-bit registers: ANDN (BMI1) makes χ's ~a & b one instruction, so the lane-complementing
// transform that OpenSSL's scalar code uses to avoid NOTs is unnecessary; RORX (BMI2) is a non-destructive rotate,
// which saves the copies that ROL needs in ρ and θ.
struct ScalarOps {
  using Reg = std::uint64_t;
  using Word = std::uint64_t;
  static Word xor2(Word a, Word b) { return a ^ b; }
  static Word xor3(Word a, Word b, Word c) { return a ^ b ^ c; }
  static Word chi(Word a, Word b, Word c) { return a ^ (~b & c); }
  template <int N>
  static Word rol(Word x) {
    return std::rotl(x, N);
  }
  static Word constant(std::uint64_t c) { return c; }
};

template <class Ops>
struct KeccakRounds {
  using Word = typename Ops::Reg;  // one lane of one state, or the same lane of several
  using State = Word[25];

  // The column parities C[x] of θ (§3.2.1, step 1) of a state.
  SHAKEDOWN_KECCAK_INLINE static void parities(const State& a, Word (&c)[5]) {
    for_each_index<5>([&](auto x) SHAKEDOWN_KECCAK_ROUND_CODE {
      constexpr int i = x;
      c[i] = Ops::xor3(Ops::xor3(a[i], a[i + 5], a[i + 10]), a[i + 15], a[i + 20]);
    });
  }

  // One round Rnd(A, ir) (§3.3), reading `a` and writing `e`. On entry c holds the column parities of `a`; on return
  // it holds those of `e`, accumulated row by row as χ produces the lanes (with ι applied first), so no lane of `e`
  // is read back for the next round's θ.
  SHAKEDOWN_KECCAK_INLINE static void round(const State& a, State& e, Word (&c)[5], std::uint64_t rc) {
    using keccak_constants::kRhoOffsets;
    using keccak_constants::pi_source;
    // θ's D[x] = C[x-1] ^ ROT(C[x+1], 1) (§3.2.1, steps 2-3). Every lane of this round waits for it, and it waits
    // for every lane of the last round (through C), so how it is formed shows in the speed: an Ops whose rotate
    // is not one instruction may supply its own xor_rol1 (lanes_avx2.h).
    Word d[5];
    for_each_index<5>([&](auto x) SHAKEDOWN_KECCAK_ROUND_CODE {
      constexpr int i = x;
      if constexpr (requires { Ops::xor_rol1(c[0], c[0]); }) d[i] = Ops::xor_rol1(c[(i + 4) % 5], c[(i + 1) % 5]);
      else d[i] = Ops::xor2(c[(i + 4) % 5], Ops::template rol<1>(c[(i + 1) % 5]));
    });
    // Row by row: the five lanes π moves into output row y (§3.2.3), each after θ and ρ (§3.2.2), then χ
    // across the row (§3.2.4).
    for_each_index<5>([&](auto y) SHAKEDOWN_KECCAK_ROUND_CODE {
      Word b[5];
      for_each_index<5>([&](auto x) SHAKEDOWN_KECCAK_ROUND_CODE {
        constexpr int src = pi_source(x, y), i = x;
        b[i] = Ops::template rol<kRhoOffsets[src]>(Ops::xor2(a[src], d[src % 5]));
      });
      for_each_index<5>([&](auto x) SHAKEDOWN_KECCAK_ROUND_CODE {
        constexpr int i = x, j = y;
        Word out = Ops::chi(b[i], b[(i + 1) % 5], b[(i + 2) % 5]);
        if constexpr (i == 0 && j == 0) out = Ops::xor2(out, Ops::constant(rc));  // ι (§3.2.5)
        e[i + 5 * j] = out;
        c[i] = j == 0 ? out : Ops::xor2(c[i], out);
      });
    });
  }

  // 24 rounds, two per iteration so that the state ping-pongs between a and e without copies. The last round's
  // parities go unused: peeling that round off to skip them doubles the code, and made clang take three times as
  // long over each x86 Keccak file under ASan+UBSan (keccak_avx2.cc: 33 s instead of 11), for under 1% of speed.
  SHAKEDOWN_KECCAK_INLINE static void permute(State& a) {
    State e;
    Word c[5];
    parities(a, c);
    for (int ir = 0; ir < 24; ir += 2) {
      round(a, e, c, keccak_constants::kRoundConstants[ir]);
      round(e, a, c, keccak_constants::kRoundConstants[ir + 1]);
    }
  }
};

// ---- One state: the single-stream seam functions (backend.h) ----

using Rounds1 = KeccakRounds<ScalarOps>;

[[gnu::noinline]] void keccak_x86_permute(std::uint64_t state[25]) {
  Rounds1::State a;
  for_each_index<25>([&](auto i) SHAKEDOWN_KECCAK_INLINE { a[i] = state[i]; });
  Rounds1::permute(a);
  for_each_index<25>([&](auto i) SHAKEDOWN_KECCAK_INLINE { state[i] = a[i]; });
}

template <int RateLanes>
[[gnu::noinline]] void keccak_x86_absorb_lanes(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks) {
  Rounds1::State a;
  for_each_index<25>([&](auto i) SHAKEDOWN_KECCAK_INLINE { a[i] = state[i]; });
  for (; nblocks; --nblocks, data += 8 * RateLanes) {
    for_each_index<RateLanes>([&](auto i) SHAKEDOWN_KECCAK_INLINE { a[i] ^= load_le64(data + 8 * i); });
    Rounds1::permute(a);
  }
  for_each_index<25>([&](auto i) SHAKEDOWN_KECCAK_INLINE { state[i] = a[i]; });
}

void keccak_x86_absorb(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks, std::size_t rate) {
  const bool fips = with_rate_lanes(rate, [&](auto lanes) SHAKEDOWN_KECCAK_INLINE {
    keccak_x86_absorb_lanes<lanes>(state, data, nblocks);
  });
  if (fips) return;
  // Any other whole-lane rate (not used by FIPS 202 instances): block by block.
  for (; nblocks; --nblocks, data += rate) {
    for (std::size_t i = 0; i < rate / 8; ++i) state[i] ^= load_le64(data + 8 * i);
    keccak_x86_permute(state);
  }
}

// The seam entry points: the work, then the burn of the frame it left (stack_burn.h): lanes of the state spilled by
// the rounds (gcc 12: frames of 160 and 320 bytes).
inline constexpr std::size_t kKeccakX86Stack = 768;

void keccak_x86_permute_seam(std::uint64_t state[25]) {
  keccak_x86_permute(state);
  burn_stack(kKeccakX86Stack);
}

void keccak_x86_absorb_seam(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks, std::size_t rate) {
  if (nblocks == 0) return;  // the seam's contract (backend.h): touch no memory, not even the state
  keccak_x86_absorb(state, data, nblocks, rate);
  burn_stack(kKeccakX86Stack);
}

}  // namespace
}  // namespace shakedown::internal
