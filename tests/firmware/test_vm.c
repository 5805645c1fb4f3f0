/*
 * Sv39 page faults of TL memory instructions (docs/isa.md 5.2, 6.2), run in
 * S-mode with -cpu rv64,xtl=on.
 *
 * A 6-page window at VA VW = 0x40000000 maps page k to the physical page
 * vmpage[k] (RW, A/D set, no U), except:
 *   page 2  unmapped at first (the handler maps it in the "fixup" runs),
 *   page 4  read-only,
 *   page 5  never mapped.
 * Everything else is identity-mapped with gigapages, so the runtime, the
 * page tables and the S trap stack stay reachable.
 *
 * Each fault case runs twice:
 *   "skip":  the handler records the trap and skips the instruction.  Then
 *            cause = 13 (load) / 15 (store), xtval = the first faulting byte
 *            in slice order, and nothing changed: the TLReg keeps its 0xEE
 *            fill, no byte of memory was stored;
 *   "fixup": the handler maps page 2 and returns to the same pc (mret, or
 *            sret when the fault is delegated with medeleg): exactly one
 *            fault, then the instruction completes with the right data.
 * Both trap routes are tested: taken in M (mtval), delegated to S (stval).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

#define VW 0x40000000UL
#define NPAGES 6
static uint8_t vmpage[NPAGES][4096] __attribute__((aligned(4096)));
static uint8_t snap[NPAGES][4096];
static uint8_t regpat[1024], want[1024];

#define RW (PTE_R | PTE_W | PTE_A | PTE_D)

static uint8_t pat(uint64_t off) { return (uint8_t)(off * 5 + (off >> 9) + 0x17); }
static uint64_t pa_of(int k) { return (uint64_t)(uintptr_t)vmpage[k]; }

static void vm_reset(void)
{
    vm_init();
    for (int k = 0; k < NPAGES; k++) {
        for (int b = 0; b < 4096; b++) {
            vmpage[k][b] = pat((uint64_t)k * 4096 + b);
        }
    }
    vm_map(VW + 0x0000, pa_of(0), RW);
    vm_map(VW + 0x1000, pa_of(1), RW);
    vm_map(VW + 0x3000, pa_of(3), RW);
    vm_map(VW + 0x4000, pa_of(4), PTE_R | PTE_A);
    memcpy(snap, vmpage, sizeof(snap));
}

/* byte at window offset off, as S-mode sees it after the fixup */
static uint8_t vbyte(uint64_t off) { return vmpage[off / 4096][off % 4096]; }

static int fix_enabled, fixes;

static int map_page2(struct frame *f)
{
    if (fix_enabled && (f->cause == CAUSE_LOAD_PAGE || f->cause == CAUSE_STORE_PAGE) &&
        (f->tval & ~0xFFFUL) == VW + 0x2000) {
        vm_map(VW + 0x2000, pa_of(2), RW);      /* sfence.vma inside */
        fixes++;
        return 1;                               /* return to the same pc */
    }
    return 0;
}

/* ---- one instruction in S-mode ---- */
static uint32_t s_word;
static uint64_t s_t0;

static long s_exec(long unused)
{
    (void)unused;
    exec_word(s_word, s_t0, 0);
    return 0;
}

static long run_s(uint32_t w, uint64_t t0)
{
    long r;

    s_word = w;
    s_t0 = t0;
    csr_write(CSR_SATP, vm_satp());
    sfence_vma();
    r = run_in(MODE_S, s_exec, 0);
    csr_write(CSR_SATP, 0);
    sfence_vma();
    return r;
}

struct vcase {
    const char *what;
    int store, masked;
    uint32_t mask;
    int d0;
    uint32_t w;             /* width W = S (int8 shape [d0, 1, w], or [d0, w/128, 128]) */
    int32_t p;
    int imm;
    uint64_t base;          /* window offset of x[rs1] */
    uint64_t fault;         /* window offset of the first faulting byte */
    int cause;
};

static uint64_t slice_off(const struct vcase *c, int i, uint32_t b)
{
    return c->base + (int64_t)c->imm * c->w + (int64_t)i * c->p + b;
}

static void setup_case(const struct vcase *c)
{
    if (c->w > 255) {           /* D2 is 8 bits: [d0, w/128, 128] has the same S = w */
        tl_setup(TL_TYPE_INT8, c->d0, c->w / 128, 128, c->w, c->p);
    } else {
        tl_setup(TL_TYPE_INT8, c->d0, 1, c->w, c->w, c->p);
    }
    if (c->masked) {
        tl_csr_write(TL_CSR_TMASK_LS, c->mask);
    }
}

static uint32_t case_word(const struct vcase *c)
{
    return TL_ENC_MEM(c->store ? TL_ENG_STORE : TL_ENG_LOAD, c->store, c->masked, 1, c->imm, GPR_T0);
}

static void run_case(const struct vcase *c, int deleg)
{
    const char *route = deleg ? "delegated to S (scause/stval, sret)" : "taken in M (mcause/mtval, mret)";
    struct trap_log *log = deleg ? &straps : &mtraps;
    int cause = c->cause;
    int ok;
    long r;

    csr_write(CSR_MEDELEG, deleg ? (1UL << CAUSE_LOAD_PAGE) | (1UL << CAUSE_STORE_PAGE) : 0);
    m_fixup = deleg ? NULL : map_page2;
    s_fixup = deleg ? map_page2 : NULL;

    /* ---- skip run ---- */
    vm_reset();
    fix_enabled = 0;
    fixes = 0;
    for (int n = 0; n < 1024; n++) regpat[n] = (uint8_t)(n * 3 + 0x40);
    if (c->store) tl_fill(1, regpat); else tl_fill_byte(1, 0xEE);
    setup_case(c);
    traps_reset();
    r = run_s(case_word(c), VW + c->base);
    ok = r == 0 && mtraps.count + straps.count == 1 && log->count == 1 &&
         log->cause == (uint64_t)cause && log->tval == VW + c->fault;
    if (!ok) {
        diag("got: run %ld, M traps %lu (cause %lu tval %#lx), S traps %lu (cause %lu tval %#lx)", r,
             (unsigned long)mtraps.count, (unsigned long)mtraps.cause, (unsigned long)mtraps.tval,
             (unsigned long)straps.count, (unsigned long)straps.cause, (unsigned long)straps.tval);
    }
    check(ok, "Sv39 %s, fault %s: one trap, cause %d, xtval = VW+%#lx (first faulting byte)",
          c->what, route, cause, (unsigned long)c->fault);
    if (c->store) {
        check(mem_equal("memory after faulting store", &snap[0][0], &vmpage[0][0], sizeof(snap)),
              "Sv39 %s, fault %s: no byte stored (all-or-nothing)", c->what, route);
    } else {
        memset(want, 0xEE, 1024);
        check(reg_is(1, want, "TLReg after faulting load"),
              "Sv39 %s, fault %s: tl1 unchanged (all-or-nothing)", c->what, route);
    }

    if (c->fault >= 0x2000 && c->fault < 0x3000) {
        /* ---- fixup run: map page 2 in the handler and retry ---- */
        vm_reset();
        fix_enabled = 1;
        fixes = 0;
        if (c->store) tl_fill(1, regpat); else tl_fill_byte(1, 0xEE);
        setup_case(c);
        traps_reset();
        r = run_s(case_word(c), VW + c->base);
        ok = r == 0 && fixes == 1 && mtraps.count + straps.count == 1 && log->count == 1 &&
             log->cause == (uint64_t)cause && log->tval == VW + c->fault;
        if (!ok) {
            diag("got: run %ld, fixes %d, M traps %lu (cause %lu tval %#lx), S traps %lu", r, fixes,
                 (unsigned long)mtraps.count, (unsigned long)mtraps.cause,
                 (unsigned long)mtraps.tval, (unsigned long)straps.count);
        }
        if (c->store) {
            static uint8_t expect[NPAGES][4096];
            memcpy(expect, snap, sizeof(expect));
            for (int i = 0; i < c->d0; i++) {
                if (c->masked && !((c->mask >> i) & 1)) continue;
                for (uint32_t b = 0; b < c->w; b++) {
                    uint64_t o = slice_off(c, i, b);
                    expect[o / 4096][o % 4096] = regpat[i * c->w + b];
                }
            }
            ok = mem_equal("memory after retried store", &vmpage[0][0], &expect[0][0], sizeof(expect)) && ok;
        } else {
            memset(want, 0, 1024);
            for (int i = 0; i < c->d0; i++) {
                if (c->masked && !((c->mask >> i) & 1)) continue;
                for (uint32_t b = 0; b < c->w; b++) {
                    want[i * c->w + b] = vbyte(slice_off(c, i, b));
                }
            }
            ok = reg_is(1, want, "TLReg after retried load") && ok;
        }
        check(ok, "Sv39 %s, fault %s: handler maps page 2 and returns to the same pc; exactly one "
              "fault, then the instruction completes with the right %s", c->what, route,
              c->store ? "memory" : "register");
    }
    fix_enabled = 0;
    m_fixup = NULL;
    s_fixup = NULL;
    csr_write(CSR_MEDELEG, 0);
}

int main(void)
{
    static const struct vcase faults[] = {
        { "tl.load int8 [4,2,128] W=256 P=512 at VW+0x1d80: slice 1 straddles pages 1/2",
          0, 0, 0, 4, 256, 512, 0, 0x1D80, 0x2000, CAUSE_LOAD_PAGE },
        { "tl.mload int8 [4,1,64] mask=0b0110 P=0x100 imm=-2 at VW+0x1f60: slice 1 "
          "[VW+0x1fe0, +64) straddles into page 2",
          0, 1, 0x6, 4, 64, 0x100, -2, 0x1F60, 0x2000, CAUSE_LOAD_PAGE },
        { "tl.store int8 [4,1,64] P=-0x100 at VW+0x3010: slice 1 at VW+0x2f10 is in page 2",
          1, 0, 0, 4, 64, -0x100, 0, 0x3010, 0x2F10, CAUSE_STORE_PAGE },
        { "tl.mstore int8 [3,1,200] mask=0b110 P=0x100 at VW+0x1e80: slice 1 [VW+0x1f80, +200) straddles",
          1, 1, 0x6, 3, 200, 0x100, 0, 0x1E80, 0x2000, CAUSE_STORE_PAGE },
        { "tl.store int8 [4,1,128] P=128 at VW+0x3f00: slice 2 enters read-only page 4",
          1, 0, 0, 4, 128, 128, 0, 0x3F00, 0x4000, CAUSE_STORE_PAGE },
        { "tl.mload int8 [2,1,64] mask=0b11 P=-0x3000 at VW+0x5010: slice 0 faults in page 5 (higher "
          "address), slice 1 in page 2: scan order wins",
          0, 1, 0x3, 2, 64, -0x3000, 0, 0x5010, 0x5010, CAUSE_LOAD_PAGE },
        { "tl.store int8 [2,1,64] P=-0x3000 at VW+0x4fd0: slice 0 straddles read-only page 4 / unmapped "
          "page 5: first faulting byte is VW+0x4fd0 (no write permission)",
          1, 0, 0, 2, 64, -0x3000, 0, 0x4FD0, 0x4FD0, CAUSE_STORE_PAGE },
    };

    diag("test_vm: Sv39 page faults of TL loads/stores in S-mode, all-or-nothing, fixup and retry");
    for (unsigned i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
        run_case(&faults[i], 0);
        run_case(&faults[i], 1);
    }

    /* no fault: the selected slices avoid page 2; read-only page 4 is loadable */
    {
        static const struct vcase ok_cases[] = {
            { "tl.mload int8 [4,2,128] W=256 P=512 at VW+0x1d80 mask=0b0001 (slice 1 unselected)",
              0, 1, 0x1, 4, 256, 512, 0, 0x1D80, 0, 0 },
            { "tl.load int8 [4,1,128] P=128 at VW+0x3f00 (read-only page 4 is readable)",
              0, 0, 0, 4, 128, 128, 0, 0x3F00, 0, 0 },
            { "tl.mstore int8 [4,2,128] W=256 P=512 at VW+0x1d80 mask=0b0001 (slice 1 unselected)",
              1, 1, 0x1, 4, 256, 512, 0, 0x1D80, 0, 0 },
        };
        for (unsigned i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
            const struct vcase *c = &ok_cases[i];
            static uint8_t expect[NPAGES][4096];
            int ok;
            vm_reset();
            for (int n = 0; n < 1024; n++) regpat[n] = (uint8_t)(n * 3 + 0x40);
            if (c->store) tl_fill(1, regpat); else tl_fill_byte(1, 0xEE);
            setup_case(c);
            traps_reset();
            ok = run_s(case_word(c), VW + c->base) == 0 && mtraps.count + straps.count == 0;
            if (c->store) {
                memcpy(expect, snap, sizeof(expect));
                for (int s = 0; s < c->d0; s++) {
                    if (c->masked && !((c->mask >> s) & 1)) continue;
                    for (uint32_t b = 0; b < c->w; b++) {
                        uint64_t o = slice_off(c, s, b);
                        expect[o / 4096][o % 4096] = regpat[s * c->w + b];
                    }
                }
                ok = mem_equal("store", &vmpage[0][0], &expect[0][0], sizeof(expect)) && ok;
            } else {
                memset(want, 0, 1024);
                for (int s = 0; s < c->d0; s++) {
                    if (c->masked && !((c->mask >> s) & 1)) continue;
                    for (uint32_t b = 0; b < c->w; b++) {
                        want[s * c->w + b] = vbyte(slice_off(c, s, b));
                    }
                }
                ok = reg_is(1, want, "load") && ok;
            }
            check(ok, "Sv39 %s: no fault, correct %s", c->what, c->store ? "memory" : "register");
        }
    }
    return 0;
}
