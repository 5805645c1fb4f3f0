/* System calls interrupted by a handled signal: read() on an empty pipe
 * fails with EINTR without SA_RESTART and is restarted with it; nanosleep
 * reports the time left; sigsuspend returns after the handler. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int pipefd[2];
static volatile sig_atomic_t handled, feed_pipe;

static void on_alarm(int sig)
{
    (void)sig;
    if (++handled == 2 && feed_pipe) {
        /* second signal of the restart case: make the restarted read succeed */
        if (write(pipefd[1], "x", 1) != 1) _exit(3);
    }
}

static void arm(int flags, long usec)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, usec }, { 0, usec } };
    setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm(void)
{
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
}

int main(void)
{
    char c;
    if (pipe(pipefd) != 0) { perror("pipe"); return 1; }

    handled = 0;
    feed_pipe = 0;
    arm(0, 50000);
    ssize_t r = read(pipefd[0], &c, 1);
    disarm();
    printf("read without SA_RESTART: returned %zd, errno %s\n", r, r < 0 && errno == EINTR ? "EINTR" : "other");

    handled = 0;
    feed_pipe = 1;
    arm(SA_RESTART, 50000);
    r = read(pipefd[0], &c, 1);
    disarm();
    printf("read with SA_RESTART: returned %zd byte '%c' after %s signals\n", r, r == 1 ? c : '?',
           handled >= 2 ? "two or more" : "fewer than two");

    arm(0, 100000);
    struct timespec req = { 5, 0 }, rem = { 0, 0 };
    int n = nanosleep(&req, &rem);
    disarm();
    printf("nanosleep(5 s) interrupted: %s, time left between 4 and 5 s: %s\n",
           n < 0 && errno == EINTR ? "yes" : "no", rem.tv_sec == 4 || (rem.tv_sec == 5 && rem.tv_nsec == 0) ? "yes" : "no");

    sigset_t block, old, none;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    handled = 0;
    feed_pipe = 0;
    arm(0, 20000);
    sigemptyset(&none);
    n = sigsuspend(&none);
    disarm();
    printf("sigsuspend: returned %d with %s, handler ran: %s\n", n, errno == EINTR ? "EINTR" : "other",
           handled ? "yes" : "no");
    sigprocmask(SIG_SETMASK, &old, NULL);
    return 0;
}
