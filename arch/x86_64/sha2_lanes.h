// Multi-lane SHA-2 for x86-64: one message per vector element, so a 256- or 512-bit register holds word t of
// 4 to 16 messages and each instruction advances all of them (FIPS 180-4 §6.2.2 and §6.4.2, unchanged per lane).
//
// Written once over a word-lane vector policy V (lanes_avx2.h, lanes_avx512.h: V::kLanes elements of V::Word)
// and the SHA-2 word size. A block of every lane is loaded as V::kLanes rows and transposed, so that register t
// holds W[t] of all lanes (the number of words per register equals the number of lanes, so every transpose is
// square); the state is transposed in on entry and back out on return. Internal linkage: the includer includes
// this inside its ISA region, after the matching policy header (x86_target.h).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"

namespace shakedown::internal {
namespace {

// The word size's constants: rounds, K (§4.2.2, §4.2.3) and the rotations of Σ0, Σ1, σ0, σ1 (§4.1.2 (4.4)-(4.7),
// §4.1.3 (4.10)-(4.13); the third σ amount is a shift).
template <class Word>
struct Sha2LaneConstants;
template <>
struct Sha2LaneConstants<std::uint32_t> {
  static constexpr int kRounds = 64;
  static constexpr const std::uint32_t* K = kSha256K;
  static constexpr int S0[3] = {2, 13, 22}, S1[3] = {6, 11, 25}, s0[3] = {7, 18, 3}, s1[3] = {17, 19, 10};
};
template <>
struct Sha2LaneConstants<std::uint64_t> {
  static constexpr int kRounds = 80;
  static constexpr const std::uint64_t* K = kSha512K;
  static constexpr int S0[3] = {28, 34, 39}, S1[3] = {14, 18, 41}, s0[3] = {1, 8, 7}, s1[3] = {19, 61, 6};
};

// σ0 and σ1 of FIPS 180-4 (4.6), (4.7) or (4.12), (4.13) on a register of V::Word (V: a policy with ror, shr,
// xor3), also for the single-message two-block schedules (sha256_x86.h, sha512_x86.h).
template <class V>
struct Sha2SmallSigmas {
  using Reg = typename V::Reg;
  using C = Sha2LaneConstants<typename V::Word>;
  template <const int (&R)[3]>
  [[gnu::always_inline]] static Reg sigma(Reg x) {
    return V::xor3(V::template ror<R[0]>(x), V::template ror<R[1]>(x), V::template shr<R[2]>(x));
  }
  [[gnu::always_inline]] static Reg sigma0(Reg x) { return sigma<C::s0>(x); }
  [[gnu::always_inline]] static Reg sigma1(Reg x) { return sigma<C::s1>(x); }
};

template <class V>
struct Sha2Lanes {
  using Reg = typename V::Reg;
  using Word = typename V::Word;
  using C = Sha2LaneConstants<Word>;
  static constexpr int L = V::kLanes;
  static constexpr std::size_t kBlock = 16 * sizeof(Word);

  // K (§4.2.2, §4.2.3) as rows of L copies, for a policy with kRoundConstantRows: round t adds row t as a memory
  // operand, one instruction where a broadcast of K[t] and the add are two (AVX2, which has no broadcast operand:
  // four lanes of SHA-512 1.6% faster at 4 KiB and 1.8% at 16 KiB on Zen 3; docs/history.md §4).
  struct RowsOfK {
    alignas(64) Word k[C::kRounds][L];
  };
  static constexpr RowsOfK kRowsOfK = [] {
    RowsOfK rows{};
    for (int t = 0; t < C::kRounds; ++t)
      for (int l = 0; l < L; ++l) rows.k[t][l] = C::K[t];
    return rows;
  }();

  // K[t] for the round whose constant is *k (k points into C::K).
  [[gnu::always_inline]] static Reg round_constant(const Word* k) {
    if constexpr (V::kRoundConstantRows) {
      const Word* row = kRowsOfK.k[k - C::K];
      // Hidden from gcc, which otherwise folds the row back into a constant that it builds with MOVABS and a
      // broadcast and keeps on the stack.
      asm("" : "+r"(row));
      return V::load(row);
    } else {
      return V::broadcast(k);
    }
  }

  template <const int (&R)[3]>
  [[gnu::always_inline]] static Reg big_sigma(Reg x) {
    return V::xor3(V::template ror<R[0]>(x), V::template ror<R[1]>(x), V::template ror<R[2]>(x));
  }

  // Round t (its index in the block) with the variables renamed instead of shifted: the variable called `a`
  // in round t is v[(8 - t % 8) % 8]. T1 = h + Σ1(e) + Ch(e,f,g) + K[t] + W[t]; d += T1; h = T1 + Maj + Σ0(a).
  // Σ0(a) goes in last: it is the deepest of the new a's operations on the old a, so the chain from a to a is
  // its depth plus one add, not two (AVX2: SHA-512 with four lanes 4% faster on Zen 3, SHA-256 unchanged).
  template <int R>
  [[gnu::always_inline]] static void round(Reg (&v)[8], Reg w, const Word* k) {
    Reg& a = v[(8 - R) % 8];
    Reg& b = v[(9 - R) % 8];
    Reg& c = v[(10 - R) % 8];
    Reg& d = v[(11 - R) % 8];
    Reg& e = v[(12 - R) % 8];
    Reg& f = v[(13 - R) % 8];
    Reg& g = v[(14 - R) % 8];
    Reg& h = v[(15 - R) % 8];
    const Reg t1 = V::add(V::add(V::add(h, round_constant(k)), w), V::add(big_sigma<C::S1>(e), V::ch(e, f, g)));
    d = V::add(d, t1);
    h = V::add(V::add(t1, V::maj(a, b, c)), big_sigma<C::S0>(a));
  }

  // Sixteen rounds t0..t0+15 over the ring w (w[j] = W[t0 + j] on entry when Schedule is false; otherwise
  // W[t0 + j - 16], replaced by W[t0 + j] (§6.2.2 step 1) just before round t0 + j uses it).
  template <bool Schedule>
  [[gnu::always_inline]] static void rounds16(Reg (&v)[8], Reg (&w)[16], int t0) {
    [&]<int... J>(std::integer_sequence<int, J...>) __attribute__((always_inline)) {
      (
          [&]() __attribute__((always_inline)) {
            if constexpr (Schedule)
              w[J] = V::add(V::add(w[J], Sha2SmallSigmas<V>::sigma1(w[(J + 14) % 16])),
                            V::add(w[(J + 9) % 16], Sha2SmallSigmas<V>::sigma0(w[(J + 1) % 16])));
            round<J % 8>(v, w[J], C::K + t0 + J);
          }(),
          ...);
    }(std::make_integer_sequence<int, 16>{});
  }

  // Word g * L .. g * L + L - 1 of every lane's block at byte `at`, as registers (big-endian words, §3.1).
  [[gnu::always_inline]] static void load_group(Reg* out, const std::uint8_t* const data[], std::size_t at, int g) {
    Reg r[L];
    for (int l = 0; l < L; ++l) r[l] = V::bswap(V::load(data[l] + at + sizeof(Word) * L * g));
    V::transpose(r);
    for (int j = 0; j < L; ++j) out[L * g + j] = r[j];
  }

  // h[l][0..7] of every lane <-> v[0..7]. With 16 lanes of 32-bit words a row has room for 16 words and the state
  // is 8: the rows are half filled (the upper half zero on the way in, dropped on the way out).
  [[gnu::always_inline]] static void load_state(Reg (&v)[8], Word* const h[]) {
    for (int g = 0; g < 8 / (L < 8 ? L : 8); ++g) {
      Reg r[L];
      for (int l = 0; l < L; ++l) r[l] = V::load_state_row(h[l] + L * g);
      V::transpose(r);
      for (int j = 0; j < L && L * g + j < 8; ++j) v[L * g + j] = r[j];
    }
  }
  [[gnu::always_inline]] static void store_state(Word* const h[], const Reg (&v)[8]) {
    for (int g = 0; g < 8 / (L < 8 ? L : 8); ++g) {
      Reg r[L];
      for (int j = 0; j < L; ++j) r[j] = L * g + j < 8 ? v[L * g + j] : r[0];  // rows past the state: never stored
      V::transpose(r);
      for (int l = 0; l < L; ++l) V::store_state_row(h[l] + L * g, r[l]);
    }
  }

  // The multi-lane entry (backend.h): L states, each over nblocks blocks of its own data. Not inlined: the
  // caller burns its frame after it returns (stack_burn.h).
  [[gnu::noinline]] static void compress(Word* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
    // MSan cannot follow the lanes through vpternlog and the transposes' cross-lane moves: a lane's new state is
    // marked whole when its old state or its data was (lib/src/internal/msan.h).
    bool tainted[L];
    for (int l = 0; l < L; ++l)
      tainted[l] = msan::any_poisoned(h[l], 8 * sizeof(Word)) || msan::any_poisoned(data[l], kBlock * nblocks);
    Reg v[8];
    load_state(v, h);
    for (std::size_t b = 0; b < nblocks; ++b) {
      const std::size_t at = kBlock * b;
      Reg w[16];
      for (int g = 0; g < 16 / L; ++g) load_group(w, data, at, g);
      Reg in[8];
      for (int i = 0; i < 8; ++i) in[i] = v[i];
      rounds16<false>(v, w, 0);
      for (int t0 = 16; t0 < C::kRounds; t0 += 16) rounds16<true>(v, w, t0);
      for (int i = 0; i < 8; ++i) v[i] = V::add(v[i], in[i]);  // §6.2.2 step 4
    }
    store_state(h, v);
    for (int l = 0; l < L; ++l)
      if (tainted[l]) msan::poison(h[l], 8 * sizeof(Word));
  }
};

// The multi-lane seam entry point (backend.h): nothing at all for nblocks = 0, else the lanes, then the burn of the
// frame they left (stack_burn.h): Burn bytes, the gcc 12 frame with margin (the backend's file says how much).
template <class V, std::size_t Burn>
void sha2_lanes_seam(typename V::Word* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  static_assert(Burn <= kMaxStackBurn);
  if (nblocks == 0) return;
  Sha2Lanes<V>::compress(h, data, nblocks);
  burn_stack(Burn);
}

}  // namespace
}  // namespace shakedown::internal
