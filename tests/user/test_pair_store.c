/*
 * tl.load A; tl.load B; tl.xpose A, B; tl.store A; tl.store B as five
 * words in a row, which qemu-riscv64 runs in one pass when it can
 * (helper_xtl_load_pair_xpose_store): the two registers and the memory the
 * stores leave equal the ISA's outcome of the five in order and that of the
 * same five words with a nop between each (which are never run together),
 * for interleaves and transposes of several element sizes, whole-register
 * and strided plans; stores that overlap each other (run together) or the
 * loads' sources (run one by one);
 * the stores' immediates and base registers; a fault of either store or
 * either load and an illegal xpose trap at their own instruction, with the
 * state the instructions before it left; the words rewritten after they ran
 * take effect; stores into the page that holds the code and into a page
 * holding other translated code (which must then run as written); the five
 * across a page boundary; many runs of one translated block; one block run
 * in a loop with the CSRs written once (the translated code's own checks of
 * the common case), then run with sources and outputs that overlap, other
 * dims, another ttype, another swap of the same dims, stores that fault;
 * and the tile API's tl_load_load_xpose_store_store.  After the five, one addi counts
 * the runs that reached the instruction after them: exactly one per run.
 *
 * Expected bytes come from docs/isa.md written out in tests/tl_ref.h (the
 * load and store rules of 5.2, the element loop of 5.5), applied to the
 * words in program order by model() below.  Every run also compares the
 * whole data area, so a byte stored outside the stores' spans is seen.
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
#define ADDI_T5_1 0x001f0f13u       /* addi t5, t5, 1 */
#define LI_A0(v) ((((uint32_t)(v) & 0xfffu) << 20) | 0x00000513u)   /* addi a0, zero, v */
#define FENCE_I __asm__ volatile("fence.i" : : : "memory")

#define G_T0 5                      /* the first load's base */
#define G_T1 6                      /* the xpose's dims */
#define G_T2 7                      /* the second load's base */
#define G_T3 28                     /* the first store's base */
#define G_T4 29                     /* the second store's base */

#define AREA_PAGES 16
#define AREA (AREA_PAGES * PG)

static uint8_t *code;               /* 2 pages, executable and writable */
static uint8_t *data;               /* the area (sources and outputs), then before and got */
static uint8_t *faulty;             /* 3 pages: read-write, read-only, inaccessible */
static uint8_t pristine[AREA], want_mem[AREA], row_mem[2][AREA];
static uint8_t want_code[2 * PG];   /* the model's image of code's pages */
static uint8_t faulty_pristine[2 * PG];
static uint8_t faulty_model[2 * PG];  /* the model's image of faulty's readable pages */
static uint8_t (*before)[1024], (*got)[1024];
static uint8_t row_regs[2][2][1024];   /* the registers of each run in a row */
static uint8_t mreg[32][1024];      /* the model's registers */
static unsigned long t5_count;      /* t5, which the addi after the five increments */
static volatile int gprs_kept;

/* A plan and an xpose: d0 slices of s bytes, w moved at pitch p; D swapped along a, b. */
struct geom {
    uint32_t ttype;
    unsigned e, D[4], a, b;
    unsigned d0, s, w;
    long p;
};

static const struct geom G_IL = {TL_TYPE_INT8, 8, {2, 64, 16, 1}, 0, 1, 32, 32, 32, 32};

static uint32_t w_load(unsigned r, int imm, unsigned g)
{
    return TL_ENC_MEM(TL_ENG_LOAD, 0, 0, r, (unsigned)imm & 0xffu, g);
}

static uint32_t w_store(unsigned r, int imm, unsigned g)
{
    return TL_ENC_MEM(TL_ENG_STORE, 1, 0, r, (unsigned)imm & 0xffu, g);
}

static uint32_t w_xpose(unsigned a, unsigned b, unsigned ra, unsigned rb)
{
    return TL_ENC_XPOSE(TL_ENG_RESHAPE, a, b, ra, rb, G_T1);
}

/* The five words of the tile API, stores at 0(t3) and 0(t4). */
static void five_words(uint32_t *w, const struct geom *g, unsigned ra, unsigned rb)
{
    w[0] = w_load(ra, 0, G_T0);
    w[1] = w_load(rb, 0, G_T2);
    w[2] = w_xpose(g->a, g->b, ra, rb);
    w[3] = w_store(ra, 0, G_T3);
    w[4] = w_store(rb, 0, G_T4);
}

/*
 * The n words (with gaps, a nop after each but the last) at code + off, then
 * addi t5, t5, 1 and ret.
 */
static uint32_t *put_code(unsigned off, const uint32_t *words, unsigned n, int gaps)
{
    uint32_t *w = (uint32_t *)(code + off);
    unsigned k = 0;

    for (unsigned i = 0; i < n; i++) {
        w[k++] = words[i];
        if (gaps && i + 1 < n) {
            w[k++] = NOP;
        }
    }
    w[k++] = ADDI_T5_1;
    w[k++] = RET;
    __builtin___clear_cache((char *)w, (char *)(w + k));
    return w;
}

/* Runs code at w with t0, t1, t2, t3, t4 from x[]; 0 or the signal raised. */
static int run(const uint32_t *w, const unsigned long *x)
{
    tl_trap_pc = 0;
    gprs_kept = 0;
    return TL_TRAPS({
        register unsigned long r_t0 __asm__("t0") = x[G_T0];
        register unsigned long r_t1 __asm__("t1") = x[G_T1];
        register unsigned long r_t2 __asm__("t2") = x[G_T2];
        register unsigned long r_t3 __asm__("t3") = x[G_T3];
        register unsigned long r_t4 __asm__("t4") = x[G_T4];
        register unsigned long r_t5 __asm__("t5") = t5_count;
        __asm__ volatile("jalr ra, 0(%6)"
                         : "+r"(r_t0), "+r"(r_t1), "+r"(r_t2), "+r"(r_t3), "+r"(r_t4), "+r"(r_t5)
                         : "r"(w)
                         : "ra", "memory");
        gprs_kept = r_t0 == x[G_T0] && r_t1 == x[G_T1] && r_t2 == x[G_T2] && r_t3 == x[G_T3] &&
                    r_t4 == x[G_T4];
        t5_count = r_t5;
    });
}

/* Calls the function at f (no arguments); its a0. */
static long call(const void *f)
{
    register long a0 __asm__("a0");
    __asm__ volatile("jalr ra, 0(%1)" : "=r"(a0) : "r"(f) : "ra", "memory");
    return a0;
}

static void set_plan(const struct geom *g)
{
    tl_state_set_plan(g->ttype, TL_SHAPE(g->d0, 1, g->s * 8 / g->e), g->w, g->p);
}

/* before[] set to patterns of seed, loaded into a and b, and into the model's registers. */
static void fill_regs(unsigned a, unsigned b, unsigned seed)
{
    for (unsigned i = 0; i < 1024; i++) {
        before[0][i] = (uint8_t)(i * 13 + seed * 7 + 3);
        before[1][i] = (uint8_t)(i * 29 + seed * 11 + 200);
    }
    tl_state_load_pair(a, b, before);
    memcpy(mreg[a], before[0], 1024);
    memcpy(mreg[b], before[1], 1024);
}

/*
 * The model's image of guest address addr (want_mem for the area, want_code
 * for code's pages), whose span of len bytes must lie in one of them.
 */
static uint8_t *img(unsigned long addr, unsigned long len)
{
    const unsigned long off = addr - (unsigned long)data, coff = addr - (unsigned long)code;

    if (off <= AREA && len <= AREA - off) {
        return want_mem + off;
    }
    if (coff <= 2 * PG && len <= 2 * PG - coff) {
        return want_code + coff;
    }
    if (addr - (unsigned long)faulty <= 2 * PG && len <= 2 * PG - (addr - (unsigned long)faulty)) {
        return faulty_model + (addr - (unsigned long)faulty);    /* read only: no store lands there */
    }
    printf("# test bug: a modelled access at %#lx (%lu bytes) outside the area and code\n", addr, len);
    exit(2);
}

/* The span of a plan's access: slice 0 to the end of slice d0 - 1 (pitches >= 0). */
static unsigned long span_of(const struct geom *g)
{
    return (g->d0 - 1) * (unsigned long)g->p + g->w;
}

/*
 * The first n words (loads, stores, xposes and nops) applied in order to
 * the model's registers and want_mem, with GPRs x[] and the plan g.
 */
static void model(const uint32_t *words, unsigned n, const struct geom *g, const unsigned long *x)
{
    for (unsigned k = 0; k < n; k++) {
        const uint32_t v = words[k];

        if (v == NOP) {
            continue;
        }
        if ((v & MASK_TL_LOAD) == MATCH_TL_LOAD || (v & MASK_TL_STORE) == MATCH_TL_STORE) {
            const unsigned r = XTL_EXTRACT(MEM_TLR, v);
            const unsigned long addr = x[XTL_EXTRACT(MEM_RS1, v)] +
                                       (long)(int8_t)XTL_EXTRACT(MEM_IMM8, v) * (long)g->w;
            uint8_t *m = img(addr, span_of(g));

            if ((v & MASK_TL_STORE) == MATCH_TL_STORE) {
                store_ref(m, mreg[r], g->d0, g->s, g->w, g->p);
            } else {
                load_ref(mreg[r], m, g->d0, g->s, g->w, g->p);
            }
        } else if ((v & (XTL_OPCODE_MASK | XTL_FUNCT3_MASK)) ==
                   (MATCH_TL_XPOSE_01 & (XTL_OPCODE_MASK | XTL_FUNCT3_MASK))) {
            static uint8_t pair[2][1024];
            const unsigned r1 = XTL_EXTRACT(XPOSE_TLRS1, v), r2 = XTL_EXTRACT(XPOSE_TLRS2, v);

            memcpy(pair[0], mreg[r1], 1024);
            memcpy(pair[1], mreg[r2], 1024);
            xpose_ref_pair(pair, g->D, XTL_EXTRACT(XPOSE_DIM0, v), XTL_EXTRACT(XPOSE_DIM1, v), g->e);
            memcpy(mreg[r1], pair[0], 1024);
            memcpy(mreg[r2], pair[1], 1024);
        } else {
            printf("# test bug: model() of word %#x\n", v);
            exit(2);
        }
    }
}

/* Reports where a and b first differ ("# " line); 1 when equal. */
static int same(const char *what, const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            printf("#   %s: byte %zu is %#04x, want %#04x\n", what, i, a[i], b[i]);
            return 0;
        }
    }
    return 1;
}

/* One run of the five words: the words, where they run, the GPRs and the trap expected. */
struct five {
    const struct geom *g;
    uint32_t words[5];
    unsigned ra, rb;
    unsigned long x[32];
    int trap_at;                    /* the word expected to trap, -1: none */
    int sig;
    const void *addr;               /* a SIGSEGV's first faulting byte */
};

static void five_init(struct five *f, const struct geom *g, unsigned ra, unsigned rb,
                      const void *s1, const void *s2, const void *o1, const void *o2)
{
    memset(f, 0, sizeof(*f));
    f->g = g;
    f->ra = ra;
    f->rb = rb;
    five_words(f->words, g, ra, rb);
    f->x[G_T0] = (unsigned long)s1;
    f->x[G_T2] = (unsigned long)s2;
    f->x[G_T3] = (unsigned long)o1;
    f->x[G_T4] = (unsigned long)o2;
    f->x[G_T1] = TL_DIMS4(g->D[0], g->D[1], g->D[2], g->D[3]);
    f->trap_at = -1;
}

/*
 * One run of f's code at w (gaps: a nop between the words) from the area's
 * pristine bytes and before's registers: true when the signal, its pc and
 * address, the registers ra and rb, the whole area, code's pages, faulty's
 * readable pages, t5 and the GPRs are those of the words up to the
 * trapping one.
 */
static int run_five(const struct five *f, const uint32_t *w, int gaps, unsigned seed)
{
    const unsigned n = f->trap_at < 0 ? 5 : (unsigned)f->trap_at;
    const unsigned long count = t5_count;
    int sig, ok = 1;

    memcpy(data, pristine, AREA);
    memcpy(faulty, faulty_pristine, PG);
    fill_regs(f->ra, f->rb, seed);
    memcpy(want_mem, pristine, AREA);
    memcpy(want_code, code, 2 * PG);
    model(f->words, n, f->g, f->x);
    set_plan(f->g);
    sig = run(w, f->x);
    tl_state_store_pair(f->ra, f->rb, got);
    if (f->trap_at < 0) {
        if (sig != 0 || t5_count != count + 1 || !gprs_kept) {
            printf("#   signal %d at pc %#lx (addr %p), t5 %+ld, GPRs %s\n", sig, tl_trap_pc,
                   tl_trap_addr, (long)(t5_count - count), gprs_kept ? "kept" : "changed");
            ok = 0;
        }
    } else {
        const uint32_t *at = w + (gaps ? 2 : 1) * f->trap_at;

        if (sig != f->sig || tl_trap_pc != (unsigned long)at ||
            (sig == SIGSEGV && tl_trap_addr != f->addr) || t5_count != count) {
            printf("#   signal %d at pc %#lx addr %p, want signal %d at %p addr %p; t5 %+ld\n", sig,
                   tl_trap_pc, tl_trap_addr, f->sig, (const void *)at, f->addr,
                   (long)(t5_count - count));
            ok = 0;
        }
    }
    ok &= same("first register", got[0], mreg[f->ra], 1024);
    ok &= same("second register", got[1], mreg[f->rb], 1024);
    ok &= same("data area", data, want_mem, AREA);
    ok &= same("code's pages", code, want_code, 2 * PG);
    ok &= same("faulty's pages", faulty, faulty_pristine, 2 * PG);
    return ok;
}

/*
 * f's five words at code + off, run twice in a row and twice with nops
 * between: true when every run gives the ISA's outcome (run_five) and the
 * two layouts leave the same registers and area.
 */
static int run_both(const struct five *f, unsigned off, unsigned seed, int *row_ok, int *gaps_ok)
{
    *row_ok = *gaps_ok = 1;
    for (int gaps = 0; gaps < 2; gaps++) {
        const uint32_t *w = put_code(off, f->words, 5, gaps);
        int *ok = gaps ? gaps_ok : row_ok;

        for (int rep = 0; rep < 2; rep++) {
            *ok &= run_five(f, w, gaps, seed + rep);
            if (!gaps) {
                memcpy(row_regs[rep], got, sizeof(row_regs[rep]));
                memcpy(row_mem[rep], data, AREA);
            } else if (memcmp(row_regs[rep], got, sizeof(row_regs[rep])) != 0 ||
                       memcmp(row_mem[rep], data, AREA) != 0) {
                printf("#   the run with nops between differs from the run in a row\n");
                *ok = 0;
            }
        }
    }
    return *row_ok && *gaps_ok;
}

/* f's code at code + off (in a row) run twice: true when both runs give the ISA's outcome. */
static int run_row(const struct five *f, unsigned off, unsigned seed)
{
    const uint32_t *w = put_code(off, f->words, 5, 0);
    int ok = 1;

    for (int rep = 0; rep < 2; rep++) {
        ok &= run_five(f, w, 0, seed + rep);
    }
    return ok;
}

int main(void)
{
    struct five f;
    int ok, row_ok, gaps_ok;

    setvbuf(stdout, NULL, _IONBF, 0);
    tl_trap_install();
    code = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = mmap(NULL, AREA + PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    faulty = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED || data == MAP_FAILED || faulty == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    /* bytes of a 32-bit xorshift: no 1 KiB window repeats another, nor a register's pattern */
    uint32_t x32 = 0x9E3779B9u;
    for (unsigned i = 0; i < AREA; i++) {
        x32 ^= x32 << 13;
        x32 ^= x32 >> 17;
        x32 ^= x32 << 5;
        pristine[i] = (uint8_t)(x32 >> 11);
    }
    for (unsigned i = 0; i < 2 * PG; i++) {
        faulty_pristine[i] = (uint8_t)(i * 5 + (i >> 9) + 0x41);
    }
    memcpy(faulty, faulty_pristine, 2 * PG);
    memcpy(faulty_model, faulty_pristine, 2 * PG);
    mprotect(faulty + PG, PG, PROT_READ);
    mprotect(faulty + 2 * PG, PG, PROT_NONE);
    /*
     * The registers' bytes before a run and after it, in data's mapping: the
     * ranges of pages a thread last found mapped for its loads and for its
     * stores stay the area's, as in a kernel's loop, so that the five words
     * are run together (qemu-riscv64 only does so in memory it has found
     * mapped).  Each case runs its code twice: the first run translates it,
     * the second runs the block as a loop does.
     */
    before = (uint8_t (*)[1024])(data + AREA);
    got = (uint8_t (*)[1024])(data + AREA + 2048);

    /* 1. the ISA's outcome, in a row and with nops between */
    static const struct {
        struct geom g;
        const char *what;
    } cases[] = {
        {{TL_TYPE_INT8, 8, {2, 64, 16, 1}, 0, 1, 32, 32, 32, 32}, "a 16-byte channel interleave"},
        {{TL_TYPE_INT8, 8, {32, 64, 1, 1}, 0, 1, 32, 32, 32, 32}, "a 32 x 64 transpose"},
        {{TL_TYPE_INT16, 16, {2, 16, 32, 1}, 0, 1, 32, 32, 32, 32}, "an interleave of 64-byte runs of int16"},
        {{TL_TYPE_INT4, 4, {2, 2, 32, 32}, 0, 3, 16, 64, 64, 64}, "a nibble transpose of dimensions 0 and 3"},
        {{TL_TYPE_INT32, 32, {8, 4, 16, 1}, 1, 2, 32, 32, 24, 40}, "int32, slices of 24 of 32 bytes at pitch 40"},
        {{TL_TYPE_INT8, 8, {32, 64, 1, 1}, 0, 1, 16, 64, 64, 300}, "a transpose of rows at pitch 300"},
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const struct geom *g = &cases[k].g;
        const unsigned ra = 3 + k, rb = 30 - 2 * k;

        five_init(&f, g, ra, rb, data + 100 + 64 * k, data + 5 * PG + 8 * k, data + 9 * PG + 24 * k,
                  data + 12 * PG + 40 * k);
        run_both(&f, 64 * k, k, &row_ok, &gaps_ok);
        tl_check(row_ok, "%s (tl%u, tl%u, loads of %u x %u bytes at pitch %ld), in a row: the ISA's "
                         "registers and stored memory", cases[k].what, ra, rb, g->d0, g->w, g->p);
        tl_check(gaps_ok, "%s, with nops between: the same registers and memory", cases[k].what);
    }

    /* 2. stores that overlap each other or the loads' sources */
    {
        static const struct {
            long s1, s2, o1, o2;
            const char *what;
        } ov[] = {
            {0, 2 * PG, 8 * PG, 8 * PG + 512, "the second store over the upper half of the first"},
            {0, 2 * PG, 8 * PG + 512, 8 * PG, "the second store over the lower half of the first"},
            {0, 2 * PG, 8 * PG + 77, 8 * PG + 77, "both stores to one address"},
        };
        for (unsigned k = 0; k < sizeof(ov) / sizeof(ov[0]); k++) {
            five_init(&f, &G_IL, 7, 8, data + ov[k].s1, data + ov[k].s2, data + ov[k].o1,
                      data + ov[k].o2);
            ok = run_row(&f, 0, 20 + k);
            tl_check(ok, "overlap: %s, in a row: the ISA's registers and memory (later bytes win)",
                     ov[k].what);
        }
        /* stores over a load's source: run one by one, still the ISA's outcome */
        static const struct {
            long s1, s2, o1, o2;
            const char *what;
        } over_src[] = {
            {0, 2 * PG, 0, 2 * PG, "each store over its own load's source (in place)"},
            {0, 2 * PG, 2 * PG, 0, "each store over the other load's source"},
            {700, 2 * PG, 2 * PG + 300, 500, "the stores over parts of both sources"},
        };
        for (unsigned k = 0; k < sizeof(over_src) / sizeof(over_src[0]); k++) {
            five_init(&f, &G_IL, 7, 8, data + over_src[k].s1, data + over_src[k].s2,
                      data + over_src[k].o1, data + over_src[k].o2);
            ok = run_row(&f, 0, 26 + k);
            tl_check(ok, "a store over a load's source: %s, in a row: the ISA's registers and "
                         "memory", over_src[k].what);
        }
        /* slices of 32 bytes at pitch 64: B's slices fill the gaps between A's */
        static const struct geom gs = {TL_TYPE_INT8, 8, {2, 64, 16, 1}, 0, 1, 32, 32, 32, 64};
        five_init(&f, &gs, 9, 10, data + 3, data + 3 * PG, data + 8 * PG, data + 8 * PG + 32);
        ok = run_row(&f, 0, 30);
        tl_check(ok, "overlap: strided stores 32 bytes apart, B's slices between A's, in a row: the "
                     "ISA's registers and memory, the slices interleaved");
        /* sources that overlap: not run together, still the ISA's outcome */
        five_init(&f, &G_IL, 9, 10, data + 1000, data + 1064, data + 8 * PG, data + 11 * PG);
        ok = run_row(&f, 0, 31);
        tl_check(ok, "the two loads' sources overlap, in a row: the ISA's registers and memory");
    }

    /* 3. the stores' immediates and base registers */
    {
        static const struct {
            int i3, i4;
            unsigned g3, g4;
            const char *what;
        } sv[] = {
            {3, -2, G_T3, G_T4, "tl.store A, 3(t3); tl.store B, -2(t4)"},
            {0, 0, G_T4, G_T3, "tl.store A, 0(t4); tl.store B, 0(t3)"},
            {127, -128, G_T3, G_T4, "tl.store A, 127(t3); tl.store B, -128(t4)"},
            {64, -64, G_T0, G_T2, "tl.store A, 64(t0); tl.store B, -64(t2)"},
            {1, 5, G_T3, G_T3, "tl.store A, 1(t3); tl.store B, 5(t3)"},
        };
        for (unsigned k = 0; k < sizeof(sv) / sizeof(sv[0]); k++) {
            five_init(&f, &G_IL, 11 + k, 1 + k, data + 100, data + 4 * PG + 40, data + 8 * PG + 13,
                      data + 12 * PG + 29);
            f.words[3] = w_store(f.ra, sv[k].i3, sv[k].g3);
            f.words[4] = w_store(f.rb, sv[k].i4, sv[k].g4);
            ok = run_row(&f, 128, 40 + k);
            tl_check(ok, "stores' operands: %s, in a row: the ISA's registers and memory", sv[k].what);
        }
    }

    /* 4. a trap in any of the five: at its own instruction, the words before it done */
    {
        static const struct {
            long s1, s2, o1, o2;        /* from data; values >= 1 << 30: from faulty */
            int trap_at, sig;
            long addr;                  /* from faulty */
            int bad_dims, bad_ttype;
            const char *what;
        } tv[] = {
#define FL(off) ((1L << 30) + (off))
            {0, 2 * PG, FL(2 * PG), 8 * PG, 3, SIGSEGV, 2 * PG, 0, 0,
             "the first store to an inaccessible page"},
            {0, 2 * PG, FL(PG + 16), 8 * PG, 3, SIGSEGV, PG + 16, 0, 0,
             "the first store to a read-only page"},
            {0, 2 * PG, FL(PG - 512), 8 * PG, 3, SIGSEGV, PG, 0, 0,
             "the first store half-way into a read-only page"},
            {0, 2 * PG, 8 * PG, FL(2 * PG + 8), 4, SIGSEGV, 2 * PG + 8, 0, 0,
             "the second store to an inaccessible page"},
            {0, 2 * PG, 8 * PG, FL(PG - 512), 4, SIGSEGV, PG, 0, 0,
             "the second store half-way into a read-only page"},
            {FL(2 * PG - 512), 2 * PG, 8 * PG, 11 * PG, 0, SIGSEGV, 2 * PG, 0, 0,
             "the first load half-way into an inaccessible page"},
            {0, FL(2 * PG), 8 * PG, 11 * PG, 1, SIGSEGV, 2 * PG, 0, 0,
             "the second load from an inaccessible page"},
            {0, 2 * PG, 8 * PG, 11 * PG, 2, SIGILL, 0, 1, 0,
             "an xpose of [2,64,16,2] (4096 bytes)"},
            {0, 2 * PG, 8 * PG, 11 * PG, 0, SIGILL, 0, 0, 1,
             "an invalid ttype (0x003)"},
        };
        static const struct geom bad_ttype = {0x003, 8, {2, 64, 16, 1}, 0, 1, 32, 32, 32, 32};
        for (unsigned k = 0; k < sizeof(tv) / sizeof(tv[0]); k++) {
#define AT(v) ((v) >= (1L << 30) ? (void *)(faulty + (v) - (1L << 30)) : (void *)(data + (v)))
            five_init(&f, tv[k].bad_ttype ? &bad_ttype : &G_IL, 12, 13, AT(tv[k].s1), AT(tv[k].s2),
                      AT(tv[k].o1), AT(tv[k].o2));
#undef AT
            if (tv[k].bad_dims) {
                f.x[G_T1] = TL_DIMS4(2, 64, 16, 2);
            }
            f.trap_at = tv[k].trap_at;
            f.sig = tv[k].sig;
            f.addr = tv[k].sig == SIGSEGV ? faulty + tv[k].addr : NULL;
            run_both(&f, 256, 50 + k, &row_ok, &gaps_ok);
            tl_check(row_ok && gaps_ok, "trap: %s, in a row and with nops: %s at word %d%s, the "
                     "words before it done, nothing after", tv[k].what,
                     tv[k].sig == SIGSEGV ? "SIGSEGV" : "SIGILL", tv[k].trap_at,
                     tv[k].sig == SIGSEGV ? " at the first faulting byte" : "");
        }
#undef FL
    }

    /* 5. the words rewritten after they ran */
    {
        uint32_t *w;
        static const char *const what[] = {
            "as written",
            "the first store of B",
            "the second store a nop",
            "the second store at 5(t4)",
            "the stores' base registers swapped",
            "the xpose a swap with itself",
        };

        five_init(&f, &G_IL, 14, 15, data + 300, data + 4 * PG, data + 8 * PG + 8, data + 12 * PG);
        w = put_code(512, f.words, 5, 0);
        ok = 1;
        for (unsigned round = 0; round < 6; round++) {
            switch (round) {
            case 1: f.words[3] = w_store(15, 0, G_T3); break;
            case 2: f.words[3] = w_store(14, 0, G_T3); f.words[4] = NOP; break;
            case 3: f.words[4] = w_store(15, 5, G_T4); break;
            case 4: f.words[3] = w_store(14, 0, G_T4); f.words[4] = w_store(15, 0, G_T3); break;
            case 5: f.words[2] = w_xpose(2, 2, 14, 15); break;
            }
            memcpy(w, f.words, sizeof(f.words));
            __builtin___clear_cache((char *)w, (char *)(w + 5));
            int r_ok = 1;
            for (int rep = 0; rep < 2; rep++) {
                r_ok &= run_five(&f, w, 0, 60 + round);
            }
            if (!r_ok) {
                printf("#   round %u (%s) failed\n", round, what[round]);
            }
            ok &= r_ok;
        }
        tl_check(ok, "the five run, then rewritten: the first store of B, the second a nop, the "
                     "second at 5(t4), the stores' bases swapped, the xpose a swap with itself: each "
                     "run gives the words' outcome");
    }

    /*
     * 6. a store over translated code: in the block's own page, and in the
     * next page; the function there, run before, runs as stored after fence.i
     */
    {
        static const struct {
            unsigned fn_off;            /* the function, from code */
            int second;                 /* the second store writes it, else the first */
            const char *what;
        } sm[] = {
            {2048, 1, "the second store over a function in the block's own page"},
            {2048, 0, "the first store over a function in the block's own page"},
            {PG + 1024, 1, "the second store over a function in the next page"},
            {PG + 1024, 0, "the first store over a function in the next page"},
        };
        const uint32_t fn1[2] = {LI_A0(1), RET};

        for (unsigned k = 0; k < sizeof(sm) / sizeof(sm[0]); k++) {
            uint8_t *fn = code + sm[k].fn_off;
            const uint32_t *w;

            memcpy(fn, fn1, sizeof(fn1));
            __builtin___clear_cache((char *)fn, (char *)fn + 8);
            five_init(&f, &G_IL, 16, 17, data, data + 4 * PG, sm[k].second ? data + 8 * PG : fn,
                      sm[k].second ? fn : data + 8 * PG);
            w = put_code(0, f.words, 5, 0);
            ok = call(fn) == 1;
            for (unsigned round = 0; round < 3; round++) {
                /*
                 * [2,64,16,1] swapped along 0 and 1: bytes 0-15 of A's result are
                 * bytes 0-15 of A's source, bytes 0-15 of B's result bytes 512-527
                 * of A's source.
                 */
                const long want = 10 + 10 * (long)k + round;
                const uint32_t fn_new[2] = {LI_A0(want), RET};
                uint8_t *src = pristine + (sm[k].second ? 512 : 0);
                uint8_t saved[8];
                long v;

                memcpy(saved, src, 8);
                memcpy(src, fn_new, 8);
                ok &= run_five(&f, w, 0, 70 + round);
                FENCE_I;
                v = call(fn);
                memcpy(src, saved, 8);
                if (v != want) {
                    printf("#   round %u: the function returned %ld, want %ld\n", round, v, want);
                    ok = 0;
                }
            }
            tl_check(ok, "self-modifying code: %s (run before, so translated), three times: each "
                         "run gives the ISA's registers and memory, and the function then returns "
                         "the value stored", sm[k].what);
        }
    }

    /* 7. the second store on the next page: not five in one page */
    five_init(&f, &G_IL, 18, 19, data + 64, data + 4 * PG + 64, data + 8 * PG, data + 12 * PG);
    ok = run_row(&f, PG - 16, 90);
    tl_check(ok, "the five across a page boundary (the second store on the next page), in a row: "
                 "the ISA's registers and memory");

    /* 8. one translated block run many times, its sources, outputs and bytes changing */
    {
        const uint32_t *w;
        const unsigned long count = t5_count;
        int sig;

        five_init(&f, &G_IL, 20, 21, data, data, data, data);
        w = put_code(768, f.words, 5, 0);
        memcpy(data, pristine, AREA);
        ok = 1;
        for (unsigned i = 0; i < 300; i++) {
            const int check = i % 50 == 49;

            f.x[G_T0] = (unsigned long)(data + i);
            f.x[G_T2] = (unsigned long)(data + PG + 3 * i);
            f.x[G_T3] = (unsigned long)(data + 8 * PG + 5 * i);
            f.x[G_T4] = (unsigned long)(data + 11 * PG + 7 * i);
            data[i + 1023 - i % 512] ^= 0xA5;              /* a byte of each source */
            data[PG + 3 * i + i % 1024] ^= 0x5A;
            if (check) {
                memcpy(want_mem, data, AREA);
                model(f.words, 5, f.g, f.x);
            }
            set_plan(&G_IL);
            sig = run(w, f.x);
            ok &= sig == 0;
            if (check) {
                tl_state_store_pair(20, 21, got);
                ok &= same("first register", got[0], mreg[20], 1024) &&
                      same("second register", got[1], mreg[21], 1024) &&
                      same("data area", data, want_mem, AREA);
            }
        }
        ok &= t5_count == count + 300;
        tl_check(ok, "300 runs of one block, the sources and outputs moving and changing: the "
                     "ISA's registers and memory (every 50th run), t5 counted %lu runs",
                 t5_count - count);
    }

    /*
     * 9. one block run in a loop with the CSRs written once, as a kernel
     * does: after its first runs, qemu-riscv64 checks the common case in
     * the translated code, the xpose found legal once for the CSRs and the
     * dims (the core's interleave memo).  Then a last run that leaves the
     * common case: each must still give the ISA's outcome.
     */
    {
        static const struct geom g16 = {TL_TYPE_INT16, 16, {2, 64, 16, 1}, 0, 1, 32, 32, 32, 32};
        static const struct geom g_02 = {TL_TYPE_INT8, 8, {2, 64, 16, 1}, 0, 2, 32, 32, 32, 32};
        static const struct geom g_32 = {TL_TYPE_INT8, 8, {2, 32, 32, 1}, 0, 1, 32, 32, 32, 32};
        enum { SAME, TTYPE_INT16, OTHER_SWAP, OTHER_DIMS };
        static const struct {
            long s1, s2, o1, o2;        /* the last run's, from data; >= 1 << 30: from faulty */
            unsigned long dims;         /* the last run's dims, 0: its geometry's */
            int change;                 /* between the warm runs and the last */
            int warm_from_faulty;       /* the warm runs load from faulty's read-only page */
            int trap_at, sig;
            long addr;                  /* a SIGSEGV's, from faulty */
            const char *what;
        } mv[] = {
#define FL(off) ((1L << 30) + (off))
            {0, 2 * PG, 8 * PG, 11 * PG, 0, SAME, 0, -1, 0, 0,
             "the sources and outputs moved"},
            {0, 2 * PG, 0, 11 * PG, 0, SAME, 0, -1, 0, 0,
             "the first store over the first load's source"},
            {0, 2 * PG, 8 * PG, 2 * PG + 1000, 0, SAME, 0, -1, 0, 0,
             "the second store over the second load's source's last byte"},
            {3000, 2 * PG, 8 * PG, 2048, 0, SAME, 0, -1, 0, 0,
             "the second store's last byte over the first load's source"},
            {0, 1023, 8 * PG, 11 * PG, 0, SAME, 0, -1, 0, 0,
             "the second load's source over the first's last byte"},
            {0, 2 * PG, 8 * PG, 11 * PG, 0, OTHER_DIMS, 0, -1, 0, 0,
             "the dims another interleave, [2,32,32,1]"},
            {0, 2 * PG, 8 * PG, 11 * PG, TL_DIMS4(2, 64, 16, 2), SAME, 0, 2, SIGILL, 0,
             "the dims [2,64,16,2] (4096 bytes): SIGILL at the xpose"},
            {0, 2 * PG, 8 * PG, 11 * PG, 0, TTYPE_INT16, 0, 2, SIGILL, 0,
             "ttype int16 and a plan computed by a tl.load: [2,64,16,1] is 4096 bytes, SIGILL at the xpose"},
            {0, 2 * PG, 8 * PG, 11 * PG, 0, OTHER_SWAP, 0, -1, 0, 0,
             "another block, its xpose a swap of dimensions 0 and 2 of the same dims"},
            {FL(PG), FL(PG + 1024), FL(PG + 2048 + 16), FL(PG + 3072), 0, SAME, 1, 3, SIGSEGV,
             PG + 2048 + 16, "both stores to the read-only page both loads read: SIGSEGV at the first"},
            {FL(PG), FL(PG + 1024), 8 * PG, FL(2 * PG), 0, SAME, 1, 4, SIGSEGV, 2 * PG,
             "the second store to an inaccessible page: SIGSEGV at the store"},
#undef FL
        };
#define AT(v) ((v) >= (1L << 30) ? (unsigned long)(faulty + (v) - (1L << 30)) : (unsigned long)(data + (v)))
        for (unsigned k = 0; k < sizeof(mv) / sizeof(mv[0]); k++) {
            const struct geom *g_last = mv[k].change == TTYPE_INT16 ? &g16
                                        : mv[k].change == OTHER_SWAP ? &g_02
                                        : mv[k].change == OTHER_DIMS ? &g_32 : &G_IL;
            const unsigned ra = 24, rb = 25;
            uint32_t last_words[5];
            const uint32_t *w, *w_last;
            unsigned long x[32] = {0};
            const unsigned long count = t5_count;
            int sig;

            five_words(f.words, &G_IL, ra, rb);
            five_words(last_words, g_last, ra, rb);
            w = put_code(1024, f.words, 5, 0);
            w_last = mv[k].change == OTHER_SWAP ? put_code(1280, last_words, 5, 0) : w;
            memcpy(data, pristine, AREA);
            memcpy(want_mem, pristine, AREA);
            memcpy(want_code, code, 2 * PG);
            fill_regs(ra, rb, 110 + k);
            set_plan(&G_IL);
            ok = 1;
            for (unsigned i = 0; i < 4; i++) {
                x[G_T0] = mv[k].warm_from_faulty ? (unsigned long)(faulty + PG + 8 * i)
                                                 : (unsigned long)(data + 64 * i);
                x[G_T2] = mv[k].warm_from_faulty ? (unsigned long)(faulty + PG + 2048 + 8 * i)
                                                 : (unsigned long)(data + 4 * PG + 8 * i);
                x[G_T3] = (unsigned long)(data + 8 * PG + 24 * i);
                x[G_T4] = (unsigned long)(data + 12 * PG + 40 * i);
                x[G_T1] = TL_DIMS4(2, 64, 16, 1);
                model(f.words, 5, &G_IL, x);
                sig = run(w, x);
                if (sig != 0) {
                    printf("#   warm run %u: signal %d at pc %#lx\n", i, sig, tl_trap_pc);
                    ok = 0;
                }
            }
            if (mv[k].change == TTYPE_INT16) {
                set_plan(&g16);
                tl_state_load_reg(ra, before[0]);  /* the plan computed again, for the new ttype */
                memcpy(mreg[ra], before[0], 1024);
            }
            x[G_T0] = AT(mv[k].s1);
            x[G_T2] = AT(mv[k].s2);
            x[G_T3] = AT(mv[k].o1);
            x[G_T4] = AT(mv[k].o2);
            x[G_T1] = mv[k].dims ? mv[k].dims
                                 : TL_DIMS4(g_last->D[0], g_last->D[1], g_last->D[2], g_last->D[3]);
            model(last_words, mv[k].trap_at < 0 ? 5 : (unsigned)mv[k].trap_at, g_last, x);
            sig = run(w_last, x);
            if (mv[k].trap_at < 0 ? sig != 0 || t5_count != count + 5 || !gprs_kept
                                  : sig != mv[k].sig || tl_trap_pc != (unsigned long)(w_last + mv[k].trap_at) ||
                                        (sig == SIGSEGV && tl_trap_addr != faulty + mv[k].addr) ||
                                        t5_count != count + 4) {
                printf("#   last run: signal %d at pc %#lx addr %p, t5 %+ld; want signal %d at %p\n",
                       sig, tl_trap_pc, tl_trap_addr, (long)(t5_count - count), mv[k].trap_at < 0 ? 0 : mv[k].sig,
                       mv[k].trap_at < 0 ? NULL : (const void *)(w_last + mv[k].trap_at));
                ok = 0;
            }
            tl_state_store_pair(ra, rb, got);
            ok &= same("first register", got[0], mreg[ra], 1024);
            ok &= same("second register", got[1], mreg[rb], 1024);
            ok &= same("data area", data, want_mem, AREA);
            ok &= same("faulty's pages", faulty, faulty_pristine, 2 * PG);
            tl_check(ok, "one block in a loop, CSRs written once, four runs then %s: the ISA's "
                         "registers and memory", mv[k].what);
        }
#undef AT
        /* the last run's second store over a function translated before: it then runs as stored */
        {
            uint8_t *fn = code + PG + 1024;
            const uint32_t fn1[2] = {LI_A0(1), RET}, fn_new[2] = {LI_A0(77), RET};
            unsigned long x[32] = {0};
            const uint32_t *w;
            long v;
            int sig;

            memcpy(fn, fn1, sizeof(fn1));
            __builtin___clear_cache((char *)fn, (char *)fn + sizeof(fn1));
            ok = call(fn) == 1;
            five_words(f.words, &G_IL, 24, 25);
            w = put_code(1024, f.words, 5, 0);
            memcpy(data, pristine, AREA);
            memcpy(want_mem, pristine, AREA);
            memcpy(want_code, code, 2 * PG);
            fill_regs(24, 25, 130);
            set_plan(&G_IL);
            x[G_T1] = TL_DIMS4(2, 64, 16, 1);
            for (unsigned i = 0; i < 4; i++) {
                x[G_T0] = (unsigned long)(data + 64 * i);
                x[G_T2] = (unsigned long)(data + 4 * PG + 8 * i);
                x[G_T3] = (unsigned long)(data + 8 * PG + 24 * i);
                x[G_T4] = (unsigned long)(data + 12 * PG + 40 * i);
                model(f.words, 5, &G_IL, x);
                ok &= run(w, x) == 0;
            }
            /* [2,64,16,1] swapped along 0 and 1: B's bytes 0-15 are bytes 512-527 of A's source */
            memcpy(data + 3000 + 512, fn_new, sizeof(fn_new));
            memcpy(want_mem + 3000 + 512, fn_new, sizeof(fn_new));
            x[G_T0] = (unsigned long)(data + 3000);
            x[G_T2] = (unsigned long)(data + 6 * PG);
            x[G_T3] = (unsigned long)(data + 9 * PG);
            x[G_T4] = (unsigned long)fn;
            model(f.words, 5, &G_IL, x);
            sig = run(w, x);
            FENCE_I;
            v = call(fn);
            tl_state_store_pair(24, 25, got);
            ok &= sig == 0 && same("first register", got[0], mreg[24], 1024) &&
                  same("second register", got[1], mreg[25], 1024) &&
                  same("data area", data, want_mem, AREA) && same("code's pages", code, want_code, 2 * PG);
            if (v != 77) {
                printf("#   the function returned %ld, want 77\n", v);
                ok = 0;
            }
            tl_check(ok, "one block in a loop, CSRs written once, four runs then the second store over "
                         "a function run before (translated): the ISA's registers and memory, and the "
                         "function then returns the value stored");
        }
    }

    /* 10. the tile API's five words */
    {
        uint32_t words[5];
        unsigned long x[32] = {0};

        five_words(words, &G_IL, 22, 23);
        x[G_T1] = TL_DIMS4(2, 64, 16, 1);
        ok = 1;
        for (unsigned i = 0; i < 20; i++) {
            uint8_t *s1 = data + 40 * i, *s2 = data + 4 * PG + 24 * i;
            uint8_t *o1 = data + 8 * PG + 16 * i, *o2 = data + 12 * PG + 8 * i;

            x[G_T0] = (unsigned long)s1;
            x[G_T2] = (unsigned long)s2;
            x[G_T3] = (unsigned long)o1;
            x[G_T4] = (unsigned long)o2;
            memcpy(data, pristine, AREA);
            fill_regs(22, 23, 100 + i);
            memcpy(want_mem, pristine, AREA);
            model(words, 5, &G_IL, x);
            set_plan(&G_IL);
            tl_load_load_xpose_store_store(0, 1, 22, 23, s1, s2, TL_DIMS4(2, 64, 16, 1), o1, o2);
            tl_state_store_pair(22, 23, got);
            ok &= same("first register", got[0], mreg[22], 1024) &&
                  same("second register", got[1], mreg[23], 1024) &&
                  same("data area", data, want_mem, AREA);
        }
        tl_check(ok, "tl_load_load_xpose_store_store (the tile API), 20 runs, its sources and "
                     "outputs moving: the ISA's registers and memory");
    }
    return tl_test_finish();
}
