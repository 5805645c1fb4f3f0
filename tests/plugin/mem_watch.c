/*
 * For a plugin that watches memory accesses (QEMU's tests/tcg/plugins/
 * libmem.so): 100 tl.load and 100 tl.store of one contiguous KiB each
 * (ttype int8 at reset, tshape [4,16,16], width and pitch unset), each
 * loop run twice so that the instructions' plan is current and their
 * pages known mapped, the case TL-QEMU runs inline when no plugin watches.
 * The plugin must see the 204800 bytes they move.
 */
#include <stdint.h>

#include "tl/tl_insn.h"

static uint8_t buf[2048] __attribute__((aligned(64)));

int main(void)
{
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    for (int i = 0; i < 50; i++) {
        tl_load(1, 0, buf);
        tl_store(1, 0, buf + 1024);
    }
    for (int i = 0; i < 50; i++) {
        tl_load(1, 0, buf);
        tl_store(1, 0, buf + 1024);
    }
    return 0;
}
