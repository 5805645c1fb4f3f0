/*
 * Linux guest program of the gdb group (static riscv64, in the initramfs).
 *
 *   tl-gdb-target          puts known TL state in place (int8, tshape
 *                          [2, 4, 8]: tl1[i] = i*5+1, tl2 = tl1 + 10), stops
 *                          in gdb_stop_here() for gdbserver's client, then
 *                          stores tl2 and prints what it holds, so that a
 *                          write made by gdb shows: "tl-gdb-target: tl2[3] =
 *                          N, tl2 sum = S, tshape = 0x..., tmask_ls = 0x...,
 *                          tinit = 0x..." (tmask_ls is not written here)
 *   tl-gdb-target core     two threads with different TL state (thread k:
 *                          ttype int8, tl1[i] = (i + 16k) & 0xff, tl3 = tl1 +
 *                          k + 1), then abort(): a core dump with one
 *                          NT_RISCV_XTL note per thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tl/tl_insn.h"

static uint8_t buf[1024] __attribute__((aligned(64)));
static uint8_t out[1024] __attribute__((aligned(64)));

void __attribute__((noinline)) gdb_stop_here(void)
{
    __asm__ volatile("" ::: "memory");
}

static int attach_mode(void)
{
    for (int i = 0; i < 1024; i++) {
        buf[i] = (uint8_t)(i * 5 + 1);
    }
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(2, 4, 8));     /* S = 32: 64 bytes */
    tl_load(1, 0, buf);
    tl_addi(2, 1, 10);
    gdb_stop_here();
    tl_store(2, 0, out);
    unsigned sum = 0;
    for (int i = 0; i < 64; i++) {
        sum += out[i];
    }
    printf("tl-gdb-target: tl2[3] = %u, tl2 sum = %u, tshape = 0x%x, tmask_ls = 0x%x, tinit = 0x%x\n",
           out[3], sum, (unsigned)tl_csr_read(TL_CSR_TSHAPE), (unsigned)tl_csr_read(TL_CSR_TMASK_LS),
           (unsigned)tl_csr_read(TL_CSR_TINIT));
    return 0;
}

static pthread_barrier_t ready;
static uint8_t thread_buf[2][1024] __attribute__((aligned(64)));

static void *core_thread(void *arg)
{
    int k = (int)(intptr_t)arg;

    for (int i = 0; i < 1024; i++) {
        thread_buf[k][i] = (uint8_t)(i + 16 * k);
    }
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));   /* the whole register */
    tl_load(1, 0, thread_buf[k]);
    if (k == 0) {
        tl_addi(3, 1, 1);
    } else {
        tl_addi(3, 1, 2);
    }
    pthread_barrier_wait(&ready);
    if (k == 0) {
        pthread_barrier_wait(&ready);
        abort();
    }
    pthread_barrier_wait(&ready);
    for (;;) {
        pause();
    }
    return NULL;
}

static int core_mode(void)
{
    pthread_t t[2];

    pthread_barrier_init(&ready, NULL, 3);
    for (intptr_t k = 0; k < 2; k++) {
        if (pthread_create(&t[k], NULL, core_thread, (void *)k) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&ready);
    pthread_join(t[0], NULL);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "core") == 0) {
        return core_mode();
    }
    return attach_mode();
}
