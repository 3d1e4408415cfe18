// SHA-2 pieces shared by the x86-64 backends: round constants and the scalar (BMI2 rorx) rounds.
//
// Everything here has internal linkage on purpose: this header is compiled into files with
// different ISA flags (sha256_avx2.cc with -mavx2, sha512_avx512.cc with -mavx512vl, ...). An
// inline function with external linkage would be emitted once per file and the linker would keep
// an arbitrary copy, possibly one using instructions that the CPU running another backend lacks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::internal {
namespace {

// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64
// primes. The same values as lib/src/sha256_generic.cc (whose table is private to that file); a
// wrong digit here is caught by x86_backends_test.cc, which compares with the generic function.
// Aligned so that SIMD code can load four (or broadcast two pairs of) constants with one access.
alignas(64) constexpr std::uint32_t kSha256K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// FIPS 180-4 §4.2.3: first 64 bits of the fractional parts of the cube roots of the first 80
// primes (same values as lib/src/sha512_generic.cc; checked the same way).
alignas(64) constexpr std::uint64_t kSha512K[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

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

// One round in AT&T syntax, on the named operands of sha2_rounds8 (a..h name the operands holding
// the working variables this round; i is the round's index in the 8-word K + W slice):
//   T1 = h + Σ1(e) + Ch(e,f,g) + K[t] + W[t];  T2 = Σ0(a) + Maj(a,b,c);  d += T1;  h = T1 + T2.
// Ch(e,f,g) = ((f ^ g) & e) ^ g and Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b are the bitwise
// identities of (4.2)/(4.3) with the fewest operations and no ANDN (BMI1 is not required). The
// operand holding b ^ c is overwritten with Maj; this round's a ^ b goes to the other one, and the
// next round swaps their roles, so no MOV is needed to carry it; `ab` holds Ch until then. Why
// asm: the order matters on Zen 4, which runs rorx on two of its four ALUs only (measured 2/cycle)
// and issues the oldest ready operation first. The e chain (Σ1 -> T1 -> d + T1, 5 operations)
// goes first and Σ0 last; this order measured ~7% faster for SHA-256 and ~6% for SHA-512 than
// the same operations in compiler order (bench vs OpenSSL, same process, interleaved).
#define SHAKEDOWN_SHA2_ROUND(a, b, c, d, e, f, g, h, bc, ab, i)               \
  "rorx %[s10], %[" #e "], %[y0]\n\t"                                       \
  "rorx %[s11], %[" #e "], %[y1]\n\t"                                       \
  "mov %[" #f "], %[" #ab "]\n\t" /* ab is free until a ^ b below */      \
  "xor %[" #g "], %[" #ab "]\n\t"                                          \
  "and %[" #e "], %[" #ab "]\n\t"                                          \
  "xor %[y1], %[y0]\n\t"                                                    \
  "rorx %[s12], %[" #e "], %[y1]\n\t"                                       \
  "xor %[" #g "], %[" #ab "]\n\t" /* Ch(e,f,g) */                         \
  "add " #i "*%c[word](%[wk]), %[" #h "]\n\t" /* h + K[t] + W[t] */        \
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

// Eight rounds t0..t0+7 (t0 a multiple of 8); wk points at K[t0..t0+7] + W[t0..t0+7]. After eight
// renamings every variable is back in its operand, and b ^ c in `bc` (an even number of swaps).
template <class Word>
[[gnu::always_inline]] inline void sha2_rounds8(Sha2Vars<Word>& s, const Word* wk) {
  using Sig = Sha2BigSigma<Word>;
  Word ab, y0, y1;  // scratch
  __asm__(SHAKEDOWN_SHA2_ROUND(v0, v1, v2, v3, v4, v5, v6, v7, bc, ab, 0)
          SHAKEDOWN_SHA2_ROUND(v7, v0, v1, v2, v3, v4, v5, v6, ab, bc, 1)
          SHAKEDOWN_SHA2_ROUND(v6, v7, v0, v1, v2, v3, v4, v5, bc, ab, 2)
          SHAKEDOWN_SHA2_ROUND(v5, v6, v7, v0, v1, v2, v3, v4, ab, bc, 3)
          SHAKEDOWN_SHA2_ROUND(v4, v5, v6, v7, v0, v1, v2, v3, bc, ab, 4)
          SHAKEDOWN_SHA2_ROUND(v3, v4, v5, v6, v7, v0, v1, v2, ab, bc, 5)
          SHAKEDOWN_SHA2_ROUND(v2, v3, v4, v5, v6, v7, v0, v1, bc, ab, 6)
          SHAKEDOWN_SHA2_ROUND(v1, v2, v3, v4, v5, v6, v7, v0, ab, bc, 7)
          : [v0] "+r"(s.v[0]), [v1] "+r"(s.v[1]), [v2] "+r"(s.v[2]), [v3] "+r"(s.v[3]), [v4] "+r"(s.v[4]),
            [v5] "+r"(s.v[5]), [v6] "+r"(s.v[6]), [v7] "+r"(s.v[7]), [bc] "+r"(s.bc), [ab] "=&r"(ab),
            [y0] "=&r"(y0), [y1] "=&r"(y1)
          : [wk] "r"(wk), "m"(*reinterpret_cast<const Word(*)[8]>(wk)), [word] "i"(sizeof(Word)),
            [s00] "i"(Sig::kS0[0]), [s01] "i"(Sig::kS0[1]), [s02] "i"(Sig::kS0[2]), [s10] "i"(Sig::kS1[0]),
            [s11] "i"(Sig::kS1[1]), [s12] "i"(Sig::kS1[2])
          : "cc");
}
#undef SHAKEDOWN_SHA2_ROUND

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

// Zeroization of message-derived stack data that the optimizer may not drop (like
// lib/src/internal/bytes.h secure_zero, repeated here to keep this header free of
// external-linkage inline functions; see the top of the file).
[[gnu::always_inline]] inline void wipe_stack(void* p, std::size_t n) {
  __builtin_memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

}  // namespace
}  // namespace shakedown::internal
