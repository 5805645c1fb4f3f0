/*
 * Two harts under -smp 2 with MTTCG (-accel tcg,thread=multi), started by
 * bench/baremetal/smp_start.S: hart h runs 3000 + 1000*h tl.load of tshape
 * [4,16,16] int8 with W = 64 * (h + 1) bytes per slice, so hart 0 moves
 * 3000*4*64 bytes and hart 1 4000*4*128.  Hart 0 waits for hart 1, prints
 * "smp done" and ends the run through the test finisher (exit 0).
 */
#include <stdint.h>

#include "baremetal/virt.h"
#include "tl/tl_insn.h"

static uint8_t buf[2][1024] __attribute__((aligned(64)));
static volatile uint32_t finished[2];

void smp_main(unsigned long hart);
void smp_main(unsigned long hart)
{
    if (hart > 1) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64 * (hart + 1));
    for (unsigned long i = 0; i < 3000 + 1000 * hart; i++) {
        tl_load(1, 0, buf[hart]);
    }
    __atomic_store_n(&finished[hart], 1, __ATOMIC_SEQ_CST);
    if (hart == 1) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    while (!__atomic_load_n(&finished[1], __ATOMIC_SEQ_CST)) {
    }
    virt_puts("smp done\n");
    virt_exit(0);
}
