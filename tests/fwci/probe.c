/*
 * Firmware images that exercise scripts/tl-fw-run (tests/fwci/run.sh): one
 * behaviour per PROBE_* macro, built with the runtime of examples/firmware-ci.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fw.h"
#include "tl/tl_insn.h"

static void __attribute__((noreturn, unused)) spin(void)
{
    for (;;) {
    }
}

int main(void)
{
#if defined(PROBE_PASS)
    /* a TL round trip: 20 + 22 = 42 in every byte */
    static uint8_t buf[1024] __attribute__((aligned(64)));
    int ok = 1;

    tap_plan(2);
    memset(buf, 20, sizeof(buf));
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    tl_load(1, 0, buf);
    tl_addi(2, 1, 22);
    tl_store(2, 0, buf);
    for (unsigned i = 0; i < sizeof(buf); i++) {
        ok &= buf[i] == 42;
    }
    tap_check(ok, "tl.addi 20 + 22 = 42");
    tap_check(1, "second check");
    return tap_failed();
#elif defined(PROBE_FAIL)
    /* three failed checks: the finisher reports code 3 */
    tap_plan(4);
    tap_check(1, "first passes");
    tap_check(0, "second fails");
    tap_check(0, "third fails");
    tap_check(0, "fourth fails");
    return tap_failed();
#elif defined(PROBE_FINISHER_ONLY)
    fw_puts("no TAP here\n");
    return 0;
#elif defined(PROBE_TAP_OK_FINISHER_FAIL)
    tap_plan(1);
    tap_check(1, "all good, but the firmware exits with code 5");
    return 5;
#elif defined(PROBE_HANG)
    tap_plan(1);
    spin();
#elif defined(PROBE_FLOOD)
    for (;;) {
        fw_puts("flood flood flood flood flood flood flood flood flood flood flood flood\n");
    }
#elif defined(PROBE_BYTES)
    /* every byte value 0..255, then a failing check so the log is attached */
    tap_plan(1);
    for (unsigned v = 0; v < 256; v++) {
        fw_putc((char)v);
    }
    fw_putc('\n');
    tap_check(0, "after every byte value");
    return 1;
#elif defined(PROBE_TAP_NO_FINISHER)
    /* a complete TAP stream, then the firmware spins without the finisher */
    tap_plan(2);
    tap_check(1, "one");
    tap_check(1, "two");
    spin();
#elif defined(PROBE_TAP_NO_PLAN)
    tap_check(1, "one");
    spin();
#elif defined(PROBE_SKIP_TODO)
    tap_plan(3);
    tap_check(1, "plain");
    fw_puts("ok 2 - not applicable here # SKIP no L1M\n");
    fw_puts("not ok 3 - known gap # TODO not written yet\n");
    return 0;
#elif defined(PROBE_SHORT_PLAN)
    tap_plan(5);
    tap_check(1, "one");
    tap_check(1, "two");
    tap_check(1, "three");
    return 0;
#elif defined(PROBE_BAIL_OUT)
    tap_plan(2);
    tap_check(1, "one");
    fw_puts("Bail out! the board is on fire\n");
    return 0;
#elif defined(PROBE_SKIP_ALL)
    fw_puts("1..0 # SKIP needs a board with L0M\n");
    return 0;
#elif defined(PROBE_TIME)
    /* the machine timer (mtime) after some work: with -icount a function of
     * the instructions run, without it of the host's clock */
    volatile uint64_t *mtime = (volatile uint64_t *)0x0200BFF8UL;
    volatile unsigned long sink = 0;

    tap_plan(1);
    for (int r = 0; r < 8; r++) {
        for (unsigned long i = 0; i < 20000; i++) {
            sink += i;
        }
        fw_puts("# mtime ");
        fw_put_dec(*mtime);
        fw_putc('\n');
    }
    tap_check(1, "read mtime 8 times");
    return 0;
#else
#error "define one PROBE_* macro"
#endif
}
