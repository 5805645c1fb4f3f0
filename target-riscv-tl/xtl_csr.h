/*
 * TensorLoad (xtl) CSRs 0x800-0x808: registered in target/riscv's CSR table
 * (as target/riscv/th_csr.c registers T-Head's), for system and user mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TARGET_RISCV_XTL_CSR_H
#define TARGET_RISCV_XTL_CSR_H

/* Called at CPU init: the CSRs exist for every CPU, usable with xtl on. */
void xtl_register_custom_csrs(RISCVCPU *cpu);

/*
 * Called by riscv_csrrw() after a successful access that wrote nothing:
 * csrs/csrc with a zero operand still initialize a TL CSR.
 */
void xtl_csr_note_write(CPURISCVState *env, int csrno);

#endif
