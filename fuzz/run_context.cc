// Environment setup shared by the fuzz targets and the repro tool: emulators, assumed features, backend lists.
#include "run_context.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>

#include "shakedown/backend.h"
#include "shakedown/cpu.h"
#include "shakedown/testing.h"
#include "support.h"
#if SHAKEDOWN_HAVE_EMUL
#include "emul/emul.h"
#endif

namespace shakedown::fuzz {
namespace {
std::array<std::vector<std::string>, kAllFamilies.size()>& cache() {
  static std::array<std::vector<std::string>, kAllFamilies.size()> lists;
  return lists;
}
bool g_filled = false;
std::array<std::vector<std::uint64_t>, kAllFamilies.size()> g_runs, g_lanes_runs;

void fill() {
  for (Family f : kAllFamilies) {
    cache()[static_cast<std::size_t>(f)] = available_backends(f);
    g_runs[static_cast<std::size_t>(f)].assign(cache()[static_cast<std::size_t>(f)].size(), 0);
    g_lanes_runs[static_cast<std::size_t>(f)].assign(cache()[static_cast<std::size_t>(f)].size(), 0);
  }
  if (!g_filled) std::atexit(write_run_records);
  g_filled = true;
}
}  // namespace

void write_run_records() {
  for (Family f : kAllFamilies) {
    const auto& names = cache()[static_cast<std::size_t>(f)];
    auto& runs = g_runs[static_cast<std::size_t>(f)];
    auto& lanes_runs = g_lanes_runs[static_cast<std::size_t>(f)];
    for (std::size_t i = 0; i < names.size() && i < runs.size(); ++i) {
      if (runs[i]) test::record("fuzz", f, names[i], "plans", std::exchange(runs[i], 0));
      if (lanes_runs[i]) test::record("fuzz-multi", f, names[i], "plans", std::exchange(lanes_runs[i], 0));
    }
  }
  test::flush_records();
}

void count_run(Family family, std::size_t index) {
  auto& runs = g_runs[static_cast<std::size_t>(family)];
  if (index < runs.size()) ++runs[index];
}

void count_lanes_run(Family family, std::size_t index) {
  auto& runs = g_lanes_runs[static_cast<std::size_t>(family)];
  if (index < runs.size()) ++runs[index];
}

const std::vector<std::string>& backends_of(Family family) {
  if (!g_filled) fill();
  return cache()[static_cast<std::size_t>(family)];
}

void initialize(bool verbose) {
  try {
#if SHAKEDOWN_HAVE_EMUL
    // Emulated backends (PadLock PHE, CPACF, RISC-V vector crypto) join the comparison when
    // SHAKEDOWN_EMULATE names a profile; the library itself never installs a signal handler.
    std::string emulated = emul::install_from_environment();
    if (verbose && !emulated.empty()) std::fprintf(stderr, "shakedown fuzz: emulating %s\n", emulated.c_str());
#endif
    std::string assumed = testing::assume_features_from_environment();
    if (verbose && !assumed.empty()) std::fprintf(stderr, "shakedown fuzz: assumed features %s\n", assumed.c_str());
    fill();
    std::string notes;
    const std::string mismatch = test::check_expected_selection(notes);
    if (verbose) std::fprintf(stderr, "%s", notes.c_str());
    if (!mismatch.empty()) {
      std::fprintf(stderr, "shakedown fuzz: SELECTION MISMATCH: %s\n", mismatch.c_str());
      std::exit(3);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shakedown fuzz: cannot set up the environment: %s\n", e.what());
    std::exit(2);
  }
  if (!verbose) return;
  for (Family f : kAllFamilies) {
    std::string names;
    for (const auto& b : backends_of(f)) names += " " + b;
    std::fprintf(stderr, "shakedown fuzz: %-7s backends:%s\n", std::string(name(f)).c_str(), names.c_str());
  }
}

}  // namespace shakedown::fuzz
