/* Nested signal delivery: a handler that raises another signal, a handler
 * that re-enters itself (SA_NODEFER), signals blocked by sa_mask and by
 * sigprocmask delivered once when unblocked, a real-time signal queued
 * three times with values delivered in order, and sigwaitinfo.  Only one
 * signal number is pending at a time: with several, the order in which
 * their handlers run depends on how the kernel stacks their frames.  Prints the order of events. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char trace[512];
static int depth;

static void note(const char *s)
{
    strncat(trace, s, sizeof trace - strlen(trace) - 1);
}

static void on_usr2(int sig)
{
    (void)sig;
    note(" usr2");
}

static void on_usr1(int sig)
{
    (void)sig;
    note(" usr1-in");
    raise(SIGUSR2);            /* not in sa_mask: runs nested, before usr1 returns */
    note(" usr1-out");
}

static void on_alrm_nodefer(int sig)
{
    char s[32];
    snprintf(s, sizeof s, " alrm%d-in", ++depth);
    note(s);
    if (depth < 3) raise(sig); /* SA_NODEFER: re-enters at once */
    snprintf(s, sizeof s, " alrm-out");
    note(s);
}

static void on_hup_masked(int sig)
{
    (void)sig;
    note(" hup-in");
    raise(SIGUSR2);            /* in sa_mask: pending until hup returns */
    note(" hup-out");
}

static void on_rt(int sig, siginfo_t *si, void *uc)
{
    char s[32];
    (void)uc;
    snprintf(s, sizeof s, " rt+%d:%d", sig - SIGRTMIN, si->si_value.sival_int);
    note(s);
}

static void install(int sig, void (*h)(int), int flags, int masked)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (masked) sigaddset(&sa.sa_mask, masked);
    sigaction(sig, &sa, NULL);
}

int main(void)
{
    install(SIGUSR1, on_usr1, 0, 0);
    install(SIGUSR2, on_usr2, 0, 0);
    install(SIGALRM, on_alrm_nodefer, SA_NODEFER, 0);
    install(SIGHUP, on_hup_masked, 0, SIGUSR2);

    trace[0] = 0; raise(SIGUSR1);
    printf("nested:%s\n", trace);
    trace[0] = 0; raise(SIGALRM);
    printf("SA_NODEFER:%s\n", trace);
    trace[0] = 0; raise(SIGHUP);
    printf("sa_mask:%s\n", trace);

    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGUSR2);
    sigprocmask(SIG_BLOCK, &set, &old);
    trace[0] = 0;
    raise(SIGUSR2);
    raise(SIGUSR2);            /* a standard signal is pending at most once */
    note(" unblock");
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("sigprocmask:%s\n", trace);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_rt;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGRTMIN + 1, &sa, NULL);
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN + 1);
    sigprocmask(SIG_BLOCK, &set, &old);
    trace[0] = 0;
    for (int i = 1; i <= 3; i++)
        sigqueue(getpid(), SIGRTMIN + 1, (union sigval){ .sival_int = 10 + i });
    note(" unblock");
    sigprocmask(SIG_SETMASK, &old, NULL);   /* a real-time signal queues: all three, in order */
    printf("realtime queue:%s\n", trace);

    sigaddset(&set, SIGRTMIN + 2);
    sigprocmask(SIG_BLOCK, &set, &old);
    sigqueue(getpid(), SIGRTMIN + 2, (union sigval){ .sival_int = 7 });
    siginfo_t si;
    int got = sigwaitinfo(&set, &si);
    printf("sigwaitinfo: signal SIGRTMIN+%d value %d code %s\n", got - SIGRTMIN,
           si.si_value.sival_int, si.si_code == SI_QUEUE ? "SI_QUEUE" : "other");
    return 0;
}
