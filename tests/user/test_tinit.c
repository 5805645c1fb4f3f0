/*
 * CSR tinit (0x808) under qemu-riscv64: reset value, the read-only ttype
 * bit, WARL bits, clearing a flag clears the value, setting one keeps it,
 * csrs/csrc bitwise, and the exact save/restore sequence of docs/isa.md
 * section 2.6 round-tripping a state with uninitialized CSRs.
 *
 *   test_tinit        with xtl
 *   test_tinit off    without xtl: every tinit access is SIGILL
 *
 * Expected values are hand-computed from the rules in docs/isa.md 2.6.
 */
#include "tl_test.h"
#include "tl_state.h"
#include "tl/tl_insn.h"

#define TINIT_READ() tl_csr_read(TL_CSR_TINIT)

static unsigned long csrrs_tinit(unsigned long v)
{
    unsigned long old;
    __asm__ volatile("csrrs %0, 0x808, %1" : "=r"(old) : "r"(v));
    return old;
}

static unsigned long csrrc_tinit(unsigned long v)
{
    unsigned long old;
    __asm__ volatile("csrrc %0, 0x808, %1" : "=r"(old) : "r"(v));
    return old;
}

static struct tl_full_state saved, after;

static void check_save_restore(void)
{
    /*
     * A state with ttype fp16, tshape [2,4,8], tmask_ls 0xa5, tvalid
     * [1,2,3] initialized; tmask_concat_1/2, stride and width not.
     * tinit = bits 0,1,2,7 = 0x87.
     */
    tl_state_whole_register_view();
    for (unsigned r = 1; r < 32; r++) {
        static uint8_t buf[1024];
        for (int i = 0; i < 1024; i++) {
            buf[i] = (uint8_t)(r * 31 + i * 7);
        }
        tl_state_load_reg(r, buf);
    }
    tl_csr_write(TL_CSR_TINIT, 0x01);   /* every flag but ttype's off: values 0 */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 4, 8));
    tl_csr_write(TL_CSR_TMASK_LS, 0xa5);
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 2, 3));
    tl_check(TINIT_READ() == 0x87, "the state to save has tinit 0x87 (got %#lx)", TINIT_READ());

    tl_state_read(&saved);
    tl_check(saved.csr[8] == 0x87 && saved.csr[0] == TL_TYPE_FP16 && saved.csr[1] == TL_SHAPE(2, 4, 8) &&
             saved.csr[2] == 0xa5 && saved.csr[3] == 0 && saved.csr[5] == 0 && saved.csr[6] == 0 &&
             saved.csr[7] == TL_SHAPE(1, 2, 3),
             "the save sequence read ttype %#lx tshape %#lx tmask_ls %#lx stride %#lx width %#lx "
             "tvalid %#lx tinit %#lx", saved.csr[0], saved.csr[1], saved.csr[2], saved.csr[5],
             saved.csr[6], saved.csr[7], saved.csr[8]);
    int regs_ok = 1;
    for (unsigned r = 1; r < 32; r++) {
        for (int i = 0; i < 1024; i++) {
            regs_ok &= saved.reg[r][i] == (uint8_t)(r * 31 + i * 7);
        }
    }
    tl_check(regs_ok, "the save sequence stored tl1..tl31 byte for byte");

    /* Clobber everything, then restore. */
    tl_state_whole_register_view();
    for (unsigned r = 1; r < 32; r++) {
        static uint8_t junk[1024];
        memset(junk, 0xee, sizeof(junk));
        tl_state_load_reg(r, junk);
    }
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x33);
    tl_csr_write(TL_CSR_TINIT, 0xff);
    tl_state_write(&saved);

    tl_check(TINIT_READ() == 0x87, "after the restore sequence tinit is 0x87 again (got %#lx)",
             TINIT_READ());
    unsigned long cat1 = tl_csr_read(TL_CSR_TMASK_CONCAT_1), width = tl_csr_read(TL_CSR_TMASK_LOAD_WIDTH);
    unsigned long stride = tl_csr_read(TL_CSR_TMASK_LOAD_STRIDE);
    tl_check(cat1 == 0 && width == 0 && stride == 0,
             "CSRs uninitialized before the save read 0 after the restore (concat_1 %#lx width %#lx stride %#lx)",
             cat1, width, stride);
    tl_check(tl_csr_read(TL_CSR_TTYPE) == TL_TYPE_FP16 && tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(2, 4, 8) &&
             tl_csr_read(TL_CSR_TMASK_LS) == 0xa5 && tl_csr_read(TL_CSR_TVALID) == TL_SHAPE(1, 2, 3),
             "initialized CSRs have their values again");
    int sig = TL_TRAPS(tl_concat(0, 1, 2, 3));
    tl_check(sig == SIGILL, "tl.concat.0 traps again because tmask_concat_1 is uninitialized (signal %d)", sig);
    tl_state_read(&after);
    regs_ok = 1;
    for (unsigned r = 1; r < 32; r++) {
        regs_ok &= memcmp(after.reg[r], saved.reg[r], 1024) == 0;
    }
    tl_check(regs_ok, "tl1..tl31 are restored byte for byte");
}

int main(int argc, char **argv)
{
    int sig;

    tl_trap_install();
    if (argc > 1 && strcmp(argv[1], "off") == 0) {
        unsigned long v = 0;
        sig = TL_TRAPS(v = tl_csr_read(TL_CSR_TINIT));
        tl_check(sig == SIGILL, "without xtl, csrr tinit raises SIGILL (signal %d, value %lu)", sig, v);
        sig = TL_TRAPS(tl_csr_write(TL_CSR_TINIT, 0xff));
        tl_check(sig == SIGILL, "without xtl, csrw tinit raises SIGILL (signal %d)", sig);
        return tl_test_finish();
    }

    tl_check(TINIT_READ() == 0x01, "tinit reads 0x01 after reset: only ttype initialized (got %#lx)",
             TINIT_READ());
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(1, 1, 4));
    tl_check(TINIT_READ() == 0x03, "after csrw tshape, tinit reads 0x03 (got %#lx)", TINIT_READ());
    register unsigned long zero = 0;
    __asm__ volatile("csrs 0x802, %0" : : "r"(zero));
    tl_check(TINIT_READ() == 0x07, "csrs tmask_ls with zero initializes it: tinit 0x07 (got %#lx)",
             TINIT_READ());
    __asm__ volatile("csrs 0x808, %0" : : "r"(zero));
    tl_check(TINIT_READ() == 0x07, "csrs tinit with zero changes nothing (got %#lx)", TINIT_READ());

    tl_csr_write(TL_CSR_TINIT, 0xffffffffffffffffull);
    tl_check(TINIT_READ() == 0xff, "csrw tinit of all ones reads 0xff: bits 63:8 are WARL zero (got %#lx)",
             TINIT_READ());
    tl_check(tl_csr_read(TL_CSR_TVALID) == 0 && tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(1, 1, 4),
             "a flag set by tinit keeps the value: tvalid 0 (never written), tshape kept");

    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT16);
    tl_csr_write(TL_CSR_TINIT, 0);
    tl_check(TINIT_READ() == 0x01, "csrw tinit 0 reads 0x01: the ttype bit is read-only 1 (got %#lx)",
             TINIT_READ());
    tl_check(tl_csr_read(TL_CSR_TTYPE) == TL_TYPE_INT16 && tl_csr_read(TL_CSR_TSHAPE) == 0,
             "ttype keeps its value (%#lx); tshape, whose flag was cleared, reads 0 (%#lx)",
             tl_csr_read(TL_CSR_TTYPE), tl_csr_read(TL_CSR_TSHAPE));
    static uint8_t buf[1024];
    sig = TL_TRAPS(tl_load(1, 0, buf));
    tl_check(sig == SIGILL, "tl.load with tshape uninitialized by tinit raises SIGILL (signal %d)", sig);

    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(1, 1, 4));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 3);
    unsigned long old = csrrc_tinit(1u << 6);
    tl_check(old == 0x43 && TINIT_READ() == 0x03 && tl_csr_read(TL_CSR_TMASK_LOAD_WIDTH) == 0,
             "csrrc tinit bit 6: old %#lx, now %#lx, tmask_load_width cleared to %#lx",
             old, TINIT_READ(), tl_csr_read(TL_CSR_TMASK_LOAD_WIDTH));
    old = csrrs_tinit(1u << 7);
    tl_check(old == 0x03 && TINIT_READ() == 0x83 && tl_csr_read(TL_CSR_TVALID) == 0,
             "csrrs tinit bit 7: old %#lx, now %#lx, tvalid initialized with value 0", old,
             TINIT_READ());

    check_save_restore();
    return tl_test_finish();
}
