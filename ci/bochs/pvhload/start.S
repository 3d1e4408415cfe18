/* Multiboot entry: EAX = magic, EBX = multiboot info. Set up a stack and call pvhload_main(magic, mbi). */
    .section .text
    .globl _start
_start:
    cli
    movl $stack_top, %esp
    pushl %ebx
    pushl %eax
    call pvhload_main
1:  hlt
    jmp 1b
    .section .bss
    .align 16
    .space 65536
stack_top:
