/* Synchronous signals whose handler resumes the program by editing the
 * saved context (ucontext_t): an illegal instruction (SIGILL) skipped by
 * advancing the saved pc, an ebreak (SIGTRAP) skipped the same way, and a
 * handler that changes a saved integer register the interrupted code then
 * reads.  Also makecontext/swapcontext between two coroutines. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static volatile sig_atomic_t last_sig, last_code;

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    last_sig = sig;
    last_code = si->si_code;
    uc->uc_mcontext.__gregs[REG_PC] += 4;   /* the faulting instructions are 4 bytes */
}

static void on_usr1_set_a0(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    (void)sig; (void)si;
    uc->uc_mcontext.__gregs[REG_A0 + 1] = 0x1234;   /* a1 */
}

static ucontext_t main_ctx, co_ctx;
static char co_stack[16384];
static int co_steps;

static void coroutine(void)
{
    for (int i = 0; i < 3; i++) {
        co_steps++;
        swapcontext(&co_ctx, &main_ctx);
    }
}

static void install(int sig, void (*h)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = h;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

int main(void)
{
    install(SIGILL, on_fault);
    install(SIGTRAP, on_fault);
    install(SIGUSR1, on_usr1_set_a0);

    __asm__ volatile(".4byte 0x00000000" ::: "memory");   /* defined illegal encoding */
    printf("all-zero instruction: signal %s, si_code %s, resumed after it\n",
           last_sig == SIGILL ? "SIGILL" : "other", last_code == ILL_ILLOPC ? "ILL_ILLOPC" : "other");
    last_sig = 0;
    __asm__ volatile(".4byte 0xffffffff" ::: "memory");   /* reserved (>= 80-bit) encoding */
    printf("all-ones instruction: signal %s, resumed after it\n", last_sig == SIGILL ? "SIGILL" : "other");
    last_sig = 0;
    __asm__ volatile(".option push\n.option norvc\nebreak\n.option pop" ::: "memory");
    printf("ebreak: signal %s, resumed after it\n", last_sig == SIGTRAP ? "SIGTRAP" : "other");

    /* kill(getpid(), SIGUSR1) through a raw ecall so that a1 is live across it */
    register long a0 __asm__("a0") = getpid();
    register long a1 __asm__("a1") = SIGUSR1;
    register long a7 __asm__("a7") = 129;   /* __NR_kill */
    __asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a7) : "memory");
    printf("a1 after a handler edited the saved a1: 0x%lx, kill returned %ld\n", a1, a0);

    getcontext(&co_ctx);
    co_ctx.uc_stack.ss_sp = co_stack;
    co_ctx.uc_stack.ss_size = sizeof co_stack;
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, coroutine, 0);
    for (int i = 0; i < 3; i++) swapcontext(&main_ctx, &co_ctx);
    printf("swapcontext: coroutine ran %d steps\n", co_steps);
    return 0;
}
