// Feature combinations several x86-64 backend predicates ask for (included before any ISA region: baseline code).
#pragma once

#include "shakedown/cpu.h"

namespace shakedown::internal::x86 {

// 256-bit integer vectors (AVX2) need the OS to save YMM state (XCR0, x86_os_ymm); rorx is BMI2.
inline bool avx2_bmi2(const CpuFeatures& f) {
  return f.has(CpuFeature::x86_avx2) && f.has(CpuFeature::x86_os_ymm) && f.has(CpuFeature::x86_bmi2);
}

// AVX-512F + AVX-512VL on 256-bit registers, which fault unless the OS also saves the opmask and upper ZMM state,
// even though no ZMM register is used (Intel SDM Vol. 1 §15.2: XCR0 must enable all three components).
inline bool avx512vl(const CpuFeatures& f) {
  return avx2_bmi2(f) && f.has(CpuFeature::x86_avx512f) && f.has(CpuFeature::x86_avx512vl) &&
         f.has(CpuFeature::x86_os_zmm);
}

// ... and AVX-512BW for VPSHUFB on 512-bit registers (the multi-lane SHA-2 byte swap).
inline bool avx512bw(const CpuFeatures& f) { return avx512vl(f) && f.has(CpuFeature::x86_avx512bw); }

// Cores whose SHA256RNDS2 issues every cycle, where two interleaved SHA-NI streams outrun sixteen AVX-512 lanes
// (bench/limits.cc: reciprocal throughput 1.00 cycle on an AMD family 19h model 11h, Zen 4, and 0.99 on model
// 01h, Zen 3, against 2.99 on an Intel family 6 model 207; sha256-x16 at 4 KiB 3306 against 3011 MB/s on the
// Zen 4). AMD family 1Ah (Zen 5) is taken to keep it: not measured. The vendor string is CPUID leaf 0's, verbatim.
inline bool sha256rnds2_every_cycle(const CpuFeatures& f) {
  return f.has(CpuFeature::x86_sha_ni) && f.vendor == "AuthenticAMD" && f.family >= 0x19;
}

}  // namespace shakedown::internal::x86
