// SHA-256 with the SHA extensions (SHA-NI): sha256rnds2 does two rounds, sha256msg1/2 the schedule.
//
// The block function is compiled for SHA, SSE4.1 and SSSE3 (x86_target.h). Instruction semantics: Intel SDM
// Vol. 2, SHA256RNDS2 / SHA256MSG1 / SHA256MSG2, and the Intel "SHA Extensions" paper (2013).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/msan.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("sha,sse4.1,ssse3")
#include "sha2_x86.h"

namespace shakedown::internal {
namespace {

// K[t..t+3] + W[t..t+3] as the two 2-round inputs: sha256rnds2 reads the sum for round t from
// bits 31:0 and for round t+1 from bits 63:32 of its implicit XMM0 operand.
[[gnu::always_inline]] inline void four_rounds(__m128i& abef, __m128i& cdgh, __m128i w, int t) {
  const __m128i wk = _mm_add_epi32(w, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + t)));
  cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);                         // rounds t, t+1: cdgh := new ABEF
  abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));  // rounds t+2, t+3
  // Two rounds move ABEF into the CDGH position, so after four the roles are back.
}

// §6.2.2 step 1 for t..t+3 from w0..w3 = W[t-16..t-13] .. W[t-4..t-1]: msg1 adds σ0(W[t-15..t-12])
// to W[t-16..t-13]; then W[t-7..t-4] is added; msg2 adds σ1 of W[t-2], W[t-1] and of its own first
// two results.
[[gnu::always_inline]] inline __m128i schedule4(__m128i w0, __m128i w1, __m128i w2, __m128i w3) {
  const __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
  return _mm_sha256msg2_epu32(partial, w3);
}

// The instructions keep the state as ABEF and CDGH (A in bits 127:96, F in bits 31:0):
// h[] = A B C D | E F G H becomes ABEF = {F,E,B,A} and CDGH = {H,G,D,C} as 32-bit elements 0..3.
struct AbefCdgh {
  __m128i abef, cdgh;
};

[[gnu::always_inline]] inline AbefCdgh load_state(const std::uint32_t h[8]) {
  const __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));
  const __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));
  const __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);  // {B,A,D,C}
  const __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);  // {H,G,F,E}
  return {_mm_alignr_epi8(badc, hgfe, 8),              // {F,E,B,A}
          _mm_blend_epi16(hgfe, badc, 0xF0)};          // {H,G,D,C}
}

[[gnu::always_inline]] inline void store_state(std::uint32_t h[8], AbefCdgh s) {
  const __m128i ab_ef = _mm_shuffle_epi32(s.abef, 0x1B);  // {A,B,E,F}
  const __m128i gh_cd = _mm_shuffle_epi32(s.cdgh, 0xB1);  // {G,H,C,D}
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_blend_epi16(ab_ef, gh_cd, 0xF0));   // {A,B,C,D}
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), _mm_alignr_epi8(gh_cd, ab_ef, 8));  // {E,F,G,H}
}

// Lambdas are not reliably inlined without it (as in keccak_bmi2.cc).
#define SHAKEDOWN_SHANI_INLINE __attribute__((always_inline))

// Calls f(integral_constant<int, I>) for I = 0..N-1: the streams' registers stay separate variables.
template <int N, class F>
[[gnu::always_inline]] inline void for_streams(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) SHAKEDOWN_SHANI_INLINE {
    (f(std::integral_constant<int, I>{}), ...);
  }(std::make_integer_sequence<int, N>{});
}

// One block of each of N independent streams, step by step side by side: sha256rnds2 has a latency of several
// cycles and one stream's rounds are a single dependency chain, so a second stream fills the gaps (two are
// enough to keep the SHA unit busy on this host; docs/history.md).
template <int N>
[[gnu::always_inline]] inline void compress_streams(AbefCdgh (&s)[N], const std::uint8_t* const (&data)[N]) {
  const __m128i bswap32 = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  AbefCdgh in[N];
  __m128i w[N][4];
  for_streams<N>([&](auto i) SHAKEDOWN_SHANI_INLINE {
    in[i] = s[i];
    // Big-endian words (§3.1).
    for (int j = 0; j < 4; ++j)
      w[i][j] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data[i] + 16 * j)), bswap32);
  });
  for (int j = 0; j < 4; ++j)
    for_streams<N>([&](auto i) SHAKEDOWN_SHANI_INLINE { four_rounds(s[i].abef, s[i].cdgh, w[i][j], 4 * j); });
  for (int t = 16; t < 64; t += 16) {
    for (int j = 0; j < 4; ++j) {
      for_streams<N>([&](auto i) SHAKEDOWN_SHANI_INLINE {
        w[i][j] = schedule4(w[i][j], w[i][(j + 1) % 4], w[i][(j + 2) % 4], w[i][(j + 3) % 4]);
        four_rounds(s[i].abef, s[i].cdgh, w[i][j], t + 4 * j);
      });
    }
  }
  for_streams<N>([&](auto i) SHAKEDOWN_SHANI_INLINE {  // §6.2.2 step 4
    s[i].abef = _mm_add_epi32(s[i].abef, in[i].abef);
    s[i].cdgh = _mm_add_epi32(s[i].cdgh, in[i].cdgh);
  });
}

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  // MSan's shadow rule for the SHA instructions is bitwise (output bit i marked from input bits i only), far
  // less than a round's real mixing: the new state is marked whole when any input was (lib/src/internal/msan.h).
  const bool tainted = msan::any_poisoned(h, 8 * sizeof *h) || msan::any_poisoned(data, 64 * nblocks);
  AbefCdgh s[1] = {load_state(h)};
  do {
    const std::uint8_t* const block[1] = {data};
    compress_streams<1>(s, block);
    data += 64;
  } while (--nblocks);
  store_state(h, s[0]);
  if (tainted) msan::poison(h, 8 * sizeof *h);
}

// Two streams: the multi-lane entry (backend.h). Not inlined: its spills are burnt after it returns.
[[gnu::noinline]] void compress_x2(std::uint32_t* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  bool tainted[2];
  for (int i = 0; i < 2; ++i)
    tainted[i] = msan::any_poisoned(h[i], 8 * sizeof *h[i]) || msan::any_poisoned(data[i], 64 * nblocks);
  AbefCdgh s[2] = {load_state(h[0]), load_state(h[1])};
  for (std::size_t b = 0; b < nblocks; ++b) {
    const std::uint8_t* const block[2] = {data[0] + 64 * b, data[1] + 64 * b};
    compress_streams<2>(s, block);
  }
  for (int i = 0; i < 2; ++i) {
    store_state(h[i], s[i]);
    if (tainted[i]) msan::poison(h[i], 8 * sizeof *h[i]);
  }
}

}  // namespace
}  // namespace shakedown::internal
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// Two streams hold 16 XMM registers of state and schedule between them, more than SSE has: the spills (gcc 12:
// a frame of about 200 bytes) are message schedule words, burnt after each call (stack_burn.h).
constexpr std::size_t kShaniX2Stack = 512;

void blocks_x2(std::uint32_t* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  if (nblocks == 0) return;
  compress_x2(h, data, nblocks);
  burn_stack(kShaniX2Stack);
}

// sha256rnds2/msg1/msg2 (SHA), pblendw (SSE4.1), pshufb/palignr (SSSE3).
bool available(const CpuFeatures& f) {
  return f.has(CpuFeature::x86_sha_ni) && f.has(CpuFeature::x86_sse41) && f.has(CpuFeature::x86_ssse3);
}

}  // namespace

constinit const Sha256Backend rows::sha256_x86_64_shani = {
    {"x86_64/shani", "SHA-NI, SSE4.1 and SSSE3", available, kBackendDefault}, blocks,
    // Two lanes, worth it from two busy ones: one message runs as fast through blocks() (bench/).
    {2, 2, blocks_x2}};

}  // namespace shakedown::internal
