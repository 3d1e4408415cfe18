// The Intel SHA512 model on its own (no signals): known answers derived by hand from FIPS 180-4, the decoder on
// encodings from an independent assembler test suite and on every #UD rule, and whole compressions against the
// library's generic SHA-512.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sha512ni_model.h"
#include "sha512ni_reference.h"

namespace shakedown::emul::test {
namespace {

using detail::execute_sha512ni;
using detail::Ymm;

Ymm run(Insn insn, Ymm dst, const Ymm& src1, const Ymm& src2) {
  execute_sha512ni(insn, dst, src1, src2);
  return dst;
}

// ---- Known answers derived by hand (FIPS 180-4 §4.1.3 functions, §6.4.2 rounds) ----
// Single-bit inputs keep every rotation computable on paper: ROTR^n(1) is bit 64 - n.
//   Σ1(1) = bit 50 ^ bit 46 ^ bit 23          = 0x0004400000800000
//   Σ0(1) = bit 36 ^ bit 30 ^ bit 25          = 0x0000001042000000
//   σ0(1) = bit 63 ^ bit 56 ^ (1 >> 7 = 0)    = 0x8100000000000000
//   σ0(0x80) = bit 6 ^ bit 63 ^ bit 0         = 0x8000000000000041
//   σ1(1) = bit 45 ^ bit 3 ^ (1 >> 6 = 0)     = 0x0000200000000008
//   σ1(σ1(1)): bit 45 -> 26, 48, 39; bit 3 -> 48, 6, (shifted out); 48 twice cancels
//                                             = 0x0000008004000040
// Registers are written {qword 0, 1, 2, 3}; VSHA512RNDS2's ymm1 = {H, G, D, C}, ymm2 = {F, E, B, A}.
constexpr std::uint64_t kSigma1Of1 = 0x0004400000800000, kSigma0Of1 = 0x0000001042000000;

struct RoundsCase {
  const char* derivation;
  Ymm cdgh, abef, wk, want;
};
const RoundsCase kRounds[] = {
    // All zero but K+W of the first round = 1. Round 1: T1 = 1, T2 = 0, so a = e = 1. Round 2 (K+W 0):
    // T1 = Σ1(1) + Ch(1, 0, 0) = Σ1(1), T2 = Σ0(1) + Maj(1, 0, 0) = Σ0(1); a = T1 + T2, b = 1, e = 0 + T1, f = 1.
    {"W+K in qword 0 feeds the first round", {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0},
     {1, kSigma1Of1, 1, kSigma1Of1 + kSigma0Of1}},
    // H = 1 (qword 0 of ymm1) enters T1 of the first round exactly like K+W: the same answer.
    {"ymm1 qword 0 is H", {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, kSigma1Of1, 1, kSigma1Of1 + kSigma0Of1}},
    // G = 1: round 1 T1 = Ch(0, 0, 1) = 1, so a = e = 1 and the new h is the old g = 1. Round 2: T1 = 1 + Σ1(1),
    // T2 = Σ0(1).
    {"ymm1 qword 1 is G", {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0},
     {1, kSigma1Of1 + 1, 1, kSigma1Of1 + kSigma0Of1 + 1}},
    // D = 1: round 1 T1 = T2 = 0, e = d + T1 = 1, a = 0. Round 2: T1 = Σ1(1), T2 = Σ0(0) + Maj(0, 0, 0) = 0;
    // a = e = Σ1(1), b = 0, f = 1.
    {"ymm1 qword 2 is D", {0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, kSigma1Of1, 0, kSigma1Of1}},
    // B = C = 1: round 1 T1 = 0, T2 = Maj(0, 1, 1) = 1: a = 1, c = d = 1, e = 0. Round 2: T1 = 0,
    // T2 = Σ0(1) + Maj(1, 0, 1) = Σ0(1) + 1: a = Σ0(1) + 1, b = 1, e = d + 0 = 1, f = 0.
    {"ymm1 qword 3 is C, ymm2 qword 2 is B", {0, 0, 0, 1}, {0, 0, 1, 0}, {0, 0, 0, 0}, {0, 1, 1, kSigma0Of1 + 1}},
    // A = 1: round 1 T1 = 0, T2 = Σ0(1): a = Σ0(1), b = 1. Round 2: T2 = Σ0(Σ0(1)) + Maj(Σ0(1), 1, 0) where
    // Σ0(bits 36, 30, 25) = bits {8, 2, 61} ^ {2, 60, 55} ^ {61, 55, 50} = bits 8, 60, 50 and Maj = 0:
    // a = 0x1004000000000100, b = Σ0(1), e = f = 0.
    {"ymm2 qword 3 is A", {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, kSigma0Of1, 0x1004000000000100}},
    // Bits 255:128 of the K+W register are not read.
    {"xmm3 qwords 2, 3 are ignored", {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, ~0ull, ~0ull},
     {1, kSigma1Of1, 1, kSigma1Of1 + kSigma0Of1}},
};

TEST(Sha512niModel, Rnds2MatchesHandDerivedAnswers) {
  for (const RoundsCase& c : kRounds) {
    SCOPED_TRACE(c.derivation);
    EXPECT_EQ(run(Insn::vsha512rnds2, c.cdgh, c.abef, c.wk), c.want);
    EXPECT_EQ(fips::rnds2(c.cdgh, c.abef, c.wk), c.want) << "the tests' own reference disagrees with the derivation";
  }
}

TEST(Sha512niModel, Msg1MatchesHandDerivedAnswers) {
  // W[0..3] = {0, 1, 0, 0}, W[4] = 0x80: {W0 + σ0(W1), W1 + σ0(W2), W2 + σ0(W3), W3 + σ0(W4)}.
  // Qword 1 of xmm2 and the rest of its YMM are not read.
  const Ymm w{0, 1, 0, 0}, w4{0x80, ~0ull, ~0ull, ~0ull};
  const Ymm want{0x8100000000000000, 1, 0, 0x8000000000000041};
  EXPECT_EQ(run(Insn::vsha512msg1, w, {}, w4), want);
  EXPECT_EQ(fips::msg1(w, w4), want);
}

TEST(Sha512niModel, Msg2MatchesHandDerivedAnswers) {
  // W[t-2] = 1 (qword 2 of ymm2): W[t] += σ1(1), and W[t+2] += σ1 of that new W[t]. Qwords 0, 1 are not read.
  const Ymm zero{}, w14{~0ull, ~0ull, 1, 0}, w15{~0ull, ~0ull, 0, 1};
  const Ymm want14{0x0000200000000008, 0, 0x0000008004000040, 0};
  const Ymm want15{0, 0x0000200000000008, 0, 0x0000008004000040};
  EXPECT_EQ(run(Insn::vsha512msg2, zero, {}, w14), want14);
  EXPECT_EQ(run(Insn::vsha512msg2, zero, {}, w15), want15);
  EXPECT_EQ(fips::msg2(zero, w14), want14);
  EXPECT_EQ(fips::msg2(zero, w15), want15);
  // The other terms in ymm1 are added in (W[t] = 5 + σ1(1)), and feed W[t+2] through the new W[t].
  const Ymm five{5, 0, 0, 0};
  EXPECT_EQ(run(Insn::vsha512msg2, five, {}, w14), fips::msg2(five, w14));
  EXPECT_EQ(run(Insn::vsha512msg2, five, {}, w14)[0], 5 + 0x0000200000000008u);
}

// Random operands: the model and the reference agree on every instruction (the reference is checked above).
TEST(Sha512niModel, RandomOperandsMatchTheReference) {
  std::mt19937_64 rng(512);
  const auto random_ymm = [&] { return Ymm{rng(), rng(), rng(), rng()}; };
  for (int i = 0; i < 2000; ++i) {
    const Ymm d = random_ymm(), s1 = random_ymm(), s2 = random_ymm();
    ASSERT_EQ(run(Insn::vsha512rnds2, d, s1, s2), fips::rnds2(d, s1, s2)) << i;
    ASSERT_EQ(run(Insn::vsha512msg1, d, s1, s2), fips::msg1(d, s2)) << i;
    ASSERT_EQ(run(Insn::vsha512msg2, d, s1, s2), fips::msg2(d, s2)) << i;
  }
}

// Whole compressions through the model's three instructions (fips::compress_by_instructions) against the FIPS
// example and the library's generic SHA-512 block function: the schedule of all 80 words and the rounds.
void compress_with_model(std::uint64_t h[8], const std::uint8_t block[128]) {
  fips::compress_by_instructions(run, h, block);
}

// FIPS 180-2 Appendix C.1: SHA-512("abc"), one padded block from the FIPS 180-4 §5.3.5 initial value.
TEST(Sha512niModel, CompressionOfAbcGivesTheFipsDigest) {
  std::uint8_t block[128] = {'a', 'b', 'c', 0x80};
  block[127] = 24;  // bit length (§5.1.2)
  std::uint64_t h[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
  compress_with_model(h, block);
  const std::uint64_t want[8] = {0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2, 0x0a9eeee64b55d39a,
                                 0x2192992a274fc1a8, 0x36ba3c23a3feebbd, 0x454d4423643ce80e, 0x2a9ac94fa54ca49f};
  EXPECT_EQ(0, std::memcmp(h, want, sizeof want));
}

TEST(Sha512niModel, CompressionsMatchTheGenericBlockFunction) {
  EXPECT_EQ(fips::first_difference_from_generic(run, 200, 180), -1);
}

// ---- Decoding ----

detail::Sha512niDecoded decode(std::vector<std::uint8_t> bytes) {
  bytes.resize(16, 0x90);  // the decoder must not need more than the instruction: padding is never reached
  return detail::decode_sha512ni(bytes.data());
}

// Encodings produced by the GNU assembler's own test suite (binutils gas/testsuite/gas/i386/x86-64-sha512.d) and
// Intel's example in the issue: registers 8-15 in every position.
TEST(Sha512niDecode, AssemblerEncodings) {
  struct Case {
    std::vector<std::uint8_t> bytes;
    Insn insn;
    unsigned reg, vvvv, rm;
  };
  const Case cases[] = {
      {{0xc4, 0xe2, 0x77, 0xcb, 0xd0}, Insn::vsha512rnds2, 2, 1, 0},   // vsha512rnds2 %xmm0, %ymm1, %ymm2
      {{0xc4, 0x62, 0x57, 0xcb, 0xf4}, Insn::vsha512rnds2, 14, 5, 4},  // vsha512rnds2 %xmm4, %ymm5, %ymm14
      {{0xc4, 0xe2, 0x7f, 0xcc, 0xc8}, Insn::vsha512msg1, 1, 0, 0},    // vsha512msg1 %xmm0, %ymm1
      {{0xc4, 0xc2, 0x7f, 0xcc, 0xf7}, Insn::vsha512msg1, 6, 0, 15},   // vsha512msg1 %xmm15, %ymm6
      {{0xc4, 0x62, 0x7f, 0xcd, 0xfd}, Insn::vsha512msg2, 15, 0, 5},   // vsha512msg2 %ymm5, %ymm15
  };
  for (const Case& c : cases) {
    const auto d = decode(c.bytes);
    ASSERT_EQ(d.status, detail::VexDecode::ok) << insn_name(c.insn);
    EXPECT_EQ(d.insn, c.insn);
    EXPECT_EQ(d.length, 5u);
    EXPECT_EQ(d.reg, c.reg) << insn_name(c.insn);
    EXPECT_EQ(d.rm, c.rm) << insn_name(c.insn);
    if (c.insn == Insn::vsha512rnds2) {
      EXPECT_EQ(d.vvvv, c.vvvv);
    }
  }
}

// Segment overrides and the address-size prefix may precede VEX and change nothing for register operands: the
// instruction runs and is longer by one byte each (SDM Vol. 2A §2.1.1).
TEST(Sha512niDecode, IgnoredPrefixesLengthenTheInstruction) {
  const auto d = decode({0x3e, 0x67, 0x2e, 0xc4, 0xe2, 0x77, 0xcb, 0xd0});
  ASSERT_EQ(d.status, detail::VexDecode::ok);
  EXPECT_EQ(d.length, 8u);
  EXPECT_EQ(d.reg, 2u);
}

// Every rule under which hardware raises #UD for these opcodes, each decoded as "invalid" with the rule named.
TEST(Sha512niDecode, UndefinedFormsAreRefusedWithTheRule) {
  const std::pair<std::vector<std::uint8_t>, const char*> cases[] = {
      {{0x66, 0xc4, 0xe2, 0x77, 0xcb, 0xd0}, "prefix before VEX"},
      {{0xf3, 0xc4, 0xe2, 0x77, 0xcb, 0xd0}, "prefix before VEX"},
      {{0xf0, 0xc4, 0xe2, 0x77, 0xcb, 0xd0}, "prefix before VEX"},
      {{0x41, 0xc4, 0xe2, 0x77, 0xcb, 0xd0}, "prefix before VEX"},        // REX.B
      {{0xc4, 0xe2, 0xf7, 0xcb, 0xd0}, "VEX.W1"},
      {{0xc4, 0xe2, 0x73, 0xcb, 0xd0}, "VEX.L0"},
      {{0xc4, 0xe2, 0x7b, 0xcc, 0xc8}, "VEX.L0"},
      {{0xc4, 0xe2, 0x77, 0xcb, 0x10}, "memory operand"},                 // (%rax)
      {{0xc4, 0xe2, 0x7f, 0xcc, 0x4c, 0x24, 0x08}, "memory operand"},     // 8(%rsp): SIB and disp8
      {{0xc4, 0xe2, 0x7f, 0xcd, 0x8c, 0x88, 0, 1, 0, 0}, "memory operand"},  // 256(%rax,%rcx,4): SIB, disp32
      {{0xc4, 0xe2, 0x7f, 0xcd, 0x0d, 0x10, 0, 0, 0}, "memory operand"},  // 16(%rip)
      {{0xc4, 0xe2, 0x77, 0xcc, 0xc8}, "VEX.vvvv is not 1111b"},
      {{0xc4, 0xe2, 0x07, 0xcd, 0xc8}, "VEX.vvvv is not 1111b"},
  };
  for (const auto& [bytes, rule] : cases) {
    const auto d = decode(bytes);
    EXPECT_EQ(d.status, detail::VexDecode::invalid) << rule;
    ASSERT_NE(d.reason, nullptr) << rule;
    EXPECT_NE(std::string(d.reason).find(rule), std::string::npos) << d.reason;
  }
}

// Neighbouring encodings belong to other instructions (or to nobody): not ours, whatever their fate.
TEST(Sha512niDecode, OtherInstructionsAreNotOurs) {
  const std::vector<std::uint8_t> cases[] = {
      {0x0f, 0x0b},                          // ud2
      {0xf3, 0x0f, 0xa6, 0xd0},              // PadLock rep xsha256
      {0xc5, 0xfd, 0x6f, 0xc1},              // vmovdqa %ymm1, %ymm0 (2-byte VEX)
      {0xc4, 0xe2, 0x76, 0xcb, 0xd0},        // pp = F3
      {0xc4, 0xe2, 0x75, 0xcb, 0xd0},        // pp = 66
      {0xc4, 0xe3, 0x77, 0xcb, 0xd0, 0x00},  // map 0F3A
      {0xc4, 0xe2, 0x77, 0xca, 0xd0},        // opcode CA
      {0xc4, 0xe2, 0x7f, 0xce, 0xc8},        // opcode CE
  };
  for (const auto& bytes : cases) EXPECT_EQ(decode(bytes).status, detail::VexDecode::not_ours);
}

}  // namespace
}  // namespace shakedown::emul::test
