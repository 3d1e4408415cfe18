// SHA-256 block function on the Zhaoxin PadLock hash engine: REP XSHA256 in multi-block mode.
//
// docs/isa/padlock.md §1; the same use as Linux commit 44b02a14d993d91ae36409a54941ac5a5ad20b44
// (lib/crypto x86/sha256 PHE): only RAX = -1 multi-block mode, never final mode, never RCX = 0.
#include "padlock.h"
#include "x86_backends.h"

namespace shakedown::internal {

void sha256_blocks_phe(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  padlock::blocks<std::uint32_t, padlock::rep_xsha256>(h, data, nblocks);
}

// PHE (CPUID 0xC0000001 EDX bit 10) and PHE_EN (bit 11) on a Zhaoxin family >= 7 (§1.4). The row is
// flagged kBackendSelfTest: the padlock driver's self-test failures on family 7 (§1.3) are why.
bool sha256_phe_available(const CpuFeatures& f) {
  return padlock::zhaoxin_family7(f) && f.has(CpuFeature::x86_phe) && f.has(CpuFeature::x86_phe_en);
}

}  // namespace shakedown::internal
