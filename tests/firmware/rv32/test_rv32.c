/*
 * TL on an RV32 hart (qemu-system-riscv64 -M virt -cpu rv32,xtl=on):
 *  - M-mode: tl.muls reads x[rs2] as an unsigned 32-bit value (docs/isa.md
 *    5.8, 5.9 rule 7), so a scalar with bit 31 set is 2^31 and more, never
 *    a 64-bit sign extension; products clamp to [0, 2^esz - 1];
 *  - S-mode with Sv32: TL accesses wrap at 2^32 (docs/isa.md 5.2, address
 *    wrap): a whole register, a strided load, a store, imm8 = -1 below 0, a
 *    negative pitch across 0, and a page fault at the first faulting byte.
 * VA 0xFFC00000-0xFFFFFFFF maps to PA 0x80800000, VA 0-0x3FFFFF to PA
 * 0x80400000, VA 0x80000000 (this program) to itself; VA 0x400000 and up
 * (below 0x80000000) is unmapped.  Prints one "ok - " / "not ok - " line
 * per check and ends through the test finisher.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "baremetal/virt.h"
#include "tl/tl_insn.h"

volatile uint32_t g_mcause, g_mtval, g_ntraps;
static uint32_t root[1024] __attribute__((aligned(4096)));
static volatile uint8_t out[4][1024] __attribute__((aligned(64)));
static volatile uint32_t res_cause[6], res_tval[6], res_n[6];
static uint32_t muls_word[1024 / 4] __attribute__((aligned(64)));
static int failed;

#define TOP ((volatile uint8_t *)0x80BFF000u)   /* PA of VA 0xFFFFF000 */
#define LOW ((volatile uint8_t *)0x80400000u)   /* PA of VA 0 */

static void report(int ok, const char *what)
{
    virt_puts(ok ? "ok - " : "not ok - ");
    virt_puts(what);
    virt_puts("\n");
    failed += !ok;
}

static void record(int k)
{
    res_cause[k] = g_mcause;
    res_tval[k] = g_mtval;
    res_n[k] = g_ntraps;
    g_ntraps = g_mcause = g_mtval = 0;
}

/* Every int32 element of tl2 is want. */
static int tl2_int32_all(uint32_t want)
{
    tl_store(2, 0, muls_word);
    for (int i = 0; i < 256; i++) {
        if (muls_word[i] != want) {
            return 0;
        }
    }
    return 1;
}

/* tl1 = value (tl.addi from tl0, a constant), tl.muls tl2, tl1, scalar; int32 elements. */
#define MULS_INT32(value, scalar, want) __extension__({     \
        tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT32);          \
        tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 4));    \
        tl_addi(1, 0, value);                               \
        tl_muls(2, 1, scalar);                              \
        tl2_int32_all(want);                                \
    })

static void muls_checks(void)
{
    report(MULS_INT32(1, 0x80000000u, 0x80000000u), "tl.muls int32: 1 * x[rs2] 0x80000000 = 0x80000000 (unsigned XLEN scalar)");
    report(MULS_INT32(3, 0x40000000u, 0xC0000000u), "tl.muls int32: 3 * 0x40000000 = 0xc0000000");
    report(MULS_INT32(1, 0xFFFFFFFFu, 0xFFFFFFFFu), "tl.muls int32: 1 * 0xffffffff = 0xffffffff");
    report(MULS_INT32(2, 0x80000000u, 0xFFFFFFFFu), "tl.muls int32: 2 * 0x80000000 clamps to 0xffffffff");
    report(MULS_INT32(0, 0xFFFFFFFFu, 0), "tl.muls int32: 0 * 0xffffffff = 0");
    report(g_ntraps == 0, "tl.muls: no trap");
}

void s_main(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    tl_load(1, 0, 0xFFFFFF00u);                 /* 256 bytes at the top, 768 at 0 */
    record(0);
    tl_store(1, 0, (void *)out[0]);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 100); /* 4 slices of 100 bytes, pitch 0x40 */
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 0x40);
    tl_load(2, 0, 0xFFFFFFC0u);
    record(1);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    tl_store(2, 0, (void *)out[1]);
    tl_store(1, 0, 0xFFFFFF80u);                /* a store across 2^32 */
    record(2);
    tl_load(3, -1, 0x10u);                      /* imm8 -1, W 256: from 0xFFFFFF10 */
    record(3);
    tl_store(3, 0, (void *)out[2]);
    tl_load(4, 0, 0x3FFF00u);                   /* 0x400000 is unmapped */
    record(4);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 200); /* pitch -300 from 0x100, across 0 */
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)-300);
    tl_load(5, 0, 0x100u);
    record(5);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    tl_store(5, 0, (void *)out[3]);
    __asm__ volatile("ecall");
}

/* The byte at VA va as the program set it up: the two mapped windows. */
static uint8_t init_byte(uint32_t va)
{
    if (va >= 0xFFFFF000u) {
        return (uint8_t)((va - 0xFFFFF000u) * 13 + 1);
    }
    return (uint8_t)(va * 7 + 3);
}

/* The byte at VA va now. */
static uint8_t va_byte(uint32_t va)
{
    if (va >= 0xFFC00000u) {
        return *(volatile uint8_t *)(0x80800000u + (va - 0xFFC00000u));
    }
    return *(volatile uint8_t *)(0x80400000u + va);
}

void m_report(void)
{
    int ok;

    ok = res_n[0] == 0;
    for (uint32_t i = 0; i < 1024 && ok; i++) {
        ok = out[0][i] == init_byte(0xFFFFFF00u + i);
    }
    report(ok, "Sv32: tl.load of 1024 contiguous bytes from 0xffffff00 wraps at 2^32");
    ok = res_n[1] == 0;
    for (uint32_t i = 0; i < 4 && ok; i++) {
        for (uint32_t b = 0; b < 256 && ok; b++) {
            ok = out[1][i * 256 + b] == (b < 100 ? init_byte(0xFFFFFFC0u + i * 0x40 + b) : 0);
        }
    }
    report(ok, "Sv32: strided tl.load (W 100, pitch 0x40) from 0xffffffc0 wraps at 2^32, the rest of each slice zero");
    ok = res_n[2] == 0;
    for (uint32_t i = 0; i < 1024 && ok; i++) {
        ok = va_byte(0xFFFFFF80u + i) == out[0][i];
    }
    report(ok, "Sv32: tl.store of 1024 bytes to 0xffffff80 wraps at 2^32");
    ok = res_n[3] == 0;
    for (uint32_t i = 0; i < 1024 && ok; i++) {
        ok = out[2][i] == va_byte(0xFFFFFF10u + i);
    }
    report(ok, "Sv32: imm8 = -1 (W 256) from base 0x10 starts at 0xffffff10");
    report(res_n[4] == 1 && res_cause[4] == 13 && res_tval[4] == 0x400000u,
           "Sv32: tl.load from 0x3fff00 takes one load page fault, mtval 0x400000 (first faulting byte)");
    ok = res_n[5] == 0;
    for (uint32_t i = 0; i < 4 && ok; i++) {
        for (uint32_t b = 0; b < 256 && ok; b++) {
            ok = out[3][i * 256 + b] == (b < 200 ? va_byte(0x100u - i * 300u + b) : 0);
        }
    }
    report(ok, "Sv32: pitch -300 from 0x100 wraps below 0");
    virt_exit((uint32_t)failed);
}

int main(void)
{
    muls_checks();
    for (uint32_t i = 0; i < 4096; i++) {
        TOP[i] = (uint8_t)(i * 13 + 1);
        LOW[i] = (uint8_t)(i * 7 + 3);
    }
    /* Sv32 leaf megapages: V R W X A D, no U. */
    const uint32_t leaf = 0x1 | 0x2 | 0x4 | 0x8 | 0x40 | 0x80;
    root[0x000] = ((0x80400000u >> 12) << 10) | leaf;
    root[0x3FF] = ((0x80800000u >> 12) << 10) | leaf;
    root[0x200] = ((0x80000000u >> 12) << 10) | leaf;
    __asm__ volatile("csrw pmpaddr0, %0" : : "r"(0xFFFFFFFFu));
    __asm__ volatile("csrw pmpcfg0, %0" : : "r"(0x1Fu));
    __asm__ volatile("csrw satp, %0" : : "r"((1u << 31) | ((uint32_t)root >> 12)));
    __asm__ volatile("sfence.vma");
    uint32_t ms;
    __asm__ volatile("csrr %0, mstatus" : "=r"(ms));
    ms = (ms & ~(3u << 11)) | (1u << 11);       /* MPP = S */
    __asm__ volatile("csrw mstatus, %0" : : "r"(ms));
    __asm__ volatile("csrw mepc, %0" : : "r"(s_main));
    __asm__ volatile("mret");
    return 0;
}
