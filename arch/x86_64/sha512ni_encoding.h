// VSHA512RNDS2 / VSHA512MSG1 / VSHA512MSG2 as GNU assembler macros that emit their VEX bytes, for inline asm.
//
// gcc-12's assembler (binutils 2.40) has no mnemonics for the Intel SHA512 extension (binutils 2.42 and
// clang 18 added them), so the instructions are spelled as bytes. Unlike a fixed `.byte` string, these macros
// take register operands, so the compiler still allocates the registers of each instruction: the macros map
// "%xmmN"/"%ymmN" to N and build the encoding from it. emul/tests/sha512ni_encoding_test.cc checks every
// register combination against an assembler that knows the mnemonics.
//
// Encoding (Intel SDM Vol. 2C, VSHA512RNDS2/MSG1/MSG2; Vol. 2A §2.3 "VEX"): VEX.256.F2.0F38.W0, register
// operands only ("11:rrr:bbb": there are no memory forms). Three-byte VEX:
//   C4, [R̄ X̄ B̄ m-mmmm = 00010 (0F38)], [W = 0, v̄v̄v̄v̄, L = 1, pp = 11 (F2)], opcode, ModRM = 11 reg rm
// R̄/B̄ are the inverted bit 3 of the ModRM reg/rm register; v̄v̄v̄v̄ the inverted vvvv register, 1111 when unused.
//   CB  VSHA512RNDS2 ymm1, ymm2, xmm3   reg = ymm1 (C,D,G,H in, new A,B,E,F out), vvvv = ymm2 (A,B,E,F),
//                                       rm = xmm3 (K + W of the two rounds in qwords 0 and 1)
//   CC  VSHA512MSG1  ymm1, xmm2         reg = ymm1 (W[t-16..t-13] in, + σ0(W[t-15..t-12]) out), rm = xmm2 (W[t-12])
//   CD  VSHA512MSG2  ymm1, ymm2         reg = ymm1 (partial W[t..t+3] in, W[t..t+3] out), rm = ymm2 (W[t-2], W[t-1]
//                                       in qwords 2, 3)
// Example: vsha512rnds2 %xmm0, %ymm1, %ymm2 = c4 e2 77 cb d0.
//
// The macro text is for EXTENDED asm (a statement with a ':'), where "%%" stands for '%'. Operands are in AT&T
// order like the mnemonics: `shakedown_vsha512rnds2 %[wk], %[abef], %[cdgh]`. Use SHAKEDOWN_SHA512NI_ASM(text):
// it defines the macros, then text, then removes them again, so any number of statements (and inlined copies
// of them) can use them in one translation unit. The operands must be xmm0-15/ymm0-15 ("x" constraints, not
// "v": VEX cannot encode registers 16-31); anything else stops the assembler with an error.
#pragma once

#define SHAKEDOWN_SHA512NI_ASM_MACROS                                                                        \
  ".macro shakedown_vreg_number symbol, reg\n"                                                               \
  "  .set \\symbol, -1\n"                                                                                    \
  "  .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"                                                        \
  "    .ifc \\reg, %%xmm\\n\n"                                                                               \
  "      .set \\symbol, \\n\n"                                                                               \
  "    .endif\n"                                                                                             \
  "    .ifc \\reg, %%ymm\\n\n"                                                                               \
  "      .set \\symbol, \\n\n"                                                                               \
  "    .endif\n"                                                                                             \
  "  .endr\n"                                                                                                \
  "  .if \\symbol < 0\n"                                                                                     \
  "    .error \"shakedown_vsha512*: \\reg is not one of xmm0-15 / ymm0-15\"\n"                                \
  "  .endif\n"                                                                                               \
  ".endm\n"                                                                                                  \
  /* Fully parenthesised: GNU as gives | and & the same precedence, above + and below << >>. */             \
  ".macro shakedown_vex256_f2_0f38_w0 opcode, reg, vvvv, rm\n"                                               \
  "  .byte 0xc4, ((((~(\\reg >> 3)) & 1) << 7) | 0x40 | (((~(\\rm >> 3)) & 1) << 5) | 0x02)\n"               \
  "  .byte (((~(\\vvvv)) & 15) << 3) | 0x07, \\opcode, 0xc0 | ((\\reg & 7) << 3) | (\\rm & 7)\n"              \
  ".endm\n"                                                                                                  \
  ".macro shakedown_vsha512rnds2 wk, abef, cdgh\n"                                                           \
  "  shakedown_vreg_number .Lshakedown_vex_rm, \\wk\n"                                                       \
  "  shakedown_vreg_number .Lshakedown_vex_vvvv, \\abef\n"                                                   \
  "  shakedown_vreg_number .Lshakedown_vex_reg, \\cdgh\n"                                                    \
  "  shakedown_vex256_f2_0f38_w0 0xcb, .Lshakedown_vex_reg, .Lshakedown_vex_vvvv, .Lshakedown_vex_rm\n"      \
  ".endm\n"                                                                                                  \
  ".macro shakedown_vsha512msg1 w4, w\n"                                                                     \
  "  shakedown_vreg_number .Lshakedown_vex_rm, \\w4\n"                                                       \
  "  shakedown_vreg_number .Lshakedown_vex_reg, \\w\n"                                                       \
  "  shakedown_vex256_f2_0f38_w0 0xcc, .Lshakedown_vex_reg, 0, .Lshakedown_vex_rm\n"                         \
  ".endm\n"                                                                                                  \
  ".macro shakedown_vsha512msg2 w14, w\n"                                                                    \
  "  shakedown_vreg_number .Lshakedown_vex_rm, \\w14\n"                                                      \
  "  shakedown_vreg_number .Lshakedown_vex_reg, \\w\n"                                                       \
  "  shakedown_vex256_f2_0f38_w0 0xcd, .Lshakedown_vex_reg, 0, .Lshakedown_vex_rm\n"                         \
  ".endm\n"

#define SHAKEDOWN_SHA512NI_ASM_PURGE                                                                         \
  ".purgem shakedown_vsha512msg2\n"                                                                          \
  ".purgem shakedown_vsha512msg1\n"                                                                          \
  ".purgem shakedown_vsha512rnds2\n"                                                                         \
  ".purgem shakedown_vex256_f2_0f38_w0\n"                                                                    \
  ".purgem shakedown_vreg_number\n"

#define SHAKEDOWN_SHA512NI_ASM(text) SHAKEDOWN_SHA512NI_ASM_MACROS text "\n" SHAKEDOWN_SHA512NI_ASM_PURGE
