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
 * The same five words with tl.store A; tl.store B after the xpose, which
 * QEMU runs in one pass too (helper_xtl_load_pair_xpose_store): in M, S and
 * U the registers and the memory the stores leave (tl_ref.h's store rule),
 * also where the stores overlap; a store to an Sv39 page that is unmapped or
 * read-only, and a store trigger on a byte either store writes, trap at that
 * store with the instructions before it done; the store words rewritten
 * after the block ran take effect; a store over a function run before
 * (in the block's page and in the next one) leaves the function running as
 * stored; and the five in a loop with the CSRs written once (the
 * translated code's own checks) trap as the ISA says when mstateen0.C is
 * cleared or the stores go to a read-only page the loads read.  An addi
 * after the five counts the runs that reached it.
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
#define MC_STORE    (1UL << 1)
#define MC_LOAD     (1UL << 0)
#define CAUSE_ILLEGAL    2
#define CAUSE_BREAKPOINT 3
#define GPR_T2 7
#define GPR_T3 28
#define GPR_T4 29
#define VW 0x40000000UL              /* Sv39 window: page 0 mapped, page 1 not, page 2 read-only */
#define SEQ_WORDS 4
#define NOP 0x00000013u
#define RET 0x00008067u
#define ADDI_T5_1 0x001f0f13u        /* addi t5, t5, 1 */
#define LI_A0(v) ((((uint32_t)(v) & 0xfffu) << 20) | 0x00000513u)   /* addi a0, zero, v */
#define FN_SAME 512                  /* functions in code5: in the five's page, */
#define FN_NEXT 1280                 /* in the next page (word indices) */

static uint32_t seq[SEQ_WORDS] __attribute__((aligned(64)));
static uint8_t src[3][4096] __attribute__((aligned(4096)));
static uint8_t fill_a[1024], fill_b[1024], want[2][1024];
static uint64_t s_p1, s_p2, s_dims;
static volatile uint64_t seq_trap_epc;
/*
 * Two pages of code: the five words, addi t5, t5, 1 and ret at the start,
 * and functions at FN_SAME and FN_NEXT.  dst: the stores' pages.
 */
static uint32_t code5[2048] __attribute__((aligned(4096)));
static uint8_t dst[3][4096] __attribute__((aligned(4096)));
static uint8_t dst_want[3][4096];
static uint64_t s_o1, s_o2, s_count;

/*
 * A trap of one of the three words, or of the five: recorded (mtraps), then
 * on to the ret (past the five's addi).
 */
static int seq_fixup(struct frame *f)
{
    if (f->epc >= (uintptr_t)&seq[0] && f->epc < (uintptr_t)&seq[SEQ_WORDS - 1]) {
        seq_trap_epc = f->epc;
        csr_write(CSR_TDATA1, MCONTROL);
        f->epc = (uintptr_t)&seq[SEQ_WORDS - 1];
        return 1;
    }
    if (f->epc >= (uintptr_t)&code5[0] && f->epc < (uintptr_t)&code5[5]) {
        seq_trap_epc = f->epc;
        csr_write(CSR_TDATA1, MCONTROL);
        f->epc = (uintptr_t)&code5[6];
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

/* tl.load a, 0(t0); tl.load b, 0(t2); xpose_word; tl.store a, 0(t3); tl.store b, 0(t4). */
static void put_five(unsigned a, unsigned b, uint32_t xpose_word)
{
    code5[0] = W_LOAD(a, 0, GPR_T0);
    code5[1] = W_LOAD(b, 0, GPR_T2);
    code5[2] = xpose_word;
    code5[3] = W_STORE(a, 0, GPR_T3);
    code5[4] = W_STORE(b, 0, GPR_T4);
    code5[5] = ADDI_T5_1;
    code5[6] = RET;
    __asm__ volatile("fence.i" : : : "memory");
}

static long run_five(long unused)
{
    register uint64_t r_t0 __asm__("t0") = s_p1;
    register uint64_t r_t2 __asm__("t2") = s_p2;
    register uint64_t r_t1 __asm__("t1") = s_dims;
    register uint64_t r_t3 __asm__("t3") = s_o1;
    register uint64_t r_t4 __asm__("t4") = s_o2;
    register uint64_t r_t5 __asm__("t5") = s_count;

    (void)unused;
    __asm__ volatile("jalr ra, 0(%1)"
                     : "+r"(r_t5)
                     : "r"(code5), "r"(r_t0), "r"(r_t2), "r"(r_t1), "r"(r_t3), "r"(r_t4)
                     : "ra", "memory");
    s_count = r_t5;
    return 0;
}

/*
 * Runs the five words in mode (MODE_M: directly) on int8 slices of s bytes
 * at pitch p, loads from p1 and p2, stores to o1 and o2 (addresses as the
 * mode sees them); the value run_in returned.
 */
static long run_five_mode(unsigned long mode, unsigned d0, unsigned s, long p, uint64_t p1,
                          uint64_t p2, uint32_t dims, uint64_t o1, uint64_t o2)
{
    tl_setup(TL_TYPE_INT8, d0, 1, s, s, (int32_t)p);
    s_p1 = p1;
    s_p2 = p2;
    s_dims = dims;
    s_o1 = o1;
    s_o2 = o2;
    seq_trap_epc = 0;
    traps_reset();
    return mode == MODE_M ? run_five(0) : run_in(mode, run_five, 0);
}

/*
 * The ISA's outcome of the five (docs/isa.md 5.2, 5.5) up to the first
 * `stores` stores: want[] = the xpose of the two loads of d0 slices of s
 * bytes at pitch p from p1 and p2; dst_want = dst with want[0] stored at m1
 * and then want[1] at m2 (dst's bytes; NULL: that store not done).
 */
static void expect_five(const unsigned D[4], unsigned d0, unsigned s, long p, const uint8_t *p1,
                        const uint8_t *p2, const uint8_t *m1, const uint8_t *m2)
{
    load_ref(want[0], p1, d0, s, s, p);
    load_ref(want[1], p2, d0, s, s, p);
    xpose_ref_pair(want, D, 0, 1, 8);
    memcpy(dst_want, dst, sizeof(dst));
    if (m1) {
        store_ref(&dst_want[0][0] + (m1 - &dst[0][0]), want[0], d0, s, s, p);
    }
    if (m2) {
        store_ref(&dst_want[0][0] + (m2 - &dst[0][0]), want[1], d0, s, s, p);
    }
}

static void fill_dst(unsigned seed)
{
    for (unsigned i = 0; i < sizeof(dst); i++) {
        (&dst[0][0])[i] = (uint8_t)(i * 11 + (i >> 8) * 5 + seed * 3 + 0x17);
    }
}

/*
 * The five with registers a and b in mode, twice (translated, then the same
 * block): loads from p1, p2, stores to o1, o2 (in dst), [2,64,16,1] or D
 * swapped along 0 and 1: true when both runs give the ISA's registers and
 * memory and reach the addi once.
 */
static int five_ok_in_mode(unsigned long mode, unsigned a, unsigned b, const unsigned D[4],
                           unsigned d0, unsigned s, long p, const uint8_t *p1, const uint8_t *p2,
                           uint8_t *o1, uint8_t *o2)
{
    int ok = 1;

    put_five(a, b, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, a, b, GPR_T1));
    for (int rep = 0; rep < 2; rep++) {
        const uint64_t count = s_count;

        fill_dst(rep);
        expect_five(D, d0, s, p, p1, p2, o1, o2);
        fill_regs(a, b);
        long r = run_five_mode(mode, d0, s, p, (uintptr_t)p1, (uintptr_t)p2,
                               TL_DIMS4(D[0], D[1], D[2], D[3]), (uintptr_t)o1, (uintptr_t)o2);
        ok &= r == 0 && mtraps.count == 0 && s_count == count + 1 &&
              regs_are(a, b, want[0], want[1]) && mem_equal("stores' pages", &dst[0][0],
                                                            &dst_want[0][0], sizeof(dst));
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

    /* 7. the five words: the ISA's registers and memory in every mode, twice each */
    for (unsigned m = 0; m < 3; m++) {
        const char *mn = mode_name(modes[m]);

        check(five_ok_in_mode(modes[m], 3, 4, D16, 32, 32, 32, src[0] + 40, src[1] + 8, dst[0] + 100,
                              dst[1] + 2000),
              "%s: tl.load A; tl.load B; tl.xpose.01 of [2,64,16,1]; tl.store A; tl.store B, twice "
              "(whole registers): the ISA's registers and stored memory", mn);
        check(five_ok_in_mode(modes[m], 9, 10, DT, 32, 32, 32, src[2] + 1000, src[0] + 2500,
                              dst[2] + 3000, dst[0] + 1500),
              "%s: the same with the 32 x 64 transpose, tl.store A; tl.store B, twice (whole "
              "registers): the ISA's registers and stored memory", mn);
    }
    check(five_ok_in_mode(MODE_M, 11, 12, D16, 32, 32, 32, src[1] + 3, src[2] + 7, dst[1] + 8,
                          dst[1] + 520),
          "M-mode: tl.store A; tl.store B, twice, B's 1 KiB over the upper half of A's: the ISA's "
          "registers, B's bytes where they overlap");

    /* 8. a store to an Sv39 page that is unmapped or read-only: a page fault at that store */
    {
        static const struct {
            int second;             /* the second store faults, else the first */
            uint64_t va;            /* its address */
            const char *what;
        } pf[] = {
            {1, VW + 4096 + 64, "the second store's page unmapped"},
            {0, VW + 4096 + 100, "the first store's page unmapped"},
            {0, VW + 2 * 4096 + 8, "the first store's page read-only"},
        };

        vm_map(VW + 2 * 4096, (uintptr_t)dst[2], PTE_R | PTE_A);
        put_five(3, 4, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, 3, 4, GPR_T1));
        for (unsigned k = 0; k < sizeof(pf) / sizeof(pf[0]); k++) {
            uint8_t *other = dst[0] + 512;      /* the store that does not fault: RAM */

            ok = 1;
            for (int rep = 0; rep < 2; rep++) {
                const uint64_t count = s_count;
                long r;

                fill_dst(10 + k + rep);
                expect_five(D16, 32, 32, 32, src[0] + 200, src[1] + 300, pf[k].second ? other : NULL,
                            NULL);
                fill_regs(3, 4);
                csr_write(CSR_SATP, vm_satp());
                sfence_vma();
                r = run_five_mode(MODE_S, 32, 32, 32, (uintptr_t)(src[0] + 200),
                                  (uintptr_t)(src[1] + 300), TL_DIMS4(2, 64, 16, 1),
                                  pf[k].second ? (uintptr_t)other : pf[k].va,
                                  pf[k].second ? pf[k].va : (uintptr_t)other);
                csr_write(CSR_SATP, 0);
                sfence_vma();
                ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_STORE_PAGE &&
                      mtraps.tval == pf[k].va && seq_trap_epc == (uintptr_t)&code5[3 + pf[k].second] &&
                      s_count == count && regs_are(3, 4, want[0], want[1]) &&
                      mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
            }
            check(ok, "S-mode Sv39, the five with %s, twice: store page fault at that store (mtval "
                      "its first byte), the registers transposed, %s", pf[k].what,
                  pf[k].second ? "the first store done" : "no byte stored");
        }
    }

    /* 9. a store trigger on a byte a store writes (M-mode): a breakpoint at that store */
    for (int second = 1; second >= 0; second--) {
        uint8_t *o1 = dst[0] + 64, *o2 = dst[1] + 128;
        uint8_t *hit = second ? o2 + 700 : o1 + 3;

        put_five(5, 6, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, 5, 6, GPR_T1));
        ok = 1;
        for (int rep = 0; rep < 2; rep++) {
            const uint64_t count = s_count;
            long r;

            fill_dst(20 + rep);
            expect_five(D16, 32, 32, 32, src[2] + 16, src[0] + 900, second ? o1 : NULL, NULL);
            fill_regs(5, 6);
            csr_write(CSR_TSELECT, 0);
            csr_write(CSR_TDATA1, MCONTROL);
            csr_write(CSR_TDATA2, (uintptr_t)hit);
            csr_write(CSR_TDATA1, MCONTROL | MC_M | MC_STORE);
            r = run_five_mode(MODE_M, 32, 32, 32, (uintptr_t)(src[2] + 16), (uintptr_t)(src[0] + 900),
                              TL_DIMS4(2, 64, 16, 1), (uintptr_t)o1, (uintptr_t)o2);
            csr_write(CSR_TDATA1, MCONTROL);
            ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_BREAKPOINT &&
                  seq_trap_epc == (uintptr_t)&code5[3 + second] && s_count == count &&
                  regs_are(5, 6, want[0], want[1]) &&
                  mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
        }
        check(ok, "M-mode, a store trigger on the %s store's byte %d, twice: a breakpoint at that "
                  "store, the registers transposed, %s", second ? "second" : "first",
              second ? 700 : 3, second ? "the first store done" : "no byte stored");
    }

    /*
     * 10. the store words rewritten after the block ran: the first of B, the
     * second a nop, the second at 2(t4)
     */
    {
        uint8_t *o1 = dst[0] + 256, *o2 = dst[2] + 512;

        ok = five_ok_in_mode(MODE_M, 7, 8, D16, 32, 32, 32, src[1] + 64, src[2] + 128, o1, o2);
        for (unsigned round = 1; round < 4; round++) {
            const uint8_t *m1 = o1, *m2 = o2;

            if (round == 1) {
                code5[3] = W_STORE(8, 0, GPR_T3);
            } else if (round == 2) {
                code5[3] = W_STORE(7, 0, GPR_T3);
                code5[4] = NOP;
                m2 = NULL;
            } else {
                code5[4] = W_STORE(8, 2, GPR_T4);
                m2 = o2 + 2 * 32;
            }
            __asm__ volatile("fence.i" : : : "memory");
            for (int rep = 0; rep < 2; rep++) {
                const uint64_t count = s_count;

                fill_dst(30 + round + rep);
                expect_five(D16, 32, 32, 32, src[1] + 64, src[2] + 128, NULL, NULL);
                if (round == 1) {
                    store_ref(&dst_want[0][0] + (m1 - &dst[0][0]), want[1], 32, 32, 32, 32);
                } else {
                    store_ref(&dst_want[0][0] + (m1 - &dst[0][0]), want[0], 32, 32, 32, 32);
                }
                if (m2) {
                    store_ref(&dst_want[0][0] + (m2 - &dst[0][0]), want[1], 32, 32, 32, 32);
                }
                fill_regs(7, 8);
                long r = run_five_mode(MODE_M, 32, 32, 32, (uintptr_t)(src[1] + 64),
                                       (uintptr_t)(src[2] + 128), TL_DIMS4(2, 64, 16, 1),
                                       (uintptr_t)o1, (uintptr_t)o2);
                ok &= r == 0 && mtraps.count == 0 && s_count == count + 1 &&
                      regs_are(7, 8, want[0], want[1]) &&
                      mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
            }
        }
    }
    check(ok, "M-mode: the five run twice, then the stores rewritten (the first of B; the second a "
              "nop; the second at 2(t4)), each twice: each run gives the words' outcome");

    /*
     * 11. a store over a function that ran before (so is translated), in the
     * five's page and in the next: after fence.i it runs as stored
     */
    for (int next = 0; next < 2; next++) {
        uint32_t *fn = &code5[next ? FN_NEXT : FN_SAME];
        long (*call_fn)(void) = (long (*)(void))(uintptr_t)fn;
        uint8_t *o1 = dst[1] + 40;

        /*
         * [2,64,16,1] swapped 01: B's bytes 0-15 are bytes 512-527 of A's
         * source (a page of its own, so that both loads' spans are found
         * accessible and the pass gets as far as the stores' pages)
         */
        static uint8_t fsrc[4096] __attribute__((aligned(4096)));
        fn[0] = LI_A0(1);
        fn[1] = RET;
        __asm__ volatile("fence.i" : : : "memory");
        put_five(3, 4, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, 3, 4, GPR_T1));
        ok = call_fn() == 1;
        for (unsigned round = 0; round < 3; round++) {
            const long v = 20 + 10 * next + round;
            const uint32_t fn_new[2] = {LI_A0(v), RET};
            uint32_t fn_want[256];

            for (unsigned i = 0; i < 1024; i++) {
                fsrc[i] = mem_pat(i * 5 + round);
            }
            memcpy(fsrc + 512, fn_new, sizeof(fn_new));
            fill_dst(40 + round);
            expect_five(D16, 32, 32, 32, fsrc, src[2] + 40, o1, NULL);
            memcpy(fn_want, want[1], sizeof(fn_want));
            fill_regs(3, 4);
            r = run_five_mode(MODE_M, 32, 32, 32, (uintptr_t)fsrc, (uintptr_t)(src[2] + 40),
                              TL_DIMS4(2, 64, 16, 1), (uintptr_t)o1, (uintptr_t)fn);
            __asm__ volatile("fence.i" : : : "memory");
            long got_v = call_fn();
            ok &= r == 0 && mtraps.count == 0 && regs_are(3, 4, want[0], want[1]) &&
                  mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst)) &&
                  mem_equal("the function's KiB", (const uint8_t *)fn, (const uint8_t *)fn_want,
                            1024);
            if (got_v != v) {
                diag("round %u: the function returned %ld, want %ld", round, got_v, v);
                ok = 0;
            }
        }
        check(ok, "M-mode: the second store over the function run before, in the %s page, three "
                  "times: the ISA's registers and memory, then the function returns the value stored",
              next ? "next" : "five's");
    }
    /*
     * 12. one block run in a loop in S-mode with the CSRs written once (the
     * same values each run, from M-mode): after its first runs the
     * translated code checks the common case itself, the xpose found legal
     * once.  Then a last run that leaves it: mstateen0.C cleared (illegal
     * at the first load, nothing changed); under Sv39, loads from a
     * read-only page and both stores to it (a store page fault at the
     * first store, the registers transposed, no byte stored).
     */
    {
        enum { D16_LOOP_RUNS = 4 };
        uint64_t count;

        put_five(13, 14, TL_ENC_XPOSE(TL_ENG_RESHAPE, 0, 1, 13, 14, GPR_T1));
        fill_dst(50);
        fill_regs(13, 14);
        ok = 1;
        for (unsigned i = 0; i < D16_LOOP_RUNS; i++) {
            count = s_count;
            expect_five(D16, 32, 32, 32, src[0] + 8 * i, src[1] + 16 * i, dst[0] + 24 * i,
                        dst[1] + 40 * i);
            r = run_five_mode(MODE_S, 32, 32, 32, (uintptr_t)(src[0] + 8 * i),
                              (uintptr_t)(src[1] + 16 * i), TL_DIMS4(2, 64, 16, 1),
                              (uintptr_t)(dst[0] + 24 * i), (uintptr_t)(dst[1] + 40 * i));
            /* (reading a register back writes the CSRs: the registers are read after the loop) */
            ok &= r == 0 && mtraps.count == 0 && s_count == count + 1 &&
                  mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
        }
        memcpy(dst_want, dst, sizeof(dst));
        count = s_count;
        csr_write(CSR_MSTATEEN0, 0);
        r = run_five_mode(MODE_S, 32, 32, 32, (uintptr_t)(src[0] + 64), (uintptr_t)(src[1] + 64),
                          TL_DIMS4(2, 64, 16, 1), (uintptr_t)dst[0], (uintptr_t)dst[1]);
        csr_write(CSR_MSTATEEN0, 1);
        ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_ILLEGAL &&
              mtraps.tval == code5[0] && seq_trap_epc == (uintptr_t)&code5[0] && s_count == count &&
              regs_are(13, 14, want[0], want[1]) &&
              mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
        check(ok, "S-mode, the five in a loop with the CSRs written once, four runs, then "
                  "mstateen0.C = 0: illegal instruction at the first load, nothing changed");

        /* dst[2] read-only at VW + 2 pages (section 8), dst[0] read-write at VW + 3 pages */
        vm_map(VW + 3 * 4096, (uintptr_t)dst[0], PTE_R | PTE_W | PTE_A | PTE_D);
        fill_dst(51);
        ok = 1;
        csr_write(CSR_SATP, vm_satp());
        sfence_vma();
        for (unsigned i = 0; i < D16_LOOP_RUNS; i++) {
            count = s_count;
            expect_five(D16, 32, 32, 32, dst[2] + 8 * i, dst[2] + 2048 + 8 * i, dst[0] + 8 * i,
                        dst[0] + 2048 + 8 * i);
            r = run_five_mode(MODE_S, 32, 32, 32, VW + 2 * 4096 + 8 * i, VW + 2 * 4096 + 2048 + 8 * i,
                              TL_DIMS4(2, 64, 16, 1), VW + 3 * 4096 + 8 * i,
                              VW + 3 * 4096 + 2048 + 8 * i);
            /* (reading a register back writes the CSRs: the registers are read after the loop) */
            ok &= r == 0 && mtraps.count == 0 && s_count == count + 1 &&
                  mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
        }
        count = s_count;
        expect_five(D16, 32, 32, 32, dst[2], dst[2] + 1024, NULL, NULL);
        r = run_five_mode(MODE_S, 32, 32, 32, VW + 2 * 4096, VW + 2 * 4096 + 1024,
                          TL_DIMS4(2, 64, 16, 1), VW + 2 * 4096 + 2048 + 16, VW + 2 * 4096 + 3072);
        csr_write(CSR_SATP, 0);
        sfence_vma();
        ok &= r == 0 && mtraps.count == 1 && mtraps.cause == CAUSE_STORE_PAGE &&
              mtraps.tval == VW + 2 * 4096 + 2048 + 16 && seq_trap_epc == (uintptr_t)&code5[3] &&
              s_count == count && regs_are(13, 14, want[0], want[1]) &&
              mem_equal("stores' pages", &dst[0][0], &dst_want[0][0], sizeof(dst));
        check(ok, "S-mode Sv39, the five in a loop with the CSRs written once, four runs, then both "
                  "stores to the read-only page the loads read: store page fault at the first store, "
                  "the registers transposed, no byte stored");
    }
    m_fixup = NULL;
    return 0;
}
