// s390x backend tables in preference order, generic last: the only place the order is written.
#include "internal/arch.h"
#include "internal/generic.h"
#include "s390x_backends.h"

namespace shakedown::internal {
namespace {

// Pure predicates over the KIMD/KLMD query results (cpu.cc) or the test override.
[[maybe_unused]] bool has_sha256(const CpuFeatures& f) { return f.has(CpuFeature::s390_sha256); }
[[maybe_unused]] bool has_sha512(const CpuFeatures& f) { return f.has(CpuFeature::s390_sha512); }
[[maybe_unused]] bool has_sha3(const CpuFeatures& f) { return f.has(CpuFeature::s390_sha3); }

constexpr Sha256Backend kSha256Table[] = {
#ifdef SHAKEDOWN_S390X_CPACF
    {{"s390x/cpacf", "KIMD/KLMD-SHA-256 (MSA extension 1)", has_sha256, kBackendDefault},
     sha256_blocks_s390x_cpacf},
#endif
    kSha256Generic,
};

constexpr Sha512Backend kSha512Table[] = {
#ifdef SHAKEDOWN_S390X_CPACF
    {{"s390x/cpacf", "KIMD/KLMD-SHA-512 (MSA extension 2)", has_sha512, kBackendDefault},
     sha512_blocks_s390x_cpacf},
#endif
    kSha512Generic,
};

constexpr KeccakBackend kKeccakTable[] = {
#ifdef SHAKEDOWN_S390X_CPACF
    {{"s390x/cpacf", "KIMD/KLMD SHA3-224..512 and SHAKE128/256 (MSA extension 6)", has_sha3, kBackendDefault},
     keccak_permute_s390x_cpacf, keccak_absorb_s390x_cpacf, keccak_digest_s390x_cpacf},
#endif
    kKeccakGeneric,
};

}  // namespace

std::span<const Sha256Backend> arch_sha256_table() noexcept { return kSha256Table; }
std::span<const Sha512Backend> arch_sha512_table() noexcept { return kSha512Table; }
std::span<const KeccakBackend> arch_keccak_table() noexcept { return kKeccakTable; }

}  // namespace shakedown::internal
