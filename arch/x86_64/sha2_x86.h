// SHA-2 pieces shared by the x86-64 backends: the scalar (BMI2 rorx) rounds (constants: internal/sha2_constants.h).
//
// Everything here has internal linkage on purpose: this header is included inside the ISA regions of files
// with different ISAs (x86_target.h: sha256_avx2.cc for AVX2, sha512_avx512.cc for AVX-512VL, ...). An inline
// function with external linkage would be emitted once per file and the linker would keep an arbitrary copy,
// possibly one using instructions that the CPU running another backend lacks. Its own includes come first
// in every includer, outside the region.
#pragma once

#include <cstddef>
#include <cstdint>

#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"

namespace shakedown::internal {
namespace {

// The rotation counts of Σ0 and Σ1: §4.1.2 (4.4), (4.5) for SHA-256, §4.1.3 (4.10), (4.11) for SHA-512.
template <class Word>
struct Sha2BigSigma;
template <>
struct Sha2BigSigma<std::uint32_t> {
  static constexpr int kS0[3] = {2, 13, 22};
  static constexpr int kS1[3] = {6, 11, 25};
};
template <>
struct Sha2BigSigma<std::uint64_t> {
  static constexpr int kS0[3] = {28, 34, 39};
  static constexpr int kS1[3] = {14, 18, 41};
};

// The working variables a..h of §6.2.2 step 3 / §6.4.2 step 3. Instead of shifting them each
// round, round R of every 8 renames them (the variable called `a` in round R is v[(8 - R) % 8]).
// bc carries b ^ c into the next round, where it is a ^ b of this one (saves an XOR per round).
template <class Word>
struct Sha2Vars {
  Word v[8];
  Word bc;
};

// One round in AT&T syntax, on the named operands of sha2_rounds2 (a..h name the operands holding
// the working variables this round; i (0 or 1) picks the memory operand wk0 or wk1 holding its K + W word):
//   T1 = h + Σ1(e) + Ch(e,f,g) + K[t] + W[t];  T2 = Σ0(a) + Maj(a,b,c);  d += T1;  h = T1 + T2.
// Ch(e,f,g) = ((f ^ g) & e) ^ g and Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b are the bitwise
// identities of (4.2)/(4.3) with the fewest operations and no ANDN (BMI1 is not required). The
// operand holding b ^ c is overwritten with Maj; this round's a ^ b goes to the other one, and the
// next round swaps their roles, so no MOV is needed to carry it; `ab` holds Ch until then. Why
// asm: the order matters on Zen 4, which runs rorx on two of its four ALUs only (measured 2/cycle)
// and issues the oldest ready operation first. The e chain (Σ1 -> T1 -> d + T1, 5 operations)
// goes first and Σ0 last; this order is faster than the same operations in compiler order
// (measured: docs/history.md §3).
#define SHAKEDOWN_SHA2_ROUND(a, b, c, d, e, f, g, h, bc, ab, i)               \
  "rorx %[s10], %[" #e "], %[y0]\n\t"                                       \
  "rorx %[s11], %[" #e "], %[y1]\n\t"                                       \
  "mov %[" #f "], %[" #ab "]\n\t" /* ab is free until a ^ b below */      \
  "xor %[" #g "], %[" #ab "]\n\t"                                          \
  "and %[" #e "], %[" #ab "]\n\t"                                          \
  "xor %[y1], %[y0]\n\t"                                                    \
  "rorx %[s12], %[" #e "], %[y1]\n\t"                                       \
  "xor %[" #g "], %[" #ab "]\n\t" /* Ch(e,f,g) */                         \
  "add %[wk" #i "], %[" #h "]\n\t" /* h + K[t] + W[t] */                   \
  "xor %[y1], %[y0]\n\t" /* Σ1(e) */                                       \
  "add %[" #ab "], %[" #h "]\n\t"                                          \
  "mov %[" #a "], %[" #ab "]\n\t"                                           \
  "xor %[" #b "], %[" #ab "]\n\t" /* a ^ b */                              \
  "add %[y0], %[" #h "]\n\t" /* T1 */                                      \
  "and %[" #ab "], %[" #bc "]\n\t"                                          \
  "add %[" #h "], %[" #d "]\n\t" /* d + T1 */                              \
  "xor %[" #b "], %[" #bc "]\n\t" /* Maj(a,b,c) */                         \
  "rorx %[s00], %[" #a "], %[y0]\n\t"                                       \
  "add %[" #bc "], %[" #h "]\n\t"                                           \
  "rorx %[s01], %[" #a "], %[y1]\n\t"                                       \
  "xor %[y1], %[y0]\n\t"                                                    \
  "rorx %[s02], %[" #a "], %[y1]\n\t"                                       \
  "xor %[y1], %[y0]\n\t" /* Σ0(a) */                                       \
  "add %[y0], %[" #h "]\n\t" /* T1 + T2 */

// Test-only (tests/asm_contract, docs/asm-contracts.md): the flipped contract test declares `a` write-only.
#ifndef SHAKEDOWN_TEST_ASM_FLIP_SHA2_ROUNDS8
#define SHAKEDOWN_SHA2_A_CONSTRAINT "+r"
#else
#define SHAKEDOWN_SHA2_A_CONSTRAINT "=r"
#endif
// Two rounds R, R + 1 (R even) of a group of eight; wk points at K[t0..t0+7] + W[t0..t0+7] of the group. The
// working variable called `a` in round R is s.v[(8 - R) % 8]; after the pair, b ^ c is back in s.bc. Two rounds per
// statement let the block loops put a vector schedule step between pairs (sha256_x86.h, sha512_x86.h): issued
// among the scalar rounds rather than in a burst before eight of them, the schedule costs less (docs/history.md §3).
// K + W comes in as memory operands: no register holds a pointer to it.
template <int R, class Word>
[[gnu::always_inline]] inline void sha2_rounds2(Sha2Vars<Word>& s, const Word* wk) {
  using Sig = Sha2BigSigma<Word>;
  static_assert(R % 2 == 0 && R >= 0 && R < 8);
  Word ab, y0, y1;  // scratch
  // MSan cannot see through the asm (lib/src/internal/msan.h): every output depends on every input.
  const bool from_wk = msan::any_poisoned(wk + R, 2 * sizeof(Word));
  const bool tainted = msan::take_mark(&s, sizeof s) || from_wk;
  __asm__(SHAKEDOWN_SHA2_ROUND(p0, p1, p2, p3, p4, p5, p6, p7, bc, ab, 0)
          SHAKEDOWN_SHA2_ROUND(p7, p0, p1, p2, p3, p4, p5, p6, ab, bc, 1)
          : [p0] SHAKEDOWN_SHA2_A_CONSTRAINT(s.v[(8 - R) % 8]), [p1] "+r"(s.v[(9 - R) % 8]),
            [p2] "+r"(s.v[(10 - R) % 8]), [p3] "+r"(s.v[(11 - R) % 8]), [p4] "+r"(s.v[(12 - R) % 8]),
            [p5] "+r"(s.v[(13 - R) % 8]), [p6] "+r"(s.v[(14 - R) % 8]), [p7] "+r"(s.v[(15 - R) % 8]),
            [bc] "+r"(s.bc), [ab] "=&r"(ab), [y0] "=&r"(y0), [y1] "=&r"(y1)
          : [wk0] "m"(wk[R]), [wk1] "m"(wk[R + 1]), [s00] "i"(Sig::kS0[0]), [s01] "i"(Sig::kS0[1]),
            [s02] "i"(Sig::kS0[2]), [s10] "i"(Sig::kS1[0]), [s11] "i"(Sig::kS1[1]), [s12] "i"(Sig::kS1[2])
          : "cc");
  if (tainted) msan::poison(&s, sizeof s);
}

// Eight rounds t0..t0+7 (t0 a multiple of 8); wk points at K[t0..t0+7] + W[t0..t0+7]. After eight
// renamings every variable is back in its operand, and b ^ c in `bc`.
template <class Word>
[[gnu::always_inline]] inline void sha2_rounds8(Sha2Vars<Word>& s, const Word* wk) {
  sha2_rounds2<0>(s, wk);
  sha2_rounds2<2>(s, wk);
  sha2_rounds2<4>(s, wk);
  sha2_rounds2<6>(s, wk);
}
#undef SHAKEDOWN_SHA2_ROUND
#undef SHAKEDOWN_SHA2_A_CONSTRAINT

template <class Word>
[[gnu::always_inline]] inline Sha2Vars<Word> sha2_load_vars(const Word h[8]) {
  Sha2Vars<Word> s;
  for (int i = 0; i < 8; ++i) s.v[i] = h[i];
  s.bc = h[1] ^ h[2];
  return s;
}

// §6.2.2 step 4 / §6.4.2 step 4: H(i) = H(i-1) + working variables.
template <class Word>
[[gnu::always_inline]] inline void sha2_add_vars(Word h[8], const Sha2Vars<Word>& s) {
  for (int i = 0; i < 8; ++i) h[i] += s.v[i];
}

// Stack the SHA-2 block functions burn after they return (stack_burn.h): frames of 712 (SHA-256 AVX2, gcc 12) and
// at most 1512 bytes (SHA-512 pairs, gcc 12 and clang 19; sha512_x86.h), mostly the K + W pairs, with margin. The
// burn is paid on every call: 3072 bytes cost a SHA-512 call of two blocks (a context fed small updates) ~13% of
// its time on Zen 4 (115 of 887 TSC ticks), 2048 bytes 69 ticks, and ~10% on Zen 3 (bench/: sha512-upd100); so the
// SHA-512 pairs wipe their K + W themselves and the burn skips it (sha512_rounds80_lane_b).
inline constexpr std::size_t kSha256Avx2Stack = 1536;
inline constexpr std::size_t kSha512X86Stack = 2048;

}  // namespace
}  // namespace shakedown::internal
