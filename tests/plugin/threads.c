/*
 * THREADS threads (argv[1], default 4) each run their own number of TL loads
 * (1000 + 100 * thread index) with their own CSRs: thread t uses
 * tshape [2, 16, 16] int8 (S = 256) and W = 64 + 32 * t, so each load moves
 * 2 * W bytes.  Under qemu-riscv64 each thread is its own vCPU; the plugin's
 * totals must be the sums (tests/plugin/run.sh computes them).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tl/tl_insn.h"

static uint8_t buf[8][1024];

static void *worker(void *arg)
{
    const long t = (long)arg;
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64 + 32 * t);
    for (long i = 0; i < 1000 + 100 * t; i++) {
        tl_load(1, 0, buf[t]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 4;
    pthread_t th[8];
    if (n < 1 || n > 8) {
        return 2;
    }
    for (long t = 0; t < n; t++) {
        pthread_create(&th[t], NULL, worker, (void *)t);
    }
    for (long t = 0; t < n; t++) {
        pthread_join(th[t], NULL);
    }
    printf("threads: %ld done\n", n);
    return 0;
}
