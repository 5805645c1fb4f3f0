/*
 * tl.load A; tl.load B; tl.xpose A, B as three words in a row, which
 * qemu-system-riscv64 runs in one pass (docs/performance.md), with
 * -cpu rv64,xtl=on,smstateen=true.  In M, S and U, whole-register and
 * strided loads, each run twice (translated, then the same block again):
 * the registers the ISA gives (docs/isa.md 5.2 and 5.5, written out in
 * tests/tl_ref.h).
 * And every trap at its own instruction, with the state the instructions
 * before it left: Smstateen's C bit clear (illegal at the first load,
 * nothing changed), an Sv39 page fault of the second load (the first
 * register loaded, the second unchanged), an illegal xpose (both loaded),
 * and a debug trigger on a byte of the second load's source.  The xpose's
 * word rewritten after the block ran takes effect.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"
#include "../tl_ref.h"

#define CSR_TSELECT 0x7A0
#define CSR_TDATA1  0x7A1
#define CSR_TDATA2  0x7A2
#define MCONTROL    (2UL << 60)     /* type 2, no access selected: disarmed */
#define MC_M        (1UL << 6)
#define MC_LOAD     (1UL << 0)
#define CAUSE_ILLEGAL    2
#define CAUSE_BREAKPOINT 3
#define GPR_T2 7
#define VW 0x40000000UL              /* Sv39 window: page 0 mapped, page 1 not */
#define SEQ_WORDS 4

static uint32_t seq[SEQ_WORDS] __attribute__((aligned(64)));
static uint8_t src[3][4096] __attribute__((aligned(4096)));
static uint8_t fill_a[1024], fill_b[1024], want[2][1024];
static uint64_t s_p1, s_p2, s_dims;
static volatile uint64_t seq_trap_epc;

/* A trap of one of the three words: recorded (mtraps), then on to the ret. */
static int seq_fixup(struct frame *f)
{
    if (f->epc >= (uintptr_t)&seq[0] && f->epc < (uintptr_t)&seq[SEQ_WORDS - 1]) {
        seq_trap_epc = f->epc;
        csr_write(CSR_TDATA1, MCONTROL);
        f->epc = (uintptr_t)&seq[SEQ_WORDS - 1];
        return 1;
    }
    return 0;
}

static void put_seq(unsigned a, unsigned b, uint32_t xpose_word)
{
    seq[0] = W_LOAD(a, 0, GPR_T0);
    seq[1] = W_LOAD(b, 0, GPR_T2);
    seq[2] = xpose_word;
    seq[3] = 0x00008067;            /* ret */
    __asm__ volatile("fence.i" : : : "memory");
}

static long run_seq(long unused)
{
    register uint64_t r_t0 __asm__("t0") = s_p1;
    register uint64_t r_t2 __asm__("t2") = s_p2;
    register uint64_t r_t1 __asm__("t1") = s_dims;

    (void)unused;
    __asm__ volatile("jalr ra, 0(%0)" : : "r"(seq), "r"(r_t0), "r"(r_t2), "r"(r_t1) : "ra", "memory");
    return 0;
}

static void fill_regs(unsigned a, unsigned b)
{
    tl_fill(a, fill_a);
    tl_fill(b, fill_b);
}

/* Runs the three words in mode (MODE_M: directly), after the plan's CSRs. */
static long run_mode(unsigned long mode, unsigned d0, unsigned s, unsigned w, long p, uint64_t p1,
                     uint64_t p2, uint32_t dims)
{
    tl_setup(TL_TYPE_INT8, d0, 1, s, w, (int32_t)p);
    s_p1 = p1;
    s_p2 = p2;
    s_dims = dims;
    seq_trap_epc = 0;
    traps_reset();
    return mode == MODE_M ? run_seq(0) : run_in(mode, run_seq, 0);
}

static int regs_are(unsigned a, unsigned b, const uint8_t *want_a, const uint8_t *want_b)
{
    return reg_is(a, want_a, "first register") && reg_is(b, want_b, "second register");
}

/*
 * tl.xpose.01 of D, its two halves loaded from p1 and p2 as d0 slices of s
 * bytes at pitch p into registers a and b, run twice in mode: true when both
 * runs give the ISA's registers.
 */
static int ok_in_mode(unsigned long mode, unsigned a, unsigned b, const unsigned D[4], unsigned d0,
                      unsigned s, long p, const uint8_t *p1, const uint8_t *p2)
{
    int ok = 1;

    put_seq(a, b, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, a, b, GPR_T1));
    load_ref(want[0], p1, d0, s, s, p);
    load_ref(want[1], p2, d0, s, s, p);
    xpose_ref_pair(want, D, 0, 1, 8);
    for (int rep = 0; rep < 2; rep++) {
        fill_regs(a, b);
        long r = run_mode(mode, d0, s, s, p, (uintptr_t)p1, (uintptr_t)p2, TL_DIMS4(D[0], D[1], D[2], D[3]));
        ok &= r == 0 && mtraps.count == 0 && regs_are(a, b, want[0], want[1]);
    }
    return ok;
}

int main(void)
{
    static const unsigned long modes[] = {MODE_M, MODE_S, MODE_U};
    static const unsigned D16[4] = {2, 64, 16, 1}, DT[4] = {32, 64, 1, 1};
    int ok;
    long r;

    for (unsigned i = 0; i < sizeof(src); i++) {
        (&src[0][0])[i] = mem_pat(i * 3 + (i >> 10));
    }
    for (unsigned i = 0; i < 1024; i++) {
        fill_a[i] = (uint8_t)(i * 13 + 5);
        fill_b[i] = (uint8_t)(i * 29 + 11);
    }
    pmp_allow_all();
    csr_write(CSR_MSTATEEN0, 1);    /* C: TL usable below M */
    csr_write(CSR_SSTATEEN0, 1);
    m_fixup = seq_fixup;

    /* 1. the ISA's registers in every mode, twice each */
    for (unsigned m = 0; m < 3; m++) {
        const char *mn = mode_name(modes[m]);

        check(ok_in_mode(modes[m], 3, 4, D16, 32, 32, 32, src[0] + 40, src[1] + 8),
              "%s: tl.load tl3, tl.load tl4, tl.xpose.01 of [2,64,16,1] (whole registers), twice: "
              "the 16-byte runs interleaved", mn);
        check(ok_in_mode(modes[m], 9, 10, DT, 16, 64, 200, src[0] + 7, src[2] + 100),
              "%s: the same of 16 rows of 64 bytes at pitch 200 and a 32 x 64 transpose, twice: "
              "the ISA's registers", mn);
    }

    /* 2. Smstateen's C bit clear: illegal at the first load in S, nothing changed */
    put_seq(3, 4, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, 3, 4, GPR_T1));
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        fill_regs(3, 4);
        csr_write(CSR_MSTATEEN0, 0);
        r = run_mode(MODE_S, 32, 32, 32, 32, (uintptr_t)src[0], (uintptr_t)src[1], TL_DIMS4(2, 64, 16, 1));
        csr_write(CSR_MSTATEEN0, 1);
        ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_ILLEGAL && mtraps.tval == seq[0] &&
              seq_trap_epc == (uintptr_t)&seq[0] && regs_are(3, 4, fill_a, fill_b);
    }
    check(ok, "S-mode, mstateen0.C = 0, twice: illegal instruction at the first load (mtval its word), "
              "both registers unchanged");

    /* 3. an Sv39 page fault of the second load: the first loaded, the second unchanged */
    vm_init();
    vm_map(VW, (uintptr_t)src[2], PTE_R | PTE_W | PTE_A | PTE_D);
    memcpy(want[0], src[2] + 16, 1024);
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        fill_regs(3, 4);
        csr_write(CSR_SATP, vm_satp());
        sfence_vma();
        r = run_mode(MODE_S, 32, 32, 32, 32, VW + 16, VW + 4096 + 64, TL_DIMS4(2, 64, 16, 1));
        csr_write(CSR_SATP, 0);
        sfence_vma();
        ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_LOAD_PAGE &&
              mtraps.tval == VW + 4096 + 64 && seq_trap_epc == (uintptr_t)&seq[1] &&
              regs_are(3, 4, want[0], fill_b);
    }
    check(ok, "S-mode Sv39, the second load's page unmapped, twice: load page fault at the second load, "
              "mtval its first byte; the first register loaded, the second unchanged");

    /* 4. an illegal xpose: both loads done, illegal at the xpose */
    memcpy(want[0], src[0] + 300, 1024);
    memcpy(want[1], src[1] + 900, 1024);
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        fill_regs(3, 4);
        r = run_mode(MODE_S, 32, 32, 32, 32, (uintptr_t)(src[0] + 300), (uintptr_t)(src[1] + 900),
                     TL_DIMS4(3, 64, 16, 1));  /* D0 odd, not 2048 bytes */
        ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_ILLEGAL && mtraps.tval == seq[2] &&
              seq_trap_epc == (uintptr_t)&seq[2] && regs_are(3, 4, want[0], want[1]);
    }
    check(ok, "S-mode, an xpose of [3,64,16,1], twice: illegal instruction at the xpose (mtval its "
              "word), both registers loaded");

    /* 5. a load trigger on a byte of the second load's source (M-mode) */
    memcpy(want[0], src[0] + 64, 1024);
    ok = 1;
    for (int rep = 0; rep < 2; rep++) {
        fill_regs(3, 4);
        csr_write(CSR_TSELECT, 0);
        csr_write(CSR_TDATA1, MCONTROL);
        csr_write(CSR_TDATA2, (uintptr_t)(src[1] + 500));
        csr_write(CSR_TDATA1, MCONTROL | MC_M | MC_LOAD);
        r = run_mode(MODE_M, 32, 32, 32, 32, (uintptr_t)(src[0] + 64), (uintptr_t)src[1],
                     TL_DIMS4(2, 64, 16, 1));
        csr_write(CSR_TDATA1, MCONTROL);
        ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_BREAKPOINT &&
              seq_trap_epc == (uintptr_t)&seq[1] && regs_are(3, 4, want[0], fill_b);
    }
    check(ok, "M-mode, a load trigger on byte 500 of the second load's source, twice: a breakpoint at "
              "the second load, the first register loaded, the second unchanged");

    /*
     * 6. the xpose word rewritten after the block ran: a store to code is
     * checked against each TB's bytes, so the TB must cover all three words
     */
    {
        ok = ok_in_mode(MODE_M, 5, 6, D16, 32, 32, 32, src[0] + 128, src[2]);
        seq[2] = TL_ENC_XPOSE(TL_ENG_RESHAPE, 2, 2, 5, 6, GPR_T1);     /* a swap with itself */
        __asm__ volatile("fence.i" : : : "memory");
        memcpy(want[0], src[0] + 128, 1024);
        memcpy(want[1], src[2], 1024);
        for (int rep = 0; rep < 2; rep++) {
            fill_regs(5, 6);
            r = run_mode(MODE_M, 32, 32, 32, 32, (uintptr_t)(src[0] + 128), (uintptr_t)src[2],
                         TL_DIMS4(2, 64, 16, 1));
            ok &= r == 0 && mtraps.count == 0 && regs_are(5, 6, want[0], want[1]);
        }
    }
    check(ok, "M-mode: the three words run twice, then the xpose's word alone rewritten to "
              "tl.xpose.22 and run twice: the registers loaded, no transpose");
    m_fixup = NULL;
    return 0;
}
