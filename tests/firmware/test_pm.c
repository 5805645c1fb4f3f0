/*
 * Pointer masking in M-mode (Smmpm, -cpu rv64,xtl=on,smmpm=true,smepmp=true:
 * QEMU keeps mseccfg.PMM only with Smepmp): with
 * mseccfg.PMM = 3 (PMLEN 16) an address's top 16 bits are ignored, TL's
 * included: tl.load and tl.store through a tagged pointer reach the
 * untagged bytes (the same instruction twice: the second finds the page in
 * the TLB).  Before, with PMM = 0, the tagged pointer is an address past the
 * end of physical memory: load and store access faults, nothing stored.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

#define CSR_MSECCFG 0x747
#define MSECCFG_PMM_PMLEN16 (3UL << 32)
#define TAG (0xA5C3UL << 48)

static uint8_t src[1024] __attribute__((aligned(1024)));
static uint8_t dst[1024] __attribute__((aligned(1024)));

static int dst_is(const uint8_t *want, uint8_t fill)
{
    for (int b = 0; b < 1024; b++) {
        uint8_t w = want ? want[b] : fill;
        if (dst[b] != w) {
            diag("dst[%d] is %#x, want %#x", b, dst[b], w);
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    static uint8_t none[1024];
    int ok;

    diag("test_pm: TL loads and stores through pointers tagged in bits 63:48, mseccfg.PMM = 3");
    for (int b = 0; b < 1024; b++) src[b] = mem_pat(b);

    /* PMM is sticky under Smepmp (QEMU's mseccfg), so the unmasked case comes first. */
    tl_fill_byte(2, 0x77);
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    ok = expect_trap(W_LOAD(2, 0, GPR_T0), (uint64_t)(uintptr_t)src | TAG, 0, CAUSE_LOAD_ACCESS,
                     (uint64_t)(uintptr_t)src | TAG);
    memset(none, 0x77, sizeof(none));
    ok = reg_is(2, none, "tl2") && ok;
    check(ok, "PMM=0: a tl.load from src | 0xA5C3 << 48 takes a load access fault at that address, "
          "tl2 unchanged");
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    tl_load(1, 0, src);
    memset(dst, 0xEE, sizeof(dst));
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    ok = expect_trap(W_STORE(1, 0, GPR_T0), (uint64_t)(uintptr_t)dst | TAG, 0, CAUSE_STORE_ACCESS,
                     (uint64_t)(uintptr_t)dst | TAG);
    ok = dst_is(NULL, 0xEE) && ok;
    check(ok, "PMM=0: a tl.store to dst | 0xA5C3 << 48 takes a store access fault, nothing stored");

    __asm__ volatile("csrs %0, %1" : : "i"(CSR_MSECCFG), "r"(MSECCFG_PMM_PMLEN16) : "memory");
    uint64_t pmm = 0;
    __asm__ volatile("csrr %0, %1" : "=r"(pmm) : "i"(CSR_MSECCFG));
    volatile uint8_t *tagged = (volatile uint8_t *)((uintptr_t)src | TAG);
    check((pmm >> 32 & 3) == 3 && tagged[5] == src[5],
          "mseccfg.PMM reads 3 and a scalar load through the tagged pointer reads src (PMM %lu)",
          (unsigned long)(pmm >> 32 & 3));
    for (int round = 1; round <= 2; round++) {
        tl_fill_byte(1, 0x77);
        tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
        ok = expect_no_trap(W_LOAD(1, 0, GPR_T0), (uint64_t)(uintptr_t)src | TAG, 0) &&
             reg_is(1, src, "tl1");
        check(ok, "PMM=3, round %d: tl.load int8 [4,2,128] from src | 0xA5C3 << 48 loads src's 1 KiB",
              round);
        memset(dst, 0xEE, sizeof(dst));
        tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
        ok = expect_no_trap(W_STORE(1, 0, GPR_T0), (uint64_t)(uintptr_t)dst | TAG, 0) && dst_is(src, 0);
        check(ok, "PMM=3, round %d: tl.store of it to dst | 0xA5C3 << 48 writes dst's 1 KiB", round);
    }
    return 0;
}
