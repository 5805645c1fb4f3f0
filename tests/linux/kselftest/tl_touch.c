/*
 * LD_PRELOAD library for running Linux's selftests "in a TL-using process":
 * before main, the process loads a non-zero 1 KiB block into tl7 and sets
 * tshape, so that its TL state is in use (lazy and eager mode alike) and
 * every signal frame, core dump and ptrace view of it carries the TL record
 * beside the vector record.  Only for the TL kernel: elsewhere the first TL
 * access raises SIGILL.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "tl/tl_insn.h"

static uint8_t block[1024] __attribute__((aligned(64)));

__attribute__((constructor)) static void tl_touch(void)
{
    for (unsigned i = 0; i < sizeof(block); i++) {
        block[i] = (uint8_t)(i * 7 + 1);
    }
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    tl_load(7, 0, block);
}
