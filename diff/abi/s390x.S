// s390x ELF ABI trampoline: shakedown_abi_call(fn, a0, a1, a2, a3, regs) (see abi_call.h).
// Loads canaries into r6-r13 and f8-f15, calls fn(a0, a1, a2, a3), and stores the registers as fn left
// them. s390x ELF ABI Supplement, Register usage: r6-r13 and r15 (the stack pointer) are preserved
// across calls, r14 holds the return address, and f8-f15 are preserved. s390x has no must-be-clear
// flag, so flags_after is stored as 0. A moved r15 is not reported: the restores below would then read
// garbage. Offsets: before = 0, after = 128, flags_after = 256 (static_asserts in abi_call.h).

// Our frame: the 160-byte register save area every callee may use (s390x ELF ABI Supplement, Stack
// frame), then f8-f15 at 160-223.
#define FRAME 224

        .text
        .globl  shakedown_abi_call
        .type   shakedown_abi_call, @function
        .p2align 4
shakedown_abi_call:
        .cfi_startproc
        // Arguments (s390x ELF ABI Supplement, Parameter passing): fn in r2, a0-a3 in r3-r6, regs in the
        // caller's parameter area at 160(%r15). r6-r15 go to the caller's register save area.
        stmg    %r6, %r15, 48(%r15)
        .cfi_offset %r6, -112
        .cfi_offset %r7, -104
        .cfi_offset %r8, -96
        .cfi_offset %r9, -88
        .cfi_offset %r10, -80
        .cfi_offset %r11, -72
        .cfi_offset %r12, -64
        .cfi_offset %r13, -56
        .cfi_offset %r14, -48
        .cfi_offset %r15, -40
        lgr     %r1, %r15
        aghi    %r15, -FRAME
        .cfi_adjust_cfa_offset FRAME
        stg     %r1, 0(%r15)            // back chain
        std     %f8, 160(%r15)
        .cfi_offset %f8, -224
        std     %f9, 168(%r15)
        .cfi_offset %f9, -216
        std     %f10, 176(%r15)
        .cfi_offset %f10, -208
        std     %f11, 184(%r15)
        .cfi_offset %f11, -200
        std     %f12, 192(%r15)
        .cfi_offset %f12, -192
        std     %f13, 200(%r15)
        .cfi_offset %f13, -184
        std     %f14, 208(%r15)
        .cfi_offset %f14, -176
        std     %f15, 216(%r15)
        .cfi_offset %f15, -168
        lgr     %r14, %r2
        lgr     %r2, %r3
        lgr     %r3, %r4
        lgr     %r4, %r5
        lgr     %r5, %r6
        lg      %r1, FRAME+160(%r15)    // regs, still in the caller's parameter area after the call
        lmg     %r6, %r13, 0(%r1)
        ld      %f8, 64(%r1)
        ld      %f9, 72(%r1)
        ld      %f10, 80(%r1)
        ld      %f11, 88(%r1)
        ld      %f12, 96(%r1)
        ld      %f13, 104(%r1)
        ld      %f14, 112(%r1)
        ld      %f15, 120(%r1)
        basr    %r14, %r14
        lg      %r1, FRAME+160(%r15)
        stmg    %r6, %r13, 128(%r1)
        std     %f8, 192(%r1)
        std     %f9, 200(%r1)
        std     %f10, 208(%r1)
        std     %f11, 216(%r1)
        std     %f12, 224(%r1)
        std     %f13, 232(%r1)
        std     %f14, 240(%r1)
        std     %f15, 248(%r1)
        lghi    %r0, 0
        stg     %r0, 256(%r1)
        ld      %f8, 160(%r15)
        ld      %f9, 168(%r15)
        ld      %f10, 176(%r15)
        ld      %f11, 184(%r15)
        ld      %f12, 192(%r15)
        ld      %f13, 200(%r15)
        ld      %f14, 208(%r15)
        ld      %f15, 216(%r15)
        lmg     %r6, %r15, FRAME+48(%r15)
        .cfi_def_cfa_offset 160
        br      %r14
        .cfi_endproc
        .size   shakedown_abi_call, .-shakedown_abi_call

// Test-only: breaks the ABI on purpose (clobbers r6, s390x ELF ABI Supplement, Register usage) so that
// the suite can prove the trampoline notices; safe to call only through shakedown_abi_call, which
// restores it.
        .globl  shakedown_abi_misbehave_for_test
        .type   shakedown_abi_misbehave_for_test, @function
        .p2align 4
shakedown_abi_misbehave_for_test:
        .cfi_startproc
        lghi    %r6, 0
        br      %r14
        .cfi_endproc
        .size   shakedown_abi_misbehave_for_test, .-shakedown_abi_misbehave_for_test

        .section .note.GNU-stack,"",@progbits
