/*
 * TensorLoad (xtl) semantic core: the copy kernels of the host pointer path,
 * tl_load_from_host and tl_store_to_host, which move the slices of an
 * ordered plan (tl_mem_plan.cc) between a TL register and host memory the
 * caller found accessible as a whole.  A whole register (tl_copy_whole_reg,
 * also called from QEMU's translated code) is sixteen 64-byte moves on
 * AVX-512 hosts and 32-byte ones on AVX2 hosts (tl_load_from_host_reads_first:
 * all sixteen loads first, or a staging buffer), other contiguous plans
 * one library copy; otherwise
 * slices are copied one by one, with dense rows (every slice up to D0,
 * W = S) walked by pointer increments (unrolled for widths of 16 to 512
 * bytes), inline 16-, 32-byte (AVX2) or 64-byte (AVX-512) moves as the host
 * SIMD set allows (tl_host_simd.cc), and the bytes of a load that no
 * slice covers zeroed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core_internal.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "tl_copy.h"

using namespace tl::detail;

namespace {

/*
 * The slices of an ordered plan one by one (the contiguous case is a single
 * copy).  Slices are short (a row of a tile): a library call each costs more
 * than the copy, so on hosts with AVX2 slices of 32 to 512 bytes are copied
 * inline with 32-byte moves.  COPY(dst, src, n) is the slice copy.  The
 * common strided case, slices 0 .. n-1 all selected and W = S (rows of a
 * tile read from a wider matrix), walks both sides with pointer increments.
 */
#define TL_DENSE_ROWS(p) (((p)->selected & ((p)->selected + 1u)) == 0 && (p)->width == (p)->slice_bytes)

/*
 * The rows of a TL_DENSE_ROWS plan: its selected bits are the low ones, so
 * their count is the highest bit's position (bsr), not a popcount, which
 * x86-64 hosts without POPCNT in the baseline reach through a library call.
 */
inline uint32_t DenseRows(const tl_mem_plan *p)
{
    return p->selected ? 32u - uint32_t(__builtin_clz(p->selected)) : 0u;
}

/* The bytes of a load no row covers are zeroed; usually there are none. */
inline void ZeroTail(uint8_t *dst, uint32_t covered)
{
    if (covered < TL_REG_BYTES) {
        BulkZero(dst + covered, TL_REG_BYTES - covered);
    }
}

#define TL_LOAD_SLICES(COPY)                                                            \
    do {                                                                                \
        if (TL_DENSE_ROWS(p)) {                                                         \
            const uint32_t rows = DenseRows(p);                                         \
            const uint8_t *from = host;                                                 \
            uint8_t *to = dst;                                                          \
            for (uint32_t r = 0; r < rows; r++, from += p->pitch, to += p->width) {     \
                COPY(to, from, p->width);                                               \
            }                                                                           \
            ZeroTail(dst, rows * p->width);                                             \
            break;                                                                      \
        }                                                                               \
        uint32_t zero_from = 0;                                                         \
        for (uint32_t sel = p->selected; sel != 0; sel &= sel - 1) {                    \
            const uint32_t i = uint32_t(__builtin_ctz(sel));                            \
            const uint32_t start = i * p->slice_bytes;                                  \
            ZeroBytes(dst + zero_from, start - zero_from);                              \
            COPY(dst + start, host + uint64_t(i) * uint64_t(p->pitch), p->width);       \
            zero_from = start + p->width;                                               \
        }                                                                               \
        ZeroTail(dst, zero_from);                                                       \
    } while (0)

#define TL_STORE_SLICES(COPY)                                                           \
    do {                                                                                \
        if (TL_DENSE_ROWS(p)) {                                                         \
            const uint32_t rows = DenseRows(p);                                         \
            uint8_t *to = host;                                                         \
            const uint8_t *from = src;                                                  \
            for (uint32_t r = 0; r < rows; r++, to += p->pitch, from += p->width) {     \
                COPY(to, from, p->width);                                               \
            }                                                                           \
            break;                                                                      \
        }                                                                               \
        for (uint32_t sel = p->selected; sel != 0; sel &= sel - 1) {                    \
            const uint32_t i = uint32_t(__builtin_ctz(sel));                            \
            COPY(host + uint64_t(i) * uint64_t(p->pitch), src + i * p->slice_bytes,     \
                 p->width);                                                             \
        }                                                                               \
    } while (0)

/* The slices with the library's copy, on hosts without the SIMD paths below. */
__attribute__((noinline)) void LoadSlicesPlain(uint8_t *dst, const tl_mem_plan *p, const uint8_t *host)
{
    TL_LOAD_SLICES(tl_copy_bytes);
}

__attribute__((noinline)) void StoreSlicesPlain(uint8_t *host, const tl_mem_plan *p, const uint8_t *src)
{
    TL_STORE_SLICES(tl_copy_bytes);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define TL_AVX2_SLICES 1
/*
 * The first n / 128 * 128 bytes (the count returned) in groups of 128: four
 * 32-byte loads, then their stores.  Alternating load / store pairs took
 * about 14 ns per KiB on an AVX2 host where this took 10 (and glibc's
 * memmove 11-15; docs/performance.md).
 */
__attribute__((target("avx2"), always_inline)) inline uint32_t CopyGroupsAvx2(uint8_t *dst,
                                                                            const uint8_t *src,
                                                                            uint32_t n)
{
    uint32_t o = 0;
    for (; o + 128 <= n; o += 128) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o + 32));
        const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o + 64));
        const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o + 96));
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o), a);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o + 32), b);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o + 64), c);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o + 96), e);
    }
    return o;
}

__attribute__((target("avx2"))) inline void CopySliceAvx2(uint8_t *dst, const uint8_t *src,
                                                           uint32_t n)
{
    if (n < 32 || n > 512) {
        tl_copy_bytes(dst, src, n);
        return;
    }
    uint32_t o = CopyGroupsAvx2(dst, src, n);
    for (; o + 32 <= n; o += 32) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o)));
    }
    if (o < n) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + n - 32),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + n - 32)));
    }
}

__attribute__((target("avx512f"))) inline void CopySliceAvx512(uint8_t *dst, const uint8_t *src,
                                                               uint32_t n)
{
    if (n < 64 || n > 512) {
        tl_copy_bytes(dst, src, n);
        return;
    }
    uint32_t o = 0;
    for (; o + 64 <= n; o += 64) {
        _mm512_storeu_si512(dst + o, _mm512_loadu_si512(src + o));
    }
    if (o < n) {
        _mm512_storeu_si512(dst + n - 64, _mm512_loadu_si512(src + n - 64));
    }
}

/* One register, 1 KiB, in sixteen 64-byte moves: no size dispatch as in memcpy. */
__attribute__((target("avx512f"))) void CopyWholeRegAvx512(void *dst, const void *src)
{
    static_assert(TL_REG_BYTES % 64 == 0, "whole 64-byte moves");
    uint8_t *d = static_cast<uint8_t *>(dst);
    const uint8_t *s = static_cast<const uint8_t *>(src);
    for (unsigned o = 0; o < TL_REG_BYTES; o += 64) {
        _mm512_storeu_si512(d + o, _mm512_loadu_si512(s + o));
    }
}

/*
 * One register read in full before any byte of it is written: sixteen
 * 64-byte loads into sixteen of the 32 zmm registers, then the stores.  The
 * compiler barrier keeps every load before the first store (src and dst
 * may alias as far as the compiler knows, so it does not move them anyway).
 */
__attribute__((noinline, target("avx512f"))) void CopyWholeRegReadsFirstAvx512(void *dst,
                                                                             const void *src)
{
    constexpr unsigned kVectors = TL_REG_BYTES / 64;
    uint8_t *d = static_cast<uint8_t *>(dst);
    const uint8_t *s = static_cast<const uint8_t *>(src);
    __m512i v[kVectors];
#pragma GCC unroll 16
    for (unsigned i = 0; i < kVectors; i++) {
        v[i] = _mm512_loadu_si512(s + 64 * i);
    }
    __asm__ volatile("" : : : "memory");
#pragma GCC unroll 16
    for (unsigned i = 0; i < kVectors; i++) {
        _mm512_storeu_si512(d + 64 * i, v[i]);
    }
}

/* One register in 32-byte moves (CopyGroupsAvx2). */
__attribute__((target("avx2"))) void CopyWholeRegAvx2(void *dst, const void *src)
{
    static_assert(TL_REG_BYTES % 128 == 0, "whole 128-byte groups");
    CopyGroupsAvx2(static_cast<uint8_t *>(dst), static_cast<const uint8_t *>(src), TL_REG_BYTES);
}

__attribute__((noinline, target("avx512f"))) void LoadSlicesAvx512(uint8_t *dst,
                                                                  const tl_mem_plan *p,
                                                                  const uint8_t *host)
{
    TL_LOAD_SLICES(CopySliceAvx512);
}

/*
 * Dense rows of a fixed width W (a multiple of 32, up to 256): the loop over
 * rows, each row's W / 32 loads then its stores (as CopyGroupsAvx2), no
 * per-row size tests.
 */
template <uint32_t W>
__attribute__((target("avx2"), always_inline)) inline void CopyRowsAvx2(uint8_t *to, int64_t to_step,
                                                                      const uint8_t *from,
                                                                      int64_t from_step,
                                                                      uint32_t rows)
{
    static_assert(W % 32 == 0 && W <= 256, "a row in at most eight 32-byte registers");
    for (uint32_t r = 0; r < rows; r++, to += to_step, from += from_step) {
        __m256i v[W / 32];
#pragma GCC unroll 8
        for (uint32_t i = 0; i < W / 32; i++) {
            v[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + 32 * i));
        }
#pragma GCC unroll 8
        for (uint32_t i = 0; i < W / 32; i++) {
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(to + 32 * i), v[i]);
        }
    }
}

/* Dense rows of 16 bytes (a pixel's channels of an NHWC tile): one 16-byte move each. */
inline void CopyRows16(uint8_t *to, int64_t to_step, const uint8_t *from, int64_t from_step,
                       uint32_t rows)
{
    for (uint32_t r = 0; r < rows; r++, to += to_step, from += from_step) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(to),
                         _mm_loadu_si128(reinterpret_cast<const __m128i *>(from)));
    }
}

/* Dense rows of the widths tiles use most; false for other widths. */
__attribute__((target("avx2"))) inline bool CopyDenseRowsAvx2(uint8_t *to, int64_t to_step,
                                                               const uint8_t *from,
                                                               int64_t from_step, uint32_t width,
                                                               uint32_t rows)
{
    switch (width) {
    case 16: CopyRows16(to, to_step, from, from_step, rows); return true;
    case 32: CopyRowsAvx2<32>(to, to_step, from, from_step, rows); return true;
    case 64: CopyRowsAvx2<64>(to, to_step, from, from_step, rows); return true;
    case 128: CopyRowsAvx2<128>(to, to_step, from, from_step, rows); return true;
    case 256: CopyRowsAvx2<256>(to, to_step, from, from_step, rows); return true;
    default: return false;
    }
}

__attribute__((noinline, target("avx2"))) void LoadSlicesAvx2(uint8_t *dst, const tl_mem_plan *p,
                                                             const uint8_t *host)
{
    if (TL_DENSE_ROWS(p)) {
        const uint32_t rows = DenseRows(p);
        if (CopyDenseRowsAvx2(dst, p->width, host, p->pitch, p->width, rows)) {
            ZeroTail(dst, rows * p->width);
            return;
        }
    }
    TL_LOAD_SLICES(CopySliceAvx2);
}

__attribute__((noinline, target("avx2"))) void StoreSlicesAvx2(uint8_t *host, const tl_mem_plan *p,
                                                              const uint8_t *src)
{
    if (TL_DENSE_ROWS(p) &&
        CopyDenseRowsAvx2(host, p->pitch, src, p->width, p->width,
                          DenseRows(p))) {
        return;
    }
    TL_STORE_SLICES(CopySliceAvx2);
}
#endif

/* The same with 64-byte moves, for widths of whole 64-byte vectors. */
template <uint32_t W>
__attribute__((target("avx512f"), always_inline)) inline void CopyRowsAvx512(uint8_t *to, int64_t to_step,
                                                                          const uint8_t *from,
                                                                          int64_t from_step,
                                                                          uint32_t rows)
{
    for (uint32_t r = 0; r < rows; r++, to += to_step, from += from_step) {
        for (uint32_t o = 0; o < W; o += 64) {
            _mm512_storeu_si512(to + o, _mm512_loadu_si512(from + o));
        }
    }
}

/* Dense rows of any multiple of 64 bytes; the widths tiles use most unrolled. */
__attribute__((noinline, target("avx512f"))) void CopyDenseRowsAvx512(uint8_t *to, int64_t to_step,
                                                                     const uint8_t *from,
                                                                     int64_t from_step,
                                                                     uint32_t width, uint32_t rows)
{
    switch (width) {
    case 64: CopyRowsAvx512<64>(to, to_step, from, from_step, rows); return;
    case 128: CopyRowsAvx512<128>(to, to_step, from, from_step, rows); return;
    case 256: CopyRowsAvx512<256>(to, to_step, from, from_step, rows); return;
    case 512: CopyRowsAvx512<512>(to, to_step, from, from_step, rows); return;
    default:
        for (uint32_t r = 0; r < rows; r++, to += to_step, from += from_step) {
            for (uint32_t o = 0; o < width; o += 64) {
                _mm512_storeu_si512(to + o, _mm512_loadu_si512(from + o));
            }
        }
    }
}

/* Dense rows of 64 to 512 bytes, a multiple of 64: 64-byte moves, no per-row size tests. */
inline bool IsDenseRows64(const tl_mem_plan *p)
{
    return TL_DENSE_ROWS(p) && p->width % 64 == 0 && p->width <= 512;
}

/*
 * IsDenseRows64 plans, apart from LoadSlicesAvx512's larger stack frame:
 * the rows, then the register's bytes past them zeroed.
 */
__attribute__((noinline, target("avx512f"))) void LoadDenseRowsAvx512(uint8_t *dst, const tl_mem_plan *p,
                                                                      const uint8_t *host)
{
    const uint32_t rows = DenseRows(p);
    CopyDenseRowsAvx512(dst, p->width, host, p->pitch, p->width, rows);
    ZeroTail(dst, rows * p->width);
}

inline void LoadSlicesFromHost(uint8_t *dst, const tl_mem_plan *p, const uint8_t *host)
{
#if defined(TL_AVX2_SLICES)
    if (HostUses(TL_HOST_SIMD_AVX512F) && p->width >= 64) {
        if (IsDenseRows64(p)) {
            LoadDenseRowsAvx512(dst, p, host);
            return;
        }
        if (!TL_DENSE_ROWS(p)) {
            LoadSlicesAvx512(dst, p, host);
            return;
        }
    }
    if (HostUses(TL_HOST_SIMD_AVX2)) {
        LoadSlicesAvx2(dst, p, host);
        return;
    }
#endif
    LoadSlicesPlain(dst, p, host);
}

inline void StoreSlicesToHost(uint8_t *host, const tl_mem_plan *p, const uint8_t *src)
{
#if defined(TL_AVX2_SLICES)
    if (HostUses(TL_HOST_SIMD_AVX512F) && IsDenseRows64(p)) {
        CopyDenseRowsAvx512(host, p->pitch, src, p->width, p->width, DenseRows(p));
        return;
    }
    if (HostUses(TL_HOST_SIMD_AVX2)) {
        StoreSlicesAvx2(host, p, src);
        return;
    }
#endif
    StoreSlicesPlain(host, p, src);
}

} // namespace

extern "C" {

void tl_copy_whole_reg(void *dst, const void *src)
{
#if defined(TL_AVX2_SLICES)
    if (HostUses(TL_HOST_SIMD_AVX512F)) {
        CopyWholeRegAvx512(dst, src);
        return;
    }
    if (HostUses(TL_HOST_SIMD_AVX2)) {
        CopyWholeRegAvx2(dst, src);
        return;
    }
#endif
    tl_bulk_copy(dst, src, TL_REG_BYTES);
}

void tl_load_from_host(tl_state *s, unsigned rd, const tl_mem_plan *p, const uint8_t *host)
{
    if (rd == 0) {
        return; /* plain RAM: reading it has no effect to keep */
    }
    tl_load_to_buffer(s->reg[rd], p, host);
}

void tl_load_to_buffer(uint8_t *dst, const tl_mem_plan *p, const uint8_t *host)
{
    if (p->whole_reg) {
        tl_copy_whole_reg(dst, host);
        return;
    }
    if (!p->contiguous) {
        LoadSlicesFromHost(dst, p, host);
        return;
    }
    tl_bulk_copy(dst, host, p->block_bytes);
    if (p->block_bytes != TL_REG_BYTES) {
        BulkZero(dst + p->block_bytes, TL_REG_BYTES - p->block_bytes);
    }
}

void tl_load_from_host_reads_first(tl_state *s, unsigned rd, const tl_mem_plan *p,
                                   const uint8_t *host)
{
    if (rd == 0) {
        return;
    }
#if defined(TL_AVX2_SLICES)
    if (p->whole_reg && HostUses(TL_HOST_SIMD_AVX512F)) {
        CopyWholeRegReadsFirstAvx512(s->reg[rd], host);
        return;
    }
#endif
    alignas(64) uint8_t stage[TL_REG_BYTES];
    tl_load_to_buffer(stage, p, host);
    tl_copy_whole_reg(s->reg[rd], stage);
}

void tl_store_to_host(const tl_state *s, unsigned rs, const tl_mem_plan *p, uint8_t *host)
{
    const uint8_t *src = SourceReg(s, rs);
    if (p->whole_reg) {
        tl_copy_whole_reg(host, src);
        return;
    }
    if (!p->contiguous) {
        StoreSlicesToHost(host, p, src);
        return;
    }
    tl_bulk_copy(host, src, p->block_bytes);
}

} // extern "C"
