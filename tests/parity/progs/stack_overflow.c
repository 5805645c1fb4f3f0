/* Stack-overflow detection as language runtimes do it (Rust's std, for one):
 * a SIGSEGV handler on a sigaltstack of SIGSTKSZ bytes catches the fault of
 * unbounded recursion and leaves with siglongjmp; then a null pointer
 * store and a store to a read-only page are caught the same way. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ALT_SIZE 8192   /* glibc's constant SIGSTKSZ */

static sigjmp_buf env;
static char *alt;
static volatile sig_atomic_t on_alt, code;
static void *volatile fault_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    char here;
    (void)sig; (void)uc;
    on_alt = &here >= alt && &here < alt + ALT_SIZE;
    code = si->si_code;
    fault_addr = si->si_addr;
    siglongjmp(env, 1);
}

static volatile int keep_going = 1;

static unsigned long recurse(unsigned long n)
{
    volatile char pad[512];
    pad[0] = (char)n;
    pad[511] = (char)n;
    if (!keep_going) return n;   /* never false: recursion until the stack ends */
    return recurse(n + 1) + pad[0] + pad[511];
}

int main(void)
{
    alt = malloc(ALT_SIZE);
    stack_t ss = { .ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);

    for (volatile int round = 1; round <= 2; round++) {
        if (sigsetjmp(env, 1) == 0) {
            printf("never %lu\n", recurse(0));
        } else {
            printf("stack overflow %d: caught on the alternate stack: %s, si_code a SEGV_ code: %s\n",
                   round, on_alt ? "yes" : "no", code == SEGV_MAPERR || code == SEGV_ACCERR ? "yes" : "no");
        }
    }
    if (sigsetjmp(env, 1) == 0) {
        volatile int *volatile bad = (int *)16;
        *bad = 1;
    } else {
        printf("store to address 16: caught, si_addr %p, si_code %s\n", fault_addr,
               code == SEGV_MAPERR ? "SEGV_MAPERR" : "other");
    }
    char *volatile ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sigsetjmp(env, 1) == 0) {
        ro[100] = 1;
    } else {
        printf("store to a read-only page: caught, at page offset %ld, si_code %s\n",
               (long)((char *)fault_addr - ro), code == SEGV_ACCERR ? "SEGV_ACCERR" : "other");
    }
    return 0;
}
