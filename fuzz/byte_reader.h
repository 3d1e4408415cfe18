// Consumes a fuzz input front to back; every read is total (zeros past the end) so any input decodes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace shakedown::fuzz {

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> input) : input_(input) {}

  std::size_t remaining() const noexcept { return input_.size() - pos_; }
  bool exhausted() const noexcept { return remaining() == 0; }

  std::uint8_t u8() noexcept { return exhausted() ? 0 : input_[pos_++]; }
  // Little-endian. Two statements: the operands of | are unsequenced, so u8() | (u8() << 8) may read the bytes
  // in either order, and a libFuzzer build (clang) and shakedown-repro (gcc) could decode one input differently.
  std::uint16_t u16() noexcept {
    const unsigned lo = u8();
    const unsigned hi = u8();
    return static_cast<std::uint16_t>(lo | (hi << 8));
  }
  // Up to n bytes (fewer at the end of the input).
  std::vector<std::uint8_t> bytes(std::size_t n) {
    n = std::min(n, remaining());
    std::vector<std::uint8_t> out(input_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                  input_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
    pos_ += n;
    return out;
  }
  std::vector<std::uint8_t> rest() { return bytes(remaining()); }

 private:
  std::span<const std::uint8_t> input_;
  std::size_t pos_ = 0;
};

}  // namespace shakedown::fuzz
