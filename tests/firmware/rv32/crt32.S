/*
 * Start-up of the RV32 firmware test (M-mode, hart 0): stack, trap vector,
 * then main().  Every trap is counted, its mcause and mtval kept in
 * g_mcause / g_mtval, and the instruction skipped, except an ecall from
 * S-mode (mcause 9), which ends the S-mode part: m_report() runs in M-mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    .section .text.start
    .globl _start
_start:
    csrr t0, mhartid
    bnez t0, park
    la sp, stack_top
    la t0, trap
    csrw mtvec, t0
    la t0, savearea
    csrw mscratch, t0
    call main
park:
    wfi
    j park

    .align 4
trap:
    csrrw t0, mscratch, t0      /* t0 = savearea */
    sw t1, 0(t0)
    sw t2, 4(t0)
    csrr t1, mcause
    la t2, g_mcause
    sw t1, 0(t2)
    csrr t1, mtval
    la t2, g_mtval
    sw t1, 0(t2)
    la t2, g_ntraps
    lw t1, 0(t2)
    addi t1, t1, 1
    sw t1, 0(t2)
    csrr t1, mcause
    li t2, 9
    beq t1, t2, to_report
    csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    lw t1, 0(t0)
    lw t2, 4(t0)
    csrrw t0, mscratch, t0
    mret
to_report:
    la sp, stack_top
    call m_report
    j park

    .data
    .align 4
savearea: .space 16
