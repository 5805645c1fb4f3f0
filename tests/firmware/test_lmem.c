/*
 * L1M / L0M local memories (-M virt,tl-l1m-size=256K,tl-l0m-size=256K):
 * RAM at 0x08000000 (L1M) and 0x09000000 (L0M).  TL loads from L1M and
 * stores to L0M, in M-, S- and U-mode; scalar accesses check the data; a slice
 * running past the end of either memory takes an access fault at its end.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

#ifndef L1M
#define L1M 0x08000000UL
#endif
#ifndef L0M
#define L0M 0x09000000UL
#endif
#define LSIZE (256UL << 10)

static uint8_t want[1024];

static uint8_t l1_pat(uint64_t off) { return (uint8_t)(off * 13 + (off >> 10) + 0x21); }

static void fill_l1m(void)
{
    volatile uint8_t *p = (volatile uint8_t *)L1M;

    for (uint64_t o = 0; o < LSIZE; o++) p[o] = l1_pat(o);
}

static void fill_l0m(uint8_t v)
{
    volatile uint8_t *p = (volatile uint8_t *)L0M;

    for (uint64_t o = 0; o < LSIZE; o++) p[o] = v;
}

/* L0M must hold v everywhere except [off, off+n), which must equal src */
static int l0m_is(uint8_t v, uint64_t off, const uint8_t *src, uint64_t n)
{
    volatile uint8_t *p = (volatile uint8_t *)L0M;

    for (uint64_t o = 0; o < LSIZE; o++) {
        uint8_t w = (o >= off && o < off + n) ? src[o - off] : v;
        if (p[o] != w) {
            diag("L0M+%#lx is %#x, want %#x", (unsigned long)o, p[o], w);
            return 0;
        }
    }
    return 1;
}

/* L1M[0x1000..0x1400) -> tl1 -> L0M[0x2000..0x2400) */
static long copy_block(long unused)
{
    (void)unused;
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    if (!expect_no_trap(W_LOAD(1, 0, GPR_T0), L1M + 0x1000, 0)) return 1;
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    if (!expect_no_trap(W_STORE(1, 0, GPR_T0), L0M + 0x2000, 0)) return 2;
    return 0;
}

static void check_copy(unsigned long mode, const char *mname)
{
    static uint8_t blk[1024];
    long r;
    int ok;

    fill_l0m(0xEE);
    tl_fill_byte(1, 0x77);
    r = mode ? run_in(mode, copy_block, 0) : copy_block(0);
    for (int b = 0; b < 1024; b++) blk[b] = l1_pat(0x1000 + b);
    ok = r == 0 && reg_is(1, blk, "tl1 from L1M");
    check(ok, "L1M %s: tl.load int8 [4,2,128] W=P=256 from L1M+0x1000 gives L1M bytes 0x1000..0x13ff "
          "(returned %ld)", mname, r);
    check(r == 0 && l0m_is(0xEE, 0x2000, blk, 1024),
          "L0M %s: tl.store of that register to L0M+0x2000 writes exactly L0M+0x2000..0x23ff", mname);
}

/*
 * One tl.load and one tl.store site, the same base register (t0) each time,
 * in M-mode: whole registers alternately from and to DRAM, L1M and L0M,
 * three RAM blocks whose pages have different host addresses.  Translated
 * code that reused the host address the site found before, for another
 * block, would move other bytes.
 */
static uint8_t dram_blk[2][1024] __attribute__((aligned(1024)));

static __attribute__((noinline)) void move_block(const void *from, void *to)
{
    tl_load(4, 0, from);
    tl_store(4, 0, to);
}

static void check_blocks_alternating(void)
{
    static uint8_t want_blk[1024];
    const uint64_t t = mtraps.count;
    int ok = 1;

    fill_l0m(0xEE);
    for (int b = 0; b < 1024; b++) dram_blk[0][b] = (uint8_t)(b * 7 + 3);
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    for (unsigned round = 0; round < 12 && ok; round++) {
        /* L1M -> DRAM, DRAM -> L0M, L0M -> DRAM, ... each from the block the last one wrote */
        const uint64_t l1 = 0x4000 + 0x400 * (round % 4), l0 = 0x8000 + 0x400 * (round % 4);
        switch (round % 3) {
        case 0:
            move_block((const void *)(L1M + l1), dram_blk[1]);
            for (int b = 0; b < 1024; b++) want_blk[b] = l1_pat(l1 + b);
            ok = mem_equal("DRAM block from L1M", dram_blk[1], want_blk, 1024);
            break;
        case 1:
            move_block(dram_blk[1], (void *)(L0M + l0));
            ok = mem_equal("L0M block from DRAM", (const uint8_t *)(L0M + l0), want_blk, 1024);
            break;
        default:
            move_block((const void *)(L0M + l0 - 0x400 * (round % 4 == 0)), dram_blk[0]);
            ok = mem_equal("DRAM block from L0M", dram_blk[0],
                           (const uint8_t *)(L0M + l0 - 0x400 * (round % 4 == 0)), 1024);
            break;
        }
    }
    check(ok && mtraps.count == t,
          "M-mode: one tl.load and one tl.store site with one base register, 12 rounds alternating "
          "between DRAM, L1M and L0M (three RAM blocks): every block moved holds its source's bytes");
}

int main(void)
{
    static uint8_t blk[1024];
    uint64_t t;
    int ok;

    diag("test_lmem: TL loads from L1M (0x08000000) and stores to L0M (0x09000000), 256 KiB each");
    fill_l1m();
    check_copy(0, "M-mode");
    check_copy(MODE_S, "S-mode");
    check_copy(MODE_U, "U-mode");
    check_blocks_alternating();

    /* strided load reaching the last byte of L1M; masked store ending at the last byte of L0M */
    fill_l0m(0xEE);
    tl_fill_byte(2, 0x77);
    tl_setup(TL_TYPE_INT8, 8, 1, 64, 64, 0x1000);
    t = mtraps.count;
    exec_word(W_LOAD(2, 0, GPR_T0), L1M + LSIZE - 7 * 0x1000 - 64, 0);
    memset(want, 0, 1024);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 64; b++)
            want[64 * i + b] = l1_pat(LSIZE - 7 * 0x1000 - 64 + i * 0x1000 + b);
    ok = mtraps.count == t && reg_is(2, want, "strided L1M load");
    check(ok, "L1M: tl.load int8 [8,1,64] P=0x1000 whose slice 7 ends at the last byte of L1M (+0x3ffff)");
    tl_setup(TL_TYPE_INT8, 8, 1, 64, 64, 0x1000);
    tl_csr_write(TL_CSR_TMASK_LS, 0x80);
    t = mtraps.count;
    exec_word(W_MSTORE(2, 0, GPR_T0), L0M + LSIZE - 7 * 0x1000 - 64, 0);
    memcpy(blk, want + 7 * 64, 64);
    ok = mtraps.count == t && l0m_is(0xEE, LSIZE - 64, blk, 64);
    check(ok, "L0M: tl.mstore mask=0x80 of the same geometry writes only slice 7, the last 64 bytes of L0M");

    /* past the end */
    tl_fill_byte(3, 0x77);
    tl_setup(TL_TYPE_INT8, 2, 1, 64, 64, 64);
    traps_reset();
    exec_word(W_LOAD(3, 0, GPR_T0), L1M + LSIZE - 104, 0);
    ok = mtraps.count == 1 && mtraps.cause == CAUSE_LOAD_ACCESS && mtraps.tval == L1M + LSIZE;
    if (!ok) diag("got %lu trap(s), mcause %lu mtval %#lx", (unsigned long)mtraps.count,
                  (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    memset(want, 0x77, 1024);
    ok = reg_is(3, want, "tl3") && ok;
    check(ok, "L1M: tl.load int8 [2,1,64] at end-104 (slice 1 past the end): load access fault, "
          "mcause 5, mtval = 0x08040000, tl3 unchanged");
    fill_l0m(0xEE);
    tl_fill_byte(3, 0x77);
    tl_setup(TL_TYPE_INT8, 2, 1, 64, 64, 64);
    traps_reset();
    exec_word(W_STORE(3, 0, GPR_T0), L0M + LSIZE - 104, 0);
    ok = mtraps.count == 1 && mtraps.cause == CAUSE_STORE_ACCESS && mtraps.tval == L0M + LSIZE;
    if (!ok) diag("got %lu trap(s), mcause %lu mtval %#lx", (unsigned long)mtraps.count,
                  (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    ok = l0m_is(0xEE, 0, blk, 0) && ok;
    check(ok, "L0M: tl.store int8 [2,1,64] at end-104 (slice 1 past the end): store access fault, "
          "mcause 7, mtval = 0x09040000, no byte stored");
    return 0;
}
