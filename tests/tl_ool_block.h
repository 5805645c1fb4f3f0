/*
 * The block of the out-of-line path tests (tests/user/test_out_of_line.c,
 * tests/firmware/test_ool.c): tl.load tl1, 0(t0); tl.load tl2, 0(t1);
 * tl.store tl1, 0(t2), each word followed by "ool_steps += 1, 10, 100",
 * so that a test sees which of the code after the words ran, and how
 * often.  The words' addresses are the symbols ool_word_load1,
 * ool_word_load2 and ool_word_store.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TESTS_TL_OOL_BLOCK_H
#define TL_TESTS_TL_OOL_BLOCK_H

#include <stdint.h>
#include "tl/tl_insn.h"

#define OOL_WORD_LOAD1 TL_ENC_MEM(TL_ENG_LOAD, 0, 0, 1, 0, 5)    /* tl.load tl1, 0(t0) */
#define OOL_WORD_LOAD2 TL_ENC_MEM(TL_ENG_LOAD, 0, 0, 2, 0, 6)    /* tl.load tl2, 0(t1) */
#define OOL_WORD_STORE TL_ENC_MEM(TL_ENG_STORE, 1, 0, 1, 0, 7)   /* tl.store tl1, 0(t2) */

extern const char ool_word_load1[], ool_word_load2[], ool_word_store[];
/* After each word: ool_steps += the word's number (1, 10, 100). */
long ool_steps;

#define OOL_STEP(n) "la t3, ool_steps\n ld t4, 0(t3)\n addi t4, t4, " #n "\n sd t4, 0(t3)\n"

static __attribute__((noinline)) void ool_block(uintptr_t a, uintptr_t b, uintptr_t d)
{
    register uintptr_t t0 __asm__("t0") = a;
    register uintptr_t t1 __asm__("t1") = b;
    register uintptr_t t2 __asm__("t2") = d;

    __asm__ volatile(".globl ool_word_load1\nool_word_load1: " TL__INSN_R "\n" OOL_STEP(1)
                     ".globl ool_word_load2\nool_word_load2: " TL__INSN_R_2ND "\n" OOL_STEP(10)
                     ".globl ool_word_store\nool_word_store: " TL__INSN_R_3RD "\n" OOL_STEP(100)
                     :
                     : TL__INSN_FIELDS(OOL_WORD_LOAD1), TL__INSN_FIELDS(OOL_WORD_LOAD2),
                       TL__INSN_FIELDS(OOL_WORD_STORE), "r"(t0), "r"(t1), "r"(t2)
                     : "t3", "t4", "memory");
}

#endif
