// CPU features as the registry sees them: detected once per process, plus test-only additions.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shakedown/export.h"

namespace shakedown {

// Every fact a backend predicate may ask about, in one table: X(id, name, detected from, what it means).
// The enum, the names (spelling of test overrides and `shakedown backends`), the detection source and the
// description all come from here; a feature is one line. Sources: Intel SDM Vol. 2A "CPUID" and Vol. 1 §13.3
// (XCR0); docs/isa/padlock.md §1.4 (Centaur leaf); linux arch/arm64/include/uapi/asm/hwcap.h; docs/isa/
// riscv-crypto.md §3.4 (AT_HWCAP, riscv_hwprobe IMA_EXT_0); docs/isa/cpacf.md §2.4 (query, STFLE).
#define SHAKEDOWN_CPU_FEATURES(X)                                                                             \
  X(x86_ssse3, "ssse3", "CPUID.1:ECX[9]", "SSSE3: PSHUFB, PALIGNR")                                           \
  X(x86_sse41, "sse4_1", "CPUID.1:ECX[19]", "SSE4.1: PBLENDW")                                                \
  X(x86_avx, "avx", "CPUID.1:ECX[28] and OS YMM state", "AVX: VEX encodings")                                 \
  X(x86_avx2, "avx2", "CPUID.(7,0):EBX[5]", "AVX2: 256-bit integer vectors")                                  \
  X(x86_bmi1, "bmi1", "CPUID.(7,0):EBX[3]", "BMI1: ANDN")                                                     \
  X(x86_bmi2, "bmi2", "CPUID.(7,0):EBX[8]", "BMI2: RORX, SHRX")                                               \
  X(x86_sha_ni, "sha_ni", "CPUID.(7,0):EBX[29]", "SHA-NI: SHA256RNDS2, SHA256MSG1/2")                         \
  X(x86_sha512, "sha512", "CPUID.(7,1):EAX[0]", "SHA512: VSHA512RNDS2, VSHA512MSG1/2 (VEX.256)")              \
  X(x86_avx512f, "avx512f", "CPUID.(7,0):EBX[16]", "AVX-512 Foundation")                                      \
  X(x86_avx512vl, "avx512vl", "CPUID.(7,0):EBX[31]", "AVX-512 on 128/256-bit registers: VPRORQ, VPTERNLOGQ")  \
  X(x86_avx512bw, "avx512bw", "CPUID.(7,0):EBX[30]", "AVX-512 byte and word operations")                      \
  X(x86_os_ymm, "os_ymm", "XCR0[2:1] = 11b (OSXSAVE)", "the OS saves SSE and AVX state")                      \
  X(x86_os_zmm, "os_zmm", "XCR0[7:5] = 111b as well", "the OS saves opmask and ZMM state")                    \
  X(x86_phe, "phe", "CPUID.C0000001H:EDX[10]", "PadLock hash engine present (VIA, Zhaoxin)")                  \
  X(x86_phe_en, "phe_en", "CPUID.C0000001H:EDX[11]", "PadLock hash engine enabled")                           \
  X(x86_phe2, "phe2", "CPUID.C0000001H:EDX[25]", "Zhaoxin PHE2: XSHA384/XSHA512 present")                     \
  X(x86_phe2_en, "phe2_en", "CPUID.C0000001H:EDX[26]", "Zhaoxin PHE2 enabled")                                \
  X(arm_sha2, "arm_sha2", "AT_HWCAP[6] HWCAP_SHA2", "Armv8 SHA256H/H2/SU0/SU1")                               \
  X(arm_sha512, "arm_sha512", "AT_HWCAP[21] HWCAP_SHA512", "Armv8.2 SHA512H/H2/SU0/SU1")                      \
  X(arm_sha3, "arm_sha3", "AT_HWCAP[17] HWCAP_SHA3", "Armv8.2 EOR3, RAX1, XAR, BCAX")                         \
  X(rv_v, "rv_v", "AT_HWCAP['V' - 'A'] or hwprobe IMA_V", "RISC-V vector extension V 1.0")                    \
  X(rv_zknh, "rv_zknh", "hwprobe IMA_EXT_0[13]", "RISC-V scalar SHA-2 sigma/sum instructions")                \
  X(rv_zvknha, "rv_zvknha", "hwprobe IMA_EXT_0[22]", "RISC-V vector SHA-256 (vsha2ms/ch/cl, SEW 32)")         \
  X(rv_zvknhb, "rv_zvknhb", "hwprobe IMA_EXT_0[23]", "RISC-V vector SHA-256 and SHA-512 (SEW 32 and 64)")     \
  X(rv_zvkb, "rv_zvkb", "hwprobe IMA_EXT_0[19]", "RISC-V vector bit manipulation: vrev8, vror, vandn")        \
  X(s390_sha256, "s390_sha256", "KIMD and KLMD query: function 2", "CPACF SHA-256")                           \
  X(s390_sha512, "s390_sha512", "KIMD and KLMD query: function 3", "CPACF SHA-512")                           \
  X(s390_sha3, "s390_sha3", "KIMD and KLMD query: functions 0x20..0x25", "CPACF SHA-3 and SHAKE")             \
  X(s390_msa12, "s390_msa12", "STFLE facility 86", "MSA 12: KLMD without ICV (NIP)")                          \
  X(ppc_vsx, "ppc_vsx", "AT_HWCAP[7] PPC_FEATURE_HAS_VSX", "POWER VSX: lxvd2x/stxvd2x, 64 128-bit registers") \
  X(ppc_vec_crypto, "ppc_vec_crypto", "AT_HWCAP2[25] PPC_FEATURE2_VEC_CRYPTO",                                \
    "POWER8 vector crypto (ISA 2.07): vshasigmaw, vshasigmad")

enum class CpuFeature : std::uint8_t {
#define SHAKEDOWN_CPU_FEATURE_ENUM(id, name, source, description) id,
  SHAKEDOWN_CPU_FEATURES(SHAKEDOWN_CPU_FEATURE_ENUM)
#undef SHAKEDOWN_CPU_FEATURE_ENUM
      count_
};

inline constexpr std::size_t kCpuFeatureCount = static_cast<std::size_t>(CpuFeature::count_);

SHAKEDOWN_API std::string_view feature_name(CpuFeature feature) noexcept;
// Where detection reads the feature ("CPUID.(7,0):EBX[29]") and what it means, for `shakedown backends`.
SHAKEDOWN_API std::string_view feature_source(CpuFeature feature) noexcept;
SHAKEDOWN_API std::string_view feature_description(CpuFeature feature) noexcept;
SHAKEDOWN_API std::optional<CpuFeature> parse_feature(std::string_view text) noexcept;

struct CpuFeatures {
  std::bitset<kCpuFeatureCount> flags;
  std::string vendor;         // x86 CPUID leaf 0 vendor string, verbatim ("  Shanghai  ")
  unsigned family = 0;        // x86 display family (base + extended)
  unsigned model = 0;         // x86 display model
  unsigned vector_bytes = 0;  // riscv64 vlenb (VLEN/8); 0 when no V
  bool has(CpuFeature f) const noexcept { return flags.test(static_cast<std::size_t>(f)); }
  void set(CpuFeature f, bool on = true) { flags.set(static_cast<std::size_t>(f), on); }
};

// What the registry uses: detected features plus any test-only override (the shakedown::testing library, which
// applications never link: docs/abi.md).
SHAKEDOWN_API const CpuFeatures& cpu_features();

// One line per fact, for `shakedown backends` and test logs.
SHAKEDOWN_API std::string describe(const CpuFeatures& features);

}  // namespace shakedown
