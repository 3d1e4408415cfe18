// XGETBV for XCR0: which register states the OS saves (Intel SDM Vol. 2B, XGETBV; Vol. 1 §13.3).
#pragma once

namespace shakedown::internal {

// XCR0 via XGETBV with ECX = 0: reads ECX, writes EDX:EAX (zeroing the upper halves of RDX and RAX), nothing
// else. Only valid when CPUID.1:ECX.OSXSAVE[27] is set.
inline unsigned long long xgetbv0() {
  unsigned lo, hi;
#ifndef SHAKEDOWN_TEST_ASM_FLIP_XGETBV
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): EDX written but not declared.
  __asm__ volatile("xgetbv" : "=a"(lo) : "c"(0));
  hi = 0;
#endif
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

}  // namespace shakedown::internal
