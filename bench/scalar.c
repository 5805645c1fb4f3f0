/*
 * Scalar riscv64 loops that never use TL, for the performance-parity table
 * of make bench: the same program under an unpatched qemu-riscv64 and under
 * TL-QEMU (default CPU, xtl on).  Prints "NAME NS" lines: the median time
 * of one call (bench_time.h); with an argument, only that program's line
 * ("list": the names).  Covers the paths a TL patch could slow for
 * every program: memory accesses (copy loop, memcpy), integer and
 * floating-point arithmetic, branches, and indirect calls and returns
 * (translation-block lookup and chaining).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_time.h"
#include "tl_loops.h"

static uint8_t buf_a[4096] __attribute__((aligned(64)));
static uint8_t buf_b[4096] __attribute__((aligned(64)));
static volatile uint64_t sink;

static void b_copy_loop(void *c, uint64_t r) { (void)c; bench_scalar_copy_1k(buf_b, buf_a, r); }

static void b_memcpy(void *c, uint64_t r)
{
    (void)c;
    for (uint64_t i = 0; i < r; i++) {
        memcpy(buf_b, buf_a, 1024);
        __asm__ volatile("" : : "r"(buf_b) : "memory");
    }
}

/* 4096 rounds of an FNV-1a step: multiplies, xors, a loop branch. */
static void b_int_hash(void *c, uint64_t r)
{
    (void)c;
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < r; i++) {
        for (unsigned k = 0; k < 4096; k++) {
            h = (h ^ k) * 1099511628211ull;
        }
    }
    sink = h;
}

/* 4096 double multiply-adds and divisions. */
static void b_fp(void *c, uint64_t r)
{
    (void)c;
    double s = 0.0;
    for (uint64_t i = 0; i < r; i++) {
        for (unsigned k = 1; k <= 4096; k++) {
            s = s * 0.999 + 1.0 / (double)k;
        }
    }
    sink = (uint64_t)s;
}

/* Insertion sort of 256 pseudo-random words: data-dependent branches. */
static void b_sort(void *c, uint64_t r)
{
    (void)c;
    uint32_t v[256];
    for (uint64_t i = 0; i < r; i++) {
        uint32_t x = 12345u + (uint32_t)i;
        for (unsigned k = 0; k < 256; k++) {
            x = x * 1664525u + 1013904223u;
            v[k] = x;
        }
        for (unsigned k = 1; k < 256; k++) {
            uint32_t key = v[k];
            int j = (int)k - 1;
            while (j >= 0 && v[j] > key) {
                v[j + 1] = v[j];
                j--;
            }
            v[j + 1] = key;
        }
        sink = v[128];
    }
}

/* 4096 indirect calls through a table of small functions. */
static uint64_t f0(uint64_t x) { return x + 1; }
static uint64_t f1(uint64_t x) { return x ^ 0x55; }
static uint64_t f2(uint64_t x) { return x * 3; }
static uint64_t f3(uint64_t x) { return x >> 1 | 1; }
static uint64_t (*const volatile fns[4])(uint64_t) = { f0, f1, f2, f3 };

static void b_calls(void *c, uint64_t r)
{
    (void)c;
    uint64_t x = 7;
    for (uint64_t i = 0; i < r; i++) {
        for (unsigned k = 0; k < 4096; k++) {
            x = fns[(k ^ (k >> 3)) & 3](x);
        }
    }
    sink = x;
}

static const struct {
    const char *name;
    bench_body_fn fn;
} programs[] = {
    {"scalar_copy_loop_1k", b_copy_loop}, {"glibc_memcpy_1k", b_memcpy},
    {"int_hash_4k", b_int_hash},         {"fp_muladd_div_4k", b_fp},
    {"insertion_sort_256", b_sort},      {"indirect_calls_4k", b_calls},
};

/* parity_scalar [NAME | list]: every program, one, or their names. */
int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int found = 0;

    for (unsigned i = 0; i < sizeof(buf_a); i++) {
        buf_a[i] = (uint8_t)(i * 7 + 1);
    }
    for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
        if (only && strcmp(only, "list") == 0) {
            printf("%s\n", programs[i].name);
            found = 1;
        } else if (!only || strcmp(only, programs[i].name) == 0) {
            printf("%s %.1f\n", programs[i].name, bench_median_ns(programs[i].fn, NULL));
            fflush(stdout);
            found = 1;
        }
    }
    if (!found) {
        fprintf(stderr, "parity_scalar: no program '%s' (list: parity_scalar list)\n", only);
        return 2;
    }
    return 0;
}
