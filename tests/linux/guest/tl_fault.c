/*
 * Deliberately faulting TL programs, to show that a bad TL instruction in
 * user space costs the process, not the kernel.
 *
 *   tl-fault segv    tl.load of 1024 bytes starting 512 bytes below an
 *                    unmapped page: load page fault -> SIGSEGV, si_addr = the
 *                    first byte of the unmapped page (first faulting byte)
 *   tl-fault sigill  tl.load with an illegal TL state (tshape [32,1,64]: a
 *                    2048-byte block does not fit a 1024-byte TL register)
 *                    -> illegal-instruction -> SIGILL, si_addr = the pc
 *
 * The handler reports what it got, restores the default action and returns;
 * the instruction is executed again and the process dies of the signal, so
 * the parent shell sees the real signal (exit status 128 + signo).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl/tl_insn.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>

#define PG 4096

static uintptr_t expect_addr;

static void handler(int sig, siginfo_t *info, void *uc)
{
    char buf[200];
    int n;

    (void)uc;
    n = snprintf(buf, sizeof(buf),
                 "tl-fault: caught %s (si_code %d) at address %p, %s\n",
                 sig == SIGSEGV ? "SIGSEGV" : sig == SIGILL ? "SIGILL" : "another signal",
                 info->si_code, info->si_addr,
                 (uintptr_t)info->si_addr == expect_addr ? "as expected"
                                                        : "NOT the expected address");
    if (n > 0) {
        ssize_t w = write(2, buf, (size_t)n);
        (void)w;
    }
    /*
     * On the console the kernel's report of the coming fatal signal would
     * otherwise cut into this line while the UART is still sending it.
     */
    tcdrain(2);
    signal(sig, SIG_DFL);       /* the instruction traps again and kills us */
}

static void install(int sig)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(sig, &sa, NULL);
}

static void fault_segv(void)
{
    uint8_t *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED || munmap(p + PG, PG) != 0) {
        perror("tl-fault: mmap");
        _exit(2);
    }
    memset(p, 0x5a, PG);
    expect_addr = (uintptr_t)(p + PG);
    install(SIGSEGV);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(16, 1, 64));      /* 1024 bytes */
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 64);
    printf("tl-fault: tl.load tl1 of 1024 bytes at %p (the last 512 bytes are unmapped)\n",
           (void *)(p + PG - 512));
    fflush(stdout);
    tl_load(1, 0, p + PG - 512);
}

static void fault_sigill(void)
{
    static uint8_t buf[2048];
    register const void *addr __asm__("t0") = buf;
    unsigned long tmp;

    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(32, 1, 64));      /* 2048 bytes: illegal */
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 64);
    install(SIGILL);
    printf("tl-fault: tl.load tl1 with tshape [32,1,64] (a 2048-byte block, TL registers hold 1024)\n");
    fflush(stdout);
    /* tl.load tl1, 0(t0); its own address goes to expect_addr first. */
    __asm__ volatile("lla %0, 1f\n\t"
                     "sd %0, %1\n"
                     "1:\t.insn 4, %3"
                     : "=&r"(tmp), "=m"(expect_addr), "+r"(addr)
                     : "n"((unsigned long long)TL_ENC_MEM(TL_ENG_LOAD, 0, 0, 1, 0, TL__GPR_ADDR))
                     : "memory");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "segv") == 0) {
        fault_segv();
    } else if (argc == 2 && strcmp(argv[1], "sigill") == 0) {
        fault_sigill();
    } else {
        fprintf(stderr, "usage: tl-fault segv|sigill\n");
        return 2;
    }
    printf("tl-fault: the TL instruction did NOT trap\n");
    return 1;
}
