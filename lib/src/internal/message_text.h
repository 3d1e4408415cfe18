// User input echoed in error messages: escaped to printable UTF-8 and cut to a bounded length.
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

// The length of the well-formed UTF-8 sequence at s[i] (Unicode 15 §3.9 table 3-7: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 if the bytes there are not one.
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
  const auto at = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned b0 = at(0);
  const auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return at(k) >= lo && at(k) <= hi; };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (b0 == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (b0 >= 0xE1 && b0 <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (b0 == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// s with every byte a terminal or a decoder could trip on written as \xNN: C0 controls, DEL, the C1 controls
// (U+0080..U+009F, which terminals may read as CSI and the like) and bytes outside well-formed UTF-8; a backslash
// is doubled, so the escapes are unambiguous. The result is printable, well-formed UTF-8.
inline std::string escaped_text(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  const auto escape = [&](unsigned char b) {
    out += "\\x";
    out += kHex[b >> 4];
    out += kHex[b & 15];
  };
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence_length(s, i);
    const bool c1 = n == 2 && b == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
    if (n == 0 || c1 || b < 0x20 || b == 0x7F) {
      for (std::size_t k = 0; k < (c1 ? 2u : 1u); ++k) escape(static_cast<unsigned char>(s[i + k]));
      i += c1 ? 2 : 1;
    } else if (b == '\\') {
      out += "\\\\";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

// s itself up to max bytes, else its first bytes and how long it was, as the CLI cuts values: "abc... (5000
// bytes)"; escaped (escaped_text), so that a message never carries raw control bytes or malformed UTF-8.
inline std::string shown_input(std::string_view s, std::size_t max = 80) {
  if (s.size() <= max) return escaped_text(s);
  return escaped_text(s.substr(0, utf8_prefix_length(s, max))) + "... (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace shakedown::internal
