/*
 * Host reference for the per-instruction figures: memcpy of an in-cache
 * 1 KiB buffer (and 2 KiB, the size of one tl.xpose), timed on the host;
 * and, on x86-64 hosts with AVX2, the same 1 KiB copied by 32 unrolled pairs
 * of 32-byte loads and stores, the widest vector moves TCG emits (what the
 * inline tl.load / tl.store copy is made of; memcpy may use wider ones).
 * Prints "name bytes_per_second ns_per_op".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "bench_time.h"

static unsigned char src[2048] __attribute__((aligned(64)));
static unsigned char dst[2048] __attribute__((aligned(64)));

struct copy_ctx {
    size_t bytes;
};

static void body_memcpy(void *ctx, uint64_t reps)
{
    size_t n = ((struct copy_ctx *)ctx)->bytes;
    for (uint64_t i = 0; i < reps; i++) {
        unsigned char *d = dst, *s = src;
        /* Hide the pointers and size from the optimizer: one real memcpy per rep. */
        __asm__ volatile("" : "+r"(d), "+r"(s), "+r"(n));
        memcpy(d, s, n);
        __asm__ volatile("" : : "r"(d) : "memory");
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
typedef unsigned char v32 __attribute__((vector_size(32), aligned(1)));

__attribute__((target("avx2"))) static void body_moves32(void *ctx, uint64_t reps)
{
    (void)ctx;
    for (uint64_t i = 0; i < reps; i++) {
        unsigned char *d = dst, *s = src;
        __asm__ volatile("" : "+r"(d), "+r"(s));
#pragma GCC unroll 32
        for (unsigned k = 0; k < 1024; k += 32) {
            *(v32 *)(d + k) = *(const v32 *)(s + k);
        }
        __asm__ volatile("" : : "r"(d) : "memory");
    }
}
#endif

int main(void)
{
    for (size_t i = 0; i < sizeof(src); i++) {
        src[i] = (unsigned char)(i * 7 + 1);
    }
    const size_t sizes[] = {1024, 2048};
    for (unsigned k = 0; k < 2; k++) {
        struct copy_ctx c = {sizes[k]};
        double ns = bench_median_ns(body_memcpy, &c);
        printf("host_memcpy_%zu %.6e %.3f\n", sizes[k], (double)sizes[k] * 1e9 / ns, ns);
    }
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        double ns = bench_median_ns(body_moves32, NULL);
        printf("host_moves32_1024 %.6e %.3f\n", 1024 * 1e9 / ns, ns);
    }
#endif
    return 0;
}
