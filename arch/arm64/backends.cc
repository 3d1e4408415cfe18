// arm64 backend tables in preference order, generic last: the only place the order is written.
#include "arm64_backends.h"
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

// Pure predicates over the HWCAP bits (cpu.cc). Cortex-A72 and Neoverse-N1 report SHA2 only, so
// there the SHA-512 and Keccak tables fall through to generic.
[[maybe_unused]] bool has_sha2(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha2); }
[[maybe_unused]] bool has_sha512(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha512); }
[[maybe_unused]] bool has_sha3(const CpuFeatures& f) { return f.has(CpuFeature::arm_sha3); }

constexpr Sha256Backend kSha256Table[] = {
#ifdef SHAKEDOWN_ARM64_SHA2
    {{"arm64/ce", "FEAT_SHA256 (HWCAP_SHA2)", has_sha2, kBackendDefault}, sha256_blocks_arm64_ce},
#endif
    kSha256Generic,
};

constexpr Sha512Backend kSha512Table[] = {
#ifdef SHAKEDOWN_ARM64_SHA512
    {{"arm64/sha512", "FEAT_SHA512 (HWCAP_SHA512)", has_sha512, kBackendDefault}, sha512_blocks_arm64_sha512},
#endif
    kSha512Generic,
};

constexpr KeccakBackend kKeccakTable[] = {
#ifdef SHAKEDOWN_ARM64_SHA3
    // permute only: the framing XORs the rate bytes (keccak_xor_bytes) between permutations.
    {{"arm64/sha3", "FEAT_SHA3 (HWCAP_SHA3)", has_sha3, kBackendDefault}, keccak_permute_arm64_sha3, nullptr,
     nullptr},
#endif
    kKeccakGeneric,
};

}  // namespace

std::span<const Sha256Backend> arch_sha256_table() noexcept { return kSha256Table; }
std::span<const Sha512Backend> arch_sha512_table() noexcept { return kSha512Table; }
std::span<const KeccakBackend> arch_keccak_table() noexcept { return kKeccakTable; }

}  // namespace shakedown::internal
