// Arch layer for targets without an arch/ folder: no detection, generic backends only.
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {

void detect_cpu_features(CpuFeatures&) {}

std::span<const Sha256Backend> arch_sha256_table() noexcept { return {&kSha256Generic, 1}; }
std::span<const Sha512Backend> arch_sha512_table() noexcept { return {&kSha512Generic, 1}; }
std::span<const KeccakBackend> arch_keccak_table() noexcept { return {&kKeccakGeneric, 1}; }

}  // namespace shakedown::internal
