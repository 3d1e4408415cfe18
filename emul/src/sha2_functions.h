// SHA-2 word functions and the two-round step on the split {a,b,e,f} / {c,d,g,h} state that the SHA-2
// instructions of RISC-V (vsha2c[hl], Zvknh) and x86 (VSHA512RNDS2) both define, for the emulator's models.
//
// Written apart from lib/ (FIPS 180-4 §4.1.2, §4.1.3, §6.2.2, §6.4.2) so that a bug in the library's compression
// cannot hide behind the same bug in the model that checks its hardware backends.
#pragma once

#include <cstdint>

namespace shakedown::emul::detail {

template <typename W>
struct Sha2Fns {
  static constexpr int kBits = 8 * sizeof(W);
  static W rotr(W x, int n) { return static_cast<W>((x >> n) | (x << (kBits - n))); }
  // Rotation and shift counts: §4.1.2 (4.4)-(4.7) for 32-bit words, §4.1.3 (4.10)-(4.13) for 64-bit words.
  static constexpr int kS0[3] = {kBits == 32 ? 2 : 28, kBits == 32 ? 13 : 34, kBits == 32 ? 22 : 39};
  static constexpr int kS1[3] = {kBits == 32 ? 6 : 14, kBits == 32 ? 11 : 18, kBits == 32 ? 25 : 41};
  static constexpr int ks0[3] = {kBits == 32 ? 7 : 1, kBits == 32 ? 18 : 8, kBits == 32 ? 3 : 7};
  static constexpr int ks1[3] = {kBits == 32 ? 17 : 19, kBits == 32 ? 19 : 61, kBits == 32 ? 10 : 6};
  static W Sigma0(W x) { return rotr(x, kS0[0]) ^ rotr(x, kS0[1]) ^ rotr(x, kS0[2]); }
  static W Sigma1(W x) { return rotr(x, kS1[0]) ^ rotr(x, kS1[1]) ^ rotr(x, kS1[2]); }
  static W sigma0(W x) { return rotr(x, ks0[0]) ^ rotr(x, ks0[1]) ^ (x >> ks0[2]); }
  static W sigma1(W x) { return rotr(x, ks1[0]) ^ rotr(x, ks1[1]) ^ (x >> ks1[2]); }
  static W Ch(W x, W y, W z) { return (x & y) ^ (~x & z); }
  static W Maj(W x, W y, W z) { return (x & y) ^ (x & z) ^ (y & z); }
};

// Two rounds of §6.2.2 / §6.4.2 step 3 with the precomputed K[t] + W[t] words wk0, wk1 (the instructions do not
// add K). The state is split the way both instruction sets hold it, element (or qword) 3 first:
// abef = {f, e, b, a} and cdgh = {h, g, d, c} with index 0 the least significant. After two rounds the new
// {c, d, g, h} equals the old {a, b, e, f}, so only the new {a, b, e, f} is computed; it replaces cdgh.
template <typename W>
void sha2_two_rounds(W cdgh[4], const W abef[4], W wk0, W wk1) {
  using F = Sha2Fns<W>;
  W a = abef[3], b = abef[2], e = abef[1], f = abef[0];
  W c = cdgh[3], d = cdgh[2], g = cdgh[1], h = cdgh[0];
  for (const W wk : {wk0, wk1}) {
    const W t1 = h + F::Sigma1(e) + F::Ch(e, f, g) + wk;
    const W t2 = F::Sigma0(a) + F::Maj(a, b, c);
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  cdgh[3] = a; cdgh[2] = b; cdgh[1] = e; cdgh[0] = f;
}

}  // namespace shakedown::emul::detail
