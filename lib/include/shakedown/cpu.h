// CPU features as the registry sees them: detected once per process, plus test-only additions.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace shakedown {

// One flag per fact a backend predicate may ask about. Names (feature_name) are the
// spelling used in test overrides and in `shakedown backends` output.
enum class CpuFeature : std::uint8_t {
  // x86-64: CPUID leaf 1 / leaf 7 / XGETBV (Intel SDM Vol. 2A, CPUID; Vol. 1 §13.3).
  x86_ssse3,
  x86_sse41,
  x86_avx,
  x86_avx2,
  x86_bmi1,
  x86_bmi2,
  x86_sha_ni,    // CPUID.(7,0):EBX[29]
  x86_sha512,    // CPUID.(7,1):EAX[0]: VSHA512RNDS2/MSG1/MSG2 (VEX.256: also needs AVX and x86_os_ymm)
  x86_avx512f,
  x86_avx512vl,
  x86_avx512bw,
  x86_os_ymm,    // XCR0 has SSE|AVX state (bits 1,2): the OS saves YMM
  x86_os_zmm,    // XCR0 has opmask|ZMM_Hi256|Hi16_ZMM (bits 5,6,7) as well
  // Centaur leaf 0xC0000001 EDX (specs/instructions.md §1.4).
  x86_phe,       // bit 10
  x86_phe_en,    // bit 11
  x86_phe2,      // bit 25 (Zhaoxin SHA-384/512; not in mainline Linux headers)
  x86_phe2_en,   // bit 26
  // arm64 AT_HWCAP (linux arch/arm64/include/uapi/asm/hwcap.h).
  arm_sha2,      // HWCAP_SHA2   1<<6
  arm_sha512,    // HWCAP_SHA512 1<<21
  arm_sha3,      // HWCAP_SHA3   1<<17
  // riscv64: AT_HWCAP 'V', hwprobe IMA_EXT_0 bits (specs §3.2), scalar Zknh.
  rv_v,
  rv_zknh,
  rv_zvknha,
  rv_zvknhb,
  rv_zvkb,
  // s390x: CPACF KIMD/KLMD query results (specs §2), all-or-nothing per set.
  s390_sha256,   // KIMD and KLMD fc 2
  s390_sha512,   // KIMD and KLMD fc 3
  s390_sha3,     // KIMD and KLMD fc 0x20..0x25 (SHA3-224..512, SHAKE128/256)
  s390_msa12,    // STFLE bit 86: the KLMD "no ICV" (NIP) path
  count_
};

inline constexpr std::size_t kCpuFeatureCount = static_cast<std::size_t>(CpuFeature::count_);

std::string_view feature_name(CpuFeature feature) noexcept;
std::optional<CpuFeature> parse_feature(std::string_view text) noexcept;

struct CpuFeatures {
  std::bitset<kCpuFeatureCount> flags;
  std::string vendor;            // x86 CPUID leaf 0 vendor string, verbatim ("  Shanghai  ")
  unsigned family = 0;           // x86 display family (base + extended)
  unsigned model = 0;            // x86 display model
  unsigned vector_bytes = 0;     // riscv64 vlenb (VLEN/8); 0 when no V
  bool has(CpuFeature f) const noexcept { return flags.test(static_cast<std::size_t>(f)); }
  void set(CpuFeature f, bool on = true) { flags.set(static_cast<std::size_t>(f), on); }
};

// What the registry uses: detected features plus any test override (see testing.h).
const CpuFeatures& cpu_features();

// One line per fact, for `shakedown backends` and test logs.
std::string describe(const CpuFeatures& features);

}  // namespace shakedown
