/*
 * What the translator tells the tl.load / tl.store helpers besides the
 * instruction's fields, packed into one helper argument: facts fixed for
 * the translation block (its TB flags) that the helpers' fast path would
 * otherwise work out again at every execution.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TARGET_RISCV_XTL_MEM_FLAGS_H
#define TARGET_RISCV_XTL_MEM_FLAGS_H

#define XTL_MEM_MASKED          (1u << 0)   /* tl.mload / tl.mstore */
/* System mode: */
#define XTL_MEM_PLAIN_ADDR      (1u << 1)   /* RV64 without pointer masking: addresses as they are */
#define XTL_MEM_NO_STATEEN      (1u << 2)   /* M-mode: no Smstateen check applies */
#define XTL_MEM_MMU_IDX_SHIFT   3           /* the TB's data MMU index (TB_FLAGS MEM_IDX) */
#define XTL_MEM_MMU_IDX_MASK    0xfu

/*
 * helper_xtl_load_pair_xpose's desc: the TL registers and immediates of
 * its two loads and the swap pair of its xpose.
 */
#define XTL_PAIR_XPOSE_RS1_SHIFT   0        /* 5 bits: the first load's register, the xpose's tlrs1 */
#define XTL_PAIR_XPOSE_RS2_SHIFT   5        /* 5 bits: the second load's, the xpose's tlrs2 */
#define XTL_PAIR_XPOSE_DIM0_SHIFT  10       /* 2 bits */
#define XTL_PAIR_XPOSE_DIM1_SHIFT  12       /* 2 bits */
#define XTL_PAIR_XPOSE_IMM1_SHIFT  16       /* 8 bits: the first load's imm8 */
#define XTL_PAIR_XPOSE_IMM2_SHIFT  24       /* 8 bits: the second load's */

/*
 * helper_xtl_load_pair_xpose_store's gprs: the GPRs holding the base
 * addresses of the two loads, the xpose's dims and the two stores'
 * bases; its store_imms: the stores' imm8 fields.
 */
#define XTL_PAIR_STORE_GPR_LOAD1_SHIFT   0  /* 5 bits each */
#define XTL_PAIR_STORE_GPR_LOAD2_SHIFT   5
#define XTL_PAIR_STORE_GPR_DIMS_SHIFT    10
#define XTL_PAIR_STORE_GPR_STORE1_SHIFT  15
#define XTL_PAIR_STORE_GPR_STORE2_SHIFT  20
#define XTL_PAIR_STORE_IMM1_SHIFT        0  /* 8 bits each */
#define XTL_PAIR_STORE_IMM2_SHIFT        8

/*
 * env->xtl_mem_ool_taken, which makes cs_base of the TB lookup key: each
 * time a tl.load / tl.store translated with only its whole-register path
 * inline takes another path (trans_xtl.c.inc), it grows by
 * XTL_MEM_OOL_STEP_OTHER (another plan, or file-backed memory in user
 * mode: the program's instructions do meet other cases) or by 1 (a span
 * outside the pages last found mapped, the helper, a fault; a plan to
 * compute, for CSR settings the plan cache did not hold; in M-mode an
 * addend other than the TB's constant); from XTL_MEM_OOL_LIMIT on, TBs
 * are translated with every path inline.
 */
#define XTL_MEM_OOL_LIMIT       64u
#define XTL_MEM_OOL_STEP_OTHER  16u

#endif
