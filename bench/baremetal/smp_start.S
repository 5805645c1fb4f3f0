/*
 * Entry of the multi-hart bare-metal benchmark (-M virt -bios none): every
 * hart gets its own 16 KiB stack and calls smp_main(hartid), in M-mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    csrr a0, mhartid
    la sp, stack_top
    slli t0, a0, 14
    sub sp, sp, t0
    call smp_main
1:  wfi
    j 1b
