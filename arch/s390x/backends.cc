// s390x backend lists in preference order, generic last: the only place the order is written.
// Each row is defined in its backend's file; SHAKEDOWN_ROW(id) is empty for a row this build leaves out.
#include "backend_rows.h"
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

constexpr const Sha256Backend* kSha256[] = {
    SHAKEDOWN_ROW(sha256_s390x_cpacf)
    &kSha256Generic,
};

constexpr const Sha512Backend* kSha512[] = {
    SHAKEDOWN_ROW(sha512_s390x_cpacf)
    &kSha512Generic,
};

constexpr const KeccakBackend* kKeccak[] = {
    SHAKEDOWN_ROW(keccak_s390x_cpacf)
    &kKeccakGeneric,
};

}  // namespace

SHAKEDOWN_ARCH_ROWS(kSha256, kSha512, kKeccak)

}  // namespace shakedown::internal
