// Counts the PadLock instructions that selection, introspection and binding execute, for one SHAKEDOWN_BACKENDS.
//
//   phe_selftest_probe [--bind FAMILY=BACKEND]... [--expect-bad-environment] KIND=N...     e.g. xsha256=1 xsha512=0
//
// Runs with the Zhaoxin features assumed (SHAKEDOWN_TEST_ASSUME) and, when SHAKEDOWN_EMULATE is set, the PadLock
// model installed. It validates the environment, lists every family's backends, re-selects twice (as tests and
// fuzzers do), binds the named backends, and then requires each KIND to have been emulated exactly N times. Without
// the emulator a PadLock instruction is a real SIGILL, so a run that expects 0 of each proves, by surviving, that
// none was executed. --expect-bad-environment: SHAKEDOWN_BACKENDS is malformed, and every default use must report
// it (Errc::bad_environment) instead of selecting; without the flag such an error fails the run. Exit status 0
// when every count matches (and the environment error is as expected), 1 otherwise, 2 on bad arguments.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "emul/emul.h"
#include "shakedown/shakedown.h"
#include "shakedown/testing.h"

namespace {

struct Expectation {
  shakedown::emul::Insn insn;
  std::uint64_t count;
};

shakedown::emul::Insn parse_insn(std::string_view text) {
  for (std::size_t i = 0; i < shakedown::emul::kInsnCount; ++i) {
    const auto insn = static_cast<shakedown::emul::Insn>(i);
    if (shakedown::emul::insn_name(insn) == text) return insn;
  }
  throw std::invalid_argument("unknown instruction kind '" + std::string(text) + "'");
}

}  // namespace

// Runs a default use of the registry; true when it reported a malformed SHAKEDOWN_BACKENDS.
template <class Use>
bool reports_bad_environment(const char* what, Use&& use) {
  try {
    use();
    return false;
  } catch (const shakedown::Error& e) {
    if (e.code() != shakedown::Errc::bad_environment) throw;
    std::printf("%s: %s\n", what, e.what());
    return true;
  }
}

int main(int argc, char** argv) {
  std::vector<std::pair<shakedown::Family, std::string>> binds;
  std::vector<Expectation> expected;
  bool expect_bad_environment = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string_view arg = argv[i];
      if (arg == "--expect-bad-environment") {
        expect_bad_environment = true;
        continue;
      }
      const bool bind = arg == "--bind";
      const std::string_view item = bind ? (i + 1 < argc ? std::string_view(argv[++i]) : "") : arg;
      const auto eq = item.find('=');
      if (eq == std::string_view::npos)
        throw std::invalid_argument("expected NAME=VALUE, got '" + std::string(item) + "'");
      if (bind) {
        binds.emplace_back(shakedown::family_from_name(item.substr(0, eq)), std::string(item.substr(eq + 1)));
      } else {
        expected.push_back({parse_insn(item.substr(0, eq)), std::stoull(std::string(item.substr(eq + 1)))});
      }
    }
    if (expected.empty()) throw std::invalid_argument("no KIND=N expectation given");
    shakedown::emul::install_from_environment();
    shakedown::testing::assume_features_from_environment();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "phe_selftest_probe: %s\n", e.what());
    return 2;
  }

  int status = 0;
  bool bad_environment = reports_bad_environment("check_environment", [] { shakedown::check_environment(); });
  for (shakedown::Family f : shakedown::kAllFamilies)
    bad_environment &= reports_bad_environment("backends", [f] { (void)shakedown::backends(f); });
  for (int i = 0; i < 2; ++i) shakedown::testing::reselect(std::nullopt);  // once per process, not per selection
  if (bad_environment != expect_bad_environment) {
    std::printf("FAIL SHAKEDOWN_BACKENDS: %s\n",
                expect_bad_environment ? "expected to be reported as malformed" : "reported as malformed");
    status = 1;
  }
  for (const auto& [family, backend] : binds) {
    const shakedown::Algorithm alg =
        family == shakedown::Family::sha256 ? shakedown::Algorithm::sha256 : shakedown::Algorithm::sha512;
    shakedown::Hasher bound(alg, backend);  // a self-tested backend runs its known-answer test here
    std::printf("bound %s\n", std::string(bound.backend_name()).c_str());
  }

  for (const Expectation& e : expected) {
    const std::uint64_t got = shakedown::emul::emulated(e.insn);
    const bool ok = got == e.count;
    std::printf("%s %s: executed %llu, expected %llu\n", ok ? "ok  " : "FAIL",
                std::string(shakedown::emul::insn_name(e.insn)).c_str(), static_cast<unsigned long long>(got),
                static_cast<unsigned long long>(e.count));
    if (!ok) status = 1;
  }
  return status;
}
