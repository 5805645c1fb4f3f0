/*
 * TensorLoad (xtl) CSRs 0x800-0x808.  Their names, numbers and writable
 * bits come from the encoding table (include/tl/xtl-opc.h); the values are
 * kept by the semantic core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "cpu.h"
#include "xtl_csr.h"

static RISCVException xtl_csr_predicate(CPURISCVState *env, int csrno)
{
    if (!riscv_cpu_cfg(env)->ext_xtl) {
        return RISCV_EXCP_ILLEGAL_INST;
    }
#if !defined(CONFIG_USER_ONLY)
    /*
     * gdb and the plugin register API see the TL CSRs whatever mstateen0
     * says: gdbstub lists the CSRs once, before reset, when mstateen0 is
     * still 0 on CPUs with Smstateen (-cpu max).
     */
    if (env->debugger) {
        return RISCV_EXCP_NONE;
    }
    return smstateen_acc_ok(env, 0, SMSTATEEN0_CS);
#else
    return RISCV_EXCP_NONE;
#endif
}

static RISCVException xtl_csr_read(CPURISCVState *env, int csrno, target_ulong *val)
{
    *val = tl_csr_read(&env->xtl, csrno - TL_CSR_ADDR_BASE);
    return RISCV_EXCP_NONE;
}

static RISCVException xtl_csr_write(CPURISCVState *env, int csrno, target_ulong val)
{
    tl_csr_write(&env->xtl, csrno - TL_CSR_ADDR_BASE, val);
    return RISCV_EXCP_NONE;
}

static riscv_csr_operations xtl_csr_ops[] = {
#define XTL_CSR_OPS(sym, name, num, wmask, reset) \
    [num - TL_CSR_ADDR_BASE] = { name, xtl_csr_predicate, xtl_csr_read, xtl_csr_write },
    XTL_CSRS(XTL_CSR_OPS)
#undef XTL_CSR_OPS
};
QEMU_BUILD_BUG_ON(ARRAY_SIZE(xtl_csr_ops) != TL_CSR_ADDR_COUNT);

void xtl_register_custom_csrs(RISCVCPU *cpu)
{
    for (int i = 0; i < ARRAY_SIZE(xtl_csr_ops); i++) {
        riscv_set_csr_ops(TL_CSR_ADDR_BASE + i, &xtl_csr_ops[i]);
    }
}

/*
 * csr_ops write functions are skipped when nothing changes, so riscv_csrrw()
 * tells us here.  tinit has no flag of its own, so this does not apply to it.
 */
void xtl_csr_note_write(CPURISCVState *env, int csrno)
{
    if (csrno >= TL_CSR_ADDR_BASE && csrno < TL_CSR_ADDR_BASE + TL_CSR_COUNT &&
        riscv_cpu_cfg(env)->ext_xtl) {
        unsigned idx = csrno - TL_CSR_ADDR_BASE;

        tl_csr_write(&env->xtl, idx, tl_csr_read(&env->xtl, idx));
    }
}
