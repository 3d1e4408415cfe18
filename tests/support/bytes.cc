// Hex both ways and deterministic test messages.
#include "bytes.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "shakedown/hex.h"

namespace shakedown::test {

std::string to_hex(std::span<const std::uint8_t> bytes, std::size_t max_bytes) {
  const std::size_t n = std::min(bytes.size(), max_bytes);
  std::string s = ::shakedown::to_hex(bytes.first(n));
  if (n < bytes.size()) s += "... (" + std::to_string(bytes.size()) + " bytes)";
  return s;
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  if (hex.size() % 2) throw std::invalid_argument("odd-length hex string (" + std::to_string(hex.size()) + " digits)");
  if (auto bytes = parse_hex(hex)) return *std::move(bytes);
  for (char c : hex)
    if (hex_digit_value(c) < 0) throw std::invalid_argument("non-hex character '" + std::string(1, c) + "'");
  throw std::invalid_argument("malformed hex string");  // not reached: parse_hex fails only for the two above
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
