// ppc64le feature detection: the kernel's AT_HWCAP and AT_HWCAP2 words (the PVR says which core, not which
// facilities the kernel enabled).
#include <sys/auxv.h>

#include "internal/arch.h"

namespace shakedown::internal {
namespace {

// linux arch/powerpc/include/uapi/asm/cputable.h. Spelled out (not taken from <asm/cputable.h>) so the file
// also builds against older kernel headers; the values are ABI and never change.
constexpr unsigned long kHwcapVsx = 0x00000080ul;         // PPC_FEATURE_HAS_VSX: the VSX load/store forms
constexpr unsigned long kHwcap2VecCrypto = 0x02000000ul;  // PPC_FEATURE2_VEC_CRYPTO: vshasigmaw/d (ISA 2.07)

}  // namespace

void detect_cpu_features(CpuFeatures& f) {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  f.set(CpuFeature::ppc_vsx, (hwcap & kHwcapVsx) != 0);
  f.set(CpuFeature::ppc_vec_crypto, (hwcap2 & kHwcap2VecCrypto) != 0);
}

}  // namespace shakedown::internal
