// Hand-written callers of VSHA512RNDS2/MSG1/MSG2 for the trap tests: ymm0-15 loaded from memory, one instruction
// on chosen registers, ymm0-15 stored back, so a test sees every register the emulated instruction left.
#pragma once

#include <array>
#include <cstdint>

#include "emul/emul.h"
#include "sha512ni_encoding.h"

namespace shakedown::emul::test {

// The sixteen YMM registers, qword 0 of each first.
struct alignas(32) YmmFile {
  std::array<std::uint64_t, 4> r[16];
};
static_assert(sizeof(YmmFile) == 16 * 32, "the callers load and store 32 bytes per register");

#define SHAKEDOWN_TEST_YMM_ROWS(op)                                                                         \
  op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)
#define SHAKEDOWN_TEST_LOAD_YMM(n) "vmovdqu " #n "*32(%[in]), %%ymm" #n "\n"
#define SHAKEDOWN_TEST_STORE_YMM(n) "vmovdqu %%ymm" #n ", " #n "*32(%[out])\n"
#define SHAKEDOWN_TEST_YMM_CLOBBERS                                                                         \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",  \
      "xmm13", "xmm14", "xmm15", "memory"

// Loads ymm0-15 from in, runs `text` (extended asm; registers named with the [d], [s1], [s2] constants), stores
// ymm0-15 to out.
#define SHAKEDOWN_TEST_RUN_ON_FILE(text, in, out, dst_reg, src1_reg, src2_reg)                              \
  __asm__ volatile(SHAKEDOWN_TEST_YMM_ROWS(SHAKEDOWN_TEST_LOAD_YMM) SHAKEDOWN_SHA512NI_ASM(text)             \
                       SHAKEDOWN_TEST_YMM_ROWS(SHAKEDOWN_TEST_STORE_YMM)                                     \
                   :                                                                                         \
                   : [in] "r"(&(in)), [out] "r"(&(out)), [d] "i"(dst_reg), [s1] "i"(src1_reg),               \
                     [s2] "i"(src2_reg)                                                                      \
                   : SHAKEDOWN_TEST_YMM_CLOBBERS)

// One instruction with destination ymm<D>, VEX.vvvv register ymm<S1> (VSHA512RNDS2 only) and ModRM.rm register
// <S2>, on the register file `in`; the file afterwards goes to `out`.
template <Insn K, int D, int S1, int S2>
void run_on_file(const YmmFile& in, YmmFile& out) {
  static_assert(D >= 0 && D < 16 && S1 >= 0 && S1 < 16 && S2 >= 0 && S2 < 16);
  if constexpr (K == Insn::vsha512rnds2)
    SHAKEDOWN_TEST_RUN_ON_FILE("shakedown_vsha512rnds2 %%xmm%c[s2], %%ymm%c[s1], %%ymm%c[d]", in, out, D, S1, S2);
  else if constexpr (K == Insn::vsha512msg1)
    SHAKEDOWN_TEST_RUN_ON_FILE("shakedown_vsha512msg1 %%xmm%c[s2], %%ymm%c[d]", in, out, D, S1, S2);
  else
    SHAKEDOWN_TEST_RUN_ON_FILE("shakedown_vsha512msg2 %%ymm%c[s2], %%ymm%c[d]", in, out, D, S1, S2);
}

}  // namespace shakedown::emul::test
