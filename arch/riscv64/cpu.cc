// riscv64 feature detection: AT_HWCAP 'V', vlenb, and riscv_hwprobe for the Zk*/Zvk* extensions.
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include "internal/arch.h"
#include "vlenb.h"

namespace shakedown::internal {
namespace {

// AT_HWCAP has one bit per single-letter extension, 'V' - 'A' = 21 (docs/isa/riscv-crypto.md §3.4).
constexpr unsigned long kHwcapV = 1ul << ('V' - 'A');

// riscv_hwprobe(2): syscall 258, key RISCV_HWPROBE_KEY_IMA_EXT_0 = 4 (linux arch/riscv/include/uapi/asm/
// hwprobe.h, docs/isa/riscv-crypto.md §3.4). Spelled out: Debian 12's kernel headers (6.1) predate the syscall.
constexpr long kSysRiscvHwprobe = 258;
constexpr std::int64_t kHwprobeKeyImaExt0 = 4;
constexpr std::uint64_t kImaV = 1ull << 2;
constexpr std::uint64_t kExtZknh = 1ull << 13;
constexpr std::uint64_t kExtZvkb = 1ull << 19;
constexpr std::uint64_t kExtZvknha = 1ull << 22;
constexpr std::uint64_t kExtZvknhb = 1ull << 23;

struct HwprobePair {
  std::int64_t key;
  std::uint64_t value;
};
static_assert(sizeof(HwprobePair) == 16, "struct riscv_hwprobe is {s64 key; u64 value}");

// The IMA_EXT_0 bits, or nullopt-like 0 with ok = false where the syscall is missing: QEMU 7.2
// linux-user and kernels before 6.4 return ENOSYS (docs/isa/riscv-crypto.md §3.4), so Zknh/Zvk* stay off there and
// only the test override (SHAKEDOWN_TEST_ASSUME) can enable them.
bool hwprobe_ima_ext0(std::uint64_t& bits) {
  HwprobePair pair{kHwprobeKeyImaExt0, 0};
  // (pairs, pair_count, cpusetsize, cpus, flags): cpusetsize 0 and cpus null ask about all CPUs.
  if (syscall(kSysRiscvHwprobe, &pair, 1, 0, nullptr, 0) != 0) return false;
  if (pair.key != kHwprobeKeyImaExt0) return false;  // the kernel sets key = -1 for keys it does not know
  bits = pair.value;
  return true;
}

}  // namespace

void detect_cpu_features(CpuFeatures& f) {
  bool has_v = (getauxval(AT_HWCAP) & kHwcapV) != 0;
  std::uint64_t ext = 0;
  if (hwprobe_ima_ext0(ext)) {
    has_v = has_v && (ext & kImaV) != 0;
    f.set(CpuFeature::rv_zknh, (ext & kExtZknh) != 0);
    f.set(CpuFeature::rv_zvkb, (ext & kExtZvkb) != 0);
    f.set(CpuFeature::rv_zvknha, (ext & kExtZvknha) != 0);
    f.set(CpuFeature::rv_zvknhb, (ext & kExtZvknhb) != 0);
  }
  f.set(CpuFeature::rv_v, has_v);
  if (has_v) f.vector_bytes = static_cast<unsigned>(read_vlenb());
}

}  // namespace shakedown::internal
