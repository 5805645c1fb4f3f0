/*
 * M-mode start-up, trap vectors and privilege switching of the bare-metal TL
 * firmware tests.
 *
 *   _start        sets gp, tp, sp, mscratch (M trap stack), mtvec; zeroes .bss;
 *                 calls rt_main() (rt.c), which runs main() and ends the run.
 *   mtrap_vector  saves every GPR and mepc/mcause/mtval/mstatus in a frame on
 *                 the M trap stack and calls m_trap_c(frame).  m_trap_c returns
 *                 0 to resume at frame->epc (mret), 1 to abandon the lower-mode
 *                 code started by run_lower() and return from run_lower().
 *   strap_vector  the same for traps delegated to S-mode (sscratch = S trap
 *                 stack, s_trap_c(frame), sret).
 *   run_lower     long run_lower(unsigned long mstatus_set, long (*fn)(long), long arg)
 *                 enters the mode given by the MPP/MPV bits in mstatus_set via
 *                 mret (S, U) or, for VS/VU, via sret from M with
 *                 hstatus.SPV = 1 and sstatus.SPP, calls fn(arg) there; fn returns into an ecall with
 *                 a7 = RT_ECALL_MAGIC, which m_trap_c turns into a return of
 *                 fn's value from run_lower (callee-saved registers restored).
 */
#define FRAME 288
#define RT_ECALL_MAGIC 0x544C

    .section .text.init.enter, "ax"
    .global _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      tp, __tls_base
    la      sp, __stack_top
    la      t0, __mtrap_stack_top
    csrw    mscratch, t0
    la      t0, mtrap_vector
    csrw    mtvec, t0
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sd      zero, 0(t0)
    addi    t0, t0, 8
    j       1b
2:  call    rt_main
3:  j       3b

    .text
.macro SAVE_GPRS
    sd      x1, 8(sp)
    sd      x3, 24(sp)
    sd      x4, 32(sp)
    sd      x5, 40(sp)
    sd      x6, 48(sp)
    sd      x7, 56(sp)
    sd      x8, 64(sp)
    sd      x9, 72(sp)
    sd      x10, 80(sp)
    sd      x11, 88(sp)
    sd      x12, 96(sp)
    sd      x13, 104(sp)
    sd      x14, 112(sp)
    sd      x15, 120(sp)
    sd      x16, 128(sp)
    sd      x17, 136(sp)
    sd      x18, 144(sp)
    sd      x19, 152(sp)
    sd      x20, 160(sp)
    sd      x21, 168(sp)
    sd      x22, 176(sp)
    sd      x23, 184(sp)
    sd      x24, 192(sp)
    sd      x25, 200(sp)
    sd      x26, 208(sp)
    sd      x27, 216(sp)
    sd      x28, 224(sp)
    sd      x29, 232(sp)
    sd      x30, 240(sp)
    sd      x31, 248(sp)
.endm

.macro RESTORE_GPRS
    ld      x1, 8(sp)
    ld      x3, 24(sp)
    ld      x4, 32(sp)
    ld      x5, 40(sp)
    ld      x6, 48(sp)
    ld      x7, 56(sp)
    ld      x8, 64(sp)
    ld      x9, 72(sp)
    ld      x10, 80(sp)
    ld      x11, 88(sp)
    ld      x12, 96(sp)
    ld      x13, 104(sp)
    ld      x14, 112(sp)
    ld      x15, 120(sp)
    ld      x16, 128(sp)
    ld      x17, 136(sp)
    ld      x18, 144(sp)
    ld      x19, 152(sp)
    ld      x20, 160(sp)
    ld      x21, 168(sp)
    ld      x22, 176(sp)
    ld      x23, 184(sp)
    ld      x24, 192(sp)
    ld      x25, 200(sp)
    ld      x26, 208(sp)
    ld      x27, 216(sp)
    ld      x28, 224(sp)
    ld      x29, 232(sp)
    ld      x30, 240(sp)
    ld      x31, 248(sp)
    ld      x2, 16(sp)
.endm

    .balign 4
    .global mtrap_vector
mtrap_vector:
    csrrw   sp, mscratch, sp
    addi    sp, sp, -FRAME
    SAVE_GPRS
    csrr    t0, mscratch
    sd      t0, 16(sp)
    csrr    t0, mepc
    sd      t0, 256(sp)
    csrr    t0, mcause
    sd      t0, 264(sp)
    csrr    t0, mtval
    sd      t0, 272(sp)
    csrr    t0, mstatus
    sd      t0, 280(sp)
    mv      a0, sp
    call    m_trap_c
    addi    t0, sp, FRAME
    csrw    mscratch, t0
    bnez    a0, lower_resume
    ld      t0, 256(sp)
    csrw    mepc, t0
    ld      t0, 280(sp)
    csrw    mstatus, t0
    RESTORE_GPRS
    mret

    .balign 4
    .global strap_vector
strap_vector:
    csrrw   sp, sscratch, sp
    addi    sp, sp, -FRAME
    SAVE_GPRS
    csrr    t0, sscratch
    sd      t0, 16(sp)
    csrr    t0, sepc
    sd      t0, 256(sp)
    csrr    t0, scause
    sd      t0, 264(sp)
    csrr    t0, stval
    sd      t0, 272(sp)
    csrr    t0, sstatus
    sd      t0, 280(sp)
    mv      a0, sp
    call    s_trap_c
    addi    t0, sp, FRAME
    csrw    sscratch, t0
    ld      t0, 256(sp)
    csrw    sepc, t0
    RESTORE_GPRS
    sret

    .global run_lower
run_lower:
    la      t0, m_ctx
    sd      ra, 0(t0)
    sd      sp, 8(t0)
    sd      s0, 16(t0)
    sd      s1, 24(t0)
    sd      s2, 32(t0)
    sd      s3, 40(t0)
    sd      s4, 48(t0)
    sd      s5, 56(t0)
    sd      s6, 64(t0)
    sd      s7, 72(t0)
    sd      s8, 80(t0)
    sd      s9, 88(t0)
    sd      s10, 96(t0)
    sd      s11, 104(t0)
    /*
     * A trap from VS/VU leaves mstatus.MPV = 1 and this QEMU ignores csrw/csrc
     * of MPV, but mret clears it: mret to the next instruction with MPP = M.
     */
    li      t1, 0x1800
    csrs    mstatus, t1
    la      t1, 7f
    csrw    mepc, t1
    mret
7:  li      t1, 0x21800             /* MPRV | MPP */
    csrc    mstatus, t1
    li      t1, 1
    slli    t1, t1, 39              /* MPV (RV64) */
    and     t2, a0, t1
    bnez    t2, 5f
    csrs    mstatus, a0
    la      t1, lower_entry
    csrw    mepc, t1
    mv      a0, a2
    mret
    /*
     * VS / VU: mstatus.MPV is not writable in this QEMU (csrw leaves it 0),
     * so enter with sret from M-mode instead: V := hstatus.SPV, mode := SPP.
     */
5:  li      t1, 0x100               /* SPP */
    csrc    mstatus, t1
    li      t2, 0x800               /* MPP = S in mstatus_set -> SPP = S (VS) */
    and     t2, a0, t2
    beqz    t2, 6f
    csrs    mstatus, t1
6:  li      t1, 0x80                /* hstatus.SPV */
    csrs    0x600, t1
    la      t1, lower_entry
    csrw    sepc, t1
    mv      a0, a2
    sret
lower_entry:
    jalr    a1
    li      a7, RT_ECALL_MAGIC
    ecall
4:  j       4b

lower_resume:
    la      t0, m_ctx
    ld      ra, 0(t0)
    ld      sp, 8(t0)
    ld      s0, 16(t0)
    ld      s1, 24(t0)
    ld      s2, 32(t0)
    ld      s3, 40(t0)
    ld      s4, 48(t0)
    ld      s5, 56(t0)
    ld      s6, 64(t0)
    ld      s7, 72(t0)
    ld      s8, 80(t0)
    ld      s9, 88(t0)
    ld      s10, 96(t0)
    ld      s11, 104(t0)
    la      t1, lower_result
    ld      a0, 0(t1)
    ret

    .bss
    .balign 8
m_ctx:
    .space  14 * 8
