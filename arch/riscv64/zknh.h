// The scalar SHA-2 Σ/σ functions as single Zknh instructions (RISC-V scalar crypto, RV64).
#pragma once

#include <cstdint>

// One inline function per instruction: `.option arch, +zknh` enables the mnemonic for this statement only
// (binutils 2.40 knows Zknh), so nothing else in the library is built for Zknh. Each reads rs1 and writes rd only.
#define SHAKEDOWN_ZKNH_INSN(insn) ".option push\n.option arch, +zknh\n" #insn " %0, %1\n.option pop"
#ifndef SHAKEDOWN_TEST_ASM_FLIP_ZKNH
#define SHAKEDOWN_ZKNH_ASM(insn, r, x) __asm__(SHAKEDOWN_ZKNH_INSN(insn) : "=r"(r) : "r"(x))
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): rd declared input-only.
#define SHAKEDOWN_ZKNH_ASM(insn, r, x) r = 0; __asm__ volatile(SHAKEDOWN_ZKNH_INSN(insn) : : "r"(r), "r"(x))
#endif
#define SHAKEDOWN_ZKNH_UNARY(insn)                                                   \
  inline __attribute__((always_inline)) std::uint64_t zknh_##insn(std::uint64_t x) { \
    std::uint64_t r;                                                                 \
    SHAKEDOWN_ZKNH_ASM(insn, r, x);                                                  \
    return r;                                                                        \
  }

namespace shakedown::internal {
// SHA-256 (FIPS 180-4 §4.1.2): on RV64 these read the low 32 bits and sign-extend the 32-bit result.
SHAKEDOWN_ZKNH_UNARY(sha256sum0)
SHAKEDOWN_ZKNH_UNARY(sha256sum1)
SHAKEDOWN_ZKNH_UNARY(sha256sig0)
SHAKEDOWN_ZKNH_UNARY(sha256sig1)
// SHA-512 (§4.1.3): RV64 only.
SHAKEDOWN_ZKNH_UNARY(sha512sum0)
SHAKEDOWN_ZKNH_UNARY(sha512sum1)
SHAKEDOWN_ZKNH_UNARY(sha512sig0)
SHAKEDOWN_ZKNH_UNARY(sha512sig1)
}  // namespace shakedown::internal

#undef SHAKEDOWN_ZKNH_UNARY
#undef SHAKEDOWN_ZKNH_ASM
#undef SHAKEDOWN_ZKNH_INSN
