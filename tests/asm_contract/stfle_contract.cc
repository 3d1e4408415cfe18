// Contract of STFLE (arch/s390x/stfle.h): reads GR0, stores the facility list, replaces GR0 bits 56-63, sets the CC.
//
// The caller keeps 32 unrelated values live across the statement and checks what is known without it: bit 2 (the
// z/Architecture architectural mode is active) is set in any 64-bit Linux process, and a kernel that reports the
// vector registers in AT_HWCAP (HWCAP_S390_VXRS) has facility 129, which needs a third doubleword, so the list
// length STFLE returns in GR0 after a one-doubleword request is at least 2 (z/Architecture Principles of Operation,
// STORE FACILITY LIST EXTENDED; facility bits 2 and 129).
#include <sys/auxv.h>

#include "contract.h"
#include "stfle.h"

namespace shakedown::asm_contract {
namespace {

constexpr unsigned long kHwcapStfle = 4;     // HWCAP_S390_STFLE (linux arch/s390/include/uapi/asm/elf.h)
constexpr unsigned long kHwcapVxrs = 2048;  // HWCAP_S390_VXRS: vector facility (129) usable

Pressure g_pressure;
volatile std::uint64_t g_list[4];
volatile std::uint64_t g_gr0_long;   // GR0 after a four-doubleword request
volatile std::uint64_t g_gr0_short;  // GR0 after a one-doubleword request

bool bit(const volatile std::uint64_t* list, unsigned n) { return (list[n / 64] >> (63 - n % 64)) & 1; }

[[gnu::noinline, gnu::flatten]] void call_stfle() {
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  std::uint64_t list[4] = {};  // this frame's: only the "memory" clobber tells the compiler STFLE stores here
  sink(g_gr0_long, internal::stfle(list));
  for (int i = 0; i < 4; ++i) sink(g_list[i], list[i]);
  std::uint64_t one[1] = {};
  sink(g_gr0_short, internal::stfle(one));
  SHAKEDOWN_LIVE_STORE()
}

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  if (!(hwcap & kHwcapStfle)) return report.fail("stfle", "AT_HWCAP has no HWCAP_S390_STFLE");
  Report::running("stfle");
  for (std::uint64_t seed : {1, 2}) {
    g_pressure.reset(seed);
    call_stfle();
    report.expect("stfle", "facility list stored in memory: bit 2 (z/Architecture mode active)", bit(g_list, 2), 1);
    if (hwcap & kHwcapVxrs) {
      report.expect("stfle", "facility list stored in memory: bit 129 (vector facility, AT_HWCAP VXRS)",
                    bit(g_list, 129), 1);
      report.expect("stfle", "GR0 after a one-doubleword request is at least 2 (needs bit 129)",
                    g_gr0_short >= 2, 1);
    }
    report.expect("stfle", "GR0 after one- and four-doubleword requests", g_gr0_short, g_gr0_long);
    g_pressure.check(report, "stfle");
  }
}

}  // namespace shakedown::asm_contract
