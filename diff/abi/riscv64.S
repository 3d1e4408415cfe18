// RISC-V LP64D ABI trampoline: shakedown_abi_call(fn, a0, a1, a2, a3, regs) (see abi_call.h).
// Loads canaries into s0-s11 and fs0-fs11, calls fn(a0, a1, a2, a3), and stores the registers as fn left
// them. RISC-V psABI, Integer Register Convention: s0-s11 and sp are callee-saved (s0 doubles as the
// frame pointer); Floating-point Register Convention: fs0-fs11 are callee-saved under LP64D; Vector
// Register Convention: v0-v31, vl, vtype and vstart are all caller-saved, so there is nothing to check
// there. RISC-V has no must-be-clear flag, so flags_after is stored as 0. A moved sp is not reported:
// the restores below would then read garbage.
// Offsets: before = 0, after = 192, flags_after = 384 (static_asserts in abi_call.h).

        .text
        .globl  shakedown_abi_call
        .type   shakedown_abi_call, @function
        .p2align 2
shakedown_abi_call:
        .cfi_startproc
        // Frame (208 bytes, sp stays 16-aligned per RISC-V psABI, Integer Calling Convention): regs at 0,
        // s0-s11 at 8-103, fs0-fs11 at 104-199, ra at 200.
        addi    sp, sp, -208
        .cfi_def_cfa_offset 208
        sd      ra, 200(sp)
        .cfi_offset ra, -8
        sd      s0, 8(sp)
        .cfi_offset s0, -200
        sd      s1, 16(sp)
        .cfi_offset s1, -192
        sd      s2, 24(sp)
        .cfi_offset s2, -184
        sd      s3, 32(sp)
        .cfi_offset s3, -176
        sd      s4, 40(sp)
        .cfi_offset s4, -168
        sd      s5, 48(sp)
        .cfi_offset s5, -160
        sd      s6, 56(sp)
        .cfi_offset s6, -152
        sd      s7, 64(sp)
        .cfi_offset s7, -144
        sd      s8, 72(sp)
        .cfi_offset s8, -136
        sd      s9, 80(sp)
        .cfi_offset s9, -128
        sd      s10, 88(sp)
        .cfi_offset s10, -120
        sd      s11, 96(sp)
        .cfi_offset s11, -112
        fsd     fs0, 104(sp)
        .cfi_offset fs0, -104
        fsd     fs1, 112(sp)
        .cfi_offset fs1, -96
        fsd     fs2, 120(sp)
        .cfi_offset fs2, -88
        fsd     fs3, 128(sp)
        .cfi_offset fs3, -80
        fsd     fs4, 136(sp)
        .cfi_offset fs4, -72
        fsd     fs5, 144(sp)
        .cfi_offset fs5, -64
        fsd     fs6, 152(sp)
        .cfi_offset fs6, -56
        fsd     fs7, 160(sp)
        .cfi_offset fs7, -48
        fsd     fs8, 168(sp)
        .cfi_offset fs8, -40
        fsd     fs9, 176(sp)
        .cfi_offset fs9, -32
        fsd     fs10, 184(sp)
        .cfi_offset fs10, -24
        fsd     fs11, 192(sp)
        .cfi_offset fs11, -16
        sd      a5, 0(sp)               // keep regs across the call
        mv      t1, a0
        mv      a0, a1
        mv      a1, a2
        mv      a2, a3
        mv      a3, a4
        ld      s0, 0(a5)
        ld      s1, 8(a5)
        ld      s2, 16(a5)
        ld      s3, 24(a5)
        ld      s4, 32(a5)
        ld      s5, 40(a5)
        ld      s6, 48(a5)
        ld      s7, 56(a5)
        ld      s8, 64(a5)
        ld      s9, 72(a5)
        ld      s10, 80(a5)
        ld      s11, 88(a5)
        fld     fs0, 96(a5)
        fld     fs1, 104(a5)
        fld     fs2, 112(a5)
        fld     fs3, 120(a5)
        fld     fs4, 128(a5)
        fld     fs5, 136(a5)
        fld     fs6, 144(a5)
        fld     fs7, 152(a5)
        fld     fs8, 160(a5)
        fld     fs9, 168(a5)
        fld     fs10, 176(a5)
        fld     fs11, 184(a5)
        jalr    ra, 0(t1)
        ld      t0, 0(sp)
        sd      s0, 192(t0)
        sd      s1, 200(t0)
        sd      s2, 208(t0)
        sd      s3, 216(t0)
        sd      s4, 224(t0)
        sd      s5, 232(t0)
        sd      s6, 240(t0)
        sd      s7, 248(t0)
        sd      s8, 256(t0)
        sd      s9, 264(t0)
        sd      s10, 272(t0)
        sd      s11, 280(t0)
        fsd     fs0, 288(t0)
        fsd     fs1, 296(t0)
        fsd     fs2, 304(t0)
        fsd     fs3, 312(t0)
        fsd     fs4, 320(t0)
        fsd     fs5, 328(t0)
        fsd     fs6, 336(t0)
        fsd     fs7, 344(t0)
        fsd     fs8, 352(t0)
        fsd     fs9, 360(t0)
        fsd     fs10, 368(t0)
        fsd     fs11, 376(t0)
        sd      zero, 384(t0)
        ld      ra, 200(sp)
        ld      s0, 8(sp)
        ld      s1, 16(sp)
        ld      s2, 24(sp)
        ld      s3, 32(sp)
        ld      s4, 40(sp)
        ld      s5, 48(sp)
        ld      s6, 56(sp)
        ld      s7, 64(sp)
        ld      s8, 72(sp)
        ld      s9, 80(sp)
        ld      s10, 88(sp)
        ld      s11, 96(sp)
        fld     fs0, 104(sp)
        fld     fs1, 112(sp)
        fld     fs2, 120(sp)
        fld     fs3, 128(sp)
        fld     fs4, 136(sp)
        fld     fs5, 144(sp)
        fld     fs6, 152(sp)
        fld     fs7, 160(sp)
        fld     fs8, 168(sp)
        fld     fs9, 176(sp)
        fld     fs10, 184(sp)
        fld     fs11, 192(sp)
        addi    sp, sp, 208
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   shakedown_abi_call, .-shakedown_abi_call

// Test-only: breaks the ABI on purpose (clobbers s1, RISC-V psABI, Integer Register Convention) so that
// the suite can prove the trampoline notices; safe to call only through shakedown_abi_call, which
// restores it.
        .globl  shakedown_abi_misbehave_for_test
        .type   shakedown_abi_misbehave_for_test, @function
        .p2align 2
shakedown_abi_misbehave_for_test:
        .cfi_startproc
        li      s1, 0
        ret
        .cfi_endproc
        .size   shakedown_abi_misbehave_for_test, .-shakedown_abi_misbehave_for_test

        .section .note.GNU-stack,"",@progbits
