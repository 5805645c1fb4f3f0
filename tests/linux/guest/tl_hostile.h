/*
 * Shared by the guest programs that play hostile or unusual user space
 * against the TL kernel (tl_sigreturn.c, tl_ptrace_hostile.c,
 * tl_coredump.c, tl_iouring.c, tl_hotplug.c):
 *   - TAP output: "ok - ...", "not ok - ...", "ok - ... # SKIP reason" and
 *     the last line "N passed, M failed" (", K skipped" appended when a
 *     case was skipped; a skip is never counted as passed);
 *   - a whole-program timeout that reports itself as a failure;
 *   - waiting for a child with a time limit, and naming how it ended;
 *   - the writable bits of each TL CSR (docs/isa.md 2.4, 2.6) and the state
 *     a record or register set with arbitrary CSR words restores to;
 *   - the NT_RISCV_XTL register-set image of a state;
 *   - the notes of an ELF core file, thread by thread.
 * Only the parent process prints; children report through exit statuses
 * and shared memory, so output never interleaves or repeats.
 */
#ifndef TL_HOSTILE_H
#define TL_HOSTILE_H

#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/procfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tl_state.h"
#include "tl/tl_linux.h"
#include "tl/tl_signal.h"

/* Helpers a program may leave unused. */
#define TH_UNUSED __attribute__((unused))

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif

/* ---- TAP ---- */
static int th_passed, th_failed, th_skipped;

static TH_UNUSED void th_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static TH_UNUSED void th_check(int ok, const char *fmt, ...)
{
    va_list ap;
    char line[1024];

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (ok) {
        th_passed++;
    } else {
        th_failed++;
    }
    printf("%s - %s\n", ok ? "ok" : "not ok", line);
    fflush(stdout);
}

static TH_UNUSED void th_skip(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static TH_UNUSED void th_skip(const char *what, const char *fmt, ...)
{
    va_list ap;
    char reason[512];

    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    th_skipped++;
    printf("ok - %s # SKIP %s\n", what, reason);
    fflush(stdout);
}

static TH_UNUSED int th_finish(void)
{
    if (th_skipped) {
        printf("%d passed, %d failed, %d skipped\n", th_passed, th_failed, th_skipped);
    } else {
        printf("%d passed, %d failed\n", th_passed, th_failed);
    }
    fflush(stdout);
    return th_failed ? 1 : 0;
}

/* ---- whole-program timeout ---- */
static const char *th_prog = "program";
static unsigned th_limit;
static void (*th_on_timeout)(void);   /* cleanup to run first (e.g. CPUs back online) */

static TH_UNUSED void th_alarm(int sig)
{
    char buf[256];
    int n;

    (void)sig;
    if (th_on_timeout) {
        th_on_timeout();
    }
    n = snprintf(buf, sizeof(buf), "not ok - %s did not finish within %u s (hang)\n%d passed, %d failed\n",
                 th_prog, th_limit, th_passed, th_failed + 1);
    (void)!write(1, buf, (size_t)n);
    _exit(1);
}

/* The program reports a failure and exits if it is still running after `seconds`. */
static TH_UNUSED void th_timeout(const char *prog, unsigned seconds)
{
    struct sigaction sa;

    th_prog = prog;
    th_limit = seconds;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = th_alarm;
    sigaction(SIGALRM, &sa, NULL);
    alarm(seconds);
}

/* ---- children ---- */
static TH_UNUSED void th_sleep_ms(unsigned ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static TH_UNUSED double th_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Waits up to `ms` for `pid` (extra waitpid flags in `flags`, e.g. __WALL).
 * Returns 1 with *status set when it ended; 0 when it did not, after
 * SIGKILL (it is reaped if it dies within 2 s more).
 */
static TH_UNUSED int th_wait(pid_t pid, int *status, unsigned ms, int flags)
{
    double end = th_now() + ms / 1000.0;

    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG | flags);
        if (r == pid) {
            return 1;
        }
        if (r < 0 && errno != EINTR) {
            *status = -1;
            return 0;
        }
        if (th_now() > end) {
            break;
        }
        th_sleep_ms(1);
    }
    kill(pid, SIGKILL);
    end = th_now() + 2;
    while (th_now() < end && waitpid(pid, status, WNOHANG | flags) == 0) {
        th_sleep_ms(1);
    }
    *status = -1;
    return 0;
}

/* "exit 0", "killed by SIGSEGV", "killed by SIGABRT (core dumped)", "stopped by ...". */
static TH_UNUSED const char *th_status(int st)
{
    static char buf[4][64];
    static int k;
    char *b = buf[k++ & 3];

    if (st == -1) {
        snprintf(b, 64, "did not end (hang, killed)");
    } else if (WIFEXITED(st)) {
        snprintf(b, 64, "exit %d", WEXITSTATUS(st));
    } else if (WIFSIGNALED(st)) {
        const char *name = sigabbrev_np(WTERMSIG(st));
        if (name) {
            snprintf(b, 64, "killed by SIG%s%s", name, WCOREDUMP(st) ? " (core dumped)" : "");
        } else {
            snprintf(b, 64, "killed by signal %d%s", WTERMSIG(st), WCOREDUMP(st) ? " (core dumped)" : "");
        }
    } else if (WIFSTOPPED(st)) {
        snprintf(b, 64, "stopped by signal %d", WSTOPSIG(st));
    } else {
        snprintf(b, 64, "status %#x", st);
    }
    return b;
}

/* Anonymous memory shared with children, zeroed. */
static TH_UNUSED void *th_shared(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED) {
        perror("mmap shared");
        exit(2);
    }
    return p;
}

/* ---- TL CSRs: writable bits (docs/isa.md 2.4) and the restored value ---- */
static const uint32_t th_csr_writable[9] = {
    0x00000fffu, 0x00ffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    0xffffffffu, 0xffffffffu, 0x00ffffffu, 0x000000feu,
};
static const char *const th_csr_name[9] = {
    "ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
    "tmask_load_stride", "tmask_load_width", "tvalid", "tinit",
};

/*
 * What csrr returns after the exact restore sequence (isa.md 2.6) of the
 * nine words `in`: each CSR keeps its writable bits; then tinit's flags
 * (bits 7:1) decide which of 0x801..0x807 stay initialized, the others
 * read 0; tinit reads its flags with bit 0 always 1.
 */
static TH_UNUSED void th_csr_restored(const uint32_t in[9], unsigned long out[9])
{
    uint32_t flags = in[8] & 0xfeu;

    out[0] = in[0] & th_csr_writable[0];
    for (unsigned i = 1; i < 8; i++) {
        out[i] = (flags >> i) & 1 ? in[i] & th_csr_writable[i] : 0;
    }
    out[8] = flags | 1u;
}

/*
 * A state anyone could restore: CSR values within their writable bits,
 * uninitialized CSRs 0, tinit bit 0 set and bits 31:8 clear, tl0 zero.
 * Returns NULL or what is wrong.
 */
static TH_UNUSED const char *th_state_insane(const struct tl_full_state *s)
{
    static char why[128];
    static const uint8_t zero[1024];

    for (unsigned i = 0; i < 9; i++) {
        if (s->csr[i] & ~(unsigned long)(th_csr_writable[i] | (i == 8 ? 1u : 0u))) {
            snprintf(why, sizeof(why), "%s = %#lx has reserved bits", th_csr_name[i], s->csr[i]);
            return why;
        }
    }
    if (!(s->csr[8] & 1)) {
        return "tinit bit 0 reads 0";
    }
    for (unsigned i = 1; i < 8; i++) {
        if (!((s->csr[8] >> i) & 1) && s->csr[i]) {
            snprintf(why, sizeof(why), "%s = %#lx while tinit %#lx says uninitialized", th_csr_name[i],
                     s->csr[i], s->csr[8]);
            return why;
        }
    }
    if (memcmp(s->reg[0], zero, sizeof(zero))) {
        return "tl0 is not zero";
    }
    return NULL;
}

/* The state a record/regset with CSR words `csr` and registers `reg` restores to. */
static TH_UNUSED void th_state_from_image(struct tl_full_state *s, const uint32_t csr[9], const void *reg)
{
    th_csr_restored(csr, s->csr);
    memcpy(s->reg, reg, sizeof(s->reg));
    memset(s->reg[0], 0, sizeof(s->reg[0]));
}

/* "CSR tshape" / "register tl5" for a tl_state_compare() result. */
static TH_UNUSED const char *th_item(int d)
{
    static char buf[4][32];
    static int k;
    char *b = buf[k++ & 3];

    if (d <= 0) {
        snprintf(b, 32, "nothing");
    } else if (d <= 9) {
        snprintf(b, 32, "CSR %s", th_csr_name[d - 1]);
    } else {
        snprintf(b, 32, "register tl%d", d - 10);
    }
    return b;
}

/* A short description of a state for a TAP line. */
static TH_UNUSED const char *th_summary(const struct tl_full_state *s)
{
    static char buf[4][160];
    static int k;
    char *b = buf[k++ & 3];

    snprintf(b, 160, "tinit %#lx ttype %#lx tshape %#lx tmask_ls %#lx tl1[0] %#x tl31[1023] %#x",
             s->csr[8], s->csr[0], s->csr[1], s->csr[2], s->reg[1][0], s->reg[31][1023]);
    return b;
}

/* The reset state (isa.md 2.3): ttype int8, tinit 0x01, everything else 0. */
static TH_UNUSED void th_reset_state(struct tl_full_state *s)
{
    memset(s, 0, sizeof(*s));
    s->csr[0] = TL_TYPE_INT8;
    s->csr[8] = 1;
}

/*
 * A state of `id` whose CSRs make every register one contiguous 1024-byte
 * block (ttype int8, tshape [4,16,16], width = pitch = 256), so that code
 * running with it can tl.load/tl.store whole registers without changing
 * it; the other CSRs and all registers are id's own.
 */
static TH_UNUSED void th_block_state(struct tl_full_state *s, unsigned id)
{
    tl_state_pattern(s, id);
    s->csr[0] = TL_TYPE_INT8;
    s->csr[1] = TL_SHAPE(4, 16, 16);
    s->csr[2] = 0x01010101u * (id & 0xff) ^ 0x5a5a0000u;
    s->csr[3] = 0x9e3779b9u ^ id;
    s->csr[5] = 256;
    s->csr[6] = 256;
    s->csr[7] = TL_SHAPE(id % 5, 1 + id % 7, id % 3);
    s->csr[8] = 0xff;
}

/* ---- the NT_RISCV_XTL image of a state ---- */
static TH_UNUSED void th_to_regset(const struct tl_full_state *s, struct tl_xtl_state *r)
{
    memset(r, 0, sizeof(*r));
    for (unsigned i = 0; i < 9; i++) {
        r->csr[i] = (uint32_t)s->csr[i];
    }
    memcpy(r->reg, s->reg, sizeof(r->reg));
}

static TH_UNUSED void th_from_regset(const struct tl_xtl_state *r, struct tl_full_state *s)
{
    for (unsigned i = 0; i < 9; i++) {
        s->csr[i] = r->csr[i];
    }
    memcpy(s->reg, r->reg, sizeof(s->reg));
}

/* ---- ELF core files ---- */
struct th_core_thread {
    int tid;                  /* pr_pid of its NT_PRSTATUS */
    int notes;                /* notes after its NT_PRSTATUS */
    int xtl_notes;            /* NT_RISCV_XTL notes among them */
    uint32_t xtl_size;        /* descsz of the (first) one */
    char xtl_name[8];         /* its name ("LINUX") */
    struct tl_xtl_state xtl;  /* its contents (as much as fits) */
};

struct th_core {
    int threads;
    struct th_core_thread t[8];
    int orphan_xtl;           /* NT_RISCV_XTL notes before any NT_PRSTATUS */
    char error[160];          /* why the file does not parse, or "" */
};

/*
 * Parses the PT_NOTE segments of core file `path`: each NT_PRSTATUS starts
 * a thread; the notes up to the next NT_PRSTATUS are that thread's (the
 * order Linux writes, fs/binfmt_elf.c).  Returns 0, or -1 with c->error.
 */
static TH_UNUSED int th_core_parse(const char *path, struct th_core *c)
{
    FILE *f = fopen(path, "rb");
    Elf64_Ehdr eh;
    int notes_seen = 0;

    memset(c, 0, sizeof(*c));
    if (!f) {
        snprintf(c->error, sizeof(c->error), "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_CORE || eh.e_machine != EM_RISCV ||
        eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0) {
        snprintf(c->error, sizeof(c->error), "%s is not a riscv64 ELF core file", path);
        fclose(f);
        return -1;
    }
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (fseek(f, (long)(eh.e_phoff + i * sizeof(ph)), SEEK_SET) || fread(&ph, sizeof(ph), 1, f) != 1) {
            snprintf(c->error, sizeof(c->error), "program header %u cannot be read", i);
            break;
        }
        if (ph.p_type != PT_NOTE) {
            continue;
        }
        if (ph.p_filesz > (64u << 20)) {
            snprintf(c->error, sizeof(c->error), "PT_NOTE of %lu bytes", (unsigned long)ph.p_filesz);
            break;
        }
        char *n = malloc(ph.p_filesz + 1);
        if (!n || fseek(f, (long)ph.p_offset, SEEK_SET) || fread(n, 1, ph.p_filesz, f) != ph.p_filesz) {
            snprintf(c->error, sizeof(c->error), "PT_NOTE (%lu bytes at %#lx) cannot be read",
                     (unsigned long)ph.p_filesz, (unsigned long)ph.p_offset);
            free(n);
            break;
        }
        size_t off = 0;
        while (off + sizeof(Elf64_Nhdr) <= ph.p_filesz) {
            Elf64_Nhdr nh;
            memcpy(&nh, n + off, sizeof(nh));
            size_t name = off + sizeof(nh);
            size_t desc = name + ((nh.n_namesz + 3) & ~3ul);
            size_t next = desc + ((nh.n_descsz + 3) & ~3ul);
            if (desc > ph.p_filesz || next > ph.p_filesz || nh.n_namesz > 64) {
                snprintf(c->error, sizeof(c->error), "note %d at offset %zu runs past its segment", notes_seen,
                         off);
                break;
            }
            notes_seen++;
            if (nh.n_type == NT_PRSTATUS) {
                if (c->threads == 8 || nh.n_descsz < offsetof(struct elf_prstatus, pr_pid) + sizeof(int)) {
                    snprintf(c->error, sizeof(c->error), "more than 8 threads or a short NT_PRSTATUS");
                    break;
                }
                struct th_core_thread *t = &c->t[c->threads++];
                memcpy(&t->tid, n + desc + offsetof(struct elf_prstatus, pr_pid), sizeof(int));
            } else if (c->threads == 0) {
                c->orphan_xtl += nh.n_type == TL_NT_RISCV_XTL;
            } else {
                struct th_core_thread *t = &c->t[c->threads - 1];
                t->notes++;
                if (nh.n_type == TL_NT_RISCV_XTL && t->xtl_notes++ == 0) {
                    t->xtl_size = nh.n_descsz;
                    memcpy(t->xtl_name, n + name, nh.n_namesz < 8 ? nh.n_namesz : 7);
                    memcpy(&t->xtl, n + desc, nh.n_descsz < sizeof(t->xtl) ? nh.n_descsz : sizeof(t->xtl));
                }
            }
            off = next;
        }
        free(n);
        if (c->error[0]) {
            break;
        }
    }
    fclose(f);
    if (!c->error[0] && c->threads == 0) {
        snprintf(c->error, sizeof(c->error), "no NT_PRSTATUS note (%d notes)", notes_seen);
    }
    return c->error[0] ? -1 : 0;
}

static TH_UNUSED struct th_core_thread *th_core_thread(struct th_core *c, int tid)
{
    for (int i = 0; i < c->threads; i++) {
        if (c->t[i].tid == tid) {
            return &c->t[i];
        }
    }
    return NULL;
}

/* ---- core_pattern ---- */

/*
 * 1 on a RISC-V Linux system (its device tree describes RISC-V harts); 0
 * under qemu-riscv64 on another host, where /proc/sys/kernel/core_pattern
 * is the host's own and must be left alone.
 */
static TH_UNUSED int th_riscv_system(void)
{
    return access("/proc/device-tree/cpus/cpu@0/riscv,isa", R_OK) == 0;
}

static char th_old_core_pattern[256];
static int th_core_pattern_set;

/* Sets core_pattern to /tmp/core.%p (saving the old one); returns 0 or errno. */
static TH_UNUSED int th_core_pattern_tmp(void)
{
    FILE *f = fopen("/proc/sys/kernel/core_pattern", "r");

    if (f) {
        if (!fgets(th_old_core_pattern, sizeof(th_old_core_pattern), f)) {
            th_old_core_pattern[0] = 0;
        }
        fclose(f);
    }
    f = fopen("/proc/sys/kernel/core_pattern", "w");
    if (!f) {
        return errno;
    }
    int ok = fputs("/tmp/core.%p", f) >= 0;
    if (fclose(f) != 0 || !ok) {
        return errno ? errno : EIO;
    }
    th_core_pattern_set = 1;
    return 0;
}

static TH_UNUSED void th_core_pattern_restore(void)
{
    if (th_core_pattern_set) {
        FILE *f = fopen("/proc/sys/kernel/core_pattern", "w");
        if (f) {
            fputs(th_old_core_pattern[0] ? th_old_core_pattern : "core\n", f);
            fclose(f);
        }
        th_core_pattern_set = 0;
    }
}

#endif /* TL_HOSTILE_H */
