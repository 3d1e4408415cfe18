// `shakedown backends`: every compiled backend per family with availability, reason and selection.
#include <cstdio>
#include <string>

#include "command_line.h"
#include "commands.h"
#include "shakedown/shakedown.h"
#include "terminal_text.h"

namespace shakedown::cli {
namespace {

constexpr const char* kBackendsHelp =
    "Usage: shakedown backends\n"
    "List the compiled backends of each family (sha256, sha512, keccak) in preference order, whether this\n"
    "CPU can run each (and why not), which one new contexts use (*), which ones hash several messages at once\n"
    "for hash_many() (+, with the number of messages per call), and the CPU features detected.\n"
    "SHAKEDOWN_BACKENDS (e.g. sha256=generic,keccak=-x86_64/bmi2) changes the selection; a malformed\n"
    "value is an error (exit status 2).\n"
    "\n"
    "      --help     display this help and exit\n"
    "      --version  output version information and exit\n"
    "\n"
    "Full documentation: man shakedown\n";

enum Id { kHelp, kVersion };
constexpr OptionSpec kSpecs[] = {{kHelp, 0, "help", false, true}, {kVersion, 0, "version", false, true}};

}  // namespace

int backends(Args args) {
  const CommandLine cl = parse_command_line(args, kSpecs);
  for (const ParsedOption& o : cl.options) {
    if (o.id == kHelp) {
      std::fputs(kBackendsHelp, stdout);
      return kOk;
    }
    print_version();
    return kOk;
  }
  if (!cl.operands.empty()) throw UsageError("extra operand " + quoted(cl.operands.front(), Quotes::always));
  check_environment();  // a malformed SHAKEDOWN_BACKENDS is reported as an error, not ignored
  for (Family f : kAllFamilies) {
    std::printf("%s:\n", std::string(name(f)).c_str());
    for (const BackendStatus& s : shakedown::backends(f)) {
      const char* mark = s.selected ? "*" : " ";
      const char* many = s.selected_many ? "+" : " ";
      const char* state = s.available ? "available" : "unavailable";
      const std::string lanes = s.lanes ? "x" + std::to_string(s.lanes) : "";
      std::printf("  %s%s %-16s %-4s %-12s %s\n", mark, many, s.name.c_str(), lanes.c_str(), state,
                  printable(s.reason).c_str());
    }
  }
  std::printf(
      "(* = selected for new contexts, + = its lanes used by hash_many(), xN = N messages at once)\n"
      "cpu features:\n%s",
      describe(cpu_features()).c_str());
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i) {  // each present feature: where it was read, what it means
    const auto f = static_cast<CpuFeature>(i);
    if (!cpu_features().has(f)) continue;
    std::printf("  %-12s %-40s %s\n", std::string(feature_name(f)).c_str(), std::string(feature_source(f)).c_str(),
                std::string(feature_description(f)).c_str());
  }
  return kOk;
}

}  // namespace shakedown::cli
