// STORE FACILITY LIST EXTENDED: the machine's facility bits (z/Architecture Principles of Operation, STFLE).
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::internal {

// Stores facility bits 0 .. 64 * N - 1 into list (bit 0 is the most significant bit of list[0]); returns GR0 after
// the instruction: one less than the number of doublewords the machine's list needs. STFLE reads GR0 (N - 1),
// stores N doublewords at the second-operand address, replaces bits 56-63 of GR0 and sets the condition code
// (3 when the list was too short). Only valid when AT_HWCAP has HWCAP_S390_STFLE.
template <std::size_t N>
inline std::uint64_t stfle(std::uint64_t (&list)[N]) {
  static_assert(N >= 1 && N <= 256, "GR0 bits 56-63 hold N - 1");
  register std::uint64_t r0 asm("0") = N - 1;
#ifndef SHAKEDOWN_TEST_ASM_FLIP_STFLE
  asm volatile(".insn s,0xb2b00000,0(%[list])" : "+d"(r0) : [list] "a"(list) : "cc", "memory");
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): the stored list not declared.
  asm volatile(".insn s,0xb2b00000,0(%[list])" : "+d"(r0) : [list] "a"(list) : "cc");
#endif
  return r0;
}

}  // namespace shakedown::internal
