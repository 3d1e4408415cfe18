// s390x feature detection: AT_HWCAP for MSA and STFLE, STFLE facility bits, then the KIMD/KLMD query vectors.
#include <sys/auxv.h>

#include <cstdint>
#include <initializer_list>

#include "cpacf.h"
#include "internal/arch.h"
#include "stfle.h"

namespace shakedown::internal {
namespace {

// linux arch/s390/include/uapi/asm/elf.h (glibc bits/hwcap.h); spelled out, the values are ABI.
constexpr unsigned long kHwcapStfle = 4;  // HWCAP_S390_STFLE: STORE FACILITY LIST EXTENDED is usable
constexpr unsigned long kHwcapMsa = 8;    // HWCAP_S390_MSA: message-security assist (KIMD/KLMD exist)

// Facility 86: MSA extension 12, the NIP/DUFOP "no ICV processing" path (docs/isa/cpacf.md §2.4; OpenSSL s390x_arch.h).
constexpr unsigned kFacilityMsa12 = 86;

// Facility bits 0..127 (two doublewords of STFLE).
bool facility(unsigned bit) {
  std::uint64_t list[2] = {};
  stfle(list);
  return (list[bit / 64] >> (63 - bit % 64)) & 1;  // bit 0 is the most significant bit of the first doubleword
}

// A function set counts only when both KIMD and KLMD list every one of its codes (all-or-nothing, like
// linux lib/crypto/s390/sha3.h).
bool both_have(const std::uint8_t kimd[], const std::uint8_t klmd[], std::initializer_list<std::uint64_t> fcs) {
  for (std::uint64_t fc : fcs)
    if (!cpacf::has_function(kimd, fc) || !cpacf::has_function(klmd, fc)) return false;
  return true;
}

}  // namespace

void detect_cpu_features(CpuFeatures& f) {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  if (hwcap & kHwcapStfle) f.set(CpuFeature::s390_msa12, facility(kFacilityMsa12));
  if (!(hwcap & kHwcapMsa)) return;  // KIMD/KLMD would raise an operation exception
  // Under QEMU the query is answered by QEMU itself and cannot be trapped: emulated functions are enabled with
  // the test override (SHAKEDOWN_TEST_ASSUME=s390_sha256,s390_sha3), never here.
  std::uint8_t kimd[cpacf::kQueryBytes], klmd[cpacf::kQueryBytes];
  cpacf::query<cpacf::kKimd>(kimd);
  cpacf::query<cpacf::kKlmd>(klmd);
  f.set(CpuFeature::s390_sha256, both_have(kimd, klmd, {cpacf::kSha256}));
  f.set(CpuFeature::s390_sha512, both_have(kimd, klmd, {cpacf::kSha512}));
  f.set(CpuFeature::s390_sha3, both_have(kimd, klmd, {cpacf::kSha3_224, cpacf::kSha3_256, cpacf::kSha3_384,
                                                      cpacf::kSha3_512, cpacf::kShake128, cpacf::kShake256}));
}

}  // namespace shakedown::internal
