/*
 * Context-switch cost under Linux: two processes pinned to CPU 0 pass a byte
 * back and forth through two pipes (every round trip is two switches).
 *
 *   ctxswitch-bench ROUNDS
 *
 * Prints, for tasks that never use TL and for two tasks that use TL (each
 * touches a TL register every round, so its state is live when it is
 * switched out), the time per switch:
 *   ctxswitch plain: N ns per switch
 *   ctxswitch tl:    N ns per switch
 * (TL rows only on a CPU with usable xtl.)  Figures, not pass/fail.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tl/tl_insn.h"
#include "tl/tl_linux.h"

static void pin(void)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void touch_tl(void)
{
    tl_addi(1, 1, 1);
}

/* ns per switch of ROUNDS round trips; use_tl: both sides keep TL state live. */
static double ping_pong(int rounds, int use_tl)
{
    int ab[2], ba[2];
    char c = 0;

    if (pipe(ab) || pipe(ba)) {
        perror("pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        pin();
        if (use_tl) {
            tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
        }
        for (int i = 0; i < rounds; i++) {
            if (read(ab[0], &c, 1) != 1) {
                _exit(1);
            }
            if (use_tl) {
                touch_tl();
            }
            if (write(ba[1], &c, 1) != 1) {
                _exit(1);
            }
        }
        _exit(0);
    }
    pin();
    if (use_tl) {
        tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    }
    double t0 = now();
    for (int i = 0; i < rounds; i++) {
        if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
            break;
        }
        if (use_tl) {
            touch_tl();
        }
    }
    double t1 = now();
    waitpid(pid, NULL, 0);
    for (int i = 0; i < 2; i++) {
        close(ab[i]);
        close(ba[i]);
    }
    return (t1 - t0) / (2.0 * rounds) * 1e9;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;

    ping_pong(rounds / 10 + 1, 0);      /* warm-up */
    printf("ctxswitch plain: %.0f ns per switch (%d round trips)\n", ping_pong(rounds, 0), rounds);
    if (tl_xtl_available() == 1) {
        ping_pong(rounds / 10 + 1, 1);
        printf("ctxswitch tl:    %.0f ns per switch (%d round trips)\n", ping_pong(rounds, 1), rounds);
    }
    fflush(stdout);
    return 0;
}
