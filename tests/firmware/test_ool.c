/*
 * tl.load / tl.store translated with their whole-register path inline and
 * their other paths after the TB (docs/performance.md), in M-mode, where
 * the inline path adds a constant TLB addend to the address: the one the
 * base register last found or, before that, the one of the RAM the code is
 * in.  A block of tl.load, tl.load, tl.store, translated while the firmware
 * used whole registers only, then runs with a source in L1M (another
 * addend: the out-of-line fix), an illegal plan (each word traps, mtval =
 * its word) and a source running past the end of RAM (an access fault at
 * the second word).  Run with -M virt,tl-l1m-size=256K -m 128M; run.sh
 * checks in QEMU's trace that the block's words were translated so (their
 * addresses are on the line "# block words:").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

#define L1M 0x08000000UL
#define RAM_END (RAM_BASE + RAM_SIZE)

#define WORD_LOAD1 TL_ENC_MEM(TL_ENG_LOAD, 0, 0, 1, 0, 5)    /* tl.load tl1, 0(t0) */
#define WORD_LOAD2 TL_ENC_MEM(TL_ENG_LOAD, 0, 0, 2, 0, 6)    /* tl.load tl2, 0(t1) */
#define WORD_STORE TL_ENC_MEM(TL_ENG_STORE, 1, 0, 1, 0, 7)   /* tl.store tl1, 0(t2) */

extern const char ool_word_load1[], ool_word_load2[], ool_word_store[];
/* After each word: steps += the word's number (1, 10, 100). */
long ool_steps;

#define STEP(n) "la t3, ool_steps\n ld t4, 0(t3)\n addi t4, t4, " #n "\n sd t4, 0(t3)\n"

static __attribute__((noinline)) void block(uint64_t a, uint64_t b, uint64_t d)
{
    register uint64_t t0 __asm__("t0") = a;
    register uint64_t t1 __asm__("t1") = b;
    register uint64_t t2 __asm__("t2") = d;

    __asm__ volatile(".globl ool_word_load1\nool_word_load1: " TL__INSN_R "\n" STEP(1)
                     ".globl ool_word_load2\nool_word_load2: " TL__INSN_R_2ND "\n" STEP(10)
                     ".globl ool_word_store\nool_word_store: " TL__INSN_R_3RD "\n" STEP(100)
                     :
                     : TL__INSN_FIELDS(WORD_LOAD1), TL__INSN_FIELDS(WORD_LOAD2),
                       TL__INSN_FIELDS(WORD_STORE), "r"(t0), "r"(t1), "r"(t2)
                     : "t3", "t4", "memory");
}

/* The traps the block took: skipped, each recorded (by the trap handler: volatile). */
static volatile struct { uint64_t epc, cause, tval; } traps[4];
static volatile unsigned ntraps;

static int skip_block_trap(struct frame *f)
{
    if (f->epc != (uint64_t)(uintptr_t)ool_word_load1 && f->epc != (uint64_t)(uintptr_t)ool_word_load2 &&
        f->epc != (uint64_t)(uintptr_t)ool_word_store) {
        return 0;
    }
    if (ntraps < 4) {
        traps[ntraps].epc = f->epc;
        traps[ntraps].cause = f->cause;
        traps[ntraps].tval = f->tval;
    }
    ntraps++;
    f->epc += 4;
    return 1;
}

static uint8_t src_a[1024] __attribute__((aligned(64)));
static uint8_t src_b[1024] __attribute__((aligned(64)));
static uint8_t dst[2048] __attribute__((aligned(64)));
static uint8_t scratch[1024] __attribute__((aligned(64)));
static uint8_t want[1024];

#define U(p) ((uint64_t)(uintptr_t)(p))

static void set_rows(void)
{
    tl_setup(TL_TYPE_INT8, 8, 1, 128, 128, 128);        /* [8, 1, 128]: 1 KiB contiguous */
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 13 + seed * 7 + (i >> 8));
}

static int word_trap(unsigned i, const char *word, uint64_t cause, uint64_t tval)
{
    return i < ntraps && traps[i].epc == (uint64_t)(uintptr_t)word && traps[i].cause == cause &&
           traps[i].tval == tval;
}

int main(void)
{
    volatile uint8_t *l1 = (volatile uint8_t *)L1M;
    int ok;

    diag("test_ool: whole-register loads and stores with their other paths after the TB, M-mode");
    diag("block words: %p %p %p", (void *)ool_word_load1, (void *)ool_word_load2, (void *)ool_word_store);
    m_fixup = skip_block_trap;

    /* Whole-register plans only, four (as many as the core keeps), before the block runs. */
    tl_setup(TL_TYPE_INT8, 32, 1, 32, 32, 32);
    exec_word(W_LOAD(3, 0, GPR_T0), U(scratch), 0);
    tl_setup(TL_TYPE_INT8, 16, 1, 64, 64, 64);
    exec_word(W_LOAD(3, 0, GPR_T0), U(scratch), 0);
    tl_setup(TL_TYPE_INT16, 16, 1, 32, 64, 64);
    exec_word(W_LOAD(3, 0, GPR_T0), U(scratch), 0);
    set_rows();
    exec_word(W_LOAD(3, 0, GPR_T0), U(scratch), 0);

    /* 1. whole registers in RAM */
    fill(src_a, 1024, 1);
    fill(src_b, 1024, 2);
    memset(dst, 0xEE, sizeof(dst));
    ool_steps = 0;
    ntraps = 0;
    set_rows();
    block(U(src_a), U(src_b), U(dst));
    ok = ool_steps == 111 && ntraps == 0 && memcmp(dst, src_a, 1024) == 0 && dst[1024] == 0xEE;
    ok = reg_is(2, src_b, "tl2") && ok;
    set_rows();
    check(ok, "whole registers in RAM: both loads and the store done, no trap, each step once (%ld)",
          ool_steps);

    /* 2. the first source in L1M: another TLB addend than the block's constant */
    for (unsigned i = 0; i < 1024; i++) l1[0x1000 + i] = (uint8_t)(i * 5 + 3);
    for (unsigned i = 0; i < 1024; i++) want[i] = (uint8_t)(i * 5 + 3);
    memset(dst, 0xEE, sizeof(dst));
    ool_steps = 0;
    ntraps = 0;
    set_rows();
    block(L1M + 0x1000, U(src_b), U(dst));
    ok = ool_steps == 111 && ntraps == 0 && memcmp(dst, want, 1024) == 0;
    ok = reg_is(1, want, "tl1 from L1M") && ok;
    check(ok, "first source in L1M: its bytes in tl1 and in memory, no trap, each step once (%ld)",
          ool_steps);

    /* 3. an illegal plan (D0 = 0): each word traps with itself in mtval */
    set_rows();
    tlcsr_write(TL_CSR_TSHAPE, 0);
    ool_steps = 0;
    ntraps = 0;
    block(U(src_a), U(src_b), U(dst));
    ok = ntraps == 3 && word_trap(0, ool_word_load1, CAUSE_ILLEGAL, WORD_LOAD1) &&
         word_trap(1, ool_word_load2, CAUSE_ILLEGAL, WORD_LOAD2) &&
         word_trap(2, ool_word_store, CAUSE_ILLEGAL, WORD_STORE) && ool_steps == 111;
    if (!ok) {
        for (unsigned i = 0; i < ntraps && i < 4; i++)
            diag("trap %u: mepc %#lx mcause %lu mtval %#lx", i, (unsigned long)traps[i].epc,
                 (unsigned long)traps[i].cause, (unsigned long)traps[i].tval);
    }
    check(ok, "tshape with D0 = 0: an illegal-instruction trap at each word, mtval = the word "
          "(%u traps)", ntraps);

    /* 4. the second source runs past the end of RAM: an access fault at its word */
    set_rows();
    fill(src_a, 1024, 4);
    exec_word(W_LOAD(2, 0, GPR_T0), U(src_b), 0);      /* known contents of tl2 */
    ool_steps = 0;
    ntraps = 0;
    memset(dst, 0xEE, sizeof(dst));
    block(U(src_a), RAM_END - 512, U(dst));
    ok = ntraps == 1 && word_trap(0, ool_word_load2, CAUSE_LOAD_ACCESS, RAM_END) && ool_steps == 111 &&
         memcmp(dst, src_a, 1024) == 0;
    ok = reg_is(2, src_b, "tl2 unchanged") && ok;
    if (!ok && ntraps) {
        diag("trap 0: mepc %#lx mcause %lu mtval %#lx", (unsigned long)traps[0].epc,
             (unsigned long)traps[0].cause, (unsigned long)traps[0].tval);
    }
    check(ok, "second source past the end of RAM: one load access fault at its word, mtval = the "
          "end of RAM, tl2 unchanged, the store done");

    /* 5. whole registers in RAM again */
    fill(src_a, 1024, 5);
    memset(dst, 0xEE, sizeof(dst));
    ool_steps = 0;
    ntraps = 0;
    set_rows();
    block(U(src_a), U(src_b), U(dst));
    check(ool_steps == 111 && ntraps == 0 && memcmp(dst, src_a, 1024) == 0,
          "whole registers in RAM after all that: the inline path's bytes, each step once (%ld)",
          ool_steps);
    m_fixup = 0;
    return 0;
}
