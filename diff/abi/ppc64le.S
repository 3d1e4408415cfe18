// ppc64le (ELFv2) ABI trampoline: shakedown_abi_call(fn, a0, a1, a2, a3, regs) (see abi_call.h).
// Loads canaries into r14-r31, f14-f31 and v20-v31, calls fn(a0, a1, a2, a3), and stores the registers as fn
// left them. 64-Bit ELF V2 ABI Specification (OpenPOWER), §2.2.1.1 Register Roles: r14-r31, f14-f31 and v20-v31
// are nonvolatile (preserved across calls); f14-f31 are doubleword 0 of VSX registers vs14-vs31 (whose other
// doubleword is volatile) and v20-v31 are all of vs52-vs63. CR2-CR4 and VRSAVE are nonvolatile too and not
// checked. No must-be-clear flag: flags_after is stored as 0. A vector register is two slots of Registers
// (doublewords 0 and 1 as lxvd2x/stxvd2x move them). Offsets: before = 0, after = 480, flags_after = 960
// (static_asserts in abi_call.h). Registers are written as plain numbers (the ELF V2 convention of GNU as).

// Our frame (ABI §2.2.2): back chain 0, CR save 8, LR save 16, TOC save 24; regs at 32; r14-r31 at 48-191,
// f14-f31 at 192-335, v20-v31 at 336-527 (quadword aligned: the stack pointer is).
#define FRAME 528

        .abiversion 2
        .text
        .globl  shakedown_abi_call
        .type   shakedown_abi_call, @function
        .p2align 4
shakedown_abi_call:
        .cfi_startproc
        // Arguments (ABI §2.2.3): fn in r3, a0-a3 in r4-r7, regs in r8. No TOC is used: no global entry point.
        mflr    0
        std     0, 16(1)
        stdu    1, -FRAME(1)
        .cfi_def_cfa_offset FRAME
        .cfi_offset lr, 16
        std     14, 48(1)
        std     15, 56(1)
        std     16, 64(1)
        std     17, 72(1)
        std     18, 80(1)
        std     19, 88(1)
        std     20, 96(1)
        std     21, 104(1)
        std     22, 112(1)
        std     23, 120(1)
        std     24, 128(1)
        std     25, 136(1)
        std     26, 144(1)
        std     27, 152(1)
        std     28, 160(1)
        std     29, 168(1)
        std     30, 176(1)
        std     31, 184(1)
        stfd    14, 192(1)
        stfd    15, 200(1)
        stfd    16, 208(1)
        stfd    17, 216(1)
        stfd    18, 224(1)
        stfd    19, 232(1)
        stfd    20, 240(1)
        stfd    21, 248(1)
        stfd    22, 256(1)
        stfd    23, 264(1)
        stfd    24, 272(1)
        stfd    25, 280(1)
        stfd    26, 288(1)
        stfd    27, 296(1)
        stfd    28, 304(1)
        stfd    29, 312(1)
        stfd    30, 320(1)
        stfd    31, 328(1)
        li      9, 336
        stvx    20, 1, 9
        li      9, 352
        stvx    21, 1, 9
        li      9, 368
        stvx    22, 1, 9
        li      9, 384
        stvx    23, 1, 9
        li      9, 400
        stvx    24, 1, 9
        li      9, 416
        stvx    25, 1, 9
        li      9, 432
        stvx    26, 1, 9
        li      9, 448
        stvx    27, 1, 9
        li      9, 464
        stvx    28, 1, 9
        li      9, 480
        stvx    29, 1, 9
        li      9, 496
        stvx    30, 1, 9
        li      9, 512
        stvx    31, 1, 9
        std     2, 24(1)
        std     8, 32(1)
        mr      12, 3                   // ELFv2: an indirect call passes the target in r12 too
        mr      3, 4
        mr      4, 5
        mr      5, 6
        mr      6, 7
        mr      9, 8
        addi    10, 9, 288
        lxvd2x  52, 0, 10             // v20
        addi    10, 9, 304
        lxvd2x  53, 0, 10             // v21
        addi    10, 9, 320
        lxvd2x  54, 0, 10             // v22
        addi    10, 9, 336
        lxvd2x  55, 0, 10             // v23
        addi    10, 9, 352
        lxvd2x  56, 0, 10             // v24
        addi    10, 9, 368
        lxvd2x  57, 0, 10             // v25
        addi    10, 9, 384
        lxvd2x  58, 0, 10             // v26
        addi    10, 9, 400
        lxvd2x  59, 0, 10             // v27
        addi    10, 9, 416
        lxvd2x  60, 0, 10             // v28
        addi    10, 9, 432
        lxvd2x  61, 0, 10             // v29
        addi    10, 9, 448
        lxvd2x  62, 0, 10             // v30
        addi    10, 9, 464
        lxvd2x  63, 0, 10             // v31
        lfd     14, 144(9)
        lfd     15, 152(9)
        lfd     16, 160(9)
        lfd     17, 168(9)
        lfd     18, 176(9)
        lfd     19, 184(9)
        lfd     20, 192(9)
        lfd     21, 200(9)
        lfd     22, 208(9)
        lfd     23, 216(9)
        lfd     24, 224(9)
        lfd     25, 232(9)
        lfd     26, 240(9)
        lfd     27, 248(9)
        lfd     28, 256(9)
        lfd     29, 264(9)
        lfd     30, 272(9)
        lfd     31, 280(9)
        ld      14, 0(9)
        ld      15, 8(9)
        ld      16, 16(9)
        ld      17, 24(9)
        ld      18, 32(9)
        ld      19, 40(9)
        ld      20, 48(9)
        ld      21, 56(9)
        ld      22, 64(9)
        ld      23, 72(9)
        ld      24, 80(9)
        ld      25, 88(9)
        ld      26, 96(9)
        ld      27, 104(9)
        ld      28, 112(9)
        ld      29, 120(9)
        ld      30, 128(9)
        ld      31, 136(9)
        mtctr   12
        bctrl
        ld      2, 24(1)
        ld      9, 32(1)
        std     14, 480(9)
        std     15, 488(9)
        std     16, 496(9)
        std     17, 504(9)
        std     18, 512(9)
        std     19, 520(9)
        std     20, 528(9)
        std     21, 536(9)
        std     22, 544(9)
        std     23, 552(9)
        std     24, 560(9)
        std     25, 568(9)
        std     26, 576(9)
        std     27, 584(9)
        std     28, 592(9)
        std     29, 600(9)
        std     30, 608(9)
        std     31, 616(9)
        stfd    14, 624(9)
        stfd    15, 632(9)
        stfd    16, 640(9)
        stfd    17, 648(9)
        stfd    18, 656(9)
        stfd    19, 664(9)
        stfd    20, 672(9)
        stfd    21, 680(9)
        stfd    22, 688(9)
        stfd    23, 696(9)
        stfd    24, 704(9)
        stfd    25, 712(9)
        stfd    26, 720(9)
        stfd    27, 728(9)
        stfd    28, 736(9)
        stfd    29, 744(9)
        stfd    30, 752(9)
        stfd    31, 760(9)
        addi    10, 9, 768
        stxvd2x 52, 0, 10             // v20
        addi    10, 9, 784
        stxvd2x 53, 0, 10             // v21
        addi    10, 9, 800
        stxvd2x 54, 0, 10             // v22
        addi    10, 9, 816
        stxvd2x 55, 0, 10             // v23
        addi    10, 9, 832
        stxvd2x 56, 0, 10             // v24
        addi    10, 9, 848
        stxvd2x 57, 0, 10             // v25
        addi    10, 9, 864
        stxvd2x 58, 0, 10             // v26
        addi    10, 9, 880
        stxvd2x 59, 0, 10             // v27
        addi    10, 9, 896
        stxvd2x 60, 0, 10             // v28
        addi    10, 9, 912
        stxvd2x 61, 0, 10             // v29
        addi    10, 9, 928
        stxvd2x 62, 0, 10             // v30
        addi    10, 9, 944
        stxvd2x 63, 0, 10             // v31
        li      0, 0
        std     0, 960(9)
        ld      14, 48(1)
        ld      15, 56(1)
        ld      16, 64(1)
        ld      17, 72(1)
        ld      18, 80(1)
        ld      19, 88(1)
        ld      20, 96(1)
        ld      21, 104(1)
        ld      22, 112(1)
        ld      23, 120(1)
        ld      24, 128(1)
        ld      25, 136(1)
        ld      26, 144(1)
        ld      27, 152(1)
        ld      28, 160(1)
        ld      29, 168(1)
        ld      30, 176(1)
        ld      31, 184(1)
        lfd     14, 192(1)
        lfd     15, 200(1)
        lfd     16, 208(1)
        lfd     17, 216(1)
        lfd     18, 224(1)
        lfd     19, 232(1)
        lfd     20, 240(1)
        lfd     21, 248(1)
        lfd     22, 256(1)
        lfd     23, 264(1)
        lfd     24, 272(1)
        lfd     25, 280(1)
        lfd     26, 288(1)
        lfd     27, 296(1)
        lfd     28, 304(1)
        lfd     29, 312(1)
        lfd     30, 320(1)
        lfd     31, 328(1)
        li      9, 336
        lvx     20, 1, 9
        li      9, 352
        lvx     21, 1, 9
        li      9, 368
        lvx     22, 1, 9
        li      9, 384
        lvx     23, 1, 9
        li      9, 400
        lvx     24, 1, 9
        li      9, 416
        lvx     25, 1, 9
        li      9, 432
        lvx     26, 1, 9
        li      9, 448
        lvx     27, 1, 9
        li      9, 464
        lvx     28, 1, 9
        li      9, 480
        lvx     29, 1, 9
        li      9, 496
        lvx     30, 1, 9
        li      9, 512
        lvx     31, 1, 9
        addi    1, 1, FRAME
        .cfi_def_cfa_offset 0
        ld      0, 16(1)
        mtlr    0
        blr
        .cfi_endproc
        .size   shakedown_abi_call, .-shakedown_abi_call

// Test-only: breaks the ABI on purpose by clobbering r14 (kMisbehaveClobbers), so that the suite can prove
// the trampoline sees it.
        .globl  shakedown_abi_misbehave_for_test
        .type   shakedown_abi_misbehave_for_test, @function
        .p2align 4
shakedown_abi_misbehave_for_test:
        .cfi_startproc
        li      14, 0
        blr
        .cfi_endproc
        .size   shakedown_abi_misbehave_for_test, .-shakedown_abi_misbehave_for_test

        .section .note.GNU-stack,"",@progbits
