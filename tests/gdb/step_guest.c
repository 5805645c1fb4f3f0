/*
 * Bare-metal guest for the gdb group (-M virt -bios none): tl_sequence()
 * runs TL CSR writes and TL instructions of every engine, which gdb steps
 * one instruction at a time (tests/gdb/step.py); the host then replays the
 * same words on the reference model (tests/gdb/check_steps.py).  Ends
 * through the test finisher.
 */
#include <stdint.h>
#include "baremetal/virt.h"
#include "tl/tl_insn.h"

uint8_t src[1024] __attribute__((aligned(64)));
uint8_t dst[1024] __attribute__((aligned(64)));

void __attribute__((noinline)) tl_sequence(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 4, 16));      /* S = 64 bytes */
    tl_load(1, 0, src);                                   /* tl1 = src[0..256) */
    tl_load(2, 4, src);                                   /* 4 widths further */
    tl_addi(3, 1, 100);                                   /* saturating */
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x9);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x6);
    tl_concat(2, 4, 1, 2);                                /* along dimension 2 */
    tl_csr_write(TL_CSR_TMASK_LS, 0x5);
    tl_mload(5, 0, src + 512);
    tl_merge(0, 6, 3, 5);
    tl_muls(7, 3, 3);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 8, 16));      /* S = 256 bytes */
    tl_addi(8, 1, -3);
    tl_xpose(0, 1, 1, 3, 0x04080804);                     /* fp16 [4, 8, 8, 4]: D0 <-> D1 */
    tl_store(3, 0, dst);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
}

int main(void)
{
    for (int i = 0; i < 1024; i++) {
        src[i] = (uint8_t)(i * 7 + 3);
    }
    tl_sequence();
    virt_puts("step guest: done\n");
    virt_exit(0);
}
