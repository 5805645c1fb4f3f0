/*
 * tl.load / tl.store throughput under qemu-system-riscv64 (softmmu, M-mode,
 * -M virt -bios none), the same loops as the user-mode program
 * (bench/tl_loops.h).  Time comes from rdtime (the virt machine's 10 MHz
 * timebase, which follows host time without -icount).  Prints on the UART
 * "name bytes_per_op ops ticks" per figure (median sample of 7), then
 * "timebase 10000000" and "done", and ends the run with the test finisher.
 * Integer-only (mstatus.FS stays off).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "baremetal/virt.h"
#include "tl_loops.h"

#define TIMEBASE_HZ 10000000ull
#define SAMPLES 7
#define SAMPLE_TICKS (TIMEBASE_HZ / 50) /* 20 ms */

static inline uint64_t ticks(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

/* Page-aligned, away from code: a store to a page holding translated code takes QEMU's slow self-modifying-code path. */
static uint8_t buf_a[4096] __attribute__((aligned(4096)));
static uint8_t buf_b[4096] __attribute__((aligned(4096)));

typedef void (*body_fn)(uint64_t iters);
static void b_load(uint64_t n) { bench_tl_load(buf_a, n); }
static void b_store(uint64_t n) { bench_tl_store(buf_b, n); }
static void b_copy(uint64_t n) { bench_tl_copy(buf_b, buf_a, n); }
static void b_scalar_copy(uint64_t n) { bench_scalar_copy_1k(buf_b, buf_a, n); }

static void measure(const char *name, body_fn fn, unsigned bytes_per_op, unsigned ops_per_iter)
{
    uint64_t iters = 1, t;
    fn(1);
    for (;;) {
        uint64_t t0 = ticks();
        fn(iters);
        t = ticks() - t0;
        if (t >= SAMPLE_TICKS / 4) {
            break;
        }
        iters *= 2;
    }
    iters = iters * SAMPLE_TICKS / (t ? t : 1) + 1;
    uint64_t s[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = ticks();
        fn(iters);
        s[i] = ticks() - t0;
    }
    for (int i = 1; i < SAMPLES; i++) { /* insertion sort */
        uint64_t v = s[i];
        int j = i - 1;
        while (j >= 0 && s[j] > v) {
            s[j + 1] = s[j];
            j--;
        }
        s[j + 1] = v;
    }
    virt_puts(name);
    virt_putc(' ');
    virt_putu(bytes_per_op);
    virt_putc(' ');
    virt_putu(iters * ops_per_iter);
    virt_putc(' ');
    virt_putu(s[SAMPLES / 2]);
    virt_putc('\n');
}

int main(void)
{
    for (unsigned i = 0; i < sizeof(buf_a); i++) {
        buf_a[i] = (uint8_t)(i * 13 + 1);
    }
    bench_setup_mem_1k();
    measure("tl.load_1k", b_load, 1024, BENCH_UNROLL);
    measure("tl.store_1k", b_store, 1024, BENCH_UNROLL);
    measure("tl.load+store_1k", b_copy, 1024, BENCH_UNROLL / 2);
    bench_setup_mem_1k_strided();
    measure("tl.load_1k_pitch256", b_load, 1024, BENCH_UNROLL);
    measure("scalar_copy_1k", b_scalar_copy, 1024, 1);
    virt_puts("timebase ");
    virt_putu(TIMEBASE_HZ);
    virt_puts("\ndone\n");
    virt_exit(0);
}
