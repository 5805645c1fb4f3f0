/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * TensorLoad (xtl), the TL-QEMU custom RISC-V extension: its state as user
 * space sees it in signal frames and through ptrace (NT_RISCV_XTL), and its
 * riscv_hwprobe key.
 */
#ifndef _UAPI_ASM_RISCV_XTL_H
#define _UAPI_ASM_RISCV_XTL_H

#include <linux/types.h>

/* Magic of the TL record in the sigcontext extension chain (sc_extdesc). */
#define RISCV_XTL_MAGIC		0x314c5458	/* "XTL1" */

#define RISCV_XTL_NUM_CSRS	9	/* CSRs 0x800..0x808 (0x808 is tinit) */
#define RISCV_XTL_NUM_REGS	32	/* tl0..tl31 */
#define RISCV_XTL_REG_BYTES	1024

/*
 * The whole TL state: what csrr of CSR 0x800 + i returns, and the tile
 * registers.  A signal frame's record is a struct __riscv_ctx_hdr followed
 * by this; the NT_RISCV_XTL regset and core dump note are this alone.
 */
struct __riscv_xtl_state {
	__u32 csr[RISCV_XTL_NUM_CSRS];
	__u32 reserved[3];
	__u8 reg[RISCV_XTL_NUM_REGS][RISCV_XTL_REG_BYTES];
};

/*
 * riscv_hwprobe key: bit 0 of the value is set when every CPU of the set
 * has xtl 1.0 and the kernel lets user space use it.
 */
#define RISCV_HWPROBE_KEY_XTL_0	0x58544c30
#define RISCV_HWPROBE_XTL		(1 << 0)

#endif /* _UAPI_ASM_RISCV_XTL_H */
