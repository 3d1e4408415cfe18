// Uniform access to the block-function families for the backend-level checks (docs/design.md "The seam").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shakedown/backend.h"

namespace shakedown::diff {

// SHA-2 families by word type: block size (FIPS 180-4 §5.1.1 / §5.1.2) and the backend lookup.
template <class Word>
struct Sha2Family;

template <>
struct Sha2Family<std::uint32_t> {
  using Backend = Sha256Backend;
  static constexpr Family kFamily = Family::sha256;
  static constexpr std::size_t kBlock = 64;
  static const Backend& get(std::string_view name) { return sha256_backend(name); }
};

template <>
struct Sha2Family<std::uint64_t> {
  using Backend = Sha512Backend;
  static constexpr Family kFamily = Family::sha512;
  static constexpr std::size_t kBlock = 128;
  static const Backend& get(std::string_view name) { return sha512_backend(name); }
};

// Every Keccak sponge rate in use: SHAKE128, SHA3-224, SHA3-256/SHAKE256, SHA3-384, SHA3-512 (FIPS 202 §6).
inline constexpr std::size_t kKeccakRates[] = {168, 144, 136, 104, 72};

}  // namespace shakedown::diff
