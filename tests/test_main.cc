// GoogleTest main for every suite: applies SHAKEDOWN_TEST_ASSUME, prints the environment, flushes records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "shakedown/testing.h"
#include "support.h"
#if SHAKEDOWN_HAVE_EMUL
#include "emul/emul.h"
#endif

namespace {

// Records every failed test under its parameter name ("sha256__x86_64_shani") so the verification
// report can mark the backend's cell as failed, not just the suite.
class FailureRecorder : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (!info.result()->Failed()) return;
    std::string full = std::string(info.test_suite_name()) + "." + info.name();
    shakedown::test::record_failure(full);
  }
};

}  // namespace

int main(int argc, char** argv) {
  // Emulators and feature overrides come first: gtest evaluates the backend-parameterised suites'
  // generators inside InitGoogleTest, so the backends they make available must exist by then.
  try {
#if SHAKEDOWN_HAVE_EMUL
    // SHAKEDOWN_EMULATE installs trap-and-emulate models before any backend is selected or run.
    std::string emulated = shakedown::emul::install_from_environment();
    if (!emulated.empty()) std::fprintf(stderr, "emulating (test-only SIGILL handler): %s\n", emulated.c_str());
#endif
    std::string assumed = shakedown::testing::assume_features_from_environment();
    std::fprintf(stderr, "oracle: %s\n", shakedown::test::oracle_description());
    std::fprintf(stderr, "shakedown test environment:\n%s",
                 shakedown::describe(shakedown::cpu_features()).c_str());
    if (!assumed.empty()) std::fprintf(stderr, "assumed (test override): %s\n", assumed.c_str());
    for (auto f : shakedown::kAllFamilies) {
      std::string names;
      for (const auto& b : shakedown::available_backends(f)) names += " " + b;
      std::fprintf(stderr, "  %-7s selected %-14s available:%s\n", std::string(shakedown::name(f)).c_str(),
                   std::string(shakedown::selected_backend(f)).c_str(), names.c_str());
    }
    // SHAKEDOWN_EXPECT_SELECTED="sha256=x86_64/avx2,keccak=generic" (select= of ci/matrix/<arch>.txt): the
    // run fails unless the registry selected exactly these (how the CPU-model matrix asserts the selection
    // lattice). A backend this build does not compile (SHAKEDOWN_NO_<ISA>) cannot be selected: its family is
    // not asserted, and the coverage gate reports the backend as not built.
    if (const char* expect = std::getenv("SHAKEDOWN_EXPECT_SELECTED"); expect && *expect) {
      std::string_view rest(expect);
      while (!rest.empty()) {
        std::string_view item = rest.substr(0, rest.find(','));
        rest.remove_prefix(std::min(rest.size(), item.size() + 1));
        std::size_t eq = item.find('=');
        auto fam = shakedown::family_from_name(item.substr(0, eq));
        std::string_view want = eq == std::string_view::npos ? "" : item.substr(eq + 1);
        const auto compiled = shakedown::backends(fam);
        if (std::none_of(compiled.begin(), compiled.end(), [&](const auto& b) { return b.name == want; })) {
          std::fprintf(stderr, "selection not asserted: %.*s is not compiled into this build\n",
                       static_cast<int>(item.size()), item.data());
          continue;
        }
        std::string_view got = shakedown::selected_backend(fam);
        if (got != want) {
          std::fprintf(stderr, "SELECTION MISMATCH: %s selected '%s', expected '%.*s'\n",
                       std::string(shakedown::name(fam)).c_str(), std::string(got).c_str(),
                       static_cast<int>(want.size()), want.data());
          return 3;
        }
        std::fprintf(stderr, "selection as expected: %.*s\n", static_cast<int>(item.size()), item.data());
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new FailureRecorder);
  int rc = RUN_ALL_TESTS();
  shakedown::test::flush_records();
  return rc;
}
