/* A handler on a sigaltstack of a given size: the pattern of Rust's and Go's
 * runtimes and of any program that handles stack overflow.  The size is
 * glibc's constant SIGSTKSZ or MINSIGSTKSZ (this file does not define
 * _GNU_SOURCE, so both are the fixed constants of <signal.h>), or the
 * run-time sizes sysconf(_SC_SIGSTKSZ) / sysconf(_SC_MINSIGSTKSZ).  The sizes
 * themselves are not printed: the run-time ones depend on the CPU. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *alt_base;
static size_t alt_size;
static volatile sig_atomic_t ran, on_alt;

static void handler(int sig)
{
    char here;
    ran = sig;
    on_alt = &here >= alt_base && &here < alt_base + alt_size;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "SIGSTKSZ";
    if (!strcmp(mode, "SIGSTKSZ")) alt_size = SIGSTKSZ;
    else if (!strcmp(mode, "MINSIGSTKSZ")) alt_size = MINSIGSTKSZ;
    else if (!strcmp(mode, "sysconf-SIGSTKSZ")) alt_size = sysconf(_SC_SIGSTKSZ);
    else if (!strcmp(mode, "sysconf-MINSIGSTKSZ")) alt_size = sysconf(_SC_MINSIGSTKSZ);
    else { fprintf(stderr, "usage: sigaltstack SIGSTKSZ|MINSIGSTKSZ|sysconf-SIGSTKSZ|sysconf-MINSIGSTKSZ\n"); return 2; }

    alt_base = malloc(alt_size);
    stack_t ss = { .ss_sp = alt_base, .ss_size = alt_size, .ss_flags = 0 };
    if (!alt_base || sigaltstack(&ss, NULL) != 0) { perror("sigaltstack"); return 1; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0) { perror("sigaction"); return 1; }
    for (int i = 0; i < 3; i++) {
        ran = on_alt = 0;
        raise(SIGUSR1);
        printf("%s raise %d: handler ran for signal %d, on the alternate stack: %s\n",
               mode, i + 1, (int)ran, on_alt ? "yes" : "no");
    }
    stack_t cur;
    sigaltstack(NULL, &cur);
    printf("%s: alternate stack still installed: %s, not in use: %s\n", mode,
           cur.ss_sp == alt_base ? "yes" : "no", cur.ss_flags == 0 ? "yes" : "no");
    return 0;
}
