// Test-only fault injection (SHAKEDOWN_TEST_BREAK=family/name): proves the suites catch a broken backend.
#pragma once

#include <span>

#include "shakedown/backend.h"

namespace shakedown::internal::test_break {

// Wraps the victim row's functions so that they are subtly wrong (test_break.cc). Compiled, and called by
// tables.cc, only in builds that name a victim; aborts if the victim names no row of a family it addresses.
template <Family F>
void patch(std::span<BackendOf<F>> rows);

}  // namespace shakedown::internal::test_break
