// User input echoed in error messages: cut to a bounded length on a UTF-8 character boundary.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shakedown::internal {

// How many of the first bytes of s to keep so that at most max are kept and no multi-byte UTF-8 sequence is cut
// (a caller that decodes the message, such as ctypes' .decode() on shakedown_last_error(), fails on a cut one).
// Backs off at most three continuation bytes, so bytes that are not UTF-8 are cut at max - 3 or later.
inline std::size_t utf8_prefix_length(std::string_view s, std::size_t max) noexcept {
  if (s.size() <= max) return s.size();
  std::size_t n = max;
  for (int i = 0; i < 3 && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80; ++i) --n;
  return n;
}

// s itself up to max bytes, else its first bytes and how long it was, as the CLI cuts values: "abc... (5000
// bytes)".
inline std::string shown_input(std::string_view s, std::size_t max = 80) {
  if (s.size() <= max) return std::string(s);
  return std::string(s.substr(0, utf8_prefix_length(s, max))) + "... (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace shakedown::internal
