// SHA-512 block function on the Zhaoxin PadLock hash engine (PHE2): REP XSHA512, 128-byte blocks.
//
// docs/isa/padlock.md §1. Semantics come only from unmerged Zhaoxin patches (§1.3: the 2024
// "crypto: zhaoxin" series and the 2025 padlock-sha SHA384/SHA512 patch), so the backend row is
// kBackendPinOnly: compiled and testable (emulator, SHAKEDOWN_BACKENDS pin) but never auto-selected.
#include "backend_rows.h"
#include "padlock.h"

namespace shakedown::internal {
namespace {

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  padlock::blocks<std::uint64_t, padlock::rep_xsha512>(h, data, nblocks);
}

// PHE2 (CPUID 0xC0000001 EDX bit 25) and PHE2_EN (bit 26), not in mainline Linux headers (§1.4).
bool available(const CpuFeatures& f) {
  return padlock::zhaoxin_family7(f) && f.has(CpuFeature::x86_phe2) && f.has(CpuFeature::x86_phe2_en);
}

}  // namespace

constinit const Sha512Backend rows::sha512_x86_64_phe2 = {
    {"x86_64/phe2", "Zhaoxin family >= 7 with PHE2 and PHE2_EN", available, kBackendPinOnly | kBackendSelfTest},
    blocks};

}  // namespace shakedown::internal
