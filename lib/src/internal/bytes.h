// Endian-explicit loads/stores, rotations and secure zeroization used by framing and backends.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "internal/msan.h"

namespace shakedown::internal {

inline std::uint32_t load_be32(const std::uint8_t* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  return v;
}
inline std::uint64_t load_be64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  return v;
}
inline std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}
inline void store_be32(std::uint8_t* p, std::uint32_t v) noexcept {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}
inline void store_be64(std::uint8_t* p, std::uint64_t v) noexcept {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}
inline void store_le64(std::uint8_t* p, std::uint64_t v) noexcept {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}

// Zeroization the optimizer may not remove: the asm barrier makes the memory observable.
inline void secure_zero(void* p, std::size_t n) noexcept {
  if (n == 0) return;
  std::memset(p, 0, n);
#ifndef SHAKEDOWN_TEST_ASM_FLIP_SECURE_ZERO
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): memory not declared read.
  __asm__ __volatile__("" : : "r"(p));
#endif
}

// Constant-time equality of two equal-length byte strings (no early exit).
inline bool equal_constant_time(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  std::uint8_t diff = 0;
  for (std::size_t i = 0; i < n; ++i) diff |= static_cast<std::uint8_t>(a[i] ^ b[i]);
  const bool secret = msan::take_mark(&diff, sizeof diff);  // MSan checks asm inputs (internal/msan.h)
#ifndef SHAKEDOWN_TEST_ASM_FLIP_EQUAL_CONSTANT_TIME
  __asm__ __volatile__("" : "+r"(diff));
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): diff declared input-only.
  __asm__ __volatile__("" : : "r"(diff));
#endif
  if (secret) msan::poison(&diff, sizeof diff);
  return diff == 0;
}

}  // namespace shakedown::internal
