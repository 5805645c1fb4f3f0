/*
 * TL loads and stores to MMIO (-cpu rv64,xtl=on), using the virt machine's
 * ns16550 UART at 0x10000000.  Rule under test: TL memory accesses to MMIO
 * are done byte by byte, in slice order (docs/isa.md 5.2: loads read and
 * stores write in scan order, each byte a separate access), and a faulting
 * instruction has no effect (checks before any access).
 *
 * Observing order: in loopback mode (MCR bit 4) with the FIFOs on, every
 * byte written to THR is received: RBR then returns the bytes in the order
 * they were written, and each RBR read pops one byte.
 * Observing width: the UART model handles a wider access as ONE register
 * access (offset of the first byte, value & 0xff; reads zero-extended), so a
 * 2-byte TL access at offset 6 reaches both MSR (6) and SCR (7) only if it is
 * done byte by byte.
 * A line written to THR by one tl.store (loopback off) is checked by run.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

#define UREG ((volatile uint8_t *)UART0_BASE)
#define RBR 0
#define THR 0
#define FCR 2
#define MCR 4
#define LSR 5
#define MSR 6
#define SCR 7
#define LSR_DR 0x01
#define UNASSIGNED (UART0_BASE + 0x800)     /* between UART0 (0x100 B) and virtio-mmio */

static uint8_t buf[1024], want[1024];

/* No printf between loop_on() and loop_off(): the console is looped back. */
static void loop_on(void)
{
    UREG[FCR] = 0x07;           /* FIFOs on, both cleared */
    UREG[MCR] = 0x10;           /* loopback */
}

static void loop_off(void)
{
    for (int i = 0; i < 64 && (UREG[LSR] & LSR_DR); i++) {
        (void)UREG[RBR];
    }
    UREG[MCR] = 0x00;
    UREG[FCR] = 0x06;           /* FIFOs off (cleared) */
}

/* Reads up to n bytes from RBR while DR is set; returns the count. */
static int drain(uint8_t *out, int n)
{
    int k = 0;

    while (k < n && (UREG[LSR] & LSR_DR)) {
        out[k++] = UREG[RBR];
    }
    return k;
}

static void setup8(unsigned d0, uint32_t w, int32_t p)
{
    tl_setup(TL_TYPE_INT8, d0, 1, w, w, p);
}

/* results of the looped-back cases, checked after loop_off() */
struct res {
    int traps;
    int n;
    uint8_t got[32];
    int dr_after;
};

static const uint8_t msg8[8] = { 'T', 'L', '>', 'U', 'A', 'R', 'T', '!' };

/* tl.store of 8 one-byte slices to THR (P = 0): bytes come back in slice order */
static long store_order(long unused)
{
    struct res *r = (struct res *)unused;
    uint64_t t = mtraps.count;

    memset(buf, 0, sizeof(buf));
    memcpy(buf, msg8, 8);
    tl_fill(1, buf);
    setup8(8, 1, 0);
    loop_on();
    exec_word(W_STORE(1, 0, GPR_T0), UART0_BASE + THR, 0);
    r->n = drain(r->got, 32);
    r->dr_after = UREG[LSR] & LSR_DR;
    loop_off();
    r->traps = (int)(mtraps.count - t);
    return 0;
}

/* 8 bytes looped back, then one tl.load of 8 one-byte slices from RBR (P = 0) */
static long load_order(long unused)
{
    struct res *r = (struct res *)unused;
    uint64_t t = mtraps.count;

    tl_fill_byte(2, 0xEE);
    setup8(8, 1, 0);
    loop_on();
    for (int i = 0; i < 8; i++) {
        UREG[THR] = (uint8_t)('a' + i);
    }
    exec_word(W_LOAD(2, 0, GPR_T0), UART0_BASE + RBR, 0);
    r->dr_after = UREG[LSR] & LSR_DR;
    loop_off();
    r->traps = (int)(mtraps.count - t);
    return 0;
}

static void check_store_order(const char *mode)
{
    struct res r;
    int ok;

    memset(&r, 0, sizeof(r));
    if (!strcmp(mode, "M-mode")) {
        store_order((long)&r);
    } else {
        ok = run_in(!strcmp(mode, "S-mode") ? MODE_S : MODE_U, store_order, (long)&r) == 0;
        if (!ok) r.traps = 99;
    }
    ok = r.traps == 0 && r.n == 8 && !memcmp(r.got, msg8, 8) && !r.dr_after;
    if (!ok) diag("got: traps %d, %d bytes back: %.8s, DR after %d", r.traps, r.n, (char *)r.got, r.dr_after);
    check(ok, "MMIO %s: tl.store int8 [8,1,1] W=1 P=0 to the UART THR (loopback) sends \"TL>UART!\" "
          "as 8 single bytes in slice order", mode);
}

static void check_load_order(const char *mode)
{
    struct res r;
    int ok;

    memset(&r, 0, sizeof(r));
    if (!strcmp(mode, "M-mode")) {
        load_order((long)&r);
    } else {
        ok = run_in(!strcmp(mode, "S-mode") ? MODE_S : MODE_U, load_order, (long)&r) == 0;
        if (!ok) r.traps = 99;
    }
    memset(want, 0, 1024);
    memcpy(want, "abcdefgh", 8);
    ok = r.traps == 0 && !r.dr_after;
    ok = reg_is(2, want, "MMIO load") && ok;
    if (!ok) diag("got: traps %d, DR after %d", r.traps, r.dr_after);
    check(ok, "MMIO %s: tl.load int8 [8,1,1] W=1 P=0 from the UART RBR pops the 8 looped-back bytes "
          "\"abcdefgh\" into bytes 0..7 in slice order (FIFO then empty)", mode);
}

int main(void)
{
    struct res r;
    int ok;
    uint64_t t;

    diag("test_mmio: TL accesses to the ns16550 UART are byte by byte in slice order");

    check_store_order("M-mode");
    check_store_order("S-mode");
    check_store_order("U-mode");
    check_load_order("M-mode");
    check_load_order("S-mode");
    check_load_order("U-mode");

    /* masked store: slices 1, 2, 4, 5, 7 */
    memset(&r, 0, sizeof(r));
    memset(buf, 0, sizeof(buf));
    memcpy(buf, "01234567", 8);
    tl_fill(1, buf);
    setup8(8, 1, 0);
    tl_csr_write(TL_CSR_TMASK_LS, 0xB6);
    t = mtraps.count;
    loop_on();
    exec_word(W_MSTORE(1, 0, GPR_T0), UART0_BASE + THR, 0);
    r.n = drain(r.got, 32);
    loop_off();
    ok = mtraps.count == t && r.n == 5 && !memcmp(r.got, "12457", 5);
    if (!ok) diag("got %d bytes: %.*s", r.n, r.n, (char *)r.got);
    check(ok, "MMIO: tl.mstore mask=0xb6 to THR sends only slices 1,2,4,5,7 (\"12457\"), in order");

    /* masked load: 5 bytes queued, mask 0x99 pops 4 of them into slices 0, 3, 4, 7 */
    tl_fill_byte(2, 0xEE);
    setup8(8, 1, 0);
    tl_csr_write(TL_CSR_TMASK_LS, 0x99);
    t = mtraps.count;
    loop_on();
    for (int i = 0; i < 5; i++) UREG[THR] = (uint8_t)('v' + i);
    exec_word(W_MLOAD(2, 0, GPR_T0), UART0_BASE + RBR, 0);
    r.n = drain(r.got, 32);
    loop_off();
    memset(want, 0, 1024);
    want[0] = 'v'; want[3] = 'w'; want[4] = 'x'; want[7] = 'y';
    ok = mtraps.count == t && r.n == 1 && r.got[0] == 'z';
    ok = reg_is(2, want, "mload MMIO") && ok;
    check(ok, "MMIO: tl.mload mask=0x99 from RBR with \"vwxyz\" queued reads v,w,x,y into slices "
          "0,3,4,7 (one RBR read per selected slice), leaving \"z\"");

    /* width: a 2-byte store at offset 6 must reach SCR (offset 7) */
    UREG[SCR] = 0x11;
    memset(buf, 0, sizeof(buf));
    buf[0] = 0x00; buf[1] = 0x5C;
    tl_fill(1, buf);
    setup8(1, 2, 2);
    t = mtraps.count;
    exec_word(W_STORE(1, 0, GPR_T0), UART0_BASE + MSR, 0);
    ok = mtraps.count == t && UREG[SCR] == 0x5C;
    check(ok, "MMIO: tl.store int8 [1,1,2] W=2 at UART+6 writes MSR then SCR as two byte "
          "accesses: SCR = 0x5c (got %#x)", UREG[SCR]);

    /* width: a 2-byte load at offset 6 reads MSR (0 in loopback) then SCR */
    UREG[SCR] = 0xA7;
    tl_fill_byte(2, 0xEE);
    setup8(1, 2, 2);
    t = mtraps.count;
    loop_on();
    exec_word(W_LOAD(2, 0, GPR_T0), UART0_BASE + MSR, 0);
    loop_off();
    memset(want, 0, 1024);
    want[1] = 0xA7;
    ok = mtraps.count == t;
    ok = reg_is(2, want, "2-byte MMIO load") && ok;
    check(ok, "MMIO: tl.load int8 [1,1,2] W=2 at UART+6 (loopback) reads MSR = 0 and SCR = 0xa7 "
          "as two byte accesses");

    /* all-or-nothing with MMIO: slice 1 faults, slice 0 (SCR) must not be written */
    UREG[SCR] = 0x11;
    memset(buf, 0, sizeof(buf));
    buf[0] = 0x99; buf[1] = 0x98;
    tl_fill(1, buf);
    setup8(2, 1, (int32_t)(UNASSIGNED - (UART0_BASE + SCR)));
    traps_reset();
    exec_word(W_STORE(1, 0, GPR_T0), UART0_BASE + SCR, 0);
    ok = mtraps.count == 1 && mtraps.cause == CAUSE_STORE_ACCESS && mtraps.tval == UNASSIGNED;
    if (!ok) diag("got: %lu trap(s), mcause %lu, mtval %#lx", (unsigned long)mtraps.count,
                  (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    check(ok, "MMIO: tl.store int8 [2,1,1] W=1 slice 0 -> UART SCR, slice 1 -> unassigned %#lx: "
          "store access fault, mcause 7, mtval = %#lx", (unsigned long)UNASSIGNED,
          (unsigned long)UNASSIGNED);
    check(UREG[SCR] == 0x11, "MMIO: after that faulting tl.store the SCR still holds 0x11 (slice 0 "
          "not written: all-or-nothing; got %#x)", UREG[SCR]);

    /* all-or-nothing with a read side effect: slice 0 would pop RBR */
    tl_fill_byte(2, 0xEE);
    setup8(2, 1, (int32_t)(UNASSIGNED - UART0_BASE));
    traps_reset();
    loop_on();
    UREG[THR] = 'Q';
    exec_word(W_LOAD(2, 0, GPR_T0), UART0_BASE + RBR, 0);
    r.n = drain(r.got, 32);
    loop_off();
    ok = mtraps.count == 1 && mtraps.cause == CAUSE_LOAD_ACCESS && mtraps.tval == UNASSIGNED;
    if (!ok) diag("got: %lu trap(s), mcause %lu, mtval %#lx", (unsigned long)mtraps.count,
                  (unsigned long)mtraps.cause, (unsigned long)mtraps.tval);
    check(ok, "MMIO: tl.load int8 [2,1,1] slice 0 <- UART RBR, slice 1 <- unassigned %#lx: load "
          "access fault, mcause 5, mtval = %#lx", (unsigned long)UNASSIGNED, (unsigned long)UNASSIGNED);
    memset(want, 0xEE, 1024);
    ok = r.n == 1 && r.got[0] == 'Q';
    if (!ok) diag("got %d byte(s) left in the FIFO", r.n);
    ok = reg_is(2, want, "faulting MMIO load") && ok;
    check(ok, "MMIO: that faulting tl.load did not read RBR (\"Q\" still queued) and left tl2 unchanged");

    /* a line for run.sh, written to THR by one tl.store (loopback off) */
    {
        static const char line[] = "TL-MMIO tl.store -> THR ok\n";
        int n = (int)sizeof(line) - 1;
        memset(buf, 0, sizeof(buf));
        memcpy(buf, line, n);
        tl_fill(1, buf);
        setup8(n, 1, 0);
        diag("the next line is written by one tl.store of %d one-byte slices to THR:", n);
        t = mtraps.count;
        exec_word(W_STORE(1, 0, GPR_T0), UART0_BASE + THR, 0);
        check(mtraps.count == t, "MMIO: tl.store of the %d-byte line to THR did not trap", n);
    }
    return 0;
}
