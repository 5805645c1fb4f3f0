/*
 * All-or-nothing memory faults of tl.load, tl.mload, tl.store and tl.mstore
 * under qemu-riscv64 -cpu rv64,xtl=on (docs/isa.md 5.2 and 6.2).
 *
 * Memory layout (7 pages of 4 KiB, one mapping, then mprotect):
 *
 *     page 0   PROT_NONE            (just below LOW)
 *     page 1-4 read/write           LOW = start of page 1, 16 KiB of good memory
 *     page 5   PROT_NONE            BAD = start of page 5 = LOW + 16384
 *     page 6   read/write           (good memory again above the hole)
 *
 * Slice i of a memory instruction is at t0 + sext(imm8)*W + i*P and covers W
 * bytes.  A fault must give SIGSEGV with si_addr = the first faulting byte,
 * scanning selected slices in order i = 0, 1, ... and, within a slice, bytes in
 * increasing address; nothing may change: the destination TLReg keeps its old
 * contents and a store writes no byte, not even those of earlier, good slices.
 *
 * Every expected fault address below is computed by hand in the comment next
 * to the case.  Cases that must not fault check the loaded register or the
 * stored memory against the rule of docs/isa.md 5.2.
 */
#include "tl_test.h"
#include "tl/tl_insn.h"

#include <unistd.h>

#define PG 4096L

static uint8_t *region;             /* page 0 */
#define LOW ((uintptr_t)region + 1 * PG)
#define BAD ((uintptr_t)region + 5 * PG)
#define REGION_PAGES 7

static uint8_t gbuf[64] __attribute__((aligned(64)));   /* reached by wrap-around */

static volatile int trap_code;

static void handler(int sig, siginfo_t *info, void *uc)
{
    (void)uc;
    tl_trap_signal = sig;
    tl_trap_addr = info->si_addr;
    trap_code = info->si_code;
    siglongjmp(tl_trap_jmp, 1);
}

static void install(void)
{
    struct sigaction sa;

    tl_trap_install();          /* then replaced by a handler that also keeps si_code */
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

static int good_page(int p) { return p != 0 && p != 5; }

/* ---- known patterns ---- */
static uint8_t mem_pat(size_t off) { return (uint8_t)(off * 7 + 0x31); }
static uint8_t reg_pat(size_t i) { return (uint8_t)(0xA0 ^ (i * 29 + 7)); }

static uint8_t pre[1024];                    /* what preload() puts in a TLReg */
static uint8_t rb[1024];                     /* readback buffer */
static uint8_t snap[REGION_PAGES * PG];      /* region before the instruction */
static uint8_t gsnap[sizeof(gbuf)];
static int phase_b;                          /* width/stride CSRs have been written */

static void fill_memory(void)
{
    for (int p = 0; p < REGION_PAGES; p++) {
        if (good_page(p)) {
            for (long b = 0; b < PG; b++) {
                region[p * PG + b] = mem_pat(p * PG + b);
            }
        }
    }
    for (size_t i = 0; i < sizeof(gbuf); i++) {
        gbuf[i] = mem_pat(i + 0x55);
    }
}

static void snapshot(void)
{
    memset(snap, 0, sizeof(snap));
    for (int p = 0; p < REGION_PAGES; p++) {
        if (good_page(p)) {
            memcpy(snap + p * PG, region + p * PG, PG);
        }
    }
    memcpy(gsnap, gbuf, sizeof(gbuf));
}

static int memory_unchanged(void)
{
    for (int p = 0; p < REGION_PAGES; p++) {
        if (good_page(p) && memcmp(snap + p * PG, region + p * PG, PG)) {
            return 0;
        }
    }
    return memcmp(gsnap, gbuf, sizeof(gbuf)) == 0;
}

/*
 * A whole-register transfer: int8, [4, 2, 128] (S = 256).  Before phase B the
 * width and stride CSRs stay uninitialized, so W = S = 256 and P = W = 256 by
 * default; afterwards they are written as 256 explicitly.
 */
static void whole_reg_state(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    if (phase_b) {
        tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
        tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    }
}

static int exec_mem(int st, int tm, int tlr, int imm, uintptr_t addr)
{
    return tl_exec_word(TL_ENC_MEM(st ? TL_ENG_STORE : TL_ENG_LOAD, st, tm, tlr, imm, 5),
                        addr, 0);
}

static void preload(int tlr)
{
    whole_reg_state();
    for (int i = 0; i < 1024; i++) {
        pre[i] = reg_pat(i);
    }
    if (exec_mem(0, 0, tlr, 0, (uintptr_t)pre)) {
        printf("# preload of tl%d trapped\n", tlr);
    }
}

static int readback(int tlr)
{
    whole_reg_state();
    memset(rb, 0x5A, sizeof(rb));
    return exec_mem(1, 0, tlr, 0, (uintptr_t)rb);
}

/* One memory instruction and its CSR state. */
struct mc {
    unsigned type;          /* ttype */
    unsigned d0, d1, d2;    /* tshape */
    int set_wp;             /* write width W and stride P (phase B) */
    uint32_t w;
    int32_t p;
    int st, tm;
    uint32_t mask;          /* tmask_ls, when tm */
    int tlr, imm;
};

static unsigned esz(unsigned type)
{
    switch (type) {
    case TL_TYPE_INT4: return 4;
    case TL_TYPE_INT8: return 8;
    case TL_TYPE_INT16: return 16;
    default: return 32;
    }
}

static void describe(char *out, size_t n, const struct mc *c, uintptr_t t0)
{
    snprintf(out, n, "%s tl%d, %d(t0) %s [%u,%u,%u]%s t0=%#lx",
             c->st ? (c->tm ? "tl.mstore" : "tl.store") : (c->tm ? "tl.mload" : "tl.load"),
             c->tlr, c->imm,
             c->type == TL_TYPE_INT4 ? "int4" : c->type == TL_TYPE_INT16 ? "int16" : "int8",
             c->d0, c->d1, c->d2, c->set_wp ? "" : " W=S P=W (uninitialized)", (unsigned long)t0);
    size_t l = strlen(out);
    if (c->set_wp) {
        snprintf(out + l, n - l, " W=%u P=%d", c->w, c->p);
        l = strlen(out);
    }
    if (c->tm) {
        snprintf(out + l, n - l, " mask=%#x", c->mask);
    }
}

static void set_case_state(const struct mc *c)
{
    tl_csr_write(TL_CSR_TTYPE, c->type);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(c->d0, c->d1, c->d2));
    if (c->set_wp) {
        phase_b = 1;
        tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, c->w);
        tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)c->p);
    }
    if (c->tm) {
        tl_csr_write(TL_CSR_TMASK_LS, c->mask);
    }
}

/* Pointer to the snapshot/buffer byte that shadows guest address a (NULL if none). */
static uint8_t *shadow_of(uint8_t *base_region, uint8_t *base_g, uintptr_t a)
{
    uintptr_t r = (uintptr_t)region;
    if (a >= r && a < r + REGION_PAGES * PG && good_page((a - r) / PG)) {
        return base_region + (a - r);
    }
    if (a >= (uintptr_t)gbuf && a < (uintptr_t)gbuf + sizeof(gbuf)) {
        return base_g + (a - (uintptr_t)gbuf);
    }
    return NULL;
}

/* Scalar access of one byte, to see the si_code an ordinary load/store gets. */
static int scalar_access(int st, uintptr_t a)
{
    volatile uint8_t *p = (volatile uint8_t *)a;
    if (st) {
        return TL_TRAPS(*p = 0);
    }
    return TL_TRAPS((void)*p);
}

/*
 * Runs one case.  fault: expect SIGSEGV at fault_addr, nothing changed.
 * Otherwise: expect completion and the docs/isa.md 5.2 result.
 */
static void run_case(const char *why, const struct mc *c, uintptr_t t0, int fault, uintptr_t fault_addr)
{
    char d[256];
    int sig, code;
    void *addr;

    describe(d, sizeof(d), c, t0);
    fill_memory();
    if (c->tlr) {
        preload(c->tlr);
    }
    snapshot();
    set_case_state(c);
    trap_code = 0;
    sig = exec_mem(c->st, c->tm, c->tlr, c->imm, t0);
    addr = tl_trap_addr;
    code = trap_code;

    if (fault) {
        tl_check(sig == SIGSEGV && (uintptr_t)addr == fault_addr,
                 "%s: %s raises SIGSEGV at %#lx (got signal %d at %p)",
                 why, d, (unsigned long)fault_addr, sig, sig ? addr : NULL);
        if (c->tlr) {
            int rsig = readback(c->tlr);
            tl_check(rsig == 0 && memcmp(rb, pre, 1024) == 0,
                     "%s: after the fault tl%d still holds its old 1024 bytes", why, c->tlr);
        }
        tl_check(memory_unchanged(), "%s: after the fault no byte of memory changed", why);
        /* the same byte through an ordinary scalar access: same signal and si_code */
        trap_code = 0;
        int ssig = scalar_access(c->st, fault_addr);
        int scode = trap_code;
        tl_check(ssig == SIGSEGV && (sig != SIGSEGV || scode == code),
                 "%s: a scalar %s of byte %#lx also faults, with the same si_code (scalar %d/%d, TL %d/%d)",
                 why, c->st ? "store" : "load", (unsigned long)fault_addr, ssig, scode, sig, code);
        return;
    }

    tl_check(sig == 0, "%s: %s completes without a trap (got signal %d at %p)", why, d, sig,
             sig ? addr : NULL);
    if (sig) {
        return;
    }

    /* Expected result per docs/isa.md 5.2. */
    unsigned e = esz(c->type);
    unsigned S = c->d1 * c->d2 * e / 8;
    unsigned W = c->set_wp ? c->w : S;
    int64_t P = c->set_wp ? c->p : (int64_t)W;
    uint32_t M = c->tm ? c->mask : 0xffffffffu;
    static uint8_t exp_reg[1024];
    static uint8_t exp_region[REGION_PAGES * PG];
    static uint8_t exp_g[sizeof(gbuf)];
    int ok = 1;

    memset(exp_reg, 0, sizeof(exp_reg));
    memcpy(exp_region, snap, sizeof(snap));
    memcpy(exp_g, gsnap, sizeof(gsnap));
    for (unsigned i = 0; i < c->d0; i++) {
        if (!((M >> i) & 1)) {
            continue;
        }
        for (unsigned b = 0; b < W; b++) {
            uintptr_t a = t0 + (uintptr_t)((int64_t)c->imm * W) + (uintptr_t)((int64_t)i * P) + b;
            uint8_t *s = shadow_of(c->st ? exp_region : snap, c->st ? exp_g : gsnap, a);
            if (!s) {
                ok = 0;         /* the case itself is wrong: the address is not good memory */
                continue;
            }
            if (c->st) {
                *s = c->tlr ? pre[i * S + b] : 0;        /* tl0 reads as zeros */
            } else if (c->tlr) {
                exp_reg[i * S + b] = *s;                 /* writes to tl0 are discarded */
            }
        }
    }
    if (c->st) {
        int same = 1;
        for (int p = 0; p < REGION_PAGES; p++) {
            if (good_page(p) && memcmp(exp_region + p * PG, region + p * PG, PG)) {
                same = 0;
            }
        }
        same = same && memcmp(exp_g, gbuf, sizeof(gbuf)) == 0;
        tl_check(ok && same, "%s: memory holds exactly the selected slices' W bytes, nothing else", why);
    } else {
        int rsig = readback(c->tlr);
        tl_check(ok && rsig == 0 && memcmp(rb, exp_reg, 1024) == 0,
                 "%s: tl%d holds the loaded slices, zeros elsewhere", why, c->tlr);
    }
}

#define MC(...) (&(const struct mc){ __VA_ARGS__ })
#define I8 TL_TYPE_INT8
#define I16 TL_TYPE_INT16
#define I4 TL_TYPE_INT4

/* Phase A: tmask_load_width and tmask_load_stride never written (W = S, P = W). */
static void phase_a(void)
{
    /* S = 16: slices at BAD-56, -40, -24, -8; slice 3 = [BAD-8, BAD+8) straddles -> BAD */
    run_case("A1 last slice straddles the page boundary",
             MC(I8, 4, 2, 8, .tlr = 1), BAD - 56, 1, BAD);
    /* S = 16: slice i at BAD-72+16i; slice 4 = [BAD-8, BAD+8) straddles, 5..7 inside -> BAD */
    run_case("A2 middle slice 4 of 8 straddles",
             MC(I8, 8, 1, 16, .tlr = 1), BAD - 72, 1, BAD);
    /* int16 [4,4,8]: S = 4*8*2 = 64; slices BAD-200, -136, -72, -8 -> BAD */
    run_case("A3 int16 last slice straddles",
             MC(I16, 4, 4, 8, .tlr = 1), BAD - 200, 1, BAD);
    /* int4 [4,2,8]: S = 16*4/8 = 8; slices BAD-30, -22, -14, -6 (to BAD+1) -> BAD */
    run_case("A4 int4 last slice straddles",
             MC(I4, 4, 2, 8, .tlr = 1), BAD - 30, 1, BAD);
    /* imm -1: base = LOW+8-16 = LOW-8; slice 0 = [LOW-8, LOW+8): first byte LOW-8 is in page 0 */
    run_case("A5 negative imm8: first slice starts in the PROT_NONE page below",
             MC(I8, 4, 2, 8, .tlr = 1, .imm = -1), LOW + 8, 1, LOW - 8);
    /* mask 0x15 = slices 0, 2, 4 at BAD-72, BAD-40, BAD-8 (straddles) -> BAD */
    run_case("A6 mload: selected slice 4 straddles",
             MC(I8, 8, 1, 16, .tm = 1, .mask = 0x15, .tlr = 1), BAD - 72, 1, BAD);
    /* mask 0x0F: slices 0..3 = [BAD-72, BAD-8): good; 4 straddles and 5..7 are inside, but masked off */
    run_case("A7 mload: masked-off slices in the PROT_NONE page do not fault",
             MC(I8, 8, 1, 16, .tm = 1, .mask = 0x0F, .tlr = 1), BAD - 72, 0, 0);
    /* mask 0: nothing selected, every slice inside the hole */
    run_case("A8 mload with mask 0 and every slice in the PROT_NONE page",
             MC(I8, 8, 1, 16, .tm = 1, .mask = 0, .tlr = 1), BAD + 100, 0, 0);
    /* store S = 16: slices BAD-56 .. BAD-8 (straddles) -> BAD; slices 0..2 must not be written */
    run_case("A9 store: last slice straddles",
             MC(I8, 4, 2, 8, .st = 1, .tlr = 2), BAD - 56, 1, BAD);
    /* mask 0x5: slices 0 (BAD-40) and 2 (BAD-8, straddles) -> BAD */
    run_case("A10 mstore: selected slice 2 straddles",
             MC(I8, 4, 2, 8, .st = 1, .tm = 1, .mask = 0x5, .tlr = 2), BAD - 40, 1, BAD);
    /* mask 0x7: slices 0..2 at BAD-56, -40, -24; slice 3 (straddling) masked off */
    run_case("A11 mstore: masked-off straddling slice does not fault",
             MC(I8, 4, 2, 8, .st = 1, .tm = 1, .mask = 0x7, .tlr = 2), BAD - 56, 0, 0);
    /* tl0 still makes every check and access */
    run_case("A12 load to tl0 of a faulting range",
             MC(I8, 4, 2, 8, .tlr = 0), BAD - 56, 1, BAD);
    run_case("A13 store from tl0 to a faulting range",
             MC(I8, 4, 2, 8, .st = 1, .tlr = 0), BAD - 56, 1, BAD);
    run_case("A14 load to tl0 of a good range",
             MC(I8, 4, 2, 8, .tlr = 0), BAD - 64, 0, 0);
    /* int16 [4,4,8] S = 64, imm 1: base = BAD-300+64 = BAD-236; slices -236, -172, -108, -44 (to BAD+20) */
    run_case("A15 int16 store with imm8 = 1: last slice straddles",
             MC(I16, 4, 4, 8, .st = 1, .tlr = 2, .imm = 1), BAD - 300, 1, BAD);
    /* int4 [4,2,8] S = 8, imm -2: base = LOW+10-16 = LOW-6; slice 0 = [LOW-6, LOW+2) -> LOW-6 */
    run_case("A16 int4 store with imm8 = -2: first slice starts below LOW",
             MC(I4, 4, 2, 8, .st = 1, .tlr = 2, .imm = -2), LOW + 10, 1, LOW - 6);
    /* [1,1,16]: exactly [BAD-16, BAD) is good; one byte later the last byte is BAD */
    run_case("A17 slice ending exactly at the boundary",
             MC(I8, 1, 1, 16, .tlr = 1), BAD - 16, 0, 0);
    run_case("A18 slice ending one byte past the boundary",
             MC(I8, 1, 1, 16, .tlr = 1), BAD - 15, 1, BAD);
}

/* Phase B: explicit width W and pitch P. */
static void phase_b_cases(void)
{
    /* W 16 P 20: slices BAD-57, -37, -17 (to BAD-2), BAD+3, +23, +43 -> slice 3's first byte BAD+3 */
    run_case("B1 P > W: middle slice 3 of 6 starts inside the hole",
             MC(I8, 6, 1, 16, 1, 16, 20, .tlr = 1), BAD - 57, 1, BAD + 3);
    /* S 32, W 10, P 32: slices BAD-106, -74, -42, -10: slice 3 = [BAD-10, BAD) good */
    run_case("B2 W < S: only W bytes per slice are accessed",
             MC(I8, 4, 2, 16, 1, 10, 32, .tlr = 1), BAD - 106, 0, 0);
    /* one byte higher: slice 3 = [BAD-9, BAD+1) -> BAD */
    run_case("B3 W < S: last slice's W bytes reach the hole",
             MC(I8, 4, 2, 16, 1, 10, 32, .tlr = 1), BAD - 105, 1, BAD);
    /* P -24: slices LOW+60, +36, +12, LOW-12 (to LOW+4) -> LOW-12 */
    run_case("B4 negative stride: last slice straddles the lower boundary",
             MC(I8, 4, 1, 16, 1, 16, -24, .tlr = 1), LOW + 60, 1, LOW - 12);
    /* int16 [5,2,4] S 16, W 12, P -40, mask 0x19 = slices 0, 3, 4:
     * slice 0 LOW+100, slice 3 LOW-20 (to LOW-9, all in page 0), slice 4 LOW-60 -> LOW-20 */
    run_case("B5 int16 mstore, negative stride: selected slice 3 below LOW",
             MC(I16, 5, 2, 4, 1, 12, -40, .st = 1, .tm = 1, .mask = 0x19, .tlr = 2), LOW + 100, 1, LOW - 20);
    /* mask 0x3: slices 0 (LOW+100) and 1 (LOW+60), 12 of their 16 bytes each */
    run_case("B5b int16 mstore, W < S, negative stride: only W bytes per slice written",
             MC(I16, 5, 2, 4, 1, 12, -40, .st = 1, .tm = 1, .mask = 0x3, .tlr = 2), LOW + 100, 0, 0);
    /* P 0: all eight slices read [BAD-32, BAD) */
    run_case("B6 stride 0 load: every slice the same bytes",
             MC(I8, 8, 1, 32, 1, 32, 0, .tlr = 1), BAD - 32, 0, 0);
    /* P 0 store: every slice writes [BAD-32, BAD); the last (slice 7) remains */
    run_case("B7 stride 0 store: the highest slice's bytes remain",
             MC(I8, 8, 1, 32, 1, 32, 0, .st = 1, .tlr = 2), BAD - 32, 0, 0);
    /* P 0, every slice = [BAD-31, BAD+1): slice 0 faults first, at BAD */
    run_case("B8 stride 0 load, slices straddle",
             MC(I8, 8, 1, 32, 1, 32, 0, .tlr = 1), BAD - 31, 1, BAD);
    run_case("B9 stride 0 store, slices straddle",
             MC(I8, 8, 1, 32, 1, 32, 0, .st = 1, .tlr = 2), BAD - 31, 1, BAD);
    /* int4 [4,4,8] S = 32*4/8 = 16, W 5, P 5500: slices LOW+100, +5600, +11100, +16600 = BAD+216 */
    run_case("B10 int4 mload, P 5500: slice 3 inside the hole",
             MC(I4, 4, 4, 8, 1, 5, 5500, .tm = 1, .mask = 0xF, .tlr = 1), LOW + 100, 1, BAD + 216);
    /* mask 0x7: slices 0..2 (LOW+100, +5600, +11100), 5 of 16 bytes each */
    run_case("B10b int4 mload, W < S, P 5500, slice 3 masked off",
             MC(I4, 4, 4, 8, 1, 5, 5500, .tm = 1, .mask = 0x7, .tlr = 1), LOW + 100, 0, 0);
    run_case("B11 int4 mstore, P 5500: slice 3 inside the hole",
             MC(I4, 4, 4, 8, 1, 5, 5500, .st = 1, .tm = 1, .mask = 0xF, .tlr = 2), LOW + 100, 1, BAD + 216);
    /* imm 3, W 20, P 20: base = BAD-95+60 = BAD-35; slice 1 = [BAD-15, BAD+5) -> BAD */
    run_case("B12 imm8 = 3 in units of W",
             MC(I8, 2, 4, 8, 1, 20, 20, .tlr = 1, .imm = 3), BAD - 95, 1, BAD);
    /* imm -128, W 20: base = LOW+2550-2560 = LOW-10; slice 0 straddles -> LOW-10 */
    run_case("B13 imm8 = -128 in units of W",
             MC(I8, 2, 4, 8, 1, 20, 20, .tlr = 1, .imm = -128), LOW + 2550, 1, LOW - 10);
    /* P -16: slices LOW+24, LOW+8, LOW-8 (straddles), LOW-24 (inside): scan order gives LOW-8 */
    run_case("B14 negative stride: first faulting slice in scan order, not lowest address",
             MC(I8, 4, 1, 16, 1, 16, -16, .tlr = 1), LOW + 24, 1, LOW - 8);
    /* mask 0xB = slices 0, 1, 3: slice 3 at LOW-24 */
    run_case("B15 negative stride mload skipping the straddling slice",
             MC(I8, 4, 1, 16, 1, 16, -16, .tm = 1, .mask = 0xB, .tlr = 1), LOW + 24, 1, LOW - 24);
    /* mask 0x3: slices 0, 1 = [LOW+8, LOW+40) good */
    run_case("B16 negative stride mload of good slices only",
             MC(I8, 4, 1, 16, 1, 16, -16, .tm = 1, .mask = 0x3, .tlr = 1), LOW + 24, 0, 0);
    run_case("B17 negative stride store: slices 0 and 1 must not be written",
             MC(I8, 4, 1, 16, 1, 16, -16, .st = 1, .tlr = 2), LOW + 24, 1, LOW - 8);
    /* int16 [4,4,8] S 64, W 64, P -100: slices LOW+250, +150, +50, LOW-50 -> LOW-50 */
    run_case("B18 int16 load to tl0, negative stride",
             MC(I16, 4, 4, 8, 1, 64, -100, .tlr = 0), LOW + 250, 1, LOW - 50);
    /* [5,1,32], P 4096: slices LOW+4000 (crosses page 1/2, both good), +8096, +12192,
     * +16288 (to LOW+16319 < BAD), slice 4 at LOW+20384 = BAD+4000 */
    run_case("B19 page-sized stride: slice 4 inside the hole",
             MC(I8, 5, 1, 32, 1, 32, 4096, .tlr = 1), LOW + 4000, 1, BAD + 4000);
    run_case("B20 page-sized stride store: slice 4 inside the hole",
             MC(I8, 5, 1, 32, 1, 32, 4096, .st = 1, .tlr = 2), LOW + 4000, 1, BAD + 4000);
    /* [4,1,64], P 4096, t0 = BAD-8192+100: slices in pages 3, 4, 5 (hole), 6 (good) -> BAD+100 */
    run_case("B21 only a middle slice faults (slice 3 is good again, above the hole)",
             MC(I8, 4, 1, 64, 1, 64, 4096, .tlr = 1), BAD - 8192 + 100, 1, BAD + 100);
    run_case("B22 store: only a middle slice faults, the slices around it stay unwritten",
             MC(I8, 4, 1, 64, 1, 64, 4096, .st = 1, .tlr = 2), BAD - 8192 + 100, 1, BAD + 100);
    /* mask 0xB skips slice 2 (the hole): slice 3 comes from page 6 */
    run_case("B23 mload skipping the middle slice reads across the hole",
             MC(I8, 4, 1, 64, 1, 64, 4096, .tm = 1, .mask = 0xB, .tlr = 1), BAD - 8192 + 100, 0, 0);
    run_case("B24 mstore skipping the middle slice writes across the hole",
             MC(I8, 4, 1, 64, 1, 64, 4096, .st = 1, .tm = 1, .mask = 0xB, .tlr = 2), BAD - 8192 + 100, 0, 0);
    /* D0 = 32, S = W = P = 1: slice i = byte BAD-31+i; slice 31 = BAD */
    run_case("B25 D0 = 32 one-byte slices: slice 31 is the first byte of the hole",
             MC(I8, 32, 1, 1, 1, 1, 1, .tlr = 1), BAD - 31, 1, BAD);
    run_case("B26 D0 = 32 mload, mask bit 31 only",
             MC(I8, 32, 1, 1, 1, 1, 1, .tm = 1, .mask = 0x80000000u, .tlr = 1), BAD - 31, 1, BAD);
    run_case("B27 D0 = 32 mload, mask without bit 31",
             MC(I8, 32, 1, 1, 1, 1, 1, .tm = 1, .mask = 0x7fffffffu, .tlr = 1), BAD - 31, 0, 0);
    /* mask bits >= D0 are ignored: [4,1,16] P 16 t0 = BAD-64: slices 0..3 good; bit 4 would be BAD */
    run_case("B28 mask bits >= D0 select nothing",
             MC(I8, 4, 1, 16, 1, 16, 16, .tm = 1, .mask = 0xfffffff0u, .tlr = 1), BAD - 64, 0, 0);
}

/* Addresses wrap modulo 2^64.  Page 0 and everything above the user address space are unmapped. */
static void wrap_cases(void)
{
    const uintptr_t top16 = (uintptr_t)-16;     /* 0xfffffffffffffff0 */

    /* [1,1,16]: slice 0 = 0xfffffffffffffff8 .. 0x7 (wraps); its first byte faults */
    run_case("W1 a slice wrapping past 2^64",
             MC(I8, 1, 1, 16, 1, 16, 16, .tlr = 1), (uintptr_t)-8, 1, (uintptr_t)-8);
    /* imm -1, W 16: base = 8 - 16 = 0xfffffffffffffff8 */
    run_case("W2 negative imm8 wrapping below 0",
             MC(I8, 1, 1, 16, 1, 16, 16, .tlr = 1, .imm = -1), 8, 1, (uintptr_t)-8);
    /* mask 0x2, P 0x20: slice 0 (0x...fff0) masked off; slice 1 = 0x...fff0 + 0x20 = 0x10 (page 0) */
    run_case("W3 mload: slice 1 wraps to 0x10 in unmapped page 0",
             MC(I8, 2, 1, 16, 1, 16, 0x20, .tm = 1, .mask = 0x2, .tlr = 1), top16, 1, 0x10);
    run_case("W4 mstore: slice 1 wraps to 0x10 in unmapped page 0",
             MC(I8, 2, 1, 16, 1, 16, 0x20, .st = 1, .tm = 1, .mask = 0x2, .tlr = 2), top16, 1, 0x10);
    /* unmasked: slice 0 at 0x...fff0 faults first */
    run_case("W5 load: slice 0 at 0xfffffffffffffff0 faults before wrapped slice 1",
             MC(I8, 2, 1, 16, 1, 16, 0x20, .tlr = 1), top16, 1, top16);
    /* P -0x30, mask 0x2: slice 1 = 0x20 - 0x30 = 0xfffffffffffffff0 */
    run_case("W6 mload: negative stride wraps below 0",
             MC(I8, 2, 1, 16, 1, 16, -0x30, .tm = 1, .mask = 0x2, .tlr = 1), 0x20, 1, top16);

    /* Wrapping into mapped memory: slice 1 = 0x...fff0 + (gbuf + 16) = gbuf (mod 2^64). */
    uintptr_t pitch = (uintptr_t)gbuf + 16;
    if (pitch <= 0x7fffffff) {
        run_case("W7 mload: slice 1 wraps past 2^64 onto a global buffer",
                 MC(I8, 2, 1, 16, 1, 16, (int32_t)pitch, .tm = 1, .mask = 0x2, .tlr = 1), top16, 0, 0);
        run_case("W8 mstore: slice 1 wraps past 2^64 onto a global buffer",
                 MC(I8, 2, 1, 16, 1, 16, (int32_t)pitch, .st = 1, .tm = 1, .mask = 0x2, .tlr = 2),
                 top16, 0, 0);
    } else {
        tl_check(0, "W7/W8 need a global below 2 GiB (static non-PIE binary); gbuf is at %p", (void *)gbuf);
    }
}

int main(void)
{
    long pg = sysconf(_SC_PAGESIZE);

    install();
    if (pg != PG) {
        tl_check(0, "page size is %ld, this test assumes %ld", pg, PG);
        return tl_test_finish();
    }
    if (TL_TRAPS(tl_csr_read(TL_CSR_TTYPE))) {
        tl_check(0, "csrr ttype works (run under -cpu rv64,xtl=on)");
        return tl_test_finish();
    }
    region = mmap(NULL, REGION_PAGES * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    if (mprotect(region, PG, PROT_NONE) || mprotect(region + 5 * PG, PG, PROT_NONE)) {
        perror("mprotect");
        return 2;
    }
    printf("# region %p: PROT_NONE page at LOW-4096 = %#lx, good [LOW, BAD) = [%#lx, %#lx), "
           "PROT_NONE [BAD, BAD+4096), good page above\n",
           (void *)region, (unsigned long)region, (unsigned long)LOW, (unsigned long)BAD);
    phase_a();
    phase_b_cases();
    wrap_cases();
    return tl_test_finish();
}
