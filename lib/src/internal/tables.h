// The backend tables the registry selects from: the arch rows, in order, as one contiguous array per family.
#pragma once

#include <cstddef>
#include <span>

#include "shakedown/backend.h"

namespace shakedown::internal {

// Rows per family a table can hold (checked when the table is built).
inline constexpr std::size_t kMaxRowsPerFamily = 16;

// Built once from arch_rows<F>() (tables.cc). A test-only build with SHAKEDOWN_TEST_BREAK gets the victim row
// patched there; nothing else in the library ever sees a difference.
template <Family F>
std::span<const BackendOf<F>> table() noexcept;

// The row's index in table<F>(): rows are identified by position (self-test results, status lines).
template <Family F>
std::size_t row_index(const BackendOf<F>& row) noexcept {
  return static_cast<std::size_t>(&row - table<F>().data());
}

}  // namespace shakedown::internal
