/*
 * The worked example of docs/isa.md section 5.2 (tl.load / tl.mload), with
 * its source in the L1M local memory (suite.toml: l1m = "64K"):
 *
 *   ttype = int8, tshape = [4, 2, 8] (S = 16), tmask_load_width = 12,
 *   tmask_load_stride = 100, tmask_ls = 0b1011, a0 = base + 0x1000:
 *   tl.mload tl1, 1(a0) reads slice 0 from 0x100C-0x1017, slice 1 from
 *   0x1070-0x107B and slice 3 from 0x1138-0x1143; tl1 receives those 12 bytes
 *   at offsets 0, 16 and 48, and zero at 12-15, 28-47, 60-1023.
 */
#include "fw.h"
#include "tl/tl_insn.h"

#define L1M 0x08000000UL           /* -M virt,tl-l1m-size=...: L1M base */

static uint8_t tile[1024] __attribute__((aligned(64)));

/* byte at L1M + off: distinct for every offset used, never zero */
static uint8_t pattern(unsigned long off)
{
    return (uint8_t)((off * 7 + 1) % 251 + 1);
}

/* the whole of tl1 to tile[]: int8 [4, 2, 128], width = stride = 256 */
static void dump_tl1(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    tl_store(1, 0, tile);
}

/* tile[at .. at+12) == L1M[from .. from+12) */
static int slice_is(unsigned at, unsigned long from)
{
    for (unsigned b = 0; b < 12; b++) {
        if (tile[at + b] != pattern(from + b)) {
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    volatile uint8_t *l1m = (volatile uint8_t *)L1M;
    int zeros_ok = 1;

    tap_plan(4);
    for (unsigned long off = 0; off < 0x2000; off++) {
        l1m[off] = pattern(off);
    }
    /* tl1 starts non-zero everywhere, so the zeroing is visible */
    memset(tile, 0xEE, sizeof(tile));
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    tl_load(1, 0, tile);

    /* the example */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 8));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 12);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 100);
    tl_csr_write(TL_CSR_TMASK_LS, 0xB);
    tl_mload(1, 1, L1M + 0x1000);

    dump_tl1();
    tap_check(slice_is(0, 0x100C), "slice 0: L1M+0x100C..0x1017 -> tl1 bytes 0..11");
    tap_check(slice_is(16, 0x1070), "slice 1: L1M+0x1070..0x107B -> tl1 bytes 16..27");
    tap_check(slice_is(48, 0x1138), "slice 3: L1M+0x1138..0x1143 -> tl1 bytes 48..59");
    for (unsigned i = 0; i < 1024; i++) {
        int loaded = (i < 12) || (i >= 16 && i < 28) || (i >= 48 && i < 60);
        if (!loaded && tile[i] != 0) {
            zeros_ok = 0;
        }
    }
    tap_check(zeros_ok, "tl1 bytes 12..15, 28..47, 60..1023 are zero (slice 2 not selected)");
    return tap_failed();
}
