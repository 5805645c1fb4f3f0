/*
 * TL CSRs under qemu-riscv64 -cpu rv64,xtl=on: reset values, WARL masks,
 * read/write/set/clear, and that a write (even of zero) initializes a CSR.
 * Expected values are the decisions document's CSR table.
 */
#include "tl_test.h"
#include "tl/tl_insn.h"

struct csr_spec {
    unsigned num;
    const char *name;
    unsigned long reset;
    unsigned long writable; /* bits that are not reserved (WARL zero) */
};

static const struct csr_spec csrs[] = {
    { TL_CSR_TTYPE, "ttype", 0x002, 0xfff },
    { TL_CSR_TSHAPE, "tshape", 0, 0xffffff },
    { TL_CSR_TMASK_LS, "tmask_ls", 0, 0xffffffff },
    { TL_CSR_TMASK_CONCAT_1, "tmask_concat_1", 0, 0xffffffff },
    { TL_CSR_TMASK_CONCAT_2, "tmask_concat_2", 0, 0xffffffff },
    { TL_CSR_TMASK_LOAD_STRIDE, "tmask_load_stride", 0, 0xffffffff },
    { TL_CSR_TMASK_LOAD_WIDTH, "tmask_load_width", 0, 0xffffffff },
    { TL_CSR_TVALID, "tvalid", 0, 0xffffff },
};

/* csrr/csrw need the CSR number in the instruction: dispatch on it. */
#define CSR_CASES(X) X(0x800) X(0x801) X(0x802) X(0x803) X(0x804) X(0x805) X(0x806) X(0x807)

static unsigned long csr_read(unsigned num)
{
#define READ_CASE(n) case n: return tl_csr_read(n);
    switch (num) { CSR_CASES(READ_CASE) }
    abort();
}

static void csr_write(unsigned num, unsigned long v)
{
#define WRITE_CASE(n) case n: tl_csr_write(n, v); return;
    switch (num) { CSR_CASES(WRITE_CASE) }
    abort();
}

static unsigned long csr_set(unsigned num, unsigned long v)
{
    unsigned long old;
#define SET_CASE(n) case n: __asm__ volatile("csrrs %0, " #n ", %1" : "=r"(old) : "r"(v)); return old;
    switch (num) { CSR_CASES(SET_CASE) }
    abort();
}

static unsigned long csr_clear(unsigned num, unsigned long v)
{
    unsigned long old;
#define CLEAR_CASE(n) case n: __asm__ volatile("csrrc %0, " #n ", %1" : "=r"(old) : "r"(v)); return old;
    switch (num) { CSR_CASES(CLEAR_CASE) }
    abort();
}

static unsigned long csr_swap(unsigned num, unsigned long v)
{
    unsigned long old;
#define SWAP_CASE(n) case n: __asm__ volatile("csrrw %0, " #n ", %1" : "=r"(old) : "r"(v)); return old;
    switch (num) { CSR_CASES(SWAP_CASE) }
    abort();
}

int main(void)
{
    tl_trap_install();
    size_t n = sizeof(csrs) / sizeof(csrs[0]);

    /*
     * Initialization is visible through instructions: tl.concat needs tshape
     * and both concat masks.  At reset they are uninitialized, so it traps.
     */
    int sig = TL_TRAPS(tl_concat(0, 1, 2, 3));
    tl_check(sig == SIGILL, "tl.concat.0 right after reset (tshape uninitialized) raises SIGILL (got %d)", sig);

    for (size_t i = 0; i < n; i++) {
        unsigned long v = csr_read(csrs[i].num);
        tl_check(v == csrs[i].reset, "%s (0x%x) reads its reset value 0x%lx after reset (got 0x%lx)",
                 csrs[i].name, csrs[i].num, csrs[i].reset, v);
    }

    /* csrs with a zero operand is a write: it initializes without changing the value. */
    register unsigned long zero = 0;
    __asm__ volatile("csrs 0x801, %0" : : "r"(zero));
    __asm__ volatile("csrs 0x803, %0" : : "r"(zero));
    __asm__ volatile("csrc 0x804, %0" : : "r"(zero));
    sig = TL_TRAPS(tl_concat(0, 1, 2, 3));
    tl_check(sig == SIGILL, "tl.concat.0 with tshape = 0 (initialized by csrs of zero, but D0 = 0) raises SIGILL (got %d)", sig);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(1, 1, 4));
    sig = TL_TRAPS(tl_concat(0, 1, 2, 3));
    tl_check(sig == 0, "tl.concat.0 runs once tshape is valid and csrs/csrc of zero initialized both concat masks (signal %d)", sig);

    for (size_t i = 0; i < n; i++) {
        const struct csr_spec *c = &csrs[i];

        csr_write(c->num, ~0ul);
        unsigned long v = csr_read(c->num);
        tl_check(v == c->writable, "%s: writing all ones reads back 0x%lx: reserved bits and bits 63:32 read as zero (got 0x%lx)",
                 c->name, c->writable, v);

        unsigned long pattern = 0xa5a5a5a5f00dcafeul;
        csr_write(c->num, pattern);
        v = csr_read(c->num);
        tl_check(v == (pattern & c->writable), "%s: csrw 0x%lx reads back 0x%lx (got 0x%lx)",
                 c->name, pattern, pattern & c->writable, v);

        unsigned long old = csr_swap(c->num, 0x12345);
        tl_check(old == (pattern & c->writable), "%s: csrrw returns the old value 0x%lx (got 0x%lx)",
                 c->name, pattern & c->writable, old);
        old = csr_set(c->num, 0x80000000ul);
        v = csr_read(c->num);
        tl_check(old == (0x12345 & c->writable) && v == ((0x12345 | 0x80000000ul) & c->writable),
                 "%s: csrrs sets bit 31 where writable: old 0x%lx new 0x%lx", c->name, old, v);
        old = csr_clear(c->num, 0x5ul);
        v = csr_read(c->num);
        tl_check(v == ((0x12340 | 0x80000000ul) & c->writable),
                 "%s: csrrc clears bits 0 and 2: reads 0x%lx (expected 0x%lx)", c->name, v,
                 (0x12340 | 0x80000000ul) & c->writable);
    }
    return tl_test_finish();
}
