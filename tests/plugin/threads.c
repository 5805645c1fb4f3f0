/*
 * THREADS threads (argv[1], default 4, at most 40) each run their own number
 * of TL loads, R = 500 + 50 * thread index, with their own CSRs: thread t
 * uses tshape [2, 16, 16] int8 (S = 256) and W = 64 + 4 * t for R loads,
 * waits until every thread has done so, then W / 2 for R more; each load
 * moves 2 * W bytes.  Under qemu-riscv64 each thread is its own vCPU; the
 * plugin's totals must be the sums (tests/plugin/run.sh computes them).
 * The first FIRST_GROUP threads finish their first halves before the others
 * are created; with more than 16 threads alive QEMU then reallocates the
 * plugin's per-vCPU storage while those wait between their two halves.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tl/tl_insn.h"

#define MAX_THREADS 40
#define FIRST_GROUP 28

static uint8_t buf[MAX_THREADS][1024];
static pthread_barrier_t halfway, first_group_halfway;
static long first_group;

static void *worker(void *arg)
{
    const long t = (long)arg;
    const long runs = 500 + 50 * t;
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64 + 4 * t);
    for (long i = 0; i < runs; i++) {
        tl_load(1, 0, buf[t]);
    }
    if (t < first_group) {
        pthread_barrier_wait(&first_group_halfway);
    }
    pthread_barrier_wait(&halfway);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, (64 + 4 * t) / 2);
    for (long i = 0; i < runs; i++) {
        tl_load(1, 0, buf[t]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 4;
    pthread_t th[MAX_THREADS];
    if (n < 1 || n > MAX_THREADS) {
        return 2;
    }
    first_group = n < FIRST_GROUP ? n : FIRST_GROUP;
    pthread_barrier_init(&halfway, NULL, (unsigned)n);
    pthread_barrier_init(&first_group_halfway, NULL, (unsigned)first_group + 1);
    for (long t = 0; t < n; t++) {
        if (t == first_group) {
            pthread_barrier_wait(&first_group_halfway);
        }
        if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
            return 3;
        }
    }
    if (first_group == n) {
        pthread_barrier_wait(&first_group_halfway);
    }
    for (long t = 0; t < n; t++) {
        pthread_join(th[t], NULL);
    }
    printf("threads: %ld done\n", n);
    return 0;
}
