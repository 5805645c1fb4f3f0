/*
 * Start-up of the example firmware (M-mode, -bios none).
 *
 * Every hart arrives here from QEMU's reset ROM.  Each takes a 16 KiB stack
 * (hart h: __stacks_top - h * 16 KiB) and the trap vector.  Hart 0 zeroes
 * .bss, releases the other harts and runs main(); its return value is the
 * number of failed checks, handed to fw_exit() (the sifive,test finisher).
 * The other harts wait for the release, then run hart_main(hartid).
 */
    .section .text.start, "ax"
    .global _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrr    t0, mhartid
    li      t1, 4                   /* FW_MAX_HARTS in link.ld */
    bgeu    t0, t1, park
    la      sp, __stacks_top
    slli    t1, t0, 14
    sub     sp, sp, t1
    la      t1, trap_entry
    csrw    mtvec, t1
    bnez    t0, secondary

    la      t1, __bss_start
    la      t2, __bss_end
1:  bgeu    t1, t2, 2f
    sd      zero, 0(t1)
    addi    t1, t1, 8
    j       1b
2:  fence   rw, rw
    la      t1, harts_released      /* in .data: not cleared by the loop above */
    li      t2, 1
    sw      t2, 0(t1)
    call    main
    call    fw_exit

secondary:
    la      t1, harts_released
3:  lw      t2, 0(t1)
    beqz    t2, 3b
    fence   rw, rw
    mv      a0, t0
    call    hart_main
park:
    wfi
    j       park

    /* Any trap is a firmware bug here: report it and end the run as failed. */
    .balign 4
trap_entry:
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    fw_trap

    .data
    .balign 4
    .global harts_released
harts_released:
    .word   0
