// SHA-256 with the SHA extensions (SHA-NI): sha256rnds2 does two rounds, sha256msg1/2 the schedule.
//
// The block function is compiled for SHA, SSE4.1 and SSSE3 (x86_target.h). Instruction semantics: Intel SDM
// Vol. 2, SHA256RNDS2 / SHA256MSG1 / SHA256MSG2, and the Intel "SHA Extensions" paper (2013).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

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

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  // MSan's shadow rule for the SHA instructions is bitwise (output bit i marked from input bits i only), far
  // less than a round's real mixing: the new state is marked whole when any input was (lib/src/internal/msan.h).
  const bool tainted = msan::any_poisoned(h, 8 * sizeof *h) || msan::any_poisoned(data, 64 * nblocks);
  // The instructions keep the state as ABEF and CDGH (A in bits 127:96, F in bits 31:0):
  // h[] = A B C D | E F G H becomes ABEF = {F,E,B,A} and CDGH = {H,G,D,C} as 32-bit elements 0..3.
  const __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));
  const __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));
  const __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);  // {B,A,D,C}
  const __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);  // {H,G,F,E}
  __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);       // {F,E,B,A}
  __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);    // {H,G,D,C}

  const __m128i bswap32 = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  do {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    // Big-endian words (§3.1).
    __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 0)), bswap32);
    __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16)), bswap32);
    __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 32)), bswap32);
    __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 48)), bswap32);
    four_rounds(abef, cdgh, w0, 0);
    four_rounds(abef, cdgh, w1, 4);
    four_rounds(abef, cdgh, w2, 8);
    four_rounds(abef, cdgh, w3, 12);
    for (int t = 16; t < 64; t += 16) {
      w0 = schedule4(w0, w1, w2, w3);
      four_rounds(abef, cdgh, w0, t);
      w1 = schedule4(w1, w2, w3, w0);
      four_rounds(abef, cdgh, w1, t + 4);
      w2 = schedule4(w2, w3, w0, w1);
      four_rounds(abef, cdgh, w2, t + 8);
      w3 = schedule4(w3, w0, w1, w2);
      four_rounds(abef, cdgh, w3, t + 12);
    }
    abef = _mm_add_epi32(abef, abef_in);  // §6.2.2 step 4
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
    data += 64;
  } while (--nblocks);

  const __m128i ab_ef = _mm_shuffle_epi32(abef, 0x1B);  // {A,B,E,F}
  const __m128i gh_cd = _mm_shuffle_epi32(cdgh, 0xB1);  // {G,H,C,D}
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_blend_epi16(ab_ef, gh_cd, 0xF0));   // {A,B,C,D}
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), _mm_alignr_epi8(gh_cd, ab_ef, 8));  // {E,F,G,H}
  if (tainted) msan::poison(h, 8 * sizeof *h);
}

}  // namespace
}  // namespace shakedown::internal
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// sha256rnds2/msg1/msg2 (SHA), pblendw (SSE4.1), pshufb/palignr (SSSE3).
bool available(const CpuFeatures& f) {
  return f.has(CpuFeature::x86_sha_ni) && f.has(CpuFeature::x86_sse41) && f.has(CpuFeature::x86_ssse3);
}

}  // namespace

constinit const Sha256Backend rows::sha256_x86_64_shani = {
    {"x86_64/shani", "SHA-NI, SSE4.1 and SSSE3", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
