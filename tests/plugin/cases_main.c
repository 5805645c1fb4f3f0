/*
 * Driver of the random cases of tests/plugin/gen_cases.py: maps the memory
 * window the cases use (256 KiB PROT_NONE, 512 KiB read/write, 256 KiB
 * PROT_NONE at 0x20000000) and runs them; every trapping instruction is
 * skipped by the handler.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#define WINDOW ((void *)0x20000000UL)
#define GUARD (256 * 1024)

void run_cases(void);

static volatile unsigned long traps;

static void skip(int sig, siginfo_t *info, void *ucv)
{
    (void)sig;
    (void)info;
    ((ucontext_t *)ucv)->uc_mcontext.__gregs[REG_PC] += 4;
    traps++;
}

int main(void)
{
    struct sigaction sa;
    char *w = mmap(WINDOW, 4 * GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (w != WINDOW || mprotect(w + GUARD, 2 * GUARD, PROT_READ | PROT_WRITE)) {
        perror("cases: cannot map the memory window");
        return 2;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = skip;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    run_cases();
    printf("cases: done, %lu trap(s) skipped\n", traps);
    return 0;
}
