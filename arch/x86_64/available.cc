// Availability predicates of the x86-64 SHA-2 and Keccak backends: pure functions of the detected features.
//
// Kept apart from the backend files on purpose: those are compiled with ISA flags (-mavx2, -msha,
// ...), and a predicate runs exactly on the CPUs that may lack those instructions.
#include "x86_backends.h"

namespace shakedown::internal {

bool sha256_shani_available(const CpuFeatures& f) {
  // sha256rnds2/msg1/msg2 (SHA), pblendw (SSE4.1), pshufb/palignr (SSSE3).
  return f.has(CpuFeature::x86_sha_ni) && f.has(CpuFeature::x86_sse41) && f.has(CpuFeature::x86_ssse3);
}

bool sha2_avx2_available(const CpuFeatures& f) {
  // 256-bit integer ops (AVX2) need the OS to save YMM state (XCR0, x86_os_ymm); rorx is BMI2.
  return f.has(CpuFeature::x86_avx2) && f.has(CpuFeature::x86_os_ymm) && f.has(CpuFeature::x86_bmi2);
}

bool sha512_avx512_available(const CpuFeatures& f) {
  // vprorq/vpternlogq on 256-bit registers: AVX512F + AVX512VL, and the OS must save the opmask
  // and upper ZMM state even though only YMM registers are used (Intel SDM Vol. 1 §15.2: AVX-512
  // instructions fault unless XCR0 enables all three components).
  return sha2_avx2_available(f) && f.has(CpuFeature::x86_avx512f) && f.has(CpuFeature::x86_avx512vl) &&
         f.has(CpuFeature::x86_os_zmm);
}

bool keccak_bmi2_available(const CpuFeatures& f) {
  // andn (BMI1) and rorx (BMI2); the permutation is scalar, so no OS vector-state requirement.
  return f.has(CpuFeature::x86_bmi1) && f.has(CpuFeature::x86_bmi2);
}

}  // namespace shakedown::internal
