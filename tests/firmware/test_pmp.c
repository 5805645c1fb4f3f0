/*
 * PMP and PMA access faults of TL memory instructions (docs/isa.md 5.2, 6.2),
 * with -cpu rv64,xtl=on -m 128M, satp = Bare.
 *
 * PMP (S- and U-mode, and M-mode with MPRV):
 *   entries 0/1: TOR [A, B) with no permission, A = pbuf+0x1124 and
 *                B = pbuf+0x11a8: 132 bytes in the middle of a page, not
 *                page-aligned (only 4-byte aligned);
 *   entry 2:     NAPOT [C, C+256) read-only, C = pbuf+0x2300;
 *   entry 7:     everything else RWX.
 * Expected: load access fault (5) / store access fault (7), mtval = first
 * faulting byte in slice order, TLReg / memory unchanged.
 *
 * PMA: RAM ends at 0x88000000 (-m 128M); a slice that runs past the end of
 * RAM takes an access fault at 0x88000000 in any mode, M included, and the
 * bytes below the end are not stored.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

static uint8_t pbuf[4][4096] __attribute__((aligned(4096)));
static uint8_t snap[4][4096];
static uint8_t regpat[1024], want[1024];

#define PB ((uint64_t)(uintptr_t)pbuf)
#define A_LO (PB + 0x1124)
#define B_HI (PB + 0x11A8)
#define C_RO (PB + 0x2300)
#define RAM_END (RAM_BASE + RAM_SIZE)

static void pmp_setup(void)
{
    csr_write(CSR_PMPCFG0, 0);
    pmp_set(0, A_LO >> 2, 0);                   /* TOR base, entry off */
    pmp_set(1, B_HI >> 2, PMP_TOR);             /* [A, B): no permission */
    pmp_set(2, pmp_napot(C_RO, 256), PMP_NAPOT | PMP_R);
    pmp_set(7, ~0UL >> 10, PMP_NAPOT | PMP_R | PMP_W | PMP_X);
}

struct pcase {
    const char *what;
    int store, masked;
    uint32_t mask;
    int d0;
    uint32_t w;
    int32_t p;
    uint64_t base;
    uint64_t fault;         /* 0: must not fault */
    int cause;
};

/*
 * M-mode code must touch pbuf byte by byte: a wider scalar access that
 * straddles A or B partially matches a PMP entry and fails even in M-mode.
 */
static void vcopy(void *d, const void *s, size_t n)
{
    volatile uint8_t *vd = d;
    const volatile uint8_t *vs = s;

    for (size_t i = 0; i < n; i++) vd[i] = vs[i];
}

static int vequal(const char *what, const void *got, const void *want, size_t n)
{
    const volatile uint8_t *g = got, *w = want;

    for (size_t i = 0; i < n; i++) {
        if (g[i] != w[i]) {
            diag("%s: first difference at offset %#lx: got 0x%02x, want 0x%02x", what,
                 (unsigned long)i, g[i], w[i]);
            return 0;
        }
    }
    return 1;
}

static uint32_t word_of(const struct pcase *c)
{
    return TL_ENC_MEM(c->store ? TL_ENG_STORE : TL_ENG_LOAD, c->store, c->masked, 1, 0, GPR_T0);
}

static void setup_regs(const struct pcase *c)
{
    volatile uint8_t *vp = &pbuf[0][0];
    for (int k = 0; k < 4 * 4096; k++)
        vp[k] = (uint8_t)(k * 3 + (k >> 8)) ^ 0x5C;
    vcopy(snap, pbuf, sizeof(snap));
    for (int n = 0; n < 1024; n++) regpat[n] = (uint8_t)(n * 7 + 1);
    if (c->store) tl_fill(1, regpat); else tl_fill_byte(1, 0xEE);
    tl_setup(TL_TYPE_INT8, c->d0, 1, c->w, c->w, c->p);
    if (c->masked) tl_csr_write(TL_CSR_TMASK_LS, c->mask);
}

static const struct pcase *cur;

static long lower_exec(long unused)
{
    (void)unused;
    exec_word(word_of(cur), cur->base, 0);
    return 0;
}

#define RUN_M    1UL     /* plain M-mode */
#define RUN_MPRV 2UL     /* M-mode with mstatus.MPRV = 1, MPP = U */

/* Runs case c in mode (MODE_S / MODE_U), or RUN_M, RUN_MPRV. */
static void run_pcase(const struct pcase *c, unsigned long mode, const char *mname)
{
    long r = 0;
    int ok;

    setup_regs(c);
    traps_reset();
    cur = c;
    if (mode == RUN_M) {
        exec_word(word_of(c), c->base, 0);
    } else if (mode != RUN_MPRV) {
        r = run_in(mode, lower_exec, 0);
    } else {
        csr_clear(CSR_MSTATUS, 3UL << MSTATUS_MPP_SHIFT);      /* MPP = U */
        csr_set(CSR_MSTATUS, MSTATUS_MPRV);
        exec_word(word_of(c), c->base, 0);
        csr_clear(CSR_MSTATUS, MSTATUS_MPRV);
    }
    if (c->fault) {
        ok = r == 0 && mtraps.count == 1 && mtraps.cause == (uint64_t)c->cause &&
             mtraps.tval == c->fault;
        if (!ok) {
            diag("got: run %ld, %lu trap(s), mcause %lu, mtval %#lx (want %#lx)", r,
                 (unsigned long)mtraps.count, (unsigned long)mtraps.cause,
                 (unsigned long)mtraps.tval, (unsigned long)c->fault);
        }
        check(ok, "PMP %s: %s: access fault, mcause %d, mtval = first faulting byte", mname,
              c->what, c->cause);
        if (c->store) {
            ok = vequal("memory", &pbuf[0][0], &snap[0][0], sizeof(snap));
        } else {
            memset(want, 0xEE, 1024);
            ok = reg_is(1, want, "TLReg");
        }
        check(ok, "PMP %s: %s: %s unchanged (all-or-nothing)", mname, c->what,
              c->store ? "memory" : "tl1");
        return;
    }
    ok = r == 0 && mtraps.count == 0;
    if (!ok) {
        diag("got: run %ld, %lu trap(s), mcause %lu mtval %#lx", r, (unsigned long)mtraps.count,
             (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    }
    if (c->store) {
        static uint8_t expect[4][4096];
        memcpy(expect, snap, sizeof(expect));
        for (int i = 0; i < c->d0; i++) {
            if (c->masked && !((c->mask >> i) & 1)) continue;
            for (uint32_t b = 0; b < c->w; b++) {
                uint64_t o = c->base + (int64_t)i * c->p + b - PB;
                expect[o / 4096][o % 4096] = regpat[i * c->w + b];
            }
        }
        ok = vequal("memory", &pbuf[0][0], &expect[0][0], sizeof(expect)) && ok;
    } else {
        memset(want, 0, 1024);
        for (int i = 0; i < c->d0; i++) {
            if (c->masked && !((c->mask >> i) & 1)) continue;
            for (uint32_t b = 0; b < c->w; b++) {
                uint64_t o = c->base + (int64_t)i * c->p + b - PB;
                want[i * c->w + b] = snap[o / 4096][o % 4096];
            }
        }
        ok = reg_is(1, want, "TLReg") && ok;
    }
    check(ok, "PMP %s: %s: no fault, correct %s", mname, c->what, c->store ? "memory" : "register");
}

static const struct pcase pcases[] = {
    { "tl.load int8 [3,1,64] P=0x100 at A-0x128: slice 1 [A-40, A+24) enters the no-access TOR "
      "range [A, B) (not page-aligned)", 0, 0, 0, 3, 64, 0x100, A_LO - 0x128, A_LO, CAUSE_LOAD_ACCESS },
    { "tl.load int8 [2,1,64] P=-64 at B+8: slice 1 [B-56, B+8) faults first at B-56 (lowest "
      "address of the slice, inside [A, B))", 0, 0, 0, 2, 64, -64, B_HI + 8, B_HI - 56, CAUSE_LOAD_ACCESS },
    { "tl.mload int8 [3,1,64] P=0x100 at A-0x128 mask=0b101: slice 1 (the one in [A, B)) unselected",
      0, 1, 0x5, 3, 64, 0x100, A_LO - 0x128, 0, 0 },
    { "tl.store int8 [3,1,64] P=0x100 at A-0x128: slice 1 enters [A, B)",
      1, 0, 0, 3, 64, 0x100, A_LO - 0x128, A_LO, CAUSE_STORE_ACCESS },
    { "tl.mstore int8 [4,1,100] P=100 at A-400 mask=0b1110: slice 3 [A-100, A) ends right below "
      "[A, B)", 1, 1, 0xE, 4, 100, 100, A_LO - 400, 0, 0 },
    { "tl.mstore int8 [4,1,100] P=100 at A-396 mask=0b1110: slice 3 [A-96, A+4) ends 4 bytes inside [A, B)",
      1, 1, 0xE, 4, 100, 100, A_LO - 396, A_LO, CAUSE_STORE_ACCESS },
    { "tl.load int8 [2,1,128] P=128 at C: read-only NAPOT [C, C+256) is readable",
      0, 0, 0, 2, 128, 128, C_RO, 0, 0 },
    { "tl.load int8 [2,1,64] P=0x80 at C-32: slice 0 [C-32, C+32) straddles the boundary of the "
      "read-only range; every byte is readable", 0, 0, 0, 2, 64, 0x80, C_RO - 32, 0, 0 },
    { "tl.store int8 [2,1,64] P=64 at C-64: slice 1 [C, C+64) is read-only",
      1, 0, 0, 2, 64, 64, C_RO - 64, C_RO, CAUSE_STORE_ACCESS },
    { "tl.store int8 [2,1,64] P=64 at C+0xd0: slice 0 [C+0xd0, C+0x110) ends past the read-only "
      "range, but its first byte faults", 1, 0, 0, 2, 64, 64, C_RO + 0xD0, C_RO + 0xD0, CAUSE_STORE_ACCESS },
};

/*
 * A whole register (the setting tl_fill leaves, one contiguous KiB) from
 * PB+0xE00: [PB+0xE00, PB+0x1200) runs from page 0, which no entry splits,
 * into the no-access range [A, B) of page 1.  Run twice: the second run
 * finds the plan current and page 0 in the TLB (the translated fast path),
 * and must still see page 1.
 */
static long twice_exec(long word)
{
    exec_word((uint32_t)word, PB + 0xE00, 0);
    exec_word((uint32_t)word, PB + 0xE00, 0);
    return 0;
}

static void test_whole_register_into_range(unsigned long mode, const char *mname)
{
    for (int store = 0; store < 2; store++) {
        volatile uint8_t *vp = &pbuf[0][0];
        for (int k = 0; k < 4 * 4096; k++)
            vp[k] = (uint8_t)(k * 5 + 3);
        vcopy(snap, pbuf, sizeof(snap));
        for (int n = 0; n < 1024; n++) regpat[n] = (uint8_t)(n * 11 + 2);
        if (store) tl_fill(1, regpat); else tl_fill_byte(1, 0xEE);
        traps_reset();
        const uint32_t w = store ? W_STORE(1, 0, GPR_T0) : W_LOAD(1, 0, GPR_T0);
        const int cause = store ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS;
        long r = run_in(mode, twice_exec, (long)w);
        int ok = r == 0 && mtraps.count == 2 && mtraps.cause == (uint64_t)cause &&
                 mtraps.tval == A_LO;
        if (!ok) {
            diag("got: run %ld, %lu trap(s), last mcause %lu, mtval %#lx (want 2, %d, %#lx)", r,
                 (unsigned long)mtraps.count, (unsigned long)mtraps.cause,
                 (unsigned long)mtraps.tval, cause, (unsigned long)A_LO);
        }
        check(ok, "PMP %s: tl.%s of a whole register at A-0x324 (page 0 into the no-access range "
              "of page 1), twice: an access fault at A both times", mname, store ? "store" : "load");
        if (store) {
            ok = vequal("memory", &pbuf[0][0], &snap[0][0], sizeof(snap));
        } else {
            memset(want, 0xEE, 1024);
            ok = reg_is(1, want, "TLReg");
        }
        check(ok, "PMP %s: tl.%s of a whole register into the no-access range: %s unchanged",
              mname, store ? "store" : "load", store ? "memory" : "tl1");
    }
}

/* PMA: past the end of RAM */
static void test_pma(void)
{
    static uint8_t *const endp = (uint8_t *)(uintptr_t)(RAM_END - 64);
    int ok;
    uint32_t w;

    for (int b = 0; b < 64; b++) endp[b] = (uint8_t)(0xC0 + b);

    tl_fill_byte(1, 0xEE);
    tl_setup(TL_TYPE_INT8, 2, 1, 64, 64, 64);
    traps_reset();
    w = W_LOAD(1, 0, GPR_T0);
    exec_word(w, RAM_END - 104, 0);       /* slice 0 [end-104, end-40), slice 1 [end-40, end+24) */
    ok = mtraps.count == 1 && mtraps.cause == CAUSE_LOAD_ACCESS && mtraps.tval == RAM_END;
    if (!ok) diag("got: %lu trap(s), mcause %lu, mtval %#lx", (unsigned long)mtraps.count,
                  (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    check(ok, "PMA M-mode: tl.load int8 [2,1,64] at end-104: slice 1 runs past the end of RAM "
          "(0x88000000): load access fault, mcause 5, mtval = 0x88000000");
    memset(want, 0xEE, 1024);
    check(reg_is(1, want, "TLReg"), "PMA M-mode: tl1 unchanged after the faulting load");

    for (int n = 0; n < 1024; n++) regpat[n] = (uint8_t)(n + 1);
    tl_fill(1, regpat);
    tl_setup(TL_TYPE_INT8, 2, 1, 64, 64, 64);
    traps_reset();
    w = W_STORE(1, 0, GPR_T0);
    exec_word(w, RAM_END - 104, 0);
    ok = mtraps.count == 1 && mtraps.cause == CAUSE_STORE_ACCESS && mtraps.tval == RAM_END;
    if (!ok) diag("got: %lu trap(s), mcause %lu, mtval %#lx", (unsigned long)mtraps.count,
                  (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    check(ok, "PMA M-mode: tl.store int8 [2,1,64] at end-104 (slice 1 past the end of RAM): store "
          "access fault, mcause 7, mtval = 0x88000000");
    ok = 1;
    for (int b = 0; b < 64; b++) {
        if (endp[b] != (uint8_t)(0xC0 + b)) {
            diag("byte end-%d is %#x, was %#x", 64 - b, endp[b], 0xC0 + b);
            ok = 0;
            break;
        }
    }
    check(ok, "PMA M-mode: no byte of slice 0 or of slice 1's RAM part (end-104..end-1) was "
          "stored (all-or-nothing)");

    tl_setup(TL_TYPE_INT8, 2, 1, 64, 64, 64);
    tl_csr_write(TL_CSR_TMASK_LS, 0x1);
    traps_reset();
    exec_word(W_MLOAD(1, 0, GPR_T0), RAM_END - 104, 0);
    check(mtraps.count == 0, "PMA M-mode: the same tl.mload with mask 0b01 (slice 1 unselected) "
          "does not fault");
}

int main(void)
{
    diag("test_pmp: PMP access faults (S, U, M with MPRV), PMA fault at the end of RAM");
    pmp_setup();
    for (unsigned i = 0; i < sizeof(pcases) / sizeof(pcases[0]); i++) {
        run_pcase(&pcases[i], MODE_S, "S-mode");
        run_pcase(&pcases[i], MODE_U, "U-mode");
    }
    test_whole_register_into_range(MODE_S, "S-mode");
    test_whole_register_into_range(MODE_U, "U-mode");
    run_pcase(&pcases[0], RUN_MPRV, "M-mode with mstatus.MPRV=1, MPP=U");
    run_pcase(&pcases[3], RUN_MPRV, "M-mode with mstatus.MPRV=1, MPP=U");

    /* M-mode without MPRV ignores the (unlocked) entries */
    static const struct pcase m[] = {
        { "tl.load int8 [3,1,64] P=0x100 at A-0x128 (slice 1 in the no-access range)",
          0, 0, 0, 3, 64, 0x100, A_LO - 0x128, 0, 0 },
        { "tl.store int8 [2,1,64] P=64 at C-64 (slice 1 in the read-only range)",
          1, 0, 0, 2, 64, 64, C_RO - 64, 0, 0 },
    };
    run_pcase(&m[0], RUN_M, "M-mode (entries not locked, so not enforced)");
    run_pcase(&m[1], RUN_M, "M-mode (entries not locked, so not enforced)");
    pmp_allow_all();
    test_pma();
    return 0;
}
