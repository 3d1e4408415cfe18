// Arch layer for targets without an arch/ folder: no detection, generic backends only.
#include "backend_rows.h"
#include "internal/arch.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

constexpr const Sha256Backend* kSha256[] = {&kSha256Generic};
constexpr const Sha512Backend* kSha512[] = {&kSha512Generic};
constexpr const KeccakBackend* kKeccak[] = {&kKeccakGeneric};

}  // namespace

void detect_cpu_features(CpuFeatures&) {}

SHAKEDOWN_ARCH_ROWS(kSha256, kSha512, kKeccak)

}  // namespace shakedown::internal
