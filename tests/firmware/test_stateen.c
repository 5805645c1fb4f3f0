/*
 * Smstateen gating of TL (docs/isa.md 1.2), with
 * -cpu rv64,xtl=on,smstateen=true,h=true.
 *
 * TL instructions and TL CSR accesses are "custom state", bit C (bit 0) of
 * mstateen0 / hstateen0 / sstateen0:
 *   M            never gated
 *   below M      mstateen0.C = 0 -> illegal instruction (2)
 *   VS, VU       hstateen0.C = 0 -> virtual instruction (22)
 *   VU           sstateen0.C = 0 -> virtual instruction (22)
 *   U (V = 0)    sstateen0.C = 0 -> illegal instruction (2)
 * mtval = the instruction word in every case.  VS/VU are entered with
 * mstatus.MPV = 1 and hgatp = vsatp = Bare.  The loads and stores move a
 * whole register: gated after runs in the same mode that were not, they
 * also test the translated fast path's check.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"

static uint8_t buf[1024] __attribute__((aligned(64)));

static const struct { uint32_t w; const char *what; } probes[] = {
    { TL_ENC_ADDI(1, 1, 0, 1), "tl.addi tl1, tl0, 1" },
    { TL_ENC_ADDI(1, 1, 5, 1), "tl.addi tl1, tl5, 1" },       /* int8: the translated path */
    { TL_ENC_ADDI(1, 1, 5, -1), "tl.addi tl1, tl5, -1" },
    { W_LOAD(1, 0, GPR_T0), "tl.load tl1, 0(t0)" },
    { W_STORE(1, 0, GPR_T0), "tl.store tl1, 0(t0)" },
    { TL_ENC_XPOSE(3, 0, 1, 6, 7, GPR_T1), "tl.xpose.01 tl6, tl7, t1" },
    { CSRR_WORD(0x800, 0), "csrr x0, ttype" },
    { CSRR_WORD(0x806, 0), "csrr x0, tmask_load_width" },
    { CSRW_WORD(0x807, GPR_T1), "csrw tvalid, t1" },
    { CSRR_WORD(0x808, 0), "csrr x0, tinit" },
    { CSRW_WORD(0x808, GPR_T1), "csrw tinit, t1" },   /* last: clears the other flags */
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static const char *state_desc;
static int want_cause;      /* 0: no trap */

/*
 * Valid state for the probes, written in M, where TL is never gated: the
 * whole-register setting of tl_fill, whose load in M leaves the memory plan
 * current, so that a probe load or store in a lower mode whose TLB has buf
 * takes the translated fast path, which must make the same check.
 */
static void tl_state(void)
{
    tl_fill_byte(5, 0);
    tl_csr_write(TL_CSR_TVALID, 0);
}

static long probe_all(long mode)
{
    const char *mn = mode_name((unsigned long)mode);
    int want_priv = (mode & (3UL << MSTATUS_MPP_SHIFT)) == MODE_S ? PRV_S : PRV_U;
    int want_virt = (mode & MSTATUS_MPV) != 0;

    for (unsigned i = 0; i < NPROBES; i++) {
        uint32_t w = probes[i].w;
        int ok;
        if (want_cause) {
            ok = expect_trap(w, (uint64_t)(uintptr_t)buf, TL_DIMS4(2, 4, 16, 16), want_cause, w);
            ok = ok && mtraps.priv == (uint64_t)want_priv && mtraps.virt == (uint64_t)want_virt;
            check(ok, "Smstateen %s, %s: %s traps, mcause %d, mtval = word %#010x (trap taken "
                  "from MPP=%d MPV=%d)", state_desc, mn, probes[i].what, want_cause, w, want_priv,
                  want_virt);
        } else {
            ok = expect_no_trap(w, (uint64_t)(uintptr_t)buf, TL_DIMS4(2, 4, 16, 16));
            check(ok, "Smstateen %s, %s: %s runs", state_desc, mn, probes[i].what);
        }
    }
    return 0;
}

static void probe_in(unsigned long mode, const char *desc, int cause)
{
    long r;

    tl_state();
    state_desc = desc;
    want_cause = cause;
    r = run_in(mode, probe_all, (long)mode);
    check(r == 0, "Smstateen %s, %s: probe code ran to completion (%#lx)", desc, mode_name(mode), r);
}

/* csrr of hstatus (from VS) / sstatus (from VU): virtual instruction, proves V = 1 */
static long virt_probe(long csr)
{
    traps_reset();
    exec_word(CSRR_WORD(csr, 0), 0, 0);
    return (long)(mtraps.count << 16 | mtraps.cause << 8 | mtraps.virt << 4 | mtraps.priv);
}

static void probe_m(const char *desc)
{
    tl_state();
    state_desc = desc;
    want_cause = 0;
    probe_all(3UL << MSTATUS_MPP_SHIFT);
}

int main(void)
{
    unsigned long v;
    int has_h = (csr_read(0x301) >> 7) & 1;       /* misa.H */

    diag("test_stateen: Smstateen C bit gating of TL instructions and CSRs (S, U, VS, VU)");

    csr_write(CSR_MSTATEEN0, 1);
    v = csr_read(CSR_MSTATEEN0);
    check(v & 1, "Smstateen: mstateen0.C (bit 0) is writable with xtl (read %#lx)", v);

    /* mstateen0.C = 0: gated below M */
    csr_write(CSR_MSTATEEN0, 0);
    csr_write(CSR_SSTATEEN0, 1);
    probe_m("mstateen0.C=0");
    probe_in(MODE_S, "mstateen0.C=0", CAUSE_ILLEGAL);
    probe_in(MODE_U, "mstateen0.C=0", CAUSE_ILLEGAL);

    /* mstateen0.C = 1, sstateen0.C = 0: gated in U only */
    csr_write(CSR_MSTATEEN0, 1);
    csr_write(CSR_SSTATEEN0, 0);
    v = csr_read(CSR_SSTATEEN0);
    check((v & 1) == 0, "Smstateen: sstateen0.C reads 0 after csrw 0 (%#lx)", v);
    probe_m("mstateen0.C=1 sstateen0.C=0");
    probe_in(MODE_S, "mstateen0.C=1 sstateen0.C=0", 0);
    probe_in(MODE_U, "mstateen0.C=1 sstateen0.C=0", CAUSE_ILLEGAL);

    /* both set: usable everywhere */
    csr_write(CSR_SSTATEEN0, 1);
    v = csr_read(CSR_SSTATEEN0);
    check(v & 1, "Smstateen: sstateen0.C is writable when mstateen0.C = 1 (read %#lx)", v);
    probe_in(MODE_S, "mstateen0.C=1 sstateen0.C=1", 0);
    probe_in(MODE_U, "mstateen0.C=1 sstateen0.C=1", 0);

    /* gated again right after runs that were not: buf is in the TLB of S and U */
    csr_write(CSR_SSTATEEN0, 0);
    probe_in(MODE_U, "mstateen0.C=1 sstateen0.C=0 (after U ran TL)", CAUSE_ILLEGAL);
    csr_write(CSR_SSTATEEN0, 1);
    probe_in(MODE_U, "mstateen0.C=1 sstateen0.C=1", 0);
    csr_write(CSR_MSTATEEN0, 0);
    probe_in(MODE_S, "mstateen0.C=0 (after S ran TL)", CAUSE_ILLEGAL);
    probe_in(MODE_U, "mstateen0.C=0 (after U ran TL)", CAUSE_ILLEGAL);
    csr_write(CSR_MSTATEEN0, 1);
    csr_write(CSR_SSTATEEN0, 1);

    if (!has_h) {
        check(0, "Smstateen: misa.H is set (run with h=true) so VS/VU can be tested");
        return 0;
    }
    csr_write(CSR_HGATP, 0);
    csr_write(CSR_VSATP, 0);
    long r = run_in(MODE_VS, virt_probe, 0x600);
    check(r == (1 << 16 | CAUSE_VIRTUAL_INSN << 8 | 1 << 4 | PRV_S),
          "VS-mode entry: csrr hstatus there takes a virtual-instruction trap from MPP=S, MPV=1 "
          "(got %#lx)", r);
    r = run_in(MODE_VU, virt_probe, 0x100);
    check(r == (1 << 16 | CAUSE_VIRTUAL_INSN << 8 | 1 << 4 | PRV_U),
          "VU-mode entry: csrr sstatus there takes a virtual-instruction trap from MPP=U, MPV=1 "
          "(got %#lx)", r);

    /* hstateen0.C = 0: virtual instruction in VS and VU */
    csr_write(CSR_MSTATEEN0, 1);
    csr_write(CSR_HSTATEEN0, 0);
    csr_write(CSR_SSTATEEN0, 1);
    probe_in(MODE_S, "mstateen0.C=1 hstateen0.C=0 sstateen0.C=1 (HS-mode)", 0);
    probe_in(MODE_VS, "mstateen0.C=1 hstateen0.C=0 sstateen0.C=1", CAUSE_VIRTUAL_INSN);
    probe_in(MODE_VU, "mstateen0.C=1 hstateen0.C=0 sstateen0.C=1", CAUSE_VIRTUAL_INSN);

    /* hstateen0.C = 1, sstateen0.C = 0: VS fine, VU virtual instruction, U illegal */
    csr_write(CSR_HSTATEEN0, 1);
    v = csr_read(CSR_HSTATEEN0);
    check(v & 1, "Smstateen: hstateen0.C is writable when mstateen0.C = 1 (read %#lx)", v);
    csr_write(CSR_SSTATEEN0, 0);
    probe_in(MODE_VS, "mstateen0.C=1 hstateen0.C=1 sstateen0.C=0", 0);
    probe_in(MODE_VU, "mstateen0.C=1 hstateen0.C=1 sstateen0.C=0", CAUSE_VIRTUAL_INSN);
    probe_in(MODE_U, "mstateen0.C=1 hstateen0.C=1 sstateen0.C=0 (V=0)", CAUSE_ILLEGAL);

    /* all set: VU fine */
    csr_write(CSR_SSTATEEN0, 1);
    probe_in(MODE_VS, "mstateen0.C=1 hstateen0.C=1 sstateen0.C=1", 0);
    probe_in(MODE_VU, "mstateen0.C=1 hstateen0.C=1 sstateen0.C=1", 0);

    /* mstateen0.C = 0 wins over hstateen0: illegal instruction in VS and VU */
    csr_write(CSR_MSTATEEN0, 0);
    probe_in(MODE_VS, "mstateen0.C=0 (hstateen0/sstateen0 written 1)", CAUSE_ILLEGAL);
    probe_in(MODE_VU, "mstateen0.C=0 (hstateen0/sstateen0 written 1)", CAUSE_ILLEGAL);
    probe_m("mstateen0.C=0 (after VS/VU)");
    return 0;
}
