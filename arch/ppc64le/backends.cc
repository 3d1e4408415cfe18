// ppc64le backend lists in preference order, generic last: the only place the order is written.
// Each row is defined in its backend's file; SHAKEDOWN_ROW(id) is empty for a row this build leaves out.
#include "backend_rows.h"
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

constexpr const Sha256Backend* kSha256[] = {
    SHAKEDOWN_ROW(sha256_ppc64le_vcrypto) & kSha256Generic,
};

constexpr const Sha512Backend* kSha512[] = {
    SHAKEDOWN_ROW(sha512_ppc64le_vcrypto) & kSha512Generic,
};

constexpr const KeccakBackend* kKeccak[] = {
    &kKeccakGeneric,
};

}  // namespace

SHAKEDOWN_ARCH_ROWS(kSha256, kSha512, kKeccak)

}  // namespace shakedown::internal
