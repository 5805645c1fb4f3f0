/* Signals in threads: a thread-directed signal (pthread_kill) handled on the
 * thread's own sigaltstack of SIGSTKSZ bytes, a process-directed signal that
 * only one thread leaves unblocked, and a signal that wakes a thread out of
 * a blocking read with EINTR. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALT_SIZE 8192   /* glibc's constant SIGSTKSZ */

static pthread_t worker;
static char *worker_alt;
static volatile sig_atomic_t in_worker, on_alt, count;
static pthread_barrier_t ready, done;
static int pipefd[2];

static void handler(int sig)
{
    char here;
    (void)sig;
    in_worker = pthread_equal(pthread_self(), worker);
    on_alt = &here >= worker_alt && &here < worker_alt + ALT_SIZE;
    count++;
}

static void *worker_main(void *arg)
{
    (void)arg;
    worker_alt = malloc(ALT_SIZE);
    stack_t ss = { .ss_sp = worker_alt, .ss_size = ALT_SIZE, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    pthread_barrier_wait(&ready);
    /* Phase 1 and 2: the main thread signals us; wait until it is done. */
    pthread_barrier_wait(&done);
    /* Phase 3: block in read() until SIGUSR1 (no SA_RESTART) interrupts it. */
    char c;
    ssize_t r = read(pipefd[0], &c, 1);
    printf("worker: read returned %zd, %s\n", r, r < 0 && errno == EINTR ? "EINTR" : "unexpected");
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    if (pipe(pipefd) != 0) { perror("pipe"); return 1; }

    /* SIGUSR2 blocked in the main thread (and so in the worker unless it unblocks it). */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_barrier_init(&ready, NULL, 2);
    pthread_barrier_init(&done, NULL, 2);
    pthread_create(&worker, NULL, worker_main, NULL);
    pthread_barrier_wait(&ready);

    pthread_kill(worker, SIGUSR1);
    while (count < 1) sched_yield();
    printf("pthread_kill: handled in the worker: %s, on its alternate stack: %s\n",
           in_worker ? "yes" : "no", on_alt ? "yes" : "no");

    kill(getpid(), SIGUSR2);   /* process-directed; only the worker accepts it */
    while (count < 2) sched_yield();
    printf("kill(getpid()): handled in the worker: %s, on its alternate stack: %s\n",
           in_worker ? "yes" : "no", on_alt ? "yes" : "no");
    pthread_barrier_wait(&done);

    /* Give the worker time to block in read(), then interrupt it; retry in
     * case the signal arrived before it blocked. */
    for (int i = 0; i < 200; i++) {
        usleep(20000);
        if (pthread_kill(worker, SIGUSR1) != 0) break;
        usleep(20000);
        if (pthread_tryjoin_np(worker, NULL) == 0) goto joined;
    }
    pthread_join(worker, NULL);
joined:
    printf("main: worker joined, its handler ran in the worker: %s\n", in_worker ? "yes" : "no");
    return 0;
}
