/*
 * TensorLoad (xtl) semantic core: the register-to-register reshapes
 * tl.concat, tl.merge, tl.xpose and tl.fillpad.  concat and merge gather
 * runs of indices along one dimension from two registers; xpose swaps two
 * dimensions of a 2048-byte tensor held in two registers, through 2-D
 * transposes (SSE2 16 x 16 byte blocks, SWAR 64-bit blocks, or a plain
 * loop; the interleave of [2, N, ...] in AVX-512 registers, or in place
 * with 256-bit or run-sized moves); fillpad
 * keeps the valid region and fills the rest with the pad value of the
 * element type.  4-bit elements are nibbles, element 2n low.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core_internal.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "tl_copy.h"
#include "tl_float.h"

using namespace tl::detail;

namespace {

/* Not __builtin_popcount: without a popcnt instruction it calls libgcc. */
constexpr unsigned CountOnes(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    return (v * 0x01010101u) >> 24;
}

/* ---- element copies (4-bit elements are nibbles, element 2n low) ---- */

inline unsigned GetNibble(const uint8_t *p, size_t n)
{
    return (p[n >> 1] >> ((n & 1) * 4)) & 0xF;
}

inline void SetNibble(uint8_t *p, size_t n, unsigned v)
{
    const unsigned shift = (n & 1) * 4;
    p[n >> 1] = uint8_t((p[n >> 1] & ~(0xFu << shift)) | (v << shift));
}

void CopyNibbles(uint8_t *dst, size_t dst_nibble, const uint8_t *src, size_t src_nibble,
                 size_t count)
{
    if (((dst_nibble ^ src_nibble) & 1) == 0) {
        if ((dst_nibble & 1) && count != 0) {
            SetNibble(dst, dst_nibble++, GetNibble(src, src_nibble++));
            --count;
        }
        memcpy(dst + dst_nibble / 2, src + src_nibble / 2, count / 2);
        if (count & 1) {
            SetNibble(dst, dst_nibble + count - 1, GetNibble(src, src_nibble + count - 1));
        }
        return;
    }
    for (size_t k = 0; k < count; ++k) {
        SetNibble(dst, dst_nibble + k, GetNibble(src, src_nibble + k));
    }
}

inline void CopyElements(uint8_t *dst, size_t dst_index, const uint8_t *src, size_t src_index,
                         size_t count, unsigned esz)
{
    if (esz == 4) {
        CopyNibbles(dst, dst_index, src, src_index, count);
        return;
    }
    const size_t elem_bytes = esz / 8;
    memcpy(dst + dst_index * elem_bytes, src + src_index * elem_bytes, count * elem_bytes);
}

/* A fixed-size memcpy compiles to plain moves; kRunBytes == 0 means "run bytes". */
template <size_t kRunBytes>
inline void CopyRun(uint8_t *dst, const uint8_t *src, size_t run_bytes)
{
    if constexpr (kRunBytes != 0) {
        (void)run_bytes;
        memcpy(dst, src, kRunBytes);
    } else {
        memcpy(dst, src, run_bytes);
    }
}

/* Calls body(std::integral_constant<size_t, N>) with N = run_bytes when it is a common small size. */
template <class Body>
inline void DispatchRunBytes(size_t run_bytes, Body body)
{
    switch (run_bytes) {
    case 1: body(std::integral_constant<size_t, 1>{}); break;
    case 2: body(std::integral_constant<size_t, 2>{}); break;
    case 4: body(std::integral_constant<size_t, 4>{}); break;
    case 8: body(std::integral_constant<size_t, 8>{}); break;
    case 16: body(std::integral_constant<size_t, 16>{}); break;
    case 32: body(std::integral_constant<size_t, 32>{}); break;
    case 64: body(std::integral_constant<size_t, 64>{}); break;
    default: body(std::integral_constant<size_t, 0>{}); break;
    }
}

/*
 * Calls body(std::integral_constant<size_t, N>) with N = run for the runs of
 * an interleave, 8 .. max bytes (powers of two); false for other runs.
 */
template <size_t kMax, class Body>
inline bool DispatchInterleaveRun(size_t run, Body body)
{
    switch (run) {
    case 8: body(std::integral_constant<size_t, 8>{}); return true;
    case 16: body(std::integral_constant<size_t, 16>{}); return true;
    case 32: body(std::integral_constant<size_t, 32>{}); return true;
    case 64: body(std::integral_constant<size_t, 64>{}); return true;
    case 128: body(std::integral_constant<size_t, 128>{}); return true;
    case 256: body(std::integral_constant<size_t, 256>{}); return true;
    case 512: body(std::integral_constant<size_t, 512>{}); return true;
    case 1024:
        if constexpr (kMax >= 1024) {
            body(std::integral_constant<size_t, 1024>{});
            return true;
        }
        return false;
    default: return false;
    }
}

/* 64-bit little-endian words, whatever the host's byte order. */
inline uint64_t Load64Le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}
inline void Store64Le(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

/*
 * One step of a SWAR block transpose: in the pair of words (a, b), the
 * elements of `bits` bits at the odd positions of a swap with those at the
 * even positions of b.  `mask` selects the even positions.
 */
inline void SwapHalves(uint64_t &a, uint64_t &b, unsigned bits, uint64_t mask)
{
    const uint64_t t = ((a >> bits) ^ b) & mask;
    b ^= t;
    a ^= t << bits;
}

/*
 * dst[q][p] = src[p][q] for p < rows, q < cols, elements of kRun bytes
 * (1, 2 or 4), rows and cols multiples of K = 8 / kRun.  src_pitch /
 * dst_pitch are the byte distances between consecutive p of src and
 * consecutive q of dst; elements within a row are contiguous.  Works on
 * K x K blocks, each row of a block one 64-bit little-endian word kept in a
 * register, transposed by log2(K) rounds of SwapHalves.
 */
template <size_t kRun>
void TransposeBlocked(uint8_t *dst, size_t dst_pitch, const uint8_t *src, size_t src_pitch,
                      size_t rows, size_t cols)
{
    constexpr uint64_t kM8 = 0x00FF00FF00FF00FFull, kM16 = 0x0000FFFF0000FFFFull,
                       kM32 = 0x00000000FFFFFFFFull;
    constexpr size_t K = 8 / kRun;
    for (size_t p = 0; p < rows; p += K) {
        for (size_t q = 0; q < cols; q += K) {
            const uint8_t *s = src + p * src_pitch + q * kRun;
            uint8_t *d = dst + q * dst_pitch + p * kRun;
            if constexpr (kRun == 1) {
                uint64_t w0 = Load64Le(s), w1 = Load64Le(s + src_pitch);
                uint64_t w2 = Load64Le(s + 2 * src_pitch), w3 = Load64Le(s + 3 * src_pitch);
                uint64_t w4 = Load64Le(s + 4 * src_pitch), w5 = Load64Le(s + 5 * src_pitch);
                uint64_t w6 = Load64Le(s + 6 * src_pitch), w7 = Load64Le(s + 7 * src_pitch);
                SwapHalves(w0, w1, 8, kM8);
                SwapHalves(w2, w3, 8, kM8);
                SwapHalves(w4, w5, 8, kM8);
                SwapHalves(w6, w7, 8, kM8);
                SwapHalves(w0, w2, 16, kM16);
                SwapHalves(w1, w3, 16, kM16);
                SwapHalves(w4, w6, 16, kM16);
                SwapHalves(w5, w7, 16, kM16);
                SwapHalves(w0, w4, 32, kM32);
                SwapHalves(w1, w5, 32, kM32);
                SwapHalves(w2, w6, 32, kM32);
                SwapHalves(w3, w7, 32, kM32);
                Store64Le(d, w0);
                Store64Le(d + dst_pitch, w1);
                Store64Le(d + 2 * dst_pitch, w2);
                Store64Le(d + 3 * dst_pitch, w3);
                Store64Le(d + 4 * dst_pitch, w4);
                Store64Le(d + 5 * dst_pitch, w5);
                Store64Le(d + 6 * dst_pitch, w6);
                Store64Le(d + 7 * dst_pitch, w7);
            } else if constexpr (kRun == 2) {
                uint64_t w0 = Load64Le(s), w1 = Load64Le(s + src_pitch);
                uint64_t w2 = Load64Le(s + 2 * src_pitch), w3 = Load64Le(s + 3 * src_pitch);
                SwapHalves(w0, w1, 16, kM16);
                SwapHalves(w2, w3, 16, kM16);
                SwapHalves(w0, w2, 32, kM32);
                SwapHalves(w1, w3, 32, kM32);
                Store64Le(d, w0);
                Store64Le(d + dst_pitch, w1);
                Store64Le(d + 2 * dst_pitch, w2);
                Store64Le(d + 3 * dst_pitch, w3);
            } else {
                static_assert(kRun == 4, "element bytes");
                uint64_t w0 = Load64Le(s), w1 = Load64Le(s + src_pitch);
                SwapHalves(w0, w1, 32, kM32);
                Store64Le(d, w0);
                Store64Le(d + dst_pitch, w1);
            }
        }
    }
}

template <size_t kRun>
void TransposeSimple(uint8_t *dst, size_t dst_pitch, const uint8_t *src, size_t src_pitch,
                     size_t rows, size_t cols, size_t run)
{
    for (size_t q = 0; q < cols; ++q) {
        uint8_t *d = dst + q * dst_pitch;
        const uint8_t *s = src + q * run;
        for (size_t p = 0; p < rows; ++p) {
            CopyRun<kRun>(d, s, run);
            d += run;
            s += src_pitch;
        }
    }
}

/*
 * Two rows of runs: out row q = (run q of row 0, run q of row 1), the
 * interleaving of two halves (a channel concatenation as one tl.xpose).
 * The general loop spends more on its two-iteration inner loop than on
 * the copies.
 */
template <size_t kRun>
void TransposeTwoRows(uint8_t *dst, size_t dst_pitch, const uint8_t *src, size_t src_pitch,
                      size_t cols, size_t run)
{
    const uint8_t *s0 = src, *s1 = src + src_pitch;
    for (size_t q = 0; q < cols; ++q, dst += dst_pitch, s0 += run, s1 += run) {
        CopyRun<kRun>(dst, s0, run);
        CopyRun<kRun>(dst + run, s1, run);
    }
}

#if defined(__SSE2__)
/*
 * Byte matrices in 16 x 16 blocks held in SSE registers.  One round
 * interleaves rows i and i + 8 into rows 2i and 2i + 1; it rotates the
 * 8-bit (row, column) index of every byte left by one, so four rounds swap
 * row and column: a transpose in 64 unpacks per 256 bytes.
 */
void TransposeBytes16(uint8_t *dst, size_t dst_pitch, const uint8_t *src, size_t src_pitch,
                      size_t rows, size_t cols)
{
    for (size_t p = 0; p < rows; p += 16) {
        for (size_t q = 0; q < cols; q += 16) {
            TL_UNINIT __m128i a[16];
            TL_UNINIT __m128i b[16];
            const uint8_t *s = src + p * src_pitch + q;
#pragma GCC unroll 16
            for (size_t i = 0; i < 16; ++i) {
                a[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i * src_pitch));
            }
#pragma GCC unroll 2
            for (int round = 0; round < 2; ++round) {
#pragma GCC unroll 8
                for (size_t i = 0; i < 8; ++i) {
                    b[2 * i] = _mm_unpacklo_epi8(a[i], a[i + 8]);
                    b[2 * i + 1] = _mm_unpackhi_epi8(a[i], a[i + 8]);
                }
#pragma GCC unroll 8
                for (size_t i = 0; i < 8; ++i) {
                    a[2 * i] = _mm_unpacklo_epi8(b[i], b[i + 8]);
                    a[2 * i + 1] = _mm_unpackhi_epi8(b[i], b[i + 8]);
                }
            }
            uint8_t *d = dst + q * dst_pitch + p;
#pragma GCC unroll 16
            for (size_t i = 0; i < 16; ++i) {
                _mm_storeu_si128(reinterpret_cast<__m128i *>(d + i * dst_pitch), a[i]);
            }
        }
    }
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * tl.xpose.01 of [2, 1024/kRun, ...]: the two registers' runs interleaved,
 * lo_out = (a run 0, b run 0, a run 1, b run 1, ...) for the first 1 KiB,
 * hi_out the second (a channel concatenation).  Both sources are read into
 * the 32 vector registers before anything is written, so the outputs may be
 * the sources themselves and no 2 KiB snapshot is taken.
 */
constexpr long long InterleaveLane(size_t run, unsigned half, unsigned lane)
{
    /* 64-bit lane `lane` of output vector 2i + half, from a[i] (0-7) or b[i] (8-15) */
    const size_t n = run / 8, g = 8 * half + lane, r = g / n;
    return (r % 2 ? 8 : 0) + static_cast<long long>(r / 2 * n + g % n);
}

template <size_t kRun, unsigned kHalf>
__attribute__((target("avx512f"), always_inline)) inline __m512i InterleaveIndex()
{
    return _mm512_set_epi64(InterleaveLane(kRun, kHalf, 7), InterleaveLane(kRun, kHalf, 6),
                            InterleaveLane(kRun, kHalf, 5), InterleaveLane(kRun, kHalf, 4),
                            InterleaveLane(kRun, kHalf, 3), InterleaveLane(kRun, kHalf, 2),
                            InterleaveLane(kRun, kHalf, 1), InterleaveLane(kRun, kHalf, 0));
}

/*
 * The TL_REG_BYTES at p in 16 vectors.  Where p is 4-byte but not 64-byte
 * aligned (a buffer malloc placed 16 bytes into a cache line), each
 * unaligned load would span two cache lines; instead the 17 cache lines
 * that hold the bytes are loaded aligned and each vector is joined from
 * two of them (vpermt2d), which costs less.  Those loads also read up to
 * 60 bytes before p and after p + TL_REG_BYTES - 1, within the cache
 * lines of the first and last byte: in the same pages, so they fault only
 * where the register's own bytes would, but outside the buffer as far as
 * AddressSanitizer knows, hence no_sanitize_address here and in the
 * callers it is inlined into.
 */
__attribute__((target("avx512f"), no_sanitize_address, always_inline)) inline void
LoadRegAvx512(__m512i *v, const uint8_t *p)
{
    constexpr unsigned kVecs = TL_REG_BYTES / 64;
    const unsigned off = unsigned(reinterpret_cast<uintptr_t>(p) & 63);

    if (off == 0 || off % 4 != 0) {
#pragma GCC unroll 16
        for (unsigned i = 0; i < kVecs; ++i) {
            v[i] = _mm512_loadu_si512(p + 64 * i);
        }
        return;
    }
    const uint8_t *line = p - off;
    /* 32-bit lane j of vector i: lane off / 4 + j of lines i and i + 1 (16-31: the second). */
    const __m512i index = _mm512_add_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                           _mm512_set1_epi32(int(off / 4)));
    __m512i lo = _mm512_load_si512(line);
#pragma GCC unroll 16
    for (unsigned i = 0; i < kVecs; ++i) {
        const __m512i hi = _mm512_load_si512(line + 64 * (i + 1));
        v[i] = _mm512_permutex2var_epi32(lo, index, hi);
        lo = hi;
    }
}

template <size_t kRun>
__attribute__((target("avx512f"), no_sanitize_address)) void
InterleaveRegsAvx512(uint8_t *lo_out, uint8_t *hi_out, const uint8_t *a, const uint8_t *b)
{
    static_assert(kRun >= 8 && kRun <= TL_REG_BYTES && (kRun & (kRun - 1)) == 0, "run");
    constexpr unsigned kVecs = TL_REG_BYTES / 64;
    TL_UNINIT __m512i va[kVecs];
    TL_UNINIT __m512i vb[kVecs];
    TL_UNINIT __m512i out[2 * kVecs];
    LoadRegAvx512(va, a);
    LoadRegAvx512(vb, b);
    if constexpr (kRun < 64) {
        const __m512i lo = InterleaveIndex<kRun, 0>(), hi = InterleaveIndex<kRun, 1>();
#pragma GCC unroll 16
        for (unsigned i = 0; i < kVecs; ++i) {
            out[2 * i] = _mm512_permutex2var_epi64(va[i], lo, vb[i]);
            out[2 * i + 1] = _mm512_permutex2var_epi64(va[i], hi, vb[i]);
        }
    } else {
        /* Output vector k: part j of run q of a, or of b. */
        constexpr unsigned per = unsigned(kRun / 64);
#pragma GCC unroll 32
        for (unsigned k = 0; k < 2 * kVecs; ++k) {
            const unsigned q = k / (2 * per), j = k % per;
            out[k] = (k / per) % 2 == 0 ? va[q * per + j] : vb[q * per + j];
        }
    }
#pragma GCC unroll 16
    for (unsigned i = 0; i < kVecs; ++i) {
        _mm512_storeu_si512(lo_out + 64 * i, out[i]);
        _mm512_storeu_si512(hi_out + 64 * i, out[kVecs + i]);
    }
}

/*
 * InterleaveRegsAvx512 that also stores lo_out's bytes at mem_lo, then
 * hi_out's at mem_hi (two tl.store of the registers): all of a and b are
 * read before any byte is written, and mem_lo is written before mem_hi, so
 * the memory may overlap the sources and each other as the instructions
 * one by one allow.
 */
/* Output vector k of the interleave of va and vb: of lo_out for k < 16, else of hi_out. */
template <size_t kRun>
__attribute__((target("avx512f"), always_inline)) inline __m512i InterleaveOut(const __m512i *va,
                                                                             const __m512i *vb,
                                                                             unsigned k)
{
    if constexpr (kRun < 64) {
        return _mm512_permutex2var_epi64(va[k / 2], k % 2 ? InterleaveIndex<kRun, 1>()
                                                         : InterleaveIndex<kRun, 0>(), vb[k / 2]);
    } else {
        constexpr unsigned per = unsigned(kRun / 64);
        const unsigned q = k / (2 * per), j = k % per;
        return (k / per) % 2 == 0 ? va[q * per + j] : vb[q * per + j];
    }
}

template <size_t kRun>
__attribute__((target("avx512f"), no_sanitize_address)) void
InterleaveStoreAvx512(uint8_t *lo_out, uint8_t *hi_out, const uint8_t *a, const uint8_t *b,
                      uint8_t *mem_lo, uint8_t *mem_hi)
{
    static_assert(kRun >= 8 && kRun <= TL_REG_BYTES && (kRun & (kRun - 1)) == 0, "run");
    constexpr unsigned kVecs = TL_REG_BYTES / 64;
    TL_UNINIT __m512i va[kVecs];
    TL_UNINIT __m512i vb[kVecs];
    LoadRegAvx512(va, a);
    LoadRegAvx512(vb, b);
    __asm__ volatile("" : : : "memory");
#pragma GCC unroll 16
    for (unsigned k = 0; k < kVecs; ++k) {
        const __m512i v = InterleaveOut<kRun>(va, vb, k);
        _mm512_storeu_si512(lo_out + 64 * k, v);
        _mm512_storeu_si512(mem_lo + 64 * k, v);
    }
#pragma GCC unroll 16
    for (unsigned k = 0; k < kVecs; ++k) {
        const __m512i v = InterleaveOut<kRun>(va, vb, kVecs + k);
        _mm512_storeu_si512(hi_out + 64 * k, v);
        _mm512_storeu_si512(mem_hi + 64 * k, v);
    }
}

/* InterleaveRegsAvx512 for a run of 8 .. 1024 bytes; false for other runs. */
bool InterleaveRegs(uint8_t *lo_out, uint8_t *hi_out, const uint8_t *a, const uint8_t *b, size_t run)
{
    return DispatchInterleaveRun<1024>(run, [&](auto k) {
        InterleaveRegsAvx512<decltype(k)::value>(lo_out, hi_out, a, b);
    });
}
#endif

/*
 * The same interleave without AVX-512, in place in two distinct registers
 * a (becoming lo_out) and b (hi_out), with one fixed-size copy per run,
 * which the compiler turns into vector moves.  In runs
 * of a register, H = kHalf = TL_REG_BYTES / kRun / 2:
 *   lo[2i] = a[i], lo[2i + 1] = b[i]          (i < H)
 *   hi[2i] = a[H + i], hi[2i + 1] = b[H + i]
 * Only a's upper half is saved first (512 bytes, through the library's
 * copy, not an inline `rep movs`): lo is written from its last run down,
 * so a run of a is read before it is overwritten and b is not touched
 * yet; hi is written from its first run up, so a run of b's upper half is
 * read before it is overwritten, its lower half having been read by lo.
 */
template <size_t kRun, class CopyRunFn>
__attribute__((always_inline)) inline void InterleaveRegsInPlaceWith(uint8_t *a, uint8_t *b,
                                                                     CopyRunFn copy_run)
{
    static_assert(kRun >= 8 && kRun <= TL_REG_BYTES / 2 && (kRun & (kRun - 1)) == 0, "run");
    constexpr size_t kHalf = TL_REG_BYTES / kRun / 2;
    TL_UNINIT uint8_t a_upper[TL_REG_BYTES / 2];
    tl_bulk_copy(a_upper, a + TL_REG_BYTES / 2, TL_REG_BYTES / 2);
    for (size_t i = kHalf; i-- > 0;) {
        copy_run(a + (2 * i + 1) * kRun, b + i * kRun);
        if (i != 0) {
            copy_run(a + 2 * i * kRun, a + i * kRun);
        }
    }
    for (size_t i = 0; i < kHalf; ++i) {
        copy_run(b + 2 * i * kRun, a_upper + i * kRun);
        if (i != kHalf - 1) {
            copy_run(b + (2 * i + 1) * kRun, b + (kHalf + i) * kRun);
        }
    }
}

/* Source and destination of a run never overlap (i >= 1 above). */
template <size_t kRun>
void InterleaveRegsInPlace(uint8_t *a, uint8_t *b)
{
    InterleaveRegsInPlaceWith<kRun>(a, b, [](uint8_t *dst, const uint8_t *src) {
        std::memcpy(dst, src, kRun);
    });
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * With AVX2: runs of 32 bytes and more are copied as above in 256-bit
 * moves.  Runs of 8 or 16 bytes go in the same order in 32-byte units:
 * each step reads 32 bytes of a and of b (four or two runs each) and
 * writes 64 bytes of output.  A unit is read before any write reaches it
 * for the same reason as there (a unit is half the output it makes).  The
 * 16-byte halves are put together with vinserti128, not a lane-crossing
 * permute, which hosts that split 256-bit operations in two run as
 * several micro-ops.
 */
template <size_t kRun>
__attribute__((target("avx2"), always_inline)) inline void InterleaveUnitAvx2(uint8_t *out,
                                                                            const uint8_t *a,
                                                                            const uint8_t *b)
{
    static_assert(kRun == 8 || kRun == 16, "runs of 8 or 16 bytes");
    __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(a));
    __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(a + 16));
    __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(b));
    __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(b + 16));
    if constexpr (kRun == 8) {
        /* (a0 b0) (a1 b1) in 8-byte runs: each 16-byte half of the output */
        const __m128i a0_lo = _mm_unpacklo_epi64(a0, b0), a1_lo = _mm_unpacklo_epi64(a1, b1);
        b0 = _mm_unpackhi_epi64(a0, b0);
        b1 = _mm_unpackhi_epi64(a1, b1);
        a0 = a0_lo;
        a1 = a1_lo;
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out),
                        _mm256_inserti128_si256(_mm256_castsi128_si256(a0), b0, 1));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + 32),
                        _mm256_inserti128_si256(_mm256_castsi128_si256(a1), b1, 1));
}

/* A run of 32 bytes or more (a fixed-size memcpy, tuned for any x86-64, makes 128-bit moves). */
template <size_t kRun>
struct CopyRunAvx2 {
    __attribute__((target("avx2"))) void operator()(uint8_t *dst, const uint8_t *src) const
    {
        for (size_t o = 0; o < kRun; o += 32) {
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o)));
        }
    }
};

template <size_t kRun>
__attribute__((target("avx2"))) void InterleaveRegsInPlaceAvx2(uint8_t *a, uint8_t *b)
{
    if constexpr (kRun >= 32) {
        InterleaveRegsInPlaceWith<kRun>(a, b, CopyRunAvx2<kRun>{});
    } else {
        constexpr size_t kUnits = TL_REG_BYTES / 2 / 32;
        TL_UNINIT uint8_t a_upper[TL_REG_BYTES / 2];
        CopyRunAvx2<TL_REG_BYTES / 2>{}(a_upper, a + TL_REG_BYTES / 2);   /* inline, not a library call */
        for (size_t j = kUnits; j-- > 0;) {
            InterleaveUnitAvx2<kRun>(a + 64 * j, a + 32 * j, b + 32 * j);
        }
        for (size_t j = 0; j < kUnits; ++j) {
            InterleaveUnitAvx2<kRun>(b + 64 * j, a_upper + 32 * j, b + TL_REG_BYTES / 2 + 32 * j);
        }
    }
}
#endif

/* The in-place interleave of runs of kRun bytes with the moves the host allows. */
template <size_t kRun>
void InterleaveRegsInPlaceOnHost(uint8_t *a, uint8_t *b)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (HostUses(TL_HOST_SIMD_AVX2)) {
        InterleaveRegsInPlaceAvx2<kRun>(a, b);
        return;
    }
#endif
    InterleaveRegsInPlace<kRun>(a, b);
}

/* InterleaveRegsInPlaceOnHost for a run of 8 .. 512 bytes; false for other runs. */
bool InterleaveRegsInPlaceRun(uint8_t *a, uint8_t *b, size_t run)
{
    return DispatchInterleaveRun<512>(run, [&](auto k) {
        InterleaveRegsInPlaceOnHost<decltype(k)::value>(a, b);
    });
}

/*
 * The same interleave from sources a and b that are not the outputs (a
 * load's memory): each run is copied once, straight to its place.
 */
template <size_t kRun, class CopyRunFn>
__attribute__((always_inline)) inline void InterleaveRegsWith(uint8_t *lo_out, uint8_t *hi_out,
                                                              const uint8_t *a, const uint8_t *b,
                                                              CopyRunFn copy_run)
{
    static_assert(kRun >= 8 && kRun <= TL_REG_BYTES && (kRun & (kRun - 1)) == 0, "run");
    constexpr size_t kHalf = TL_REG_BYTES / kRun / 2;
    if constexpr (kHalf == 0) {
        copy_run(lo_out, a);
        copy_run(hi_out, b);
    } else {
        for (size_t i = 0; i < kHalf; ++i) {
            copy_run(lo_out + 2 * i * kRun, a + i * kRun);
            copy_run(lo_out + (2 * i + 1) * kRun, b + i * kRun);
        }
        for (size_t i = 0; i < kHalf; ++i) {
            copy_run(hi_out + 2 * i * kRun, a + (kHalf + i) * kRun);
            copy_run(hi_out + (2 * i + 1) * kRun, b + (kHalf + i) * kRun);
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
template <size_t kRun>
__attribute__((target("avx2"))) void InterleaveRegsAvx2(uint8_t *lo_out, uint8_t *hi_out,
                                                         const uint8_t *a, const uint8_t *b)
{
    if constexpr (kRun >= 32) {
        InterleaveRegsWith<kRun>(lo_out, hi_out, a, b, CopyRunAvx2<kRun>{});
    } else {
        constexpr size_t kUnits = TL_REG_BYTES / 2 / 32;
        for (size_t j = 0; j < kUnits; ++j) {
            InterleaveUnitAvx2<kRun>(lo_out + 64 * j, a + 32 * j, b + 32 * j);
        }
        for (size_t j = 0; j < kUnits; ++j) {
            InterleaveUnitAvx2<kRun>(hi_out + 64 * j, a + TL_REG_BYTES / 2 + 32 * j,
                                     b + TL_REG_BYTES / 2 + 32 * j);
        }
    }
}
#endif

template <size_t kRun>
void InterleaveRegsFromOnHost(uint8_t *lo_out, uint8_t *hi_out, const uint8_t *a, const uint8_t *b)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (HostUses(TL_HOST_SIMD_AVX512F)) {
        InterleaveRegsAvx512<kRun>(lo_out, hi_out, a, b);
        return;
    }
    if (HostUses(TL_HOST_SIMD_AVX2)) {
        InterleaveRegsAvx2<kRun>(lo_out, hi_out, a, b);
        return;
    }
#endif
    InterleaveRegsWith<kRun>(lo_out, hi_out, a, b, [](uint8_t *dst, const uint8_t *src) {
        std::memcpy(dst, src, kRun);
    });
}

/*
 * The interleave of runs of `run` bytes (8 .. 1024) from a and b, which
 * do not overlap lo_out or hi_out; false for other runs.
 */
bool InterleaveRegsFrom(uint8_t *lo_out, uint8_t *hi_out, const uint8_t *a, const uint8_t *b,
                        size_t run)
{
    return DispatchInterleaveRun<1024>(run, [&](auto k) {
        InterleaveRegsFromOnHost<decltype(k)::value>(lo_out, hi_out, a, b);
    });
}

/* dst[q][p] = src[p][q] as above, for any element size `run` (bytes). */
void Transpose2D(uint8_t *dst, size_t dst_pitch, const uint8_t *src, size_t src_pitch, size_t rows,
                 size_t cols, size_t run)
{
#if defined(__SSE2__)
    if (run == 1 && rows % 16 == 0 && cols % 16 == 0) {
        TransposeBytes16(dst, dst_pitch, src, src_pitch, rows, cols);
        return;
    }
#endif
    if (run == 1 && rows % 8 == 0 && cols % 8 == 0) {
        TransposeBlocked<1>(dst, dst_pitch, src, src_pitch, rows, cols);
    } else if (run == 2 && rows % 4 == 0 && cols % 4 == 0) {
        TransposeBlocked<2>(dst, dst_pitch, src, src_pitch, rows, cols);
    } else if (run == 4 && rows % 2 == 0 && cols % 2 == 0) {
        TransposeBlocked<4>(dst, dst_pitch, src, src_pitch, rows, cols);
    } else if (rows == 2) {
        DispatchRunBytes(run, [&](auto fixed) {
            TransposeTwoRows<decltype(fixed)::value>(dst, dst_pitch, src, src_pitch, cols, run);
        });
    } else {
        DispatchRunBytes(run, [&](auto fixed) {
            TransposeSimple<decltype(fixed)::value>(dst, dst_pitch, src, src_pitch, rows, cols, run);
        });
    }
}

/*
 * A block seen along dimension d as [outer][Dd][inner]: the index along d
 * moves runs of `inner` contiguous elements.
 */
struct DimView {
    size_t outer;
    uint32_t size; /* Dd */
    size_t inner;
};

inline DimView ViewAlong(const Block &b, unsigned d)
{
    DimView v{1, b.dim[d], 1};
    for (unsigned k = 0; k < d; ++k) {
        v.outer *= b.dim[k];
    }
    for (unsigned k = d + 1; k < 3; ++k) {
        v.inner *= b.dim[k];
    }
    return v;
}

/*
 * Result indices t .. t+count-1 along d come from indices index ..
 * index+count-1 of reg: in every row this is one contiguous run of bytes
 * (or nibbles).
 */
struct IndexRun {
    const uint8_t *reg;
    uint32_t index;
    uint32_t count;
    uint32_t t;
};

/* Appends a run, extending the previous one when it continues it. */
inline unsigned AddRun(IndexRun *runs, unsigned n, const uint8_t *reg, uint32_t index,
                       uint32_t count, uint32_t t)
{
    if (n != 0 && runs[n - 1].reg == reg && runs[n - 1].index + runs[n - 1].count == index &&
        runs[n - 1].t + runs[n - 1].count == t) {
        runs[n - 1].count += count;
        return n;
    }
    runs[n] = {reg, index, count, t};
    return n + 1;
}

/* Number of consecutive one bits of v from bit 0 (v != 0 or not). */
inline unsigned LowOnes(uint32_t v)
{
    return v == 0xFFFFFFFFu ? 32 : unsigned(__builtin_ctz(~v));
}

/*
 * concat: the indices selected by mask (ascending), from reg, become the
 * result indices *t, *t + 1, ...
 */
inline unsigned AddMaskRuns(IndexRun *runs, unsigned n, const uint8_t *reg, uint32_t mask,
                            uint32_t *t)
{
    while (mask != 0) {
        const unsigned start = unsigned(__builtin_ctz(mask));
        const unsigned len = LowOnes(mask >> start);
        n = AddRun(runs, n, reg, start, len, *t);
        *t += len;
        mask = start + len >= 32 ? 0 : mask & ~((uint32_t{1} << (start + len)) - 1);
    }
    return n;
}

/* merge: index t < size comes from reg1 if bit t of mask is set, else from reg2. */
inline unsigned MergeRuns(IndexRun *runs, const uint8_t *reg1, const uint8_t *reg2, uint32_t mask,
                          uint32_t size)
{
    unsigned n = 0;
    for (uint32_t t = 0; t < size;) {
        const uint32_t bits = mask >> t;
        const bool one = bits & 1u;
        unsigned len = LowOnes(one ? bits : ~bits);
        if (len > size - t) {
            len = size - t;
        }
        n = AddRun(runs, n, one ? reg1 : reg2, t, len, t);
        t += len;
    }
    return n;
}

/*
 * dst[o][r.t + c][*] = r.reg[o][r.index + c][*] for every run r and c <
 * r.count; other result positions are left as they are.  dst is distinct
 * from every source register.
 */
void GatherAlongDim(uint8_t *dst, const DimView &v, unsigned esz, const IndexRun *runs,
                    unsigned nruns)
{
    const size_t inner_bits = v.inner * esz;
    if (inner_bits % 8 != 0) { /* 4-bit elements, odd run: nibble granularity */
        for (size_t o = 0; o < v.outer; ++o) {
            const size_t row = o * v.size;
            for (unsigned k = 0; k < nruns; ++k) {
                CopyNibbles(dst, (row + runs[k].t) * v.inner, runs[k].reg,
                            (row + runs[k].index) * v.inner, size_t(runs[k].count) * v.inner);
            }
        }
        return;
    }
    const size_t run = inner_bits / 8;
    const size_t row_bytes = run * v.size;
    /* Run by run, so that each inner loop copies a fixed number of bytes. */
    for (unsigned k = 0; k < nruns; ++k) {
        uint8_t *d = dst + runs[k].t * run;
        const uint8_t *src = runs[k].reg + runs[k].index * run;
        const size_t bytes = runs[k].count * run;
        DispatchRunBytes(bytes, [&](auto fixed) {
            for (size_t o = 0; o < v.outer; ++o) {
                if constexpr (decltype(fixed)::value != 0) {
                    CopyRun<decltype(fixed)::value>(d + o * row_bytes, src + o * row_bytes, bytes);
                } else {
                    tl_copy_bytes(d + o * row_bytes, src + o * row_bytes, bytes);
                }
            }
        });
    }
}

/* ---- pad values and fills ---- */

template <const tl::fp::FloatFormat &F>
constexpr uint32_t FloatPad(tl_pad_kind pad)
{
    return pad == TL_PAD_MIN ? tl::fp::InfinityOrSaturated<F>(true)
                             : tl::fp::InfinityOrSaturated<F>(false);
}

uint32_t PadValue(ElemType type, tl_pad_kind pad)
{
    if (pad != TL_PAD_MIN && pad != TL_PAD_MAX) {
        return 0;
    }
    switch (type) {
    case ElemType::kInt4:
    case ElemType::kInt8:
    case ElemType::kInt16:
    case ElemType::kInt32:
        if (pad == TL_PAD_MIN) {
            return 0;
        }
        return uint32_t(~uint64_t{0} >> (64 - ElementBits(type)));
    case ElemType::kE2M1: return FloatPad<tl::fp::kE2M1>(pad);
    case ElemType::kE4M3: return FloatPad<tl::fp::kE4M3>(pad);
    case ElemType::kE5M2: return FloatPad<tl::fp::kE5M2>(pad);
    case ElemType::kE3M4: return FloatPad<tl::fp::kE3M4>(pad);
    case ElemType::kFp16: return FloatPad<tl::fp::kFp16>(pad);
    case ElemType::kBf16: return FloatPad<tl::fp::kBf16>(pad);
    case ElemType::kFp32: return FloatPad<tl::fp::kFp32>(pad);
    case ElemType::kInvalid: break;
    }
    return 0;
}

void FillElements(uint8_t *dst, size_t bytes, uint32_t value, unsigned esz)
{
    switch (esz) {
    case 4:
        memset(dst, int(value | value << 4), bytes);
        break;
    case 8:
        memset(dst, int(value), bytes);
        break;
    case 16:
        for (size_t i = 0; i < bytes; i += 2) {
            Store16(dst + i, value);
        }
        break;
    default:
        for (size_t i = 0; i < bytes; i += 4) {
            Store32(dst + i, value);
        }
        break;
    }
}

} // namespace

extern "C" {

tl_status tl_exec_concat(tl_state *s, unsigned dim, unsigned rd, unsigned rs1, unsigned rs2)
{
    ElemType type;
    Block block;
    tl_status st = CheckBlockPrologue(
        s, CsrBit(TL_CSR_TMASK_CONCAT_1) | CsrBit(TL_CSR_TMASK_CONCAT_2), &type, &block);
    if (st != TL_OK) {
        return st;
    }
    if (dim > 2) { /* unreachable from a decoded instruction: DD = 11 is illegal */
        return TL_ERR_SHAPE;
    }
    const DimView view = ViewAlong(block, dim);
    if (view.size > TL_MAX_MASKED_DIM) {
        return TL_ERR_CONCAT_DIM_TOO_BIG;
    }
    const uint32_t in_dim = view.size == 32 ? 0xFFFFFFFFu : (uint32_t{1} << view.size) - 1;
    const uint32_t mask[2] = {CsrValue(s, TL_CSR_TMASK_CONCAT_1) & in_dim,
                              CsrValue(s, TL_CSR_TMASK_CONCAT_2) & in_dim};
    const unsigned selected = CountOnes(mask[0]) + CountOnes(mask[1]);
    if (selected > view.size) {
        return TL_ERR_CONCAT_OVERFLOW;
    }
    if (rd == 0) {
        return TL_OK;
    }
    TL_UNINIT IndexRun runs[TL_MAX_MASKED_DIM];
    uint32_t count = 0;
    unsigned nruns = AddMaskRuns(runs, 0, SourceReg(s, rs1), mask[0], &count);
    nruns = AddMaskRuns(runs, nruns, SourceReg(s, rs2), mask[1], &count);
    TL_UNINIT uint8_t scratch[TL_REG_BYTES];
    const bool aliased = rd == rs1 || rd == rs2;
    uint8_t *dst = aliased ? scratch : s->reg[rd];
    if (count < view.size) {
        BulkZero(dst, TL_REG_BYTES); /* result indices count .. Dd-1 */
    } else {
        BulkZero(dst + block.bytes, TL_REG_BYTES - block.bytes);
    }
    GatherAlongDim(dst, view, block.esz, runs, nruns);
    if (aliased) {
        tl_bulk_copy(s->reg[rd], scratch, TL_REG_BYTES);
    }
    return TL_OK;
}

tl_status tl_exec_merge(tl_state *s, unsigned dim, unsigned rd, unsigned rs1, unsigned rs2)
{
    ElemType type;
    Block block;
    tl_status st = CheckBlockPrologue(s, CsrBit(TL_CSR_TMASK_CONCAT_1), &type, &block);
    if (st != TL_OK) {
        return st;
    }
    if (dim > 2) { /* unreachable from a decoded instruction: DD = 11 is illegal */
        return TL_ERR_SHAPE;
    }
    const DimView view = ViewAlong(block, dim);
    if (view.size > TL_MAX_MASKED_DIM) {
        return TL_ERR_CONCAT_DIM_TOO_BIG;
    }
    if (rd == 0) {
        return TL_OK;
    }
    const uint32_t mask = CsrValue(s, TL_CSR_TMASK_CONCAT_1);
    const uint8_t *src1 = SourceReg(s, rs1);
    const uint8_t *src2 = SourceReg(s, rs2);
    TL_UNINIT IndexRun runs[TL_MAX_MASKED_DIM];
    const unsigned nruns = MergeRuns(runs, src1, src2, mask, view.size);
    TL_UNINIT uint8_t scratch[TL_REG_BYTES];
    const bool aliased = rd == rs1 || rd == rs2;
    uint8_t *dst = aliased ? scratch : s->reg[rd];
    GatherAlongDim(dst, view, block.esz, runs, nruns);
    BulkZero(dst + block.bytes, TL_REG_BYTES - block.bytes);
    if (aliased) {
        tl_bulk_copy(s->reg[rd], scratch, TL_REG_BYTES);
    }
    return TL_OK;
}

namespace {

/*
 * A tl.xpose whose operands passed every check: dimensions a < b swap.
 * ab = a | b << 2, so that the interleave's swap (0, 1) is one compare:
 * a compiler that reads a and b together as one 64-bit word, right after
 * storing them as two 32-bit ones, stalls the host CPU's store forwarding.
 */
struct XposeOp {
    unsigned esz;
    size_t d[4];
    unsigned a, b;
    unsigned ab;
};
constexpr unsigned kXposeSwap01 = 0 | 1 << 2;

__attribute__((always_inline)) inline tl_status CheckXpose(const tl_state *s, unsigned dim0,
                                                           unsigned dim1, unsigned rs1,
                                                           unsigned rs2, uint64_t dims, XposeOp *x)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    x->esz = ElementBits(type);
    /* Written out, not a loop over d: the four stay in host registers. */
    x->d[0] = dims & 0xFF;
    x->d[1] = (dims >> 8) & 0xFF;
    x->d[2] = (dims >> 16) & 0xFF;
    x->d[3] = (dims >> 24) & 0xFF;
    const uint64_t elements = uint64_t(x->d[0]) * x->d[1] * x->d[2] * x->d[3];
    if (elements == 0 || elements * x->esz != uint64_t{TL_XPOSE_BYTES} * 8) {
        return TL_ERR_XPOSE_SHAPE;
    }
    if (x->d[0] % 2 != 0) {
        return TL_ERR_XPOSE_ODD_D0;
    }
    if (rs1 == rs2) {
        return TL_ERR_XPOSE_SAME_REG;
    }
    x->a = (dim0 & 3) < (dim1 & 3) ? dim0 & 3 : dim1 & 3;
    x->b = (dim0 & 3) < (dim1 & 3) ? dim1 & 3 : dim0 & 3;
    x->ab = x->a | x->b << 2;
    return TL_OK;
}

/*
 * XposeInto's general case, the transpose of [outer][Da][middle][Db][inner]
 * through 2-D transposes of runs.  Apart, so that the interleave does not
 * pay for its 4 KiB of buffers.
 */
__attribute__((noinline)) void XposeRuns(tl_state *s, unsigned rs1, unsigned rs2,
                                         const uint8_t *src1, const uint8_t *src2, bool in_place,
                                         size_t outer, size_t da, size_t middle, size_t db,
                                         size_t inner, unsigned esz)
{
    TL_UNINIT uint8_t copy[TL_XPOSE_BYTES];
    TL_UNINIT uint8_t tmp[TL_XPOSE_BYTES];
    /* Sources that are one 2048-byte buffer already (not registers) are read where they are. */
    const uint8_t *in = copy;
    if (!in_place && src2 == src1 + TL_REG_BYTES) {
        in = src1;
    } else {
        tl_bulk_copy(copy, src1, TL_REG_BYTES);
        tl_bulk_copy(copy + TL_REG_BYTES, src2, TL_REG_BYTES);
    }
    /* tlrs2 = tlrs1 + 1: the two halves are adjacent in the state, write the result there. */
    const bool adjacent = rs1 != 0 && rs2 == rs1 + 1;
    uint8_t *out = adjacent ? reinterpret_cast<uint8_t *>(s->reg) + size_t(rs1) * TL_REG_BYTES : tmp;

    const size_t inner_bits = inner * esz;
    if (inner_bits % 8 != 0) {
        /*
         * 4-bit elements with an odd run; as every D is a power of two here
         * the run is a single nibble.  Output nibbles are produced in order
         * and stored a byte (two nibbles) at a time.
         */
        const size_t step_p = middle * db; /* source nibbles between consecutive p */
        size_t dst_nibble = 0;
        unsigned low = 0;
        for (size_t x = 0; x < outer; ++x) {
            for (size_t q = 0; q < db; ++q) {
                for (size_t m = 0; m < middle; ++m) {
                    size_t src_run = (x * da * middle + m) * db + q;
                    for (size_t p = 0; p < da; ++p, src_run += step_p) {
                        for (size_t e = 0; e < inner; ++e, ++dst_nibble) {
                            const unsigned v = GetNibble(in, src_run * inner + e);
                            if (dst_nibble & 1) {
                                out[dst_nibble >> 1] = uint8_t(low | v << 4);
                            } else {
                                low = v;
                            }
                        }
                    }
                }
            }
        }
    } else {
        /*
         * For each (x, m): the Da x Db matrix of runs at
         * in[((x*Da + p)*middle + m)*Db + q] goes to
         * out[((x*Db + q)*middle + m)*Da + p], a 2-D transpose.
         */
        const size_t run = inner_bits / 8;
        const size_t src_pitch = middle * db * run; /* between consecutive p */
        const size_t dst_pitch = middle * da * run; /* between consecutive q */
        for (size_t x = 0; x < outer; ++x) {
            for (size_t m = 0; m < middle; ++m) {
                Transpose2D(out + (x * db * middle + m) * da * run, dst_pitch,
                            in + (x * da * middle + m) * db * run, src_pitch, da, db, run);
            }
        }
    }
    if (!adjacent) {
        if (rs1 != 0) {
            tl_bulk_copy(s->reg[rs1], out, TL_REG_BYTES);
        }
        if (rs2 != 0) {
            tl_bulk_copy(s->reg[rs2], out + TL_REG_BYTES, TL_REG_BYTES);
        }
    }
}

/*
 * Registers rs1 and rs2 (distinct) become the transpose of the tensor whose
 * first 1024 bytes are src1 and the rest src2.  in_place: the sources are
 * the registers rs1 and rs2 (SourceReg); otherwise they overlap no register
 * that is written.
 */
__attribute__((always_inline)) inline void XposeInto(tl_state *s, const XposeOp &x, unsigned rs1,
                                                     unsigned rs2, const uint8_t *src1,
                                                     const uint8_t *src2, bool in_place)
{
    const unsigned a = x.a, b = x.b, esz = x.esz;
    const size_t *d = x.d;
    /* Swapping a dimension with itself rewrites every byte where it was. */
    if (a == b) {
        if (!in_place) {
            if (rs1 != 0) {
                tl_bulk_copy(s->reg[rs1], src1, TL_REG_BYTES);
            }
            if (rs2 != 0) {
                tl_bulk_copy(s->reg[rs2], src2, TL_REG_BYTES);
            }
        }
        return;
    }
    /* [outer][Da][middle][Db][inner] -> [outer][Db][middle][Da][inner] */
    size_t outer = 1, middle = 1, inner = 1;
    for (unsigned k = 0; k < a; ++k) {
        outer *= d[k];
    }
    for (unsigned k = a + 1; k < b; ++k) {
        middle *= d[k];
    }
    for (unsigned k = b + 1; k < 4; ++k) {
        inner *= d[k];
    }
    const size_t da = d[a], db = d[b];

    /* [2, N, ...] -> [N, 2, ...]: the two registers' runs interleaved. */
    if (x.ab == kXposeSwap01 && da == 2 && rs1 != 0 && rs2 != 0 && (inner * esz) % 8 == 0) {
        uint8_t *lo = s->reg[rs1], *hi = s->reg[rs2];
        const size_t run = inner * esz / 8;
        if (!in_place) {
            if (InterleaveRegsFrom(lo, hi, src1, src2, run)) {
                return;
            }
        } else {
#if defined(__x86_64__) && defined(__GNUC__)
            if (HostUses(TL_HOST_SIMD_AVX512F) && InterleaveRegs(lo, hi, lo, hi, run)) {
                return;
            }
#endif
            if (InterleaveRegsInPlaceRun(lo, hi, run)) {
                return;
            }
        }
    }
    XposeRuns(s, rs1, rs2, src1, src2, in_place, outer, da, middle, db, inner, esz);
}

} // namespace

tl_status tl_exec_xpose(tl_state *s, unsigned dim0, unsigned dim1, unsigned rs1, unsigned rs2,
                        uint64_t dims)
{
    TL_UNINIT XposeOp x;
    const tl_status st = CheckXpose(s, dim0, dim1, rs1, rs2, dims, &x);
    if (st == TL_OK) {
        XposeInto(s, x, rs1, rs2, SourceReg(s, rs1), SourceReg(s, rs2), true);
    }
    return st;
}

namespace {
/*
 * tl_exec_load_pair_xpose of plans other than a whole register: both
 * blocks gathered into one buffer, the transpose's input.
 */
__attribute__((noinline)) void LoadPairXposeGathered(tl_state *s, const XposeOp &x, unsigned rs1,
                                                     unsigned rs2, const tl_mem_plan *p,
                                                     const uint8_t *host1, const uint8_t *host2)
{
    TL_UNINIT uint8_t in[TL_XPOSE_BYTES];
    if (rs1 == 0) {
        BulkZero(in, TL_REG_BYTES);
    } else {
        tl_load_to_buffer(in, p, host1);
    }
    if (rs2 == 0) {
        BulkZero(in + TL_REG_BYTES, TL_REG_BYTES);
    } else {
        tl_load_to_buffer(in + TL_REG_BYTES, p, host2);
    }
    XposeInto(s, x, rs1, rs2, in, in + TL_REG_BYTES, false);
}
} // namespace

tl_status tl_exec_load_pair_xpose(tl_state *s, unsigned rs1, unsigned rs2, const tl_mem_plan *p,
                                  const uint8_t *host1, const uint8_t *host2, unsigned dim0,
                                  unsigned dim1, uint64_t dims)
{
    TL_UNINIT XposeOp x;
    const tl_status st = CheckXpose(s, dim0, dim1, rs1, rs2, dims, &x);
    if (st != TL_OK) {
        return st;
    }
    if (p->whole_reg) {
        /* A load into tl0 keeps nothing: the transpose reads zeros there. */
        XposeInto(s, x, rs1, rs2, rs1 == 0 ? kZeroReg : host1, rs2 == 0 ? kZeroReg : host2, false);
    } else {
        LoadPairXposeGathered(s, x, rs1, rs2, p, host1, host2);
    }
    return TL_OK;
}

tl_status tl_exec_load_pair_xpose_store(tl_state *s, unsigned rs1, unsigned rs2,
                                        const tl_mem_plan *p, const uint8_t *host1,
                                        const uint8_t *host2, unsigned dim0, unsigned dim1,
                                        uint64_t dims, uint8_t *out1, uint8_t *out2)
{
#if defined(__x86_64__) && defined(__GNUC__)
    /* The interleave of whole registers ([2, N, ...] swapped to [N, 2, ...]) in one pass. */
    TL_UNINIT XposeOp x;
    const tl_status st = CheckXpose(s, dim0, dim1, rs1, rs2, dims, &x);
    if (st != TL_OK) {
        return st;
    }
    const size_t run_bits = x.d[2] * x.d[3] * x.esz;
    if (p->whole_reg && x.ab == kXposeSwap01 && x.d[0] == 2 && rs1 != 0 && rs2 != 0 &&
        run_bits % 8 == 0 && HostUses(TL_HOST_SIMD_AVX512F) &&
        DispatchInterleaveRun<1024>(run_bits / 8, [&](auto k) {
            s->interleave_memo.pass = InterleaveStoreAvx512<decltype(k)::value>;
        })) {
        s->interleave_memo.pass(s->reg[rs1], s->reg[rs2], host1, host2, out1, out2);
        s->interleave_memo.dims = dims;
        s->interleave_memo.dim01 = (dim0 & 3) | (dim1 & 3) << 2;
        s->interleave_memo.run = uint32_t(run_bits / 8);
        s->mem_plan_valid |= TL_INTERLEAVE_MEMO_VALID;
        return TL_OK;
    }
#endif
    const tl_status done = tl_exec_load_pair_xpose(s, rs1, rs2, p, host1, host2, dim0, dim1, dims);
    if (done == TL_OK) {
        tl_store_to_host(s, rs1, p, out1);
        tl_store_to_host(s, rs2, p, out2);
    }
    return done;
}

bool tl_exec_interleave_store_memo(tl_state *s, unsigned rs1, unsigned rs2, const uint8_t *host1,
                                   const uint8_t *host2, uint8_t *out1, uint8_t *out2)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (!s->interleave_memo.pass) {
        return false;
    }
    s->interleave_memo.pass(s->reg[rs1], s->reg[rs2], host1, host2, out1, out2);
    return true;
#else
    (void)s, (void)rs1, (void)rs2, (void)host1, (void)host2, (void)out1, (void)out2;
    return false;
#endif
}

tl_status tl_exec_fillpad(tl_state *s, tl_pad_kind pad, unsigned rd, unsigned rs)
{
    ElemType type;
    Block block;
    tl_status st = CheckBlockPrologue(s, CsrBit(TL_CSR_TVALID), &type, &block);
    if (st != TL_OK) {
        return st;
    }
    const uint32_t tvalid = CsrValue(s, TL_CSR_TVALID);
    const uint32_t valid[3] = {(tvalid >> 16) & 0xFF, (tvalid >> 8) & 0xFF, tvalid & 0xFF};
    for (unsigned k = 0; k < 3; ++k) {
        if (valid[k] > block.dim[k]) {
            return TL_ERR_VALID_RANGE;
        }
    }
    if (rd == 0) {
        return TL_OK;
    }
    const uint8_t *src = SourceReg(s, rs);
    TL_UNINIT uint8_t scratch[TL_REG_BYTES];
    uint8_t *dst = rd == rs ? scratch : s->reg[rd];
    if (valid[0] == block.dim[0] && valid[1] == block.dim[1] && valid[2] == block.dim[2]) {
        tl_bulk_copy(dst, src, block.bytes);
    } else {
        FillElements(dst, block.bytes, PadValue(type, pad), block.esz);
        for (uint32_t i = 0; i < valid[0]; ++i) {
            for (uint32_t j = 0; j < valid[1]; ++j) {
                const size_t row = (size_t(i) * block.dim[1] + j) * block.dim[2];
                CopyElements(dst, row, src, row, valid[2], block.esz);
            }
        }
    }
    BulkZero(dst + block.bytes, TL_REG_BYTES - block.bytes);
    if (dst == scratch) {
        tl_bulk_copy(s->reg[rd], scratch, TL_REG_BYTES);
    }
    return TL_OK;
}

} // extern "C"
