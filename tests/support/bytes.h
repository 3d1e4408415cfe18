// Bytes in tests: hex both ways, and deterministic messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shakedown::test {

// Lower-case hex; beyond max_bytes it stops and says how long the input was ("0011... (300 bytes)").
std::string to_hex(std::span<const std::uint8_t> bytes,
                   std::size_t max_bytes = std::numeric_limits<std::size_t>::max());
// Throws std::invalid_argument on odd length or a non-hex character.
std::vector<std::uint8_t> from_hex(std::string_view hex);
// Deterministic test message: byte i of the message of seed s (independent of any hash).
std::vector<std::uint8_t> pattern(std::size_t len, std::uint32_t seed = 0);

}  // namespace shakedown::test
