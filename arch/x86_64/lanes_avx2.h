// AVX2 word-lane vectors for the multi-lane backends: 8 x 32-bit or 4 x 64-bit words, one message per element.
//
// The operations the multi-lane SHA-2 and Keccak code (sha2_lanes.h, keccak_lanes.h) is written in, for
// AVX2: no rotate instruction, so ROTR^n(x) is (x >> n) | (x << (w - n)); no three-input logic, so the
// functions of FIPS 180-4 §4.1 take two or three operations each. Internal linkage and AVX2 intrinsics: include
// it only inside a SHAKEDOWN_X86_TARGET_BEGIN region that enables AVX2 (x86_target.h).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace shakedown::internal {
namespace {

// What the word size does not change.
struct Avx2Common {
  using Reg = __m256i;
  [[gnu::always_inline]] static Reg xor2(Reg a, Reg b) { return _mm256_xor_si256(a, b); }
  // b ^ c first: Keccak's column parity xor3(xor3(A0, A1, A2), A3, A4) (keccak_x86.h) is then three XORs deep
  // instead of four (four AVX2 lanes of SHA3-256 about 1% faster on Zen 3; the SHA-2 lanes unchanged).
  [[gnu::always_inline]] static Reg xor3(Reg a, Reg b, Reg c) { return xor2(a, xor2(b, c)); }
  // Ch(e,f,g) = ((f ^ g) & e) ^ g and Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b: (4.2), (4.3) in fewest operations.
  [[gnu::always_inline]] static Reg ch(Reg e, Reg f, Reg g) { return xor2(_mm256_and_si256(xor2(f, g), e), g); }
  [[gnu::always_inline]] static Reg maj(Reg a, Reg b, Reg c) {
    return xor2(_mm256_and_si256(xor2(a, b), xor2(b, c)), b);
  }
  // a ^ (~b & c): Keccak's χ (FIPS 202 §3.2.4).
  [[gnu::always_inline]] static Reg chi(Reg a, Reg b, Reg c) { return xor2(a, _mm256_andnot_si256(b, c)); }
  [[gnu::always_inline]] static Reg load(const void* p) { return _mm256_loadu_si256(static_cast<const Reg*>(p)); }
  [[gnu::always_inline]] static void store(void* p, Reg r) { _mm256_storeu_si256(static_cast<Reg*>(p), r); }
  // A row of a SHA-2 state (sha2_lanes.h): 8 or 4 words, a whole register.
  [[gnu::always_inline]] static Reg load_state_row(const void* p) { return load(p); }
  [[gnu::always_inline]] static void store_state_row(void* p, Reg r) { store(p, r); }
};

template <class Word>
struct Avx2Lanes;

template <>
struct Avx2Lanes<std::uint32_t> : Avx2Common {
  using Word = std::uint32_t;
  static constexpr int kLanes = 8;
  // K[t] by a broadcast each round (sha2_lanes.h): rows of copies made eight lanes of SHA-256 no faster on Zen 3.
  static constexpr bool kRoundConstantRows = false;
  [[gnu::always_inline]] static Reg add(Reg a, Reg b) { return _mm256_add_epi32(a, b); }
  [[gnu::always_inline]] static Reg broadcast(const Word* p) {
    return _mm256_set1_epi32(static_cast<int>(*p));
  }
  template <int N>
  [[gnu::always_inline]] static Reg shr(Reg x) {
    return _mm256_srli_epi32(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg ror(Reg x) {
    return _mm256_or_si256(_mm256_srli_epi32(x, N), _mm256_slli_epi32(x, 32 - N));
  }
  // Big-endian words (FIPS 180-4 §3.1): bytes reversed within each 32-bit element.
  [[gnu::always_inline]] static Reg bswap(Reg x) {
    const Reg m = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,  //
                                   3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    return _mm256_shuffle_epi8(x, m);
  }
  // r[i] element j <-> r[j] element i (8 x 8 words): pairs, then quads, then 128-bit halves.
  [[gnu::always_inline]] static void transpose(Reg (&r)[8]) {
    Reg t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);      // r[i][0] r[i+1][0] r[i][1] r[i+1][1] | same, 4 and 5
      t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);  // elements 2, 3 | 6, 7
    }
    for (int i = 0; i < 8; i += 4) {
      u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);          // rows i..i+3 of element 0 | 4
      u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);      // 1 | 5
      u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);  // 2 | 6
      u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);  // 3 | 7
    }
    for (int j = 0; j < 4; ++j) {
      r[j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x20);
      r[j + 4] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x31);
    }
  }
};

template <>
struct Avx2Lanes<std::uint64_t> : Avx2Common {
  using Word = std::uint64_t;
  static constexpr int kLanes = 4;
  // K[t] from a row of four copies, as the add's memory operand (sha2_lanes.h): AVX2 has no broadcast operand.
  static constexpr bool kRoundConstantRows = true;
  [[gnu::always_inline]] static Reg add(Reg a, Reg b) { return _mm256_add_epi64(a, b); }
  // a ^ ROT(b, 1) for Keccak's θ (keccak_x86.h) as (a ^ (b >> 63)) ^ (b + b): the two halves of the rotate have no
  // bit in common, so an XOR can join them in place of the OR, and a joins the shifted half first. Same operations;
  // four Keccak states, 4 KiB messages on Zen 4 (bench/): SHA3-256 2.1% faster, SHAKE128 0.5%; joined as
  // a ^ ((b >> 63) ^ (b + b)), 1.6% and -0.8%. Not from a shorter path (D is three operations deep from b either
  // way) but from the order gcc gives the round (docs/history.md §4).
  [[gnu::always_inline]] static Reg xor_rol1(Reg a, Reg b) {
    return _mm256_xor_si256(_mm256_xor_si256(a, _mm256_srli_epi64(b, 63)), _mm256_add_epi64(b, b));
  }
  [[gnu::always_inline]] static Reg broadcast(const Word* p) {
    return _mm256_set1_epi64x(static_cast<long long>(*p));
  }
  template <int N>
  [[gnu::always_inline]] static Reg shr(Reg x) {
    return _mm256_srli_epi64(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg ror(Reg x) {
    if constexpr (N == 8) {  // a whole byte: one shuffle instead of two shifts and an OR
      const Reg m = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,  //
                                     1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
      return _mm256_shuffle_epi8(x, m);
    } else if constexpr (N == 56) {
      const Reg m = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,  //
                                     7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14);
      return _mm256_shuffle_epi8(x, m);
    } else if constexpr (N == 63) {  // x << 1 as x + x: an adder instead of a shifter (Keccak's θ, ρ)
      return _mm256_or_si256(_mm256_srli_epi64(x, 63), _mm256_add_epi64(x, x));
    } else {
      return _mm256_or_si256(_mm256_srli_epi64(x, N), _mm256_slli_epi64(x, 64 - N));
    }
  }
  template <int N>
  [[gnu::always_inline]] static Reg rol(Reg x) {
    if constexpr (N == 0) return x;
    else return ror<64 - N>(x);
  }
  [[gnu::always_inline]] static Reg constant(std::uint64_t c) { return _mm256_set1_epi64x(static_cast<long long>(c)); }
  // Element l = w[l] (keccak_lanes.h: the lanes left over from the transposes).
  [[gnu::always_inline]] static Reg set(const long long (&w)[4]) {
    return _mm256_set_epi64x(w[3], w[2], w[1], w[0]);
  }
  [[gnu::always_inline]] static Reg bswap(Reg x) {
    const Reg m = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                                   7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    return _mm256_shuffle_epi8(x, m);
  }
  // r[i] element j <-> r[j] element i (4 x 4 words).
  [[gnu::always_inline]] static void transpose(Reg (&r)[4]) {
    const Reg t0 = _mm256_unpacklo_epi64(r[0], r[1]);  // r0[0] r1[0] | r0[2] r1[2]
    const Reg t1 = _mm256_unpackhi_epi64(r[0], r[1]);  // r0[1] r1[1] | r0[3] r1[3]
    const Reg t2 = _mm256_unpacklo_epi64(r[2], r[3]);
    const Reg t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
  }
};

}  // namespace
}  // namespace shakedown::internal
