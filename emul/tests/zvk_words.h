// Zvknh*/Zvkb instruction words and vtype values for the Zvk model's tests, built from the encoding tables
// (RISC-V vector cryptography specification, the Zvknh*/Zvkb instruction pages; RVV 1.0 §3.4) independently of
// arch/riscv64/zvk_insn.h.
#pragma once

#include <bit>
#include <cstdint>

namespace shakedown::emul::test {

// OP-P (0x77) vsha2*: funct6 | vm | vs2 | vs1 | funct3 010 (OPMVV) | vd | opcode.
constexpr std::uint32_t opp(std::uint32_t funct6, unsigned vd, unsigned vs2, unsigned vs1, unsigned vm = 1) {
  return funct6 << 26 | vm << 25 | vs2 << 20 | vs1 << 15 | 2u << 12 | vd << 7 | 0x77;
}
// OP-V (0x57) Zvkb: funct6 | vm | vs2 | vs1, rs1 or imm[4:0] | funct3 | vd | opcode.
constexpr std::uint32_t opv(std::uint32_t funct6, unsigned vd, unsigned vs2, unsigned field, unsigned funct3,
                            unsigned vm = 1) {
  return funct6 << 26 | vm << 25 | vs2 << 20 | field << 15 | funct3 << 12 | vd << 7 | 0x57;
}
constexpr std::uint32_t vsha2ms(unsigned vd, unsigned vs2, unsigned vs1) { return opp(0x2d, vd, vs2, vs1); }
constexpr std::uint32_t vsha2ch(unsigned vd, unsigned vs2, unsigned vs1) { return opp(0x2e, vd, vs2, vs1); }
constexpr std::uint32_t vsha2cl(unsigned vd, unsigned vs2, unsigned vs1) { return opp(0x2f, vd, vs2, vs1); }
// The words clang-19 assembles for vd = v1, vs2 = v2, vs1 = v3 (measured; the same check as arch/riscv64/zvk_insn.h).
static_assert(vsha2ms(1, 2, 3) == 0xb621a0f7 && vsha2ch(1, 2, 3) == 0xba21a0f7 && vsha2cl(1, 2, 3) == 0xbe21a0f7);

// vtype (RVV 1.0 §3.4): vsew 5:3, vlmul 2:0 (two's complement log2 LMUL), vta 6, vma 7.
constexpr std::uint64_t vtype(unsigned sew, int lmul_log2, bool ta = true, bool ma = true) {
  const unsigned vsew = static_cast<unsigned>(std::countr_zero(sew / 8));
  return (ta ? 1u << 6 : 0) | (ma ? 1u << 7 : 0) | vsew << 3 | static_cast<unsigned>(lmul_log2 & 7);
}

}  // namespace shakedown::emul::test
