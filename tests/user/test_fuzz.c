/*
 * Crash fuzz of the TL (xtl) instructions under qemu-riscv64 -cpu rv64,xtl=on.
 *
 *   test_fuzz [words [seed]]      (defaults: 50000 words, seed from the clock)
 *
 * Each iteration may write random values to the 8 TL CSRs (fully random, or
 * valid types/shapes/widths/masks so that instructions really execute), picks
 * t0 (an arena address, an address next to a PROT_NONE page, the read-only
 * region, low memory, the top of the address space, a wild value, ...) and t1
 * (random, or valid tl.xpose dims), builds a random CUSTOM-2 word and runs it
 * through tl_exec_word, catching SIGILL/SIGSEGV/SIGBUS.
 *
 * Robustness of the harness itself:
 *  - TL instructions write no GPR and no CSR; the only thing that can hurt the
 *    fuzzer is a store.  Every store word (funct3 000, st = 1) has its rs1
 *    field forced to t0 (x5), and before it runs, every byte the store could
 *    write (each slice i < D0 for every selection of the mask, with W the width
 *    CSR or the slice size, P the stride CSR or W -- a superset of what the
 *    rule of docs/isa.md 5.2 allows) is checked against the writable mappings
 *    of the process (from /proc/self/maps, read once after setup; nothing is
 *    mapped or allocated afterwards).  Only the arena may be hit; otherwise t0
 *    is moved to 2^62 + x, far above the user address space, where the store
 *    must fault whatever its offsets (|offset| < 2^40).
 *  - Loads may use any rs1 (they only read).
 *
 * Besides not crashing, the outcome of every word is compared with a model of
 * docs/isa.md (decode, section 6.1 illegal-instruction conditions, the
 * all-or-nothing fault rule with the first faulting byte).  Where a GPR
 * operand is not known (a load through a GPR other than x0/t0/t1, an xpose
 * shape in another GPR), only "illegal or not" is predicted.  Some loads and
 * stores also have their data checked: stores must not change arena bytes
 * outside their selected slices (and nothing when they trap), loads from the
 * arena / read-only region must give exactly the selected bytes with zeros
 * elsewhere, and trapping loads must leave the destination untouched.
 */
#define _GNU_SOURCE     /* memmem */
#include "tl_test.h"
#include "tl/tl_insn.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define PG 4096UL
#define GUARD_PAGES 4
#define ARENA_PAGES 16
#define RO_PAGES 4
/*
 * layout: a 64 MiB PROT_NONE reservation; in its middle the arena (read/write),
 * a 4-page PROT_NONE gap, then the read-only region.  So everything within
 * +-32 MiB of the arena is either the arena or unwritable, whatever else the
 * process has mapped, and stores near the arena are rarely redirected.
 */
#define VOID_SIZE (64UL << 20)

static uint8_t *base_map;
static uintptr_t arena, arena_end, ro, ro_end;
static uint8_t arena_shadow[ARENA_PAGES * PG];

/* ---- random numbers: splitmix64 ---- */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t rn(uint64_t n) { return n ? rnd() % n : 0; }
static int chance(unsigned num, unsigned den) { return rn(den) < num; }

/* ---- signals ---- */
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
    static const int sigs[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGSYS };
    struct sigaction sa;

    tl_trap_install();
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        sigaction(sigs[i], &sa, NULL);
    }
}

/* ---- the guest memory map ---- */
struct mapping { uint64_t start, end; int r, w; uint64_t margin_lo, margin_hi; };
static struct mapping maps[256];
static int n_maps;
static char maps_text[65536], maps_text2[65536];

static int read_maps(char *buf, size_t size)
{
    int fd = open("/proc/self/maps", O_RDONLY);
    size_t len = 0;
    ssize_t n;

    if (fd < 0) {
        return -1;
    }
    while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0) {
        len += n;
    }
    buf[len] = 0;
    close(fd);
    return (int)len;
}

static uint64_t parse_hex(const char **p)
{
    uint64_t v = 0;
    for (;;) {
        char c = **p;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) {
            return v;
        }
        v = v * 16 + d;
        (*p)++;
    }
}

static void parse_maps(void)
{
    const char *p = maps_text;
    n_maps = 0;
    while (*p && n_maps < (int)(sizeof(maps) / sizeof(maps[0]))) {
        struct mapping m;
        m.start = parse_hex(&p);
        if (*p == '-') {
            p++;
        }
        m.end = parse_hex(&p);
        if (*p == ' ') {
            p++;
        }
        m.r = p[0] == 'r';
        m.w = p[1] == 'w';
        /*
         * Room for growth around writable mappings that can grow: the brk heap
         * and the data of the binary (low addresses), and the stack.
         */
        m.margin_lo = m.margin_hi = 0;
        if (m.w && m.end <= 0x100000000ULL) {
            m.margin_lo = 64 * 1024;
            m.margin_hi = 16 * 1024 * 1024;
        }
        const char *eol = strchr(p, '\n');
        size_t linelen = eol ? (size_t)(eol - p) : strlen(p);
        if (memmem(p, linelen, "[heap]", 6)) {
            m.margin_hi = 16 * 1024 * 1024;
        }
        if (memmem(p, linelen, "[stack]", 7)) {
            /*
             * qemu-user's guest stack is fixed, with a guard page below it; a
             * Linux kernel grows the stack down on an access below it, up to
             * the stack size limit, so nothing there is a predictable fault.
             */
            struct rlimit rl;
            uint64_t limit = 64 * 1024;
            if (getrlimit(RLIMIT_STACK, &rl) == 0) {
                limit = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1ULL << 30) ? 1ULL << 30
                                                                                   : rl.rlim_cur;
            }
            m.margin_lo = limit + 1024 * 1024;
        }
        maps[n_maps++] = m;
        while (*p && *p != '\n') {
            p++;
        }
        if (*p) {
            p++;
        }
    }
}

/*
 * Are two /proc/self/maps texts the same, except that the [stack] mapping may
 * start lower, within its growth room?  A Linux kernel grows the stack when a
 * load through a GPR the model does not know (sp, s0, ...) reads below it;
 * the model predicts nothing in that room, so its view stays right.
 */
static int same_maps_but_stack_growth(const char *before, const char *after)
{
    const char *sb = strstr(before, "[stack]"), *sa = strstr(after, "[stack]");
    if (!sb || !sa) {
        return strcmp(before, after) == 0;
    }
    while (sb > before && sb[-1] != '\n') {
        sb--;
    }
    while (sa > after && sa[-1] != '\n') {
        sa--;
    }
    const char *db = strchr(sb, '-'), *da = strchr(sa, '-');
    uint64_t start_b = strtoull(sb, NULL, 16), start_a = strtoull(sa, NULL, 16);
    uint64_t margin = 0;
    for (int k = 0; k < n_maps; k++) {
        if (maps[k].start == start_b) {
            margin = maps[k].margin_lo;
        }
    }
    return (size_t)(sb - before) == (size_t)(sa - after) && strncmp(before, after, (size_t)(sb - before)) == 0 &&
           db && da && strcmp(db, da) == 0 && start_a <= start_b && start_b - start_a <= margin;
}

/* 1 if every byte of [a, a+len) (wrapping) is in a mapping with the permission. */
static uint64_t first_bad_byte(uint64_t a, uint64_t len, int need_w, int *bad)
{
    uint64_t b = 0;
    while (b < len) {
        uint64_t x = a + b;
        int found = 0;
        for (int k = 0; k < n_maps; k++) {
            if (x >= maps[k].start && x < maps[k].end && maps[k].r && (!need_w || maps[k].w)) {
                uint64_t step = maps[k].end - x;
                b += step < len - b ? step : len - b;
                found = 1;
                break;
            }
        }
        if (!found) {
            *bad = 1;
            return x;
        }
    }
    *bad = 0;
    return 0;
}

/* Does [a, a+len) (wrapping) intersect a writable mapping other than the arena? */
static int hits_forbidden(uint64_t a, uint64_t len)
{
    if (a + len < a && a + len != 0) {                  /* wraps: split */
        return hits_forbidden(a, -a) || hits_forbidden(0, a + len);
    }
    uint64_t end = a + len;                             /* 0 means 2^64 */
    for (int k = 0; k < n_maps; k++) {
        if (!maps[k].w || (maps[k].start == arena && maps[k].end == arena_end)) {
            continue;
        }
        uint64_t s = maps[k].start > maps[k].margin_lo ? maps[k].start - maps[k].margin_lo : 0;
        uint64_t e = maps[k].end + maps[k].margin_hi;
        if (a < e && (end == 0 || end > s)) {
            return 1;
        }
    }
    return 0;
}

static int overlaps(uint64_t a, uint64_t len, uint64_t s, uint64_t e);

/*
 * Does [a, a+len) meet the room a writable mapping may grow into (below the
 * stack, above the heap)?  A kernel maps such an address on access instead of
 * faulting, so even a load there has no predictable outcome.
 */
static int hits_growth_room(uint64_t a, uint64_t len)
{
    for (int k = 0; k < n_maps; k++) {
        if (!maps[k].w) {
            continue;
        }
        uint64_t s = maps[k].start > maps[k].margin_lo ? maps[k].start - maps[k].margin_lo : 0;
        if ((maps[k].margin_lo && overlaps(a, len, s, maps[k].start)) ||
            (maps[k].margin_hi && overlaps(a, len, maps[k].end, maps[k].end + maps[k].margin_hi))) {
            return 1;
        }
    }
    return 0;
}

static int overlaps(uint64_t a, uint64_t len, uint64_t s, uint64_t e)
{
    uint64_t end = a + len;
    if (end < a) {
        return a < e || s < end;
    }
    return a < e && s < end;
}

/* ---- CSR shadow ---- */
enum { C_TYPE, C_SHAPE, C_MASK, C_CM1, C_CM2, C_STRIDE, C_WIDTH, C_VALID, N_CSR };
static uint32_t csr[N_CSR];
static int csr_init[N_CSR] = { [C_TYPE] = 1 };
static const char *const csr_name[N_CSR] = {
    "ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
    "tmask_load_stride", "tmask_load_width", "tvalid",
};

#define CSR_CASES(X) X(0x800) X(0x801) X(0x802) X(0x803) X(0x804) X(0x805) X(0x806) X(0x807)
static uint64_t csr_rd(unsigned n)
{
#define RD(num) case num: return tl_csr_read(num);
    switch (n + 0x800) { CSR_CASES(RD) }
    abort();
}
static int never_write = -1;   /* a CSR this run leaves uninitialized, or -1 */
static void csr_wr(unsigned n, uint64_t v)
{
    if ((int)n == never_write) {
        return;
    }
#define WR(num) case num: tl_csr_write(num, v); break;
    switch (n + 0x800) { CSR_CASES(WR) default: abort(); }
    csr[n] = (uint32_t)csr_rd(n);
    csr_init[n] = 1;
}

static unsigned esz_of(uint32_t t)
{
    switch (t) {
    case 0x001: case 0x010: return 4;
    case 0x002: case 0x040: case 0x080: case 0x0C0: return 8;
    case 0x004: case 0x100: case 0x200: return 16;
    case 0x008: case 0x400: return 32;
    default: return 0;
    }
}

/* ---- random CSR values ---- */
static const uint32_t valid_types[] = {
    0x002, 0x002, 0x002, 0x004, 0x004, 0x001, 0x001, 0x008,
    0x010, 0x040, 0x080, 0x0C0, 0x100, 0x200, 0x400,
};

static uint32_t rand_valid_shape(unsigned e)
{
    for (int tries = 0; tries < 20; tries++) {
        unsigned d0 = chance(1, 2) ? 1 + rn(8) : 1 + rn(32);
        unsigned budget = 1024 / d0 * 8 / e;           /* elements per slice */
        if (budget == 0) {
            continue;
        }
        unsigned d2 = 1 + rn(budget < 255 ? budget : 255);
        unsigned d1max = budget / d2;
        if (d1max > 255) {
            d1max = 255;
        }
        unsigned d1 = 1 + rn(d1max);
        if ((d1 * d2 * e) % 8) {
            continue;
        }
        return TL_SHAPE(d0, d1, d2);
    }
    return TL_SHAPE(4, 4, 4);
}

static void rand_csr_write(void)
{
    unsigned which = rn(N_CSR);
    uint64_t v;
    unsigned e = esz_of(csr[C_TYPE]);
    unsigned d0 = (csr[C_SHAPE] >> 16) & 0xff, d1 = (csr[C_SHAPE] >> 8) & 0xff, d2 = csr[C_SHAPE] & 0xff;
    unsigned S = e ? d1 * d2 * e / 8 : 0;
    unsigned kind = rn(16);                             /* 0: fully random */

    if (kind == 0) {
        v = chance(1, 4) ? rnd() : (uint32_t)rnd();
        csr_wr(which, v);
        return;
    }
    switch (which) {
    case C_TYPE:
        v = chance(15, 16) ? valid_types[rn(sizeof(valid_types) / sizeof(valid_types[0]))] : rn(0x1000);
        break;
    case C_SHAPE:
        v = rand_valid_shape(e ? e : 8);
        if (chance(1, 16)) {
            v = TL_SHAPE(rn(256), rn(256), rn(256));
        }
        break;
    case C_MASK: case C_CM1: case C_CM2:
        switch (rn(4)) {
        case 0: v = (uint32_t)rnd(); break;
        case 1: v = (1ULL << rn(33)) - 1; break;
        case 2: v = (uint32_t)rnd() & (uint32_t)rnd() & (uint32_t)rnd(); break;
        default: v = 1u << rn(32); break;
        }
        break;
    case C_STRIDE:
        switch (rn(6)) {
        case 0: v = (uint32_t)(int32_t)(rn(4097) - 2048); break;
        case 1: v = S; break;
        case 2: v = (uint32_t)(int32_t)((int64_t)(rn(9) - 4) * (int64_t)PG); break;
        case 3: v = 0; break;
        case 4: v = (uint32_t)-(int32_t)(1 + rn(1024)); break;
        default: v = (uint32_t)rnd(); break;
        }
        break;
    case C_WIDTH:
        v = S && chance(7, 8) ? 1 + rn(S) : rn(1100);
        break;
    default: /* C_VALID */
        v = chance(3, 4) ? TL_SHAPE(rn(d0 + 1), rn(d1 + 1), rn(d2 + 1)) : TL_SHAPE(rn(256), rn(256), rn(256));
        break;
    }
    (void)d0;
    csr_wr(which, v);
    if (which == C_SHAPE && chance(1, 2)) {            /* a width that fits the new shape */
        d1 = (csr[C_SHAPE] >> 8) & 0xff;
        d2 = csr[C_SHAPE] & 0xff;
        S = e ? d1 * d2 * e / 8 : 0;
        if (S) {
            csr_wr(C_WIDTH, chance(1, 2) ? S : 1 + rn(S));
        }
    }
}

/* A complete state in which most instructions execute. */
static void valid_state(void)
{
    uint32_t t = valid_types[rn(sizeof(valid_types) / sizeof(valid_types[0]))];
    unsigned e = esz_of(t);
    csr_wr(C_TYPE, t);
    csr_wr(C_SHAPE, rand_valid_shape(e));
    unsigned d0 = (csr[C_SHAPE] >> 16) & 0xff, d1 = (csr[C_SHAPE] >> 8) & 0xff, d2 = csr[C_SHAPE] & 0xff;
    unsigned S = d1 * d2 * e / 8;
    csr_wr(C_WIDTH, chance(1, 2) ? S : 1 + rn(S));
    csr_wr(C_STRIDE, chance(1, 2) ? csr[C_WIDTH] : (uint32_t)(int32_t)(rn(4097) - 2048));
    csr_wr(C_MASK, (uint32_t)rnd());
    csr_wr(C_CM1, (uint32_t)rnd() & (uint32_t)rnd() & (uint32_t)rnd());
    csr_wr(C_CM2, (uint32_t)rnd() & (uint32_t)rnd() & (uint32_t)rnd());
    csr_wr(C_VALID, TL_SHAPE(rn(d0 + 1), rn(d1 + 1), rn(d2 + 1)));
}

static uint32_t rand_xpose_dims(unsigned e)
{
    unsigned k = e == 4 ? 12 : e == 8 ? 11 : e == 16 ? 10 : 9;   /* log2 of the element count */
    for (;;) {
        unsigned a0 = 1 + rn(7), a1 = rn(8), a2 = rn(8);
        if (a0 + a1 + a2 > k) {
            continue;
        }
        unsigned a3 = k - a0 - a1 - a2;
        if (a3 > 7) {
            continue;
        }
        return TL_DIMS4(1u << a0, 1u << a1, 1u << a2, 1u << a3);
    }
}

/* ---- instruction words ---- */
static uint32_t rand_word(void)
{
    uint32_t w = ((uint32_t)rnd() & ~XTL_OPCODE_MASK) | XTL_OPCODE;
    unsigned f3;

    if (chance(2, 5)) {
        f3 = XTL_FUNCT3_MEM;
    } else {
        f3 = chance(1, 10) ? 6 + rn(2) : 1 + rn(5);     /* 110, 111 reserved; 001-101 */
    }
    w = (w & ~XTL_FUNCT3_MASK) | XTL_INSERT(FUNCT3, f3);
    if (chance(3, 4)) {                                 /* a legal encoding */
        switch (f3) {
        case XTL_FUNCT3_CONCAT:                         /* and merge */
            w = (w & ~XTL_FUNCT5_MASK) | XTL_INSERT(MOVE_OP, rn(2)) | XTL_INSERT(MOVE_DIM, rn(3));
            break;
        case XTL_FUNCT3_ADDI: w &= ~XTL_ADDI_FUNCT2_MASK; break;
        case XTL_FUNCT3_XPOSE: w &= ~XTL_XPOSE_F5HI_MASK; break;
        case XTL_FUNCT3_MULS: w &= ~XTL_MULS_FUNCT5_MASK; break;
        case XTL_FUNCT3_FILLPAD:
            w = (w & ~XTL_FUNCT5_MASK & ~XTL_FILLPAD_ZERO_MASK) | XTL_INSERT(FILLPAD_PP, rn(3));
            break;
        }
    }
    if (f3 == XTL_FUNCT3_XPOSE && chance(7, 8)) {
        w = (w & ~XTL_XPOSE_RS_MASK) | XTL_INSERT(XPOSE_RS, 6);         /* xpose shape in t1 */
    }
    if (f3 == XTL_FUNCT3_MEM && (XTL_EXTRACT(MEM_ST, w) || chance(3, 4))) {
        w = (w & ~XTL_MEM_RS1_MASK) | XTL_INSERT(MEM_RS1, 5);   /* base in t0; always for stores */
    }
    return w;
}

static uint64_t rand_t0(void)
{
    static const uint64_t tops[] = { 0x0000800000000000ULL, 0x0001000000000000ULL, 0x0000400000000000ULL };
    volatile int local;
    switch (rn(20)) {
    case 0: case 1: case 2: case 3: case 4: case 5:
        return arena + rn(arena_end - arena);
    case 6: case 7: case 8: {
        const uint64_t edges[] = { arena, arena_end, ro, ro_end };
        return edges[rn(4)] + rn(4096) - 2048;
    }
    case 9: case 10:
        return ro + rn(ro_end - ro);
    case 11:
        return rnd();
    case 12:
        return rn(0x100000);
    case 13:
        return -(uint64_t)rn(65536);
    case 14:
        return tops[rn(3)] + rn(8192) - 4096;
    case 15:
        return (uintptr_t)&local + rn(8192) - 4096;
    case 16:
        return (uintptr_t)&rng_state + rn(8192) - 4096;
    case 17:
        return (uintptr_t)base_map + rn(VOID_SIZE);
    default:
        return arena + rn(arena_end - arena) + (rn(2) ? 1 : -1) * (int64_t)rn(1 << 20);
    }
}

/* ---- model of docs/isa.md ---- */
enum outcome { O_EXEC, O_ILL, O_SEGV, O_MEM_UNKNOWN, O_UNKNOWN };
static const char *const outcome_name[] = { "executes", "SIGILL", "SIGSEGV", "executes or SIGSEGV", "?" };

struct memop {          /* a legal load/store, as docs/isa.md 5.2 defines it */
    int st;
    unsigned d0, S, W;
    int64_t P;
    uint32_t M;
    int64_t off;        /* sext(imm8) * W */
};

static int block_ok(unsigned e, unsigned *d0, unsigned *d1, unsigned *d2, unsigned *S)
{
    if (!csr_init[C_SHAPE]) {
        return 0;
    }
    *d0 = (csr[C_SHAPE] >> 16) & 0xff;
    *d1 = (csr[C_SHAPE] >> 8) & 0xff;
    *d2 = csr[C_SHAPE] & 0xff;
    if (!*d0 || !*d1 || !*d2 || (*d1 * *d2 * e) % 8) {
        return 0;
    }
    *S = *d1 * *d2 * e / 8;
    return *d0 * *S <= 1024;
}

/* A legal TL instruction: it matches a form of tl/xtl-opc.h (docs/isa.md 4.6). */
static int is_tl_insn(uint32_t w)
{
#define FORM_ROW(sym, name, match, mask, kind, eng) { match, mask },
    static const struct { uint32_t match, mask; } forms[] = { XTL_FORMS(FORM_ROW) };
#undef FORM_ROW

    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
        if ((w & forms[i].mask) == forms[i].match) {
            return 1;
        }
    }
    return 0;
}

/* gpr_known/gpr_val: the value of the GPR in [11:7] if known. */
static enum outcome predict(uint32_t w, int gpr_known, uint64_t gpr_val, struct memop *mo,
                            uint64_t *fault_addr)
{
    unsigned f3 = XTL_EXTRACT(FUNCT3, w);
    unsigned e, d0, d1, d2, S;

    if (!is_tl_insn(w)) {                               /* reserved encodings, 4.6 */
        return O_ILL;
    }
    e = esz_of(csr[C_TYPE]);
    if (!e) {
        return O_ILL;
    }
    switch (f3) {
    case XTL_FUNCT3_MEM: {
        int tm = XTL_EXTRACT(MEM_TM, w);
        if (!block_ok(e, &d0, &d1, &d2, &S) || d0 > 32 || (tm && !csr_init[C_MASK])) {
            return O_ILL;
        }
        uint32_t W = csr_init[C_WIDTH] ? csr[C_WIDTH] : S;
        if (W < 1 || W > S) {
            return O_ILL;
        }
        mo->st = XTL_EXTRACT(MEM_ST, w);
        mo->d0 = d0;
        mo->S = S;
        mo->W = W;
        mo->P = csr_init[C_STRIDE] ? (int64_t)(int32_t)csr[C_STRIDE] : (int64_t)W;
        mo->M = tm ? csr[C_MASK] : 0xffffffffu;
        mo->off = (int64_t)(int8_t)XTL_EXTRACT(MEM_IMM8, w) * (int64_t)W;
        if (!gpr_known) {
            return O_MEM_UNKNOWN;
        }
        for (unsigned i = 0; i < d0; i++) {
            if ((mo->M >> i) & 1) {
                int bad;
                uint64_t a = gpr_val + (uint64_t)mo->off + (uint64_t)((int64_t)i * mo->P);
                uint64_t x = first_bad_byte(a, W, mo->st, &bad);
                if (bad) {
                    *fault_addr = x;
                    return O_SEGV;
                }
            }
        }
        return O_EXEC;
    }
    case XTL_FUNCT3_CONCAT: {                           /* and merge */
        int merge = XTL_EXTRACT(MOVE_OP, w);
        if (!block_ok(e, &d0, &d1, &d2, &S)) {
            return O_ILL;
        }
        unsigned D[3] = { d0, d1, d2 }, Dd = D[XTL_EXTRACT(MOVE_DIM, w)];
        if (Dd > 32 || !csr_init[C_CM1] || (!merge && !csr_init[C_CM2])) {
            return O_ILL;
        }
        if (!merge) {
            uint64_t lim = (1ULL << Dd) - 1;
            unsigned n = __builtin_popcountll(csr[C_CM1] & lim) + __builtin_popcountll(csr[C_CM2] & lim);
            if (n > Dd) {
                return O_ILL;
            }
        }
        return O_EXEC;
    }
    case XTL_FUNCT3_XPOSE: {
        if (!gpr_known) {
            return O_UNKNOWN;
        }
        uint32_t v = (uint32_t)gpr_val;
        uint64_t D[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };
        if (!D[0] || !D[1] || !D[2] || !D[3] || D[0] * D[1] * D[2] * D[3] * e != 2048 * 8 ||
            D[0] % 2 || XTL_EXTRACT(XPOSE_TLRS1, w) == XTL_EXTRACT(XPOSE_TLRS2, w)) {
            return O_ILL;
        }
        return O_EXEC;
    }
    case XTL_FUNCT3_FILLPAD:
        if (!block_ok(e, &d0, &d1, &d2, &S) || !csr_init[C_VALID] ||
            ((csr[C_VALID] >> 16) & 0xff) > d0 || ((csr[C_VALID] >> 8) & 0xff) > d1 ||
            (csr[C_VALID] & 0xff) > d2) {
            return O_ILL;
        }
        return O_EXEC;
    default:                                            /* addi, muls */
        return O_EXEC;
    }
}

/*
 * Could a store with base t0 write anything outside the arena (hits =
 * hits_forbidden), or a load touch room a mapping may grow into (hits =
 * hits_growth_room)?  Checks every slice i < D0 (raw tshape, up to 255) for
 * W in {width CSR, raw S} and P in {stride CSR, W}, whatever the mask: a
 * superset of docs/isa.md 5.2.
 */
static int mem_may_escape(uint32_t w, uint64_t t0, int *touches_arena,
                          int (*hits)(uint64_t a, uint64_t len))
{
    unsigned e = esz_of(csr[C_TYPE]);
    unsigned d0 = (csr[C_SHAPE] >> 16) & 0xff, d1 = (csr[C_SHAPE] >> 8) & 0xff, d2 = csr[C_SHAPE] & 0xff;
    uint64_t Sraw = (uint64_t)d1 * d2 * (e ? e : 32) / 8;
    uint64_t Ws[2] = { csr_init[C_WIDTH] ? csr[C_WIDTH] : Sraw, Sraw };
    int64_t imm = (int8_t)XTL_EXTRACT(MEM_IMM8, w);
    int escape = 0;

    *touches_arena = 0;
    if (d0 == 0) {
        d0 = 1;
    }
    for (int wi = 0; wi < 2; wi++) {
        uint64_t W = Ws[wi];
        if (W == 0) {
            W = 1;
        }
        if (W > (1u << 20)) {
            W = 1u << 20;
        }
        int64_t Ps[2] = { csr_init[C_STRIDE] ? (int64_t)(int32_t)csr[C_STRIDE] : (int64_t)W, (int64_t)W };
        for (int pi = 0; pi < 2; pi++) {
            int64_t P = Ps[pi];
            uint64_t first = t0 + (uint64_t)(imm * (int64_t)W);
            /* hull of all slices; if it neither wraps nor meets a forbidden mapping, all is well */
            uint64_t lo = P >= 0 ? first : first + (uint64_t)((int64_t)(d0 - 1) * P);
            uint64_t span = (uint64_t)((P >= 0 ? P : -P) * (int64_t)(d0 - 1)) + W;
            if (overlaps(lo, span, arena, arena_end)) {
                *touches_arena = 1;
            }
            if (!hits(lo, span)) {
                continue;
            }
            for (unsigned i = 0; i < d0; i++) {
                if (hits(first + (uint64_t)((int64_t)i * P), W)) {
                    escape = 1;
                }
            }
        }
    }
    return escape;
}

/* ---- whole-register readback (only when tshape, width and stride are initialized) ---- */
static uint8_t rb_buf[1024], rb_before[1024], expect_reg[1024];

static int readback(unsigned tlr, uint8_t *out)
{
    uint32_t saved[N_CSR];
    int sig;

    memcpy(saved, csr, sizeof(saved));
    csr_wr(C_TYPE, TL_TYPE_INT8);
    csr_wr(C_SHAPE, TL_SHAPE(4, 2, 128));
    csr_wr(C_WIDTH, 256);
    csr_wr(C_STRIDE, 256);
    memset(out, 0x5a, 1024);
    sig = tl_exec_word(TL_ENC_MEM(2, 1, 0, tlr, 0, 5), (uintptr_t)out, 0);
    csr_wr(C_TYPE, saved[C_TYPE]);
    csr_wr(C_SHAPE, saved[C_SHAPE]);
    csr_wr(C_WIDTH, saved[C_WIDTH]);
    csr_wr(C_STRIDE, saved[C_STRIDE]);
    return sig;
}

static int can_readback(void)
{
    return csr_init[C_SHAPE] && csr_init[C_WIDTH] && csr_init[C_STRIDE] &&
           never_write != C_SHAPE && never_write != C_WIDTH && never_write != C_STRIDE;
}

/* ---- main loop ---- */
static unsigned long n_exec, n_ill, n_segv, n_bus, n_other, n_redirect, n_csrw, n_predicted,
    n_mismatch, n_store_checked, n_store_bad, n_load_checked, n_load_bad, n_ill_unknown;

static void report_mismatch(unsigned long it, const char *what, uint32_t w, uint64_t t0, uint64_t t1,
                            const char *expected, int sig, void *addr)
{
    n_mismatch++;
    if (n_mismatch > 20) {
        return;
    }
    printf("# MISMATCH word %lu: %s: insn 0x%08x t0=%#llx t1=%#llx expected %s, got signal %d",
           it, what, w, (unsigned long long)t0, (unsigned long long)t1, expected, sig);
    if (sig == SIGSEGV || sig == SIGBUS) {
        printf(" at %p", addr);
    }
    printf("\n#   CSRs:");
    for (int k = 0; k < N_CSR; k++) {
        if (csr_init[k]) {
            printf(" %s=%#x", csr_name[k], csr[k]);
        } else {
            printf(" %s=uninit", csr_name[k]);
        }
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    unsigned long words = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    struct timespec t_start, t_end;
    unsigned long it;

    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("# test_fuzz: %lu words, seed %llu\n", words, (unsigned long long)seed);
    rng_state = seed;
    install();
    for (int k = 0; k < N_CSR; k++) {
        /* reset values; a read does not initialize */
        if (TL_TRAPS(csr[k] = (uint32_t)csr_rd(k))) {
            tl_check(0, "csrr %s works (run under -cpu rv64,xtl=on)", csr_name[k]);
            return tl_test_finish();
        }
    }
    if (chance(1, 3)) {
        never_write = C_SHAPE + rn(N_CSR - 1);
        printf("# this run never writes %s: it stays uninitialized\n", csr_name[never_write]);
    }

    base_map = mmap(NULL, VOID_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base_map == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    arena = (uintptr_t)base_map + VOID_SIZE / 2;
    arena_end = arena + ARENA_PAGES * PG;
    ro = arena_end + GUARD_PAGES * PG;
    ro_end = ro + RO_PAGES * PG;
    if (mprotect((void *)arena, ARENA_PAGES * PG, PROT_READ | PROT_WRITE) ||
        mprotect((void *)ro, RO_PAGES * PG, PROT_READ | PROT_WRITE)) {
        perror("mprotect");
        return 2;
    }
    for (uint64_t *p = (uint64_t *)arena; p < (uint64_t *)arena_end; p++) {
        *p = rnd();
    }
    for (uint64_t *p = (uint64_t *)ro; p < (uint64_t *)ro_end; p++) {
        *p = rnd();
    }
    memcpy(arena_shadow, (void *)arena, sizeof(arena_shadow));
    if (mprotect((void *)ro, RO_PAGES * PG, PROT_READ)) {
        perror("mprotect");
        return 2;
    }
    /* maps the trampoline page (funct3 110 is always illegal) */
    tl_exec_word(XTL_OPCODE | XTL_INSERT(FUNCT3, 6), 0, 0);
    if (read_maps(maps_text, sizeof(maps_text)) <= 0) {
        printf("# cannot read /proc/self/maps\n");
        return 2;
    }
    parse_maps();
    if (getenv("TL_FUZZ_MAPS")) {
        printf("%s", maps_text);
    }
    int arena_seen = 0;
    for (int k = 0; k < n_maps; k++) {
        arena_seen |= maps[k].start == arena && maps[k].end == arena_end && maps[k].w;
    }
    printf("# arena [%#lx, %#lx), read-only [%#lx, %#lx), inside a 64 MiB PROT_NONE reservation; %d mappings\n",
           (unsigned long)arena, (unsigned long)arena_end, (unsigned long)ro, (unsigned long)ro_end, n_maps);
    if (!arena_seen) {
        printf("# /proc/self/maps does not show the arena as one writable mapping:\n%s", maps_text);
        tl_check(0, "guest memory map is readable and shows the arena");
        return tl_test_finish();
    }

    clock_gettime(CLOCK_MONOTONIC, &t_start);
    for (it = 0; it < words; it++) {
        if (chance(1, 64)) {
            valid_state();
            n_csrw += N_CSR;
        } else if (chance(1, 8)) {
            for (int k = 1 + rn(3); k > 0; k--) {
                rand_csr_write();
                n_csrw++;
            }
        }
        uint32_t w = rand_word();
        uint64_t t0 = rand_t0();
        uint64_t t1;
        unsigned e = esz_of(csr[C_TYPE]);
        switch (rn(4)) {
        case 0: t1 = rnd(); break;
        case 1: t1 = rn(300); break;
        default: t1 = rand_xpose_dims(e ? e : 8) | (chance(1, 4) ? rnd() << 32 : 0); break;
        }
        unsigned f3 = XTL_EXTRACT(FUNCT3, w), rsf = XTL_EXTRACT(OPERAND_C, w);
        int is_mem = f3 == XTL_FUNCT3_MEM, st = is_mem && XTL_EXTRACT(MEM_ST, w);
        int touches_arena = 0;

        if (st && mem_may_escape(w, t0, &touches_arena, hits_forbidden)) {
            t0 = 0x4000000000000000ULL + (rnd() & 0x0000fffffffff000ULL) + rn(4096);
            n_redirect++;
            mem_may_escape(w, t0, &touches_arena, hits_forbidden);
        } else if (is_mem && !st && mem_may_escape(w, t0, &touches_arena, hits_growth_room)) {
            t0 = 0x4000000000000000ULL + (rnd() & 0x0000fffffffff000ULL) + rn(4096);
            n_redirect++;
            mem_may_escape(w, t0, &touches_arena, hits_growth_room);
        }

        int gpr_known = rsf == 0 || rsf == 5 || rsf == 6;
        uint64_t gpr_val = rsf == 5 ? t0 : rsf == 6 ? t1 : 0;
        struct memop mo;
        uint64_t fault_addr = 0;
        enum outcome pred = (f3 == XTL_FUNCT3_MEM || f3 == XTL_FUNCT3_XPOSE)
                                ? predict(w, gpr_known, gpr_val, &mo, &fault_addr)
                                : predict(w, 1, 0, &mo, &fault_addr);
        unsigned tlr = XTL_EXTRACT(MEM_TLR, w);
        int check_load = is_mem && !st && tlr && can_readback() && pred != O_UNKNOWN && chance(1, 4);
        int before_ok = 0;
        if (check_load) {
            before_ok = readback(tlr, rb_before) == 0;
        }

        int sig = tl_exec_word(w, t0, t1);
        void *addr = tl_trap_addr;

        switch (sig) {
        case 0: n_exec++; break;
        case SIGILL: n_ill++; break;
        case SIGSEGV: n_segv++; break;
        case SIGBUS: n_bus++; break;
        default: n_other++; break;
        }

        /* outcome against the model */
        int ok = 1;
        char expbuf[64];
        snprintf(expbuf, sizeof(expbuf), "%s", outcome_name[pred]);
        switch (pred) {
        case O_EXEC: ok = sig == 0; break;
        case O_ILL: ok = sig == SIGILL; break;
        case O_SEGV:
            ok = sig == SIGSEGV && (uint64_t)(uintptr_t)addr == fault_addr;
            snprintf(expbuf, sizeof(expbuf), "SIGSEGV at %#llx", (unsigned long long)fault_addr);
            break;
        case O_MEM_UNKNOWN: ok = sig == 0 || sig == SIGSEGV; break;
        case O_UNKNOWN: ok = sig == 0 || sig == SIGILL; n_ill_unknown++; break;
        }
        if (pred == O_EXEC || pred == O_ILL || pred == O_SEGV) {
            n_predicted++;
        }
        if (!ok) {
            report_mismatch(it, "outcome", w, t0, t1, expbuf, sig, addr);
        }

        /* stores: arena bytes outside the selected slices never change */
        if (st && touches_arena) {
            static uint8_t expect_arena[ARENA_PAGES * PG];
            memcpy(expect_arena, arena_shadow, sizeof(expect_arena));
            if (sig == 0 && pred == O_EXEC) {
                for (unsigned i = 0; i < mo.d0; i++) {
                    if (!((mo.M >> i) & 1)) {
                        continue;
                    }
                    uint64_t a = t0 + (uint64_t)mo.off + (uint64_t)((int64_t)i * mo.P);
                    for (unsigned b = 0; b < mo.W; b++) {
                        if (a + b >= arena && a + b < arena_end) {
                            expect_arena[a + b - arena] = *(uint8_t *)(uintptr_t)(a + b);
                        }
                    }
                }
            }
            n_store_checked++;
            if (memcmp(expect_arena, (void *)arena, sizeof(expect_arena))) {
                n_store_bad++;
                report_mismatch(it, sig ? "trapping store changed the arena"
                                        : "store changed arena bytes outside its selected slices",
                                w, t0, t1, "no change", sig, addr);
            }
            memcpy(arena_shadow, (void *)arena, sizeof(arena_shadow));
        }

        /* loads: the register afterwards */
        if (check_load && before_ok) {
            int expect_known = 0;
            if (sig != 0) {
                memcpy(expect_reg, rb_before, 1024);
                expect_known = 1;
            } else if (pred == O_EXEC) {
                /* only slices inside the arena or the read-only region (memory that did not change) */
                expect_known = 1;
                memset(expect_reg, 0, sizeof(expect_reg));
                for (unsigned i = 0; i < mo.d0 && expect_known; i++) {
                    if (!((mo.M >> i) & 1)) {
                        continue;
                    }
                    uint64_t a = gpr_val + (uint64_t)mo.off + (uint64_t)((int64_t)i * mo.P);
                    int in_a = a >= arena && a + mo.W <= arena_end && a + mo.W > a;
                    int in_r = a >= ro && a + mo.W <= ro_end && a + mo.W > a;
                    if (!in_a && !in_r) {
                        expect_known = 0;
                        break;
                    }
                    memcpy(expect_reg + i * mo.S, (void *)(uintptr_t)a, mo.W);
                }
            }
            if (expect_known) {
                int rsig = readback(tlr, rb_buf);
                n_load_checked++;
                if (rsig || memcmp(rb_buf, expect_reg, 1024)) {
                    n_load_bad++;
                    report_mismatch(it, sig ? "trapping load changed its destination register"
                                            : "loaded register differs from the selected memory",
                                    w, t0, gpr_val, "register per docs/isa.md 5.2", sig, addr);
                }
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t_end);
    int len2 = read_maps(maps_text2, sizeof(maps_text2));

    double secs = (t_end.tv_sec - t_start.tv_sec) + (t_end.tv_nsec - t_start.tv_nsec) / 1e9;
    printf("# outcomes: executed %lu, SIGILL %lu, SIGSEGV %lu, SIGBUS %lu, other %lu "
           "(%lu words in %.1f s)\n", n_exec, n_ill, n_segv, n_bus, n_other, it, secs);
    printf("# %lu CSR writes, %lu loads and stores redirected above the address space, %lu outcomes predicted "
           "exactly (%lu xpose words with an unknown shape GPR), %lu stores and %lu loads data-checked\n",
           n_csrw, n_redirect, n_predicted, n_ill_unknown, n_store_checked, n_load_checked);

    tl_check(it == words, "the fuzz run completed all %lu words (seed %llu)", words, (unsigned long long)seed);
    tl_check(n_other == 0, "every trap was SIGILL, SIGSEGV or SIGBUS (%lu other signals)", n_other);
    tl_check(n_mismatch - n_store_bad - n_load_bad == 0,
             "every outcome matched the docs/isa.md model: illegal-instruction conditions, "
             "first faulting byte (%lu mismatches)", n_mismatch - n_store_bad - n_load_bad);
    tl_check(n_store_bad == 0, "stores changed no arena byte outside their selected slices, "
             "and trapping stores none at all (%lu of %lu checked stores wrong)", n_store_bad, n_store_checked);
    tl_check(n_load_bad == 0, "loaded registers held exactly the selected bytes, zeros elsewhere, and trapping "
             "loads left them unchanged (%lu of %lu checked loads wrong)", n_load_bad, n_load_checked);
    int same_map = len2 > 0 && same_maps_but_stack_growth(maps_text, maps_text2);
    if (!same_map) {
        printf("# memory map before the run:\n%s# and after it:\n%s", maps_text, maps_text2);
    }
    tl_check(same_map, "the guest memory map did not change during the run, apart from the stack growing "
             "into the room the model leaves unpredicted (the model's view stayed right)");
    return tl_test_finish();
}
