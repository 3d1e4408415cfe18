// Everything the library knows about an algorithm in one row: name, family, sizes, and its initial value or domain byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shakedown/algorithm.h"

namespace shakedown::internal {

struct AlgorithmSpec {
  Algorithm alg;
  std::string_view name;
  Family family;
  std::size_t digest;
  std::size_t block;             // SHA-2 block; SHA-3 rate = 200 - 2*capacity/8 (FIPS 202 §6)
  bool xof;
  const std::uint32_t* iv32;     // SHA-224/256 initial hash value (FIPS 180-4 §5.3.2, §5.3.3); else null
  const std::uint64_t* iv64;     // SHA-384/512/512-t (§5.3.4 - §5.3.6); else null
  std::uint8_t domain;           // SHA-3 0x06, SHAKE 0x1F: suffix bits and first pad bit (FIPS 202 §6.1, §6.2, B.2)
};

// The row of alg; Errc::unknown_algorithm for a value outside the enumeration.
const AlgorithmSpec& spec(Algorithm alg);

// The eight initial words of a SHA-2 algorithm as the family's word type.
template <class Word>
const Word* initial_value(const AlgorithmSpec& s) noexcept {
  if constexpr (sizeof(Word) == 4) return s.iv32;
  else return s.iv64;
}

}  // namespace shakedown::internal
