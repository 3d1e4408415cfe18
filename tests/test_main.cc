// GoogleTest main for every suite: applies SHAKEDOWN_TEST_ASSUME, prints the environment, flushes records.
#include <gtest/gtest.h>

#include <cstdio>

#include "shakedown/testing.h"
#include "support.h"
#if SHAKEDOWN_HAVE_EMUL
#include "emul/emul.h"
#endif

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  try {
#if SHAKEDOWN_HAVE_EMUL
    // SHAKEDOWN_EMULATE installs trap-and-emulate models before any backend is selected or run.
    std::string emulated = shakedown::emul::install_from_environment();
    if (!emulated.empty()) std::fprintf(stderr, "emulating (test-only SIGILL handler): %s\n", emulated.c_str());
#endif
    std::string assumed = shakedown::testing::assume_features_from_environment();
    std::fprintf(stderr, "shakedown test environment:\n%s",
                 shakedown::describe(shakedown::cpu_features()).c_str());
    if (!assumed.empty()) std::fprintf(stderr, "assumed (test override): %s\n", assumed.c_str());
    for (auto f : shakedown::kAllFamilies) {
      std::string names;
      for (const auto& b : shakedown::available_backends(f)) names += " " + b;
      std::fprintf(stderr, "  %-7s selected %-14s available:%s\n", std::string(shakedown::name(f)).c_str(),
                   std::string(shakedown::selected_backend(f)).c_str(), names.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  int rc = RUN_ALL_TESTS();
  shakedown::test::flush_records();
  return rc;
}
