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

/* All nine TL CSRs and tl1..tl31: the state the save sequence must keep. */
struct tl_snapshot {
    unsigned long csr[9];
    uint8_t reg[32][1024];
};

static unsigned long read_csr(unsigned i)
{
    switch (i) {
    case 0: return tl_csr_read(0x800);
    case 1: return tl_csr_read(0x801);
    case 2: return tl_csr_read(0x802);
    case 3: return tl_csr_read(0x803);
    case 4: return tl_csr_read(0x804);
    case 5: return tl_csr_read(0x805);
    case 6: return tl_csr_read(0x806);
    case 7: return tl_csr_read(0x807);
    case 8: return tl_csr_read(0x808);
    }
    abort();
}

static void write_csr(unsigned i, unsigned long v)
{
    switch (i) {
    case 0: tl_csr_write(0x800, v); return;
    case 1: tl_csr_write(0x801, v); return;
    case 2: tl_csr_write(0x802, v); return;
    case 3: tl_csr_write(0x803, v); return;
    case 4: tl_csr_write(0x804, v); return;
    case 5: tl_csr_write(0x805, v); return;
    case 6: tl_csr_write(0x806, v); return;
    case 7: tl_csr_write(0x807, v); return;
    case 8: tl_csr_write(0x808, v); return;
    }
    abort();
}

/* tl.load/tl.store need constant register numbers: one case each. */
#define REG_CASES(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) \
    X(28) X(29) X(30) X(31)
static void load_reg(unsigned r, const void *p)
{
#define LOAD_CASE(n) case n: tl_load(n, 0, p); return;
    switch (r) { REG_CASES(LOAD_CASE) }
    abort();
}
static void store_reg(unsigned r, void *p)
{
#define STORE_CASE(n) case n: tl_store(n, 0, p); return;
    switch (r) { REG_CASES(STORE_CASE) }
    abort();
}

/* Whole registers as one contiguous 1024-byte int8 block [4,16,16], W = P = 256. */
static void whole_register_view(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
}

/* The save sequence of docs/isa.md 2.6. */
static void tl_save(struct tl_snapshot *s)
{
    for (unsigned i = 0; i < 9; i++) {
        s->csr[i] = read_csr(i);
    }
    whole_register_view();
    memset(s->reg[0], 0, sizeof(s->reg[0]));
    for (unsigned r = 1; r < 32; r++) {
        store_reg(r, s->reg[r]);
    }
}

/* The restore sequence: registers, then 0x800..0x807, tinit last. */
static void tl_restore(const struct tl_snapshot *s)
{
    whole_register_view();
    for (unsigned r = 1; r < 32; r++) {
        load_reg(r, s->reg[r]);
    }
    for (unsigned i = 0; i < 8; i++) {
        write_csr(i, s->csr[i]);
    }
    write_csr(8, s->csr[8]);
}

/* What the state is, read without changing it: CSRs first, then registers. */
static void observe(struct tl_snapshot *s)
{
    tl_save(s);
}

static struct tl_snapshot saved, after;

static void check_save_restore(void)
{
    /*
     * A state with ttype fp16, tshape [2,4,8], tmask_ls 0xa5, tvalid
     * [1,2,3] initialized; tmask_concat_1/2, stride and width not.
     * tinit = bits 0,1,2,7 = 0x87.
     */
    whole_register_view();
    for (unsigned r = 1; r < 32; r++) {
        static uint8_t buf[1024];
        for (int i = 0; i < 1024; i++) {
            buf[i] = (uint8_t)(r * 31 + i * 7);
        }
        load_reg(r, buf);
    }
    tl_csr_write(TL_CSR_TINIT, 0x01);   /* every flag but ttype's off: values 0 */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 4, 8));
    tl_csr_write(TL_CSR_TMASK_LS, 0xa5);
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 2, 3));
    tl_check(TINIT_READ() == 0x87, "the state to save has tinit 0x87 (got %#lx)", TINIT_READ());

    /* Reading through the save sequence changes the CSRs, so observe a copy via save+restore. */
    tl_save(&saved);
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
    whole_register_view();
    for (unsigned r = 1; r < 32; r++) {
        static uint8_t junk[1024];
        memset(junk, 0xee, sizeof(junk));
        load_reg(r, junk);
    }
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x33);
    tl_csr_write(TL_CSR_TINIT, 0xff);
    tl_restore(&saved);

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
    observe(&after);
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
