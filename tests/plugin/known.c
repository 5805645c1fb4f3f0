/*
 * A riscv64 program with TL instruction counts and byte totals known by hand
 * (tests/plugin/known_expected.py lists them, with the arithmetic).  Run under
 * qemu-riscv64 with the tlstat plugin; the test compares the report with the
 * hand-computed numbers.
 *
 *   known          the whole mix: loops, width/stride, masks, a tinit write,
 *                  EngineID, traps skipped by a handler, a restarted store,
 *                  TL CSRs changed in a signal handler and restored by sigreturn,
 *                  the same sites under alternating and under many CSR values,
 *                  one site under alternating element types, one whose
 *                  element type a signal handler changed in the saved state,
 *                  and one under row pitches that alternate, strided and not
 *   known segv     killed by SIGSEGV on its first TL load
 *   known sigill   killed by SIGILL (tshape never written)
 *   known off      a TL instruction on a CPU without xtl (SIGILL)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "tl/tl_insn.h"
#include "tl/tl_signal.h"

static uint8_t buf[4096] __attribute__((aligned(64)));
static uint8_t *restart_page;
static volatile int restarts;

/* SIGSEGV/SIGILL: skip the trapping instruction, except a fault on
 * restart_page, which is made writable so that the instruction runs again. */
static void skip_handler(int sig, siginfo_t *info, void *ucv)
{
    ucontext_t *uc = ucv;
    if (sig == SIGSEGV && restart_page && (uint8_t *)info->si_addr >= restart_page &&
        (uint8_t *)info->si_addr < restart_page + 4096) {
        mprotect(restart_page, 4096, PROT_READ | PROT_WRITE);
        restarts++;
        return;
    }
    uc->uc_mcontext.__gregs[REG_PC] += 4;
}

/* SIGUSR1: uses TL with another element type; sigreturn restores the old one. */
static void usr1_handler(int sig)
{
    (void)sig;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT32);
    for (int i = 0; i < 2; i++) {
        tl_addi(9, 9, 1);
    }
}

/* SIGUSR2: edits the interrupted code's saved ttype; writes no TL CSR itself. */
static void usr2_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig;
    (void)info;
    struct tl_sigcontext *saved = tl_sigcontext_find(uc);
    if (saved) {
        saved->csr[TL_SIGCONTEXT_TTYPE] = TL_TYPE_INT16;
    }
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO;
    sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "mix";

    if (!strcmp(mode, "off")) {
        tl_addi(1, 1, 1);                       /* SIGILL without xtl */
        return 0;
    }
    if (!strcmp(mode, "sigill")) {
        tl_load(1, 0, buf);                     /* tshape not initialized */
        return 0;
    }
    if (!strcmp(mode, "segv")) {
        tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
        tl_load(1, 0, (void *)16);              /* unmapped */
        return 0;
    }

    /* A: int8 [4,16,16], S = 256, W = S, P = W */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    for (int i = 0; i < 100; i++) {
        tl_load(1, 0, buf);
    }
    /* B: W = 100, P = 300 */
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 100);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 300);
    for (int i = 0; i < 50; i++) {
        tl_store(1, 0, buf);
    }
    /* C: slices 0 and 2 */
    tl_csr_write(TL_CSR_TMASK_LS, 0x5);
    for (int i = 0; i < 20; i++) {
        tl_mload(2, 0, buf);
    }
    /* D: tinit keeps ttype and tshape, clears the rest (W and P back to their defaults) */
    tl_csr_write(TL_CSR_TINIT, 0x03);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT16);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 8, 8));     /* S = 128 */
    for (int i = 0; i < 30; i++) {
        tl_load(3, 0, buf);
    }
    for (int i = 0; i < 3; i++) {                       /* EngineID 2 */
        TL__INSN_ADDR(TL_ENC_MEM(2, 0, 0, 3, 0, TL__GPR_ADDR), buf);
    }
    /* E: register-to-register forms, int16 */
    for (int i = 0; i < 40; i++) {
        tl_addi(4, 3, 1);
    }
    for (int i = 0; i < 10; i++) {
        tl_muls(4, 4, 3);
    }
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 4, 4));
    for (int i = 0; i < 5; i++) {
        tl_fillpad(TL_PAD_MAX, 5, 3);
    }
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x1);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x1);
    for (int i = 0; i < 6; i++) {
        tl_concat(0, 6, 3, 4);
    }
    for (int i = 0; i < 4; i++) {
        tl_xpose(0, 1, 7, 8, TL_DIMS4(2, 4, 8, 16));    /* 1024 int16 elements = 2048 bytes */
    }
    /* G: traps skipped by the handler */
    install(SIGSEGV, skip_handler);
    install(SIGILL, skip_handler);
    tl_load(1, 0, (void *)16);
    tl_load(1, 0, (void *)32);
    tl_mload(1, 0, buf);                                /* tmask_ls cleared by tinit */
    __asm__ volatile(".insn 4, 0x0000605B");            /* funct3 110: reserved R1 */
    /* H: a store that faults once and is restarted */
    restart_page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    tl_store(3, 0, restart_page);
    /* I: the handler's TL use is int32; after sigreturn ttype is int16 again */
    signal(SIGUSR1, usr1_handler);
    raise(SIGUSR1);
    for (int i = 0; i < 5; i++) {
        tl_addi(4, 3, 1);
    }
    printf("known: done, %d restart(s), ttype after the handler 0x%lx\n", restarts,
           tl_csr_read(TL_CSR_TTYPE));
    /*
     * J: the same two sites under widths that alternate, 16, 64, 16, ...
     * (values computed at run time), then one site under twelve widths in
     * turn, more CSR values than tlstat keeps decisions for.
     */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT32);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 8, 8));     /* S = 256 */
    tl_csr_write(TL_CSR_TMASK_LS, 0x3);
    for (volatile int i = 0; i < 10; i++) {
        tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, i & 1 ? 64 : 16);
        tl_mstore(3, 0, buf);
        tl_mload(5, 0, buf);
    }
    for (volatile int i = 1; i <= 12; i++) {
        tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 8 * i);
        tl_mload(5, 0, buf);
    }
    /* K: one tl.addi site under ttype int8, int16, int8, ... (six times) */
    for (volatile int i = 0; i < 6; i++) {
        tl_csr_write(TL_CSR_TTYPE, i & 1 ? TL_TYPE_INT16 : TL_TYPE_INT8);
        tl_addi(6, 6, 1);
    }
    /*
     * L: one tl.addi site four times under int8, then four times after a
     * signal handler changed the saved ttype to int16 (restored by sigreturn,
     * with no CSR instruction).
     */
    install(SIGUSR2, usr2_handler);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    for (volatile int round = 0; round < 2; round++) {
        for (volatile int i = 0; i < 4; i++) {
            tl_addi(7, 7, 1);
        }
        if (round == 0) {
            raise(SIGUSR2);
        }
    }
    /*
     * M: one load site under row pitches 512, 768, 256 (= W: contiguous),
     * 512, 768, 256 (values read at run time): four strided loads, two
     * contiguous, each of 4 slices x 256 bytes.
     */
    static volatile uint32_t pitches[3] = {512, 768, 256};
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));   /* S = 256 */
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    for (volatile int i = 0; i < 6; i++) {
        tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, pitches[i % 3]);
        tl_load(8, 0, buf);                              /* rows up to 3 x 768 + 256 <= 4096 */
    }
    return 0;
}
