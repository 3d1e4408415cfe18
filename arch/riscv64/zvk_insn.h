// Assembler macros that emit the Zvknh*/Zvkb instructions as .4byte words (binutils 2.40 lacks the mnemonics).
//
// Use: an inline asm string that starts with SHAKEDOWN_ZVK_BEGIN and ends with SHAKEDOWN_ZVK_END may use the
// V mnemonics (".option arch, +v", accepted by binutils 2.40) and these macros; register operands of the
// macros are plain numbers (zvk_vsha2ch 6, 4, 22 is vsha2ch.vv v6, v4, v22). The macros are defined and
// purged inside each asm statement, so any number of statements may use them in one translation unit.
// Never the clang vsha2cl intrinsic: clang-19.1.7 miscompiles it into vsha2ch (riscv-crypto.md §3.8, LLVM 151814).
#pragma once

// Encodings: docs/isa/riscv-crypto.md §3.1 (riscv-crypto doc/vector/insns/*.adoc). One place computes every
// word: zvk_word_<format> sets the symbol zvk_word, which the instruction macros emit and the checks below
// compare with the words measured from clang-19's assembler (docs/isa/riscv-crypto.md §3.1):
//   OP-P  (0x77) vsha2*:  funct6 | vm=1 | vs2 | vs1 | funct3 010 (OPMVV) | vd | 1110111
//   OP-V  (0x57) Zvkb:    funct6 | vm   | vs2 | vs1 or rs1 or imm[4:0] | funct3 | vd | 1010111
#define SHAKEDOWN_ZVK_MACROS                                                                              \
  ".macro zvk_word_opp funct6, vd, vs2, vs1\n"                                                            \
  ".set zvk_word, ((\\funct6) << 26) | (1 << 25) | ((\\vs2) << 20) | ((\\vs1) << 15) | (2 << 12) | ((\\vd) << 7) | 0x77\n" \
  ".endm\n"                                                                                               \
  ".macro zvk_word_opv funct6, vm, vd, vs2, field, funct3\n"                                              \
  ".set zvk_word, ((\\funct6) << 26) | ((\\vm) << 25) | ((\\vs2) << 20) | ((\\field) << 15) | ((\\funct3) << 12) | ((\\vd) << 7) | 0x57\n" \
  ".endm\n"                                                                                               \
  /* Zvknha/Zvknhb (docs/isa/riscv-crypto.md §3.1): funct6 0x2d, 0x2e, 0x2f; unmasked only. */            \
  ".macro zvk_vsha2ms vd, vs2, vs1\n zvk_word_opp 0x2d, \\vd, \\vs2, \\vs1\n .4byte zvk_word\n.endm\n"      \
  ".macro zvk_vsha2ch vd, vs2, vs1\n zvk_word_opp 0x2e, \\vd, \\vs2, \\vs1\n .4byte zvk_word\n.endm\n"      \
  ".macro zvk_vsha2cl vd, vs2, vs1\n zvk_word_opp 0x2f, \\vd, \\vs2, \\vs1\n .4byte zvk_word\n.endm\n"      \
  /* Zvkb: vrev8.v / vbrev8.v are funct6 010010 with vs1 = 01001 / 01000, OPMVV (funct3 010). */          \
  ".macro zvk_vrev8 vd, vs2, vm=1\n zvk_word_opv 0x12, \\vm, \\vd, \\vs2, 9, 2\n .4byte zvk_word\n.endm\n"  \
  ".macro zvk_vbrev8 vd, vs2, vm=1\n zvk_word_opv 0x12, \\vm, \\vd, \\vs2, 8, 2\n .4byte zvk_word\n.endm\n" \
  /* vror 010100, vrol 010101, vandn 000001: .vv funct3 000 (OPIVV), .vx 100 (OPIVX); vror.vi is      */  \
  /* funct6 01010 + imm[5] at bit 26 with funct3 011 (OPIVI). Operand order as in the spec: vd, vs2, x. */ \
  ".macro zvk_vror_vv vd, vs2, vs1, vm=1\n zvk_word_opv 0x14, \\vm, \\vd, \\vs2, \\vs1, 0\n .4byte zvk_word\n.endm\n" \
  ".macro zvk_vror_vx vd, vs2, rs1, vm=1\n zvk_word_opv 0x14, \\vm, \\vd, \\vs2, \\rs1, 4\n .4byte zvk_word\n.endm\n" \
  ".macro zvk_vror_vi vd, vs2, imm, vm=1\n zvk_word_opv (0x14 | ((\\imm) >> 5)), \\vm, \\vd, \\vs2, ((\\imm) & 31), 3\n .4byte zvk_word\n.endm\n" \
  ".macro zvk_vrol_vv vd, vs2, vs1, vm=1\n zvk_word_opv 0x15, \\vm, \\vd, \\vs2, \\vs1, 0\n .4byte zvk_word\n.endm\n" \
  ".macro zvk_vrol_vx vd, vs2, rs1, vm=1\n zvk_word_opv 0x15, \\vm, \\vd, \\vs2, \\rs1, 4\n .4byte zvk_word\n.endm\n" \
  ".macro zvk_vandn_vv vd, vs2, vs1, vm=1\n zvk_word_opv 0x01, \\vm, \\vd, \\vs2, \\vs1, 0\n .4byte zvk_word\n.endm\n" \
  ".macro zvk_vandn_vx vd, vs2, rs1, vm=1\n zvk_word_opv 0x01, \\vm, \\vd, \\vs2, \\rs1, 4\n .4byte zvk_word\n.endm\n"

// Assembly-time static_asserts: the encoder must reproduce the three measured words (vd=1, vs2=2, vs1=3).
#define SHAKEDOWN_ZVK_CHECKS                                                                  \
  "zvk_word_opp 0x2d, 1, 2, 3\n.if zvk_word != 0xb621a0f7\n.error \"vsha2ms encoding\"\n.endif\n" \
  "zvk_word_opp 0x2e, 1, 2, 3\n.if zvk_word != 0xba21a0f7\n.error \"vsha2ch encoding\"\n.endif\n" \
  "zvk_word_opp 0x2f, 1, 2, 3\n.if zvk_word != 0xbe21a0f7\n.error \"vsha2cl encoding\"\n.endif\n"

#define SHAKEDOWN_ZVK_BEGIN ".option push\n.option arch, +v\n" SHAKEDOWN_ZVK_MACROS SHAKEDOWN_ZVK_CHECKS
#define SHAKEDOWN_ZVK_END                                                                                   \
  ".purgem zvk_word_opp\n.purgem zvk_word_opv\n.purgem zvk_vsha2ms\n.purgem zvk_vsha2ch\n.purgem zvk_vsha2cl\n" \
  ".purgem zvk_vrev8\n.purgem zvk_vbrev8\n.purgem zvk_vror_vv\n.purgem zvk_vror_vx\n.purgem zvk_vror_vi\n"     \
  ".purgem zvk_vrol_vv\n.purgem zvk_vrol_vx\n.purgem zvk_vandn_vv\n.purgem zvk_vandn_vx\n.option pop\n"

// vtype values for vsetvl (RVV 1.0 §3.4): vlmul in bits 2:0, vsew in bits 5:3, vta bit 6, vma bit 7.
namespace shakedown::internal::rvv {
constexpr unsigned long kVtypeTailAgnostic = 1ul << 6;
constexpr unsigned long kVtypeMaskAgnostic = 1ul << 7;
constexpr unsigned long vtype(unsigned sew_bits, unsigned lmul) {
  const unsigned long vsew = sew_bits == 8 ? 0 : sew_bits == 16 ? 1 : sew_bits == 32 ? 2 : 3;
  const unsigned long vlmul = lmul == 1 ? 0 : lmul == 2 ? 1 : lmul == 4 ? 2 : 3;
  return (vsew << 3) | vlmul | kVtypeTailAgnostic | kVtypeMaskAgnostic;
}
static_assert(vtype(32, 1) == 0xd0 && vtype(64, 2) == 0xd9, "e32,m1,ta,ma / e64,m2,ta,ma (RVV 1.0 §3.4)");
}  // namespace shakedown::internal::rvv
