/*
 * TL state isolation under Linux: PROCS processes of THREADS threads each
 * give their whole TL state (31 registers, CSR values, initialized flags)
 * a value of their own, then ITERS times yield the CPU and check that the
 * state is exactly theirs.  With --pin every worker runs on CPU 0, so they
 * keep taking the hart from each other; without it they also migrate.
 * sched_yield() switches only when another task is ready on the same hart,
 * so a worker the kernel never switched out (alone on its hart) then sleeps
 * 1 ms at a time, checking after each sleep, until it has been switched
 * out at least once; a worker that was never switched out fails.
 *
 *   tl-isolation [--pin] PROCS THREADS ITERS
 *
 * Prints one TAP line per worker and "N passed, M failed".  The expected
 * state is the worker's own pattern (tests/user/tl_state.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tl_state.h"

struct worker {
    unsigned id;
    int pin;
    unsigned iters;
    int bad_iter;          /* first failing iteration, or -1 */
    int bad_item;          /* tl_state_compare result there */
    unsigned sleeps;       /* 1 ms sleeps until the first context switch */
    long switches;         /* voluntary + involuntary context switches seen */
};

/* Context switches of the calling thread since *r0. */
static long switches_since(const struct rusage *r0)
{
    struct rusage r1;

    getrusage(RUSAGE_THREAD, &r1);
    return (r1.ru_nvcsw - r0->ru_nvcsw) + (r1.ru_nivcsw - r0->ru_nivcsw);
}

static void *run_worker(void *arg)
{
    struct worker *w = arg;
    struct tl_full_state *want = malloc(sizeof(*want)), *got = malloc(sizeof(*got));
    const struct timespec ms = { 0, 1000000 };
    struct rusage r0;

    if (w->pin) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    tl_state_pattern(want, w->id);
    tl_state_write(want);
    w->bad_iter = -1;
    getrusage(RUSAGE_THREAD, &r0);
    for (unsigned i = 0; w->bad_iter < 0; i++) {
        if (i < w->iters) {
            sched_yield();
        } else if (switches_since(&r0) == 0 && w->sleeps < 100) {
            nanosleep(&ms, NULL);
            w->sleeps++;
        } else {
            break;
        }
        tl_state_read(got);
        int d = tl_state_compare(got, want);
        if (d) {
            w->bad_iter = (int)i;
            w->bad_item = d;
        }
    }
    w->switches = switches_since(&r0);
    free(want);
    free(got);
    return NULL;
}

static void describe(char *buf, size_t len, int item)
{
    static const char *const csr[] = { "ttype", "tshape", "tmask_ls", "tmask_concat_1",
        "tmask_concat_2", "tmask_load_stride", "tmask_load_width", "tvalid", "tinit" };
    if (item <= 9) {
        snprintf(buf, len, "CSR %s", csr[item - 1]);
    } else {
        snprintf(buf, len, "register tl%d", item - 10);
    }
}

/* One process: THREADS workers (the first is the process's main thread). */
static int run_process(unsigned first_id, unsigned threads, unsigned iters, int pin)
{
    struct worker w[64];
    pthread_t t[64];
    int bad = 0;

    for (unsigned k = 0; k < threads; k++) {
        w[k] = (struct worker){ .id = first_id + k, .pin = pin, .iters = iters };
    }
    for (unsigned k = 1; k < threads; k++) {
        pthread_create(&t[k], NULL, run_worker, &w[k]);
    }
    run_worker(&w[0]);
    for (unsigned k = 1; k < threads; k++) {
        pthread_join(t[k], NULL);
    }
    for (unsigned k = 0; k < threads; k++) {
        char what[64], verdict[96] = "intact every time", sleeps[32] = "";
        int ok = w[k].bad_iter < 0 && w[k].switches > 0;
        if (w[k].bad_iter >= 0) {
            describe(what, sizeof(what), w[k].bad_item);
            snprintf(verdict, sizeof(verdict), "WRONG: %s changed", what);
        } else if (w[k].switches == 0) {
            snprintf(verdict, sizeof(verdict), "never checked after a context switch");
        }
        if (w[k].sleeps) {
            snprintf(sleeps, sizeof(sleeps), ", %u sleeps", w[k].sleeps);
        }
        bad += !ok;
        printf("%s - worker %u (pid %d, thread %u): %u yields%s, %ld context switches, whole TL "
               "state %s\n", ok ? "ok" : "not ok", w[k].id, getpid(), k, iters, sleeps,
               w[k].switches, verdict);
        fflush(stdout);
    }
    return bad;
}

int main(int argc, char **argv)
{
    int pin = 0, argi = 1;

    if (argi < argc && strcmp(argv[argi], "--pin") == 0) {
        pin = 1;
        argi++;
    }
    if (argc - argi != 3) {
        fprintf(stderr, "usage: tl-isolation [--pin] PROCS THREADS ITERS\n");
        return 2;
    }
    unsigned procs = atoi(argv[argi]), threads = atoi(argv[argi + 1]), iters = atoi(argv[argi + 2]);
    if (procs < 1 || procs > 64 || threads < 1 || threads > 64) {
        fprintf(stderr, "tl-isolation: 1..64 processes and threads\n");
        return 2;
    }
    printf("# tl-isolation: %u processes x %u threads, %u yields each%s\n", procs, threads, iters,
           pin ? ", all on CPU 0" : "");
    fflush(stdout);

    pid_t pids[64];
    for (unsigned p = 0; p < procs; p++) {
        pids[p] = fork();
        if (pids[p] == 0) {
            _exit(run_process(1 + p * threads, threads, iters, pin));
        }
    }
    unsigned pass = 0, fail = 0;
    for (unsigned p = 0; p < procs; p++) {
        int st;
        waitpid(pids[p], &st, 0);
        if (WIFEXITED(st)) {        /* the exit status is the number of failed workers */
            pass += threads - WEXITSTATUS(st);
            fail += WEXITSTATUS(st);
        } else {
            fail += threads;
            printf("not ok - process %u died of signal %d\n", p, WTERMSIG(st));
        }
    }
    printf("%u passed, %u failed\n", pass, fail);
    return fail ? 1 : 0;
}
