/*
 * PTRACE_GETREGSET / PTRACE_SETREGSET of NT_RISCV_XTL (docs/abi.md,
 * docs/linux.md; the register set is struct tl_xtl_state of
 * include/tl/tl_linux.h, 32816 bytes) used the way a careless or hostile
 * tracer would:
 *   - a short iov_len: GET fills only the first iov_len bytes; SET changes
 *     only those bytes of the state and keeps the rest (Linux's regset
 *     semantics: the transfer is min(iov_len, regset size) from offset 0);
 *   - a long iov_len: the kernel clamps it to the regset size and reports
 *     the size it used in iov_len (for GET and SET);
 *   - garbage contents: CSR words with reserved bits, tinit with bit 0
 *     clear and reserved bits set, non-zero reserved words, non-zero tl0:
 *     read back as the exact restore sequence leaves them (isa.md 2.4,
 *     2.6: writable bits only, uninitialized CSRs 0, tinit bit 0 set),
 *     reserved words 0, tl0 zero;
 *   - an unmapped iov_base: EFAULT and the state unchanged; a buffer whose
 *     tail is PROT_NONE: EFAULT (GET), and for SET either the state
 *     unchanged or only a prefix of the buffer applied (Linux copies a
 *     register set in piece by piece);
 *   - a tracee that never used TL: ENODATA, still ENODATA after a SET that
 *     failed, and a SET gives it TL state that it then sees;
 *   - a tracee running a TL loop on another hart, stopped with
 *     PTRACE_SEIZE + PTRACE_INTERRUPT: GET returns its live state (checked
 *     against the loop counter it publishes), and a SET is what it
 *     continues with.
 * After every case the tracee continues and compares its own TL state
 * (csrr of every CSR, tl.store of every register) with what the tracer
 * expects, and exits 0 only if they are equal.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "tl_hostile.h"

#define RS ((size_t)sizeof(struct tl_xtl_state))     /* 32816 */
#define PAGE 4096ul

struct shared {
    int check;                       /* the tracee compares its state with `expect` */
    int result;                      /* tl_state_compare(seen, expect) */
    struct tl_full_state expect, seen;
    /* the TL loop of the SEIZE case */
    volatile unsigned long count;    /* iterations completed */
    volatile int stop;               /* the tracer's "verify and exit" */
    volatile int cpu;                /* where the loop runs */
    uint8_t tl6;                     /* what the tracer put in tl6 (every byte) */
    uint32_t concat_2;               /* and in tmask_concat_2 */
};

static struct shared *sh;
static struct tl_full_state P, Q, E, T;
static struct tl_xtl_state img, img2, got;
static uint8_t big[2 * RS + 64];

static const char *ename(long r)
{
    static char buf[4][32];
    static int k;
    char *b = buf[k++ & 3];

    if (r >= 0) {
        snprintf(b, 32, "%ld", r);
    } else {
        snprintf(b, 32, "-%s", strerrorname_np((int)-r) ? strerrorname_np((int)-r) : "?");
    }
    return b;
}

/* PTRACE_GETREGSET/SETREGSET: 0 or -errno; *used = the iov_len the kernel left. */
static long regset(pid_t pid, int req, void *base, size_t len, size_t *used)
{
    struct iovec iov = { base, len };
    long r = ptrace(req, pid, (void *)(uintptr_t)TL_NT_RISCV_XTL, &iov);

    if (used) {
        *used = iov.iov_len;
    }
    return r < 0 ? -errno : 0;
}

static long get_full(pid_t pid, struct tl_xtl_state *r)
{
    size_t used;

    memset(r, 0xee, sizeof(*r));
    long ret = regset(pid, PTRACE_GETREGSET, r, RS, &used);
    return ret < 0 ? ret : (long)used;
}

static int all_bytes(const void *p, int byte, size_t n)
{
    const uint8_t *b = p;

    for (size_t i = 0; i < n; i++) {
        if (b[i] != (uint8_t)byte) {
            return 0;
        }
    }
    return 1;
}

/* A stopped tracee (PTRACE_TRACEME) with state `initial` (NULL: never uses TL). */
static pid_t tracee(const struct tl_full_state *initial)
{
    int st;

    sh->check = 0;
    sh->result = -1;
    pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
            _exit(25);
        }
        if (initial) {
            tl_state_write(initial);
        }
        raise(SIGSTOP);
        if (!sh->check) {
            _exit(0);
        }
        tl_state_read(&sh->seen);
        sh->result = tl_state_compare(&sh->seen, &sh->expect);
        _exit(sh->result ? 1 : 0);
    }
    if (!th_wait(pid, &st, 10000, 0) || !WIFSTOPPED(st)) {
        return -1;
    }
    return pid;
}

/*
 * Lets the tracee continue; it compares its live TL state with *expect.
 * Returns "" when it saw exactly that, else what happened.
 */
static const char *tracee_sees(pid_t pid, const struct tl_full_state *expect)
{
    static char msg[240];
    int st;

    sh->expect = *expect;
    sh->check = 1;
    ptrace(PTRACE_CONT, pid, NULL, NULL);
    if (th_wait(pid, &st, 10000, 0) && WIFSTOPPED(st)) {
        snprintf(msg, sizeof(msg), "; the tracee STOPPED again (signal %d) instead of finishing", WSTOPSIG(st));
        kill(pid, SIGKILL);
        th_wait(pid, &st, 2000, 0);
        return msg;
    }
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        return "";
    }
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1) {
        snprintf(msg, sizeof(msg), "; the tracee continued with a DIFFERENT state: %s (it sees %s)",
                 th_item(sh->result), th_summary(&sh->seen));
    } else {
        snprintf(msg, sizeof(msg), "; the tracee %s", th_status(st));
    }
    return msg;
}

static void no_tracee(const char *what)
{
    th_check(0, "%s: the tracee did not stop (fork/PTRACE_TRACEME/SIGSTOP)", what);
}

/* ---- short and long iov_len ---- */
static void check_short_get(void)
{
    const char *what = "short GETREGSET";
    size_t u1, u2;

    th_block_state(&P, 31);
    pid_t pid = tracee(&P);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    th_to_regset(&P, &img);
    memset(big, 0xee, sizeof(big));
    long r1 = regset(pid, PTRACE_GETREGSET, big, 16, &u1);
    int ok1 = r1 == 0 && u1 == 16 && !memcmp(big, &img, 16) && all_bytes(big + 16, 0xee, sizeof(big) - 16);
    memset(big, 0xee, sizeof(big));
    long r2 = regset(pid, PTRACE_GETREGSET, big, 1088, &u2);
    int ok2 = r2 == 0 && u2 == 1088 && !memcmp(big, &img, 1088) &&
              all_bytes(big + 1088, 0xee, sizeof(big) - 1088);
    const char *t = tracee_sees(pid, &P);
    th_check(ok1 && ok2 && !*t,
             "%s: iov_len 16 -> %s, iov_len %zu, %s; iov_len 1088 (CSRs, reserved, tl0, 16 bytes of tl1) -> %s, "
             "iov_len %zu, %s; the tracee continues with its state unchanged%s",
             what, ename(r1), u1, ok1 ? "the first 16 bytes (ttype..tmask_concat_1), nothing after" : "WRONG bytes",
             ename(r2), u2, ok2 ? "exactly those bytes, nothing after" : "WRONG bytes", t);
}

static void check_short_set(size_t len)
{
    char what[160];
    size_t used;

    snprintf(what, sizeof(what), "short SETREGSET of %zu bytes (%s)", len,
             len == 16 ? "ttype, tshape, tmask_ls, tmask_concat_1"
                       : "CSRs, reserved, tl0, tl1 and the first half of tl2");
    th_block_state(&P, 32);
    th_block_state(&Q, 33);
    Q.csr[0] = TL_TYPE_FP16;
    Q.csr[1] = TL_SHAPE(2, 8, 32);
    Q.csr[2] = 0x13572468;
    Q.csr[3] = 0x24681357;
    pid_t pid = tracee(&P);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    th_to_regset(&Q, &img);
    memset(big, 0xee, sizeof(big));
    memcpy(big, &img, len);
    long r = regset(pid, PTRACE_SETREGSET, big, len, &used);
    /* expected: the first len bytes from Q's image, the rest from P's */
    th_to_regset(&P, &img2);
    memcpy(&img2, &img, len);
    th_from_regset(&img2, &E);
    long g = get_full(pid, &got);
    th_from_regset(&got, &T);
    int d = tl_state_compare(&T, &E);
    const char *t = tracee_sees(pid, &E);
    th_check(r == 0 && g == (long)RS && !d && !*t,
             "%s: -> %s (iov_len %zu); GETREGSET then: %s%s%s",
             what, ename(r), used,
             g != (long)RS ? "failed" : d ? "WRONG: differs at " : "those bytes changed, every other byte kept",
             g == (long)RS && d ? th_item(d) : "", t);
}

static void check_long(int set)
{
    const char *what = set ? "long SETREGSET (iov_len 65632, twice the register set)"
                           : "long GETREGSET (iov_len 65632, twice the register set)";
    size_t used;

    th_block_state(&P, 34);
    tl_state_pattern(&Q, 35);
    pid_t pid = tracee(&P);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    memset(big, 0xee, sizeof(big));
    if (set) {
        th_to_regset(&Q, &img);
        memcpy(big, &img, RS);
        memset(big + RS, 0x99, RS);    /* beyond the register set: must be ignored */
        long r = regset(pid, PTRACE_SETREGSET, big, 2 * RS, &used);
        long g = get_full(pid, &got);
        int same = g == (long)RS && !memcmp(&got, &img, RS);
        const char *t = tracee_sees(pid, &Q);
        th_check(r == 0 && used == RS && same && !*t,
                 "%s: -> %s, iov_len reported %zu (want %zu); GETREGSET then: %s%s", what, ename(r), used, RS,
                 same ? "the first 32816 bytes of the buffer" : "WRONG", t);
    } else {
        th_to_regset(&P, &img);
        long r = regset(pid, PTRACE_GETREGSET, big, 2 * RS, &used);
        int ok = r == 0 && used == RS && !memcmp(big, &img, RS) && all_bytes(big + RS, 0xee, sizeof(big) - RS);
        const char *t = tracee_sees(pid, &P);
        th_check(ok && !*t, "%s: -> %s, iov_len reported %zu (want %zu), %s; the tracee continues unchanged%s",
                 what, ename(r), used, RS,
                 ok ? "the whole state and nothing written after it" : "WRONG contents", t);
    }
}

/* ---- garbage contents ---- */
static void check_garbage(int variant)
{
    static const uint32_t g1[9] = { 0xabcde123u, 0xff030208u, 0xdeadbeefu, 0x12345678u, 0x87654321u,
                                    0xfffffff0u, 0x00000100u, 0xff010203u, 0xffffff2au };
    char what[200];

    snprintf(what, sizeof(what), "SETREGSET with garbage: %s, reserved words 1,2,3, tl0 bytes 0x77",
             variant ? "every CSR word 0xffffffff, tinit 0xffffffff"
                     : "reserved bits in ttype/tshape/tvalid, tinit 0xffffff2a (bit 0 clear, 4 CSRs uninitialized)");
    tl_state_pattern(&P, 36);
    pid_t pid = tracee(&P);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    tl_state_pattern(&Q, 37);
    th_to_regset(&Q, &img);
    for (unsigned i = 0; i < 9; i++) {
        img.csr[i] = variant ? 0xffffffffu : g1[i];
    }
    img.reserved[0] = 1;
    img.reserved[1] = 2;
    img.reserved[2] = 3;
    memset(img.reg[0], 0x77, 1024);
    long r = regset(pid, PTRACE_SETREGSET, &img, RS, NULL);
    th_state_from_image(&E, img.csr, img.reg);   /* what the exact restore sequence leaves */
    long g = get_full(pid, &got);
    th_from_regset(&got, &T);
    int d = tl_state_compare(&T, &E);
    int res0 = !got.reserved[0] && !got.reserved[1] && !got.reserved[2];
    const char *t = tracee_sees(pid, &E);
    th_check(r == 0 && g == (long)RS && !d && res0 && !*t,
             "%s: -> %s; read back: ttype %#x tshape %#x tmask_ls %#x concat_1 %#x concat_2 %#x stride %#x "
             "width %#x tvalid %#x tinit %#x, reserved %s, tl0 %s%s%s%s",
             what, ename(r), got.csr[0], got.csr[1], got.csr[2], got.csr[3], got.csr[4], got.csr[5], got.csr[6],
             got.csr[7], got.csr[8], res0 ? "0" : "NOT 0", all_bytes(got.reg[0], 0, 1024) ? "zero" : "NOT zero",
             d ? "; WRONG, differs from the exact restore sequence at " : " (sanitized as the exact restore "
             "sequence does)", d ? th_item(d) : "", t);
}

/* ---- unmapped and partly mapped buffers ---- */
static char *unmapped(void)
{
    char *p = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    munmap(p, 16 * PAGE);
    return p;
}

static void check_unmapped(int set)
{
    const char *what = set ? "SETREGSET from an unmapped iov_base" : "GETREGSET to an unmapped iov_base";

    tl_state_pattern(&P, 38);
    pid_t pid = tracee(&P);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    long r = regset(pid, set ? PTRACE_SETREGSET : PTRACE_GETREGSET, unmapped(), RS, NULL);
    th_to_regset(&P, &img);
    long g = get_full(pid, &got);
    int same = g == (long)RS && !memcmp(&got, &img, RS);
    const char *t = tracee_sees(pid, &P);
    th_check(r == -EFAULT && same && !*t, "%s: -> %s (want -EFAULT); GETREGSET then: %s%s", what, ename(r),
             same ? "the state unchanged" : "CHANGED", t);
}

/* A 32816-byte buffer whose bytes from `readable` on are PROT_NONE. */
static char *half_mapped(size_t readable)
{
    size_t span = (RS + PAGE - 1) & ~(PAGE - 1);
    char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    mprotect(p + readable, span - readable, PROT_NONE);
    return p;
}

static void check_half_mapped(int set)
{
    const size_t readable = 4 * PAGE;
    const char *what = set ? "SETREGSET from a buffer whose bytes from 16384 on are PROT_NONE"
                           : "GETREGSET into a buffer whose bytes from 16384 on are PROT_NONE";

    tl_state_pattern(&P, 39);
    tl_state_pattern(&Q, 40);
    pid_t pid = tracee(&P);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    char *buf = half_mapped(readable);
    th_to_regset(&P, &img);
    th_to_regset(&Q, &img2);
    if (set) {
        memcpy(buf, &img2, readable);
    }
    long r = regset(pid, set ? PTRACE_SETREGSET : PTRACE_GETREGSET, buf, RS, NULL);
    long g = get_full(pid, &got);
    /* how much of the buffer the state took: a prefix of Q's image, the rest P's */
    size_t k = 0;
    while (k < RS && ((uint8_t *)&got)[k] == ((uint8_t *)&img2)[k]) {
        k++;
    }
    int unchanged = g == (long)RS && !memcmp(&got, &img, RS);
    int prefix = g == (long)RS && k <= readable && !memcmp((uint8_t *)&got + k, (uint8_t *)&img + k, RS - k);
    th_from_regset(&got, &T);
    const char *t = tracee_sees(pid, &T);
    char state[96];
    snprintf(state, sizeof(state), unchanged ? "the state unchanged" : prefix ? "the first %zu bytes of the buffer "
             "applied, the rest unchanged (Linux copies a register set in piece by piece)" : "CHANGED otherwise", k);
    th_check(r == -EFAULT && (unchanged || (set && prefix)) && !*t,
             "%s: -> %s (want -EFAULT); GETREGSET then: %s%s", what, ename(r), state, t);
    munmap(buf, (RS + PAGE - 1) & ~(PAGE - 1));
}

/* ---- a tracee that never used TL ---- */
static void check_never_used(void)
{
    const char *what = "a tracee that never used TL";

    pid_t pid = tracee(NULL);
    if (pid < 0) {
        no_tracee(what);
        return;
    }
    long g1 = get_full(pid, &got);
    long s1 = regset(pid, PTRACE_SETREGSET, unmapped(), RS, NULL);
    long g2 = get_full(pid, &got);
    th_check(g1 == -ENODATA && s1 == -EFAULT && g2 == -ENODATA,
             "%s: GETREGSET -> %s (want -ENODATA); a SETREGSET from an unmapped buffer -> %s (want -EFAULT) "
             "leaves it without TL state: GETREGSET -> %s (want -ENODATA)", what, ename(g1), ename(s1), ename(g2));
    long s0 = regset(pid, PTRACE_SETREGSET, &img, 0, NULL);
    long g0 = get_full(pid, &got);
    th_check(s0 == 0 && g0 == -ENODATA,
             "%s: an empty SETREGSET (iov_len 0) -> %s (want 0) changes nothing: GETREGSET -> %s (want -ENODATA)",
             what, ename(s0), ename(g0));
    tl_state_pattern(&Q, 41);
    th_to_regset(&Q, &img);
    long s2 = regset(pid, PTRACE_SETREGSET, &img, RS, NULL);
    long g3 = get_full(pid, &got);
    int same = g3 == (long)RS && !memcmp(&got, &img, RS);
    const char *t = tracee_sees(pid, &Q);
    th_check(s2 == 0 && same && !*t,
             "%s: SETREGSET of a whole state -> %s; GETREGSET -> %s, %s; the tracee's first TL access "
             "sees exactly that state (%s)%s",
             what, ename(s2), ename(g3), same ? "the state written" : "NOT the state written", th_summary(&Q), t);
}

/* ---- SEIZE + INTERRUPT of a TL loop ---- */
static uint8_t loop_byte(unsigned long c)
{
    return (uint8_t)(c * 37 + 11);
}

static void loop_tracee(int cpu)
{
    static uint8_t buf[1024];
    static struct tl_full_state S, want;

    alarm(20);
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    th_block_state(&S, 42);
    tl_state_write(&S);
    unsigned long c;
    for (c = 0; !sh->stop; c++) {
        tl_csr_write(TL_CSR_TMASK_CONCAT_1, c);
        memset(buf, loop_byte(c), sizeof(buf));
        tl_load(5, 0, buf);
        sh->count = c + 1;
        if ((c & 255) == 0) {
            sh->cpu = sched_getcpu();
        }
    }
    /* what this state must be: S, with the loop's last values and the tracer's changes */
    want = S;
    want.csr[3] = c - 1;
    memset(want.reg[5], loop_byte(c - 1), 1024);
    memset(want.reg[6], sh->tl6, 1024);
    want.csr[4] = sh->concat_2;
    tl_state_read(&sh->seen);
    sh->expect = want;
    sh->result = tl_state_compare(&sh->seen, &want);
    _exit(sh->result ? 1 : 0);
}

static void check_seize(int ncpu)
{
    int st;
    const char *what = "PTRACE_SEIZE + PTRACE_INTERRUPT of a task in a TL loop";
    char where[96];

    memset((void *)sh, 0, sizeof(*sh));
    sh->result = -1;
    int pinned = ncpu >= 2;
    if (pinned) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    pid_t pid = fork();
    if (pid == 0) {
        loop_tracee(pinned ? 1 : -1);
    }
    /* wait until it loops, and see it advance while this task runs */
    double t0 = th_now();
    while (sh->count < 2000 && th_now() - t0 < 10) {
        th_sleep_ms(2);
    }
    unsigned long c0 = sh->count;
    double t1 = th_now();
    while (th_now() - t1 < 0.02) {
    }
    unsigned long c1 = sh->count;
    if (pinned) {
        snprintf(where, sizeof(where), "running on CPU %d while the tracer spun on CPU 0 (%lu iterations in "
                 "20 ms)", sh->cpu, c1 - c0);
    } else {
        snprintf(where, sizeof(where), "1 CPU: preempted by the tracer, not running concurrently");
    }
    long s = ptrace(PTRACE_SEIZE, pid, NULL, NULL) < 0 ? -errno : 0;
    long i = ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) < 0 ? -errno : 0;
    int stopped = s == 0 && i == 0 && th_wait(pid, &st, 10000, 0) && WIFSTOPPED(st) &&
                  (st >> 16) == PTRACE_EVENT_STOP;
    if (!stopped) {
        kill(pid, SIGKILL);
        th_wait(pid, &st, 2000, 0);
        th_check(0, "%s: SEIZE %s, INTERRUPT %s, no event stop (%s)", what, ename(s), ename(i), th_status(st));
        th_check(0, "%s: SETREGSET while stopped: not run", what);
        goto out;
    }
    unsigned long n = sh->count;
    long g = get_full(pid, &got);
    th_from_regset(&got, &T);
    /* the loop stopped somewhere in iteration n: before its CSR write, between it and the load, or after */
    uint32_t k1 = got.csr[3];
    int tl5_old = all_bytes(got.reg[5], loop_byte(n - 1), 1024), tl5_new = all_bytes(got.reg[5], loop_byte(n), 1024);
    int consistent = (k1 == n - 1 && tl5_old) || (k1 == n && (tl5_old || tl5_new));
    static struct tl_full_state S;
    th_block_state(&S, 42);
    S.csr[3] = T.csr[3];
    memcpy(S.reg[5], T.reg[5], 1024);
    int d = tl_state_compare(&T, &S);
    th_check(g == (long)RS && consistent && !d,
             "%s (%s): stopped after %lu iterations; GETREGSET -> %s: tmask_concat_1 %u, tl5 all %#x (%s), "
             "every other register and CSR: %s%s", what, where, n, ename(g), k1, got.reg[5][0],
             consistent ? "the loop's live values at that point" : "NOT the loop's values at that point: stale",
             d ? th_item(d) : "exactly the tracee's own", d ? " DIFFERS" : "");
    /* change tl6 and tmask_concat_2, keep the rest as read */
    sh->tl6 = 0x6c;
    sh->concat_2 = 0xc0ffee00u;
    memset(got.reg[6], sh->tl6, 1024);
    got.csr[4] = sh->concat_2;
    long r = regset(pid, PTRACE_SETREGSET, &got, RS, NULL);
    sh->stop = 1;
    ptrace(PTRACE_CONT, pid, NULL, NULL);
    int ended = th_wait(pid, &st, 10000, 0);
    th_check(r == 0 && ended && WIFEXITED(st) && WEXITSTATUS(st) == 0,
             "%s: SETREGSET of tl6 = 0x6c.. and tmask_concat_2 = 0xc0ffee00 while stopped -> %s; the tracee "
             "continued its loop and then saw %s (%s)", what, ename(r),
             sh->result == 0 ? "exactly its loop state with those two changes" :
             sh->result > 0 ? th_item(sh->result) : "nothing (it did not check)",
             th_status(ended ? st : -1));
    if (sh->result > 0) {
        printf("# the tracee saw %s, wanted %s\n", th_summary(&sh->seen), th_summary(&sh->expect));
    }
out:
    if (pinned) {
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int c = 0; c < ncpu && c < CPU_SETSIZE; c++) {
            CPU_SET(c, &set);
        }
        sched_setaffinity(0, sizeof(set), &set);
    }
}

int main(void)
{
    int st;

    setvbuf(stdout, NULL, _IONBF, 0);
    th_timeout("tl-ptrace-hostile", 120);
    sh = th_shared(sizeof(*sh));
    /* qemu-riscv64 has no ptrace: one counted skip instead of a failure per case */
    pid_t probe = fork();
    if (probe == 0) {
        _exit(ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0 && errno == ENOSYS ? 38 : 0);
    }
    if (th_wait(probe, &st, 10000, 0) && WIFEXITED(st) && WEXITSTATUS(st) == 38) {
        th_skip("PTRACE_GETREGSET/SETREGSET of NT_RISCV_XTL, hostile uses", "ptrace is not available (ENOSYS)");
        return th_finish();
    }
    int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("# tl-ptrace-hostile: NT_RISCV_XTL (%#x, %zu bytes) with odd lengths, garbage, bad buffers, "
           "a tracee without TL and a running TL loop; %d CPU(s)\n", TL_NT_RISCV_XTL, RS, ncpu);

    check_short_get();
    check_short_set(16);
    check_short_set(48 + 1024 + 1024 + 512);
    check_long(0);
    check_long(1);
    check_garbage(0);
    check_garbage(1);
    check_unmapped(0);
    check_unmapped(1);
    check_half_mapped(0);
    check_half_mapped(1);
    check_never_used();
    check_seize(ncpu);
    return th_finish();
}
