/*
 * Signal frames and the "TL state in use" rule (docs/abi.md):
 *   - a thread that never used TL gets the frame Linux writes without
 *     extension state: the extension chain holds only the END header, and
 *     such a frame fits a SIGSTKSZ or MINSIGSTKSZ alternate stack;
 *   - from its first TL CSR access or instruction on, a thread's frames
 *     carry the TL record; a thread created or forked afterwards inherits
 *     that, a thread created before does not;
 *   - AT_MINSIGSTKSZ covers the record: an alternate stack of that size
 *     works, and the handler returns to intact TL state; as under Linux,
 *     sigaltstack refuses a stack that cannot hold the thread's frame;
 *   - a thread that set up a small alternate stack before it used TL dies
 *     of SIGSEGV at once when its frame no longer fits (no corruption
 *     below the stack, no hang);
 *   - riscv_hwprobe answers the xtl key (include/tl/tl_linux.h);
 *   - rt_sigreturn walks the chain as the kernel does: a damaged frame
 *     (record size, unknown record, reserved word) is SIGSEGV, and an edit
 *     of the record's tinit takes effect like a tinit write.
 *
 *   test_sigframe notl   only the first part (for CPUs without xtl)
 *   test_sigframe        everything
 *
 * Expected values are the kernel's layout (arch/riscv/include/uapi/asm/
 * sigcontext.h) and the spec's record layout, written out here.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "tl_test.h"
#include "tl/tl_insn.h"
#include "tl/tl_linux.h"
#include "tl/tl_signal.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

/* What a SA_SIGINFO handler saw. */
struct seen {
    int ran;
    int has_record;
    uint32_t first_magic, first_size;  /* the first header of the chain */
    uint32_t ext_reserved;             /* sc_extdesc.reserved, just before it */
    uint32_t rec_tshape, rec_tinit;
    uint8_t rec_tl1_byte5;
};
static struct seen seen;

static void record_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig; (void)info;
    struct tl_ctx_hdr *first = tl_sigcontext_chain(uc);
    struct tl_sigcontext *rec = tl_sigcontext_find(uc);

    seen.ran = 1;
    seen.first_magic = first->magic;
    seen.first_size = first->size;
    seen.ext_reserved = ((uint32_t *)first)[-1];
    seen.has_record = rec != NULL;
    if (rec) {
        seen.rec_tshape = rec->csr[TL_SIGCONTEXT_TSHAPE];
        seen.rec_tinit = rec->csr[TL_SIGCONTEXT_TINIT];
        seen.rec_tl1_byte5 = rec->reg[1][5];
    }
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    sigaction(sig, &sa, NULL);
}

static struct seen deliver(int flags)
{
    memset(&seen, 0, sizeof(seen));
    install(SIGUSR1, record_handler, flags);
    raise(SIGUSR1);
    return seen;
}

/* An alternate stack of `size` bytes with an inaccessible page below it. */
static void *guarded_altstack(size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (size + page - 1) / page * page;
    char *p = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    stack_t ss;

    if (p == MAP_FAILED) {
        return NULL;
    }
    mprotect(p, page, PROT_NONE);
    ss.ss_sp = p + page + span - size;
    ss.ss_size = size;
    ss.ss_flags = 0;
    return sigaltstack(&ss, NULL) == 0 ? ss.ss_sp : NULL;
}

/* Handlers that damage their own frame in one way each. */
enum damage { DAMAGE_RECORD_SIZE, DAMAGE_UNKNOWN_RECORD, DAMAGE_RESERVED, DAMAGE_END_SIZE };
static volatile int damage_kind;

static void damaging_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig; (void)info;
    struct tl_ctx_hdr *first = tl_sigcontext_chain(uc);

    switch (damage_kind) {
    case DAMAGE_RECORD_SIZE: first->size -= 8; break;       /* needs a TL record first */
    case DAMAGE_UNKNOWN_RECORD: first->magic = 0x12345678; first->size = 16; break;
    case DAMAGE_RESERVED: ((uint32_t *)first)[-1] = 1; break;
    case DAMAGE_END_SIZE: first->size = 8; break;           /* END with a non-zero size */
    }
}

/* Runs a child whose handler applies damage `kind`; returns its wait status. */
static int damaged_sigreturn_status(int kind, int use_tl)
{
    int status = 0;
    pid_t pid = fork();

    if (pid == 0) {
        alarm(20);
        if (use_tl) {
            tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
        }
        damage_kind = kind;
        install(SIGUSR1, damaging_handler, 0);
        raise(SIGUSR1);
        _exit(0);   /* sigreturn accepted the frame */
    }
    waitpid(pid, &status, 0);
    return status;
}

static void check_damaged_frames(const char *who, int use_tl)
{
    static const char *const what[] = {
        "a TL record whose size is wrong", "an unknown record in the chain",
        "a non-zero sc_extdesc.reserved", "an END header with a non-zero size",
    };
    for (int kind = use_tl ? DAMAGE_RECORD_SIZE : DAMAGE_UNKNOWN_RECORD; kind <= DAMAGE_END_SIZE;
         kind++) {
        if (use_tl && kind == DAMAGE_END_SIZE) {
            continue;  /* the first header is the TL record */
        }
        int st = damaged_sigreturn_status(kind, use_tl);
        tl_check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
                 "%s: rt_sigreturn of a frame with %s delivers SIGSEGV (status %#x)", who,
                 what[kind], st);
    }
}

/* The handler clears tshape's flag in the record's tinit. */
static void uninit_tshape_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig; (void)info;
    struct tl_sigcontext *rec = tl_sigcontext_find(uc);

    if (rec) {
        rec->csr[TL_SIGCONTEXT_TINIT] &= ~(1u << TL_SIGCONTEXT_TSHAPE);
    }
}

static void disable_altstack(void)
{
    stack_t ss = { .ss_flags = SS_DISABLE };
    sigaltstack(&ss, NULL);
}

/* ---- part 1: a thread that never used TL ---- */
static void check_no_tl(const char *who)
{
    struct seen s = deliver(0);

    tl_check(s.ran && !s.has_record, "%s: a thread that never used TL gets no TL record", who);
    tl_check(s.first_magic == 0 && s.first_size == 0,
             "%s: its extension chain is only the END header (magic %#x, size %u)", who,
             s.first_magic, s.first_size);
    tl_check(s.ext_reserved == 0, "%s: sc_extdesc.reserved is 0", who);
    check_damaged_frames(who, 0);

    tl_check(guarded_altstack(SIGSTKSZ) != NULL, "%s: sigaltstack of SIGSTKSZ (%d bytes)", who,
             (int)SIGSTKSZ);
    s = deliver(SA_ONSTACK);
    tl_check(s.ran, "%s: a SA_ONSTACK handler runs on a SIGSTKSZ alternate stack", who);
    disable_altstack();
    tl_check(guarded_altstack(MINSIGSTKSZ) != NULL, "%s: sigaltstack of MINSIGSTKSZ (%d bytes)",
             who, (int)MINSIGSTKSZ);
    s = deliver(SA_ONSTACK);
    tl_check(s.ran, "%s: a SA_ONSTACK handler runs on a MINSIGSTKSZ alternate stack", who);
    disable_altstack();
}

/* ---- part 2: TL in use ---- */
static uint8_t pattern[1024], scratch[1024];

static void set_block_view(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(8, 1, 128));
}

static void *thread_reports(void *arg)
{
    *(struct seen *)arg = deliver(0);
    return NULL;
}

static pthread_t early_thread;
static pthread_mutex_t early_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t early_cond = PTHREAD_COND_INITIALIZER;
static int early_go;
static struct seen early_seen;

/* Created before the main thread uses TL; runs its check afterwards. */
static void *early_thread_fn(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&early_lock);
    while (!early_go) {
        pthread_cond_wait(&early_cond, &early_lock);
    }
    pthread_mutex_unlock(&early_lock);
    early_seen = deliver(0);
    return NULL;
}

/* Handler that uses TL itself (other shape, other tl1) on the alternate stack. */
static volatile int tl_handler_ran;
static void tl_using_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig; (void)info; (void)uc;
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 4, 128));
    tl_load(1, 0, scratch);
    tl_handler_ran = 1;
}

static int tl1_is_pattern(void)
{
    static uint8_t got[1024];

    tl_store(1, 0, got);
    return memcmp(got, pattern, sizeof(got)) == 0;
}

/*
 * In a child forked before anything used TL: a SIGSTKSZ alternate stack is
 * accepted, then the thread starts using TL, and its next frame (with the
 * record) does not fit.  Exit status 5: the stack was refused.
 */
static void small_altstack_child(void)
{
    alarm(20);  /* a hang would end as SIGALRM, not SIGSEGV */
    if (!guarded_altstack(SIGSTKSZ)) {
        _exit(5);
    }
    set_block_view();
    install(SIGUSR1, tl_using_handler, SA_ONSTACK);
    raise(SIGUSR1);
    _exit(tl_handler_ran ? 3 : 4);
}

static pid_t small_altstack_pid;
static struct timespec small_altstack_start;

static void check_tl(void)
{
    struct seen s, child_seen;
    pthread_t t;
    unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
    pid_t pid;
    int status = 0;

    clock_gettime(CLOCK_MONOTONIC, &small_altstack_start);
    small_altstack_pid = fork();
    if (small_altstack_pid == 0) {
        small_altstack_child();
    }
    pthread_create(&early_thread, NULL, early_thread_fn, NULL);

    for (int i = 0; i < 1024; i++) {
        pattern[i] = (uint8_t)(i * 13 + 7);
        scratch[i] = (uint8_t)~pattern[i];
    }
    set_block_view();                 /* first TL CSR accesses of this thread */
    s = deliver(0);
    tl_check(s.ran && s.has_record, "after its first TL CSR write, the thread's frames carry the TL record");
    tl_check(s.first_magic == TL_SIGCONTEXT_MAGIC && s.first_size == sizeof(struct tl_sigcontext),
             "the record is the first of the chain: magic %#x size %u (want %#x %zu)",
             s.first_magic, s.first_size, TL_SIGCONTEXT_MAGIC, sizeof(struct tl_sigcontext));
    tl_check(s.rec_tshape == TL_SHAPE(8, 1, 128) && s.rec_tinit == 0x03,
             "the record holds tshape %#x and tinit %#x (want 0x80180, 0x3)", s.rec_tshape,
             s.rec_tinit);

    tl_load(1, 0, pattern);
    s = deliver(0);
    tl_check(s.has_record && s.rec_tl1_byte5 == pattern[5], "the record holds tl1 (byte 5 = %u, want %u)",
             s.rec_tl1_byte5, pattern[5]);

    memset(&child_seen, 0, sizeof(child_seen));
    pthread_create(&t, NULL, thread_reports, &child_seen);
    pthread_join(t, NULL);
    tl_check(child_seen.ran && child_seen.has_record,
             "a thread created after the first TL use inherits the in-use state (record present)");

    pthread_mutex_lock(&early_lock);
    early_go = 1;
    pthread_cond_signal(&early_cond);
    pthread_mutex_unlock(&early_lock);
    pthread_join(early_thread, NULL);
    tl_check(early_seen.ran && !early_seen.has_record,
             "a thread created before the first TL use, never using TL itself, gets no record");

    pid = fork();
    if (pid == 0) {
        struct seen cs = deliver(0);
        _exit(cs.ran && cs.has_record ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    tl_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
             "a forked child inherits the in-use state (record present)");

    /*
     * AT_MINSIGSTKSZ: rt_sigframe (0x440) + record (32824), rounded to 16:
     * 33920.  A kernel that also counts its vector record (header 8 +
     * __sc_riscv_v_state 48 + 32 x VLENB) reports 33968 + 32 x VLENB.
     */
    unsigned long vlenb = minsig > 33968 ? (minsig - 33968) / 32 : 0;
    int v_ok = (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) && minsig == 33968 + 32 * vlenb &&
               vlenb >= 16 && (vlenb & (vlenb - 1)) == 0;
    tl_check(minsig == 33920 || v_ok, "getauxval(AT_MINSIGSTKSZ) = %lu with xtl (want 33920, or "
             "33968 + 32 x VLENB when the vector record is counted)", minsig);
    tl_check(sysconf(_SC_MINSIGSTKSZ) == (long)minsig, "sysconf(_SC_MINSIGSTKSZ) = %ld",
             sysconf(_SC_MINSIGSTKSZ));
    tl_check(tl_xtl_available() == 1, "riscv_hwprobe: the xtl key reports xtl usable (%d)",
             tl_xtl_available());
    errno = 0;
    tl_check(guarded_altstack(SIGSTKSZ) == NULL && errno == ENOMEM,
             "a thread using TL: sigaltstack of SIGSTKSZ (smaller than its frame) fails with ENOMEM "
             "(errno %d)", errno);
    long sigstksz = sysconf(_SC_SIGSTKSZ);
    tl_check(sigstksz == 4 * (long)minsig && guarded_altstack(sigstksz) != NULL,
             "sigaltstack of sysconf(_SC_SIGSTKSZ) = %ld bytes (4 x AT_MINSIGSTKSZ, glibc's rule)",
             sigstksz);
    tl_handler_ran = 0;
    install(SIGUSR1, tl_using_handler, SA_ONSTACK);
    raise(SIGUSR1);
    tl_check(tl_handler_ran, "a TL-using SA_ONSTACK handler runs on that stack");
    tl_check(tl1_is_pattern() && tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(8, 1, 128),
             "after it returns, tl1 and tshape are the interrupted code's again");
    disable_altstack();

    check_damaged_frames("TL in use", 1);

    set_block_view();
    install(SIGUSR1, uninit_tshape_handler, 0);
    raise(SIGUSR1);
    tl_check(tl_csr_read(TL_CSR_TSHAPE) == 0 && tl_csr_read(TL_CSR_TINIT) == 0x01,
             "clearing tshape's flag in the record's tinit leaves tshape uninitialized after "
             "sigreturn (tshape %#lx, tinit %#lx; want 0, 0x1)",
             tl_csr_read(TL_CSR_TSHAPE), tl_csr_read(TL_CSR_TINIT));
    set_block_view();

    struct timespec t1;
    waitpid(small_altstack_pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    tl_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
             "a thread whose SIGSTKSZ alternate stack was accepted before it used TL dies of SIGSEGV "
             "when its frame no longer fits (status %#x) within %.2f s", status,
             (double)(t1.tv_sec - small_altstack_start.tv_sec) +
             (t1.tv_nsec - small_altstack_start.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
    int tl = !(argc > 1 && strcmp(argv[1], "notl") == 0);

    setvbuf(stdout, NULL, _IONBF, 0);
    check_no_tl("no TL yet");
    if (tl) {
        check_tl();
    } else {
        unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
        tl_check(minsig == 0, "getauxval(AT_MINSIGSTKSZ) = %lu without xtl (no entry, as unpatched QEMU)",
                 minsig);
        tl_check(tl_xtl_available() == 0, "riscv_hwprobe: the xtl key reports no xtl (%d)",
                 tl_xtl_available());
    }
    return tl_test_finish();
}
