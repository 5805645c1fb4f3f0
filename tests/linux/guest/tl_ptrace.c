/*
 * The TL register set of Linux (NT_RISCV_XTL, include/tl/tl_linux.h):
 * a tracer reads a stopped tracee's whole TL state with PTRACE_GETREGSET,
 * changes it with PTRACE_SETREGSET, and the tracee continues with the
 * changed state; a tracee that never used TL has none (ENODATA); the core
 * dump of a task using TL carries the state as an NT_RISCV_XTL note.
 * Needs root (it sets /proc/sys/kernel/core_pattern).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tl_test.h"
#include "tl_state.h"
#include "tl/tl_linux.h"

static struct tl_full_state want, seen;

/* The regset image of a state (tl0 zero, reserved words zero). */
static void to_regset(const struct tl_full_state *s, struct tl_xtl_state *r)
{
    memset(r, 0, sizeof(*r));
    for (unsigned i = 0; i < 9; i++) {
        r->csr[i] = (uint32_t)s->csr[i];
    }
    memcpy(r->reg, s->reg, sizeof(r->reg));
}

static long get_regset(pid_t pid, struct tl_xtl_state *r)
{
    struct iovec iov = { r, sizeof(*r) };
    long ret = ptrace(PTRACE_GETREGSET, pid, (void *)TL_NT_RISCV_XTL, &iov);
    return ret < 0 ? -errno : (long)iov.iov_len;
}

static long set_regset(pid_t pid, struct tl_xtl_state *r)
{
    struct iovec iov = { r, sizeof(*r) };
    return ptrace(PTRACE_SETREGSET, pid, (void *)TL_NT_RISCV_XTL, &iov) < 0 ? -errno : 0;
}

/* A tracee: optionally takes state `id`, stops, then reports whether its state is `after`. */
static pid_t start_tracee(int id, const struct tl_full_state *after)
{
    pid_t pid = fork();

    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        if (id) {
            tl_state_pattern(&want, id);
            tl_state_write(&want);
        }
        raise(SIGSTOP);
        if (!after) {
            _exit(0);
        }
        tl_state_read(&seen);
        _exit(tl_state_compare(&seen, after) ? 1 : 0);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFSTOPPED(st) ? pid : -1;
}

static int finish(pid_t pid)
{
    int st;

    ptrace(PTRACE_CONT, pid, NULL, NULL);
    waitpid(pid, &st, 0);
    return st;
}

/* Finds the NT_RISCV_XTL note of an ELF core file; returns its size or -1. */
static long core_note(const char *path, struct tl_xtl_state *out)
{
    FILE *f = fopen(path, "rb");
    Elf64_Ehdr eh;
    long found = -1;

    if (!f || fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_type != ET_CORE) {
        if (f) {
            fclose(f);
        }
        return -1;
    }
    for (unsigned i = 0; i < eh.e_phnum && found < 0; i++) {
        Elf64_Phdr ph;
        fseek(f, (long)(eh.e_phoff + i * eh.e_phentsize), SEEK_SET);
        if (fread(&ph, sizeof(ph), 1, f) != 1 || ph.p_type != PT_NOTE) {
            continue;
        }
        char *notes = malloc(ph.p_filesz);
        fseek(f, (long)ph.p_offset, SEEK_SET);
        if (notes && fread(notes, 1, ph.p_filesz, f) == ph.p_filesz) {
            for (size_t off = 0; off + sizeof(Elf64_Nhdr) <= ph.p_filesz;) {
                Elf64_Nhdr *n = (Elf64_Nhdr *)(notes + off);
                size_t desc = off + sizeof(*n) + ((n->n_namesz + 3) & ~3u);
                if (n->n_type == TL_NT_RISCV_XTL) {
                    found = n->n_descsz;
                    memcpy(out, notes + desc, n->n_descsz < sizeof(*out) ? n->n_descsz : sizeof(*out));
                    break;
                }
                off = desc + ((n->n_descsz + 3) & ~3u);
            }
        }
        free(notes);
    }
    fclose(f);
    return found;
}

int main(void)
{
    static struct tl_xtl_state got, exp;
    static struct tl_full_state changed;
    long n;
    int st;

    /* 1. read a stopped tracee's state */
    tl_state_pattern(&want, 21);
    changed = want;
    memset(changed.reg[7], 0x5a, 1024);
    changed.csr[2] = 0x1234;
    changed.csr[8] |= 1u << 2;
    pid_t pid = start_tracee(21, &changed);
    n = get_regset(pid, &got);
    to_regset(&want, &exp);
    tl_check(n == (long)sizeof(got) && memcmp(&got, &exp, sizeof(got)) == 0,
             "PTRACE_GETREGSET NT_RISCV_XTL returns the tracee's whole TL state (%ld bytes)", n);

    /* 2. change it */
    to_regset(&changed, &exp);
    memcpy(&got, &exp, sizeof(got));
    got.reserved[1] = 7;            /* ignored: reads back as 0 */
    n = set_regset(pid, &got);
    tl_check(n == 0, "PTRACE_SETREGSET NT_RISCV_XTL writes tl7 and tmask_ls (%ld)", n);
    memset(&got, 0xee, sizeof(got));
    n = get_regset(pid, &got);
    tl_check(n == (long)sizeof(got) && memcmp(&got, &exp, sizeof(got)) == 0,
             "reading it back gives the written state");
    st = finish(pid);
    tl_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
             "the tracee continues with exactly the written state (status %#x)", st);

    /* 3. a tracee without TL state */
    pid = start_tracee(0, NULL);
    n = get_regset(pid, &got);
    tl_check(n == -ENODATA, "a tracee that never used TL has no NT_RISCV_XTL state (%ld, want -ENODATA)", n);
    finish(pid);

    /* 4. core dump */
    int fd = open("/proc/sys/kernel/core_pattern", O_WRONLY);
    if (fd >= 0) {
        (void)!write(fd, "/tmp/core.%p", 12);
        close(fd);
    }
    pid = fork();
    if (pid == 0) {
        struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
        setrlimit(RLIMIT_CORE, &rl);
        tl_state_pattern(&want, 22);
        tl_state_write(&want);
        abort();
    }
    waitpid(pid, &st, 0);
    char path[64];
    snprintf(path, sizeof(path), "/tmp/core.%d", (int)pid);
    tl_state_pattern(&want, 22);
    to_regset(&want, &exp);
    memset(&got, 0, sizeof(got));
    n = core_note(path, &got);
    tl_check(WIFSIGNALED(st) && WCOREDUMP(st) && n == (long)sizeof(got) &&
             memcmp(&got, &exp, sizeof(got)) == 0,
             "the core dump of a task using TL has an NT_RISCV_XTL note with its state "
             "(status %#x, note %ld bytes)", st, n);
    unlink(path);
    return tl_test_finish();
}
