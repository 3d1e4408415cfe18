// x86-64 backend tables in preference order, generic last: the only place the order is written.
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

constexpr Sha256Backend kSha256Table[] = {
    kSha256Generic,
};

constexpr Sha512Backend kSha512Table[] = {
    kSha512Generic,
};

constexpr KeccakBackend kKeccakTable[] = {
    kKeccakGeneric,
};

}  // namespace

std::span<const Sha256Backend> arch_sha256_table() noexcept { return kSha256Table; }
std::span<const Sha512Backend> arch_sha512_table() noexcept { return kSha512Table; }
std::span<const KeccakBackend> arch_keccak_table() noexcept { return kKeccakTable; }

}  // namespace shakedown::internal
