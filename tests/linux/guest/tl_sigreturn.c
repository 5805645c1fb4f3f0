/*
 * rt_sigreturn against damaged TL signal frames, and alternate stacks in
 * unusual places (docs/abi.md, "Signals" and "Signal stack size").
 *
 * A task using TL gets the TL record (magic "XTL1", 32824 bytes) in the
 * extension chain of its signal frames; rt_sigreturn restores the TL state
 * from it and delivers SIGSEGV for a damaged frame: a TL record whose size
 * is not 32824, a second TL record, an unknown record, an END header with
 * a non-zero size, a non-zero sc_extdesc.reserved.  Every case runs in a
 * forked child whose handler edits its own frame, then returns:
 *
 *  (a) the TL record's size smaller, header-only, larger, 0, huge;
 *  (b) a second complete TL record after the first;
 *  (c) the END header replaced: an unknown record, END with a size, a TL
 *      record running past the frame into a PROT_NONE page, a vector
 *      record in the frame of a task that never used V;
 *  (e) the page holding the tail of the TL record made PROT_NONE;
 *      for all of these rt_sigreturn must fail with SIGSEGV, and must not
 *      restore part of the record: the handler also changes every CSR word
 *      and the register bytes of the record (so that any part restored
 *      would show) without touching the live TL state, and a SIGSEGV
 *      handler on a second alternate stack (switched to from the first
 *      handler, whose stack is SS_AUTODISARM) checks that the live state
 *      and its own frame's TL record are exactly the state from before the
 *      first signal;
 *  (d) CSR words with reserved bits and tinit flags saying "uninitialized":
 *      accepted, and restored as the exact restore sequence of isa.md 2.6
 *      does: only writable bits, uninitialized CSRs read 0, tinit bit 0 is
 *      1, tl0 zero;
 *  (f) random byte/bit/word mutations of the chain headers and the TL
 *      record (seeded): a frame abi.md calls damaged must give SIGSEGV; a
 *      frame whose headers are intact must be accepted with exactly the
 *      record's contents (sanitized); any other (a non-zero reserved word
 *      of the record, a chain without TL record) either SIGSEGV or a sane
 *      state; never another signal, never a hang;
 *  (g) SS_AUTODISARM alternate stacks (tools/testing/selftests/sigaltstack/
 *      sas.c semantics) in a process that never uses TL, and in one that
 *      does: the handler runs on the stack, sees it disabled, a nested
 *      signal does not reuse it, and afterwards it is SS_AUTODISARM again;
 *  (h) an alternate stack whose top is the top of user space: a handler
 *      using TL for the first time returns normally (its frame has no TL
 *      record), and a TL frame ending exactly at the top is restored;
 *  (i) alternate stacks around the frame's own size, from 16 bytes below
 *      to 16 above, on a 16-aligned base, in a process with TL in use (its
 *      frame, 33920 bytes, is above MINSIGSTKSZ): every stack sigaltstack()
 *      accepts takes the frame (the handler runs), down to a frame starting
 *      at the stack's very base;
 *  (j) a process that has used TL at its reset state (read it only): a
 *      handler that writes a whole TL state leaves the interrupted code's
 *      state exactly as it was (in eager mode too, where that frame has no
 *      TL record).
 *
 *   tl-sigreturn [ITERATIONS [SEED]]     (f): default 300 iterations
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <ucontext.h>

#include "tl_hostile.h"

#define PAGE 4096ul
#define REC_SIZE ((uint32_t)sizeof(struct tl_sigcontext))   /* 32824 */
#define V_MAGIC 0x53465457u          /* Linux's RISCV_V_MAGIC */
#define UNKNOWN_MAGIC 0x4e4b4e55u    /* "UNKN" */
#define ALT_A (64 * 1024ul)          /* the first alternate stack */
#define ABOVE (40 * 1024ul)          /* mapped right above it: room for a second record */
#define ALT_B (256 * 1024ul)         /* the SIGSEGV handler's stack */

/* What a child reports to the parent (shared memory). */
struct report {
    int handler_ran;        /* the first handler ran */
    int not_applicable;     /* the case does not apply here (note says why) */
    char note[200];         /* what the handler did */
    int altstack_b_errno;   /* sigaltstack(second stack) in the handler: 0 or errno */
    int no_autodisarm;      /* SS_AUTODISARM refused (EINVAL, as qemu-riscv64 does): plain stack,
                               SIGSEGV handled on the interrupted code's stack */
    int segv_ran, segv_code, segv_on_b;
    int rec_present, rec_cmp;   /* the SIGSEGV frame's TL record against the expectation */
    int returned;           /* rt_sigreturn returned to the interrupted code */
    int live_cmp;           /* the live state against the expectation */
    char verdict[160];      /* which state the live state is */
    int cls;                /* (f): what abi.md says about the mutated frame */
    /* (g) */
    int g_errno, g_runs, g_on_stack, g_disabled, g_after, g_usr2_ustack, g_usr2_alt, g_data_ok;
    /* (h) */
    int h_bits, h_runs, h_on_stack, h_rec[2], h_returned[2];
    /* (i) */
    uintptr_t i_frame;      /* where the handler's frame (its siginfo) starts */
    /* (j) */
    int j_ran, j_returned;
    struct tl_full_state live;
};

static int plain_altstack;
static struct report *rep;
static struct tl_full_state want;     /* the state before the first signal */
static struct tl_full_state edited;   /* what the (edited) record restores to */
static struct tl_full_state second;   /* what (b)'s second record restores to */
static struct tl_full_state tmp;
static char *alt_a, *alt_b, *top;
static int kind;

/* ---- the extension chain of a frame ---- */
struct chain {
    struct tl_ctx_hdr *first;   /* the header at the end of the sigcontext */
    struct tl_sigcontext *tl;   /* the TL record */
    struct tl_ctx_hdr *end;     /* the END header */
    int v;                      /* a vector record is present */
};

/* Walks a chain the kernel wrote (so it is well formed). */
static void chain_walk(void *uc, struct chain *c)
{
    char *p = (char *)tl_sigcontext_chain(uc);

    memset(c, 0, sizeof(*c));
    c->first = (struct tl_ctx_hdr *)p;
    for (int n = 0; n < 8; n++) {
        struct tl_ctx_hdr *h = (struct tl_ctx_hdr *)p;
        if (h->magic == TL_SIGCONTEXT_END_MAGIC) {
            c->end = h;
            return;
        }
        if (h->magic == TL_SIGCONTEXT_MAGIC) {
            c->tl = (struct tl_sigcontext *)h;
        } else if (h->magic == V_MAGIC) {
            c->v = 1;
        }
        if (h->size < sizeof(*h)) {
            return;
        }
        p += h->size;
    }
}

static void put_hdr(void *where, uint32_t magic, uint32_t size)
{
    struct tl_ctx_hdr h = { magic, size };

    memcpy(where, &h, sizeof(h));
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    sigaction(sig, &sa, NULL);
}

/* The damage cases of (a), (b), (c), (e). */
enum {
    A_SMALLER, A_HEADER_ONLY, A_LARGER, A_ZERO, A_HUGE, B_SECOND, C_UNKNOWN, C_END_SIZE, C_PAST,
    C_VECTOR, E_PROT_NONE, N_DAMAGE
};
/* Which state `s` is, for the report (called from a SIGSEGV handler: no malloc). */
static void classify(const struct tl_full_state *s, char *out, size_t len)
{
    static struct tl_full_state reset;
    int d = tl_state_compare(s, &want);

    th_reset_state(&reset);
    if (!d) {
        snprintf(out, len, "exactly the state before the signal");
    } else if (!tl_state_compare(s, &edited)) {
        snprintf(out, len, "the damaged record's contents (restored from a frame it should have refused)");
    } else if (kind == B_SECOND && !tl_state_compare(s, &second)) {
        snprintf(out, len, "the second record's contents");
    } else if (!tl_state_compare(s, &reset)) {
        snprintf(out, len, "the reset state");
    } else {
        snprintf(out, len, "another state: %s differs from the state before the signal", th_item(d));
    }
}

/*
 * Changes every CSR word of the record and the bytes of tl1..tl31 below
 * `limit`, so that a partial restore would be visible.  The live state is
 * left alone.
 */
static void edit_record(struct tl_sigcontext *r, const char *limit)
{
    r->csr[0] = r->csr[0] == TL_TYPE_FP16 ? TL_TYPE_INT16 : TL_TYPE_FP16;
    for (unsigned i = 1; i < 8; i++) {
        r->csr[i] ^= 0x00a5a5a5u;
    }
    r->csr[8] = r->csr[8] == 0xff ? 0x7f : 0xff;
    for (unsigned n = 1; n < 32; n++) {
        for (unsigned b = 0; b < 1024; b++) {
            if ((const char *)&r->reg[n][b] < limit) {
                r->reg[n][b] ^= 0xa5;
            }
        }
    }
}

/* ---- (a) (b) (c) (e): frames rt_sigreturn must refuse ---- */
static const struct {
    char group;
    int guard_above;     /* PROT_NONE right above the first alternate stack */
    const char *what;
} damages[N_DAMAGE] = {
    { 'a', 0, "TL record size 32816 (8 less; a valid END where that size ends)" },
    { 'a', 0, "TL record size 8 (header only; a valid END right after it)" },
    { 'a', 0, "TL record size 32832 (8 more; a valid END where that size ends)" },
    { 'a', 0, "TL record size 0" },
    { 'a', 0, "TL record size 0xfffffff8 (the next header would be 4 GiB away)" },
    { 'b', 0, "a second complete TL record after the first (then END)" },
    { 'c', 0, "the END header replaced by an unknown record of 8 bytes (then a valid END)" },
    { 'c', 0, "the END header with size 8 (then a valid END)" },
    { 'c', 1, "the END header replaced by a TL record header running past the frame into a "
              "PROT_NONE page" },
    { 'c', 0, "the END header replaced by a vector record (the task never used V)" },
    { 'e', 0, "the page holding the tail of the TL record made PROT_NONE by the handler" },
};

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
    char here;
    struct tl_sigcontext *r = tl_sigcontext_find(uc);

    (void)sig;
    rep->segv_ran = 1;
    rep->segv_code = si->si_code;
    rep->segv_on_b = &here >= alt_b && &here < alt_b + ALT_B;
    rep->rec_present = r != NULL;
    if (r) {
        th_state_from_image(&tmp, r->csr, r->reg);
        rep->rec_cmp = tl_state_compare(&tmp, &want);
    }
    tl_state_read(&rep->live);    /* csrr of every CSR, tl.store of tl1..tl31 */
    rep->live_cmp = tl_state_compare(&rep->live, &want);
    classify(&rep->live, rep->verdict, sizeof(rep->verdict));
    _exit(rep->live_cmp || !r || rep->rec_cmp ? 1 : 0);
}

static void damage_handler(int sig, siginfo_t *si, void *uc)
{
    struct chain c;
    stack_t b = { .ss_sp = alt_b, .ss_flags = 0, .ss_size = ALT_B };

    (void)sig; (void)si;
    rep->handler_ran = 1;
    chain_walk(uc, &c);
    if (!c.tl || !c.end) {
        snprintf(rep->note, sizeof(rep->note), "the frame of a task using TL has %s",
                 c.tl ? "no END header within 8 records" : "no TL record");
        _exit(21);
    }
    /* The first stack is SS_AUTODISARM, so the handler may switch to a second one. */
    if (rep->no_autodisarm) {
        install(SIGSEGV, segv_handler, 0);
    } else {
        rep->altstack_b_errno = sigaltstack(&b, NULL) ? errno : 0;
        install(SIGSEGV, segv_handler, rep->altstack_b_errno ? 0 : SA_ONSTACK);
    }

    char *rec = (char *)c.tl, *end = (char *)c.end;
    char *tail_page = (char *)(((uintptr_t)rec + REC_SIZE - 1) & ~(PAGE - 1));
    edit_record(c.tl, kind == E_PROT_NONE ? tail_page : rec + REC_SIZE);
    switch (kind) {
    case A_SMALLER:
        c.tl->hdr.size = REC_SIZE - 8;
        put_hdr(rec + REC_SIZE - 8, 0, 0);
        break;
    case A_HEADER_ONLY:
        c.tl->hdr.size = 8;
        put_hdr(rec + 8, 0, 0);
        break;
    case A_LARGER:
        c.tl->hdr.size = REC_SIZE + 8;
        put_hdr(rec + REC_SIZE + 8, 0, 0);
        break;
    case A_ZERO:
        c.tl->hdr.size = 0;
        break;
    case A_HUGE:
        c.tl->hdr.size = 0xfffffff8u;
        break;
    case B_SECOND:
        memcpy(end, rec, REC_SIZE);
        for (unsigned n = 1; n < 32; n++) {
            memset(((struct tl_sigcontext *)end)->reg[n], 0x30 + n, 1024);
        }
        ((struct tl_sigcontext *)end)->csr[2] = 0x0badf00d;
        put_hdr(end + REC_SIZE, 0, 0);
        th_state_from_image(&second, ((struct tl_sigcontext *)end)->csr,
                            ((struct tl_sigcontext *)end)->reg);
        break;
    case C_UNKNOWN:
        put_hdr(end, UNKNOWN_MAGIC, 8);
        put_hdr(end + 8, 0, 0);
        break;
    case C_END_SIZE:
        put_hdr(end, 0, 8);
        put_hdr(end + 8, 0, 0);
        break;
    case C_PAST:
        put_hdr(end, TL_SIGCONTEXT_MAGIC, REC_SIZE);
        snprintf(rep->note, sizeof(rep->note), "the header is %ld bytes below the stack's top",
                 (long)(top - end));
        break;
    case C_VECTOR:
        if (c.v) {
            rep->not_applicable = 1;
            snprintf(rep->note, sizeof(rep->note), "this task uses V: its frame has a vector record");
            _exit(22);
        }
        put_hdr(end, V_MAGIC, 8 + 48 + 32 * 16);
        put_hdr(end + 8 + 48 + 32 * 16, 0, 0);
        break;
    }
    th_state_from_image(&edited, c.tl->csr, c.tl->reg);
    if (kind == E_PROT_NONE) {
        if (tail_page <= rec + 4096 || mprotect(tail_page, PAGE, PROT_NONE) != 0) {
            snprintf(rep->note, sizeof(rep->note), "cannot make the record's tail page PROT_NONE: %s",
                     strerror(errno));
            _exit(23);
        }
        snprintf(rep->note, sizeof(rep->note), "the last %ld bytes of the record are in it",
                 (long)(rec + REC_SIZE - tail_page));
    }
}

static void damage_child(void)
{
    char *region = mmap(NULL, PAGE + ALT_A + ABOVE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t a;

    alarm(10);
    alt_b = mmap(NULL, ALT_B, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED || alt_b == MAP_FAILED) {
        _exit(24);
    }
    mprotect(region, PAGE, PROT_NONE);
    alt_a = region + PAGE;
    top = alt_a + ALT_A;
    if (damages[kind].guard_above) {
        mprotect(top, ABOVE, PROT_NONE);
    }
    a.ss_sp = alt_a;
    a.ss_size = ALT_A;
    a.ss_flags = plain_altstack ? 0 : SS_AUTODISARM;
    int r = sigaltstack(&a, NULL);
    if (plain_altstack || (r != 0 && errno == EINVAL)) {
        rep->no_autodisarm = 1;     /* (g) reports it; the case itself still runs */
        a.ss_flags = 0;
        r = sigaltstack(&a, NULL);
    }
    if (r != 0) {
        snprintf(rep->note, sizeof(rep->note), "sigaltstack(64 KiB): %s", strerror(errno));
        _exit(20);
    }
    install(SIGUSR1, damage_handler, SA_ONSTACK);
    tl_state_pattern(&want, 40 + (unsigned)kind);
    tl_state_write(&want);
    raise(SIGUSR1);
    /* rt_sigreturn accepted the frame */
    rep->returned = 1;
    tl_state_read(&rep->live);
    rep->live_cmp = tl_state_compare(&rep->live, &want);
    classify(&rep->live, rep->verdict, sizeof(rep->verdict));
    _exit(3);
}

static void check_damage(int k)
{
    int st;

    memset(rep, 0, sizeof(*rep));
    kind = k;
    pid_t pid = fork();
    if (pid == 0) {
        damage_child();
    }
    th_wait(pid, &st, 15000, 0);
    char what[256];
    snprintf(what, sizeof(what), "(%c) %s", damages[k].group, damages[k].what);
    if (rep->not_applicable && WIFEXITED(st) && WEXITSTATUS(st) == 22) {
        th_skip(what, "%s", rep->note);
        return;
    }
    if (rep->segv_ran) {
        int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && (rep->segv_on_b || rep->no_autodisarm);
        th_check(ok, "%s%s%s: rt_sigreturn -> SIGSEGV (si_code %d), handled on the second alternate stack: %s; "
                 "TL state afterwards: %s (live: %s; in the SIGSEGV frame: %s)",
                 what, rep->note[0] ? "; " : "", rep->note, rep->segv_code,
                 rep->segv_on_b ? "yes" : rep->no_autodisarm ? (plain_altstack ?
                 "no (plain-altstack: on the interrupted code's stack)" : "no (SS_AUTODISARM refused: on the interrupted "
                 "code's stack)") : rep->altstack_b_errno ? "NO (sigaltstack in the handler failed)" : "NO",
                 rep->verdict, th_summary(&rep->live),
                 !rep->rec_present ? "no TL record" : rep->rec_cmp ? "a different state" : "the same");
    } else if (rep->returned) {
        th_check(0, "%s: rt_sigreturn ACCEPTED the damaged frame (want SIGSEGV); TL state afterwards: %s (%s)",
                 what, rep->verdict, th_summary(&rep->live));
    } else {
        th_check(0, "%s: the child %s (first handler ran: %s%s%s) -- want SIGSEGV caught by its handler",
                 what, th_status(st), rep->handler_ran ? "yes" : "no", rep->note[0] ? "; " : "", rep->note);
    }
}

/* ---- (d): CSR words with reserved bits, tinit claiming uninitialized CSRs ---- */
enum { D_RESERVED, D_ALL_UNINIT, D_ALL_ONES, N_SANITIZE };
static const char *const sanitize_what[N_SANITIZE] = {
    "reserved bits in ttype/tshape/tvalid, tinit 0xffffff2a (bit 0 clear, reserved bits set, "
    "tmask_ls/tmask_concat_2/width/tvalid uninitialized)",
    "every CSR word 0xffffffff, tinit 0 (all uninitialized, bit 0 clear)",
    "every CSR word with all bits set but a pattern, tinit 0xffffffff, tl0 bytes non-zero",
};

static void sanitize_handler(int sig, siginfo_t *si, void *uc)
{
    struct tl_sigcontext *r = tl_sigcontext_find(uc);

    (void)sig; (void)si;
    rep->handler_ran = 1;
    if (!r) {
        snprintf(rep->note, sizeof(rep->note), "the frame of a task using TL has no TL record");
        _exit(21);
    }
    static const uint32_t d1[9] = { 0xabcde123u, 0xff030208u, 0xdeadbeefu, 0x12345678u, 0x87654321u,
                                    0xfffffff0u, 0x00000100u, 0xff010203u, 0xffffff2au };
    switch (kind) {
    case D_RESERVED:
        memcpy(r->csr, d1, sizeof(d1));
        break;
    case D_ALL_UNINIT:
        for (unsigned i = 0; i < 8; i++) {
            r->csr[i] = 0xffffffffu;
        }
        r->csr[8] = 0;
        break;
    case D_ALL_ONES:
        for (unsigned i = 0; i < 8; i++) {
            r->csr[i] = 0xffffffffu ^ (0x01010101u << i);
        }
        r->csr[8] = 0xffffffffu;
        memset(r->reg[0], 0x77, 1024);
        break;
    }
    for (unsigned n = 1; n < 32; n++) {
        for (unsigned b = 0; b < 1024; b += 3) {
            r->reg[n][b] ^= (uint8_t)(0x3c + n);
        }
    }
    th_state_from_image(&edited, r->csr, r->reg);
}

static void sanitize_child(void)
{
    alarm(10);
    tl_state_pattern(&want, 60 + (unsigned)kind);
    tl_state_write(&want);
    install(SIGUSR1, sanitize_handler, 0);
    raise(SIGUSR1);
    rep->returned = 1;
    tl_state_read(&rep->live);
    rep->live_cmp = tl_state_compare(&rep->live, &edited);
    _exit(rep->live_cmp ? 1 : 0);
}

static void check_sanitize(int k)
{
    int st;
    memset(rep, 0, sizeof(*rep));
    kind = k;
    pid_t pid = fork();
    if (pid == 0) {
        sanitize_child();
    }
    th_wait(pid, &st, 15000, 0);
    /* The parent computes the expectation itself from the words the handler wrote. */
    if (rep->returned && WIFEXITED(st)) {
        int d = rep->live_cmp;
        unsigned long *c = rep->live.csr;
        th_check(d == 0 && !th_state_insane(&rep->live),
                 "(d) %s: accepted; restored CSRs ttype %#lx tshape %#lx tmask_ls %#lx concat_1 %#lx concat_2 %#lx "
                 "stride %#lx width %#lx tvalid %#lx tinit %#lx, tl0 %s%s%s",
                 sanitize_what[k], c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8],
                 rep->live.reg[0][0] ? "NOT zero" : "zero",
                 d ? "; WRONG: differs from the exact restore sequence at " : " (exactly the writable bits, "
                     "uninitialized CSRs 0, tinit bit 0 set, the record's registers)",
                 d ? th_item(d) : "");
    } else {
        th_check(0, "(d) %s: the child %s (want: rt_sigreturn returns with the sanitized state)%s%s",
                 sanitize_what[k], th_status(st), rep->note[0] ? ": " : "", rep->note);
    }
}

/* ---- (f): random mutations ---- */
enum { CLS_GOOD = 1, CLS_BAD, CLS_EITHER };
static uint64_t rng;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void fuzz_handler(int sig, siginfo_t *si, void *uc)
{
    static const uint32_t special[] = { 0, 0xffffffffu, 8, REC_SIZE, REC_SIZE - 8, REC_SIZE + 8,
                                        TL_SIGCONTEXT_MAGIC, 0x80000000u };
    struct chain c;
    char *note = rep->note;
    size_t left = sizeof(rep->note);

    (void)sig; (void)si;
    rep->handler_ran = 1;
    chain_walk(uc, &c);
    if (!c.tl || !c.end) {
        snprintf(rep->note, sizeof(rep->note), "the frame of a task using TL has no TL record / END");
        _exit(21);
    }
    char *reserved = (char *)c.first - 4;
    struct { char *base; unsigned len; const char *name; } region[5] = {
        { reserved, 4, "sc_extdesc.reserved" },
        { (char *)c.tl, 8, "TL header" },
        { (char *)c.tl + 8, 48, "record CSR/reserved words" },
        { (char *)c.tl + 56, 32768, "registers" },
        { (char *)c.end, 8, "END header" },
    };
    static const unsigned weight[5] = { 1, 3, 3, 3, 2 };   /* out of 12 */
    unsigned n = 1 + rnd() % 4;
    for (unsigned m = 0; m < n; m++) {
        unsigned w = rnd() % 12, r = 0;
        while (w >= weight[r]) {
            w -= weight[r++];
        }
        unsigned off = rnd() % region[r].len, op = rnd() % 4;
        uint8_t *p = (uint8_t *)region[r].base + off;
        uint32_t v;
        int k = 0;
        switch (op) {
        case 0:
            v = rnd() % 8;
            *p ^= (uint8_t)(1u << v);
            k = snprintf(note, left, "%s+%u bit %u; ", region[r].name, off, v);
            break;
        case 1:
            v = rnd() & 0xff;
            *p = (uint8_t)v;
            k = snprintf(note, left, "%s+%u byte %#x; ", region[r].name, off, v);
            break;
        default:
            off &= ~3u;
            p = (uint8_t *)region[r].base + off;
            v = op == 2 ? rnd() : special[rnd() % 8];
            memcpy(p, &v, 4);
            k = snprintf(note, left, "%s+%u word %#x; ", region[r].name, off, v);
            break;
        }
        if (k > 0 && (size_t)k < left) {
            note += k;
            left -= (size_t)k;
        }
    }
    /* What abi.md says about the frame now. */
    uint32_t res;
    struct tl_ctx_hdr h1, he;
    memcpy(&res, reserved, 4);
    memcpy(&h1, c.tl, sizeof(h1));
    memcpy(&he, c.end, sizeof(he));
    if (c.first != &c.tl->hdr) {
        rep->cls = CLS_EITHER;          /* another record first: not modelled */
    } else if (res != 0) {
        rep->cls = CLS_BAD;
    } else if (h1.magic == TL_SIGCONTEXT_MAGIC && h1.size == REC_SIZE) {
        if (he.magic != 0 || he.size != 0) {
            rep->cls = CLS_BAD;         /* END with a size, unknown record, second TL record */
        } else {
            rep->cls = c.tl->reserved[0] | c.tl->reserved[1] | c.tl->reserved[2] ? CLS_EITHER : CLS_GOOD;
        }
    } else if (h1.magic == 0 && h1.size == 0) {
        rep->cls = CLS_EITHER;          /* the chain is only END: no TL record */
    } else {
        rep->cls = CLS_BAD;             /* wrong TL size, END with a size, unknown record */
    }
    th_state_from_image(&edited, c.tl->csr, c.tl->reg);
}

static void fuzz_child(unsigned iter, uint64_t seed)
{
    alarm(5);
    rng = seed ^ (0x9e3779b97f4a7c15ull * (iter + 1));
    for (int i = 0; i < 4; i++) {
        rnd();
    }
    tl_state_pattern(&want, 100 + iter % 64);
    tl_state_write(&want);
    install(SIGUSR1, fuzz_handler, 0);
    raise(SIGUSR1);
    rep->returned = 1;
    tl_state_read(&rep->live);
    if (rep->cls == CLS_GOOD) {
        rep->live_cmp = tl_state_compare(&rep->live, &edited);
        _exit(rep->live_cmp ? 3 : 0);
    }
    _exit(th_state_insane(&rep->live) ? 4 : 0);
}

static void check_fuzz(unsigned iters, uint64_t seed)
{
    unsigned bad_segv = 0, good_ok = 0, either_segv = 0, either_ok = 0, failures = 0;
    double t0 = th_now();

    for (unsigned i = 0; i < iters; i++) {
        int st;
        memset(rep, 0, offsetof(struct report, live));
        pid_t pid = fork();
        if (pid == 0) {
            fuzz_child(i, seed);
        }
        th_wait(pid, &st, 10000, 0);
        const char *why = NULL;
        int segv = st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
        int exit0 = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
        if (segv && rep->cls == CLS_BAD) {
            bad_segv++;
        } else if (segv && rep->cls == CLS_EITHER) {
            either_segv++;
        } else if (exit0 && rep->cls == CLS_GOOD) {
            good_ok++;
        } else if (exit0 && rep->cls == CLS_EITHER) {
            either_ok++;
        } else if (segv) {
            why = "SIGSEGV for a frame whose headers are intact (only the record's contents changed)";
        } else if (exit0 || (WIFEXITED(st) && WEXITSTATUS(st) == 4 && rep->cls == CLS_BAD)) {
            why = "rt_sigreturn accepted a frame abi.md calls damaged";
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
            why = "accepted, but the TL state is not the record's contents";
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 4) {
            why = th_state_insane(&rep->live);
        } else {
            why = th_status(st);
        }
        if (why) {
            if (++failures <= 5) {
                th_check(0, "(f) mutation %u (seed %llu): %s: %s; mutations: %s; TL state: %s", i,
                         (unsigned long long)seed, th_status(st), why, rep->note,
                         rep->returned ? th_summary(&rep->live) : "-");
            }
        }
    }
    th_check(failures == 0,
             "(f) %u random mutations of the chain headers and TL record (seed %llu, %.1f s): %u damaged frames "
             "refused with SIGSEGV, %u frames with intact headers restored exactly (sanitized), %u unspecified "
             "ones: %u SIGSEGV, %u accepted with a sane TL state; %u other outcomes",
             iters, (unsigned long long)seed, th_now() - t0, bad_segv, good_ok, either_segv + either_ok,
             either_segv, either_ok, failures);
}

/* ---- (g): SS_AUTODISARM ---- */
static char *g_sp, *g_ustack;
static size_t g_size;
static ucontext_t g_uc, g_sc;
static int g_nested;
#define G_USTACK (128 * 1024ul)

static void g_usr2(int sig, siginfo_t *si, void *uc)
{
    char here;

    (void)sig; (void)si; (void)uc;
    if (&here >= g_ustack && &here < g_ustack + G_USTACK) {
        rep->g_usr2_ustack++;
    }
    if (&here >= g_sp && &here < g_sp + g_size) {
        rep->g_usr2_alt++;
    }
}

static void g_switch(void)
{
    raise(SIGUSR2);
    setcontext(&g_sc);
}

static void g_usr1(int sig, siginfo_t *si, void *uc)
{
    char here;
    stack_t cur;

    (void)sig; (void)si; (void)uc;
    rep->g_runs++;
    if (&here >= g_sp && &here < g_sp + g_size) {
        rep->g_on_stack++;
    }
    if (sigaltstack(NULL, &cur) == 0 && cur.ss_flags == SS_DISABLE) {
        rep->g_disabled++;
    }
    if (g_nested) {
        /* as sas.c: data on this stack, a nested signal from another stack must not land on it */
        volatile char mark[32];
        strcpy((char *)mark, "USR1 data");
        swapcontext(&g_sc, &g_uc);
        if (strcmp((const char *)mark, "USR1 data") == 0) {
            rep->g_data_ok++;
        }
    }
}

static void g_child(size_t size, int flags, int nested, int use_tl)
{
    size_t span = (size + PAGE - 1) & ~(PAGE - 1);
    char *region = mmap(NULL, span + 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t ss, cur;

    alarm(10);
    if (region == MAP_FAILED) {
        _exit(24);
    }
    mprotect(region, PAGE, PROT_NONE);
    mprotect(region + PAGE + span, PAGE, PROT_NONE);
    g_sp = region + PAGE + span - size;
    g_size = size;
    g_nested = nested;
    g_ustack = mmap(NULL, G_USTACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (use_tl) {
        tl_state_pattern(&want, 77);
        tl_state_write(&want);
    }
    ss.ss_sp = g_sp;
    ss.ss_size = size;
    ss.ss_flags = flags;
    if (sigaltstack(&ss, NULL) != 0) {
        rep->g_errno = errno;
        _exit(20);
    }
    install(SIGUSR1, g_usr1, SA_ONSTACK);
    install(SIGUSR2, g_usr2, SA_ONSTACK);
    for (int i = 0; i < 3; i++) {
        if (nested) {
            getcontext(&g_uc);
            g_uc.uc_link = NULL;
            g_uc.uc_stack.ss_sp = g_ustack;
            g_uc.uc_stack.ss_size = G_USTACK;
            makecontext(&g_uc, g_switch, 0);
        }
        raise(SIGUSR1);
        if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == g_sp && cur.ss_size == size &&
            (unsigned)cur.ss_flags == SS_AUTODISARM) {
            rep->g_after++;
        }
    }
    if (use_tl) {
        tl_state_read(&rep->live);
        rep->live_cmp = tl_state_compare(&rep->live, &want);
    }
    _exit(0);
}

static void check_autodisarm(size_t size, int flags, int nested, int use_tl)
{
    int st;

    memset(rep, 0, sizeof(*rep));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        g_child(size, flags, nested, use_tl);
    }
    th_wait(pid, &st, 15000, 0);
    char what[200];
    snprintf(what, sizeof(what), "(g) a process %s, %zu-byte alternate stack with %s, 3 signals%s",
             use_tl ? "using TL" : "that never uses TL", size,
             flags & SS_ONSTACK ? "SS_ONSTACK|SS_AUTODISARM (as sas.c)" : "SS_AUTODISARM",
             nested ? ", each with a nested signal raised from a swapcontext() stack" : "");
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 20) {
        th_check(0, "%s: sigaltstack failed: %s", what, strerror(rep->g_errno));
        return;
    }
    int ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && rep->g_runs == 3 && rep->g_on_stack == 3 &&
             rep->g_disabled == 3 && rep->g_after == 3 &&
             (!nested || (rep->g_usr2_ustack == 3 && rep->g_usr2_alt == 0 && rep->g_data_ok == 3)) &&
             (!use_tl || rep->live_cmp == 0);
    char tl[200] = "";
    if (use_tl) {
        snprintf(tl, sizeof(tl), "; TL state afterwards %s (%s)", rep->live_cmp ? "CHANGED" : "intact",
                 th_summary(&rep->live));
    }
    char nest[160] = "";
    if (nested) {
        snprintf(nest, sizeof(nest), "; nested signal on the swapcontext stack %d/3, on the disarmed stack %d, "
                 "handler data intact %d/3", rep->g_usr2_ustack, rep->g_usr2_alt, rep->g_data_ok);
    }
    th_check(ok, "%s: the child %s; handler ran %d/3, on the alternate stack %d/3, sees it SS_DISABLE %d/3, "
             "SS_AUTODISARM again after return %d/3%s%s",
             what, th_status(st), rep->g_runs, rep->g_on_stack, rep->g_disabled, rep->g_after, nest, tl);
}

/* ---- (h): an alternate stack at the top of user space ---- */
static char *h_sp;
static uint8_t h_buf[1024];

static void h_handler(int sig, siginfo_t *si, void *uc)
{
    char here;
    int n = rep->h_runs++;

    (void)sig; (void)si;
    if (&here >= h_sp && &here < h_sp + ALT_A) {
        rep->h_on_stack++;
    }
    if (n < 2) {
        rep->h_rec[n] = tl_sigcontext_find(uc) != NULL;
    }
    /* use TL: in the first signal, for the first time in this process */
    memset(h_buf, 0x5c, sizeof(h_buf));
    tl_state_whole_register_view();
    tl_load(1, 0, h_buf);
    tl_csr_write(TL_CSR_TMASK_LS, 0x1234);
}

static void h_child(void)
{
    static const int bits[] = { 56, 47, 38 };
    stack_t ss;

    alarm(10);
    for (int i = 0; i < 3 && !h_sp; i++) {
        char *want_at = (char *)((1ul << bits[i]) - ALT_A);
        char *p = mmap(want_at, ALT_A, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                       -1, 0);
        if (p == want_at) {
            h_sp = p;
            rep->h_bits = bits[i];
        } else if (p != MAP_FAILED) {
            munmap(p, ALT_A);
        }
    }
    if (!h_sp) {
        _exit(22);
    }
    ss.ss_sp = h_sp;
    ss.ss_size = ALT_A;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, NULL) != 0) {
        rep->g_errno = errno;
        _exit(20);
    }
    install(SIGUSR1, h_handler, SA_ONSTACK);
    raise(SIGUSR1);           /* the process has not used TL before */
    rep->h_returned[0] = 1;
    tl_state_read(&rep->live);
    /* now a TL state in use: its frame ends exactly at the top of user space */
    tl_state_pattern(&want, 88);
    tl_state_write(&want);
    raise(SIGUSR1);
    rep->h_returned[1] = 1;
    tl_state_read(&tmp);
    rep->live_cmp = tl_state_compare(&tmp, &want);
    _exit(rep->live_cmp ? 1 : 0);
}

static void check_top_of_address_space(void)
{
    int st;

    memset(rep, 0, sizeof(*rep));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        h_child();
    }
    th_wait(pid, &st, 15000, 0);
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 22) {
        th_check(0, "(h) no 64 KiB mapping ending at 2^56, 2^47 or 2^38 could be made (MAP_FIXED_NOREPLACE)");
        th_check(0, "(h) a TL frame ending at the top of user space: not run");
        return;
    }
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 20) {
        th_check(0, "(h) sigaltstack of the 64 KiB stack ending at 2^%d failed: %s", rep->h_bits,
                 strerror(rep->g_errno));
        th_check(0, "(h) a TL frame ending at the top of user space: not run");
        return;
    }
    th_check(rep->h_returned[0] && rep->h_runs >= 1 && rep->h_on_stack >= 1 && !rep->h_rec[0] &&
             !th_state_insane(&rep->live),
             "(h) a handler using TL for the first time, on an alternate stack ending at the top of user space "
             "(2^%d): ran there %s, its frame %s, rt_sigreturn %s; TL state afterwards: %s",
             rep->h_bits, rep->h_on_stack >= 1 ? "yes" : "NO",
             rep->h_rec[0] ? "HAS a TL record (the process had not used TL)" : "has no TL record",
             rep->h_returned[0] ? "returned normally and the program continued" : th_status(st),
             rep->h_returned[0] ? th_summary(&rep->live) : "-");
    th_check(rep->h_returned[1] && rep->h_on_stack == 2 && rep->h_rec[1] && st != -1 && WIFEXITED(st) &&
             WEXITSTATUS(st) == 0,
             "(h) then a TL frame (with the record) ending exactly at the top of user space: frame %s, "
             "rt_sigreturn %s, TL state %s (child %s)",
             rep->h_rec[1] ? "has the TL record" : "has NO TL record",
             rep->h_returned[1] ? "returned normally" : "did not return", rep->h_returned[1] ?
             (rep->live_cmp ? "CHANGED" : "exactly restored") : "-", th_status(st));
}

/* ---- (i): alternate stacks of about the frame's size ---- */
#define I_BIG (512 * 1024ul)
static char *i_stack;

static void i_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)uc;
    rep->i_frame = (uintptr_t)si;
}

/* In a child: 0 the handler ran, 20 sigaltstack refused the size, else how the child ended. */
static int i_trial(size_t size, int use_tl, uintptr_t *frame)
{
    int st;

    rep->i_frame = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        stack_t ss = { .ss_sp = i_stack, .ss_size = size, .ss_flags = 0 };

        alarm(10);
        if (use_tl) {
            tl_state_pattern(&want, 55);
            tl_state_write(&want);
        }
        install(SIGUSR1, i_handler, SA_ONSTACK);
        if (sigaltstack(&ss, NULL) != 0) {
            _exit(20);
        }
        raise(SIGUSR1);
        _exit(rep->i_frame ? 0 : 21);
    }
    th_wait(pid, &st, 15000, 0);
    *frame = rep->i_frame;
    if (st != -1 && WIFEXITED(st)) {
        return WEXITSTATUS(st);
    }
    return st == -1 ? 100 : 100 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void check_stack_sizes(int use_tl)
{
    uintptr_t frame;
    char bad[400] = "";
    int n_bad = 0, accepted = 0, refused = 0;

    /* The frame's extent: top - frame start on a big stack with a 16-aligned top. */
    if (i_trial(I_BIG, use_tl, &frame) != 0 || !frame) {
        th_check(0, "(i) %s: the handler did not run on a %lu-byte alternate stack",
                 use_tl ? "TL in use" : "no TL in use", I_BIG);
        return;
    }
    size_t F = (uintptr_t)i_stack + I_BIG - frame;
    for (size_t size = F - 16; size <= F + 16; size++) {
        int r = i_trial(size, use_tl, &frame);
        if (r == 20) {
            refused++;
            if (size > F) {    /* larger than the frame's extent: sigaltstack must take it */
                n_bad++;
                snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " F%+d refused;", (int)(size - F));
            }
            continue;
        }
        accepted++;
        if (r != 0 || frame < (uintptr_t)i_stack) {
            n_bad++;
            snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " F%+d: %s;", (int)(size - F),
                     r == 0 ? "frame below the stack" : r >= 100 ? strsignal(r - 100) : "handler did not run");
        }
    }
    th_check(n_bad == 0,
             "(i) %s: alternate stacks of F-16 .. F+16 bytes (F = %zu, the frame's extent) on a 16-aligned base: "
             "%d accepted by sigaltstack, each took the frame (handler ran, frame inside the stack); %d refused "
             "(ENOMEM, not larger than the frame)%s%s",
             use_tl ? "TL in use" : "no TL in use", F, accepted, refused, n_bad ? "; WRONG:" : "", bad);
}

/* ---- (j): a handler's TL writes do not reach code that used TL at reset values ---- */
static struct tl_full_state j_before, j_after, j_pattern;

static void j_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)si; (void)uc;
    rep->j_ran = 1;
    tl_state_write(&j_pattern);
}

static void check_handler_changes_at_reset(void)
{
    int st;

    memset(rep, 0, sizeof(*rep));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        tl_state_pattern(&j_pattern, 66);
        tl_state_read(&j_before);           /* TL used, the state left at reset */
        install(SIGUSR1, j_handler, 0);
        raise(SIGUSR1);
        rep->j_returned = 1;
        tl_state_read(&j_after);
        rep->live = j_after;
        rep->live_cmp = tl_state_compare(&j_after, &j_before);
        _exit(rep->live_cmp ? 1 : 0);
    }
    th_wait(pid, &st, 15000, 0);
    th_check(rep->j_ran && rep->j_returned && rep->live_cmp == 0 && st != -1 && WIFEXITED(st) &&
             WEXITSTATUS(st) == 0,
             "(j) code that read its TL state at reset values, a handler that writes a whole TL state: "
             "handler %s, returned %s, the interrupted code's TL state %s (%s; child %s)",
             rep->j_ran ? "ran" : "did NOT run", rep->j_returned ? "yes" : "NO",
             rep->live_cmp ? "CHANGED" : "exactly as before", th_summary(&rep->live), th_status(st));
}

int main(int argc, char **argv)
{
    unsigned iters = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : (uint64_t)time(NULL);

    /* plain-altstack: the damage cases without SS_AUTODISARM (a kernel that mishandles it) */
    plain_altstack = argc > 3 && strcmp(argv[3], "plain-altstack") == 0;

    setvbuf(stdout, NULL, _IONBF, 0);
    th_timeout("tl-sigreturn", 120);
    rep = th_shared(sizeof(*rep));
    printf("# tl-sigreturn: damaged TL signal frames, SS_AUTODISARM, the top of user space; "
           "%u mutations with seed %llu\n", iters, (unsigned long long)seed);

    /* The parent never uses TL itself: every child starts without TL in use. */
    check_autodisarm(2048, SS_AUTODISARM, 0, 0);
    check_autodisarm(8192, SS_ONSTACK | SS_AUTODISARM, 0, 0);
    check_autodisarm(65536, SS_AUTODISARM, 1, 0);
    check_autodisarm(65536, SS_AUTODISARM, 1, 1);
    check_top_of_address_space();
    i_stack = mmap(NULL, I_BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (i_stack == MAP_FAILED) {
        th_check(0, "(i) mmap of %lu bytes: %s", I_BIG, strerror(errno));
    } else {
        check_stack_sizes(1);
    }
    check_handler_changes_at_reset();
    for (int k = 0; k < N_DAMAGE; k++) {
        check_damage(k);
    }
    for (int k = 0; k < N_SANITIZE; k++) {
        check_sanitize(k);
    }
    check_fuzz(iters, seed);
    return th_finish();
}
