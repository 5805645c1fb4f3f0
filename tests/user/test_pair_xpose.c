/*
 * tl.load A; tl.load B; tl.xpose A, B as three words in a row, which
 * qemu-riscv64 runs in one pass (docs/performance.md): the registers equal
 * the ISA's outcome and the same three words with a nop between each
 * (which are not run together), for transposes and interleaves of every
 * element size, whole-register and strided loads; a fault in either load
 * and an illegal xpose trap at their own instruction with the state the
 * instructions before it left (the first load done, or both); registers
 * named twice or tl0 still give the ISA's outcome; the words rewritten
 * after they ran (a different swap, a different register) take effect; a
 * sequence across a page boundary; and many runs of one translated block.
 *
 * Expected bytes come from docs/isa.md written out in tests/tl_ref.h: the
 * load rule of 5.2 and the element loop of 5.5.
 */
#include <sys/mman.h>
#include <unistd.h>
#include "tl_test.h"
#include "tl_state.h"
#include "tl/tl_insn.h"
#include "../tl_ref.h"

#define PG 4096
#define NOP 0x00000013u
#define RET 0x00008067u

static uint8_t *code;               /* 2 pages, executable */
static uint8_t *data;               /* 8 pages of sources */
static uint8_t *faulty;             /* 2 pages: the second made inaccessible (its own mapping, so
                                       that data stays one mapping) */
static uint8_t got[2][1024], want[2][1024];
/*
 * The registers' bytes before a case, in data's mapping: the range of pages
 * a thread last found mapped for its loads stays the sources', as in a
 * kernel's loop, so that the three words are run together from the first
 * time (qemu-riscv64 only does so in memory it has found mapped).
 */
static uint8_t (*before)[1024];

/* The three words (and, with gaps, a nop after the first two) at code + off, then ret. */
static uint32_t *put_triple(unsigned off, unsigned a_reg, unsigned b_reg, unsigned da, unsigned db,
                            int gaps)
{
    uint32_t *w = (uint32_t *)(code + off);
    unsigned n = 0;

    w[n++] = TL_ENC_MEM(TL_ENG_LOAD, 0, 0, a_reg, 0, 5);         /* tl.load A, 0(t0) */
    if (gaps) w[n++] = NOP;
    w[n++] = TL_ENC_MEM(TL_ENG_LOAD, 0, 0, b_reg, 0, 7);         /* tl.load B, 0(t2) */
    if (gaps) w[n++] = NOP;
    w[n++] = TL_ENC_XPOSE(TL_ENG_RESHAPE, da, db, a_reg, b_reg, 6); /* tl.xpose.ab A, B, t1 */
    w[n++] = RET;
    __builtin___clear_cache((char *)w, (char *)(w + n));
    return w;
}

/* Runs code at w with t0 = p1, t2 = p2, t1 = dims; 0 or the signal raised. */
static int run(const uint32_t *w, const void *p1, const void *p2, uint32_t dims)
{
    tl_trap_pc = 0;
    return TL_TRAPS({
        register const void *r_t0 __asm__("t0") = p1;
        register const void *r_t2 __asm__("t2") = p2;
        register unsigned long r_t1 __asm__("t1") = dims;
        __asm__ volatile("jalr ra, 0(%0)"
                         : : "r"(w), "r"(r_t0), "r"(r_t2), "r"(r_t1)
                         : "ra", "memory");
    });
}

static void fill_regs(unsigned a, unsigned b, unsigned seed)
{
    for (unsigned i = 0; i < 1024; i++) {
        before[0][i] = (uint8_t)(i * 13 + seed);
        before[1][i] = (uint8_t)(i * 29 + seed + 1);
    }
    tl_state_load_pair(a, b, before);
}

/*
 * The registers ra, rb set to before's bytes, the CSRs to the plan, the code
 * at w run (t0 = p1, t2 = p2, t1 = dims), then ra and rb read into got;
 * the signal raised or 0.
 */
static int run_case(const uint32_t *w, unsigned ra, unsigned rb, unsigned seed, uint32_t ttype,
                    uint32_t shape, uint32_t width, int32_t pitch, const void *p1, const void *p2,
                    uint32_t dims)
{
    int sig;

    fill_regs(ra, rb, seed);
    tl_state_set_plan(ttype, shape, width, pitch);
    sig = run(w, p1, p2, dims);
    tl_state_store_pair(ra, rb, got);
    return sig;
}

static int regs_are(const uint8_t (*w)[1024])
{
    return memcmp(got[0], w[0], 1024) == 0 && memcmp(got[1], w[1], 1024) == 0;
}

int main(void)
{
    int sig, ok;

    setvbuf(stdout, NULL, _IONBF, 0);
    tl_trap_install();
    code = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    faulty = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED || data == MAP_FAILED || faulty == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    for (unsigned i = 0; i < 8 * PG; i++) {
        data[i] = (uint8_t)(i * 7 + (i >> 8) * 3 + 1);
    }
    before = (uint8_t (*)[1024])(data + 7 * PG);

    /*
     * Every case runs its code twice: the first run translates it (and the
     * code page, written just before, is protected again, which makes the
     * pages found mapped be looked up again), the second runs the block as
     * a program's loop does.
     */

    /* 1. the ISA's outcome, with the words in a row and with nops between */
    static const struct {
        uint32_t ttype;
        unsigned e, D[4], a, b;
        unsigned d0, s, w;             /* the loads' plan: d0 slices of s bytes, width w bytes */
        long p;
    } cases[] = {
        {TL_TYPE_INT8, 8, {2, 64, 16, 1}, 0, 1, 32, 32, 32, 32},     /* 16-byte channel interleave */
        {TL_TYPE_INT8, 8, {2, 128, 8, 1}, 0, 1, 32, 32, 32, 32},     /* 8-byte runs */
        {TL_TYPE_INT8, 8, {2, 32, 32, 1}, 1, 0, 32, 32, 32, 32},     /* the pair written 10 */
        {TL_TYPE_INT16, 16, {2, 16, 32, 1}, 0, 1, 32, 32, 32, 32},   /* 64-byte runs */
        {TL_TYPE_INT8, 8, {32, 64, 1, 1}, 0, 1, 16, 64, 64, 300},    /* a transpose of strided rows */
        {TL_TYPE_INT32, 32, {8, 4, 16, 1}, 1, 2, 32, 32, 24, 40},    /* width < slice: zeros loaded */
        {TL_TYPE_INT4, 4, {2, 2, 32, 32}, 0, 3, 16, 64, 64, 64},     /* nibbles, another pair */
        {TL_TYPE_INT8, 8, {2, 64, 16, 1}, 2, 2, 32, 32, 32, 32},     /* a swap with itself */
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const uint8_t *src1 = data + 100 + 64 * k, *src2 = data + 3 * PG + 8 * k;
        const uint32_t dims = TL_DIMS4(cases[k].D[0], cases[k].D[1], cases[k].D[2], cases[k].D[3]);
        load_ref(want[0], src1, cases[k].d0, cases[k].s, cases[k].w, cases[k].p);
        load_ref(want[1], src2, cases[k].d0, cases[k].s, cases[k].w, cases[k].p);
        xpose_ref_pair(want, cases[k].D, cases[k].a, cases[k].b, cases[k].e);
        for (int gaps = 0; gaps < 2; gaps++) {
            const unsigned ra = 3 + k, rb = 20 - k;
            const uint32_t *w = put_triple(64 * k, ra, rb, cases[k].a, cases[k].b, gaps);
            ok = 1;
            for (int rep = 0; rep < 2; rep++) {
                /* slices of s bytes: s * 8 / e elements of the case's type */
                sig = run_case(w, ra, rb, k, cases[k].ttype,
                               TL_SHAPE(cases[k].d0, 1, cases[k].s * 8 / cases[k].e), cases[k].w,
                               (int32_t)cases[k].p, src1, src2, dims);
                ok &= sig == 0 && regs_are(want);
            }
            tl_check(ok, "case %u (ttype %#x, [%u,%u,%u,%u] swap %u%u, loads of %u x %u bytes, pitch "
                         "%ld)%s: the ISA's registers", k, cases[k].ttype, cases[k].D[0], cases[k].D[1],
                     cases[k].D[2], cases[k].D[3], cases[k].a, cases[k].b, cases[k].d0, cases[k].w,
                     cases[k].p, gaps ? " with nops between" : ", in a row");
        }
    }

    /* 2. the second load faults: SIGSEGV there, the first load done, B unchanged */
    uint32_t *w = put_triple(0, 1, 2, 0, 1, 0);
    mprotect(faulty + PG, PG, PROT_NONE);
    memcpy(want[0], data, 1024);
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        sig = run_case(w, 1, 2, 40, TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32, data, faulty + PG,
                       TL_DIMS4(2, 64, 16, 1));
        memcpy(want[1], before[1], 1024);
        ok &= sig == SIGSEGV && tl_trap_addr == faulty + PG && tl_trap_pc == (unsigned long)(w + 1) &&
              regs_are(want);
    }
    tl_check(ok, "the second load faults: SIGSEGV at its address (%p) and pc (%#lx, want %p), the "
                 "first register loaded, the second unchanged", tl_trap_addr, tl_trap_pc, (void *)(w + 1));

    /* 3. the first load faults: SIGSEGV there, nothing changed */
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        sig = run_case(w, 1, 2, 41, TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32, faulty + PG - 512,
                       data, TL_DIMS4(2, 64, 16, 1));
        ok &= sig == SIGSEGV && tl_trap_addr == faulty + PG && tl_trap_pc == (unsigned long)w &&
              regs_are(before);
    }
    tl_check(ok, "the first load faults half-way into its span: SIGSEGV at the first byte of the "
                 "page (%p) and at its pc (%#lx), both registers unchanged", tl_trap_addr, tl_trap_pc);

    /* 4. an illegal xpose: SIGILL at it, both loads done */
    memcpy(want[0], data + 10, 1024);
    memcpy(want[1], data + 2000, 1024);
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        sig = run_case(w, 1, 2, 42, TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32, data + 10, data + 2000,
                       TL_DIMS4(2, 64, 16, 2)); /* 4096 bytes, not 2048 */
        ok &= sig == SIGILL && tl_trap_pc == (unsigned long)(w + 2) && regs_are(want);
    }
    tl_check(ok, "an xpose of a tensor that is not 2048 bytes: SIGILL at the xpose (pc %#lx, want "
                 "%p), both registers loaded", tl_trap_pc, (void *)(w + 2));
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        sig = run_case(w, 1, 2, 43, 0x003, TL_SHAPE(32, 1, 32), 32, 32, data, data + 2000,
                       TL_DIMS4(2, 64, 16, 1)); /* an invalid ttype: the loads and the xpose trap */
        ok &= sig == SIGILL && tl_trap_pc == (unsigned long)w && regs_are(before);
    }
    tl_check(ok, "an invalid ttype: SIGILL at the first load (pc %#lx), nothing changed", tl_trap_pc);

    /* 5. both loads to one register, and tl0 */
    w = put_triple(0, 5, 5, 0, 1, 0);
    memcpy(want[0], data + 3000, 1024);
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        sig = run_case(w, 5, 6, 44, TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32, data, data + 3000,
                       TL_DIMS4(2, 64, 16, 1));
        memcpy(want[1], before[1], 1024);
        ok &= sig == SIGILL && tl_trap_pc == (unsigned long)(w + 2) && regs_are(want);
    }
    tl_check(ok, "both loads to tl5 and tl.xpose tl5, tl5: the second load's bytes, then SIGILL at "
                 "the xpose");
    for (unsigned zero = 0; zero < 2; zero++) {
        /* tl0 first (tl8 second), or tl7 first and tl0 second */
        const unsigned ra = zero == 0 ? 0 : 7, rb = zero == 0 ? 8 : 0, other = zero == 0 ? 8 : 7;
        const unsigned D[4] = {2, 64, 16, 1};
        static const uint8_t zeros[1024];
        memcpy(want[0], data + 5, 1024);
        memcpy(want[1], data + 1500, 1024);
        memset(want[zero == 0 ? 0 : 1], 0, 1024);    /* tl0 reads zero */
        xpose_ref_pair(want, D, 0, 1, 8);
        w = put_triple(0, ra, rb, 0, 1, 0);
        ok = 1;
        for (int rep = 0; rep < 2; rep++) {
            sig = run_case(w, other, other, 45, TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32, data + 5,
                           data + 1500, TL_DIMS4(2, 64, 16, 1));
            tl_store(0, 0, got[1]);
            ok &= sig == 0 && memcmp(got[0], want[zero == 0 ? 1 : 0], 1024) == 0 &&
                  memcmp(got[1], zeros, 1024) == 0;
        }
        tl_check(ok, "a load into tl0 as the %s: the transpose reads zeros for it, tl%u holds its "
                     "half, tl0 stays zero", zero == 0 ? "first" : "second", other);
    }

    /* 6. the words rewritten after they ran */
    w = put_triple(256, 10, 11, 0, 1, 0);
    {
        const unsigned D[4] = {2, 64, 16, 1};
        ok = 1;
        for (unsigned round = 0; round < 3; round++) {
            if (round == 1) {
                w[2] = TL_ENC_XPOSE(TL_ENG_RESHAPE, 2, 2, 10, 11, 6);   /* a swap with itself */
            } else if (round == 2) {
                w[1] = TL_ENC_MEM(TL_ENG_LOAD, 0, 0, 12, 0, 7);         /* the second load to tl12 */
                w[2] = TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, 10, 12, 6);
            }
            __builtin___clear_cache((char *)w, (char *)(w + 4));
            memcpy(want[0], data + 64 * round, 1024);
            memcpy(want[1], data + 4096 + 64 * round, 1024);
            if (round != 1) {
                xpose_ref_pair(want, D, 0, 1, 8);
            }
            for (int rep = 0; rep < 2; rep++) {
                sig = run_case(w, 10, round == 2 ? 12 : 11, 46 + round, TL_TYPE_INT8, TL_SHAPE(32, 1, 32),
                               32, 32, data + 64 * round, data + 4096 + 64 * round, TL_DIMS4(2, 64, 16, 1));
                ok &= sig == 0 && regs_are(want);
            }
        }
        tl_check(ok, "the triple run, its xpose rewritten to another swap, then its second load to "
                     "another register: each run gives the words' outcome");
    }

    /* 7. across a page boundary: the xpose on the next page */
    w = put_triple(PG - 8, 13, 14, 0, 1, 0);
    {
        const unsigned D[4] = {2, 64, 16, 1};
        memcpy(want[0], data + 7, 1024);
        memcpy(want[1], data + 5000, 1024);
        xpose_ref_pair(want, D, 0, 1, 8);
        ok = 1;
        for (int rep = 0; rep < 2; rep++) {
            sig = run_case(w, 13, 14, 50, TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32, data + 7, data + 5000,
                           TL_DIMS4(2, 64, 16, 1));
            ok &= sig == 0 && regs_are(want);
        }
        tl_check(ok, "the three words across a page boundary: the ISA's registers");
    }

    /* 8. one translated block run many times, its sources changing */
    w = put_triple(512, 15, 16, 0, 1, 0);
    {
        const unsigned D[4] = {2, 64, 16, 1};
        ok = 1;
        for (unsigned i = 0; i < 300; i++) {
            tl_state_set_plan(TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32, 32);
            data[PG + i] ^= 0x5A;
            sig = run(w, data + i, data + PG + 3 * i, TL_DIMS4(2, 64, 16, 1));
            if (i % 50 == 49) {
                tl_state_store_pair(15, 16, got);
                memcpy(want[0], data + i, 1024);
                memcpy(want[1], data + PG + 3 * i, 1024);
                xpose_ref_pair(want, D, 0, 1, 8);
                ok &= sig == 0 && regs_are(want);
            }
        }
        tl_check(ok, "300 runs of one block, the sources moving and changing: the ISA's registers");
    }
    return tl_test_finish();
}
