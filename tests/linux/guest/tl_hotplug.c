/*
 * CPU hotplug while tasks have live TL state.  2 worker processes per CPU
 * each load their own pattern into tl1..tl4 and their own CSR values once,
 * then repeatedly store and compare tl1..tl4, read every CSR, now and then
 * compare the whole state (tl5..tl31 still zero), and yield; meanwhile
 * cpu1..cpuN-1 go offline and online again, 10 times.  A task whose state
 * is live in a hart that goes offline must find it again wherever it runs
 * next, and a hart that comes back must not make anyone see another task's
 * bytes or a reset state (the TL kernel restores lazily and skips the
 * restore when the hart "still holds" the task's state).  After each round
 * a task pinned to every re-onlined CPU uses TL there: a CPU that came back
 * without TL enabled (firmware's mstateen0.C, the kernel's per-CPU setup)
 * would refuse it with SIGILL.
 *
 * Needs >= 2 harts and /sys/devices/system/cpu/cpu1/online (CONFIG_HOTPLUG_CPU);
 * otherwise one counted skip.  Needs root.  Refuses to run outside a RISC-V
 * Linux system: under qemu-riscv64, sysfs is the host's.  Every CPU is online again at
 * the end, also after a failure or a timeout.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>

#include "tl_hostile.h"

#define ROUNDS 10
#define MAX_WORKERS 16
#define MAX_CPUS 8

struct worker {
    volatile unsigned long checks;   /* comparisons done */
    volatile unsigned long switches; /* CPU changes seen */
    volatile unsigned cpus;          /* mask of CPUs it ran on */
    int bad;                         /* the first failure: */
    unsigned long bad_check;
    char what[160];
};

struct shared {
    volatile int stop;
    struct worker w[MAX_WORKERS];
};

static struct shared *sh;
static int ncpu, nworkers;

/* ---- sysfs ---- */
static int set_online(int cpu, int on)
{
    char path[64];
    int fd, err = 0;

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
    fd = open(path, O_WRONLY);
    if (fd < 0) {
        return errno;
    }
    if (write(fd, on ? "1" : "0", 1) != 1) {
        err = errno;
    }
    close(fd);
    return err;
}

static int is_online(int cpu)
{
    char path[64], c = '?';

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &c, 1) != 1) {
            c = '?';
        }
        close(fd);
    }
    return c == '1';
}

/* Cleanup for every exit path, also from the timeout's signal handler. */
static void all_online(void)
{
    for (int c = 1; c < ncpu && c < MAX_CPUS; c++) {
        set_online(c, 1);
    }
}

/* ---- workers ---- */
/* Worker k's state: block-view CSRs with its own masks, its pattern in tl1..tl4, tl5..tl31 zero. */
static void worker_state(int k, struct tl_full_state *s)
{
    th_block_state(s, 200 + (unsigned)k);
    for (unsigned r = 5; r < 32; r++) {
        memset(s->reg[r], 0, 1024);
    }
}

/* Whose bytes `got` (register r) are: another worker's, zero, or unknown. */
static void whose(const uint8_t *got, unsigned r, char *out, size_t len)
{
    static struct tl_full_state other;
    static const uint8_t zero[1024];

    if (!memcmp(got, zero, 1024)) {
        snprintf(out, len, "all zero (a reset register)");
        return;
    }
    for (int j = 0; j < nworkers; j++) {
        worker_state(j, &other);
        for (unsigned q = 1; q <= 4; q++) {
            if (!memcmp(got, other.reg[q], 1024)) {
                snprintf(out, len, "worker %d's tl%u", j, q);
                return;
            }
        }
    }
    (void)r;
    snprintf(out, len, "unknown bytes (byte 0 %#x)", got[0]);
}

static void worker(int k)
{
    static struct tl_full_state want, now;
    static uint8_t buf[1024];
    struct worker *w = &sh->w[k];
    int last = -1;

    alarm(100);
    worker_state(k, &want);
    tl_state_whole_register_view();
    for (unsigned r = 1; r <= 4; r++) {
        tl_state_load_reg(r, want.reg[r]);
    }
    tl_state_write_csrs(&want);
    for (unsigned long i = 0; !sh->stop; i++) {
        for (unsigned r = 1; r <= 4; r++) {
            tl_state_store_reg(r, buf);     /* the CSRs make each register one 1024-byte block */
            if (memcmp(buf, want.reg[r], 1024)) {
                char who[80];
                whose(buf, r, who, sizeof(who));
                snprintf(w->what, sizeof(w->what), "tl%u holds %s", r, who);
                w->bad = 1;
            }
        }
        for (unsigned c = 0; c < 9 && !w->bad; c++) {
            unsigned long v = tl_state_csr_read(c);
            if (v != want.csr[c]) {
                snprintf(w->what, sizeof(w->what), "%s reads %#lx (want %#lx)", th_csr_name[c], v, want.csr[c]);
                w->bad = 1;
            }
        }
        if ((i & 15) == 15 && !w->bad) {
            tl_state_read(&now);
            int d = tl_state_compare(&now, &want);
            if (d) {
                snprintf(w->what, sizeof(w->what), "%s changed (whole-state check)", th_item(d));
                w->bad = 1;
            }
        }
        if (w->bad) {
            w->bad_check = i;
            _exit(1);
        }
        w->checks = i + 1;
        int cpu = sched_getcpu();
        if (cpu >= 0 && cpu < 32) {
            w->cpus |= 1u << cpu;
            if (cpu != last) {
                w->switches += last >= 0;
                last = cpu;
            }
        }
        sched_yield();
    }
    _exit(0);
}

/* ---- a task pinned to one CPU uses TL there ---- */
static const char *probe(int cpu)
{
    static char why[96];
    int st;

    pid_t pid = fork();
    if (pid == 0) {
        static struct tl_full_state s, got;
        cpu_set_t set;
        alarm(10);
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof(set), &set) != 0 || sched_getcpu() != cpu) {
            _exit(3);
        }
        tl_state_pattern(&s, 300 + (unsigned)cpu);
        tl_state_write(&s);
        sched_yield();
        tl_state_read(&got);
        _exit(tl_state_compare(&got, &s) ? 1 : sched_getcpu() == cpu ? 0 : 3);
    }
    if (!th_wait(pid, &st, 10000, 0)) {
        return "hung";
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        return NULL;
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGILL) {
        return "refused with SIGILL";
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
        return "could not run there (sched_setaffinity)";
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 1) {
        return "read back another TL state";
    }
    snprintf(why, sizeof(why), "%s", th_status(st));
    return why;
}

int main(void)
{
    pid_t pids[MAX_WORKERS];

    setvbuf(stdout, NULL, _IONBF, 0);
    ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("# tl-hotplug: %d CPU(s) online\n", ncpu);
    if (ncpu < 2) {
        th_skip("CPU hotplug with live TL state", "needs >= 2 harts (%d online)", ncpu);
        return th_finish();
    }
    if (!th_riscv_system()) {
        th_skip("CPU hotplug with live TL state", "not a RISC-V Linux system (qemu-riscv64 on another host?): "
                "the host's CPUs are left alone");
        return th_finish();
    }
    if (access("/sys/devices/system/cpu/cpu1/online", W_OK) != 0) {
        th_skip("CPU hotplug with live TL state", "no CPU hotplug: /sys/devices/system/cpu/cpu1/online: %s "
                "(a kernel without CONFIG_HOTPLUG_CPU?)", strerror(errno));
        return th_finish();
    }
    if (ncpu > MAX_CPUS) {
        ncpu = MAX_CPUS;
    }
    th_on_timeout = all_online;
    th_timeout("tl-hotplug", 120);
    sh = th_shared(sizeof(*sh));
    nworkers = 2 * ncpu;

    for (int k = 0; k < nworkers; k++) {
        pids[k] = fork();
        if (pids[k] == 0) {
            worker(k);
        }
    }
    double t0 = th_now();
    for (int k = 0; k < nworkers; k++) {
        while (!sh->w[k].checks && !sh->w[k].bad && th_now() - t0 < 20) {
            th_sleep_ms(2);
        }
    }

    for (int round = 1; round <= ROUNDS; round++) {
        char errs[160] = "", probes[200] = "";
        size_t el = 0, pl = 0;
        double r0 = th_now();
        for (int c = 1; c < ncpu; c++) {
            int e = set_online(c, 0);
            if (e || is_online(c)) {
                el += (size_t)snprintf(errs + el, sizeof(errs) - el, " offline cpu%d: %s;", c,
                                       e ? strerror(e) : "still online");
            }
        }
        th_sleep_ms(5);     /* the workers run on what is left */
        for (int c = 1; c < ncpu; c++) {
            int e = set_online(c, 1);
            if (e || !is_online(c)) {
                el += (size_t)snprintf(errs + el, sizeof(errs) - el, " online cpu%d: %s;", c,
                                       e ? strerror(e) : "still offline");
            }
        }
        double ms = (th_now() - r0) * 1000;
        int bad_probe = 0;
        for (int c = 1; c < ncpu; c++) {
            const char *why = probe(c);
            bad_probe |= why != NULL;
            pl += (size_t)snprintf(probes + pl, sizeof(probes) - pl, " cpu%d %s;", c, why ? why : "ok");
        }
        th_check(!el && !bad_probe,
                 "round %d: cpu1..cpu%d offline and online again in %.0f ms%s; a task pinned to each then used "
                 "TL there:%s", round, ncpu - 1, ms, el ? ":" : "", el ? errs : probes);
        if (el && !bad_probe) {
            printf("# round %d probes:%s\n", round, probes);
        }
    }

    sh->stop = 1;
    all_online();
    for (int k = 0; k < nworkers; k++) {
        int st;
        int ended = th_wait(pids[k], &st, 20000, 0);
        struct worker *w = &sh->w[k];
        unsigned long checks = w->bad ? w->bad_check : w->checks;
        th_check(ended && WIFEXITED(st) && WEXITSTATUS(st) == 0 && !w->bad && w->checks > 0,
                 "worker %d: %lu checks of tl1..tl4 and every CSR (whole state every 16th), ran on CPUs %#x, %lu "
                 "CPU changes: %s (%s)", k, checks, w->cpus, w->switches,
                 w->bad ? w->what : w->checks ? "every check intact" : "NO check done",
                 th_status(ended ? st : -1));
    }
    return th_finish();
}
