// The SHA-2 compression round on POWER8 vector crypto, shared by sha256_vcrypto.cc (4 x u32 vectors) and
// sha512_vcrypto.cc (2 x u64 vectors). Internal linkage only (static inline in an anonymous namespace), so no
// function compiled with the vector-crypto attribute can be shared with a file compiled without it.
#pragma once

#include <altivec.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "internal/stack_burn.h"
#include "ppc64le_target.h"
#include "shakedown/cpu.h"

namespace shakedown::internal {
namespace {

using U32x4 = __vector unsigned int;
using U64x2 = __vector unsigned long long;

// vshasigmaw/vshasigmad VRT,VRA,ST,SIX (Power ISA 2.07 Book I §5.11) apply to each element one of the four
// functions of FIPS 180-4 §4.1.2 (words) or §4.1.3 (doublewords): ST = 0 the message-schedule σ, ST = 1 the
// compression Σ; a SIX bit 0 picks the 0 function, 1 the 1 function, per element. Every element here takes the
// same one, so SIX is all 0 or all 1 and which bit is whose does not matter.
template <int kSt, int kSix, class V>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline V sha_sigma(V x) {
  if constexpr (std::is_same_v<V, U32x4>) {
    return __builtin_crypto_vshasigmaw(x, kSt, kSix);
  } else {
    return __builtin_crypto_vshasigmad(x, kSt, kSix);
  }
}
template <class V>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline V small_sigma0(V x) {
  return sha_sigma<0, 0x0>(x);
}
template <class V>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline V small_sigma1(V x) {
  return sha_sigma<0, 0xf>(x);
}
template <class V>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline V big_sigma0(V x) {
  return sha_sigma<1, 0x0>(x);
}
template <class V>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline V big_sigma1(V x) {
  return sha_sigma<1, 0xf>(x);
}

// The eight working variables a..h of one stream, each in a vector register, so that vshasigma computes Σ0/Σ1 in
// one instruction and vsel computes Ch and Maj in one more. Every operation is per element, so the stream can sit
// in any one element (the others compute garbage nobody reads) as long as wk's same element is W[t] + K[t].
template <class V>
struct Working {
  V a, b, c, d, e, f, g, h;

  // FIPS 180-4 §6.2.2 / §6.4.2 step 3, with wk = W[t] + K[t] in every lane. Ch(e,f,g) takes f where e is 1 and g
  // where it is 0; Maj(a,b,c) is b where a = b, else c.
  [[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline void round(V wk) {
    const V t1 = h + big_sigma1(e) + vec_sel(g, f, e) + wk;
    const V t2 = big_sigma0(a) + vec_sel(b, c, a ^ b);
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
};

// Step 4: the block's result added to the state it started from.
template <class V>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline void add_into(V (&s)[8], const Working<V>& w) {
  s[0] += w.a;
  s[1] += w.b;
  s[2] += w.c;
  s[3] += w.d;
  s[4] += w.e;
  s[5] += w.f;
  s[6] += w.g;
  s[7] += w.h;
}

// ---- Many streams: stream i in element i of every vector (hash_many's lanes) ----

// The round constants with each one repeated in every element: a round adds K[t] to all streams with one load
// (POWER8 has no load-and-splat of a word).
template <class Word, std::size_t kLanes, std::size_t kRounds>
struct SplatK {
  alignas(16) Word k[kRounds][kLanes];
};
template <class Word, std::size_t kLanes, std::size_t kRounds>
constexpr SplatK<Word, kLanes, kRounds> splat_k(const Word (&k)[kRounds]) {
  SplatK<Word, kLanes, kRounds> out{};
  for (std::size_t t = 0; t < kRounds; ++t)
    for (std::size_t i = 0; i < kLanes; ++i) out.k[t][i] = k[t];
  return out;
}

// The element type vec_xl/vec_xst take for a word (uint64_t is unsigned long here, which they do not take).
template <class Word>
using VecElem = std::conditional_t<sizeof(Word) == 4, unsigned int, unsigned long long>;
template <class V, class Word>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline V load_words(const Word* p) {
  return vec_xl(0, reinterpret_cast<const VecElem<Word>*>(p));
}
template <class V, class Word>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline void store_words(V v, Word* p) {
  vec_xst(v, 0, reinterpret_cast<VecElem<Word>*>(p));
}

// FIPS 180-4 §6.2.2 (SHA-256, kRounds = 64) or §6.4.2 (SHA-512, 80) over nblocks blocks of each of the
// sizeof(V) / sizeof(Word) streams, h[i] the state and data[i] the blocks of stream i. Every instruction of a round
// then serves all streams: the round code is the single-stream one, the schedule's 16-word window is sixteen
// vectors (one word of every stream each), computed as the rounds consume it (§6.2.2 step 1 / §6.4.2 step 1).
template <class Word, class V, std::size_t kRounds>
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline void compress_lanes(
    Word* const h[], const std::uint8_t* const data[], std::size_t nblocks,
    const SplatK<Word, sizeof(V) / sizeof(Word), kRounds>& k) {
  constexpr std::size_t kLanes = sizeof(V) / sizeof(Word);
  constexpr std::size_t kBlock = 16 * sizeof(Word);
  alignas(16) Word gather[16][kLanes];  // the words of one block of every stream, transposed
  V s[8];
  for (int i = 0; i < 8; ++i) {
    for (std::size_t l = 0; l < kLanes; ++l) gather[i][l] = h[l][i];
    s[i] = load_words<V>(gather[i]);
  }
  for (std::size_t b = 0; b < nblocks; ++b) {
    for (std::size_t l = 0; l < kLanes; ++l) {
      for (int t = 0; t < 16; ++t) {  // §3.1: big-endian words
        Word v;
        std::memcpy(&v, data[l] + b * kBlock + t * sizeof(Word), sizeof v);
        if constexpr (sizeof(Word) == 4) {
          gather[t][l] = __builtin_bswap32(v);
        } else {
          gather[t][l] = __builtin_bswap64(v);
        }
      }
    }
    V x[16];
    for (int t = 0; t < 16; ++t) x[t] = load_words<V>(gather[t]);
    Working<V> wv{s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
#pragma GCC unroll 80
    for (std::size_t t = 0; t < kRounds; ++t) {
      if (t >= 16)  // W[t] into the slot of W[t-16], which it no longer needs
        x[t % 16] += small_sigma1(x[(t - 2) % 16]) + x[(t - 7) % 16] + small_sigma0(x[(t - 15) % 16]);
      wv.round(x[t % 16] + load_words<V>(k.k[t]));
    }
    add_into(s, wv);  // step 4
  }
  for (int i = 0; i < 8; ++i) {
    store_words(s[i], gather[i]);
    for (std::size_t l = 0; l < kLanes; ++l) h[l][i] = gather[i][l];
  }
}

// The seam entry of a lanes function (backend.h's multi-lane entry): kCompress, never inlined, then its frame
// burnt (stack_burn.h): the transposed block and the spills of the sixteen-vector window (8 state vectors, 16
// window vectors and their temporaries are more than the 32 vector registers the vector-crypto instructions name).
// Frames measured under gcc 12 with UBSan: 2192 bytes for SHA-256 x4, 1840 for SHA-512 x2.
inline constexpr std::size_t kVcryptoLanesStack = 3072;
template <class Word, void (*kCompress)(Word* const[], const std::uint8_t* const[], std::size_t)>
void blocks_lanes(Word* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  if (nblocks == 0) return;  // not even the pointer arrays
  kCompress(h, data, nblocks);
  burn_stack(kVcryptoLanesStack);
}

// vshasigmaw/vshasigmad need the vector-crypto facility (HWCAP2 VEC_CRYPTO, every POWER8 and later) and the
// unaligned VSX loads and stores (HWCAP VSX).
inline bool vcrypto_available(const CpuFeatures& f) {
  return f.has(CpuFeature::ppc_vsx) && f.has(CpuFeature::ppc_vec_crypto);
}

}  // namespace
}  // namespace shakedown::internal
