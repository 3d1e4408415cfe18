// x86-64 feature detection: CPUID leaves 0/1/7 (sub-leaves 0 and 1), XGETBV, and the Centaur leaf 0xC0000001 (PadLock).
#include <cpuid.h>

#include <cstring>

#include "internal/arch.h"
#include "xgetbv.h"

namespace shakedown::internal {
namespace {

struct Regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

Regs cpuid(unsigned leaf, unsigned subleaf = 0) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.a, r.b, r.c, r.d);
  return r;
}

bool bit(unsigned reg, int n) { return (reg >> n) & 1u; }

}  // namespace

void detect_cpu_features(CpuFeatures& f) {
  Regs leaf0 = cpuid(0);
  const unsigned max_leaf = leaf0.a;
  char vendor[13] = {};
  std::memcpy(vendor + 0, &leaf0.b, 4);  // vendor string is EBX, EDX, ECX
  std::memcpy(vendor + 4, &leaf0.d, 4);
  std::memcpy(vendor + 8, &leaf0.c, 4);
  f.vendor = vendor;

  Regs leaf1 = cpuid(1);
  // Display family/model (Intel SDM Vol. 2A, CPUID EAX=1: family 0xF adds the extended family;
  // family 6 or 0xF prepend the extended model).
  unsigned base_family = (leaf1.a >> 8) & 0xF, base_model = (leaf1.a >> 4) & 0xF;
  f.family = base_family == 0xF ? base_family + ((leaf1.a >> 20) & 0xFF) : base_family;
  f.model = (base_family == 6 || base_family == 0xF) ? (((leaf1.a >> 16) & 0xF) << 4) + base_model : base_model;

  f.set(CpuFeature::x86_ssse3, bit(leaf1.c, 9));
  f.set(CpuFeature::x86_sse41, bit(leaf1.c, 19));
  const bool osxsave = bit(leaf1.c, 27);
  const bool avx = bit(leaf1.c, 28);
  unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
  const bool os_ymm = (xcr0 & 0x6) == 0x6;              // SSE (bit 1) and AVX (bit 2) state
  const bool os_zmm = os_ymm && (xcr0 & 0xE0) == 0xE0;  // opmask, ZMM_Hi256, Hi16_ZMM (bits 5-7)
  f.set(CpuFeature::x86_os_ymm, os_ymm);
  f.set(CpuFeature::x86_os_zmm, os_zmm);
  f.set(CpuFeature::x86_avx, avx && os_ymm);

  if (max_leaf >= 7) {
    Regs leaf7 = cpuid(7, 0);
    f.set(CpuFeature::x86_bmi1, bit(leaf7.b, 3));
    f.set(CpuFeature::x86_avx2, bit(leaf7.b, 5));
    f.set(CpuFeature::x86_bmi2, bit(leaf7.b, 8));
    f.set(CpuFeature::x86_avx512f, bit(leaf7.b, 16));
    f.set(CpuFeature::x86_sha_ni, bit(leaf7.b, 29));
    f.set(CpuFeature::x86_avx512bw, bit(leaf7.b, 30));
    f.set(CpuFeature::x86_avx512vl, bit(leaf7.b, 31));
    // Sub-leaf 1 exists only when sub-leaf 0 reports it (EAX = the highest sub-leaf; Intel SDM Vol. 2A, CPUID
    // EAX=07H). SHA512 is EAX bit 0 there; the OS-enabled YMM state it also needs is x86_os_ymm above.
    if (leaf7.a >= 1) f.set(CpuFeature::x86_sha512, bit(cpuid(7, 1).a, 0));
  }

  // Centaur extended leaves exist on VIA and Zhaoxin only (docs/isa/padlock.md §1.4); on other
  // vendors 0xC0000000 returns unrelated data, so check the vendor first.
  if (f.vendor == "CentaurHauls" || f.vendor == "  Shanghai  ") {
    if (cpuid(0xC0000000).a >= 0xC0000001) {
      Regs c1 = cpuid(0xC0000001);
      f.set(CpuFeature::x86_phe, bit(c1.d, 10));
      f.set(CpuFeature::x86_phe_en, bit(c1.d, 11));
      f.set(CpuFeature::x86_phe2, bit(c1.d, 25));
      f.set(CpuFeature::x86_phe2_en, bit(c1.d, 26));
    }
  }
}

}  // namespace shakedown::internal
