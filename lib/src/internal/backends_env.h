// SHAKEDOWN_BACKENDS: pins and exclusions per family, parsed with a message that names the offending item.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::internal {

inline constexpr const char* kBackendsEnv = "SHAKEDOWN_BACKENDS";

// What SHAKEDOWN_BACKENDS says about one family.
struct FamilyOverride {
  std::string pinned;                 // empty: no pin
  std::vector<std::string> excluded;
};
using Overrides = std::array<FamilyOverride, kAllFamilies.size()>;

// Grammar: items separated by ','; each item is FAMILY=NAME (pin) or FAMILY=-NAME (exclude); names must be
// compiled rows. Returns the error message, or "" with `out` filled.
std::string parse_backends_env(std::string_view text, Overrides& out);

}  // namespace shakedown::internal
