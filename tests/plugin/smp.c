/*
 * HARTS harts (-smp HARTS or more; -DHARTS=N, default 2), started by
 * bench/baremetal/smp_start.S: hart h < HARTS runs 3000 + 1000*h tl.load of
 * tshape [4,16,16] int8 with W = 32 * (h + 1) bytes per slice, so hart h
 * moves (3000 + 1000*h) * 4 * 32 * (h + 1) bytes.  Hart 0 waits for the
 * others, prints "smp done" and ends the run through the test finisher
 * (exit 0).  Harts from HARTS on wait for interrupts forever.
 */
#include <stdint.h>

#include "baremetal/virt.h"
#include "tl/tl_insn.h"

#ifndef HARTS
#define HARTS 2
#endif

static uint8_t buf[HARTS][1024] __attribute__((aligned(64)));
static volatile uint32_t finished[HARTS];

void smp_main(unsigned long hart);
void smp_main(unsigned long hart)
{
    if (hart >= HARTS) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 32 * (hart + 1));
    for (unsigned long i = 0; i < 3000 + 1000 * hart; i++) {
        tl_load(1, 0, buf[hart]);
    }
    __atomic_store_n(&finished[hart], 1, __ATOMIC_SEQ_CST);
    if (hart != 0) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    for (unsigned h = 1; h < HARTS; h++) {
        while (!__atomic_load_n(&finished[h], __ATOMIC_SEQ_CST)) {
        }
    }
    virt_puts("smp done\n");
    virt_exit(0);
}
