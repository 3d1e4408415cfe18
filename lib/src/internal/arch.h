// What each arch/<arch>/ folder provides to the registry: detection and the backend tables.
#pragma once

#include <span>

#include "shakedown/backend.h"
#include "shakedown/cpu.h"

namespace shakedown::internal {

// Fills the features of the running CPU (arch/<arch>/cpu.cc). Runs once per process.
void detect_cpu_features(CpuFeatures& features);

// Preference order, generic last (arch/<arch>/backends.cc is the only place the order is written).
std::span<const Sha256Backend> arch_sha256_table() noexcept;
std::span<const Sha512Backend> arch_sha512_table() noexcept;
std::span<const KeccakBackend> arch_keccak_table() noexcept;

}  // namespace shakedown::internal
