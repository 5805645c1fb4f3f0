/*
 * TL demo workload, run in Linux user space (riscv64, static).
 *
 * Two tensor pipelines, each computed once with TL instructions and once in
 * plain C following docs/isa.md, then compared element by element:
 *
 *   int8  A[32x64] --tl.load--> tl1,tl2 --tl.xpose.01--> A^T (64x32, halves tl1 tl2)
 *         B[32x8]  --tl.load (width 8, pitch 8)--> tl4
 *         tl.concat.2 tl3 = [ A^T[0:32, 0:24] | B ]          (32x32)
 *         tl.fillpad.max tl5 (valid 30 rows x 28 cols, pad 255)
 *         tl.muls tl5, x2 ; tl.addi tl5, -7   (unsigned saturating)
 *         tl.store tl5 -> out[32x32]
 *
 *   fp16  X[16x32] --tl.load--> tl6 --tl.muls 1.5f--> --tl.addi +2--> tl.store
 *         (round to nearest even, saturation to +-65504, inf, canonical NaN)
 *
 * Every CSR a step depends on is written before the step, so the pipelines
 * also work on a kernel that does not keep TL state per task (the stock
 * Debian kernel, run alone there).
 *
 *   tl-demo                 both pipelines once; "TL demo: PASS" or "FAIL"
 *   tl-demo -q              the same, printing only the last line
 *   tl-demo --concurrent P T N
 *                           P processes x T threads, each running both
 *                           pipelines N times and yielding the CPU between
 *                           steps, so that intermediate results sit in TL
 *                           registers while other tasks use TL; needs a
 *                           kernel that keeps TL state per task
 * Exit 0 on PASS.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl/tl_insn.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int quiet;
static int yield_between_steps;
#define STEP() do { if (yield_between_steps) sched_yield(); } while (0)
#define say(...) do { if (!quiet) printf(__VA_ARGS__); } while (0)

/* ---------------- int8 pipeline ---------------- */
#define AR 32   /* A rows */
#define AC 64   /* A cols */
#define BC 8    /* B cols */
#define ZC 32   /* result cols */
#define KEEP 24 /* columns of A^T kept by the concat */
#define VR 30   /* fillpad valid rows */
#define VC 28   /* fillpad valid cols */
#define SCALE 2
#define BIAS (-7)

static uint8_t A[AR * AC] __attribute__((aligned(64)));
static uint8_t B[AR * BC];
static uint8_t out_tl[AR * ZC], out_ref[AR * ZC];

static unsigned sat8(long v) { return v < 0 ? 0 : v > 255 ? 255 : (unsigned)v; }

static void int8_reference(void)
{
    for (int i = 0; i < AR; i++) {
        for (int j = 0; j < ZC; j++) {
            unsigned z;
            if (j < KEEP) {
                z = A[j * AC + i];          /* A^T[i][j] */
            } else {
                z = B[i * BC + (j - KEEP)];
            }
            if (i >= VR || j >= VC) {
                z = 255;                    /* fillpad.max for uint8 */
            }
            z = sat8((long)z * SCALE);
            z = sat8((long)z + BIAS);
            out_ref[i * ZC + j] = (uint8_t)z;
        }
    }
}

static void int8_tl(uint8_t *out)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    /* A as two blocks of 16 rows x 64 bytes. */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(16, 1, AC));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, AC);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, AC);
    tl_load(1, 0, A);
    tl_load(2, 0, A + 16 * AC);
    STEP();
    /* 4-D tensor [32, 64, 1, 1] over tl1:tl2; swap dims 0 and 1 -> [64, 32, 1, 1]. */
    tl_xpose(0, 1, 1, 2, TL_DIMS4(AR, AC, 1, 1));
    STEP();
    /* From here on blocks are 32 rows x 32 bytes. */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(AR, 1, ZC));
    /* B: 8 bytes per row, rows 8 bytes apart; the rest of each slice is zero. */
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, BC);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, BC);
    tl_load(4, 0, B);
    /* Columns 0..23 of A^T (tl1) followed by columns 0..7 of B (tl4). */
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, (1u << KEEP) - 1);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, (1u << BC) - 1);
    tl_concat(2, 3, 1, 4);
    STEP();
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(VR, 1, VC));
    tl_fillpad(TL_PAD_MAX, 5, 3);
    STEP();
    tl_muls(5, 5, SCALE);
    tl_addi(5, 5, BIAS);
    STEP();
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, ZC);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, ZC);
    tl_store(5, 0, out);
}

/* ---------------- fp16 pipeline ---------------- */
#define XR 16
#define XC 32
static uint16_t X[XR * XC], y_tl[XR * XC], y_ref[XR * XC];
static const float FSCALE = 1.5f;
#define FBIAS 2

static double half_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;

    if (e == 0x1f) {
        v = m ? NAN : INFINITY;
    } else if (e == 0) {
        v = ldexp(m, -24);
    } else {
        v = ldexp(m + 1024, e - 25);
    }
    return s ? -v : v;
}

/* docs/isa.md 5.9: one rounding to nearest even, saturation to max finite. */
static uint16_t half_from_double(double v, int zero_sign)
{
    uint16_t sign;
    double a, ulp, q, r;
    int e;

    if (isnan(v)) {
        return 0x7E00;                       /* canonical NaN */
    }
    sign = signbit(v) ? 0x8000 : 0;
    a = fabs(v);
    if (isinf(a)) {
        return sign | 0x7C00;
    }
    if (a == 0) {
        return zero_sign ? 0x8000 : 0;
    }
    frexp(a, &e);                            /* a in [2^(e-1), 2^e) */
    e -= 1;
    if (e < -14) {
        e = -14;                             /* subnormal spacing 2^-24 */
    }
    ulp = ldexp(1.0, e - 10);
    q = nearbyint(a / ulp);                  /* ties to even (default mode) */
    r = q * ulp;
    if (r > 65504.0) {
        return sign | 0x7BFF;                /* saturate */
    }
    if (r == 0) {
        return zero_sign ? 0x8000 : 0;
    }
    if (r < ldexp(1.0, -14)) {
        return sign | (uint16_t)q;           /* subnormal */
    }
    frexp(r, &e);
    e -= 1;
    return sign | (uint16_t)((e + 15) << 10) | (uint16_t)(ldexp(r, 10 - e) - 1024);
}

static void fp16_reference(void)
{
    for (int n = 0; n < XR * XC; n++) {
        double x = half_to_double(X[n]);
        /* muls: exact product in double (11 x 24 bits), zero sign = XOR of signs */
        uint16_t p = half_from_double(x * FSCALE, (X[n] >> 15) ^ signbit(FSCALE));
        /* addi: NaN/inf pass through F(); finite sums round once; zero is +0 */
        y_ref[n] = half_from_double(half_to_double(p) + FBIAS, 0);
    }
}

static void fp16_tl(uint16_t *y)
{
    uint32_t sbits;

    memcpy(&sbits, &FSCALE, sizeof(sbits));
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(XR, 1, XC));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, XC * 2);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, XC * 2);
    tl_load(6, 0, X);
    STEP();
    tl_muls(6, 6, sbits);
    STEP();
    tl_addi(6, 6, FBIAS);
    tl_store(6, 0, y);
}

static int compare_u8(const uint8_t *a, const uint8_t *b, int n, const char *what)
{
    int bad = 0;

    for (int i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            if (bad < 5) {
                printf("  %s[%d]: TL %u, C reference %u\n", what, i, a[i], b[i]);
            }
            bad++;
        }
    }
    return bad;
}

/* ---------------- concurrent runs ---------------- */
struct run { int iters; int bad; };

static void *run_pipelines(void *arg)
{
    struct run *r = arg;
    uint8_t *out = malloc(AR * ZC);
    uint16_t *y = malloc(sizeof(y_tl));

    for (int i = 0; i < r->iters; i++) {
        memset(out, 0, AR * ZC);
        memset(y, 0, sizeof(y_tl));
        int8_tl(out);
        fp16_tl(y);
        r->bad += memcmp(out, out_ref, AR * ZC) != 0;
        r->bad += memcmp(y, y_ref, sizeof(y_tl)) != 0;
    }
    free(out);
    free(y);
    return NULL;
}

/* P processes x T threads; the exit status of a process is its number of bad runs. */
static int run_concurrent(int procs, int threads, int iters)
{
    pid_t pid[32];
    int bad = 0;

    yield_between_steps = 1;
    printf("TL demo: both pipelines %d times in each of %d processes x %d threads, yielding the CPU "
           "between steps\n", iters, procs, threads);
    for (int p = 0; p < procs; p++) {
        pid[p] = fork();
        if (pid[p] == 0) {
            struct run r[32] = { 0 };
            pthread_t t[32];
            int n = 0;
            for (int k = 0; k < threads; k++) {
                r[k].iters = iters;
                pthread_create(&t[k], NULL, run_pipelines, &r[k]);
            }
            for (int k = 0; k < threads; k++) {
                pthread_join(t[k], NULL);
                n += r[k].bad;
            }
            _exit(n > 255 ? 255 : n);
        }
    }
    for (int p = 0; p < procs; p++) {
        int st;
        waitpid(pid[p], &st, 0);
        int b = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
        printf("  process %d: %d threads x %d runs x 2 pipelines: %s\n", p, threads, iters,
               b == 0 ? "every result equal to the C reference" : "WRONG RESULTS");
        bad += b;
    }
    printf("TL demo (concurrent): %s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    int bad8, bad16 = 0;

    quiet = argc > 1 && strcmp(argv[1], "-q") == 0;

    for (int r = 0; r < AR; r++) {
        for (int c = 0; c < AC; c++) {
            A[r * AC + c] = (uint8_t)((r * 7 + c * 3) % 101);
        }
        for (int c = 0; c < BC; c++) {
            B[r * BC + c] = (uint8_t)(100 + r + 5 * c);
        }
    }
    for (int n = 0; n < XR * XC; n++) {
        X[n] = half_from_double((n - 256) / 8.0, 0);     /* -32 ... 31.875 */
    }
    X[0] = half_from_double(60000.0, 0);                  /* x1.5 saturates */
    X[1] = half_from_double(-60000.0, 0);
    X[2] = 0x7C00;                                        /* +inf */
    X[3] = 0x7D00;                                        /* a NaN */
    X[4] = 0x0001;                                        /* smallest subnormal */

    int8_reference();
    fp16_reference();
    if (argc == 5 && strcmp(argv[1], "--concurrent") == 0) {
        int procs = atoi(argv[2]), threads = atoi(argv[3]), iters = atoi(argv[4]);
        if (procs < 1 || procs > 32 || threads < 1 || threads > 32 || iters < 1) {
            fprintf(stderr, "tl-demo: --concurrent PROCS THREADS RUNS (1..32, 1..32, >= 1)\n");
            return 2;
        }
        return run_concurrent(procs, threads, iters);
    }
    int8_tl(out_tl);
    bad8 = compare_u8(out_tl, out_ref, AR * ZC, "int8 out");

    fp16_tl(y_tl);
    for (int n = 0; n < XR * XC; n++) {
        if (y_tl[n] != y_ref[n]) {
            if (bad16 < 5) {
                printf("  fp16 out[%d]: TL 0x%04x, C reference 0x%04x\n", n, y_tl[n], y_ref[n]);
            }
            bad16++;
        }
    }

    say("TL demo: int8 A[32x64] -> tl.load x2 -> tl.xpose.01 -> tl.concat.2 with B[32x8] (width 8)\n");
    say("         -> tl.fillpad.max (valid 30x28) -> tl.muls x%d -> tl.addi %d -> tl.store [32x32]\n",
        SCALE, BIAS);
    say("  out row  0: %3u %3u %3u %3u ... %3u %3u | %3u %3u ... %3u | %3u\n",
        out_tl[0], out_tl[1], out_tl[2], out_tl[3], out_tl[22], out_tl[23],
        out_tl[24], out_tl[25], out_tl[27], out_tl[28]);
    say("  out row 31: %3u %3u %3u %3u ... (fillpad rows, 255*2-7 saturated)\n",
        out_tl[31 * ZC], out_tl[31 * ZC + 1], out_tl[31 * ZC + 2], out_tl[31 * ZC + 3]);
    say("  int8: %d/%d elements equal to the C reference\n", AR * ZC - bad8, AR * ZC);
    say("TL demo: fp16 X[16x32] -> tl.load -> tl.muls 1.5f -> tl.addi +2 -> tl.store\n");
    say("  60000 -> %g (0x%04x, saturated)  -60000 -> %g  +inf -> %g  NaN -> 0x%04x (canonical)\n",
        half_to_double(y_tl[0]), y_tl[0], half_to_double(y_tl[1]), half_to_double(y_tl[2]), y_tl[3]);
    say("  -31 -> %g  31.875 -> %g  2^-24 -> %g\n",
        half_to_double(y_tl[8]), half_to_double(y_tl[XR * XC - 1]), half_to_double(y_tl[4]));
    say("  fp16: %d/%d elements equal to the C reference\n", XR * XC - bad16, XR * XC);
    printf("TL demo: %s\n", bad8 == 0 && bad16 == 0 ? "PASS" : "FAIL");
    return bad8 == 0 && bad16 == 0 ? 0 : 1;
}
