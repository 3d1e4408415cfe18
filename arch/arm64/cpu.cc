// arm64 feature detection: the kernel's AT_HWCAP bits (the EL0-visible ID registers are not needed).
#include <sys/auxv.h>

#include "internal/arch.h"

namespace shakedown::internal {
namespace {

// linux arch/arm64/include/uapi/asm/hwcap.h. Spelled out (not taken from <asm/hwcap.h>) so the file
// also builds against older kernel headers; the values are ABI and never change.
constexpr unsigned long kHwcapSha2 = 1ul << 6;     // SHA256H, SHA256H2, SHA256SU0, SHA256SU1
constexpr unsigned long kHwcapSha3 = 1ul << 17;    // EOR3, RAX1, XAR, BCAX
constexpr unsigned long kHwcapSha512 = 1ul << 21;  // SHA512H, SHA512H2, SHA512SU0, SHA512SU1

}  // namespace

void detect_cpu_features(CpuFeatures& f) {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  f.set(CpuFeature::arm_sha2, (hwcap & kHwcapSha2) != 0);
  f.set(CpuFeature::arm_sha3, (hwcap & kHwcapSha3) != 0);
  f.set(CpuFeature::arm_sha512, (hwcap & kHwcapSha512) != 0);
}

}  // namespace shakedown::internal
