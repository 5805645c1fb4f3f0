/*
 * Guest side of the xtl random differential test (tests/diff/tl_diff.py).
 *
 *   tl_diff_guest CASES RESULTS
 *
 * Reads a binary case file written by tl_diff.py, executes every case and
 * writes one result record per case.  Per case:
 *   1. all 32 TL registers are set with tl.load (int8, tshape [8,1,128],
 *      width 128, stride 128): those the case names from the file's data
 *      pool, every other one with its background pattern (background());
 *   2. all 8 TL CSRs are written with the case's values, then tinit when the
 *      case gives a value for it (CSRs left uninitialized);
 *   3. the instruction word (or a sequence of three or five: the words
 *      after it in the case) runs from a trampoline page with t0/t1/t2
 *      (and t3/t4) set; SIGILL/SIGSEGV/SIGBUS are caught (signal number,
 *      si_addr and which word raised it kept);
 *   4. the whole TL state is read back: the 9 CSRs 0x800-0x808 and the hash
 *      of each of the 32 registers (tl.store); the case's memory spans (one,
 *      or two for the two stores of a five-word sequence) are hashed
 *      (bytes of readable pages only, the second span's after the first's)
 *      and restored from the pristine arena image;
 *   5. for memory instructions the whole arena is compared with the
 *      pristine image (a stray write sets a flag and is repaired).
 * All little-endian; the layout is described in tl_diff.py (struct formats).
 *
 * The arena is mapped at a fixed address (MAP_FIXED_NOREPLACE) so that the
 * reference model sees the same absolute addresses; failure to get it is
 * reported and the program exits with status 2.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "tl/tl_insn.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define MAGIC "TLDIFF04"
#define FORMAT_VERSION 4
#define MAX_REGS 7
#define NUM_TL_REGS 32
#define PAGE 4096u

#define CF_T0_REL  1u  /* t0 is an offset from the arena start */
#define CF_MEMCHK  2u  /* compare the whole arena with the pristine image afterwards */
#define CF_TINIT   4u  /* write tinit with CF_TINIT_VAL after the CSRs */
#define CF_T2_REL  8u  /* t2 is an offset from the arena start */
#define CF_WARM    16u /* first an access of tl0 to t0's KiB (and t3's: warm_up) */
#define CF_T3_REL  32u /* t3 is an offset from the arena start */
#define CF_T4_REL  64u /* t4 is an offset from the arena start */
#define CF_TINIT_VAL(f) (((f) >> 16) & 0xffu)
#define CF_FRM(f)  (((f) >> 8) & 7u)   /* frm value set before the instruction */
#define CF_NOPS(f) (((f) >> 12) & 3u)  /* nops before the instruction in the trampoline */

#define RF_STRAY      1u /* arena differed from pristine after the case */
#define RF_BAD_PC     2u /* the signal was not raised by the tested instruction */
#define RF_GPR        4u /* t0, t1 or t2 changed */
#define RF_FRM        8u /* frm changed */
#define RF_INSN_SHIFT 8  /* bits 10:8: the word of the sequence that raised the signal */

#define HF_DUMP 1u

struct hdr {
    char magic[8];
    uint32_t version, flags;
    uint32_t ncases, npool;
    uint64_t map_base;
    uint32_t map_len, nprot;
    uint32_t arena_off, arena_len;
};

struct prot_ent {
    uint32_t off, len, prot, pad;
};

struct tcase {
    uint32_t word, flags;
    uint64_t t0, t1;
    uint64_t csr[8];
    uint8_t nregs, regs[MAX_REGS];
    uint16_t pool[8];          /* 0xffff: all-zero contents */
    uint64_t span_lo, span_hi; /* absolute; span_lo == span_hi: none */
    uint32_t more[2];          /* a sequence: the words after word (0: a single word) */
    uint64_t t2;
    uint32_t more2[2];         /* a five-word sequence: its fourth and fifth words (0: none) */
    uint64_t t3, t4;
    uint64_t span2_lo, span2_hi; /* a second span (the second store's) */
};

struct tresult {
    int32_t sig;
    uint32_t flags;
    uint64_t fault_addr;
    uint64_t csr[9];                /* 0x800-0x808 */
    uint64_t reg_hash[NUM_TL_REGS];
    uint64_t mem_hash;
    uint32_t fflags;       /* fflags after the instruction (cleared before) */
    int32_t si_code;       /* of the SIGSEGV/SIGBUS */
    int32_t probe_sig;     /* scalar access to the fault address: signal ... */
    int32_t probe_code;    /* ... and its si_code */
};

_Static_assert(sizeof(struct hdr) == 48, "hdr layout");
_Static_assert(sizeof(struct tcase) == 184, "case layout");
_Static_assert(sizeof(struct tresult) == 368, "result layout");

/* ---- hash (mirrored by tl_diff.py: hash_bytes) ---- */
#define H_GOLD 0x9E3779B97F4A7C15ull
#define H_KEY  0x243F6A8885A308D3ull

static inline uint64_t fmix64(uint64_t z)
{
    z ^= z >> 33;
    z *= 0xff51afd7ed558ccdull;
    z ^= z >> 33;
    z *= 0xc4ceb9fe1a85ec53ull;
    z ^= z >> 33;
    return z;
}

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0;
    size_t j, nw = n / 8;

    for (j = 0; j < nw; j++) {
        uint64_t w;
        memcpy(&w, p + 8 * j, 8);
        h += fmix64(w + j * H_GOLD + H_KEY);
    }
    if (n % 8) {
        uint64_t w = 0;
        memcpy(&w, p + 8 * nw, n % 8);
        h += fmix64(w + nw * H_GOLD + H_KEY);
    }
    return fmix64(h ^ ((uint64_t)n * 0xD6E8FEB86659FD93ull));
}

/* ---- signals ---- */
enum { PH_SETUP, PH_EXEC, PH_POST };
static volatile int phase = PH_SETUP;
static volatile unsigned cur_case;
static sigjmp_buf exec_jmp;
static volatile int trap_sig, trap_code;
static volatile uint64_t trap_addr, trap_pc;
static uint32_t *tramp;

static void handler(int sig, siginfo_t *info, void *ucv)
{
    ucontext_t *uc = ucv;

    if (phase != PH_EXEC) {
        char msg[160];
        int n = snprintf(msg, sizeof(msg),
                         "tl_diff_guest: harness failure: signal %d at pc 0x%lx addr %p "
                         "outside the tested instruction (case %u, phase %d)\n",
                         sig, (unsigned long)uc->uc_mcontext.__gregs[0], info->si_addr,
                         cur_case, phase);
        if (write(2, msg, n) < 0) {
            /* nothing more to do */
        }
        _exit(3);
    }
    trap_sig = sig;
    trap_code = info->si_code;
    trap_addr = (uint64_t)(uintptr_t)info->si_addr;
    trap_pc = uc->uc_mcontext.__gregs[0];
    siglongjmp(exec_jmp, 1);
}

static void install_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGTRAP, &sa, NULL);
}

/*
 * The trampoline holds NOPS nops, the N words, ret: the tested instruction is
 * not always the first of its translation block.  It is written before the
 * case's set-up, and then the ret at the end of its page runs: QEMU
 * write-protects a page when it first translates code there, and each change
 * of page flags (that one, and the write that lifts it) makes QEMU look up
 * accessed memory again, which the set-up's accesses (warm_up) are to have done.
 */
#define MAX_WORDS 5
static uint32_t last_words[MAX_WORDS], last_n, last_nops = ~0u;
static uint32_t *tested_insn;
static void set_tramp(const uint32_t *words, unsigned n, unsigned nops)
{
    if (n != last_n || nops != last_nops || memcmp(words, last_words, n * sizeof(*words)) != 0) {
        for (unsigned k = 0; k < nops; k++) {
            tramp[k] = 0x00000013; /* nop */
        }
        memcpy(tramp + nops, words, n * sizeof(*words));
        tramp[nops + n] = 0x00008067; /* ret */
        __builtin___clear_cache((char *)tramp, (char *)(tramp + nops + n + 1));
        memcpy(last_words, words, n * sizeof(*words));
        last_n = n;
        last_nops = nops;
        tested_insn = tramp + nops;
    }
    ((void (*)(void))(uintptr_t)(tramp + PAGE / 4 - 1))();
}

/*
 * Runs the trampoline; returns 0 or the signal; *gpr_ok is cleared when t0,
 * t1, t2, t3 or t4 changed.
 */
static int exec_tramp(uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3, uint64_t t4,
                      int *gpr_ok)
{
    trap_sig = 0;
    *gpr_ok = 1;
    phase = PH_EXEC;
    if (sigsetjmp(exec_jmp, 0) == 0) {
        register uint64_t r_t0 __asm__("t0") = t0;
        register uint64_t r_t1 __asm__("t1") = t1;
        register uint64_t r_t2 __asm__("t2") = t2;
        register uint64_t r_t3 __asm__("t3") = t3;
        register uint64_t r_t4 __asm__("t4") = t4;
        __asm__ volatile("jalr ra, 0(%5)"
                         : "+r"(r_t0), "+r"(r_t1), "+r"(r_t2), "+r"(r_t3), "+r"(r_t4)
                         : "r"(tramp)
                         : "ra", "memory");
        *gpr_ok = r_t0 == t0 && r_t1 == t1 && r_t2 == t2 && r_t3 == t3 && r_t4 == t4;
    }
    phase = PH_POST;
    return trap_sig;
}

/* A scalar access to ADDR (a load; for stores also a store of the byte read). */
static void probe(uint64_t addr, int is_store, int32_t *sig, int32_t *code)
{
    trap_sig = 0;
    trap_code = 0;
    phase = PH_EXEC;
    if (sigsetjmp(exec_jmp, 0) == 0) {
        volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)addr;
        uint8_t v = *p;
        if (is_store) {
            *p = v;
        }
    }
    phase = PH_POST;
    *sig = trap_sig;
    *code = trap_sig ? trap_code : 0;
}

/* ---- TL register transfer (register numbers are instruction fields) ---- */
#define R32(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) \
    X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25)   \
    X(26) X(27) X(28) X(29) X(30) X(31)

static void set_xfer_csrs(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(8, 1, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 128);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 128);
}

static void reg_load(unsigned r, const void *p)
{
#define LOAD_CASE(n) case n: tl_load(n, 0, p); break;
    switch (r) { R32(LOAD_CASE) default: abort(); }
}

static void reg_store(unsigned r, void *p)
{
#define STORE_CASE(n) case n: tl_store(n, 0, p); break;
    switch (r) { R32(STORE_CASE) default: abort(); }
}

static void write_case_csrs(const uint64_t *c)
{
    tl_csr_write(TL_CSR_TTYPE, c[0]);
    tl_csr_write(TL_CSR_TSHAPE, c[1]);
    tl_csr_write(TL_CSR_TMASK_LS, c[2]);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, c[3]);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, c[4]);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, c[5]);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, c[6]);
    tl_csr_write(TL_CSR_TVALID, c[7]);
}

static void read_case_csrs(uint64_t *c)
{
    c[0] = tl_csr_read(TL_CSR_TTYPE);
    c[1] = tl_csr_read(TL_CSR_TSHAPE);
    c[2] = tl_csr_read(TL_CSR_TMASK_LS);
    c[3] = tl_csr_read(TL_CSR_TMASK_CONCAT_1);
    c[4] = tl_csr_read(TL_CSR_TMASK_CONCAT_2);
    c[5] = tl_csr_read(TL_CSR_TMASK_LOAD_STRIDE);
    c[6] = tl_csr_read(TL_CSR_TMASK_LOAD_WIDTH);
    c[7] = tl_csr_read(TL_CSR_TVALID);
    c[8] = tl_csr_read(TL_CSR_TINIT);
}

/* Contents of a register the case does not name (tl_diff.py: background). */
static void background(unsigned r, uint8_t *out)
{
    for (unsigned i = 0; i < 1024; i++) {
        out[i] = r == 0 ? 0 : (uint8_t)((r + 1) * 37 + i * 11 + (i >> 7));
    }
}

/* ---- arena ---- */
static void restore(uint64_t lo, uint64_t hi);
static int readable(uint64_t a);
static int writable(uint64_t a);
static uint8_t *map;            /* start of the mapping (lower guard) */
static uint32_t map_len;
static uint8_t *arena;          /* arena start */
static uint32_t arena_len, arena_off;
static uint8_t *pristine;       /* arena_len bytes */
static uint8_t *page_prot;      /* per page of the mapping */

static int readable(uint64_t a)
{
    uint64_t off = a - (uint64_t)(uintptr_t)map;
    return off < map_len && (page_prot[off / PAGE] & PROT_READ);
}

static int writable(uint64_t a)
{
    uint64_t off = a - (uint64_t)(uintptr_t)map;
    return off < map_len && (page_prot[off / PAGE] & PROT_WRITE);
}

/* Copies the readable bytes of [lo, hi) to out; returns their number. */
static size_t gather(uint64_t lo, uint64_t hi, uint8_t *out)
{
    size_t n = 0;
    uint64_t a = lo;

    while (a < hi) {
        uint64_t next = (a & ~(uint64_t)(PAGE - 1)) + PAGE;
        if (next > hi) {
            next = hi;
        }
        if (readable(a)) {
            memcpy(out + n, (void *)(uintptr_t)a, next - a);
            n += next - a;
        }
        a = next;
    }
    return n;
}

/* Restores the writable bytes of [lo, hi) (inside the arena) from pristine. */
static void restore(uint64_t lo, uint64_t hi)
{
    uint64_t abase = (uint64_t)(uintptr_t)arena;
    uint64_t a = lo;

    if (lo < abase) {
        a = abase;
    }
    if (hi > abase + arena_len) {
        hi = abase + arena_len;
    }
    while (a < hi) {
        uint64_t next = (a & ~(uint64_t)(PAGE - 1)) + PAGE;
        if (next > hi) {
            next = hi;
        }
        if (writable(a)) {
            memcpy((void *)(uintptr_t)a, pristine + (a - abase), next - a);
        }
        a = next;
    }
}

/* 1 if every readable arena byte equals the pristine image. */
static int arena_pristine(void)
{
    for (uint32_t off = 0; off < arena_len; off += PAGE) {
        uint64_t a = (uint64_t)(uintptr_t)arena + off;
        uint32_t n = arena_len - off < PAGE ? arena_len - off : PAGE;
        if (readable(a) && memcmp((void *)(uintptr_t)a, pristine + off, n) != 0) {
            return 0;
        }
    }
    return 1;
}

/*
 * The access a program makes before the tested one: a tl.load (for a store,
 * a tl.store) of tl0 to the 1 KiB around t0 when it lies in the arena, with
 * the transfer CSRs.  QEMU then finds the tested access's span in the
 * mapping it last found accessible, and runs its inline path (tl.load,
 * tl.store) or its fused one (tl.load, tl.load, tl.xpose, and the two
 * tl.store after them, whose t3 is warmed up as a store's t0) when the
 * instruction allows them, rather than the helper's first look-up.  tl0
 * stays zero, and the bytes a store of it wrote are restored.
 */
static void warm_up(uint64_t t0, uint32_t word)
{
    const uint64_t abase = (uint64_t)(uintptr_t)arena;
    const uint64_t kib = t0 & ~(uint64_t)1023;
    const int is_store = (word & MASK_TL_STORE) == MATCH_TL_STORE ||
                         (word & MASK_TL_MSTORE) == MATCH_TL_MSTORE;

    if (kib < abase || kib + 1024 > abase + arena_len) {
        return;
    }
    if (is_store && writable(kib)) {
        tl_store(0, 0, (void *)(uintptr_t)kib);
        restore(kib, kib + 1024);
    } else if (!is_store && readable(kib)) {
        tl_load(0, 0, (const void *)(uintptr_t)kib);
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "tl_diff_guest: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static void read_exact(FILE *f, void *p, size_t n, const char *what)
{
    if (fread(p, 1, n, f) != n) {
        fprintf(stderr, "tl_diff_guest: case file truncated (reading %s)\n", what);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    struct hdr h;
    FILE *in, *out;

    if (argc != 3) {
        fprintf(stderr, "usage: %s CASES RESULTS\n", argv[0]);
        return 2;
    }
    in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    read_exact(in, &h, sizeof(h), "header");
    if (memcmp(h.magic, MAGIC, 8) != 0 || h.version != FORMAT_VERSION) {
        fprintf(stderr, "tl_diff_guest: %s is not a version-%d case file\n", argv[1],
                FORMAT_VERSION);
        return 2;
    }
    map_len = h.map_len;
    arena_off = h.arena_off;
    arena_len = h.arena_len;
    if (map_len % PAGE || arena_off % PAGE || arena_off + arena_len > map_len) {
        fprintf(stderr, "tl_diff_guest: bad arena layout\n");
        return 2;
    }

    /* fixed mapping, then contents, then protections */
    map = mmap((void *)(uintptr_t)h.map_base, map_len, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (map == MAP_FAILED || (uint64_t)(uintptr_t)map != h.map_base) {
        fprintf(stderr, "tl_diff_guest: cannot map the arena at fixed address 0x%llx "
                "(%u bytes): %s\n", (unsigned long long)h.map_base, map_len,
                map == MAP_FAILED ? strerror(errno) : "kernel chose another address");
        return 2;
    }
    arena = map + arena_off;
    page_prot = xmalloc(map_len / PAGE);
    memset(page_prot, PROT_READ | PROT_WRITE, map_len / PAGE);
    struct prot_ent *pe = xmalloc(sizeof(*pe) * (h.nprot ? h.nprot : 1));
    read_exact(in, pe, sizeof(*pe) * h.nprot, "protections");
    pristine = xmalloc(arena_len);
    read_exact(in, pristine, arena_len, "arena image");
    memcpy(arena, pristine, arena_len);
    for (uint32_t i = 0; i < h.nprot; i++) {
        if (pe[i].off % PAGE || pe[i].len % PAGE || pe[i].off + pe[i].len > map_len) {
            fprintf(stderr, "tl_diff_guest: bad protection entry %u\n", i);
            return 2;
        }
        if (mprotect(map + pe[i].off, pe[i].len, (int)pe[i].prot) != 0) {
            perror("mprotect");
            return 2;
        }
        memset(page_prot + pe[i].off / PAGE, (int)pe[i].prot, pe[i].len / PAGE);
    }

    uint8_t *pool = xmalloc((size_t)h.npool * 1024);
    read_exact(in, pool, (size_t)h.npool * 1024, "data pool");
    struct tcase *cases = xmalloc(sizeof(struct tcase) * (size_t)h.ncases);
    read_exact(in, cases, sizeof(struct tcase) * (size_t)h.ncases, "cases");
    fclose(in);

    out = fopen(argv[2], "wb");
    if (!out) {
        perror(argv[2]);
        return 2;
    }
    static char obuf[1 << 16];
    setvbuf(out, obuf, _IOFBF, sizeof(obuf));

    tramp = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tramp == MAP_FAILED) {
        perror("mmap trampoline");
        return 2;
    }
    tramp[PAGE / 4 - 1] = 0x00008067; /* ret */
    install_handlers();

    static uint8_t zero[1024] __attribute__((aligned(64)));
    static uint8_t regbuf[NUM_TL_REGS][1024] __attribute__((aligned(64)));
    static uint8_t bg[NUM_TL_REGS][1024] __attribute__((aligned(64)));
    uint64_t bg_hash[NUM_TL_REGS];
    for (unsigned k = 0; k < NUM_TL_REGS; k++) {
        background(k, bg[k]);
        bg_hash[k] = hash_bytes(bg[k], 1024);
    }
    uint8_t *spanbuf = xmalloc(2 * (size_t)map_len);
    int dump = h.flags & HF_DUMP;

    for (uint32_t ci = 0; ci < h.ncases; ci++) {
        const struct tcase *c = &cases[ci];
        struct tresult r;
        unsigned nregs = c->nregs > MAX_REGS ? MAX_REGS : c->nregs;
        uint64_t t0 = c->t0, t2 = c->t2, t3 = c->t3, t4 = c->t4;
        const uint32_t words[MAX_WORDS] = {c->word, c->more[0], c->more[1], c->more2[0],
                                           c->more2[1]};
        const unsigned nwords = c->more2[0] ? 5 : c->more[0] ? 3 : 1;

        memset(&r, 0, sizeof(r));
        cur_case = ci;
        phase = PH_SETUP;
        set_tramp(words, nwords, CF_NOPS(c->flags));
        set_xfer_csrs();
        const uint8_t *src[NUM_TL_REGS];
        for (unsigned k = 0; k < NUM_TL_REGS; k++) {
            src[k] = bg[k];
        }
        for (unsigned k = 0; k < nregs; k++) {
            uint16_t p = c->pool[k];
            if (p != 0xffff && p >= h.npool) {
                fprintf(stderr, "tl_diff_guest: case %u: pool index %u out of range\n", ci, p);
                return 2;
            }
            src[c->regs[k] & 31] = p == 0xffff ? zero : pool + (size_t)p * 1024;
        }
        for (unsigned k = 0; k < NUM_TL_REGS; k++) {
            reg_load(k, src[k]);
        }
        if (c->flags & CF_T0_REL) {
            t0 += (uint64_t)(uintptr_t)arena;
        }
        if (c->flags & CF_T2_REL) {
            t2 += (uint64_t)(uintptr_t)arena;
        }
        if (c->flags & CF_T3_REL) {
            t3 += (uint64_t)(uintptr_t)arena;
        }
        if (c->flags & CF_T4_REL) {
            t4 += (uint64_t)(uintptr_t)arena;
        }
        if (c->flags & CF_WARM) {
            warm_up(t0, words[0]);
            if (nwords == 5) {
                warm_up(t3, words[3]);
            }
        }
        write_case_csrs(c->csr);
        if (c->flags & CF_TINIT) {
            tl_csr_write(TL_CSR_TINIT, CF_TINIT_VAL(c->flags));
        }
        unsigned frm = CF_FRM(c->flags);
        int gpr_ok;
        __asm__ volatile("csrw frm, %0\n\tcsrw fflags, zero" : : "r"((unsigned long)frm));
        r.sig = exec_tramp(t0, c->t1, t2, t3, t4, &gpr_ok);
        unsigned long fflags, frm_after;
        __asm__ volatile("csrr %0, fflags\n\tcsrr %1, frm" : "=r"(fflags), "=r"(frm_after));
        r.fflags = (uint32_t)fflags;
        if (frm_after != frm) {
            r.flags |= RF_FRM;
        }
        if (!gpr_ok) {
            r.flags |= RF_GPR;
        }
        if (r.sig) {
            int32_t code = trap_code;
            uint64_t at = (trap_pc - (uint64_t)(uintptr_t)tested_insn) / 4;
            r.fault_addr = trap_addr;
            if (trap_pc < (uint64_t)(uintptr_t)tested_insn || trap_pc % 4 != 0 || at >= nwords ||
                (r.sig == SIGILL && trap_addr != trap_pc)) {
                r.flags |= RF_BAD_PC;
                at = 0;
            }
            r.flags |= (uint32_t)at << RF_INSN_SHIFT;
            if (r.sig == SIGSEGV || r.sig == SIGBUS) {
                uint32_t w = words[at];
                int is_store = (w & MASK_TL_STORE) == MATCH_TL_STORE ||
                               (w & MASK_TL_MSTORE) == MATCH_TL_MSTORE;
                r.si_code = code;
                probe(r.fault_addr, is_store, &r.probe_sig, &r.probe_code);
            }
        }
        read_case_csrs(r.csr);
        set_xfer_csrs();
        for (unsigned k = 0; k < NUM_TL_REGS; k++) {
            reg_store(k, regbuf[k]);
            r.reg_hash[k] = memcmp(regbuf[k], bg[k], 1024) == 0 ? bg_hash[k]
                                                                 : hash_bytes(regbuf[k], 1024);
        }
        size_t spann = 0;
        if (c->span_hi > c->span_lo) {
            spann = gather(c->span_lo, c->span_hi, spanbuf);
        }
        if (c->span2_hi > c->span2_lo) {
            spann += gather(c->span2_lo, c->span2_hi, spanbuf + spann);
        }
        if (c->span_hi > c->span_lo || c->span2_hi > c->span2_lo) {
            r.mem_hash = hash_bytes(spanbuf, spann);
        }
        if (c->span_hi > c->span_lo) {
            restore(c->span_lo, c->span_hi);
        }
        if (c->span2_hi > c->span2_lo) {
            restore(c->span2_lo, c->span2_hi);
        }
        if ((c->flags & CF_MEMCHK) && !arena_pristine()) {
            r.flags |= RF_STRAY;
            restore((uint64_t)(uintptr_t)arena, (uint64_t)(uintptr_t)arena + arena_len);
        }
        phase = PH_SETUP;
        fwrite(&r, sizeof(r), 1, out);
        if (dump) {
            uint32_t n32 = (uint32_t)spann;
            for (unsigned k = 0; k < NUM_TL_REGS; k++) {
                fwrite(regbuf[k], 1024, 1, out);
            }
            fwrite(&n32, 4, 1, out);
            fwrite(spanbuf, 1, spann, out);
        }
    }
    if (fclose(out) != 0) {
        perror(argv[2]);
        return 2;
    }
    return 0;
}
