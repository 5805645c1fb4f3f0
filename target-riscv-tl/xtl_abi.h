/*
 * Numbers of the TensorLoad (xtl) Linux ABI that linux-user shares with the
 * TL-QEMU Linux kernel (docs/abi.md; the kernel's uapi/asm/xtl.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TARGET_RISCV_XTL_ABI_H
#define TARGET_RISCV_XTL_ABI_H

/* Magic of the TL record in the sigcontext extension chain: "XTL1". */
#define XTL_SIGCONTEXT_MAGIC 0x314c5458u

/* riscv_hwprobe key; bit 0 of its value: xtl 1.0 is usable. */
#define XTL_HWPROBE_KEY_XTL_0 0x58544c30
#define XTL_HWPROBE_XTL (1u << 0)

#endif /* TARGET_RISCV_XTL_ABI_H */
