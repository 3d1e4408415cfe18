// The real vector-crypto instructions through the SIGILL handler at this run's VLEN (qemu -cpu vlen=...):
// the shared backend loop against the reference and NIST, exact trap counts, reserved encodings dying with
// SIGILL as on hardware, the two regression proofs, and the live-register path leaving other registers alone.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstring>
#include <random>

#include "emul/emul.h"
#include "internal/sha2_constants.h"
#include "sha_reference.h"
#include "zvk_insn.h"
#include "zvk_sha2.h"

namespace shakedown::emul::test {
namespace {

using internal::rvv::vtype;

std::size_t vlenb() {
  unsigned long v;
  __asm__ volatile("csrr %0, 0xc22" : "=r"(v));
  return v;
}

Options zvk(ZvkProfile profile = ZvkProfile::zvknhb, bool tail_ones = true) {
  Options o;
  o.model = Model::zvk;
  o.zvk_profile = profile;
  o.tail_ones = tail_ones;
  return o;
}

class ZvkTrap : public ::testing::Test {
 protected:
  void SetUp() override {
    install(zvk());
    reset_counters();
  }
  void TearDown() override { uninstall(); }
};

constexpr std::uint32_t kIv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
constexpr std::uint32_t kAbc256[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                      0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};  // FIPS 180-2 B.1
constexpr std::uint64_t kIv512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                     0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                     0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr std::uint64_t kAbc512[8] = {0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2,
                                      0x0a9eeee64b55d39a, 0x2192992a274fc1a8, 0x36ba3c23a3feebbd,
                                      0x454d4423643ce80e, 0x2a9ac94fa54ca49f};  // FIPS 180-2 C.1

// The SHA-512 LMUL a correct caller picks at this VLEN (EGW = 256 bits).
unsigned sha512_lmul() { return vlenb() >= 32 ? 1 : 2; }

TEST_F(ZvkTrap, Sha256LoopMatchesNistAndReferenceWithExactTrapCounts) {
  std::uint32_t h[8];
  std::memcpy(h, kIv256, sizeof h);
  std::uint8_t abc[64] = {'a', 'b', 'c', 0x80};
  abc[63] = 24;
  internal::zvk_sha2_blocks(h, abc, 1, internal::kSha256K, 64, vtype(32, 1));
  EXPECT_EQ(0, std::memcmp(h, kAbc256, sizeof h));
  // Per block: 4 vrev8, 16 vsha2cl, 16 vsha2ch, 12 vsha2ms (48 traps).
  EXPECT_EQ(emulated(Insn::vrev8), 4u);
  EXPECT_EQ(emulated(Insn::vsha2cl), 16u);
  EXPECT_EQ(emulated(Insn::vsha2ch), 16u);
  EXPECT_EQ(emulated(Insn::vsha2ms), 12u);
  std::mt19937 rng(11);
  std::uint8_t blocks[3 * 64];
  for (auto& b : blocks) b = static_cast<std::uint8_t>(rng());
  std::uint32_t want[8];
  std::memcpy(want, h, sizeof h);
  for (int i = 0; i < 3; ++i) detail::sha256_compress(want, blocks + 64 * i);
  internal::zvk_sha2_blocks(h, blocks, 3, internal::kSha256K, 64, vtype(32, 1));
  EXPECT_EQ(0, std::memcmp(h, want, sizeof h));
  EXPECT_EQ(counters().traps, 4u * 48);
  EXPECT_EQ(counters().chained, 0u);
}

TEST_F(ZvkTrap, Sha512LoopMatchesNistAndReferenceAtThisVlen) {
  std::uint64_t h[8];
  std::memcpy(h, kIv512, sizeof h);
  std::uint8_t abc[128] = {'a', 'b', 'c', 0x80};
  abc[127] = 24;
  internal::zvk_sha2_blocks(h, abc, 1, internal::kSha512K, 80, vtype(64, sha512_lmul()));
  EXPECT_EQ(0, std::memcmp(h, kAbc512, sizeof h)) << "VLEN " << 8 * vlenb() << " LMUL " << sha512_lmul();
  std::mt19937 rng(12);
  std::uint8_t blocks[2 * 128];
  for (auto& b : blocks) b = static_cast<std::uint8_t>(rng());
  std::uint64_t want[8];
  std::memcpy(want, h, sizeof h);
  for (int i = 0; i < 2; ++i) detail::sha512_compress(want, blocks + 128 * i);
  internal::zvk_sha2_blocks(h, blocks, 2, internal::kSha512K, 80, vtype(64, sha512_lmul()));
  EXPECT_EQ(0, std::memcmp(h, want, sizeof h));
  // Per block: 4 vrev8, 20 vsha2cl, 20 vsha2ch, 16 vsha2ms (60 traps).
  EXPECT_EQ(counters().traps, 3u * 60);
  EXPECT_EQ(emulated(Insn::vsha2ms), 3u * 16);
}

// Regression proof 1: SHA-512 written for VLEN >= 256 (e64, LMUL = 1) is illegal at VLEN = 128 exactly as on
// hardware (LMUL * VLEN < EGW) and correct from VLEN = 256 on.
TEST(ZvkRegression, Sha512WithLmul1DiesAtVlen128Only) {
  const auto lmul1_sha512 = [] {
    install(zvk());
    std::uint64_t h[8];
    std::memcpy(h, kIv512, sizeof h);
    std::uint8_t abc[128] = {'a', 'b', 'c', 0x80};
    abc[127] = 24;
    internal::zvk_sha2_blocks(h, abc, 1, internal::kSha512K, 80, vtype(64, 1));
    const bool right = std::memcmp(h, kAbc512, sizeof h) == 0;
    uninstall();
    return right;
  };
  if (vlenb() == 16) {
    EXPECT_EXIT(lmul1_sha512(), ::testing::KilledBySignal(SIGILL),
                "vsha2cl at 0x[0-9a-f]+: reserved encoding \\(LMUL \\* VLEN is smaller than EGW");
  } else {
    EXPECT_TRUE(lmul1_sha512()) << "VLEN " << 8 * vlenb();
  }
}

// A caller that relies on tail elements under ta: it clears eight e32 elements, runs vsha2ms with vl = 4, then
// reads all eight and expects elements 4..7 still zero. Correct only while tails happen to be kept.
void tail_reliant_schedule(std::uint32_t out[8]) {
  __asm__ volatile(
      SHAKEDOWN_ZVK_BEGIN
      "vsetivli zero, 8, e32, m2, ta, ma\n"
      "vmv.v.i v8, 0\n vmv.v.i v12, 1\n vmv.v.i v16, 2\n"
      "vsetivli zero, 4, e32, m2, ta, ma\n"
      "zvk_vsha2ms 8, 12, 16\n"
      "vsetivli zero, 8, e32, m2, ta, ma\n"
      "vse32.v v8, (%0)\n"
      SHAKEDOWN_ZVK_END
      :
      : "r"(out)
      : "memory");
}

// Regression proof 2: tail-agnostic ones catch it; with tails kept it "works".
TEST(ZvkRegression, TailRelianceIsCaughtByTailOnes) {
  for (bool tail_ones : {false, true}) {
    install(zvk(ZvkProfile::zvknhb, tail_ones));
    std::uint32_t out[8];
    tail_reliant_schedule(out);
    uninstall();
    bool tail_zero = true;
    for (int k = 4; k < 8; ++k) tail_zero = tail_zero && out[k] == 0;
    EXPECT_NE(out[0], 0u);
    EXPECT_EQ(tail_zero, !tail_ones) << (tail_ones ? "tail-ones must break the caller" : "tails kept");
    if (tail_ones) {
      EXPECT_EQ(out[4], 0xffffffffu);
    }
  }
}

// Reserved encodings reach the hardware's verdict: SIGILL (the handler chains to SIG_DFL).
void run_reserved(int which) {
  install(zvk(which == 3 ? ZvkProfile::zvknha : ZvkProfile::zvknhb));
  __asm__ volatile(
      SHAKEDOWN_ZVK_BEGIN
      "li t0, 0\n beq %0, t0, 10f\n li t0, 1\n beq %0, t0, 11f\n li t0, 2\n beq %0, t0, 12f\n"
      "li t0, 3\n beq %0, t0, 13f\n li t0, 4\n beq %0, t0, 14f\n li t0, 5\n beq %0, t0, 15f\n"
      "j 19f\n"
      "10:\n vsetivli zero, 4, e32, m1, ta, ma\n zvk_word_opp 0x2e, 8, 12, 16\n .4byte zvk_word & ~(1 << 25)\n j 19f\n"
      "11:\n vsetivli zero, 2, e32, m1, ta, ma\n zvk_vsha2ms 8, 12, 16\n j 19f\n"
      "12:\n vsetivli zero, 4, e16, m1, ta, ma\n zvk_vsha2ch 8, 12, 16\n j 19f\n"
      "13:\n vsetivli zero, 4, e64, m2, ta, ma\n zvk_vsha2cl 8, 12, 16\n j 19f\n"
      "14:\n vsetivli zero, 4, e64, m2, ta, ma\n zvk_vsha2ms 9, 12, 16\n j 19f\n"
      "15:\n vsetivli zero, 4, e32, m1, ta, ma\n zvk_vsha2ms 8, 12, 8\n j 19f\n"
      "19:\n"
      SHAKEDOWN_ZVK_END
      :
      : "r"(which)
      : "t0", "memory");
  uninstall();
}

TEST(ZvkReserved, IllegalEncodingsDieWithSigill) {
  const struct {
    int which;
    const char* reason;
  } cases[] = {
      {0, "masked encoding"},           {1, "vl is not a multiple of 4"},
      {2, "SEW is neither 32 nor 64"},  {3, "SEW = 64 needs Zvknhb"},
      {4, "register group not aligned"}, {5, "vd overlaps vs1 or vs2"},
  };
  for (const auto& c : cases) {
    EXPECT_EXIT(run_reserved(c.which), ::testing::KilledBySignal(SIGILL), c.reason) << c.reason;
  }
  // Control: the same path with no reserved case runs to the end.
  run_reserved(-1);
}

// The live path copies all 32 registers out and back: registers the instruction does not write survive.
TEST_F(ZvkTrap, OtherVectorRegistersSurviveTheHandler) {
  const std::size_t n = 32 * vlenb();
  std::vector<std::uint8_t> before(n), after(n);
  std::mt19937 rng(5);
  for (auto& b : before) b = static_cast<std::uint8_t>(rng());
  __asm__ volatile(
      SHAKEDOWN_ZVK_BEGIN
      "vl8re8.v v0, (%0)\n vl8re8.v v8, (%1)\n vl8re8.v v16, (%2)\n vl8re8.v v24, (%3)\n"
      "vsetivli zero, 4, e32, m1, tu, mu\n"
      "zvk_vsha2ms 8, 12, 16\n"
      "zvk_vrev8 20, 20\n"
      "vs8r.v v0, (%4)\n vs8r.v v8, (%5)\n vs8r.v v16, (%6)\n vs8r.v v24, (%7)\n"
      SHAKEDOWN_ZVK_END
      :
      : "r"(before.data()), "r"(before.data() + 8 * vlenb()), "r"(before.data() + 16 * vlenb()),
        "r"(before.data() + 24 * vlenb()), "r"(after.data()), "r"(after.data() + 8 * vlenb()),
        "r"(after.data() + 16 * vlenb()), "r"(after.data() + 24 * vlenb())
      : "memory");
  for (unsigned reg = 0; reg < 32; ++reg) {
    const bool written = reg == 8 || reg == 20;
    const auto* b = before.data() + reg * vlenb();
    const auto* a = after.data() + reg * vlenb();
    if (!written) {
      EXPECT_EQ(0, std::memcmp(a, b, vlenb())) << "v" << reg << " changed";
    } else {
      EXPECT_NE(0, std::memcmp(a, b, 16)) << "v" << reg << " not written";
      EXPECT_EQ(0, std::memcmp(a + 16, b + 16, vlenb() - 16)) << "v" << reg << " tail (tu) changed";
    }
  }
  EXPECT_EQ(emulated(Insn::vsha2ms), 1u);
  EXPECT_EQ(emulated(Insn::vrev8), 1u);
}

// vror.vi / vror.vx / vandn.vv through the trap: the .vx path reads the interrupted code's integer register.
TEST_F(ZvkTrap, ZvkbImmediateAndScalarFormsReadTheirOperands) {
  std::uint64_t in[2] = {0x0123456789abcdefull, 0xfedcba9876543210ull}, out[3][2];
  register std::uint64_t amount __asm__("a5") = 12;  // x15
  __asm__ volatile(
      SHAKEDOWN_ZVK_BEGIN
      "vsetivli zero, 2, e64, m1, ta, ma\n"
      "vle64.v v4, (%[in])\n"
      "zvk_vror_vi 8, 4, 40\n"
      "zvk_vror_vx 12, 4, 15\n"
      "zvk_vandn_vv 16, 4, 8\n"
      "vse64.v v8, (%[o0])\n vse64.v v12, (%[o1])\n vse64.v v16, (%[o2])\n"
      SHAKEDOWN_ZVK_END
      :
      : [in] "r"(in), [o0] "r"(out[0]), [o1] "r"(out[1]), [o2] "r"(out[2]), "r"(amount)
      : "memory");
  for (int k = 0; k < 2; ++k) {
    const std::uint64_t x = in[k];
    EXPECT_EQ(out[0][k], (x >> 40) | (x << 24));
    EXPECT_EQ(out[1][k], (x >> 12) | (x << 52));
    EXPECT_EQ(out[2][k], x & ~((x >> 40) | (x << 24)));
  }
  EXPECT_EQ(emulated(Insn::vror), 2u);
  EXPECT_EQ(emulated(Insn::vandn), 1u);
}

}  // namespace
}  // namespace shakedown::emul::test
