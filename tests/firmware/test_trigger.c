/*
 * Debug triggers (Sdtrig mcontrol, action 0: breakpoint exception) on the
 * bytes of a TL load or store of a whole register that crosses a page, in
 * M-mode with -cpu rv64,xtl=on.  docs/isa.md 5.2: the instruction is all or
 * nothing, so the breakpoint is taken before it changes anything.  Each
 * case runs twice:
 *   "skip":  the handler disarms the trigger and skips the instruction:
 *            one breakpoint (mcause 3), the TLReg keeps its fill (load) or
 *            no byte of memory was stored (store);
 *   "retry": the handler disarms the trigger and returns to the same pc:
 *            one breakpoint, then the instruction completes.
 * A trigger on the byte right after the access never fires.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

#define CSR_TSELECT 0x7A0
#define CSR_TDATA1  0x7A1
#define CSR_TDATA2  0x7A2
#define MCONTROL    (2UL << 60)     /* type 2, no access selected: disarmed */
#define MC_M        (1UL << 6)
#define MC_STORE    (1UL << 1)
#define MC_LOAD     (1UL << 0)
#define CAUSE_BREAKPOINT 3

static uint8_t area[3 * 4096] __attribute__((aligned(4096)));
static uint8_t got[1024], data[1024];
static int retry, hits;

static int on_breakpoint(struct frame *f)
{
    if (f->cause != CAUSE_BREAKPOINT) {
        return 0;
    }
    csr_write(CSR_TDATA1, MCONTROL);
    hits++;
    if (!retry) {
        f->epc += 4;
    }
    return 1;
}

static void arm(const uint8_t *byte, unsigned long access)
{
    csr_write(CSR_TSELECT, 0);
    csr_write(CSR_TDATA1, MCONTROL);
    csr_write(CSR_TDATA2, (uintptr_t)byte);
    csr_write(CSR_TDATA1, MCONTROL | MC_M | access);
}

/* The access: 1024 bytes at area + 4096 - 512, across the first page boundary. */
static uint8_t *const start = area + 4096 - 512;

static void load_case(const char *where, const uint8_t *byte, int fires)
{
    for (retry = 0; retry < 2; retry++) {
        for (size_t i = 0; i < sizeof(area); i++) {
            area[i] = mem_pat(i);
        }
        tl_fill_byte(1, 0x55);
        hits = 0;
        traps_reset();
        arm(byte, MC_LOAD);
        exec_word(W_LOAD(1, 0, GPR_T0), (uintptr_t)start, 0);
        csr_write(CSR_TDATA1, MCONTROL);
        tl_dump(1, got);
        int loaded = 1, untouched = 1;
        for (int b = 0; b < 1024; b++) {
            loaded &= got[b] == mem_pat((size_t)(start - area) + b);
            untouched &= got[b] == 0x55;
        }
        if (!fires) {
            check(hits == 0 && mtraps.count == 0 && loaded,
                  "load trigger on %s: no breakpoint, tl1 loaded (%s run)", where,
                  retry ? "retry" : "skip");
        } else if (!retry) {
            check(hits == 1 && mtraps.cause == CAUSE_BREAKPOINT && untouched,
                  "load trigger on %s, skipped: one breakpoint (%d), tl1 keeps its 0x55 fill", where,
                  hits);
        } else {
            check(hits == 1 && loaded, "load trigger on %s, retried: one breakpoint (%d), then tl1 loaded",
                  where, hits);
        }
    }
}

static void store_case(const char *where, const uint8_t *byte, int fires)
{
    for (int b = 0; b < 1024; b++) {
        data[b] = (uint8_t)(b * 3 + 1);
    }
    for (retry = 0; retry < 2; retry++) {
        memset(area, 0, sizeof(area));
        tl_fill(2, data);
        hits = 0;
        traps_reset();
        arm(byte, MC_STORE);
        exec_word(W_STORE(2, 0, GPR_T0), (uintptr_t)start, 0);
        csr_write(CSR_TDATA1, MCONTROL);
        int stored = 1, untouched = 1;
        for (size_t i = 0; i < sizeof(area); i++) {
            size_t off = i - (size_t)(start - area);
            int inside = i >= (size_t)(start - area) && off < 1024;
            stored &= area[i] == (inside ? data[off] : 0);
            untouched &= area[i] == 0;
        }
        if (!fires) {
            check(hits == 0 && mtraps.count == 0 && stored,
                  "store trigger on %s: no breakpoint, the register stored (%s run)", where,
                  retry ? "retry" : "skip");
        } else if (!retry) {
            check(hits == 1 && mtraps.cause == CAUSE_BREAKPOINT && untouched,
                  "store trigger on %s, skipped: one breakpoint (%d), no byte stored", where, hits);
        } else {
            check(hits == 1 && stored, "store trigger on %s, retried: one breakpoint (%d), then stored",
                  where, hits);
        }
    }
}

int main(void)
{
    diag("test_trigger: Sdtrig load/store triggers on a TL access across a page, all-or-nothing");
    m_fixup = on_breakpoint;
    load_case("byte 612 (second page)", start + 612, 1);
    load_case("byte 0", start, 1);
    load_case("byte 1023", start + 1023, 1);
    load_case("byte 1024 (after the access)", start + 1024, 0);
    store_case("byte 612 (second page)", start + 612, 1);
    store_case("byte 511 (first page)", start + 511, 1);
    store_case("byte 1024 (after the access)", start + 1024, 0);
    m_fixup = NULL;
    return 0;
}
