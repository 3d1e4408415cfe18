// The Intel SHA512 model through the SIGILL handler: real instructions on every register position, the YMM state
// in the signal frame (upper halves, VZEROUPPER, ZMM upper bits), prefixes, refused encodings, whole compressions.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <utility>

#include "openssl_ref.h"
#include "sha512ni_caller.h"
#include "sha512ni_reference.h"
#include "shakedown/backend.h"
#include "shakedown/cpu.h"

namespace shakedown::emul::test {
namespace {

using fips::Ymm;

Options sha512ni_options() {
  Options o;
  o.model = Model::sha512ni;
  return o;
}

// Without OS-enabled YMM state (qemu-x86_64 -cpu max,-xsave) the callers' own VMOVDQU would raise #UD; there the
// death test RefusedWithoutYmmState is what runs.
bool have_ymm_state() { return cpu_features().has(CpuFeature::x86_os_ymm); }

class Sha512niTrap : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_ymm_state()) GTEST_SKIP() << "no OS-enabled YMM state here: VEX instructions raise #UD";
    install(sha512ni_options());
  }
  void TearDown() override { uninstall(); }
};

YmmFile random_file(std::mt19937_64& rng) {
  YmmFile f;
  for (auto& r : f.r)
    for (auto& q : r) q = rng();
  return f;
}

// What the instruction must leave: the destination replaced by the reference result, every other register as it
// was (the instructions write nothing else).
template <Insn K>
YmmFile expected(const YmmFile& in, int d, int s1, int s2) {
  YmmFile out = in;
  if (K == Insn::vsha512rnds2) out.r[d] = fips::rnds2(in.r[d], in.r[s1], in.r[s2]);
  else if (K == Insn::vsha512msg1) out.r[d] = fips::msg1(in.r[d], in.r[s2]);
  else out.r[d] = fips::msg2(in.r[d], in.r[s2]);
  return out;
}

template <Insn K, int D, int S1, int S2>
void check_one(std::mt19937_64& rng) {
  const YmmFile in = random_file(rng);
  YmmFile out;
  const std::uint64_t before = emulated(K);
  run_on_file<K, D, S1, S2>(in, out);
  const YmmFile want = expected<K>(in, D, S1, S2);
  for (int r = 0; r < 16; ++r)
    EXPECT_EQ(out.r[r], want.r[r]) << insn_name(K) << " dst ymm" << D << " src1 ymm" << S1 << " src2 " << S2
                                   << ": register ymm" << r;
  EXPECT_EQ(emulated(K), before + 1);
}

// Each register 0-15 in each operand position (the others elsewhere), then the aliased forms.
template <Insn K, int... N>
void every_position(std::mt19937_64& rng, std::integer_sequence<int, N...>) {
  (check_one<K, N, (N + 1) % 16, (N + 2) % 16>(rng), ...);
  (check_one<K, (N + 11) % 16, (N + 3) % 16, N>(rng), ...);
  if constexpr (K == Insn::vsha512rnds2) (check_one<K, (N + 3) % 16, N, (N + 5) % 16>(rng), ...);
}

TEST_F(Sha512niTrap, EveryRegisterInEveryPositionAndNothingElseChanges) {
  std::mt19937_64 rng(2024);
  every_position<Insn::vsha512rnds2>(rng, std::make_integer_sequence<int, 16>{});
  every_position<Insn::vsha512msg1>(rng, std::make_integer_sequence<int, 16>{});
  every_position<Insn::vsha512msg2>(rng, std::make_integer_sequence<int, 16>{});
}

TEST_F(Sha512niTrap, AliasedOperandsReadTheOldValues) {
  std::mt19937_64 rng(7);
  check_one<Insn::vsha512rnds2, 3, 3, 3>(rng);
  check_one<Insn::vsha512rnds2, 4, 4, 9>(rng);
  check_one<Insn::vsha512rnds2, 5, 9, 5>(rng);
  check_one<Insn::vsha512rnds2, 12, 6, 6>(rng);
  check_one<Insn::vsha512msg1, 13, 0, 13>(rng);
  check_one<Insn::vsha512msg2, 14, 0, 14>(rng);
}

// Defines Ymm name(w4): vsha512msg1 %xmm0, %ymm1 with ymm1 = 0 and W[t-12] = w4 in xmm0, right after `prelude`
// (asm text); returns what ymm1 holds afterwards.
#define SHAKEDOWN_TEST_DEFINE_MSG1_AFTER(name, prelude)                                                      \
  Ymm name(std::uint64_t w4) {                                                                               \
    alignas(32) std::uint64_t r[4];                                                                          \
    __asm__ volatile("vpxor %%xmm1, %%xmm1, %%xmm1\n"                                                        \
                     "vmovq %[w4], %%xmm0\n" prelude SHAKEDOWN_SHA512NI_ASM("shakedown_vsha512msg1 %%xmm0, %%ymm1") \
                     "vmovdqu %%ymm1, %[r]\n"                                                                \
                     "vzeroupper\n"                                                                          \
                     : [r] "=m"(r)                                                                           \
                     : [w4] "r"(w4)                                                                          \
                     : "xmm0", "xmm1");                                                                      \
    return Ymm{r[0], r[1], r[2], r[3]};                                                                      \
  }
SHAKEDOWN_TEST_DEFINE_MSG1_AFTER(msg1_after_vzeroupper, "vzeroupper\n")
SHAKEDOWN_TEST_DEFINE_MSG1_AFTER(msg1_after_ignored_prefixes, ".byte 0x3e, 0x67, 0x2e\n")

// After VZEROUPPER the kernel's XSAVE marks the AVX component as initial (XSTATE_BV bit 2 clear) and sigreturn
// would drop a write to the upper halves unless the model sets that bit (measured natively; QEMU always restores).
// Here only qword 0 of xmm0 and the low halves survive VZEROUPPER, and MSG1 puts W3 + σ0(W4) = σ0(0x80) into
// qword 3 of ymm1.
TEST_F(Sha512niTrap, UpperHalfWrittenAfterVzeroupperIsKept) {
  const std::uint64_t w4 = 0x80;
  const Ymm want = fips::msg1(Ymm{0, 0, 0, 0}, Ymm{w4, 0, 0, 0});
  ASSERT_NE(want[3], 0u);
  EXPECT_EQ(msg1_after_vzeroupper(w4), want);
}

// A VEX.256 instruction zeroes bits 511:256 of its destination's ZMM and leaves every other ZMM alone (SDM Vol. 2C
// Operation: DEST[MAXVL-1:256] := 0). Only where the OS saves ZMM state (AVX-512: this host, not QEMU 7.2).
TEST_F(Sha512niTrap, ZmmUpperBitsOfTheDestinationAreZeroed) {
  if (!cpu_features().has(CpuFeature::x86_avx512f) || !cpu_features().has(CpuFeature::x86_os_zmm))
    GTEST_SKIP() << "no AVX-512 state here";
  alignas(64) std::uint64_t dst[8], other[8];
  __asm__ volatile("vpternlogd $0xff, %%zmm1, %%zmm1, %%zmm1\n"  // all ones
                   "vpternlogd $0xff, %%zmm2, %%zmm2, %%zmm2\n"
                   "vpxor %%xmm0, %%xmm0, %%xmm0\n" SHAKEDOWN_SHA512NI_ASM("shakedown_vsha512msg1 %%xmm0, %%ymm1")
                   "vmovdqu64 %%zmm1, %[dst]\n"
                   "vmovdqu64 %%zmm2, %[other]\n"
                   "vzeroupper\n"
                   : [dst] "=m"(dst), [other] "=m"(other)
                   :
                   : "xmm0", "xmm1", "xmm2");
  const Ymm want = fips::msg1(Ymm{~0ull, ~0ull, ~0ull, ~0ull}, Ymm{});
  EXPECT_EQ(Ymm({dst[0], dst[1], dst[2], dst[3]}), want);
  for (int q = 4; q < 8; ++q) EXPECT_EQ(dst[q], 0u) << "zmm1 qword " << q;
  for (int q = 0; q < 8; ++q) EXPECT_EQ(other[q], ~0ull) << "zmm2 qword " << q;
}

// Segment and address-size prefixes before VEX are executed through: the resume address counts them (a wrong
// length would resume inside the instruction and crash or compute garbage).
TEST_F(Sha512niTrap, PrefixedInstructionResumesAfterItsLastByte) {
  EXPECT_EQ(msg1_after_ignored_prefixes(1), fips::msg1(Ymm{}, Ymm{1, 0, 0, 0}));
}

// SHA-512 compressions with every instruction trapped into the model: the FIPS "abc" example, and random
// states and blocks against the library's generic block function.
Ymm trapped(Insn insn, const Ymm& dst, const Ymm& src1, const Ymm& src2) {
  YmmFile in{}, out{};
  in.r[1] = dst;
  in.r[2] = src1;
  in.r[0] = src2;
  if (insn == Insn::vsha512rnds2) run_on_file<Insn::vsha512rnds2, 1, 2, 0>(in, out);
  else if (insn == Insn::vsha512msg1) run_on_file<Insn::vsha512msg1, 1, 2, 0>(in, out);
  else run_on_file<Insn::vsha512msg2, 1, 2, 0>(in, out);
  return out.r[1];
}

TEST_F(Sha512niTrap, WholeCompressionsMatchOpenSslAndTheGenericBlockFunction) {
  std::uint8_t abc[128] = {'a', 'b', 'c', 0x80};
  abc[127] = 24;  // FIPS 180-4 §5.1.2 padding of the 3-byte message
  std::uint64_t h[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
  fips::compress_by_instructions(trapped, h, abc);
  std::uint8_t digest[64];
  for (int i = 0; i < 64; ++i) digest[i] = static_cast<std::uint8_t>(h[i / 8] >> (56 - 8 * (i % 8)));
  const std::uint8_t message[3] = {'a', 'b', 'c'};
  EXPECT_EQ(to_hex(digest), to_hex(openssl("SHA512", message)));

  EXPECT_EQ(fips::first_difference_from_generic(trapped, 20, 64), -1);
}

// ---- What hardware refuses stays illegal: SIGILL, with a line naming the rule ----

TEST(Sha512niTrapDeath, UndefinedEncodingsStillRaiseSigill) {
  if (!have_ymm_state()) GTEST_SKIP() << "no OS-enabled YMM state here";
  EXPECT_EXIT(
      {
        install(sha512ni_options());
        __asm__ volatile(".byte 0xc4, 0xe2, 0x73, 0xcb, 0xd0");  // VEX.L0
      },
      ::testing::KilledBySignal(SIGILL), "vsha512rnds2 at 0x[0-9a-f]+: invalid encoding \\(VEX.L0");
  EXPECT_EXIT(
      {
        install(sha512ni_options());
        __asm__ volatile(".byte 0xc4, 0xe2, 0x7f, 0xcd, 0x0d, 0, 0, 0, 0");  // vsha512msg2 0(%rip), %ymm1
      },
      ::testing::KilledBySignal(SIGILL), "vsha512msg2 at 0x[0-9a-f]+: invalid encoding \\(memory operand");
  EXPECT_EXIT(
      {
        install(sha512ni_options());
        __asm__ volatile(".byte 0x66, 0xc4, 0xe2, 0x7f, 0xcc, 0xc8");  // 66 before VEX
      },
      ::testing::KilledBySignal(SIGILL), "vsha512msg1 at 0x[0-9a-f]+: invalid encoding \\(a 66");
  // Not ours at all: chained untouched.
  EXPECT_EXIT(
      {
        install(sha512ni_options());
        __asm__ volatile(".byte 0xc4, 0xe2, 0x76, 0xcb, 0xd0");  // pp = F3: no such instruction
      },
      ::testing::KilledBySignal(SIGILL), "");
}

// Where the OS enabled no YMM state (qemu-x86_64 -cpu max,-xsave: no XSAVE area in the frame) the instruction
// is #UD on hardware too: SIGILL with the reason, never a guess at registers the frame does not hold.
TEST(Sha512niTrapDeath, RefusedWithoutYmmState) {
  if (have_ymm_state()) GTEST_SKIP() << "this CPU has OS-enabled YMM state (run under qemu-x86_64 -cpu max,-xsave)";
  EXPECT_EXIT(
      {
        install(sha512ni_options());
        __asm__ volatile(".byte 0xc4, 0xe2, 0x7f, 0xcc, 0xc8");  // vsha512msg1 %xmm0, %ymm1
      },
      ::testing::KilledBySignal(SIGILL), "vsha512msg1 at 0x[0-9a-f]+: no usable YMM state");
}

}  // namespace
}  // namespace shakedown::emul::test
