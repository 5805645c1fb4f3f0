/* Ending children: kill(SIGTERM) of a child blocked in pause(), SIGKILL of a
 * child that ignores SIGTERM, a child killed by its own alarm(), a child
 * that catches SIGTERM and exits with a status of its own, and SIGCHLD
 * delivered to the parent for each of them. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t sigchld_count;

static void on_chld(int sig) { (void)sig; sigchld_count++; }
static void on_term_exit(int sig) { (void)sig; _exit(42); }

static void report(const char *what, pid_t pid)
{
    int st;
    if (waitpid(pid, &st, 0) != pid) { printf("%s: waitpid failed\n", what); return; }
    if (WIFSIGNALED(st)) printf("%s: killed by signal %d (%s)\n", what, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else if (WIFEXITED(st)) printf("%s: exited with status %d\n", what, WEXITSTATUS(st));
    else printf("%s: status 0x%x\n", what, st);
}


static int ready_fd = -1;
static void ready(void) { char c = 1; if (write(ready_fd, &c, 1) != 1) _exit(98); }

static void child_pause(void) { ready(); for (;;) pause(); }
static void child_ignore_term(void) { signal(SIGTERM, SIG_IGN); ready(); for (;;) pause(); }
static void child_alarm(void) { ready(); alarm(1); for (;;) pause(); }
static void child_catch_term(void) { signal(SIGTERM, on_term_exit); ready(); for (;;) pause(); }

static pid_t start(void (*fn)(void))
{
    int p[2];
    char c;
    if (pipe(p) != 0) { perror("pipe"); exit(1); }
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        ready_fd = p[1];
        signal(SIGCHLD, SIG_DFL);
        fn();
        _exit(99);
    }
    close(p[1]);
    if (read(p[0], &c, 1) != 1) { printf("child did not start\n"); exit(1); }
    close(p[0]);
    return pid;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_chld;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);

    pid_t pid = start(child_pause);
    kill(pid, SIGTERM);
    report("paused child, SIGTERM", pid);

    pid = start(child_ignore_term);
    kill(pid, SIGTERM);
    usleep(100000);
    kill(pid, SIGKILL);
    report("child ignoring SIGTERM, then SIGKILL", pid);

    pid = start(child_alarm);
    report("child with alarm(1)", pid);

    pid = start(child_catch_term);
    kill(pid, SIGTERM);
    report("child catching SIGTERM", pid);

    pid = fork();
    if (pid == 0) { raise(SIGKILL); _exit(99); }
    report("child raising SIGKILL", pid);

    printf("SIGCHLD delivered to the parent: %s\n", sigchld_count >= 1 ? "yes" : "no");
    return 0;
}
