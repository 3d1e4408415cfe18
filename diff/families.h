// Uniform access to the block-function families for the backend-level checks (docs/design.md "The seam").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shakedown/backend.h"

namespace shakedown::diff {

// SHA-2 families by word type: FamilyTraits plus the row lookup (the block is FamilyTraits' kBlockBytes).
template <class Word>
struct Sha2Family : FamilyTraits<sizeof(Word) == 4 ? Family::sha256 : Family::sha512> {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8);
  using Traits = FamilyTraits<sizeof(Word) == 4 ? Family::sha256 : Family::sha512>;
  static constexpr std::size_t kBlock = Traits::kBlockBytes;
  static const typename Traits::Backend& get(std::string_view name) { return backend<Traits::kFamily>(name); }
};

// Every Keccak sponge rate in use: SHAKE128, SHA3-224, SHA3-256/SHAKE256, SHA3-384, SHA3-512 (FIPS 202 §6).
inline constexpr std::size_t kKeccakRates[] = {168, 144, 136, 104, 72};

}  // namespace shakedown::diff
