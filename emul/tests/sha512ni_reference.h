// The tests' own reference for the Intel SHA512 instructions: FIPS 180-4 written plainly, round by round, and
// the operand roles of Intel's instruction descriptions. Written apart from the model (src/sha512ni_model.cc,
// src/sha2_functions.h) and from the library; docs/intel-sha512.md says where each role comes from.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <random>

#include "emul/emul.h"
#include "internal/sha2_constants.h"
#include "shakedown/backend.h"

namespace shakedown::emul::test::fips {

using Ymm = std::array<std::uint64_t, 4>;  // qword 0 = bits 63:0

inline std::uint64_t rotr(std::uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }
// FIPS 180-4 §4.1.3, (4.8)-(4.13).
inline std::uint64_t ch(std::uint64_t x, std::uint64_t y, std::uint64_t z) { return (x & y) ^ (~x & z); }
inline std::uint64_t maj(std::uint64_t x, std::uint64_t y, std::uint64_t z) { return (x & y) ^ (x & z) ^ (y & z); }
inline std::uint64_t big_sigma0(std::uint64_t x) { return rotr(x, 28) ^ rotr(x, 34) ^ rotr(x, 39); }
inline std::uint64_t big_sigma1(std::uint64_t x) { return rotr(x, 14) ^ rotr(x, 18) ^ rotr(x, 41); }
inline std::uint64_t small_sigma0(std::uint64_t x) { return rotr(x, 1) ^ rotr(x, 8) ^ (x >> 7); }
inline std::uint64_t small_sigma1(std::uint64_t x) { return rotr(x, 19) ^ rotr(x, 61) ^ (x >> 6); }

// The eight working variables of §6.4.2 step 3.
struct Working {
  std::uint64_t a, b, c, d, e, f, g, h;
};

// One round of §6.4.2 step 3; kw = K[t] + W[t].
inline Working round(const Working& v, std::uint64_t kw) {
  const std::uint64_t t1 = v.h + big_sigma1(v.e) + ch(v.e, v.f, v.g) + kw;
  const std::uint64_t t2 = big_sigma0(v.a) + maj(v.a, v.b, v.c);
  return {t1 + t2, v.a, v.b, v.c, v.d + t1, v.e, v.f, v.g};
}

// VSHA512RNDS2 ymm1, ymm2, xmm3 as Intel's prose describes it: ymm1 holds C, D, G, H (qwords 3, 2, 1, 0) and
// receives the new A, B, E, F in the same places; ymm2 holds A, B, E, F (qwords 3, 2, 1, 0); qwords 0 and 1 of
// xmm3 are K + W of the first and the second round.
inline Ymm rnds2(const Ymm& ymm1, const Ymm& ymm2, const Ymm& xmm3) {
  const Working v{ymm2[3], ymm2[2], ymm1[3], ymm1[2], ymm2[1], ymm2[0], ymm1[1], ymm1[0]};
  const Working w = round(round(v, xmm3[0]), xmm3[1]);
  return {w.f, w.e, w.b, w.a};
}

// VSHA512MSG1 ymm1, xmm2: W[t-16..t-13] in ymm1 (qword 0 first), W[t-12] in qword 0 of xmm2; the result is
// W[t-16+j] + σ0(W[t-15+j]), the part of §6.4.2 step 1 that needs no word younger than W[t-12].
inline Ymm msg1(const Ymm& ymm1, const Ymm& xmm2) {
  const std::uint64_t w[5] = {ymm1[0], ymm1[1], ymm1[2], ymm1[3], xmm2[0]};
  return {w[0] + small_sigma0(w[1]), w[1] + small_sigma0(w[2]), w[2] + small_sigma0(w[3]), w[3] + small_sigma0(w[4])};
}

// VSHA512MSG2 ymm1, ymm2: ymm1 holds the other terms of W[t..t+3], qwords 2, 3 of ymm2 hold W[t-2], W[t-1];
// the result adds σ1 of the word two places back, which for W[t+2], W[t+3] is a word computed here.
inline Ymm msg2(const Ymm& ymm1, const Ymm& ymm2) {
  Ymm w = ymm1;
  w[0] += small_sigma1(ymm2[2]);
  w[1] += small_sigma1(ymm2[3]);
  w[2] += small_sigma1(w[0]);
  w[3] += small_sigma1(w[1]);
  return w;
}

// One SHA-512 compression (§6.4.2) computed only with the three instructions, the way their descriptions combine:
// MSG1, + W[t-7..t-4], MSG2 for the schedule, RNDS2 with the {A,B,E,F} / {C,D,G,H} registers swapping roles
// for the rounds. exec(insn, ymm1, vvvv register, rm register) returns the new ymm1: the model itself, or the
// real instruction trapped into the emulator. h holds native words, block the message bytes.
template <class Exec>
void compress_by_instructions(Exec exec, std::uint64_t h[8], const std::uint8_t block[128]) {
  Ymm w[20];  // w[k] = W[4k..4k+3]
  for (int t = 0; t < 16; ++t) {
    std::uint64_t word = 0;
    for (int b = 0; b < 8; ++b) word = word << 8 | block[8 * t + b];  // big-endian (§3.1)
    w[t / 4][t % 4] = word;
  }
  for (int k = 4; k < 20; ++k) {
    Ymm x = exec(Insn::vsha512msg1, w[k - 4], Ymm{}, w[k - 3]);
    const std::uint64_t w7[4] = {w[k - 2][1], w[k - 2][2], w[k - 2][3], w[k - 1][0]};  // W[t-7..t-4]
    for (int j = 0; j < 4; ++j) x[j] += w7[j];
    w[k] = exec(Insn::vsha512msg2, x, Ymm{}, w[k - 1]);
  }
  Ymm abef{h[5], h[4], h[1], h[0]}, cdgh{h[7], h[6], h[3], h[2]};
  for (int t = 0; t < 80; t += 2) {
    const Ymm kw{w[t / 4][t % 4] + internal::kSha512K[t], w[t / 4][t % 4 + 1] + internal::kSha512K[t + 1], 0, 0};
    const Ymm next = exec(Insn::vsha512rnds2, cdgh, abef, kw);
    cdgh = abef;
    abef = next;
  }
  const std::uint64_t out[8] = {abef[3], abef[2], cdgh[3], cdgh[2], abef[1], abef[0], cdgh[1], cdgh[0]};
  for (int i = 0; i < 8; ++i) h[i] += out[i];
}

// Runs `count` compressions of random blocks from random states through compress_by_instructions(exec) and the
// library's generic block function; returns the index of the first that differs, or -1.
template <class Exec>
int first_difference_from_generic(Exec exec, int count, std::uint64_t seed) {
  const auto generic = shakedown::backend<Family::sha512>("generic").blocks;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < count; ++i) {
    std::uint8_t block[128];
    for (auto& b : block) b = static_cast<std::uint8_t>(rng());
    std::uint64_t by_instructions[8], library[8];
    for (auto& w : by_instructions) w = rng();
    std::memcpy(library, by_instructions, sizeof library);
    compress_by_instructions(exec, by_instructions, block);
    generic(library, block, 1);
    if (std::memcmp(by_instructions, library, sizeof library) != 0) return i;
  }
  return -1;
}

}  // namespace shakedown::emul::test::fips
