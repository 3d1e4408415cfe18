// Test-only fault injection (SHAKEDOWN_TEST_BREAK=family/name): proves the suites catch a broken backend.
#pragma once

#include <span>

#include "shakedown/backend.h"

namespace shakedown::internal {

// The arch tables, with the victim backend's functions wrapped when the build names one;
// the plain arch tables otherwise. Everything in the registry reads the tables through these.
std::span<const Sha256Backend> sha256_table() noexcept;
std::span<const Sha512Backend> sha512_table() noexcept;
std::span<const KeccakBackend> keccak_table() noexcept;

}  // namespace shakedown::internal
