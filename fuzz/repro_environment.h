// The environment a fuzz input was found in, and the profile shakedown-repro sets up for it from the build's plan.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shakedown::fuzz {

// An environment of the build's resolved plan (ci/plan.py, plan-<arch>.jsonl): a row of ci/matrix/<arch>.txt.
struct ReproEnvironment {
  std::string name;
  std::vector<std::pair<std::string, std::string>> variables;  // to set before the backends are selected
  std::vector<std::string> runner;                             // the command its runs start under (QEMU); empty: native
};

// The environment a crash file's name gives: ci/verify's time-boxed runs write fuzz-<env>-<target>-<kind>-<sha1>
// (kind: crash, leak, timeout, oom, slow-unit). Empty when the name is not of that form.
std::string environment_in_name(std::string_view file_name, std::string_view target);

// The profile of environment `name` in the plan: the variables of its time-boxed fuzz run of `target` (of any
// target when none is given or it has none), else those of its fuzz entries, else of any of its entries; none for a
// build row, whose runs use the build's own environment. Left out: what only a long run can meet or only the CI
// records (SHAKEDOWN_EMULATE_REQUIRE's minimum counts, SHAKEDOWN_TEST_SCALE, SHAKEDOWN_ENV_NAME, SHAKEDOWN_RECORD).
// Throws std::runtime_error with the reason when the plan cannot be read or has no such environment.
ReproEnvironment lookup_environment(const std::string& plan_path, const std::string& name, std::string_view target);

}  // namespace shakedown::fuzz
