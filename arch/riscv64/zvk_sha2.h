// The SHA-2 block loop with Zvknha/Zvknhb + Zvkb, written once for SHA-256 (e32) and SHA-512 (e64).
#pragma once

#include <cstddef>
#include <cstdint>

#include "internal/bytes.h"
#include "zvk_insn.h"

namespace shakedown::internal {

// Compresses nblocks blocks into h (FIPS 180-4 §6.2.2 / §6.4.2) with the vector-crypto instructions
// (docs/isa/riscv-crypto.md §3.2). Word is uint32_t (SHA-256, 64 rounds) or uint64_t (SHA-512, 80 rounds).
//
// vtype must select SEW = 8 * sizeof(Word) and an LMUL with LMUL * VLEN >= EGW = 4 * SEW, else every
// vsha2* is a reserved encoding (illegal instruction). The caller chooses it, which is what lets the
// regression test run this very loop with e64, LMUL = 1 at VLEN = 128 and see it die as on hardware.
// vl is always exactly 4 (one element group), whatever VLEN is: the instructions process every group in
// [vstart/4, vl/4), so a larger vl would also run (and could fault on) the groups of the tail registers.
//
// Register plan (every group starts at an even register, so LMUL = 2 is aligned too):
//   v0  mask {1,0,0,0}: element 0 from the second vmerge operand (W[4] below)
//   v4  {a,b,e,f} (element 0 = f ... element 3 = a), v6 {c,d,g,h} (element 0 = h), v8/v10 their copies
//   v12, v14, v16, v18  the message schedule ring G0..G3, G(q mod 4) = W[4q .. 4q+3] (element 0 = W[4q])
//   v20 four K words, v22 W + K, v24 {W[4q+11], W[4q+10], W[4q+9], W[4q+4]} for vsha2ms
// What the asm overwrites besides memory: v0 and v1, v4..v25 (v24/v25 is the last LMUL = 2 group), vl and vtype.
// v1 because at LMUL = 2 (SHA-512 at VLEN 128) "vmv.v.i v0, 1" writes the group v0/v1: elements 2 and 3 land in
// v1 (RVV 1.0 §3.4.2); only bits 0..3 of v0 serve as the mask. tests/asm_contract/zvk_contract.cc found it missing.
// A compiler that generates vector code (-march with V: clang, gcc >= 13) may keep values in these registers and
// must be told. Without V no compiler uses them; gcc 12 generates no vector code even with V and rejects the names.
// Test-only (tests/asm_contract, docs/asm-contracts.md): SHAKEDOWN_TEST_ASM_FLIP_ZVK_SHA2_VREG leaves v25 out.
#if defined(__riscv_vector) && (defined(__clang__) || __GNUC__ >= 13)
#ifndef SHAKEDOWN_TEST_ASM_FLIP_ZVK_SHA2_VREG
#define SHAKEDOWN_ZVK_SHA2_V25 , "v25"
#else
#define SHAKEDOWN_ZVK_SHA2_V25
#endif
#define SHAKEDOWN_ZVK_SHA2_CLOBBERS                                                                             \
  , "v0", "v1", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", \
      "v18", "v19", "v20", "v21", "v22", "v23", "v24" SHAKEDOWN_ZVK_SHA2_V25, "vl", "vtype"
#else
#define SHAKEDOWN_ZVK_SHA2_CLOBBERS
#endif
// Test-only (same): SHAKEDOWN_TEST_ASM_FLIP_ZVK_SHA2 declares the data pointer, which the loop advances, input-only.
#ifndef SHAKEDOWN_TEST_ASM_FLIP_ZVK_SHA2
#define SHAKEDOWN_ZVK_SHA2_DATA_OUTPUT [data] "+r"(data),
#define SHAKEDOWN_ZVK_SHA2_DATA_INPUT
#else
#define SHAKEDOWN_ZVK_SHA2_DATA_OUTPUT
#define SHAKEDOWN_ZVK_SHA2_DATA_INPUT [data] "r"(data),
#endif

template <typename Word>
inline void zvk_sha2_blocks(Word h[8], const std::uint8_t* data, std::size_t nblocks, const Word* k,
                            std::size_t rounds, unsigned long vtype) {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8);
  if (nblocks == 0) return;  // the seam: touch no memory
  // The state in the instructions' element order (riscv-crypto.md §3.2.4): {f,e,b,a} and {h,g,d,c} from h[0..7] = a..h.
  Word abef[4] = {h[5], h[4], h[1], h[0]};
  Word cdgh[4] = {h[7], h[6], h[3], h[2]};
  // Quads 0 .. rounds/4 - 5 also extend the schedule; the last four quads only consume it. The loop
  // body holds four quads (one turn of the ring), so it runs rounds/16 - 1 times, then four plain quads.
  const std::size_t schedule_turns = rounds / 16 - 1;
  const std::size_t avl = 4;
  // Scratch registers of the asm. Early-clobber outputs: a plain "+r" kp initialised to k could share k's
  // register (same value), and then the per-block "mv kp, k" would not rewind it.
  const Word* kp;
  std::size_t turns;
  __asm__ volatile(
      SHAKEDOWN_ZVK_BEGIN
      // One quad: four rounds from the group \cur, then (if \sched) W[4q+16 .. 4q+19] into \cur.
      ".macro zvk_sha2_quad cur, hi, lo, next, sched\n"
      "  vle%[sew].v v20, (%[kp])\n"
      "  addi %[kp], %[kp], %[group_bytes]\n"
      "  vadd.vv v22, v\\cur, v20\n"
      "  zvk_vsha2cl 6, 4, 22\n"  // rounds 4q, 4q+1 (W+K elements 0, 1): v6 = new {a,b,e,f}
      "  zvk_vsha2ch 4, 6, 22\n"  // rounds 4q+2, 4q+3 (elements 2, 3): v4 = new {a,b,e,f}, v6 = {c,d,g,h}
      "  .if \\sched\n"
      "  vmerge.vvm v24, v\\hi, v\\lo, v0\n"
      "  zvk_vsha2ms \\cur, 24, \\next\n"
      "  .endif\n"
      ".endm\n"
      "vsetvl zero, %[avl], %[vtype]\n"
      "vmv.v.i v0, 1\n"
      "vle%[sew].v v4, (%[abef])\n"
      "vle%[sew].v v6, (%[cdgh])\n"
      "1:\n"
      "vmv.v.v v8, v4\n"
      "vmv.v.v v10, v6\n"
      // W[0..15] are big-endian words (FIPS 180-4 §3.1): load native elements, then byte-reverse each.
      "vle%[sew].v v12, (%[data])\n addi %[data], %[data], %[group_bytes]\n"
      "vle%[sew].v v14, (%[data])\n addi %[data], %[data], %[group_bytes]\n"
      "vle%[sew].v v16, (%[data])\n addi %[data], %[data], %[group_bytes]\n"
      "vle%[sew].v v18, (%[data])\n addi %[data], %[data], %[group_bytes]\n"
      "zvk_vrev8 12, 12\n zvk_vrev8 14, 14\n zvk_vrev8 16, 16\n zvk_vrev8 18, 18\n"
      "mv %[kp], %[k]\n"
      "mv %[turns], %[schedule_turns]\n"
      "2:\n"
      "zvk_sha2_quad 12, 16, 14, 18, 1\n"
      "zvk_sha2_quad 14, 18, 16, 12, 1\n"
      "zvk_sha2_quad 16, 12, 18, 14, 1\n"
      "zvk_sha2_quad 18, 14, 12, 16, 1\n"
      "addi %[turns], %[turns], -1\n"
      "bnez %[turns], 2b\n"
      "zvk_sha2_quad 12, 16, 14, 18, 0\n"
      "zvk_sha2_quad 14, 18, 16, 12, 0\n"
      "zvk_sha2_quad 16, 12, 18, 14, 0\n"
      "zvk_sha2_quad 18, 14, 12, 16, 0\n"
      // §6.2.2 step 4 / §6.4.2 step 4: add the block's input state.
      "vadd.vv v4, v4, v8\n"
      "vadd.vv v6, v6, v10\n"
      "addi %[nblocks], %[nblocks], -1\n"
      "bnez %[nblocks], 1b\n"
      "vse%[sew].v v4, (%[abef])\n"
      "vse%[sew].v v6, (%[cdgh])\n"
      // Message-derived words must not outlive the call (the generic code zeroizes its W[] too).
      "vmv.v.i v12, 0\n vmv.v.i v14, 0\n vmv.v.i v16, 0\n vmv.v.i v18, 0\n"
      "vmv.v.i v20, 0\n vmv.v.i v22, 0\n vmv.v.i v24, 0\n"
      ".purgem zvk_sha2_quad\n"
      SHAKEDOWN_ZVK_END
      : SHAKEDOWN_ZVK_SHA2_DATA_OUTPUT [nblocks] "+r"(nblocks), [kp] "=&r"(kp), [turns] "=&r"(turns)
      : SHAKEDOWN_ZVK_SHA2_DATA_INPUT [abef] "r"(abef), [cdgh] "r"(cdgh), [k] "r"(k),
        [schedule_turns] "r"(schedule_turns), [avl] "r"(avl), [vtype] "r"(vtype), [sew] "i"(8 * sizeof(Word)),
        [group_bytes] "i"(4 * sizeof(Word))
      : "memory" SHAKEDOWN_ZVK_SHA2_CLOBBERS);
  h[0] = abef[3]; h[1] = abef[2]; h[4] = abef[1]; h[5] = abef[0];
  h[2] = cdgh[3]; h[3] = cdgh[2]; h[6] = cdgh[1]; h[7] = cdgh[0];
  secure_zero(abef, sizeof abef);  // the chaining value is as secret as the message
  secure_zero(cdgh, sizeof cdgh);
}

}  // namespace shakedown::internal
