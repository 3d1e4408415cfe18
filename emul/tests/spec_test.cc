// SHAKEDOWN_EMULATE syntax for every model, and install() refusing a model of another arch (runs on every arch).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "emul/emul.h"

namespace shakedown::emul {
namespace {

TEST(Spec, ParsesEveryDocumentedPheForm) {
  Options o = parse_spec("phe");
  EXPECT_EQ(o.model, Model::phe);
  EXPECT_EQ(o.profile, PheProfile::zhaoxin);
  EXPECT_FALSE(o.strict);
  EXPECT_EQ(o.interrupt_blocks, 0u);
  o = parse_spec("phe:via,strict");
  EXPECT_EQ(o.profile, PheProfile::via);
  EXPECT_TRUE(o.strict);
  o = parse_spec("phe:zhaoxin,strict,interrupt=1");
  EXPECT_EQ(o.profile, PheProfile::zhaoxin);
  EXPECT_EQ(o.interrupt_blocks, 1u);
  EXPECT_EQ(parse_spec("phe:strict").profile, PheProfile::zhaoxin);
  EXPECT_EQ(describe(parse_spec("phe:via,interrupt=2")),
            "PadLock PHE model (x86-64), profile via, interrupted every 2 block(s)");
}

TEST(Spec, ParsesEveryDocumentedCpacfForm) {
  Options o = parse_spec("cpacf");
  EXPECT_EQ(o.model, Model::cpacf);
  EXPECT_EQ(o.cpacf_functions, static_cast<std::uint32_t>(kCpacfAll));
  EXPECT_EQ(o.interrupt_blocks, 0u);
  o = parse_spec("cpacf:sha256,sha3,interrupt=1");
  EXPECT_EQ(o.cpacf_functions, static_cast<std::uint32_t>(kCpacfSha256 | kCpacfSha3));
  EXPECT_EQ(o.interrupt_blocks, 1u);
  EXPECT_EQ(parse_spec("cpacf:interrupt=3").cpacf_functions, static_cast<std::uint32_t>(kCpacfAll));
  EXPECT_EQ(describe(parse_spec("cpacf:sha512,sha1,interrupt=2")),
            "CPACF KIMD/KLMD model (s390x), functions sha1 sha512, interrupted every 2 block(s)");
}

TEST(Spec, ParsesEveryDocumentedZvkForm) {
  Options o = parse_spec("zvk");
  EXPECT_EQ(o.model, Model::zvk);
  EXPECT_EQ(o.zvk_profile, ZvkProfile::zvknhb);
  EXPECT_FALSE(o.tail_ones);
  o = parse_spec("zvk:zvknha,tail-ones");
  EXPECT_EQ(o.zvk_profile, ZvkProfile::zvknha);
  EXPECT_TRUE(o.tail_ones);
  EXPECT_EQ(describe(parse_spec("zvk:tail-ones")),
            "RISC-V vector-crypto model (riscv64), profile zvknhb + zvkb, tail-agnostic writes fill tails with ones");
}

TEST(Spec, ParsesTheSha512niModel) {
  EXPECT_EQ(parse_spec("sha512ni").model, Model::sha512ni);
  EXPECT_EQ(model_arch(Model::sha512ni), "x86-64");
  EXPECT_EQ(describe(parse_spec("sha512ni")),
            "Intel SHA512 model (x86-64): VSHA512RNDS2, VSHA512MSG1, VSHA512MSG2 on the signal frame's YMM state");
}

TEST(Spec, RejectsMalformedValuesWithAClearMessage) {
  const std::pair<const char*, const char*> bad[] = {
      {"padlock", "unknown model \"padlock\""},
      {"phe:", "empty option"},
      {"phe:via,", "empty option"},
      {"phe:amd", "unknown phe option \"amd\""},
      {"phe:via,zhaoxin", "more than one profile"},
      {"phe:interrupt=0", "interrupt needs"},
      {"phe:interrupt=x", "interrupt needs"},
      {"phe:interrupt=", "interrupt needs"},
      {"PHE", "unknown model"},
      {"cpacf:sha224", "unknown cpacf option \"sha224\""},
      {"cpacf:sha3,sha3", "given twice"},
      {"cpacf:interrupt=0", "interrupt needs"},
      {"cpacf:strict", "unknown cpacf option"},
      {"zvk:zvknha,zvknhb", "more than one profile"},
      {"zvk:interrupt=1", "unknown zvk option"},
      {"zvk:,tail-ones", "empty option"},
      {"sha512ni:strict", "takes no options"},
      {"sha512ni:", "takes no options"},
      {"SHA512NI", "unknown model"},
  };
  for (auto [spec, why] : bad) {
    try {
      parse_spec(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
}

// A model of another arch would never see its instructions trap here: refusing it is the only honest answer.
TEST(Spec, InstallRefusesAModelOfAnotherArch) {
  int supported = 0;
  for (Model m : {Model::phe, Model::sha512ni, Model::cpacf, Model::zvk}) {
    Options o;
    o.model = m;
    if (model_supported_here(m)) {
      ++supported;
      continue;
    }
    try {
      install(o);
      ADD_FAILURE() << model_name(m) << " was installed on the wrong arch";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(model_arch(m))), std::string::npos) << e.what();
    }
    EXPECT_FALSE(installed());
  }
  // x86-64 has two (PadLock and Intel SHA512), s390x and riscv64 one each.
#if defined(__x86_64__)
  EXPECT_EQ(supported, 2);
#else
  EXPECT_EQ(supported, 1);
#endif
}

}  // namespace
}  // namespace shakedown::emul
