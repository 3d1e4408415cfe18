// vlenb, the vector register length in bytes (RVV 1.0 §3.6, CSR 0xC22): one read-only CSR read.
#pragma once

namespace shakedown::internal {

// VLEN / 8. csrr reads the CSR into one register and changes nothing else; legal whenever V is present (the
// callers check AT_HWCAP / hwprobe first). Spelled as a CSR number so that no V option is needed to assemble it.
inline unsigned long read_vlenb() {
  unsigned long vlenb;
#ifndef SHAKEDOWN_TEST_ASM_FLIP_VLENB
  __asm__ volatile("csrr %0, 0xc22" : "=r"(vlenb));
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): rd declared input-only.
  vlenb = 0;
  __asm__ volatile("csrr %0, 0xc22" : : "r"(vlenb));
#endif
  return vlenb;
}

}  // namespace shakedown::internal
