/*
 * The NT_RISCV_XTL notes of a multi-threaded core dump (docs/linux.md: "the
 * core dump of a task using TL has it as a note"; Linux writes, for every
 * thread, its NT_PRSTATUS followed by that thread's other register-set
 * notes, and skips a register set a thread does not have).
 *
 * A child process has four threads, all created before any of them used TL
 * (so that none inherits another's TL state in use):
 *   main     its own TL state; it calls abort() (it is the dumping thread,
 *            so its state may still be live in the hart's registers);
 *   waiter   its own TL state, blocked in pause();
 *   spinner  its own TL state, spinning in a TL loop that stores and reloads
 *            every register and reads every CSR (so its state never changes),
 *            pinned to another hart than the main thread when there are two;
 *   idle     never uses TL, blocked in pause().
 * It dies of SIGABRT with a core dump (core_pattern /tmp/core.%p, set and
 * restored here; RLIMIT_CORE unlimited).  The parent parses the core's
 * PT_NOTE segment and checks that each TL thread's NT_RISCV_XTL note (name
 * "LINUX", 32816 bytes) is exactly that thread's state, and that the idle
 * thread has no such note.  Needs root.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include "tl_hostile.h"

#define RS ((uint32_t)sizeof(struct tl_xtl_state))

enum { T_MAIN, T_WAITER, T_SPINNER, T_IDLE, N_THREADS };
static const char *const tname[N_THREADS] = { "main (dumping)", "waiter (in pause())",
                                               "spinner (TL loop)", "idle (never used TL)" };

struct shared {
    int tid[N_THREADS];
    volatile int ready[N_THREADS];
    volatile unsigned long spins;
    volatile int spin_cpu, main_cpu;
    volatile int spin_bad;       /* the spinner saw its own state change */
};

static struct shared *sh;
static int ncpu;

/* The state each TL thread gives itself. */
static void thread_state(int t, struct tl_full_state *s)
{
    switch (t) {
    case T_MAIN: tl_state_pattern(s, 53); break;
    case T_WAITER: tl_state_pattern(s, 51); break;
    default: th_block_state(s, 52); break;   /* the spinner needs whole-register loads and stores */
    }
}

static void pin(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

static void *waiter(void *arg)
{
    static struct tl_full_state s;

    (void)arg;
    sh->tid[T_WAITER] = gettid();
    thread_state(T_WAITER, &s);
    tl_state_write(&s);
    sh->ready[T_WAITER] = 1;
    for (;;) {
        pause();
    }
    return NULL;
}

static void *idle(void *arg)
{
    (void)arg;
    sh->tid[T_IDLE] = gettid();
    sh->ready[T_IDLE] = 1;
    for (;;) {
        pause();
    }
    return NULL;
}

static void *spinner(void *arg)
{
    static struct tl_full_state s, now;
    static uint8_t buf[1024];

    (void)arg;
    sh->tid[T_SPINNER] = gettid();
    if (ncpu >= 2) {
        pin(1);
    }
    thread_state(T_SPINNER, &s);
    tl_state_write(&s);
    sh->ready[T_SPINNER] = 1;
    for (unsigned long i = 0;; i++) {
        unsigned r = 1 + i % 31;
        tl_state_store_reg(r, buf);      /* its CSRs make each register one 1024-byte block */
        tl_state_load_reg(r, buf);
        (void)tl_state_csr_read(i % 9);
        if ((i & 1023) == 1023) {
            sh->spin_cpu = sched_getcpu();
            tl_state_read(&now);
            if (tl_state_compare(&now, &s)) {
                sh->spin_bad = 1;
            }
        }
        sh->spins = i + 1;
    }
    return NULL;
}

static void victim(void)
{
    static struct tl_full_state s;
    struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
    pthread_t t;

    alarm(20);     /* a victim that never aborts dies of SIGALRM, without core */
    setrlimit(RLIMIT_CORE, &rl);
    if (ncpu >= 2) {
        pin(0);
    }
    sh->tid[T_MAIN] = gettid();
    /* every thread exists before any uses TL */
    pthread_create(&t, NULL, idle, NULL);
    pthread_create(&t, NULL, waiter, NULL);
    pthread_create(&t, NULL, spinner, NULL);
    double t0 = th_now();
    while (!(sh->ready[T_IDLE] && sh->ready[T_WAITER] && sh->ready[T_SPINNER] && sh->spins > 2000)) {
        if (th_now() - t0 > 10) {
            _exit(30);
        }
        th_sleep_ms(2);
    }
    thread_state(T_MAIN, &s);
    tl_state_write(&s);
    sh->ready[T_MAIN] = 1;
    sh->main_cpu = sched_getcpu();
    abort();
}

int main(void)
{
    static struct th_core core;
    static struct tl_xtl_state exp;
    static struct tl_full_state s;
    char path[64];
    int st;

    setvbuf(stdout, NULL, _IONBF, 0);
    th_on_timeout = th_core_pattern_restore;
    th_timeout("tl-coredump", 60);
    sh = th_shared(sizeof(*sh));
    ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("# tl-coredump: a 4-thread TL process dies of SIGABRT with a core dump; %d CPU(s)\n", ncpu);

    if (!th_riscv_system()) {
        th_skip("multi-threaded TL core dump", "not a RISC-V Linux system (no /proc/device-tree/cpus/cpu@0/riscv,isa; "
                "qemu-riscv64 on another host?): the host's core_pattern is left alone");
        return th_finish();
    }
    int err = th_core_pattern_tmp();
    if (err) {
        th_check(0, "core_pattern set to /tmp/core.%%p (needs root): %s", strerror(err));
        return th_finish();
    }
    pid_t pid = fork();
    if (pid == 0) {
        victim();
    }
    int ended = th_wait(pid, &st, 30000, 0);
    th_core_pattern_restore();
    snprintf(path, sizeof(path), "/tmp/core.%d", (int)pid);
    int parsed = th_core_parse(path, &core) == 0;
    int core_ok = ended && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && WCOREDUMP(st);
    th_check(core_ok && parsed && core.threads == N_THREADS && core.orphan_xtl == 0,
             "the process %s; its core %s: %d threads (NT_PRSTATUS), no NT_RISCV_XTL note before the first "
             "(%d); spinner %s, main thread on CPU %d%s",
             ended ? th_status(st) : "did not die within 30 s",
             parsed ? "parses" : core.error, core.threads, core.orphan_xtl,
             sh->spin_cpu != sh->main_cpu ? "on another CPU" : "on the same CPU", sh->main_cpu,
             ncpu >= 2 ? "" : " (1 CPU)");
    if (ended && WIFEXITED(st) && WEXITSTATUS(st) == 30) {
        printf("# the victim's threads did not all become ready within 10 s\n");
    }
    th_check(!sh->spin_bad, "the spinner's own TL state never changed while it looped (%lu iterations)",
             sh->spins);
    for (int t = 0; t < N_THREADS; t++) {
        struct th_core_thread *ct = parsed ? th_core_thread(&core, sh->tid[t]) : NULL;
        if (!ct) {
            th_check(0, "thread %s (tid %d): no NT_PRSTATUS for it in the core", tname[t], sh->tid[t]);
            continue;
        }
        if (t == T_IDLE) {
            th_check(ct->xtl_notes == 0, "thread %s (tid %d): %d NT_RISCV_XTL notes (want none; it has %d notes)",
                     tname[t], ct->tid, ct->xtl_notes, ct->notes);
            continue;
        }
        thread_state(t, &s);
        th_to_regset(&s, &exp);
        int same = ct->xtl_notes == 1 && ct->xtl_size == RS && !memcmp(&ct->xtl, &exp, RS);
        struct tl_full_state *seen = &s;
        int d = 0;
        if (ct->xtl_notes) {
            static struct tl_full_state n;
            th_from_regset(&ct->xtl, &n);
            d = tl_state_compare(&n, &s);
            seen = &n;
        }
        th_check(same && !strcmp(ct->xtl_name, "LINUX"),
                 "thread %s (tid %d): %d NT_RISCV_XTL note(s), name \"%s\", %u bytes (want 1, \"LINUX\", %u): %s (%s)",
                 tname[t], ct->tid, ct->xtl_notes, ct->xtl_name, ct->xtl_size, RS,
                 !ct->xtl_notes ? "MISSING" : same ? "exactly this thread's state" :
                 d ? "WRONG" : "reserved words not 0", !ct->xtl_notes ? "-" : d ? th_item(d) : th_summary(seen));
    }
    unlink(path);
    return th_finish();
}
