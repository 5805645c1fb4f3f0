/*
 * The TensorLoad state in riscv64 Linux signal frames (qemu-riscv64 and the
 * TL-QEMU Linux kernel write the same frame; docs/abi.md).
 *
 * Linux's riscv sigcontext ends in an extension area (sc_extdesc): a chain
 * of records, each starting with a header {magic, size} (size counts the
 * header), ended by a header with magic 0.  It is where Linux saves the
 * vector state.  A thread whose TL state is in use (it executed a TL
 * instruction or accessed a TL CSR since exec; clone and fork inherit this)
 * gets one record with magic TL_SIGCONTEXT_MAGIC holding its TL state;
 * other threads get none.  rt_sigreturn restores the TL state from the
 * record, so a handler may use TL freely, and may inspect or edit the saved
 * state (as it may edit the saved GPRs).  A record with a wrong size, or an
 * unknown record, makes rt_sigreturn deliver SIGSEGV.
 *
 *     #include "tl/tl_signal.h"
 *     static void handler(int sig, siginfo_t *si, void *uc)
 *     {
 *         struct tl_sigcontext *saved = tl_sigcontext_find(uc);
 *         if (saved)          // the interrupted code was using TL
 *             ... saved->csr[TL_SIGCONTEXT_TSHAPE], saved->reg[1][0] ...
 *     }
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TL_SIGNAL_H
#define TL_TL_SIGNAL_H

#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#define TL_SIGCONTEXT_MAGIC 0x314c5458u /* "XTL1" in memory order */
#define TL_SIGCONTEXT_END_MAGIC 0u

/* Same layout as Linux's struct __riscv_ctx_hdr. */
struct tl_ctx_hdr {
    uint32_t magic;
    uint32_t size;
};

/* Index of csr[]: CSR number 0x800 + i. */
enum {
    TL_SIGCONTEXT_TTYPE = 0,
    TL_SIGCONTEXT_TSHAPE = 1,
    TL_SIGCONTEXT_TMASK_LS = 2,
    TL_SIGCONTEXT_TMASK_CONCAT_1 = 3,
    TL_SIGCONTEXT_TMASK_CONCAT_2 = 4,
    TL_SIGCONTEXT_TMASK_LOAD_STRIDE = 5,
    TL_SIGCONTEXT_TMASK_LOAD_WIDTH = 6,
    TL_SIGCONTEXT_TVALID = 7,
    TL_SIGCONTEXT_TINIT = 8,   /* the initialized flags of 0x800..0x807 */
    TL_SIGCONTEXT_CSRS = 9,
};

struct tl_sigcontext {
    struct tl_ctx_hdr hdr;          /* TL_SIGCONTEXT_MAGIC, sizeof(struct tl_sigcontext) */
    uint32_t csr[TL_SIGCONTEXT_CSRS]; /* what csrr of 0x800 + i returned */
    uint32_t reserved[3];           /* 0 */
    uint8_t reg[32][1024];          /* tl0 .. tl31 */
};

#ifdef __cplusplus
static_assert(sizeof(struct tl_sigcontext) == 32824, "TL signal record size");
#else
_Static_assert(sizeof(struct tl_sigcontext) == 32824, "TL signal record size");
#endif

/* The first header of the chain: the last 8 bytes of the mcontext. */
static inline struct tl_ctx_hdr *tl_sigcontext_chain(void *ucontext)
{
    ucontext_t *uc = (ucontext_t *)ucontext;

    return (struct tl_ctx_hdr *)((char *)&uc->uc_mcontext + sizeof(uc->uc_mcontext) -
                                 sizeof(struct tl_ctx_hdr));
}

/*
 * The TL record of a handler's third argument (SA_SIGINFO), or NULL when
 * the interrupted thread was not using TL.  Walks the chain past other
 * records (the vector state under Linux).
 */
static inline struct tl_sigcontext *tl_sigcontext_find(void *ucontext)
{
    char *p = (char *)tl_sigcontext_chain(ucontext);

    for (int n = 0; n < 16; n++) {
        struct tl_ctx_hdr *h = (struct tl_ctx_hdr *)p;

        if (h->magic == TL_SIGCONTEXT_END_MAGIC || h->size < sizeof(*h)) {
            return NULL;
        }
        if (h->magic == TL_SIGCONTEXT_MAGIC) {
            return h->size == sizeof(struct tl_sigcontext) ? (struct tl_sigcontext *)p : NULL;
        }
        p += h->size;
    }
    return NULL;
}

#endif /* TL_TL_SIGNAL_H */
