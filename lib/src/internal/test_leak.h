// Test-only timing leaks (SHAKEDOWN_TEST_LEAK): prove that the constant-time suites report a secret leak.
//
// Defined only when tests/ct_check.cmake compiles hash.cc into the deliberate-leak driver; every library
// build gets the empty function, which the compiler removes. The SHA-256 family's update path then
// branches on a message byte and loads a table entry indexed by another, the two leaks SECURITY.md rules
// out, each on its own line so that a report names it. tests/ct_expect_leak.cmake finds these lines by
// their "ct-leak:" markers and fails unless MemorySanitizer and Valgrind both report each one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::internal::test_leak {

#ifdef SHAKEDOWN_TEST_LEAK
inline volatile std::uint8_t g_sink;  // volatile: the branch and the load must stay as written

// 256 entries indexed by a byte, the shape of an S-box (any contents do; these are a byte permutation).
inline constexpr struct Table {
  std::uint8_t entry[256];
  constexpr Table() : entry() {
    for (int i = 0; i < 256; ++i) entry[i] = static_cast<std::uint8_t>(i * 167 + 13);
  }
} kTable;

inline void on_sha256_update(const std::uint8_t* data, std::size_t len) noexcept {
  if (len == 0) return;
  if (data[0] & 1) g_sink = 1;              // ct-leak: branch
  g_sink = kTable.entry[data[len - 1]];     // ct-leak: lookup
}
#else
inline void on_sha256_update(const std::uint8_t*, std::size_t) noexcept {}
#endif

}  // namespace shakedown::internal::test_leak
