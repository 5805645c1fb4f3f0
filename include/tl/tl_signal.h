/*
 * TL-QEMU's signal-frame ABI for the TensorLoad state (linux-user,
 * qemu-riscv64).  When a signal is delivered to a thread of a CPU with xtl,
 * the interrupted code's TL state is stored in a record right after the
 * rt_sigframe, i.e. at (char *)ucontext + TL_SIGRECORD_UC_OFFSET, and
 * rt_sigreturn restores it from there.  A handler may therefore use TL
 * freely, and may inspect or edit the saved state (as it may edit the saved
 * GPRs).  A record with a wrong magic or size makes rt_sigreturn deliver
 * SIGSEGV, as a damaged frame does.  See docs/abi.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TL_SIGNAL_H
#define TL_TL_SIGNAL_H

#include <stdint.h>

#define TL_SIGRECORD_MAGIC 0x314c5458u /* "XTL1" in memory order */
/* sizeof(QEMU's riscv64 rt_sigframe) - offsetof(rt_sigframe, uc) = 0x340 - 0x80 */
#define TL_SIGRECORD_UC_OFFSET 0x2c0

struct tl_sigrecord {
    uint32_t magic;
    uint32_t size;          /* sizeof(struct tl_sigrecord) */
    uint32_t csr[8];        /* ttype .. tvalid, as CSR 0x800 + i */
    uint32_t csr_initialized; /* bit i: CSR 0x800 + i written since reset */
    uint32_t reserved;
    uint8_t reg[32][1024];  /* tl0 .. tl31 */
};

/* The record of a handler's third argument, or 0 if there is none. */
static inline struct tl_sigrecord *tl_sigrecord_of(void *ucontext)
{
    struct tl_sigrecord *r =
        (struct tl_sigrecord *)((char *)ucontext + TL_SIGRECORD_UC_OFFSET);

    return r->magic == TL_SIGRECORD_MAGIC && r->size == sizeof(*r) ? r : 0;
}

#endif /* TL_TL_SIGNAL_H */
