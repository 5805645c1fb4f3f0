/*
 * Bare-metal guest for the gdb and migration tests (-M virt -bios none).
 * It puts known TL state in place, reaches `checkpoint` (a gdb breakpoint),
 * spins long enough to be stopped and migrated, then checks that the TL
 * state is what it set (plus an edit gdb may have made) and reports PASS or
 * FAIL on the UART before ending the run through the test finisher.
 */
#include <stdint.h>
#include "baremetal/virt.h"
#include "tl/tl_insn.h"

static uint8_t data[1024] __attribute__((aligned(64)));
static uint8_t out[1024] __attribute__((aligned(64)));
/* gdb sets this when it writes 0x42 to byte 5 of tl3. */
volatile uint32_t gdb_edited_tl3;
/*
 * Guest time (CLINT mtime, 10 MHz) to wait before checking: the migration
 * test stops the VM inside this window.  Virtual time stops with the VM and
 * migrates with it, so the window is the guest's, not the host's.
 */
volatile uint64_t spin_ticks = 30000000;
#define MTIME ((volatile uint64_t *)0x0200bff8)

void __attribute__((noinline)) checkpoint(void)
{
    __asm__ volatile("" ::: "memory");
}

static int store_equals(const uint8_t *want, int n)
{
    for (int i = 0; i < n; i++) {
        if (out[i] != want[i]) {
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    static uint8_t want[1024];
    int ok = 1;

    for (int i = 0; i < 1024; i++) {
        data[i] = (uint8_t)(i * 13 + 1);
    }
    /* int8 [8,1,128] covers the whole register; tmask_ls selects slices 1 and 6. */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(8, 1, 128));
    tl_csr_write(TL_CSR_TMASK_LS, 0x42);
    tl_load(1, 0, data);
    tl_addi(2, 1, 5);
    checkpoint();
    uint64_t start = *MTIME;
    while (*MTIME - start < spin_ticks) {
    }

    /* tl1 = data; tl2 = data + 5 saturated; tl3 = 0 unless gdb edited byte 5. */
    tl_store(1, 0, out);
    ok &= store_equals(data, 1024);
    for (int i = 0; i < 1024; i++) {
        want[i] = data[i] > 250 ? 255 : data[i] + 5;
    }
    tl_store(2, 0, out);
    ok &= store_equals(want, 1024);
    for (int i = 0; i < 1024; i++) {
        want[i] = 0;
    }
    if (gdb_edited_tl3) {
        want[5] = 0x42;
    }
    tl_store(3, 0, out);
    ok &= store_equals(want, 1024);
    /* tl.mstore needs tmask_ls to be initialized: it must still be 0x42. */
    for (int i = 0; i < 1024; i++) {
        out[i] = 0xee;
    }
    tl_mstore(1, 0, out);
    for (int i = 0; i < 1024; i++) {
        want[i] = (i / 128 == 1 || i / 128 == 6) ? data[i] : 0xee;
    }
    ok &= store_equals(want, 1024);
    ok &= tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(8, 1, 128);

    virt_puts(ok ? "TL state check: PASS\n" : "TL state check: FAIL\n");
    virt_exit(ok ? 0 : 1);
}
