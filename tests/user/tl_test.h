/*
 * Minimal test harness for riscv64 guest programs run under qemu-riscv64:
 * TAP-style "ok N - what" lines, traps caught as values, and arbitrary
 * instruction words executed from a trampoline page.
 */
#ifndef TL_TEST_H
#define TL_TEST_H

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static int tl_test_count, tl_test_failed;

static void tl_check(int ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void tl_check(int ok, const char *fmt, ...)
{
    va_list ap;

    tl_test_count++;
    if (!ok) {
        tl_test_failed++;
    }
    printf("%s %d - ", ok ? "ok" : "not ok", tl_test_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static int tl_test_finish(void)
{
    printf("%d passed, %d failed\n", tl_test_count - tl_test_failed, tl_test_failed);
    return tl_test_failed ? 1 : 0;
}

/* ---- traps as values ---- */
static sigjmp_buf tl_trap_jmp;
static volatile int tl_trap_signal;
static void *volatile tl_trap_addr;
static volatile unsigned long tl_trap_pc;       /* the pc of the trapping instruction */

static void tl_trap_handler(int sig, siginfo_t *info, void *uc)
{
    tl_trap_signal = sig;
    tl_trap_addr = info->si_addr;
    tl_trap_pc = ((ucontext_t *)uc)->uc_mcontext.__gregs[0];
    siglongjmp(tl_trap_jmp, 1);
}

static __attribute__((unused)) void tl_trap_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = tl_trap_handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* Runs STMT; evaluates to 0 if it completed, else the signal number it raised. */
#define TL_TRAPS(stmt) __extension__({                  \
    tl_trap_signal = 0;                                 \
    if (sigsetjmp(tl_trap_jmp, 1) == 0) {               \
        stmt;                                           \
    }                                                   \
    tl_trap_signal; })

/* ---- arbitrary instruction words ---- */
static uint32_t *tl_tramp;

/*
 * Executes WORD with t0 = a0_t0 and t1 = a1_t1 (the GPRs tl_insn.h uses for
 * addresses and scalars).  Returns 0 or the signal raised.
 */
static __attribute__((unused)) int tl_exec_word(uint32_t word, unsigned long t0, unsigned long t1)
{
    if (!tl_tramp) {
        tl_tramp = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (tl_tramp == MAP_FAILED) {
            perror("mmap trampoline");
            exit(2);
        }
    }
    tl_tramp[0] = word;
    tl_tramp[1] = 0x00008067; /* ret */
    __builtin___clear_cache((char *)tl_tramp, (char *)(tl_tramp + 2));
    return TL_TRAPS({
        register unsigned long r_t0 __asm__("t0") = t0;
        register unsigned long r_t1 __asm__("t1") = t1;
        __asm__ volatile("jalr ra, 0(%0)"
                         : : "r"(tl_tramp), "r"(r_t0), "r"(r_t1)
                         : "ra", "memory");
    });
}

#endif /* TL_TEST_H */
