// AArch64 AAPCS64 ABI trampoline: shakedown_abi_call(fn, a0, a1, a2, a3, regs) (see abi_call.h).
// Loads canaries into x19-x29 and d8-d15, calls fn(a0, a1, a2, a3), and stores the registers as fn left
// them. AAPCS64 §6.1.1: x19-x29 and sp are callee-saved (x29 is the frame pointer, x30 the link
// register); §6.1.2: only the low 64 bits of v8-v15 (d8-d15) are. AArch64 has no must-be-clear flag, so
// flags_after is stored as 0. A moved sp is not reported: the restores below would then read garbage.
// Offsets: before = 0, after = 152, flags_after = 304 (static_asserts in abi_call.h).

        .text
        .globl  shakedown_abi_call
        .type   shakedown_abi_call, %function
        .p2align 4
shakedown_abi_call:
        .cfi_startproc
        // Frame (176 bytes, sp stays 16-aligned per AAPCS64 §6.4.5.1): x29/x30 at 0, x19-x28 at 16-95,
        // d8-d15 at 96-159, regs at 160.
        stp     x29, x30, [sp, #-176]!
        .cfi_def_cfa_offset 176
        .cfi_offset x29, -176
        .cfi_offset x30, -168
        stp     x19, x20, [sp, #16]
        .cfi_offset x19, -160
        .cfi_offset x20, -152
        stp     x21, x22, [sp, #32]
        .cfi_offset x21, -144
        .cfi_offset x22, -136
        stp     x23, x24, [sp, #48]
        .cfi_offset x23, -128
        .cfi_offset x24, -120
        stp     x25, x26, [sp, #64]
        .cfi_offset x25, -112
        .cfi_offset x26, -104
        stp     x27, x28, [sp, #80]
        .cfi_offset x27, -96
        .cfi_offset x28, -88
        stp     d8, d9, [sp, #96]
        .cfi_offset d8, -80
        .cfi_offset d9, -72
        stp     d10, d11, [sp, #112]
        .cfi_offset d10, -64
        .cfi_offset d11, -56
        stp     d12, d13, [sp, #128]
        .cfi_offset d12, -48
        .cfi_offset d13, -40
        stp     d14, d15, [sp, #144]
        .cfi_offset d14, -32
        .cfi_offset d15, -24
        str     x5, [sp, #160]          // keep regs across the call
        mov     x9, x0
        mov     x0, x1
        mov     x1, x2
        mov     x2, x3
        mov     x3, x4
        ldp     x19, x20, [x5, #0]
        ldp     x21, x22, [x5, #16]
        ldp     x23, x24, [x5, #32]
        ldp     x25, x26, [x5, #48]
        ldp     x27, x28, [x5, #64]
        ldr     x29, [x5, #80]
        ldp     d8, d9, [x5, #88]
        ldp     d10, d11, [x5, #104]
        ldp     d12, d13, [x5, #120]
        ldp     d14, d15, [x5, #136]
        blr     x9
        ldr     x9, [sp, #160]
        stp     x19, x20, [x9, #152]
        stp     x21, x22, [x9, #168]
        stp     x23, x24, [x9, #184]
        stp     x25, x26, [x9, #200]
        stp     x27, x28, [x9, #216]
        str     x29, [x9, #232]
        stp     d8, d9, [x9, #240]
        stp     d10, d11, [x9, #256]
        stp     d12, d13, [x9, #272]
        stp     d14, d15, [x9, #288]
        str     xzr, [x9, #304]
        ldp     d14, d15, [sp, #144]
        ldp     d12, d13, [sp, #128]
        ldp     d10, d11, [sp, #112]
        ldp     d8, d9, [sp, #96]
        ldp     x27, x28, [sp, #80]
        ldp     x25, x26, [sp, #64]
        ldp     x23, x24, [sp, #48]
        ldp     x21, x22, [sp, #32]
        ldp     x19, x20, [sp, #16]
        ldp     x29, x30, [sp], #176
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_endproc
        .size   shakedown_abi_call, .-shakedown_abi_call

// Test-only: breaks the ABI on purpose (clobbers x19, AAPCS64 §6.1.1) so that the suite can prove the
// trampoline notices; safe to call only through shakedown_abi_call, which restores it.
        .globl  shakedown_abi_misbehave_for_test
        .type   shakedown_abi_misbehave_for_test, %function
        .p2align 4
shakedown_abi_misbehave_for_test:
        .cfi_startproc
        mov     x19, xzr
        ret
        .cfi_endproc
        .size   shakedown_abi_misbehave_for_test, .-shakedown_abi_misbehave_for_test

        .section .note.GNU-stack,"",%progbits
