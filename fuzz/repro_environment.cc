// Environments for shakedown-repro: the name a crash file carries, and its variables from the build's plan.
#include "repro_environment.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace shakedown::fuzz {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 5> kArtifactKinds = {"crash", "leak", "timeout", "oom", "slow-unit"};
// Variables of a run that replaying one input must not take: a minimum count of emulated instructions only a long
// run reaches, the test scale, and the CI's record keeping.
constexpr std::array<std::string_view, 4> kLeftOut = {"SHAKEDOWN_EMULATE_REQUIRE", "SHAKEDOWN_TEST_SCALE",
                                                      "SHAKEDOWN_ENV_NAME", "SHAKEDOWN_RECORD"};

bool left_out(std::string_view variable) {
  return std::find(kLeftOut.begin(), kLeftOut.end(), variable) != kLeftOut.end();
}

std::vector<std::string> strings(const json& value) {
  std::vector<std::string> out;
  if (value.is_array())
    for (const json& v : value)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

bool has_label(const json& test, std::string_view label) {
  const std::vector<std::string> labels = strings(test.value("labels", json::array()));
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

// A fuzz_job's environment is an object; a test's a list of NAME=VALUE items.
ReproEnvironment from_record(const std::string& name, const json& record) {
  ReproEnvironment env{name, {}, strings(record.value("runner", json::array()))};
  const json& variables = record.value("environment", json::object());
  if (variables.is_object()) {
    for (const auto& [key, value] : variables.items())
      if (!left_out(key) && value.is_string()) env.variables.emplace_back(key, value.get<std::string>());
  } else {
    for (const std::string& item : strings(variables)) {
      const std::size_t eq = item.find('=');
      if (eq != std::string::npos && !left_out(item.substr(0, eq)))
        env.variables.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
  }
  return env;
}

}  // namespace

std::string environment_in_name(std::string_view file_name, std::string_view target) {
  constexpr std::string_view kPrefix = "fuzz-";
  if (!file_name.starts_with(kPrefix)) return {};
  for (std::string_view kind : kArtifactKinds) {
    const std::string tail = "-" + std::string(target) + "-" + std::string(kind) + "-";
    const std::size_t at = file_name.rfind(tail);
    if (at != std::string_view::npos && at > kPrefix.size()) return std::string(file_name.substr(5, at - 5));
  }
  return {};
}

ReproEnvironment lookup_environment(const std::string& plan_path, const std::string& name, std::string_view target) {
  if (plan_path.empty())
    throw std::runtime_error("this build has no plan to look environment '" + name +
                             "' up in (it is written by builds with the tests); give one with --plan FILE");
  std::ifstream in(plan_path);
  if (!in) throw std::runtime_error("cannot read the plan " + plan_path + ": " + std::strerror(errno));
  // The best record first: this target's time-boxed run, any time-boxed run, a fuzz entry, any entry, the row.
  std::array<std::optional<json>, 4> found;
  std::optional<json> row;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    json r = json::parse(line, nullptr, false);
    if (r.is_discarded() || !r.is_object())
      throw std::runtime_error(plan_path + ":" + std::to_string(number) + ": not a JSON object");
    const std::string type = r.value("type", "");
    if (type == "env" && r.value("name", "") == name) row = r;
    if (r.value("env", "") != name) continue;
    std::size_t rank = 4;
    if (type == "fuzz_job") rank = r.value("target", "") == target ? 0 : 1;
    if (type == "test") rank = has_label(r, "fuzz") ? 2 : 3;
    if (rank < found.size() && !found[rank]) found[rank] = r;
  }
  for (const auto& record : found)
    if (record) return from_record(name, *record);
  if (row && row->value("kind", "") == "build") return {name, {}, {}};
  if (row) {
    const std::string why = row->value("why_not_registered", std::string());
    throw std::runtime_error("environment '" + name + "' has no runs in this build (" +
                             (why.empty() ? "none of its entries is registered here" : why) + ")");
  }
  throw std::runtime_error("no environment '" + name + "' in " + plan_path);
}

}  // namespace shakedown::fuzz
