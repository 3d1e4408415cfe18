// x86-64 System V ABI trampoline: shakedown_abi_call(fn, a0, a1, a2, a3, regs) (see abi_call.h).
// Loads canaries into rbx, rbp, r12-r15, calls fn(a0, a1, a2, a3), and stores the registers and RFLAGS
// as fn left them. Offsets: before = 0, after = 48, flags_after = 96 (static_asserts in abi_call.h).

        .text
        .globl  shakedown_abi_call
        .type   shakedown_abi_call, @function
        .p2align 4
shakedown_abi_call:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -16
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -24
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -32
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -40
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -48
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -56
        // Keep regs across the call; 7 pushes + return address = 64 bytes: rsp is 16-aligned at the call.
        pushq   %r9
        .cfi_adjust_cfa_offset 8
        movq    %rdi, %rax
        movq    %rsi, %rdi
        movq    %rdx, %rsi
        movq    %rcx, %rdx
        movq    %r8, %rcx
        movq    0(%r9), %rbx
        movq    8(%r9), %rbp
        movq    16(%r9), %r12
        movq    24(%r9), %r13
        movq    32(%r9), %r14
        movq    40(%r9), %r15
        call    *%rax
        popq    %r11
        .cfi_adjust_cfa_offset -8
        movq    %rbx, 48(%r11)
        movq    %rbp, 56(%r11)
        movq    %r12, 64(%r11)
        movq    %r13, 72(%r11)
        movq    %r14, 80(%r11)
        movq    %r15, 88(%r11)
        pushfq
        popq    %rax
        movq    %rax, 96(%r11)
        cld                             // the caller may rely on DF = 0 even if fn broke that rule
        popq    %r15
        .cfi_adjust_cfa_offset -8
        popq    %r14
        .cfi_adjust_cfa_offset -8
        popq    %r13
        .cfi_adjust_cfa_offset -8
        popq    %r12
        .cfi_adjust_cfa_offset -8
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   shakedown_abi_call, .-shakedown_abi_call

// Test-only: breaks the ABI on purpose (clobbers r12, leaves DF set) so that the suite can prove the
// trampoline notices; safe to call only through shakedown_abi_call, which restores both.
        .globl  shakedown_abi_misbehave_for_test
        .type   shakedown_abi_misbehave_for_test, @function
        .p2align 4
shakedown_abi_misbehave_for_test:
        .cfi_startproc
        xorl    %r12d, %r12d
        std
        ret
        .cfi_endproc
        .size   shakedown_abi_misbehave_for_test, .-shakedown_abi_misbehave_for_test

        .section .note.GNU-stack,"",@progbits
