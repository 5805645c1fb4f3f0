/*
 * -cpu rv64,xtl=off: every CUSTOM-2 word and every access to CSRs
 * 0x800-0x808 is an illegal instruction (docs/isa.md 1.1), mtval = the word,
 * in M- and U-mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

static uint8_t buf[1024] __attribute__((aligned(64)));

static const struct { uint32_t w; const char *what; } words[] = {
    { W_LOAD(1, 0, GPR_T0), "tl.load tl1, 0(t0)" },
    { W_MLOAD(1, 0, GPR_T0), "tl.mload tl1, 0(t0)" },
    { W_STORE(1, 0, GPR_T0), "tl.store tl1, 0(t0)" },
    { W_MSTORE(1, 0, GPR_T0), "tl.mstore tl1, 0(t0)" },
    { TL_ENC_MOVE(3, 0, 2, 3, 1, 2), "tl.concat.2 tl3, tl1, tl2" },
    { TL_ENC_MOVE(3, 1, 0, 3, 1, 2), "tl.merge.0 tl3, tl1, tl2" },
    { TL_ENC_ADDI(1, 1, 2, -5), "tl.addi tl1, tl2, -5" },
    { TL_ENC_XPOSE(3, 0, 1, 1, 2, GPR_T1), "tl.xpose.01 tl1, tl2, t1" },
    { TL_ENC_MULS(1, 1, 2, GPR_T1), "tl.muls tl1, tl2, t1" },
    { TL_ENC_FILLPAD(3, 2, 1, 2), "tl.fillpad.max tl1, tl2" },
    { 0x0000605Bu, "CUSTOM-2 funct3=110 (reserved)" },
    { 0xFFFFFFDBu, "CUSTOM-2 all ones" },
    { CSRR_WORD(0x800, 0), "csrr x0, ttype (0x800)" },
    { CSRR_WORD(0x801, 0), "csrr x0, tshape (0x801)" },
    { CSRR_WORD(0x804, 0), "csrr x0, tmask_concat_2 (0x804)" },
    { CSRR_WORD(0x807, 0), "csrr x0, tvalid (0x807)" },
    { CSRW_WORD(0x800, GPR_T1), "csrw ttype, t1" },
    { CSRW_WORD(0x806, GPR_T1), "csrw tmask_load_width, t1" },
    { CSRR_WORD(0x808, 0), "csrr x0, tinit (0x808)" },
    { CSRW_WORD(0x808, GPR_T1), "csrw tinit, t1" },
};

static long run_all(long mode)
{
    for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        check(expect_trap(words[i].w, (uint64_t)(uintptr_t)buf, 2, CAUSE_ILLEGAL, words[i].w),
              "xtl=off, %s: %s (%#010x) is illegal, mcause 2, mtval = word",
              mode_name((unsigned long)mode), words[i].what, words[i].w);
    }
    return 0;
}

int main(void)
{
    long r;

    diag("test_off: with xtl=off every CUSTOM-2 word and TL CSR access is illegal");
    run_all(3UL << MSTATUS_MPP_SHIFT);
    r = run_in(MODE_U, run_all, MODE_U);
    check(r == 0, "xtl=off, U-mode: probe code ran to completion (%#lx)", r);
    return 0;
}
