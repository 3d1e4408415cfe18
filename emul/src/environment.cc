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
                              " (syntax: phe[:zhaoxin|via][,strict][,interrupt=<n>] | sha512ni | "
                              "cpacf[:sha1,sha256,sha512,sha3][,interrupt=<n>] | zvk[:zvknha|zvknhb][,tail-ones], "
                              "see emul/README.md)");
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
                                " (expected 0, 1, or <kind>=<n>[,...] with kind an instruction name such as xsha256, kimd_sha3 or vsha2ch)");
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

namespace {

// Splits "a,b,c" and calls on_item for each; empty items are errors.
template <typename F>
void for_each_option(std::string_view spec, std::string_view rest, F on_item) {
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item.empty()) bad_spec(spec, "empty option");
    on_item(item);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
}

void parse_phe(std::string_view spec, std::string_view rest, Options& options) {
  bool profile_seen = false;
  for_each_option(spec, rest, [&](std::string_view item) {
    if (item == "zhaoxin" || item == "via") {
      if (profile_seen) bad_spec(spec, "more than one profile");
      profile_seen = true;
      options.profile = item == "via" ? PheProfile::via : PheProfile::zhaoxin;
    } else if (item == "strict") {
      options.strict = true;
    } else if (item.substr(0, 10) == "interrupt=") {
      options.interrupt_blocks = parse_count(spec, item.substr(10));
    } else {
      bad_spec(spec, "unknown phe option \"" + std::string(item) + "\"");
    }
  });
}

void parse_cpacf(std::string_view spec, std::string_view rest, Options& options) {
  std::uint32_t functions = 0;
  for_each_option(spec, rest, [&](std::string_view item) {
    std::uint32_t bit = 0;
    if (item == "sha1") bit = kCpacfSha1;
    else if (item == "sha256") bit = kCpacfSha256;
    else if (item == "sha512") bit = kCpacfSha512;
    else if (item == "sha3") bit = kCpacfSha3;
    if (bit != 0) {
      if (functions & bit) bad_spec(spec, "function \"" + std::string(item) + "\" given twice");
      functions |= bit;
    } else if (item.substr(0, 10) == "interrupt=") {
      options.interrupt_blocks = parse_count(spec, item.substr(10));
    } else {
      bad_spec(spec, "unknown cpacf option \"" + std::string(item) + "\"");
    }
  });
  if (functions != 0) options.cpacf_functions = functions;
}

void parse_zvk(std::string_view spec, std::string_view rest, Options& options) {
  bool profile_seen = false;
  for_each_option(spec, rest, [&](std::string_view item) {
    if (item == "zvknha" || item == "zvknhb") {
      if (profile_seen) bad_spec(spec, "more than one profile");
      profile_seen = true;
      options.zvk_profile = item == "zvknha" ? ZvkProfile::zvknha : ZvkProfile::zvknhb;
    } else if (item == "tail-ones") {
      options.tail_ones = true;
    } else {
      bad_spec(spec, "unknown zvk option \"" + std::string(item) + "\"");
    }
  });
}

}  // namespace

std::string_view model_name(Model model) noexcept {
  switch (model) {
    case Model::phe: return "phe";
    case Model::sha512ni: return "sha512ni";
    case Model::cpacf: return "cpacf";
    case Model::zvk: return "zvk";
  }
  return "unknown";
}

std::string_view model_arch(Model model) noexcept {
  switch (model) {
    case Model::phe: return "x86-64";
    case Model::sha512ni: return "x86-64";
    case Model::cpacf: return "s390x";
    case Model::zvk: return "riscv64";
  }
  return "unknown";
}

bool model_supported_here(Model model) noexcept { return model_arch(model) == detail::arch_name(); }

Options parse_spec(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view model = spec.substr(0, colon);
  Options options;
  if (model == "phe") options.model = Model::phe;
  else if (model == "sha512ni") options.model = Model::sha512ni;
  else if (model == "cpacf") options.model = Model::cpacf;
  else if (model == "zvk") options.model = Model::zvk;
  else bad_spec(spec, "unknown model \"" + std::string(model) + "\" (known: phe, sha512ni, cpacf, zvk)");
  if (colon == std::string_view::npos) return options;
  const std::string_view rest = spec.substr(colon + 1);
  switch (options.model) {
    case Model::phe: parse_phe(spec, rest, options); break;
    case Model::sha512ni:
      // Nothing to choose: no undefined results to poison, no memory operands, one vendor (emul/README.md).
      bad_spec(spec, "the sha512ni model takes no options (it always refuses what hardware refuses)");
    case Model::cpacf: parse_cpacf(spec, rest, options); break;
    case Model::zvk: parse_zvk(spec, rest, options); break;
  }
  return options;
}

std::string describe(const Options& options) {
  std::string s;
  switch (options.model) {
    case Model::phe:
      s = std::string("PadLock PHE model (x86-64), profile ") +
          (options.profile == PheProfile::via ? "via" : "zhaoxin");
      if (options.strict) s += ", strict";
      break;
    case Model::sha512ni:
      s = "Intel SHA512 model (x86-64): VSHA512RNDS2, VSHA512MSG1, VSHA512MSG2 on the signal frame's YMM state";
      break;
    case Model::cpacf: {
      s = "CPACF KIMD/KLMD model (s390x), functions";
      const std::pair<std::uint32_t, const char*> names[] = {
          {kCpacfSha1, " sha1"}, {kCpacfSha256, " sha256"}, {kCpacfSha512, " sha512"}, {kCpacfSha3, " sha3"}};
      for (const auto& [bit, name] : names)
        if (options.cpacf_functions & bit) s += name;
      break;
    }
    case Model::zvk:
      s = std::string("RISC-V vector-crypto model (riscv64), profile ") +
          (options.zvk_profile == ZvkProfile::zvknha ? "zvknha" : "zvknhb") + " + zvkb";
      if (options.tail_ones) s += ", tail-agnostic writes fill tails with ones";
      break;
  }
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
