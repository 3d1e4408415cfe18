// SHA-512 with Intel's SHA512 extension (VSHA512RNDS2, VSHA512MSG1, VSHA512MSG2): backend x86_64/sha512ni.
//
// Semantics, operand roles and their sources: docs/intel-sha512.md. No machine here executes these
// instructions (neither this host nor any QEMU), so the backend is verified through the emul/ model
// (SHAKEDOWN_EMULATE=sha512ni) and its row asks for a known-answer self-test before first use (registry.cc).
//
// Only the code in the AVX2 region (x86_target.h) may contain AVX2 instructions, so the availability predicate
// and the row at the end are baseline code that runs on any x86-64 CPU.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "sha512ni_encoding.h"
#include "x86_target.h"

// AVX2 for the 256-bit adds, byte swaps and permutes around the SHA512 instructions (themselves emitted as
// bytes by sha512ni_encoding.h: the compiler neither knows nor needs to know them).
SHAKEDOWN_X86_TARGET_BEGIN("avx2")

namespace shakedown::internal {
namespace {

// Each wrapper states exactly what its instruction reads and writes (SDM Vol. 2C Operation sections): the
// destination is read and written ("+x"), the sources only read. All three write the whole YMM destination
// and zero bits 511:256 of its ZMM (VEX.256), which hold nothing here: this file never enables AVX-512, so
// the "x" constraint keeps every operand in ymm0-15, the only registers VEX can encode. No flags change.

// VSHA512RNDS2 ymm1, ymm2, xmm3: rounds t, t+1. ymm1 = {H, G, D, C} (qword 0 first), ymm2 = {F, E, B, A},
// xmm3 qwords 0, 1 = K[t] + W[t], K[t+1] + W[t+1] (bits 255:128 of that register are ignored). Returns the
// new {F, E, B, A}; the new {H, G, D, C} is the old {F, E, B, A}.
[[gnu::always_inline]] inline __m256i vsha512rnds2(__m256i cdgh, __m256i abef, __m128i wk) {
  __asm__(SHAKEDOWN_SHA512NI_ASM("shakedown_vsha512rnds2 %[wk], %[abef], %[cdgh]")
          : [cdgh] "+x"(cdgh)
          : [abef] "x"(abef), [wk] "x"(wk));
  return cdgh;
}

// VSHA512MSG1 ymm1, xmm2: ymm1 = W[t-16..t-13]; qword 0 of xmm2 = W[t-12] (the rest is ignored). Returns
// W[t-16+j] + σ0(W[t-15+j]) for j = 0..3 (FIPS 180-4 (4.12)).
[[gnu::always_inline]] inline __m256i vsha512msg1(__m256i w, __m128i w4) {
  __asm__(SHAKEDOWN_SHA512NI_ASM("shakedown_vsha512msg1 %[w4], %[w]") : [w] "+x"(w) : [w4] "x"(w4));
  return w;
}

// VSHA512MSG2 ymm1, ymm2: ymm1 = the other terms of W[t..t+3]; qwords 2, 3 of ymm2 = W[t-2], W[t-1] (qwords
// 0, 1 are ignored). Returns W[t..t+3], adding σ1 (FIPS 180-4 (4.13)) of W[t-2], W[t-1], then of the new W[t],
// W[t+1].
[[gnu::always_inline]] inline __m256i vsha512msg2(__m256i w, __m256i w14) {
  __asm__(SHAKEDOWN_SHA512NI_ASM("shakedown_vsha512msg2 %[w14], %[w]") : [w] "+x"(w) : [w14] "x"(w14));
  return w;
}

// W[t-7..t-4] = qwords 1..3 of W[t-8..t-5] and qword 0 of W[t-4..t-1].
[[gnu::always_inline]] inline __m256i words_t_minus_7(__m256i w8, __m256i w4) {
  return _mm256_permute4x64_epi64(_mm256_blend_epi32(w8, w4, 0x03), 0x39);  // {w4[0], w8[1..3]} rotated by one
}

// Four message words as big-endian qwords (FIPS 180-4 §3.1, §6.4.2 step 1).
[[gnu::always_inline]] inline __m256i load_words(const std::uint8_t* p) {
  const __m256i bswap64 = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                                           7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  return _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), bswap64);
}

// Rounds 4G..4G+3 of §6.4.2 step 3, with m[k % 4] = W[4k..4k+3]. The schedule (step 1) of later words runs
// between the rounds, as the SHA extensions are meant to be used: the two VSHA512RNDS2 per four rounds form
// the critical path, and each schedule step is issued as soon as its inputs exist so it hides behind them.
//   - after the first two rounds, W[4G+4..4G+7] is completed: + W[t-7..t-4], then MSG2 with W[4G..4G+3];
//   - after the last two, MSG1 starts W[4G+12..4G+15] from W[4G-4..4G-1] (whose slot it takes over, no longer
//     needed) and W[4G].
template <int G>
[[gnu::always_inline]] inline void four_rounds(__m256i& abef, __m256i& cdgh, __m256i (&m)[4]) {
  static_assert(G >= 0 && G < 20);
  const __m256i wk =
      _mm256_add_epi64(m[G % 4], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kSha512K + 4 * G)));
  cdgh = vsha512rnds2(cdgh, abef, _mm256_castsi256_si128(wk));  // cdgh now holds the new A, B, E, F
  if constexpr (G >= 3 && G + 1 < 20) {
    __m256i& next = m[(G + 1) % 4];  // MSG1 part since G - 2
    next = vsha512msg2(_mm256_add_epi64(next, words_t_minus_7(m[(G + 3) % 4], m[G % 4])), m[G % 4]);
  }
  abef = vsha512rnds2(abef, cdgh, _mm256_extracti128_si256(wk, 1));  // and abef the newest: names agree again
  if constexpr (G >= 1 && G + 3 < 20)
    m[(G + 3) % 4] = vsha512msg1(m[(G + 3) % 4], _mm256_castsi256_si128(m[G % 4]));
}

template <int... G>
[[gnu::always_inline]] inline void eighty_rounds(__m256i& abef, __m256i& cdgh, __m256i (&m)[4],
                                                 std::integer_sequence<int, G...>) {
  (four_rounds<G>(abef, cdgh, m), ...);
}

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  // MSan cannot see through the asm (lib/src/internal/msan.h): every output word depends on every input.
  const bool tainted = msan::any_poisoned(h, 64) || msan::any_poisoned(data, nblocks * 128);
  // The state as the instructions hold it, kept in registers across blocks: {a,b,c,d}, {e,f,g,h} (qword 0
  // first) -> abef = {f,e,b,a}, cdgh = {h,g,d,c}.
  const __m256i abcd = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h));
  const __m256i efgh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h + 4));
  __m256i abef = _mm256_permute4x64_epi64(_mm256_permute2x128_si256(abcd, efgh, 0x20), 0x1b);
  __m256i cdgh = _mm256_permute4x64_epi64(_mm256_permute2x128_si256(abcd, efgh, 0x31), 0x1b);
  for (; nblocks > 0; --nblocks, data += 128) {
    const __m256i abef_in = abef, cdgh_in = cdgh;
    __m256i m[4] = {load_words(data), load_words(data + 32), load_words(data + 64), load_words(data + 96)};
    eighty_rounds(abef, cdgh, m, std::make_integer_sequence<int, 20>{});
    abef = _mm256_add_epi64(abef, abef_in);  // §6.4.2 step 4, in the same split order
    cdgh = _mm256_add_epi64(cdgh, cdgh_in);
  }
  // Back to {a,b,c,d}, {e,f,g,h}: x = {a,b,e,f}, y = {c,d,g,h}, then their halves recombined.
  const __m256i x = _mm256_permute4x64_epi64(abef, 0x1b), y = _mm256_permute4x64_epi64(cdgh, 0x1b);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h), _mm256_permute2x128_si256(x, y, 0x20));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + 4), _mm256_permute2x128_si256(x, y, 0x31));
  // Message words and round states live only in ymm registers (nothing spilled to wipe); clear them all,
  // which also ends the AVX state as VZEROUPPER would.
  _mm256_zeroall();
  if (tainted) msan::poison(h, 64);
}

}  // namespace
}  // namespace shakedown::internal
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// VSHA512* are VEX.256 instructions: they #UD unless the OS enabled YMM state (XCR0 bits 1 and 2, x86_os_ymm)
// and AVX is present (x86_avx, which cpu.cc sets only together with x86_os_ymm; both are asked for so that a
// test override adding "avx" alone cannot claim the state). The adds, byte swaps and permutes around them are
// AVX2. Every CPU with SHA512 (Arrow Lake, Lunar Lake and later) has AVX2; the predicate still says what runs.
bool available(const CpuFeatures& f) {
  return f.has(CpuFeature::x86_sha512) && f.has(CpuFeature::x86_avx) && f.has(CpuFeature::x86_os_ymm) &&
         f.has(CpuFeature::x86_avx2);
}

}  // namespace

// kBackendSelfTest: no machine here executes these instructions, so real hardware is guarded by a known answer.
constinit const Sha512Backend rows::sha512_x86_64_sha512ni = {
    {"x86_64/sha512ni", "SHA512 (VSHA512*), AVX2 and OS-enabled YMM state", available, kBackendSelfTest}, blocks};

}  // namespace shakedown::internal
