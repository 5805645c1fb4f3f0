/*
 * TL state across fork, clone and exec under Linux (docs/linux.md):
 * fork and pthread_create give the new task a copy of its creator's whole
 * TL state, after which the two are independent; exec starts the new
 * program with no TL state in use (its first signal frame has no TL record)
 * and the reset state (tinit 0x01, ttype int8, other CSRs 0, registers 0).
 *
 *   tl-forkexec            the checks; execs itself as below
 *   tl-forkexec --after-exec
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "tl_test.h"
#include "tl_state.h"
#include "tl/tl_signal.h"

static struct tl_full_state mine, other, seen;

static volatile int record_seen = -1;
static void frame_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)si;
    record_seen = tl_sigcontext_find(uc) != NULL;
}

/* Runs in the freshly exec'd image: exit status 0 when everything holds. */
static int after_exec(void)
{
    struct sigaction sa;
    int bad = 0;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = frame_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);                     /* before any TL access */
    if (record_seen != 0) {
        bad |= 1;
    }
    tl_state_read(&seen);
    if (seen.csr[8] != 0x01 || seen.csr[0] != TL_TYPE_INT8) {
        bad |= 2;
    }
    for (unsigned i = 1; i < 8; i++) {
        bad |= seen.csr[i] != 0 ? 4 : 0;
    }
    for (unsigned r = 1; r < 32; r++) {
        for (unsigned b = 0; b < 1024; b++) {
            bad |= seen.reg[r][b] != 0 ? 8 : 0;
        }
    }
    return bad;
}

static void *thread_fn(void *arg)
{
    int *result = arg;
    struct tl_full_state *s = malloc(sizeof(*s));

    tl_state_read(s);
    result[0] = tl_state_compare(s, &mine);      /* inherited */
    tl_state_write(&other);
    tl_state_read(s);
    result[1] = tl_state_compare(s, &other);     /* its own now */
    free(s);
    return NULL;
}

int main(int argc, char **argv)
{
    int st, d;
    pid_t pid;

    if (argc > 1 && strcmp(argv[1], "--after-exec") == 0) {
        return after_exec();
    }
    tl_state_pattern(&mine, 11);
    tl_state_pattern(&other, 12);
    tl_state_write(&mine);

    pid = fork();
    if (pid == 0) {
        tl_state_read(&seen);
        if (tl_state_compare(&seen, &mine)) {
            _exit(1);
        }
        tl_state_write(&other);
        tl_state_read(&seen);
        _exit(tl_state_compare(&seen, &other) ? 2 : 0);
    }
    waitpid(pid, &st, 0);
    tl_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
             "fork: the child starts with the parent's whole TL state and then changes its own "
             "(child status %#x)", st);
    tl_state_read(&seen);
    d = tl_state_compare(&seen, &mine);
    tl_check(d == 0, "fork: the parent's TL state is unchanged by the child (difference %d)", d);

    int result[2] = { -1, -1 };
    pthread_t t;
    pthread_create(&t, NULL, thread_fn, result);
    pthread_join(t, NULL);
    tl_check(result[0] == 0 && result[1] == 0,
             "pthread_create: the thread starts with a copy of its creator's TL state, then has "
             "its own (%d, %d)", result[0], result[1]);
    tl_state_read(&seen);
    d = tl_state_compare(&seen, &mine);
    tl_check(d == 0, "pthread_create: the creating thread's TL state is unchanged (difference %d)", d);

    pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "--after-exec", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, &st, 0);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    tl_check(code != 127 && code >= 0 && !(code & 1),
             "exec: the new program's first signal frame has no TL record (status %d)", code);
    tl_check(code != 127 && code >= 0 && !(code & 2),
             "exec: tinit reads 0x01 and ttype int8 after exec (status %d)", code);
    tl_check(code != 127 && code >= 0 && !(code & 4),
             "exec: CSRs 0x801-0x807 read 0 after exec (status %d)", code);
    tl_check(code != 127 && code >= 0 && !(code & 8),
             "exec: tl1..tl31 are zero after exec (status %d)", code);
    return tl_test_finish();
}
