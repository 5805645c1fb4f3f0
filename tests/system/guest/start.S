/* Entry for the bare-metal system-test guest: M-mode, one hart, no firmware. */
    .section .text.start
    .globl _start
_start:
    csrr t0, mhartid
    bnez t0, park
    la sp, stack_top
    call main
park:
    wfi
    j park
