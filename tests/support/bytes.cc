// Hex both ways and deterministic test messages.
#include "bytes.h"

#include <algorithm>
#include <stdexcept>

namespace shakedown::test {

std::string to_hex(std::span<const std::uint8_t> bytes, std::size_t max_bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const std::size_t n = std::min(bytes.size(), max_bytes);
  std::string s;
  s.reserve(2 * n + 24);
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(kDigits[bytes[i] >> 4]);
    s.push_back(kDigits[bytes[i] & 15]);
  }
  if (n < bytes.size()) s += "... (" + std::to_string(bytes.size()) + " bytes)";
  return s;
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("non-hex character '" + std::string(1, c) + "'");
  };
  if (hex.size() % 2) throw std::invalid_argument("odd-length hex string (" + std::to_string(hex.size()) + " digits)");
  std::vector<std::uint8_t> out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return out;
}

std::vector<std::uint8_t> pattern(std::size_t len, std::uint32_t seed) {
  // xorshift32 stream: deterministic, cheap, and unrelated to the hash functions under test.
  std::vector<std::uint8_t> out(len);
  std::uint32_t x = seed * 0x9e3779b9u + 0x6d2b79f5u;
  for (std::size_t i = 0; i < len; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    out[i] = static_cast<std::uint8_t>(x >> 24);
  }
  return out;
}

}  // namespace shakedown::test
