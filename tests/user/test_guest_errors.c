/*
 * Each illegal TL state of docs/isa.md 6.1, one after another, so that
 * tests/user/run.sh can check that -d guest_errors logs the right reason
 * for each (in this order).  The program itself checks that every case
 * raised SIGILL.
 */
#include "tl_test.h"
#include "tl/tl_insn.h"

static uint8_t buf[4096];

int main(void)
{
    tl_trap_install();
    /* 1: tshape uninitialized */
    tl_check(TL_TRAPS(tl_load(1, 0, buf)) == SIGILL, "tl.load before tshape is written: SIGILL");
    /* 2: invalid ttype (two fields set) */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8 | TL_TYPE_INT16);
    tl_check(TL_TRAPS(tl_addi(1, 2, 1)) == SIGILL, "tl.addi with ttype 0x006: SIGILL");
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    /* 3: D0 > 32 for a load */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(33, 1, 4));
    tl_check(TL_TRAPS(tl_load(1, 0, buf)) == SIGILL, "tl.load with D0 = 33: SIGILL");
    /* 4: block over 1024 bytes */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(3, 2, 255));
    tl_check(TL_TRAPS(tl_load(1, 0, buf)) == SIGILL, "tl.load with 3 slices of 510 bytes (1530 > 1024): SIGILL");
    /* 5: W > S */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 1, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 17);
    tl_check(TL_TRAPS(tl_load(1, 0, buf)) == SIGILL, "tl.load with W = 17 > S = 16: SIGILL");
    /* 6: tmask_ls uninitialized for tl.mload */
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 16);
    tl_check(TL_TRAPS(tl_mload(1, 0, buf)) == SIGILL, "tl.mload before tmask_ls is written: SIGILL");
    /* 7: concat masks uninitialized */
    tl_check(TL_TRAPS(tl_concat(0, 1, 2, 3)) == SIGILL, "tl.concat.0 before the concat masks are written: SIGILL");
    /* 8: concat n > Dd */
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x3);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x1);
    tl_check(TL_TRAPS(tl_concat(0, 1, 2, 3)) == SIGILL, "tl.concat.0 selecting 3 slices of D0 = 2: SIGILL");
    /* 9: xpose size != 2048 bytes ([4,8,8,4] int8, the seed's erratum example) */
    tl_check(TL_TRAPS(tl_xpose(2, 3, 1, 2, TL_DIMS4(4, 8, 8, 4))) == SIGILL, "tl.xpose.23 on [4,8,8,4] int8: SIGILL");
    /* 10: xpose with a zero dimension, then an odd D0 */
    tl_check(TL_TRAPS(tl_xpose(0, 1, 1, 2, TL_DIMS4(2, 0, 16, 64))) == SIGILL, "tl.xpose.01 with D1 = 0: SIGILL");
    tl_check(TL_TRAPS(tl_xpose(0, 1, 1, 2, TL_DIMS4(1, 8, 16, 16))) == SIGILL, "tl.xpose.01 with D0 = 1 (odd): SIGILL");
    /* 11: xpose tlrs1 == tlrs2 */
    tl_check(TL_TRAPS(tl_xpose(0, 1, 4, 4, TL_DIMS4(2, 4, 16, 16))) == SIGILL, "tl.xpose.01 tl4, tl4: SIGILL");
    /* 12: fillpad with tvalid uninitialized, then V > D */
    tl_check(TL_TRAPS(tl_fillpad(TL_PAD_ZERO, 1, 2)) == SIGILL, "tl.fillpad.zero before tvalid is written: SIGILL");
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(3, 1, 16));
    tl_check(TL_TRAPS(tl_fillpad(TL_PAD_ZERO, 1, 2)) == SIGILL, "tl.fillpad.zero with V0 = 3 > D0 = 2: SIGILL");
    return tl_test_finish();
}
