/*
 * The timed loops of the per-instruction benchmarks, shared by the
 * linux-user program (tl_insn.c, under qemu-riscv64) and the bare-metal one
 * (baremetal.c, under qemu-system-riscv64), so that both modes run exactly
 * the same instructions.  Each loop issues 8 instructions per iteration, so
 * loop overhead is small next to one TL instruction.
 *
 * Setup functions write the CSRs the loops need; loops only issue the
 * instructions.  All buffers are 64-byte aligned and stay in the host cache.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_BENCH_TL_LOOPS_H
#define TL_BENCH_TL_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include "tl/tl_insn.h"

#define BENCH_UNROLL 8

/* int8 block [8, 1, 128]: 1024 bytes, 8 slices of 128 bytes, contiguous. */
static inline void bench_setup_mem_1k(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(8, 1, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 128);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 128);
}

/* The same 1 KiB block read from 8 rows of 128 bytes with a 256-byte pitch. */
static inline void bench_setup_mem_1k_strided(void)
{
    bench_setup_mem_1k();
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
}

static inline void bench_tl_load(const void *src, uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        tl_load(1, 0, src);
        tl_load(2, 0, src);
        tl_load(3, 0, src);
        tl_load(4, 0, src);
        tl_load(5, 0, src);
        tl_load(6, 0, src);
        tl_load(7, 0, src);
        tl_load(8, 0, src);
    }
}

static inline void bench_tl_store(void *dst, uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        tl_store(1, 0, dst);
        tl_store(2, 0, dst);
        tl_store(3, 0, dst);
        tl_store(4, 0, dst);
        tl_store(5, 0, dst);
        tl_store(6, 0, dst);
        tl_store(7, 0, dst);
        tl_store(8, 0, dst);
    }
}

/* tl.load + tl.store of the same block: a 1 KiB memory-to-memory copy. */
static inline void bench_tl_copy(void *dst, const void *src, uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        tl_load(1, 0, src);
        tl_store(1, 0, dst);
        tl_load(2, 0, src);
        tl_store(2, 0, dst);
        tl_load(3, 0, src);
        tl_store(3, 0, dst);
        tl_load(4, 0, src);
        tl_store(4, 0, dst);
    }
}

/* int8 [32, 64, 1, 1] in tl1:tl2, swapped to [64, 32, 1, 1]: a 32x64 matrix transpose. */
#define BENCH_XPOSE_DIMS TL_DIMS4(32, 64, 1, 1)
static inline void bench_tl_xpose(uint64_t iters)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    for (uint64_t i = 0; i < iters; i++) {
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
        tl_xpose(0, 1, 1, 2, BENCH_XPOSE_DIMS);
    }
}

/*
 * tl.concat of two int8 [32, 1, 32] blocks (1 KiB result): along dimension 2
 * (columns 0-15 of tl1 then columns 0-15 of tl2 in every row, 1-byte..16-byte
 * runs) or along dimension 0 (rows 0-15 of tl1 then rows 0-15 of tl2).
 */
static inline void bench_setup_concat(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(32, 1, 32));
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x0000FFFF);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x0000FFFF);
}

static inline void bench_tl_concat2(uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        tl_concat(2, 3, 1, 2);
        tl_concat(2, 4, 1, 2);
        tl_concat(2, 5, 1, 2);
        tl_concat(2, 6, 1, 2);
        tl_concat(2, 7, 1, 2);
        tl_concat(2, 8, 1, 2);
        tl_concat(2, 9, 1, 2);
        tl_concat(2, 10, 1, 2);
    }
}

static inline void bench_tl_concat0(uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        tl_concat(0, 3, 1, 2);
        tl_concat(0, 4, 1, 2);
        tl_concat(0, 5, 1, 2);
        tl_concat(0, 6, 1, 2);
        tl_concat(0, 7, 1, 2);
        tl_concat(0, 8, 1, 2);
        tl_concat(0, 9, 1, 2);
        tl_concat(0, 10, 1, 2);
    }
}

/* ---- scalar baselines (plain C, compiled for riscv64, same QEMU) ---- */

/* A byte-by-byte 1 KiB copy in 8-byte words (what a scalar loop does). */
static inline void bench_scalar_copy_1k(void *dst, const void *src, uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        const uint64_t *s = (const uint64_t *)src;
        uint64_t *d = (uint64_t *)dst;
        for (unsigned k = 0; k < 1024 / 8; k++) {
            d[k] = s[k];
        }
        __asm__ volatile("" : : "r"(d) : "memory");
    }
}

/* The scalar permute tl.xpose replaces: dst[c][r] = src[r][c] for a 32x64 int8 matrix. */
static inline void bench_scalar_xpose(uint8_t *dst, const uint8_t *src, uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        for (unsigned r = 0; r < 32; r++) {
            for (unsigned c = 0; c < 64; c++) {
                dst[c * 32 + r] = src[r * 64 + c];
            }
        }
        __asm__ volatile("" : : "r"(dst) : "memory");
    }
}

/* The scalar version of tl.concat.2 above: out row = a row[0:16] ++ b row[0:16]. */
static inline void bench_scalar_concat2(uint8_t *out, const uint8_t *a, const uint8_t *b,
                                        uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) {
        for (unsigned r = 0; r < 32; r++) {
            for (unsigned c = 0; c < 16; c++) {
                out[r * 32 + c] = a[r * 32 + c];
                out[r * 32 + 16 + c] = b[r * 32 + c];
            }
        }
        __asm__ volatile("" : : "r"(out) : "memory");
    }
}

#endif /* TL_BENCH_TL_LOOPS_H */
