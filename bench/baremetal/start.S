/*
 * Entry of the bare-metal benchmark (-M virt -bios none): M-mode, hart 0
 * only, no trap handler (a trap would hang, and bench.sh's timeout reports it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, mhartid
    bnez t0, park
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, stack_top
    call main
park:
    wfi
    j park
