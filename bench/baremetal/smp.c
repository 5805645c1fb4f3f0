/*
 * TL throughput of qemu-system-riscv64 with several harts (MTTCG): WORKERS
 * harts (a build-time constant, -DWORKERS=N) each copy 1 KiB blocks of their
 * own buffers with tl.load/tl.store for 200 ms of guest time (the virt
 * machine's timebase follows host time without -icount); other harts wait
 * in wfi.  Hart 0 then prints "smp workers W bytes B ticks T timebase HZ"
 * and ends the run through the test finisher.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "baremetal/virt.h"
#include "tl_loops.h"

#ifndef WORKERS
#define WORKERS 1
#endif
#define MAX_HARTS 8
#define RUN_TICKS 2000000ull /* 200 ms at the virt machine's 10 MHz */

static uint8_t buf[MAX_HARTS][2][4096] __attribute__((aligned(4096)));
static volatile uint64_t done_bytes[MAX_HARTS];
static volatile uint32_t finished[MAX_HARTS];
static volatile uint32_t arrived, go;

static inline uint64_t ticks(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

void smp_main(unsigned long hart);
void smp_main(unsigned long hart)
{
    if (hart >= WORKERS) {
        __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    bench_setup_mem_1k();
    __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
    if (hart == 0) {
        while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < WORKERS) {
        }
        __atomic_store_n(&go, 1, __ATOMIC_SEQ_CST);
    }
    while (!__atomic_load_n(&go, __ATOMIC_SEQ_CST)) {
    }
    uint64_t t0 = ticks(), bytes = 0, t;
    do {
        bench_tl_copy(buf[hart][1], buf[hart][0], 64);   /* 256 loads + 256 stores of 1 KiB */
        bytes += 64 * 8 * 1024;
        t = ticks() - t0;
    } while (t < RUN_TICKS);
    done_bytes[hart] = bytes;
    __atomic_store_n(&finished[hart], (uint32_t)t + 1, __ATOMIC_SEQ_CST);
    if (hart != 0) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    uint64_t total = 0, longest = 0;
    for (unsigned h = 0; h < WORKERS; h++) {
        while (!__atomic_load_n(&finished[h], __ATOMIC_SEQ_CST)) {
        }
        total += done_bytes[h];
        if (finished[h] - 1 > longest) {
            longest = finished[h] - 1;
        }
    }
    virt_puts("smp workers ");
    virt_putu(WORKERS);
    virt_puts(" bytes ");
    virt_putu(total);
    virt_puts(" ticks ");
    virt_putu(longest);
    virt_puts(" timebase 10000000\n");
    virt_exit(0);
}
