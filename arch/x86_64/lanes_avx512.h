// AVX-512 word-lane vectors for the multi-lane backends: 16 x 32-bit or 8 x 64-bit words, one message per element.
//
// The operations of sha2_lanes.h and keccak_lanes.h for AVX-512F: one-instruction rotates (vprord, vprolq) and
// three-input logic (vpternlog), so Σ and σ take four operations and Ch, Maj, χ and a three-way XOR one.
// Internal linkage and AVX-512 intrinsics: include it only inside a SHAKEDOWN_X86_TARGET_BEGIN region that
// enables AVX-512F (x86_target.h).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "internal/msan.h"
#include "lanes_avx2.h"  // Avx512VlLanes64 builds on Avx2Lanes<std::uint64_t>

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
// GCC 12's mask-less AVX-512 intrinsics pass _mm512_undefined_epi32(), a self-initialised variable, as the unused
// merge source, and -Wuninitialized then fires in every includer (GCC bug 105593, fixed in GCC 13). From here to
// the end of the including file, which is a backend's.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace shakedown::internal {
namespace {

// vpternlog with truth table Imm (Intel SDM Vol. 2, VPTERNLOGD/Q: result bit = Imm[(a << 2) | (b << 1) | c]).
// MSan has no shadow rule for it and checks its operands instead, so the mark is carried around it
// (lib/src/internal/msan.h); a no-op outside MSan builds.
template <int Imm, class Reg>
[[gnu::always_inline]] inline Reg ternary(Reg a, Reg b, Reg c) {
  const bool marked_a = msan::take_mark(&a, sizeof a), marked_b = msan::take_mark(&b, sizeof b);
  const bool marked = msan::take_mark(&c, sizeof c) || marked_a || marked_b;
  Reg r;
  if constexpr (sizeof(Reg) == 64) r = _mm512_ternarylogic_epi64(a, b, c, Imm);
  else r = _mm256_ternarylogic_epi64(a, b, c, Imm);
  if (marked) msan::poison(&r, sizeof r);
  return r;
}
inline constexpr int kXor3 = 0x96;  // a ^ b ^ c
inline constexpr int kCh = 0xCA;    // a ? b : c, FIPS 180-4 (4.2) Ch(e, f, g)
inline constexpr int kMaj = 0xE8;   // majority, (4.3) Maj(a, b, c)
inline constexpr int kChi = 0xD2;   // a ^ (~b & c), FIPS 202 §3.2.4 χ

struct Avx512Common {
  using Reg = __m512i;
  [[gnu::always_inline]] static Reg xor2(Reg a, Reg b) { return _mm512_xor_si512(a, b); }
  [[gnu::always_inline]] static Reg xor3(Reg a, Reg b, Reg c) { return ternary<kXor3>(a, b, c); }
  [[gnu::always_inline]] static Reg ch(Reg e, Reg f, Reg g) { return ternary<kCh>(e, f, g); }
  [[gnu::always_inline]] static Reg maj(Reg a, Reg b, Reg c) { return ternary<kMaj>(a, b, c); }
  [[gnu::always_inline]] static Reg chi(Reg a, Reg b, Reg c) { return ternary<kChi>(a, b, c); }
  [[gnu::always_inline]] static Reg load(const void* p) { return _mm512_loadu_si512(p); }
  [[gnu::always_inline]] static void store(void* p, Reg r) { _mm512_storeu_si512(p, r); }
  // The 128-bit blocks of a, b, c, d as a 4 x 4 matrix of rows a..d, transposed: out[k] = (a_k, b_k, c_k, d_k).
  [[gnu::always_inline]] static void transpose_blocks(Reg a, Reg b, Reg c, Reg d, Reg (&out)[4]) {
    const Reg ab01 = _mm512_shuffle_i32x4(a, b, 0x44), ab23 = _mm512_shuffle_i32x4(a, b, 0xEE);
    const Reg cd01 = _mm512_shuffle_i32x4(c, d, 0x44), cd23 = _mm512_shuffle_i32x4(c, d, 0xEE);
    out[0] = _mm512_shuffle_i32x4(ab01, cd01, 0x88);
    out[1] = _mm512_shuffle_i32x4(ab01, cd01, 0xDD);
    out[2] = _mm512_shuffle_i32x4(ab23, cd23, 0x88);
    out[3] = _mm512_shuffle_i32x4(ab23, cd23, 0xDD);
  }
};

template <class Word>
struct Avx512Lanes;

template <>
struct Avx512Lanes<std::uint32_t> : Avx512Common {
  using Word = std::uint32_t;
  static constexpr int kLanes = 16;
  static constexpr bool kRoundConstantRows = false;  // K[t] as the add's broadcast operand ({1to16})
  [[gnu::always_inline]] static Reg add(Reg a, Reg b) { return _mm512_add_epi32(a, b); }
  [[gnu::always_inline]] static Reg broadcast(const Word* p) { return _mm512_set1_epi32(static_cast<int>(*p)); }
  // A row of a SHA-2 state (sha2_lanes.h): 8 words in the low half, the upper half zero.
  [[gnu::always_inline]] static Reg load_state_row(const void* p) {
    return _mm512_zextsi256_si512(_mm256_loadu_si256(static_cast<const __m256i*>(p)));
  }
  [[gnu::always_inline]] static void store_state_row(void* p, Reg r) {
    _mm256_storeu_si256(static_cast<__m256i*>(p), _mm512_castsi512_si256(r));
  }
  template <int N>
  [[gnu::always_inline]] static Reg shr(Reg x) {
    return _mm512_srli_epi32(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg ror(Reg x) {
    return _mm512_ror_epi32(x, N);
  }
  [[gnu::always_inline]] static Reg bswap(Reg x) {
    const Reg m = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
    return _mm512_shuffle_epi8(x, m);
  }
  // 16 x 16 words: pairs, quads, then the 128-bit blocks (64 shuffles).
  [[gnu::always_inline]] static void transpose(Reg (&r)[16]) {
    Reg t[16], u[16];
    for (int i = 0; i < 16; i += 2) {
      t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
      t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    // u[i + j], i = 0, 4, 8, 12: rows i..i+3 of element 4k + j in 128-bit block k.
    for (int i = 0; i < 16; i += 4) {
      u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
      u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
      u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
      u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int j = 0; j < 4; ++j) {
      Reg col[4];
      transpose_blocks(u[j], u[4 + j], u[8 + j], u[12 + j], col);
      for (int k = 0; k < 4; ++k) r[4 * k + j] = col[k];
    }
  }
};

template <>
struct Avx512Lanes<std::uint64_t> : Avx512Common {
  using Word = std::uint64_t;
  static constexpr int kLanes = 8;
  static constexpr bool kRoundConstantRows = false;  // K[t] as the add's broadcast operand ({1to8})
  [[gnu::always_inline]] static Reg add(Reg a, Reg b) { return _mm512_add_epi64(a, b); }
  [[gnu::always_inline]] static Reg broadcast(const Word* p) {
    return _mm512_set1_epi64(static_cast<long long>(*p));
  }
  [[gnu::always_inline]] static Reg load_state_row(const void* p) { return load(p); }
  [[gnu::always_inline]] static void store_state_row(void* p, Reg r) { store(p, r); }
  template <int N>
  [[gnu::always_inline]] static Reg shr(Reg x) {
    return _mm512_srli_epi64(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg ror(Reg x) {
    return _mm512_ror_epi64(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg rol(Reg x) {
    if constexpr (N == 0) return x;
    else return _mm512_rol_epi64(x, N);
  }
  [[gnu::always_inline]] static Reg constant(std::uint64_t c) { return _mm512_set1_epi64(static_cast<long long>(c)); }
  // Element l = w[l] (keccak_lanes.h: the lanes left over from the transposes).
  [[gnu::always_inline]] static Reg set(const long long (&w)[8]) {
    return _mm512_set_epi64(w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0]);
  }
  [[gnu::always_inline]] static Reg bswap(Reg x) {
    const Reg m = _mm512_set4_epi32(0x08090a0b, 0x0c0d0e0f, 0x00010203, 0x04050607);
    return _mm512_shuffle_epi8(x, m);
  }
  // 8 x 8 words: pairs, then the 128-bit blocks (24 shuffles).
  [[gnu::always_inline]] static void transpose(Reg (&r)[8]) {
    Reg t[8];
    // t[i + j], i = 0, 2, 4, 6: rows i, i+1 of element 2k + j in 128-bit block k.
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm512_unpacklo_epi64(r[i], r[i + 1]);
      t[i + 1] = _mm512_unpackhi_epi64(r[i], r[i + 1]);
    }
    for (int j = 0; j < 2; ++j) {
      Reg col[4];
      transpose_blocks(t[j], t[2 + j], t[4 + j], t[6 + j], col);
      for (int k = 0; k < 4; ++k) r[2 * k + j] = col[k];
    }
  }
};

// Four 64-bit words per 256-bit register with AVX-512VL: Avx2Lanes' loads, sets and transposes, with vprolq and
// vprorq for the rotates, vpternlogq for χ, Ch, Maj and the three-way XORs, and 32 registers to hold them
// (keccak_avx512vl.cc: four Keccak states in 25 registers, where AVX2's 16 spill; sha512_avx512vl.cc).
struct Avx512VlLanes64 : Avx2Lanes<std::uint64_t> {
  static constexpr bool kRoundConstantRows = false;  // K[t] as the add's broadcast operand ({1to4})
  template <int N>
  [[gnu::always_inline]] static Reg rol(Reg x) {
    if constexpr (N == 0) return x;
    else return _mm256_rol_epi64(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg ror(Reg x) {
    return _mm256_ror_epi64(x, N);
  }
  [[gnu::always_inline]] static Reg xor3(Reg a, Reg b, Reg c) { return ternary<kXor3>(a, b, c); }
  [[gnu::always_inline]] static Reg chi(Reg a, Reg b, Reg c) { return ternary<kChi>(a, b, c); }
  [[gnu::always_inline]] static Reg ch(Reg e, Reg f, Reg g) { return ternary<kCh>(e, f, g); }
  [[gnu::always_inline]] static Reg maj(Reg a, Reg b, Reg c) { return ternary<kMaj>(a, b, c); }
  // Not Avx2Lanes' shift-and-add form of θ's a ^ ROT(b, 1) (keccak_x86.h): VPROLQ is one instruction. Four states
  // on Zen 4, 4 KiB (bench/): the AVX2 form +0.2% SHA3-256, -0.7% SHAKE128; as one VPTERNLOGQ -0.5%, -3.5%.
  [[gnu::always_inline]] static Reg xor_rol1(Reg a, Reg b) { return xor2(a, rol<1>(b)); }
};

// AVX-512VL on 256-bit registers: the rotate, shift and three-way XOR that σ0/σ1 of the single-message two-block
// schedules need (Sha2SmallSigmas in sha2_lanes.h), in four instructions instead of AVX2's nine.
template <class W>
struct Avx512VlWords {
  using Reg = __m256i;
  using Word = W;
  template <int N>
  [[gnu::always_inline]] static Reg ror(Reg x) {
    if constexpr (sizeof(Word) == 4) return _mm256_ror_epi32(x, N);
    else return _mm256_ror_epi64(x, N);
  }
  template <int N>
  [[gnu::always_inline]] static Reg shr(Reg x) {
    if constexpr (sizeof(Word) == 4) return _mm256_srli_epi32(x, N);
    else return _mm256_srli_epi64(x, N);
  }
  [[gnu::always_inline]] static Reg xor3(Reg a, Reg b, Reg c) { return ternary<kXor3>(a, b, c); }
};

}  // namespace
}  // namespace shakedown::internal
