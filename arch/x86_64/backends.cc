// x86-64 backend tables in preference order, generic last: the only place the order is written.
#include "internal/arch.h"
#include "internal/generic.h"
#include "x86_backends.h"

namespace shakedown::internal {
namespace {

constexpr Sha256Backend kSha256Table[] = {
#ifdef SHAKEDOWN_X86_SHANI
    {{"x86_64/shani", "SHA-NI, SSE4.1 and SSSE3", sha256_shani_available, kBackendDefault}, sha256_blocks_shani},
#endif
#ifdef SHAKEDOWN_X86_PHE  // after SHA-NI, before AVX2 (as the Linux PHE patch orders it)
    {{"x86_64/phe", "Zhaoxin family >= 7 with PHE and PHE_EN", sha256_phe_available, kBackendSelfTest},
     sha256_blocks_phe},
#endif
#ifdef SHAKEDOWN_X86_AVX2
    {{"x86_64/avx2", "AVX2, BMI2 and OS-enabled YMM state", sha2_avx2_available, kBackendDefault},
     sha256_blocks_avx2},
#endif
    kSha256Generic,
};

constexpr Sha512Backend kSha512Table[] = {
#ifdef SHAKEDOWN_X86_SHA512NI  // self-tested: verified here only through the emul/ model
    {{"x86_64/sha512ni", "SHA512 (VSHA512*), AVX2 and OS-enabled YMM state", sha512_sha512ni_available,
      kBackendSelfTest},
     sha512_blocks_sha512ni},
#endif
#ifdef SHAKEDOWN_X86_AVX512
    {{"x86_64/avx512", "AVX-512F/VL, BMI2 and OS-enabled ZMM state", sha512_avx512_available, kBackendDefault},
     sha512_blocks_avx512},
#endif
#ifdef SHAKEDOWN_X86_AVX2
    {{"x86_64/avx2", "AVX2, BMI2 and OS-enabled YMM state", sha2_avx2_available, kBackendDefault},
     sha512_blocks_avx2},
#endif
#ifdef SHAKEDOWN_X86_PHE  // pin-only: XSHA512 semantics come from unmerged vendor patches
    {{"x86_64/phe2", "Zhaoxin family >= 7 with PHE2 and PHE2_EN", sha512_phe2_available,
      kBackendPinOnly | kBackendSelfTest},
     sha512_blocks_phe2},
#endif
    kSha512Generic,
};

constexpr KeccakBackend kKeccakTable[] = {
#ifdef SHAKEDOWN_X86_BMI2
    {{"x86_64/bmi2", "BMI1 and BMI2 (ANDN, RORX)", keccak_bmi2_available, kBackendDefault},
     keccak_permute_bmi2, keccak_absorb_bmi2, nullptr},
#endif
    kKeccakGeneric,
};

}  // namespace

std::span<const Sha256Backend> arch_sha256_table() noexcept { return kSha256Table; }
std::span<const Sha512Backend> arch_sha512_table() noexcept { return kSha512Table; }
std::span<const KeccakBackend> arch_keccak_table() noexcept { return kKeccakTable; }

}  // namespace shakedown::internal
