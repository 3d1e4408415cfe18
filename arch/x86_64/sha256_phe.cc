// SHA-256 block function on the Zhaoxin PadLock hash engine: REP XSHA256 in multi-block mode.
//
// docs/isa/padlock.md §1; the same use as Linux commit 44b02a14d993d91ae36409a54941ac5a5ad20b44
// (lib/crypto x86/sha256 PHE): only RAX = -1 multi-block mode, never final mode, never RCX = 0.
#include "backend_rows.h"
#include "padlock.h"

namespace shakedown::internal {
namespace {

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  padlock::blocks<std::uint32_t, padlock::rep_xsha256>(h, data, nblocks);
}

// PHE (CPUID 0xC0000001 EDX bit 10) and PHE_EN (bit 11) on a Zhaoxin family >= 7 (§1.4).
bool available(const CpuFeatures& f) {
  return padlock::zhaoxin_family7(f) && f.has(CpuFeature::x86_phe) && f.has(CpuFeature::x86_phe_en);
}

}  // namespace

// kBackendSelfTest: the padlock driver's self-test failures on family 7 (§1.3) are why; the instruction runs
// only once this row is about to be used (registry.cc).
constinit const Sha256Backend rows::sha256_x86_64_phe = {
    {"x86_64/phe", "Zhaoxin family >= 7 with PHE and PHE_EN", available, kBackendSelfTest}, blocks};

}  // namespace shakedown::internal
