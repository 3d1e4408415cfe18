// `shakedown backends`: every compiled backend per family with availability, reason and selection.
#include <cstdio>
#include <string>

#include "commands.h"
#include "shakedown/shakedown.h"

namespace shakedown::cli {

int backends(Args args) {
  if (!args.empty()) {
    std::fprintf(stderr, "shakedown backends: takes no arguments\n");
    return kUsage;
  }
  check_environment();  // a malformed SHAKEDOWN_BACKENDS is reported as an error, not ignored
  for (Family f : kAllFamilies) {
    std::printf("%s:\n", std::string(name(f)).c_str());
    for (const BackendStatus& s : shakedown::backends(f)) {
      const char* mark = s.selected ? "*" : " ";
      const char* state = s.available ? "available" : "unavailable";
      std::printf("  %s %-16s %-12s %s\n", mark, s.name.c_str(), state, s.reason.c_str());
    }
  }
  std::printf("(* = selected for new contexts)\ncpu features:\n%s", describe(cpu_features()).c_str());
  return kOk;
}

}  // namespace shakedown::cli
