/*
 * A thread created after another has exited takes the exited thread's
 * vCPU index under qemu-riscv64 (the lowest free one).  Thread A sets the
 * slice width to 32 and runs RUNS_A loads at one site; after A is joined,
 * thread B, whose TL state is its parent's (clone copies it: width 64),
 * runs RUNS_B loads at the same site without writing a CSR.  With tshape
 * [2, 16, 16] int8 each load moves 2 * width bytes: the plugin must count
 * RUNS_A * 64 + RUNS_B * 128 bytes (tests/plugin/run.sh), not B's loads
 * under the width A left.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "tl/tl_insn.h"

#define RUNS_A 300
#define RUNS_B 700

static uint8_t buf[1024];

static __attribute__((noinline)) void loads(long n)
{
    for (long i = 0; i < n; i++) {
        tl_load(1, 0, buf);
    }
}

static void *thread_a(void *arg)
{
    (void)arg;
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 32);
    loads(RUNS_A);
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    loads(RUNS_B);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64);
    if (pthread_create(&a, NULL, thread_a, NULL) != 0 || pthread_join(a, NULL) != 0 ||
        pthread_create(&b, NULL, thread_b, NULL) != 0 || pthread_join(b, NULL) != 0) {
        return 1;
    }
    printf("thread_reuse: done\n");
    return 0;
}
