// Algorithm identifiers, their parameters, and name parsing for table-driven tools.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "shakedown/export.h"

namespace shakedown {

enum class Algorithm {
  sha224,
  sha256,
  sha384,
  sha512,
  sha512_224,
  sha512_256,
  sha3_224,
  sha3_256,
  sha3_384,
  sha3_512,
  shake128,
  shake256,
};

// Backend families: one block-function seam each (docs/design.md "The seam").
enum class Family { sha256, sha512, keccak };

inline constexpr std::array<Algorithm, 12> kAllAlgorithms = {
    Algorithm::sha224,   Algorithm::sha256,   Algorithm::sha384,     Algorithm::sha512,
    Algorithm::sha512_224, Algorithm::sha512_256, Algorithm::sha3_224, Algorithm::sha3_256,
    Algorithm::sha3_384, Algorithm::sha3_512, Algorithm::shake128,   Algorithm::shake256,
};
inline constexpr std::array<Family, 3> kAllFamilies = {Family::sha256, Family::sha512, Family::keccak};

// Every function below that takes an Algorithm or a Family throws Errc::unknown_algorithm /
// Errc::unknown_family for a value outside the enumeration (e.g. cast from an untrusted integer).

// Canonical lower-case name: "sha512-256", "sha3-256", "shake128".
SHAKEDOWN_API std::string_view name(Algorithm alg);
SHAKEDOWN_API std::string_view name(Family family);

// Case-insensitive; accepts the canonical names plus the common spellings
// "SHA512/256", "sha512_256", "sha3_256". Returns nullopt for anything else.
SHAKEDOWN_API std::optional<Algorithm> parse_algorithm(std::string_view text) noexcept;
SHAKEDOWN_API std::optional<Family> parse_family(std::string_view text) noexcept;
// Throwing variants: Errc::unknown_algorithm / unknown_family, message lists the valid names.
SHAKEDOWN_API Algorithm algorithm_from_name(std::string_view text);
SHAKEDOWN_API Family family_from_name(std::string_view text);

SHAKEDOWN_API Family family_of(Algorithm alg);
SHAKEDOWN_API bool is_xof(Algorithm alg);
// Digest size in bytes; for SHAKE the default output length used by one-shot helpers and
// tools (2x the security strength: 32 for SHAKE128, 64 for SHAKE256).
SHAKEDOWN_API std::size_t digest_size(Algorithm alg);
// Compression-function block size (SHA-2) or sponge rate (SHA-3, FIPS 202 §6), in bytes.
SHAKEDOWN_API std::size_t block_size(Algorithm alg);

inline constexpr std::size_t kMaxDigestSize = 64;
inline constexpr std::size_t kMaxBlockSize = 168;

}  // namespace shakedown
