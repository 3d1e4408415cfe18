// x86-64 backend lists in preference order, generic last: the only place the order is written.
// Each row is defined in its backend's file; SHAKEDOWN_ROW(id) is empty for a row this build leaves out.
#include "backend_rows.h"
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

constexpr const Sha256Backend* kSha256[] = {
    // Many-only: 16 lanes outrun two SHA-NI streams from about 10 messages where SHA256RNDS2 is slow (its ahead_on;
    // bench/), one SHA-NI stream does not.
    SHAKEDOWN_ROW(sha256_x86_64_avx512)
    SHAKEDOWN_ROW(sha256_x86_64_shani)
    SHAKEDOWN_ROW(sha256_x86_64_phe)  // after SHA-NI, before AVX2 (as the Linux PHE patch orders it)
    SHAKEDOWN_ROW(sha256_x86_64_avx2)
    &kSha256Generic,
};

constexpr const Sha512Backend* kSha512[] = {
    SHAKEDOWN_ROW(sha512_x86_64_sha512ni)  // self-tested: verified here only through the emul/ model
    SHAKEDOWN_ROW(sha512_x86_64_avx512)
    SHAKEDOWN_ROW(sha512_x86_64_avx512vl)  // four lanes below avx512's five busy: its lanes on 256-bit registers
    SHAKEDOWN_ROW(sha512_x86_64_avx2)
    SHAKEDOWN_ROW(sha512_x86_64_phe2)  // pin-only: XSHA512 semantics come from unmerged vendor patches
    &kSha512Generic,
};

constexpr const KeccakBackend* kKeccak[] = {
    SHAKEDOWN_ROW(keccak_x86_64_bmi2)
    // Multi-lane only: their single-state code is x86_64/bmi2's, so they come after it and take hash_many().
    SHAKEDOWN_ROW(keccak_x86_64_avx512)
    SHAKEDOWN_ROW(keccak_x86_64_avx512vl)  // four lanes below avx512's five busy: its lanes on 256-bit registers
    SHAKEDOWN_ROW(keccak_x86_64_avx2)
    &kKeccakGeneric,
};

}  // namespace

SHAKEDOWN_ARCH_ROWS(kSha256, kSha512, kKeccak)

}  // namespace shakedown::internal
