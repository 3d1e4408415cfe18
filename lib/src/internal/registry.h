// The registry's interface to the rest of the library: the selected row per family, lookup, and the test hooks.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "shakedown/backend.h"
#include "shakedown/cpu.h"

namespace shakedown::internal {

// The selected row for new contexts; throws Errc::bad_environment if SHAKEDOWN_BACKENDS is bad.
template <Family F>
const BackendOf<F>& default_backend();
// The rows with lanes hash_many() may use by default, in preference order (possibly none); throws like
// default_backend. What no lanes take goes to default_backend (docs/design.md "Many messages").
template <Family F>
std::span<const BackendOf<F>* const> default_many_rows();

// The same as a family-independent handle (every row starts with its BackendInfo), and the named row
// (throws like backend<F>(name)).
const BackendInfo* default_backend_info(Family family);
const BackendInfo* named_backend_info(Family family, std::string_view name);

// For shakedown::testing (testing.cc): each re-runs selection under the registry's lock. Defined only in the
// registry copy compiled with SHAKEDOWN_REGISTRY_TEST_HOOKS (lib/testing/CMakeLists.txt), never in the library.
void add_assumed_features(const CpuFeatures& add);
void clear_assumed_features();
void override_environment(std::optional<std::string> value);  // nullopt: read SHAKEDOWN_BACKENDS again
// The error selection would report for this SHAKEDOWN_BACKENDS value, "" if usable. Changes nothing.
std::string environment_error(std::string_view value);

}  // namespace shakedown::internal
