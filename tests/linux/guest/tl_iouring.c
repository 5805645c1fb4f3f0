/*
 * io_uring with a kernel submission thread (IORING_SETUP_SQPOLL) in a
 * process using TL.  The SQPOLL thread ("iou-sqp-PID") is created by the
 * kernel from the process (create_io_thread, a clone of the task) but never
 * returns to user space: whatever the TL kernel does with its TL state at
 * that clone, at its context switches and at exit must not disturb the
 * process, its core dump or the kernel.
 *   (a) the process (TL state in use) sets up a ring, submits NOPs and a
 *       read of a pipe several times, yielding in between: every completion
 *       is right and its TL state is exactly its own afterwards;
 *   (b) a forked child does the same and dies of SIGABRT with a core dump:
 *       the kernel survives, the core parses, the child's main thread has
 *       its NT_RISCV_XTL note with its state, every NT_RISCV_XTL note in the
 *       core is well formed (32816 bytes, a state the exact restore sequence
 *       can produce); whether the SQPOLL thread has a note is reported;
 *   (c) another process tries PTRACE_SEIZE (+ PTRACE_INTERRUPT, GETREGSET)
 *       and PTRACE_ATTACH of the SQPOLL thread: each must fail cleanly
 *       (EPERM) or succeed without harm; which one happened is reported;
 *       afterwards the process's TL state is intact and the ring still works.
 * Raw system calls (io_uring_setup, io_uring_enter) and the ring layout of
 * linux/io_uring.h; no liburing.  Without io_uring (ENOSYS) every case is
 * a counted skip.  Needs root for (b) (core_pattern).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "tl_hostile.h"

#define RS ((uint32_t)sizeof(struct tl_xtl_state))

/* ---- a minimal io_uring ---- */
struct ring {
    int fd;
    struct io_uring_params p;
    void *sq_map, *cq_map;
    size_t sq_len, cq_len, sqe_len;
    unsigned *sq_tail, *sq_mask, *sq_flags, *sq_array;
    unsigned *cq_head, *cq_tail, *cq_mask;
    struct io_uring_cqe *cqes;
    struct io_uring_sqe *sqes;
};

/* Sets up a ring with an SQPOLL thread; 0 or -errno. */
static int ring_setup(struct ring *r, unsigned entries)
{
    memset(r, 0, sizeof(*r));
    r->p.flags = IORING_SETUP_SQPOLL;
    r->p.sq_thread_idle = 2000;     /* ms before the thread sleeps and wants a wakeup */
    r->fd = (int)syscall(__NR_io_uring_setup, entries, &r->p);
    if (r->fd < 0) {
        return -errno;
    }
    r->sq_len = r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned);
    r->cq_len = r->p.cq_off.cqes + r->p.cq_entries * sizeof(struct io_uring_cqe);
    if (r->p.features & IORING_FEAT_SINGLE_MMAP) {
        r->sq_len = r->cq_len = r->sq_len > r->cq_len ? r->sq_len : r->cq_len;
    }
    r->sq_map = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
                     IORING_OFF_SQ_RING);
    if (r->sq_map == MAP_FAILED) {
        return -errno;
    }
    r->cq_map = r->sq_map;
    if (!(r->p.features & IORING_FEAT_SINGLE_MMAP)) {
        r->cq_map = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
                         IORING_OFF_CQ_RING);
        if (r->cq_map == MAP_FAILED) {
            return -errno;
        }
    }
    r->sqe_len = r->p.sq_entries * sizeof(struct io_uring_sqe);
    r->sqes = mmap(NULL, r->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
                   IORING_OFF_SQES);
    if (r->sqes == MAP_FAILED) {
        return -errno;
    }
    char *sq = r->sq_map, *cq = r->cq_map;
    r->sq_tail = (unsigned *)(sq + r->p.sq_off.tail);
    r->sq_mask = (unsigned *)(sq + r->p.sq_off.ring_mask);
    r->sq_flags = (unsigned *)(sq + r->p.sq_off.flags);
    r->sq_array = (unsigned *)(sq + r->p.sq_off.array);
    r->cq_head = (unsigned *)(cq + r->p.cq_off.head);
    r->cq_tail = (unsigned *)(cq + r->p.cq_off.tail);
    r->cq_mask = (unsigned *)(cq + r->p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)(cq + r->p.cq_off.cqes);
    return 0;
}

static void ring_close(struct ring *r)
{
    munmap(r->sqes, r->sqe_len);
    if (r->cq_map != r->sq_map) {
        munmap(r->cq_map, r->cq_len);
    }
    munmap(r->sq_map, r->sq_len);
    close(r->fd);
}

/*
 * Queues n SQEs (the SQPOLL thread submits them), waits for n completions
 * and copies them to out[].  Returns the number reaped, or -errno.
 */
static int ring_run(struct ring *r, const struct io_uring_sqe *sqe, unsigned n, struct io_uring_cqe *out)
{
    unsigned tail = *r->sq_tail, mask = *r->sq_mask, got = 0;

    for (unsigned i = 0; i < n; i++, tail++) {
        r->sqes[tail & mask] = sqe[i];
        r->sq_array[tail & mask] = tail & mask;
    }
    __atomic_store_n(r->sq_tail, tail, __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (got < n) {
        unsigned flags = IORING_ENTER_GETEVENTS;
        if (__atomic_load_n(r->sq_flags, __ATOMIC_RELAXED) & IORING_SQ_NEED_WAKEUP) {
            flags |= IORING_ENTER_SQ_WAKEUP;
        }
        if (syscall(__NR_io_uring_enter, r->fd, 0, n - got, flags, NULL, 0) < 0 && errno != EINTR) {
            return -errno;
        }
        unsigned head = *r->cq_head, ctail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
        while (head != ctail && got < n) {
            out[got++] = r->cqes[head & *r->cq_mask];
            head++;
        }
        __atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
    }
    return (int)got;
}

/*
 * Three NOPs and a read of `len` bytes from pipe fd `rd` (into buf), tagged
 * 1..4.  Returns NULL when all four completed right, else what was wrong.
 */
static const char *ring_round(struct ring *r, int rd, char *buf, unsigned len)
{
    static char why[128];
    struct io_uring_sqe sqe[4];
    struct io_uring_cqe cqe[4];

    memset(sqe, 0, sizeof(sqe));
    for (int i = 0; i < 3; i++) {
        sqe[i].opcode = IORING_OP_NOP;
        sqe[i].user_data = 1 + (unsigned)i;
    }
    sqe[3].opcode = IORING_OP_READ;
    sqe[3].fd = rd;
    sqe[3].addr = (uintptr_t)buf;
    sqe[3].len = len;
    sqe[3].off = (uint64_t)-1;      /* the pipe's current position */
    sqe[3].user_data = 4;
    int got = ring_run(r, sqe, 4, cqe);
    if (got < 0) {
        snprintf(why, sizeof(why), "io_uring_enter: %s", strerror(-got));
        return why;
    }
    unsigned seen = 0;
    for (int i = 0; i < got; i++) {
        uint64_t u = cqe[i].user_data;
        int want = u == 4 ? (int)len : 0;
        if (u < 1 || u > 4 || (seen & (1u << u)) || cqe[i].res != want) {
            snprintf(why, sizeof(why), "completion %d: user_data %llu res %d (want %d)", i,
                     (unsigned long long)u, cqe[i].res, want);
            return why;
        }
        seen |= 1u << u;
    }
    return NULL;
}

/*
 * The tid of this process's SQPOLL thread, or 0: the thread names itself
 * "iou-sqp-PID" once it runs, so look for up to a second.
 */
static int sqpoll_tid(void)
{
    for (int tries = 0; tries < 100; tries++) {
        DIR *d = opendir("/proc/self/task");
        struct dirent *e;
        int tid = 0;

        while (d && (e = readdir(d)) != NULL && !tid) {
            char path[300], comm[32] = "";
            if (e->d_name[0] == '.') {
                continue;
            }
            snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
            FILE *f = fopen(path, "r");
            if (f) {
                if (fgets(comm, sizeof(comm), f) && strncmp(comm, "iou-sqp", 7) == 0) {
                    tid = atoi(e->d_name);
                }
                fclose(f);
            }
        }
        if (d) {
            closedir(d);
        }
        if (tid) {
            return tid;
        }
        th_sleep_ms(10);
    }
    return 0;
}

/* Round `k`: the pipe holds 13 bytes for the read to find. */
static const char *io_round(struct ring *r, int pipefd[2], int k)
{
    static char want[16], buf[16];

    snprintf(want, sizeof(want), "round %02d data", k);
    memset(buf, 0, sizeof(buf));
    if (write(pipefd[1], want, 13) != 13) {
        return "write to the pipe failed";
    }
    const char *why = ring_round(r, pipefd[0], buf, 13);
    if (!why && memcmp(buf, want, 13)) {
        why = "the read returned other bytes";
    }
    return why;
}

/* ---- shared with children ---- */
struct shared {
    int sqp_tid;                 /* (b): the child's SQPOLL thread */
    int child_err;               /* (b): what failed before abort() */
    char child_why[128];
    /* (c) */
    int seize, interrupt, seize_stop, seize_get, seize_detach;
    int attach, attach_stop, attach_get, attach_detach;
    char stop_how[2][64];
};
static struct shared *sh;

/* ---- (b) ---- */
static void aborting_child(void)
{
    static struct tl_full_state s;
    struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
    struct ring r;
    int pfd[2];

    alarm(20);
    setrlimit(RLIMIT_CORE, &rl);
    tl_state_pattern(&s, 62);
    tl_state_write(&s);
    int e = ring_setup(&r, 8);
    if (e < 0 || pipe(pfd) != 0) {
        sh->child_err = e < 0 ? -e : errno;
        snprintf(sh->child_why, sizeof(sh->child_why), "io_uring_setup/pipe: %s", strerror(sh->child_err));
        _exit(31);
    }
    for (int k = 0; k < 3; k++) {
        const char *why = io_round(&r, pfd, k);
        if (why) {
            snprintf(sh->child_why, sizeof(sh->child_why), "%s", why);
            _exit(32);
        }
    }
    sh->sqp_tid = sqpoll_tid();
    abort();
}

static void check_core(void)
{
    static struct th_core core;
    static struct tl_full_state s, n;
    static struct tl_xtl_state exp;
    char path[64];
    int st;

    if (!th_riscv_system()) {
        th_skip("(b) core dump of a TL process with an SQPOLL thread", "not a RISC-V Linux system (qemu-riscv64 "
                "on another host?): the host's core_pattern is left alone");
        return;
    }
    int err = th_core_pattern_tmp();
    if (err) {
        th_check(0, "(b) core_pattern set to /tmp/core.%%p (needs root): %s", strerror(err));
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        aborting_child();
    }
    int ended = th_wait(pid, &st, 30000, 0);
    th_core_pattern_restore();
    snprintf(path, sizeof(path), "/tmp/core.%d", (int)pid);
    int parsed = ended && th_core_parse(path, &core) == 0;
    int sane = 1, sizes = 1;
    for (int i = 0; parsed && i < core.threads; i++) {
        if (core.t[i].xtl_notes) {
            th_from_regset(&core.t[i].xtl, &n);
            sizes &= core.t[i].xtl_size == RS && core.t[i].xtl_notes == 1;
            sane &= !th_state_insane(&n) && !core.t[i].xtl.reserved[0] && !core.t[i].xtl.reserved[1] &&
                    !core.t[i].xtl.reserved[2];
        }
    }
    th_check(ended && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && WCOREDUMP(st) && parsed && sizes && sane &&
             !core.orphan_xtl,
             "(b) a child with TL state and an SQPOLL ring %s%s%s; the kernel survived; its core %s: %d threads, "
             "every NT_RISCV_XTL note %s",
             ended ? th_status(st) : "did not die within 30 s", sh->child_why[0] ? ": " : "", sh->child_why,
             parsed ? "parses" : core.error, core.threads,
             !parsed ? "-" : sizes && sane ? "one per thread at most, 32816 bytes, a sane state" :
             !sizes ? "NOT 32816 bytes or more than one per thread" : "with an IMPOSSIBLE state");
    struct th_core_thread *m = parsed ? th_core_thread(&core, pid) : NULL;
    tl_state_pattern(&s, 62);
    th_to_regset(&s, &exp);
    th_check(m && m->xtl_notes == 1 && m->xtl_size == RS && !memcmp(&m->xtl, &exp, RS),
             "(b) the child's main thread (tid %d): %s", (int)pid,
             !m ? "NOT in the core" : !m->xtl_notes ? "NO NT_RISCV_XTL note" :
             !memcmp(&m->xtl, &exp, RS) ? "its NT_RISCV_XTL note is exactly its state" : "its note is NOT its state");
    struct th_core_thread *q = parsed && sh->sqp_tid ? th_core_thread(&core, sh->sqp_tid) : NULL;
    if (q) {
        const char *what = "no NT_RISCV_XTL note";
        if (q->xtl_notes) {
            what = !memcmp(&q->xtl, &exp, RS) ? "an NT_RISCV_XTL note with the creator's state (cloned)"
                                              : "an NT_RISCV_XTL note with another (sane) state";
        }
        printf("# (b) the SQPOLL thread (tid %d) is in the core with %s\n", q->tid, what);
    } else {
        printf("# (b) the SQPOLL thread (tid %d) is not in the core\n", sh->sqp_tid);
    }
    unlink(path);
}

/* ---- (c) ---- */
static pid_t c_parent;

static void helper_alarm(int sig)
{
    (void)sig;
    kill(c_parent, SIGCONT);    /* never leave the process group-stopped */
    _exit(9);
}

/* Waits up to 2 s for tid to stop under ptrace; describes the stop. */
static int wait_stop(int tid, char *how, size_t len)
{
    int st;
    double end = th_now() + 2;

    while (th_now() < end) {
        pid_t r = waitpid(tid, &st, __WALL | WNOHANG);
        if (r == tid) {
            snprintf(how, len, WIFSTOPPED(st) ? "stopped (signal %d, event %d)" : "ended (%#x)",
                     WIFSTOPPED(st) ? WSTOPSIG(st) : st, st >> 16);
            return WIFSTOPPED(st);
        }
        if (r < 0) {
            snprintf(how, len, "waitpid: %s", strerror(errno));
            return 0;
        }
        th_sleep_ms(2);
    }
    snprintf(how, len, "no stop within 2 s");
    return 0;
}

static int regset_get(int tid)
{
    static struct tl_xtl_state buf;
    struct iovec iov = { &buf, sizeof(buf) };

    if (ptrace(PTRACE_GETREGSET, tid, (void *)(uintptr_t)TL_NT_RISCV_XTL, &iov) < 0) {
        return -errno;
    }
    return (int)iov.iov_len;
}

static void helper(int tid)
{
    signal(SIGALRM, helper_alarm);
    alarm(10);
    sh->seize = ptrace(PTRACE_SEIZE, tid, NULL, NULL) < 0 ? errno : 0;
    if (!sh->seize) {
        sh->interrupt = ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) < 0 ? errno : 0;
        sh->seize_stop = wait_stop(tid, sh->stop_how[0], sizeof(sh->stop_how[0]));
        sh->seize_get = regset_get(tid);
        sh->seize_detach = ptrace(PTRACE_DETACH, tid, NULL, NULL) < 0 ? errno : 0;
    }
    sh->attach = ptrace(PTRACE_ATTACH, tid, NULL, NULL) < 0 ? errno : 0;
    if (!sh->attach) {
        sh->attach_stop = wait_stop(tid, sh->stop_how[1], sizeof(sh->stop_how[1]));
        sh->attach_get = regset_get(tid);
        sh->attach_detach = ptrace(PTRACE_DETACH, tid, NULL, NULL) < 0 ? errno : 0;
    }
    /* PTRACE_ATTACH's SIGSTOP may have stopped the whole process */
    kill(c_parent, SIGCONT);
    _exit(0);
}

static const char *errname(int e)
{
    return strerrorname_np(e) ? strerrorname_np(e) : "?";
}

static const char *getname(int r)
{
    static char buf[2][32];
    static int k;
    char *b = buf[k++ & 1];

    if (r >= 0) {
        snprintf(b, 32, "%d bytes", r);
    } else {
        snprintf(b, 32, "%s", errname(-r));
    }
    return b;
}

static void check_ptrace(int tid)
{
    int st;

    if (!tid) {
        th_check(0, "(c) the SQPOLL thread: no /proc/self/task/*/comm starts with iou-sqp");
        return;
    }
    memset(sh, 0, sizeof(*sh));
    c_parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        helper(tid);
    }
    int ended = th_wait(pid, &st, 20000, 0);
    int ok_end = ended && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    char how[200];
    if (sh->seize == 0) {
        snprintf(how, sizeof(how), "succeeded; PTRACE_INTERRUPT %s, %s, GETREGSET NT_RISCV_XTL %s, DETACH %s",
                 sh->interrupt ? errname(sh->interrupt) : "0", sh->stop_how[0], getname(sh->seize_get),
                 sh->seize_detach ? errname(sh->seize_detach) : "0");
    } else {
        snprintf(how, sizeof(how), "failed with %s", errname(sh->seize));
    }
    th_check(ok_end && (sh->seize == EPERM || (sh->seize == 0 && !sh->seize_detach)),
             "(c) PTRACE_SEIZE of the SQPOLL thread (tid %d) from another process: %s (helper %s)", tid, how,
             th_status(ended ? st : -1));
    if (sh->attach == 0) {
        snprintf(how, sizeof(how), "succeeded; %s, GETREGSET NT_RISCV_XTL %s, DETACH %s", sh->stop_how[1],
                 getname(sh->attach_get), sh->attach_detach ? errname(sh->attach_detach) : "0");
    } else {
        snprintf(how, sizeof(how), "failed with %s", errname(sh->attach));
    }
    th_check(ok_end && (sh->attach == EPERM || (sh->attach == 0 && !sh->attach_detach)),
             "(c) PTRACE_ATTACH of the SQPOLL thread (tid %d) from another process: %s", tid, how);
}

int main(void)
{
    static struct tl_full_state want, got;
    struct ring r;
    int pfd[2];

    setvbuf(stdout, NULL, _IONBF, 0);
    th_on_timeout = th_core_pattern_restore;
    th_timeout("tl-iouring", 90);
    sh = th_shared(sizeof(*sh));
    printf("# tl-iouring: io_uring with an SQPOLL kernel thread in a TL process\n");

    tl_state_pattern(&want, 61);
    tl_state_write(&want);
    int e = ring_setup(&r, 8);
    if (e == -ENOSYS) {
        th_skip("(a) NOPs and a pipe read through an SQPOLL ring, TL state intact", "io_uring not available (ENOSYS)");
        th_skip("(b) core dump of a TL process with an SQPOLL thread", "io_uring not available (ENOSYS)");
        th_skip("(c) PTRACE_SEIZE/ATTACH of the SQPOLL thread", "io_uring not available (ENOSYS)");
        return th_finish();
    }
    if (e < 0 || pipe(pfd) != 0) {
        th_check(0, "(a) io_uring_setup(IORING_SETUP_SQPOLL) and a pipe: %s", strerror(e < 0 ? -e : errno));
        return th_finish();
    }
    const char *why = NULL;
    int d = 0;
    for (int k = 0; k < 5 && !why && !d; k++) {
        why = io_round(&r, pfd, k);
        for (int y = 0; y < 20; y++) {
            sched_yield();
        }
        tl_state_read(&got);
        d = tl_state_compare(&got, &want);
    }
    int tid = sqpoll_tid();
    th_check(!why && !d,
             "(a) SQPOLL ring (features %#x, thread iou-sqp tid %d): 5 rounds of 3 NOPs + a 13-byte pipe read%s%s; "
             "the process's TL state afterwards %s (%s)",
             r.p.features, tid, why ? ": WRONG: " : ", every completion right", why ? why : "",
             d ? "CHANGED" : "exactly its own", d ? th_item(d) : th_summary(&got));

    check_core();

    check_ptrace(tid);
    why = io_round(&r, pfd, 9);
    tl_state_read(&got);
    d = tl_state_compare(&got, &want);
    th_check(!why && !d, "(c) afterwards the ring still completes NOPs and a read (%s), the TL state is %s (%s)",
             why ? why : "yes", d ? "CHANGED" : "exactly its own", d ? th_item(d) : th_summary(&got));
    ring_close(&r);
    return th_finish();
}
