// The s390x/cpacf backends through the public API with the emulator installed: one-shot (KLMD) and split
// updates (KIMD) against OpenSSL, with and without MSA12 (NIP) and CC3 interruption; counters prove emulation.
#include <gtest/gtest.h>

#include <string>

#include "cpacf_caller.h"
#include "emul/emul.h"
#include "openssl_ref.h"
#include "shakedown/backend.h"
#include "shakedown/hash.h"
#include "shakedown/testing.h"

namespace shakedown::emul::test {
namespace {

struct Profile {
  std::uint64_t interrupt;
  bool msa12;
};

class CpacfBackend : public ::testing::TestWithParam<Profile> {
 protected:
  void SetUp() override {
    Options o;
    o.model = Model::cpacf;
    o.interrupt_blocks = GetParam().interrupt;
    install(o);
    std::string assume = "s390_sha256,s390_sha3,s390_sha512";
    if (GetParam().msa12) assume += ",s390_msa12";
    shakedown::testing::assume_features(assume);
    before_ = counters();
  }
  void TearDown() override {
    shakedown::testing::clear_assumed_features();
    uninstall();
  }
  std::uint64_t since(Insn kind) const {
    const auto i = static_cast<std::size_t>(kind);
    return counters().completed[i] - before_.completed[i];
  }
  Counters before_;
};

struct AlgCase {
  Algorithm alg;
  const char* openssl;
};
constexpr AlgCase kAlgs[] = {
    {Algorithm::sha224, "SHA224"},     {Algorithm::sha256, "SHA256"},     {Algorithm::sha384, "SHA384"},
    {Algorithm::sha512, "SHA512"},     {Algorithm::sha3_224, "SHA3-224"}, {Algorithm::sha3_256, "SHA3-256"},
    {Algorithm::sha3_384, "SHA3-384"}, {Algorithm::sha3_512, "SHA3-512"}, {Algorithm::shake128, "SHAKE128"},
    {Algorithm::shake256, "SHAKE256"},
};

std::vector<std::uint8_t> oracle(const AlgCase& c, std::span<const std::uint8_t> msg, std::size_t outlen) {
  return is_xof(c.alg) ? openssl_xof(c.openssl, msg, outlen) : openssl(c.openssl, msg);
}

TEST_P(CpacfBackend, OneShotAndSplitUpdatesMatchOpenssl) {
#if SHAKEDOWN_EMUL_EXPECT_CPACF_BACKENDS
  for (const AlgCase& c : kAlgs) {
    ASSERT_EQ(selected_backend(family_of(c.alg)), "s390x/cpacf") << name(c.alg);
    for (std::size_t len : {0u, 1u, 71u, 72u, 136u, 168u, 200u, 1000u}) {
      SCOPED_TRACE(std::string(name(c.alg)) + " len " + std::to_string(len));
      const auto msg = pattern(len, static_cast<std::uint32_t>(len));
      const std::size_t outlen = is_xof(c.alg) ? 300 : digest_size(c.alg);
      const auto want = to_hex(oracle(c, msg, outlen));
      EXPECT_EQ(to_hex(hash(c.alg, msg, outlen)), want);
      Hasher h(c.alg, "s390x/cpacf");
      for (std::size_t at = 0; at < len;) {
        const std::size_t n = std::min<std::size_t>(len - at, 1 + at % 97);
        h.update(msg.data() + at, n);
        at += n;
      }
      std::vector<std::uint8_t> out(outlen);
      h.final(out);
      EXPECT_EQ(to_hex(out), want);
    }
  }
  EXPECT_GT(since(Insn::kimd_sha256), 0u);
  EXPECT_GT(since(Insn::kimd_sha3), 0u);
  EXPECT_GT(since(Insn::klmd_sha3), 0u);
  EXPECT_GT(since(Insn::klmd_shake), 0u);
  if (!qemu_implements(kKimd, 3)) {
    EXPECT_GT(since(Insn::kimd_sha512), 0u);
  }
#else
  GTEST_FAIL() << "built without the s390x/cpacf backends (SHAKEDOWN_NO_S390X_CPACF)";
#endif
}

INSTANTIATE_TEST_SUITE_P(Profiles, CpacfBackend,
                         ::testing::Values(Profile{0, false}, Profile{1, false}, Profile{0, true}, Profile{2, true}),
                         [](const ::testing::TestParamInfo<Profile>& i) {
                           return std::string(i.param.msa12 ? "msa12" : "zeroed_block") + "_interrupt" +
                                  std::to_string(i.param.interrupt);
                         });

}  // namespace
}  // namespace shakedown::emul::test
