// The SHA-2 compression round on POWER8 vector crypto, shared by sha256_vcrypto.cc (4 x u32 vectors) and
// sha512_vcrypto.cc (2 x u64 vectors). Internal linkage only (static inline in an anonymous namespace), so no
// function compiled with the vector-crypto attribute can be shared with a file compiled without it.
#pragma once

#include <altivec.h>

#include "ppc64le_target.h"

namespace shakedown::internal {
namespace {

using U32x4 = __vector unsigned int;
using U64x2 = __vector unsigned long long;

// vshasigmaw/vshasigmad VRT,VRA,ST,SIX (Power ISA 2.07 Book I §5.11) apply to each element one of the four
// functions of FIPS 180-4 §4.1.2 (words) or §4.1.3 (doublewords): ST = 0 the message-schedule σ, ST = 1 the
// compression Σ; a SIX bit 0 picks the 0 function, 1 the 1 function, per element. Every element here takes the
// same one, so SIX is all 0 or all 1 and which bit is whose does not matter.
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U32x4 small_sigma0(U32x4 x) {
  return __builtin_crypto_vshasigmaw(x, 0, 0x0);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U32x4 small_sigma1(U32x4 x) {
  return __builtin_crypto_vshasigmaw(x, 0, 0xf);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U32x4 big_sigma0(U32x4 x) {
  return __builtin_crypto_vshasigmaw(x, 1, 0x0);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U32x4 big_sigma1(U32x4 x) {
  return __builtin_crypto_vshasigmaw(x, 1, 0xf);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U64x2 small_sigma0(U64x2 x) {
  return __builtin_crypto_vshasigmad(x, 0, 0x0);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U64x2 small_sigma1(U64x2 x) {
  return __builtin_crypto_vshasigmad(x, 0, 0xf);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U64x2 big_sigma0(U64x2 x) {
  return __builtin_crypto_vshasigmad(x, 1, 0x0);
}
[[gnu::always_inline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO inline U64x2 big_sigma1(U64x2 x) {
  return __builtin_crypto_vshasigmad(x, 1, 0xf);
}

// The eight working variables a..h of one stream, each broadcast to every lane of a vector register, so that
// vshasigma computes Σ0/Σ1 in one instruction and vsel computes Ch and Maj in one more.
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

}  // namespace
}  // namespace shakedown::internal
