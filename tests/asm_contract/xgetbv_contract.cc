// Contract of XGETBV (arch/x86_64/xgetbv.h): reads ECX, writes EDX:EAX and nothing else (Intel SDM Vol. 2B).
//
// The caller keeps 32 unrelated values live across the statement, so one of them sits in RDX unless the statement
// declares it, and compares XCR0 with the compiler's own XGETBV builtin (its register contract is the compiler's).
#include <cpuid.h>

#include "contract.h"
#include "xgetbv.h"

namespace shakedown::asm_contract {
namespace {

Pressure g_pressure;
volatile std::uint64_t g_xcr0;

[[gnu::noinline, gnu::flatten]] void call_xgetbv0() {
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  sink(g_xcr0, static_cast<std::uint64_t>(internal::xgetbv0()));
  SHAKEDOWN_LIVE_STORE()
}

[[gnu::target("xsave")]] std::uint64_t compiler_xgetbv0() { return __builtin_ia32_xgetbv(0); }

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) {  // CPUID.1:ECX.OSXSAVE[bit 27]
    report.fail("xgetbv0", "OSXSAVE is off: XGETBV would fault");
    return;
  }
  Report::running("xgetbv0");
  for (std::uint64_t seed : {1, 2}) {
    g_pressure.reset(seed);
    call_xgetbv0();
    report.expect("xgetbv0", "XCR0 (EDX:EAX)", g_xcr0, compiler_xgetbv0());
    g_pressure.check(report, "xgetbv0");
  }
}

}  // namespace shakedown::asm_contract
