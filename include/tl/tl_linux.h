/*
 * The TensorLoad (xtl) Linux ABI for riscv64 programs: detection through
 * riscv_hwprobe and the ptrace/core-dump register set.  The same numbers are
 * answered by qemu-riscv64 and by the TL-QEMU Linux kernel (docs/abi.md).
 * Signal frames: tl_signal.h.
 *
 *     if (tl_xtl_available() == 0) { fputs("no xtl\n", stderr); exit(1); }
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TL_LINUX_H
#define TL_TL_LINUX_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* riscv_hwprobe key; bit 0 of the value: every CPU of the set has usable xtl 1.0. */
#define TL_HWPROBE_KEY_XTL_0 0x58544c30
#define TL_HWPROBE_XTL (1u << 0)

/* ptrace PTRACE_GETREGSET/PTRACE_SETREGSET and core dump note type. */
#define TL_NT_RISCV_XTL 0x9f0

/* The NT_RISCV_XTL register set: the TL record of a signal frame without its header. */
struct tl_xtl_state {
    uint32_t csr[9];        /* what csrr of CSR 0x800 + i returns; csr[8] = tinit */
    uint32_t reserved[3];   /* 0 */
    uint8_t reg[32][1024];  /* tl0 .. tl31 */
};

#ifndef __NR_riscv_hwprobe
#define __NR_riscv_hwprobe 258
#endif

/*
 * 1 if every CPU has usable xtl, 0 if not, -1 if the system cannot tell
 * (a kernel without TL support answers the key as unknown).
 */
static inline int tl_xtl_available(void)
{
    struct { int64_t key; uint64_t value; } pair = { TL_HWPROBE_KEY_XTL_0, 0 };

    if (syscall(__NR_riscv_hwprobe, &pair, 1, 0, (void *)0, 0) != 0 || pair.key == -1) {
        return -1;
    }
    return (pair.value & TL_HWPROBE_XTL) ? 1 : 0;
}

#endif /* TL_TL_LINUX_H */
