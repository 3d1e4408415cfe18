// Known-answer self-tests of the rows flagged kBackendSelfTest: run once per process, and only when needed.
#pragma once

#include <cstdint>

#include "shakedown/backend.h"

namespace shakedown::internal {

enum class SelfTest : std::uint8_t { not_run, passed, failed };

// Runs the row's test the first time it is asked for (thread-safe); true if it passed.
template <Family F>
bool self_test_passes(const BackendOf<F>& row);
// The result so far, without running anything.
template <Family F>
SelfTest self_test_result(const BackendOf<F>& row) noexcept;

}  // namespace shakedown::internal
