// GoogleTest main for every suite: applies SHAKEDOWN_TEST_ASSUME, prints the environment, asserts the selection
// the matrix expects, records the compiled backends and every failure, flushes the records.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "shakedown/testing.h"
#include "support.h"
#if SHAKEDOWN_HAVE_EMUL
#include "emul/emul.h"
#endif

namespace {

// Records every failed test under its full name ("EveryBackend/HashDiff.X/sha256__x86_64_shani"), charged to
// the backends the test named as wrong, so the verification report marks the right cell, not just the suite.
class FailureRecorder : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override { shakedown::test::clear_charges(); }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (!info.result()->Failed()) return;
    shakedown::test::record_failure(std::string(info.test_suite_name()) + "." + info.name());
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
    const std::string assumed = shakedown::testing::assume_features_from_environment();
    std::fprintf(stderr, "%s", shakedown::test::describe_environment(assumed).c_str());
    std::string notes;
    const std::string mismatch = shakedown::test::check_expected_selection(notes);
    std::fprintf(stderr, "%s", notes.c_str());
    if (!mismatch.empty()) {
      std::fprintf(stderr, "SELECTION MISMATCH: %s\n", mismatch.c_str());
      return 3;
    }
    shakedown::test::record_compiled_backends();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  // SHAKEDOWN_GTEST_FILTER (ci/verify --only) narrows a run whose command line names no filter. Not
  // GTEST_FILTER: GoogleTest applies that to --gtest_list_tests too, so ctest's test discovery would record
  // the narrowed list and later runs would silently miss every other test.
  if (const char* only = std::getenv("SHAKEDOWN_GTEST_FILTER"); only && *only) {
    bool named = false;
    for (int i = 1; i < argc; ++i) {
      const std::string_view arg = argv[i];
      named = named || arg.starts_with("--gtest_filter") || arg.starts_with("--gtest_list_tests");
    }
    if (!named) GTEST_FLAG_SET(filter, only);
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new FailureRecorder);
  int rc = RUN_ALL_TESTS();
  shakedown::test::flush_records();
  return rc;
}
