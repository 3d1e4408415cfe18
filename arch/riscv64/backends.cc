// riscv64 backend tables in preference order, generic last: the only place the order is written.
#include "internal/arch.h"
#include "internal/generic.h"
#include "riscv64_backends.h"

namespace shakedown::internal {
namespace {

// Pure predicates (cpu.cc fills the features; under QEMU 7.2 only the test override can supply Zknh and
// Zvk*, see CMakeLists.txt). The vector backends need V itself, their extensions, Zvkb for vrev8, and
// VLEN >= 128, the minimum the element groups fit in (SHA-256 LMUL 1, SHA-512 LMUL 2; docs/isa/riscv-crypto.md §3.2.1) and the
// bound Linux lib/crypto/riscv uses.
[[maybe_unused]] bool has_vlen128(const CpuFeatures& f) {
  return f.has(CpuFeature::rv_v) && f.vector_bytes >= 16 && f.has(CpuFeature::rv_zvkb);
}
// SHA-256 (SEW 32) is in Zvknha and in Zvknhb (its superset).
[[maybe_unused]] bool has_zvknha(const CpuFeatures& f) {
  return has_vlen128(f) && (f.has(CpuFeature::rv_zvknha) || f.has(CpuFeature::rv_zvknhb));
}
// SHA-512 (SEW 64) is reserved under Zvknha alone.
[[maybe_unused]] bool has_zvknhb(const CpuFeatures& f) { return has_vlen128(f) && f.has(CpuFeature::rv_zvknhb); }
[[maybe_unused]] bool has_zknh(const CpuFeatures& f) { return f.has(CpuFeature::rv_zknh); }

constexpr Sha256Backend kSha256Table[] = {
#ifdef SHAKEDOWN_RISCV64_ZVK
    {{"riscv64/zvknha", "V with VLEN >= 128, Zvknha or Zvknhb, and Zvkb", has_zvknha, kBackendDefault},
     sha256_blocks_riscv64_zvknha},
#endif
#ifdef SHAKEDOWN_RISCV64_ZKNH
    {{"riscv64/zknh", "Zknh (scalar SHA-2)", has_zknh, kBackendDefault}, sha256_blocks_riscv64_zknh},
#endif
    kSha256Generic,
};

constexpr Sha512Backend kSha512Table[] = {
#ifdef SHAKEDOWN_RISCV64_ZVK
    {{"riscv64/zvknhb", "V with VLEN >= 128, Zvknhb and Zvkb", has_zvknhb, kBackendDefault},
     sha512_blocks_riscv64_zvknhb},
#endif
#ifdef SHAKEDOWN_RISCV64_ZKNH
    {{"riscv64/zknh", "Zknh (scalar SHA-2)", has_zknh, kBackendDefault}, sha512_blocks_riscv64_zknh},
#endif
    kSha512Generic,
};

}  // namespace

std::span<const Sha256Backend> arch_sha256_table() noexcept { return kSha256Table; }
std::span<const Sha512Backend> arch_sha512_table() noexcept { return kSha512Table; }
std::span<const KeccakBackend> arch_keccak_table() noexcept { return {&kKeccakGeneric, 1}; }

}  // namespace shakedown::internal
