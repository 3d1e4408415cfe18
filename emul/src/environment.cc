// SHAKEDOWN_EMULATE parsing, descriptions, and the exit-time "an emulated instruction really ran" check.
#include <unistd.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "trap.h"

namespace shakedown::emul {
namespace {

[[noreturn]] void bad_spec(std::string_view spec, const std::string& why) {
  throw std::invalid_argument("emulator spec \"" + std::string(spec) + "\": " + why +
                              " (syntax: phe[:zhaoxin|via][,strict][,interrupt=<n>], see emul/README.md)");
}

std::uint64_t parse_count(std::string_view spec, std::string_view text) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n == 0)
    bad_spec(spec, "interrupt needs a whole number of blocks >= 1, got \"" + std::string(text) + "\"");
  return n;
}

// SHAKEDOWN_EMULATE_REQUIRE, read by install_from_environment() and checked by the exit hook: the minimum
// number of completed instructions per kind, or (any_minimum) in total.
struct Requirement {
  bool active = false;
  std::uint64_t any_minimum = 0;
  std::array<std::uint64_t, kInsnCount> minimum{};
};
Requirement g_require;

// "1" (at least one instruction of any kind) or "<kind>=<n>[,<kind>=<n>...]" such as "xsha256=100,xsha512=100".
// Per-kind minimums exist because a backend's start-up self-test alone already executes one instruction.
Requirement parse_requirement(std::string_view text) {
  Requirement r;
  if (text.empty() || text == "0") return r;
  r.active = true;
  if (text == "1") {
    r.any_minimum = 1;
    return r;
  }
  const auto bad = [&](const std::string& why) {
    throw std::invalid_argument("SHAKEDOWN_EMULATE_REQUIRE=\"" + std::string(text) + "\": " + why +
                                " (expected 0, 1, or <kind>=<n>[,...] with kind xsha1|xsha256|xsha512)");
  };
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (item.empty()) bad("empty item");
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) bad("\"" + std::string(item) + "\" is not <kind>=<n>");
    bool known = false;
    for (std::size_t i = 0; i < kInsnCount; ++i) {
      if (insn_name(static_cast<Insn>(i)) != item.substr(0, eq)) continue;
      const std::string_view digits = item.substr(eq + 1);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), r.minimum[i]);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
        bad("bad count \"" + std::string(digits) + "\"");
      known = true;
    }
    if (!known) bad("unknown instruction \"" + std::string(item.substr(0, eq)) + "\"");
    if (comma == std::string_view::npos) break;
    text = text.substr(comma + 1);
  }
  return r;
}

void check_at_exit() {
  Counters c = counters();
  std::fprintf(stderr, "shakedown emul: %s\n", describe(c).c_str());
  if (!g_require.active) return;
  std::string missing;
  if (c.total_completed() < g_require.any_minimum) missing = " no instruction was emulated;";
  for (std::size_t i = 0; i < kInsnCount; ++i)
    if (c.completed[i] < g_require.minimum[i])
      missing += " " + std::string(insn_name(static_cast<Insn>(i))) + " ran " + std::to_string(c.completed[i]) +
                 " times, fewer than the required " + std::to_string(g_require.minimum[i]) + ";";
  if (missing.empty()) return;
  std::fprintf(stderr,
               "shakedown emul: SHAKEDOWN_EMULATE_REQUIRE failed:%s the emulated backend did not run (is "
               "SHAKEDOWN_TEST_ASSUME set, and applied before the suites enumerate backends?)\n",
               missing.c_str());
  std::fflush(stderr);
  _exit(3);
}

}  // namespace

Options parse_spec(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view model = spec.substr(0, colon);
  if (model != "phe") bad_spec(spec, "unknown model \"" + std::string(model) + "\" (known: phe)");
  Options options;
  if (colon == std::string_view::npos) return options;
  std::string_view rest = spec.substr(colon + 1);
  bool profile_seen = false;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item.empty()) bad_spec(spec, "empty option");
    if (item == "zhaoxin" || item == "via") {
      if (profile_seen) bad_spec(spec, "more than one profile");
      profile_seen = true;
      options.profile = item == "via" ? PheProfile::via : PheProfile::zhaoxin;
    } else if (item == "strict") {
      options.strict = true;
    } else if (item.substr(0, 10) == "interrupt=") {
      options.interrupt_blocks = parse_count(spec, item.substr(10));
    } else {
      bad_spec(spec, "unknown option \"" + std::string(item) + "\"");
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return options;
}

std::string describe(const Options& options) {
  std::string s = std::string("PadLock PHE model on ") + detail::arch_name() + ", profile " +
                  (options.profile == PheProfile::via ? "via" : "zhaoxin");
  if (options.strict) s += ", strict";
  if (options.interrupt_blocks != 0)
    s += ", interrupted every " + std::to_string(options.interrupt_blocks) + " block(s)";
  return s;
}

std::string install_from_environment() {
  const char* spec = std::getenv("SHAKEDOWN_EMULATE");
  if (spec == nullptr || *spec == '\0') return "";
  Options options;
  try {
    options = parse_spec(spec);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("SHAKEDOWN_EMULATE: ") + e.what());
  }
  const char* require = std::getenv("SHAKEDOWN_EMULATE_REQUIRE");
  const Requirement requirement = parse_requirement(require ? require : "");
  std::string text = install(options);
  static const bool registered = [] { return std::atexit(check_at_exit) == 0; }();
  if (!registered) throw std::runtime_error("shakedown emul: atexit registration failed");
  g_require = requirement;
  if (requirement.active)
    text += std::string("; SHAKEDOWN_EMULATE_REQUIRE=") + require + ": the run exits with status 3 unless met";
  return text;
}

}  // namespace shakedown::emul
