/*
 * Timing for the hosted benchmark programs (host and qemu-riscv64): a
 * monotonic clock, a calibration that picks a repetition count giving each
 * sample at least BENCH_SAMPLE_NS, and the median of BENCH_SAMPLES samples.
 * Figures are printed, never checked against a limit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_BENCH_TIME_H
#define TL_BENCH_TIME_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#ifndef BENCH_SAMPLES
#define BENCH_SAMPLES 7
#endif
#ifndef BENCH_SAMPLE_NS
#define BENCH_SAMPLE_NS 20000000ull /* 20 ms per sample */
#endif

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/*
 * Median time of one call of body(ctx, reps) divided by reps, in
 * nanoseconds as a double.  reps is chosen so that a sample takes at least
 * BENCH_SAMPLE_NS (BENCH_SAMPLE_NS env var overrides, in ns).
 */
typedef void (*bench_body_fn)(void *ctx, uint64_t reps);

static inline double bench_median_ns(bench_body_fn body, void *ctx)
{
    uint64_t target = BENCH_SAMPLE_NS;
    const char *env = getenv("BENCH_SAMPLE_NS");
    if (env && *env) {
        target = strtoull(env, NULL, 10);
    }
    uint64_t reps = 1, t;
    body(ctx, 1); /* warm up: translation, caches, page faults */
    for (;;) {
        uint64_t t0 = bench_now_ns();
        body(ctx, reps);
        t = bench_now_ns() - t0;
        if (t >= target / 4 || reps >= (1ull << 40)) {
            break;
        }
        reps *= 2;
    }
    if (t < target) {
        reps = reps * target / (t ? t : 1) + 1;
    }
    uint64_t samples[BENCH_SAMPLES];
    for (int i = 0; i < BENCH_SAMPLES; i++) {
        uint64_t t0 = bench_now_ns();
        body(ctx, reps);
        samples[i] = bench_now_ns() - t0;
    }
    qsort(samples, BENCH_SAMPLES, sizeof(samples[0]), bench_cmp_u64);
    return (double)samples[BENCH_SAMPLES / 2] / (double)reps;
}

#endif /* TL_BENCH_TIME_H */
