/*
 * A minimal TL program for the Linux demo's initramfs:
 *     scripts/demo.sh --add tests/linux/examples/tl_hello.c
 * Loads 4 rows of 16 bytes into tl1, adds 100 with tl.addi (saturating at
 * 255), stores the result and prints one row.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl/tl_insn.h"

#include <stdint.h>
#include <stdio.h>

int main(void)
{
    static uint8_t in[4][16], out[4][16];
    int bad = 0;

    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 16; j++) {
            in[i][j] = (uint8_t)(i * 50 + j * 3);
        }
    }
    /* Linux does not save TL state: write every CSR the instructions use. */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 1, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 16);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 16);
    tl_load(1, 0, in);
    tl_addi(2, 1, 100);
    tl_store(2, 0, out);

    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 16; j++) {
            unsigned want = in[i][j] + 100u > 255 ? 255 : in[i][j] + 100u;
            bad += out[i][j] != want;
        }
    }
    printf("tl-hello: row 3 after tl.addi +100:");
    for (int j = 0; j < 16; j++) {
        printf(" %u", out[3][j]);
    }
    printf("\ntl-hello: %s\n", bad ? "FAIL" : "OK");
    return bad != 0;
}
