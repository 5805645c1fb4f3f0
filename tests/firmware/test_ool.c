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

#include "../tl_ool_block.h"

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

/* The block on sources and a destination in RAM, filled from seed: no trap, the ISA's bytes. */
static void check_whole_in_ram(unsigned seed, const char *what)
{
    int ok;

    fill(src_a, 1024, seed);
    fill(src_b, 1024, seed + 1);
    memset(dst, 0xEE, sizeof(dst));
    ool_steps = 0;
    ntraps = 0;
    set_rows();
    ool_block(U(src_a), U(src_b), U(dst));
    ok = ool_steps == 111 && ntraps == 0 && memcmp(dst, src_a, 1024) == 0 && dst[1024] == 0xEE;
    ok = reg_is(2, src_b, "tl2") && ok;
    set_rows();
    check(ok, "%s: both loads and the store done, no trap, each step once (%ld)", what, ool_steps);
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
    check_whole_in_ram(1, "whole registers in RAM");

    /* 2. the first source in L1M: another TLB addend than the block's constant */
    for (unsigned i = 0; i < 1024; i++) l1[0x1000 + i] = (uint8_t)(i * 5 + 3);
    for (unsigned i = 0; i < 1024; i++) want[i] = (uint8_t)(i * 5 + 3);
    memset(dst, 0xEE, sizeof(dst));
    ool_steps = 0;
    ntraps = 0;
    set_rows();
    ool_block(L1M + 0x1000, U(src_b), U(dst));
    ok = ool_steps == 111 && ntraps == 0 && memcmp(dst, want, 1024) == 0;
    ok = reg_is(1, want, "tl1 from L1M") && ok;
    check(ok, "first source in L1M: its bytes in tl1 and in memory, no trap, each step once (%ld)",
          ool_steps);

    /* 3. an illegal plan (D0 = 0): each word traps with itself in mtval */
    set_rows();
    tlcsr_write(TL_CSR_TSHAPE, 0);
    ool_steps = 0;
    ntraps = 0;
    ool_block(U(src_a), U(src_b), U(dst));
    ok = ntraps == 3 && word_trap(0, ool_word_load1, CAUSE_ILLEGAL, OOL_WORD_LOAD1) &&
         word_trap(1, ool_word_load2, CAUSE_ILLEGAL, OOL_WORD_LOAD2) &&
         word_trap(2, ool_word_store, CAUSE_ILLEGAL, OOL_WORD_STORE) && ool_steps == 111;
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
    ool_block(U(src_a), RAM_END - 512, U(dst));
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
    check_whole_in_ram(5, "whole registers in RAM after all that");
    m_fixup = 0;
    return 0;
}
