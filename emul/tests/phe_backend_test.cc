// The emulated x86-64 backends through the public API, against OpenSSL: x86_64/phe and x86_64/phe2 on the
// PadLock model, x86_64/sha512ni on the Intel SHA512 model. (The vector and differential suites run them
// too: the emul.* environments of ci/matrix/x86_64.txt.)
#include <gtest/gtest.h>

#include "oracle.h"
#include "phe_caller.h"
#include "phe_fixture.h"
#include "shakedown/shakedown.h"
#include "shakedown/testing.h"

#if SHAKEDOWN_EMUL_EXPECT_PHE_BACKENDS
namespace shakedown::emul::test {
namespace {

struct AlgCase {
  Algorithm alg;
  const char* backend;
  const char* evp;
  Insn insn;
};
const AlgCase kCases[] = {
    {Algorithm::sha224, "x86_64/phe", "SHA224", Insn::xsha256},
    {Algorithm::sha256, "x86_64/phe", "SHA256", Insn::xsha256},
    {Algorithm::sha384, "x86_64/phe2", "SHA384", Insn::xsha512},
    {Algorithm::sha512, "x86_64/phe2", "SHA512", Insn::xsha512},
    {Algorithm::sha512_224, "x86_64/phe2", "SHA512-224", Insn::xsha512},
    {Algorithm::sha512_256, "x86_64/phe2", "SHA512-256", Insn::xsha512},
};

class PheBackend : public EmulatedTest {
 protected:
  void SetUp() override {
    EmulatedTest::SetUp();  // the emulator first: assuming PHE self-tests the backend on the instruction
    shakedown::testing::assume_features("zhaoxin-phe");
  }
  void TearDown() override {
    shakedown::testing::clear_assumed_features();
    EmulatedTest::TearDown();
  }
};

TEST_P(PheBackend, OneShotAndIncrementalMatchOpenSsl) {
  for (const AlgCase& c : kCases) {
    SCOPED_TRACE(c.backend + std::string(" ") + c.evp);
    const std::uint64_t before = emulated(c.insn);
    for (std::size_t len : {0, 1, 55, 56, 64, 111, 112, 128, 129, 255, 256, 1000, 4097}) {
      const auto msg = message(len, static_cast<std::uint32_t>(len));
      const auto want = to_hex(openssl_evp(c.evp, msg));
      Hasher h(c.alg, c.backend);  // throws if the backend is unknown or unavailable: a failure, not a skip
      ASSERT_EQ(h.backend_name(), c.backend);
      h.update(msg);
      EXPECT_EQ(to_hex(h.final()), want) << len;
      Hasher inc(c.alg, c.backend);  // odd split: partial buffers on both sides of a block run
      const std::size_t cut = len / 3;
      inc.update(msg.data(), cut).update(msg.data() + cut, len - cut);
      EXPECT_EQ(to_hex(inc.final()), want) << len;
    }
    EXPECT_GT(emulated(c.insn), before) << "the backend never executed the PadLock instruction";
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, PheBackend,
                         ::testing::Values(make_options(PheProfile::zhaoxin, true),
                                           make_options(PheProfile::zhaoxin, true, 1),
                                           make_options(PheProfile::zhaoxin, false, 2)),
                         options_name);

}  // namespace
}  // namespace shakedown::emul::test
#endif

#if SHAKEDOWN_EMUL_EXPECT_SHA512NI_BACKEND
namespace shakedown::emul::test {
namespace {

// The emulator first: assuming the feature self-tests the backend on the instruction. No AVX or YMM state is
// assumed: they must be real (a host without them has nothing to emulate on).
class Sha512niBackend : public ::testing::Test {
 protected:
  void SetUp() override {
    Options o;
    o.model = Model::sha512ni;
    install(o);
    shakedown::testing::assume_features("sha512");
  }
  void TearDown() override {
    shakedown::testing::clear_assumed_features();
    uninstall();
  }
};

TEST_F(Sha512niBackend, SelectedAndMatchesOpenSslForEverySha512Algorithm) {
  ASSERT_EQ(selected_backend(Family::sha512), "x86_64/sha512ni") << "the first SHA-512 backend when available";
  const std::pair<Algorithm, const char*> algs[] = {{Algorithm::sha384, "SHA384"},
                                                    {Algorithm::sha512, "SHA512"},
                                                    {Algorithm::sha512_224, "SHA512-224"},
                                                    {Algorithm::sha512_256, "SHA512-256"}};
  const std::uint64_t before = emulated(Insn::vsha512rnds2);
  for (const auto& [alg, evp] : algs) {
    for (std::size_t len : {0, 1, 111, 112, 128, 129, 255, 256, 1000, 4097}) {
      SCOPED_TRACE(std::string(evp) + " length " + std::to_string(len));
      const auto msg = message(len, static_cast<std::uint32_t>(len) + 3);
      const auto want = to_hex(openssl_evp(evp, msg));
      Hasher h(alg, "x86_64/sha512ni");  // throws if unknown or unavailable: a failure, not a skip
      h.update(msg);
      EXPECT_EQ(to_hex(h.final()), want);
      Hasher split(alg, "x86_64/sha512ni");
      const std::size_t cut = len / 3;
      split.update(msg.data(), cut).update(msg.data() + cut, len - cut);
      EXPECT_EQ(to_hex(split.final()), want);
    }
  }
  // 40 rounds instructions per block: far more than the one-block self-test at selection.
  EXPECT_GT(emulated(Insn::vsha512rnds2) - before, 1000u) << "the backend never executed VSHA512RNDS2";
}

// The predicate needs the SHA512 CPUID bit and VEX.256 state: AVX with OS-enabled YMM state, plus AVX2 for the code
// around the instructions. Each missing piece alone makes it unavailable (docs/intel-sha512.md). The emulated runs
// cover "all present" and qemu-x86_64 -cpu max,-xsave the missing YMM state; this covers the rest.
TEST(X86Sha512ni, PredicateNeedsSha512AvxAvx2AndYmmState) {
  const auto available = backend<Family::sha512>("x86_64/sha512ni", false).info.available;
  const CpuFeature all[] = {CpuFeature::x86_sha512, CpuFeature::x86_avx, CpuFeature::x86_avx2, CpuFeature::x86_os_ymm};
  CpuFeatures full;
  for (CpuFeature f : all) full.set(f);
  EXPECT_TRUE(available(full));
  for (CpuFeature missing : all) {
    CpuFeatures f = full;
    f.set(missing, false);
    EXPECT_FALSE(available(f)) << "available without " << feature_name(missing);
  }
}

}  // namespace
}  // namespace shakedown::emul::test
#endif
