/*
 * TensorLoad (xtl) semantic core.  The normative behaviour is
 * shared/spec/TL-ISA-decisions.md; section numbers below refer to it.
 *
 * Freestanding C++17: no exceptions, RTTI, heap or C++ runtime, so the object
 * links into QEMU's C executables.  Everything is plain integer arithmetic on
 * byte arrays stored little-endian, so results do not depend on the host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#endif

#include "tl_copy.h"
#include "tl_float.h"

/*
 * Scratch buffers that are fully written before they are read.  QEMU builds
 * with -ftrivial-auto-var-init=zero, which would otherwise clear every such
 * buffer (up to 4 KiB) on each instruction.
 */
#if defined(__has_attribute)
#if __has_attribute(uninitialized)
#define TL_UNINIT __attribute__((uninitialized))
#endif
#endif
#ifndef TL_UNINIT
#define TL_UNINIT
#endif

namespace {

/*
 * memset of register-sized blocks through the C library (GCC would expand a
 * bounded one as a slow `rep stos`; see tl_copy.h for copies).
 */
inline void BulkZero(void *dst, size_t n)
{
#if defined(__GNUC__)
    __asm__("" : "+r"(n));
#endif
    memset(dst, 0, n);
}

enum class ElemType : uint8_t {
    kInvalid,
    kInt4,
    kInt8,
    kInt16,
    kInt32,
    kE2M1,
    kE4M3,
    kE5M2,
    kE3M4,
    kFp16,
    kBf16,
    kFp32,
};

constexpr uint32_t kCsrWritableMask[TL_CSR_COUNT] = {
    0x00000FFFu, /* ttype */
    0x00FFFFFFu, /* tshape */
    0xFFFFFFFFu, /* tmask_ls */
    0xFFFFFFFFu, /* tmask_concat_1 */
    0xFFFFFFFFu, /* tmask_concat_2 */
    0xFFFFFFFFu, /* tmask_load_stride */
    0xFFFFFFFFu, /* tmask_load_width */
    0x00FFFFFFu, /* tvalid */
};

constexpr const char *kCsrName[TL_CSR_COUNT] = {
    "ttype",          "tshape",            "tmask_ls",         "tmask_concat_1",
    "tmask_concat_2", "tmask_load_stride", "tmask_load_width", "tvalid",
};

/* Source operand for tl0, which reads as zero whatever reg[0] holds. */
constexpr uint8_t kZeroReg[TL_REG_BYTES] = {};

constexpr ElemType DecodeTtype(uint32_t ttype)
{
    /*
     * Exactly one field is non-zero and not a reserved code, so each valid
     * value is unique; bits above 11 are reserved-zero (the CSR cannot hold them).
     */
    switch (ttype) {
    case 0x001: return ElemType::kInt4;
    case 0x002: return ElemType::kInt8;
    case 0x004: return ElemType::kInt16;
    case 0x008: return ElemType::kInt32;
    case 0x010: return ElemType::kE2M1;
    case 0x040: return ElemType::kE4M3;
    case 0x080: return ElemType::kE5M2;
    case 0x0C0: return ElemType::kE3M4;
    case 0x100: return ElemType::kFp16;
    case 0x200: return ElemType::kBf16;
    case 0x400: return ElemType::kFp32;
    default: return ElemType::kInvalid;
    }
}

constexpr unsigned ElementBits(ElemType type)
{
    switch (type) {
    case ElemType::kInt4:
    case ElemType::kE2M1:
        return 4;
    case ElemType::kInt8:
    case ElemType::kE4M3:
    case ElemType::kE5M2:
    case ElemType::kE3M4:
        return 8;
    case ElemType::kInt16:
    case ElemType::kFp16:
    case ElemType::kBf16:
        return 16;
    case ElemType::kInt32:
    case ElemType::kFp32:
        return 32;
    case ElemType::kInvalid:
        break;
    }
    return 0;
}

constexpr const char *ElementName(ElemType type)
{
    switch (type) {
    case ElemType::kInt4: return "int4";
    case ElemType::kInt8: return "int8";
    case ElemType::kInt16: return "int16";
    case ElemType::kInt32: return "int32";
    case ElemType::kE2M1: return "e2m1";
    case ElemType::kE4M3: return "e4m3";
    case ElemType::kE5M2: return "e5m2";
    case ElemType::kE3M4: return "e3m4";
    case ElemType::kFp16: return "fp16";
    case ElemType::kBf16: return "bf16";
    case ElemType::kFp32: return "fp32";
    case ElemType::kInvalid: break;
    }
    return nullptr;
}

inline bool IsInitialized(const tl_state *s, unsigned idx)
{
    return (s->csr_initialized >> idx) & 1u;
}

/* The architectural value: masked even if the raw state was set by other means. */
inline uint32_t CsrValue(const tl_state *s, unsigned idx)
{
    return IsInitialized(s, idx) ? s->csr[idx] & kCsrWritableMask[idx] : 0;
}

inline const uint8_t *SourceReg(const tl_state *s, unsigned r)
{
    return r == 0 ? kZeroReg : s->reg[r];
}

inline uint32_t Load16(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8; }
inline uint32_t Load32(const uint8_t *p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline void Store16(uint8_t *p, uint32_t v)
{
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
}
inline void Store32(uint8_t *p, uint32_t v)
{
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
    p[2] = uint8_t(v >> 16);
    p[3] = uint8_t(v >> 24);
}

/* ---- shapes ---- */

struct Block {
    uint32_t dim[3];     /* D0, D1, D2 in elements */
    unsigned esz;        /* element bits */
    uint32_t slice_bytes; /* S */
    uint32_t bytes;       /* D0 * S */
};

/* Sec. 3: every D >= 1, S a whole number of bytes, D0 * S <= 1024. */
inline bool DecodeShape(uint32_t tshape, unsigned esz, Block *b)
{
    b->dim[0] = (tshape >> 16) & 0xFF;
    b->dim[1] = (tshape >> 8) & 0xFF;
    b->dim[2] = tshape & 0xFF;
    b->esz = esz;
    if (b->dim[0] == 0 || b->dim[1] == 0 || b->dim[2] == 0) {
        return false;
    }
    const uint32_t slice_bits = b->dim[1] * b->dim[2] * esz;
    if (slice_bits % 8 != 0) {
        return false;
    }
    b->slice_bytes = slice_bits / 8;
    b->bytes = b->dim[0] * b->slice_bytes;
    return b->bytes <= TL_REG_BYTES;
}

/* Not __builtin_popcount: without a popcnt instruction it calls libgcc. */
constexpr unsigned CountOnes(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    return (v * 0x01010101u) >> 24;
}

constexpr uint32_t CsrBit(tl_csr_index idx) { return uint32_t{1} << idx; }
constexpr uint32_t kAllCsrFlags = (uint32_t{1} << TL_CSR_COUNT) - 1;

constexpr tl_status UninitializedStatus(unsigned idx)
{
    switch (idx) {
    case TL_CSR_TSHAPE: return TL_ERR_UNINIT_TSHAPE;
    case TL_CSR_TMASK_LS: return TL_ERR_UNINIT_TMASK_LS;
    case TL_CSR_TMASK_CONCAT_1: return TL_ERR_UNINIT_TMASK_CONCAT_1;
    case TL_CSR_TMASK_CONCAT_2: return TL_ERR_UNINIT_TMASK_CONCAT_2;
    case TL_CSR_TVALID: return TL_ERR_UNINIT_TVALID;
    default: return TL_ERR_UNINIT_TSHAPE;
    }
}

/*
 * The checks every block instruction starts with, in the architectural
 * order: ttype valid, then each needed CSR initialized (tshape first, then
 * the others in CSR-number order), then the shape.
 */
tl_status CheckBlockPrologue(const tl_state *s, uint32_t needed_csrs, ElemType *type, Block *block)
{
    *type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (*type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    /* The lowest missing CSR number: tshape (1) first, then in CSR-number order. */
    const uint32_t missing = (needed_csrs | CsrBit(TL_CSR_TSHAPE)) & ~s->csr_initialized &
                             ((uint32_t{1} << TL_CSR_COUNT) - 1);
    if (missing != 0) {
        return UninitializedStatus(unsigned(__builtin_ctz(missing)));
    }
    if (!DecodeShape(CsrValue(s, TL_CSR_TSHAPE), ElementBits(*type), block)) {
        return TL_ERR_SHAPE;
    }
    return TL_OK;
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
    default: body(std::integral_constant<size_t, 0>{}); break;
    }
}

/* memset for short, run-time sizes: the counterpart of tl_copy_bytes. */
inline __attribute__((always_inline)) void ZeroBytes(uint8_t *dst, size_t n)
{
    if (n > 64) {
        BulkZero(dst, n);
    } else if (n >= 32) {
        memset(dst, 0, 32);
        memset(dst + n - 32, 0, 32);
    } else if (n >= 16) {
        memset(dst, 0, 16);
        memset(dst + n - 16, 0, 16);
    } else if (n >= 8) {
        memset(dst, 0, 8);
        memset(dst + n - 8, 0, 8);
    } else if (n >= 4) {
        memset(dst, 0, 4);
        memset(dst + n - 4, 0, 4);
    } else if (n != 0) {
        dst[0] = 0;
        dst[n / 2] = 0;
        dst[n - 1] = 0;
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

/* ---- element-wise arithmetic over the whole register ---- */

/* dst[e] = op(src[e]) for every element of the 1024 bytes; dst may equal src. */
template <unsigned kBits, class Op>
void MapElements(uint8_t *dst, const uint8_t *src, Op op)
{
    if constexpr (kBits == 4 || kBits == 8) {
        /* At most 256 distinct inputs: evaluate op once per input, then look up. */
        uint8_t table[256];
        if constexpr (kBits == 4) {
            uint8_t nibble[16];
            for (unsigned v = 0; v < 16; ++v) {
                nibble[v] = uint8_t(op(v) & 0xF);
            }
            for (unsigned v = 0; v < 256; ++v) {
                table[v] = uint8_t(nibble[v & 0xF] | nibble[v >> 4] << 4);
            }
        } else {
            for (unsigned v = 0; v < 256; ++v) {
                table[v] = uint8_t(op(v));
            }
        }
        for (size_t i = 0; i < TL_REG_BYTES; ++i) {
            dst[i] = table[src[i]];
        }
    } else if constexpr (kBits == 16) {
        for (size_t i = 0; i < TL_REG_BYTES; i += 2) {
            Store16(dst + i, op(Load16(src + i)));
        }
    } else {
        static_assert(kBits == 32, "element size");
        for (size_t i = 0; i < TL_REG_BYTES; i += 4) {
            Store32(dst + i, op(Load32(src + i)));
        }
    }
}

template <unsigned kBits>
constexpr uint32_t kIntMax = uint32_t(~uint64_t{0} >> (64 - kBits));

template <unsigned kBits>
inline uint32_t SaturatingAdd(uint32_t v, int32_t k)
{
    const int64_t sum = int64_t(v) + k;
    if (sum < 0) {
        return 0;
    }
    return sum > int64_t{kIntMax<kBits>} ? kIntMax<kBits> : uint32_t(sum);
}

template <unsigned kBits>
inline uint32_t SaturatingMul(uint32_t v, uint64_t scalar)
{
    if (v == 0) {
        return 0;
    }
    if (scalar >= kIntMax<kBits>) {
        return kIntMax<kBits>;
    }
    /* Both factors are below 2^32 here, so the product fits in 64 bits. */
    const uint64_t product = uint64_t{v} * scalar;
    return product > kIntMax<kBits> ? kIntMax<kBits> : uint32_t(product);
}

/*
 * Saturating integer tl.addi / tl.muls on 16-byte vectors (GCC / Clang
 * vector extensions, which compile to SSE2 on x86 hosts and to generic code
 * elsewhere).  Elements are loaded in host byte order, so these paths are
 * only used on little-endian hosts, where that is the TL layout; results are
 * the same as SaturatingAdd / SaturatingMul element by element.
 */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    defined(__has_builtin)
#if __has_builtin(__builtin_convertvector)
#define TL_VECTOR_ARITH 1
#endif
#endif

#if defined(TL_VECTOR_ARITH)
typedef uint8_t V16u8 __attribute__((vector_size(16)));
typedef uint16_t V8u16 __attribute__((vector_size(16)));
typedef uint32_t V4u32 __attribute__((vector_size(16)));
typedef uint16_t V16u16 __attribute__((vector_size(32)));
typedef uint32_t V8u32 __attribute__((vector_size(32)));
typedef uint64_t V4u64 __attribute__((vector_size(32)));

/* dst[e] = clamp(src[e] + k, 0, max) over the register; k in -128..127; V holds T. */
template <class V, class T>
void AddSaturateVec(uint8_t *dst, const uint8_t *src, int32_t k)
{
    if (k >= 0) {
        const V kk = V{} + T(k);
        for (size_t i = 0; i < TL_REG_BYTES; i += sizeof(V)) {
            V x;
            memcpy(&x, src + i, sizeof x);
            V r = x + kk;
            r |= (V)(r < x); /* wrapped: overflow, all ones = max */
            memcpy(dst + i, &r, sizeof r);
        }
    } else {
        const V kk = V{} + T(-k);
        for (size_t i = 0; i < TL_REG_BYTES; i += sizeof(V)) {
            V x;
            memcpy(&x, src + i, sizeof x);
            V r = x - kk;
            r &= ~(V)(r > x); /* wrapped: underflow, 0 */
            memcpy(dst + i, &r, sizeof r);
        }
    }
}

/*
 * dst[e] = min(src[e] * scalar, max) over the register, for scalar < max
 * (the caller handles larger scalars): the product fits in W, twice T's width.
 */
template <class V, class T, class VW, class W>
void MultiplySaturateVec(uint8_t *dst, const uint8_t *src, uint64_t scalar)
{
    static_assert(sizeof(VW) / sizeof(W) == sizeof(V) / sizeof(T), "lane counts");
    const W max = W(T(~T(0)));
    const VW ss = VW{} + W(scalar);
    for (size_t i = 0; i < TL_REG_BYTES; i += sizeof(V)) {
        V x;
        memcpy(&x, src + i, sizeof x);
        VW p = __builtin_convertvector(x, VW) * ss;
        const VW over = (VW)(p > max);
        p = (p & ~over) | (over & max);
        const V r = __builtin_convertvector(p, V);
        memcpy(dst + i, &r, sizeof r);
    }
}
#endif

#if defined(__SSE2__)
/*
 * The int8 case of MultiplySaturateVec in SSE2 terms, which has no unsigned
 * 16-bit compare: min(p, 255) = p - saturating(p - 255).
 */
void MultiplySaturateU8Sse2(uint8_t *dst, const uint8_t *src, uint64_t scalar)
{
    const __m128i zero = _mm_setzero_si128();
    const __m128i s = _mm_set1_epi16(int16_t(scalar));
    const __m128i max = _mm_set1_epi16(255);
    for (size_t i = 0; i < TL_REG_BYTES; i += 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
        __m128i lo = _mm_mullo_epi16(_mm_unpacklo_epi8(x, zero), s);
        __m128i hi = _mm_mullo_epi16(_mm_unpackhi_epi8(x, zero), s);
        lo = _mm_sub_epi16(lo, _mm_subs_epu16(lo, max));
        hi = _mm_sub_epi16(hi, _mm_subs_epu16(hi, max));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), _mm_packus_epi16(lo, hi));
    }
}
#endif

/* Integer tl.addi / tl.muls through the vector paths; false when not available. */
bool AddIntegerFast(ElemType type, uint8_t *dst, const uint8_t *src, int32_t imm)
{
#if defined(TL_VECTOR_ARITH)
    switch (type) {
    case ElemType::kInt8: AddSaturateVec<V16u8, uint8_t>(dst, src, imm); return true;
    case ElemType::kInt16: AddSaturateVec<V8u16, uint16_t>(dst, src, imm); return true;
    case ElemType::kInt32: AddSaturateVec<V4u32, uint32_t>(dst, src, imm); return true;
    default: break;
    }
#endif
    (void)type, (void)dst, (void)src, (void)imm;
    return false;
}

bool MultiplyIntegerFast(ElemType type, uint8_t *dst, const uint8_t *src, uint64_t scalar)
{
#if defined(TL_VECTOR_ARITH)
    switch (type) {
    case ElemType::kInt8:
        if (scalar < kIntMax<8>) {
#if defined(__SSE2__)
            MultiplySaturateU8Sse2(dst, src, scalar);
#else
            MultiplySaturateVec<V16u8, uint8_t, V16u16, uint16_t>(dst, src, scalar);
#endif
            return true;
        }
        break;
    case ElemType::kInt16:
        if (scalar < kIntMax<16>) {
            MultiplySaturateVec<V8u16, uint16_t, V8u32, uint32_t>(dst, src, scalar);
            return true;
        }
        break;
    case ElemType::kInt32:
        if (scalar < kIntMax<32>) {
            MultiplySaturateVec<V4u32, uint32_t, V4u64, uint64_t>(dst, src, scalar);
            return true;
        }
        break;
    default:
        break;
    }
#endif
    (void)type, (void)dst, (void)src, (void)scalar;
    return false;
}

/*
 * The arithmetic of one element type: an integer type saturates to
 * [0, 2^bits - 1], a float type rounds once in its format (tl_float.h).
 */
template <unsigned kBits>
struct IntegerElements {
    static constexpr unsigned kElementBits = kBits;
    static uint32_t Add(uint32_t v, int32_t imm) { return SaturatingAdd<kBits>(v, imm); }
    static uint32_t Multiply(uint32_t v, uint64_t scalar, const tl::fp::Unpacked &)
    {
        return SaturatingMul<kBits>(v, scalar);
    }
};

template <const tl::fp::FloatFormat &F, unsigned kBits>
struct FloatElements {
    static constexpr unsigned kElementBits = kBits;
    static uint32_t Add(uint32_t v, int32_t imm) { return tl::fp::AddInteger<F>(v, imm); }
    static uint32_t Multiply(uint32_t v, uint64_t, const tl::fp::Unpacked &scalar)
    {
        return tl::fp::MultiplyBy<F>(v, scalar);
    }
};

/* Calls visit(Elements{}) with the arithmetic of a valid element type. */
template <class Visit>
void VisitElementType(ElemType type, Visit visit)
{
    using namespace tl::fp;
    switch (type) {
    case ElemType::kInt4: visit(IntegerElements<4>{}); break;
    case ElemType::kInt8: visit(IntegerElements<8>{}); break;
    case ElemType::kInt16: visit(IntegerElements<16>{}); break;
    case ElemType::kInt32: visit(IntegerElements<32>{}); break;
    case ElemType::kE2M1: visit(FloatElements<kE2M1, 4>{}); break;
    case ElemType::kE4M3: visit(FloatElements<kE4M3, 8>{}); break;
    case ElemType::kE5M2: visit(FloatElements<kE5M2, 8>{}); break;
    case ElemType::kE3M4: visit(FloatElements<kE3M4, 8>{}); break;
    case ElemType::kFp16: visit(FloatElements<kFp16, 16>{}); break;
    case ElemType::kBf16: visit(FloatElements<kBf16, 16>{}); break;
    case ElemType::kFp32: visit(FloatElements<kFp32, 32>{}); break;
    case ElemType::kInvalid: break;
    }
}

void AddImmediate(ElemType type, uint8_t *dst, const uint8_t *src, int32_t imm)
{
    if (AddIntegerFast(type, dst, src, imm)) {
        return;
    }
    VisitElementType(type, [&](auto elements) {
        using E = decltype(elements);
        MapElements<E::kElementBits>(dst, src, [imm](uint32_t v) { return E::Add(v, imm); });
    });
}

void MultiplyScalar(ElemType type, uint8_t *dst, const uint8_t *src, uint64_t scalar)
{
    if (MultiplyIntegerFast(type, dst, src, scalar)) {
        return;
    }
    /* For float types x[rs2][31:0] is a binary32 bit pattern. */
    const tl::fp::Unpacked f = tl::fp::Unpack<tl::fp::kFp32>(uint32_t(scalar));
    VisitElementType(type, [&](auto elements) {
        using E = decltype(elements);
        MapElements<E::kElementBits>(dst, src,
                                     [scalar, &f](uint32_t v) { return E::Multiply(v, scalar, f); });
    });
}

/* ---- memory ---- */

struct MemPlan {
    Block block;
    uint32_t width;    /* W */
    int64_t pitch;     /* P */
    uint32_t selected; /* bit i: slice i is accessed */
};

/* Sec. 5, memory: the checks and the parameters shared by loads and stores. */
tl_status PlanMemoryAccess(const tl_state *s, bool masked, MemPlan *plan)
{
    ElemType type;
    const uint32_t needed = masked ? CsrBit(TL_CSR_TMASK_LS) : 0;
    tl_status st = CheckBlockPrologue(s, needed, &type, &plan->block);
    if (st != TL_OK) {
        return st;
    }
    const uint32_t d0 = plan->block.dim[0];
    if (d0 > TL_MAX_MASKED_DIM) {
        return TL_ERR_D0_TOO_BIG;
    }
    plan->width = IsInitialized(s, TL_CSR_TMASK_LOAD_WIDTH)
                      ? CsrValue(s, TL_CSR_TMASK_LOAD_WIDTH)
                      : plan->block.slice_bytes;
    if (plan->width == 0 || plan->width > plan->block.slice_bytes) {
        return TL_ERR_WIDTH;
    }
    plan->pitch = IsInitialized(s, TL_CSR_TMASK_LOAD_STRIDE)
                      ? int64_t(int32_t(CsrValue(s, TL_CSR_TMASK_LOAD_STRIDE)))
                      : int64_t(plan->width);
    const uint32_t all = d0 == 32 ? 0xFFFFFFFFu : (uint32_t{1} << d0) - 1;
    plan->selected = (masked ? CsrValue(s, TL_CSR_TMASK_LS) : 0xFFFFFFFFu) & all;
    return TL_OK;
}

struct ByteRange {
    uint64_t addr;
    uint32_t len;
};

/* The W bytes of one slice as at most two ranges that do not wrap past addr_mask. */
struct SliceRanges {
    ByteRange range[2];
    unsigned count;
};

class SliceAddresses {
public:
    SliceAddresses(const MemPlan &plan, int32_t imm8, uint64_t base, uint64_t addr_mask)
        : width_(plan.width), pitch_(uint64_t(plan.pitch)), addr_mask_(addr_mask),
          first_(base + uint64_t(int64_t(imm8) * int64_t(plan.width)))
    {
    }

    /* Address of byte 0 of slice 0. */
    uint64_t First() const { return first_ & addr_mask_; }

    /* Address of byte 0 of slice i. */
    uint64_t Start(uint32_t slice) const { return (first_ + uint64_t(slice) * pitch_) & addr_mask_; }

    /*
     * False when, for a non-negative pitch, the bytes of slices 0 .. d0-1
     * lie in increasing order below the top of the address space, so that
     * no slice wraps (true when unsure).
     */
    bool AnyWraps(uint32_t d0) const
    {
        if (int64_t(pitch_) < 0 || pitch_ > uint64_t(UINT32_MAX)) {
            return true;
        }
        const uint64_t first = First();
        /* Offset of the last byte of slice d0-1 from the first byte: < 2^32 * 32 + 2^32. */
        const uint64_t span = uint64_t(d0 - 1) * pitch_ + width_ - 1;
        return span > addr_mask_ - first;
    }

    SliceRanges Of(uint32_t slice) const
    {
        /* Unsigned arithmetic wraps modulo 2^64; the mask reduces to 2^XLEN. */
        const uint64_t addr = (first_ + uint64_t(slice) * pitch_) & addr_mask_;
        /* Bytes from addr to the top, less one, so that 2^64 cannot overflow. */
        const uint64_t room_minus_one = addr_mask_ - addr;
        if (room_minus_one >= width_ - 1) {
            return {{{addr, width_}, {0, 0}}, 1};
        }
        const uint32_t before_wrap = uint32_t(room_minus_one + 1);
        return {{{addr, before_wrap}, {0, width_ - before_wrap}}, 2};
    }

private:
    uint32_t width_;
    uint64_t pitch_;
    uint64_t addr_mask_;
    uint64_t first_;
};

/*
 * The accesses of one instruction as few ranges as possible: the byte
 * ranges of the selected slices, in scan order (slice i, then byte b), with
 * a range merged into the previous one when it continues it in memory
 * (probe list) or in memory and in the register (copy list).  Merging never
 * reorders bytes, so the first faulting byte of a merged probe is the first
 * in scan order, and overlapping slices (P < W) are never merged, so their
 * last-writer-wins order is kept.  A merged range never wraps past the top
 * of the address space (the wrap point is never a merge point).
 */
struct RangeLists {
    tl_mem_range probe[TL_MEM_MAX_RANGES];
    tl_mem_range copy[TL_MEM_MAX_RANGES];
    unsigned nprobe;
    unsigned ncopy;
};

inline bool Continues(const tl_mem_range &last, uint64_t addr, uint64_t addr_mask)
{
    return last.addr + last.len - 1 != addr_mask && last.addr + last.len == addr;
}

/*
 * True when every slice is selected and the slices follow each other without
 * gaps both in memory (P = W) and in the register (W = S), and the block does
 * not wrap past the top: the whole access is one range, which is what the
 * merging below would produce, found without walking the slices.
 */
bool IsOneRange(const MemPlan &plan, const SliceAddresses &addresses, uint64_t addr_mask,
                tl_mem_range *whole)
{
    const uint32_t d0 = plan.block.dim[0];
    const uint32_t all = d0 == 32 ? 0xFFFFFFFFu : (uint32_t{1} << d0) - 1;
    if (plan.selected != all || plan.width != plan.block.slice_bytes ||
        plan.pitch != int64_t(plan.width)) {
        return false;
    }
    const uint64_t addr = addresses.First();
    if (addr_mask - addr < uint64_t(plan.block.bytes) - 1) {
        return false; /* wraps: split at the top by the general path */
    }
    *whole = {addr, plan.block.bytes, 0};
    return true;
}

void BuildRanges(const MemPlan &plan, const SliceAddresses &addresses, uint64_t addr_mask,
                 RangeLists *l)
{
    if (IsOneRange(plan, addresses, addr_mask, &l->probe[0])) {
        l->copy[0] = l->probe[0];
        l->nprobe = l->ncopy = 1;
        return;
    }
    unsigned np = 0, nc = 0;
    const uint32_t slice_bytes = plan.block.slice_bytes;
    if (plan.pitch >= int64_t(plan.width) && !addresses.AnyWraps(plan.block.dim[0])) {
        /*
         * Slices in increasing address order, not overlapping, none wrapping:
         * two slices are adjacent in memory exactly when they are consecutive
         * and P = W, and in the register too when moreover W = S.  The same
         * lists as the general loop below, without its per-range checks.
         */
        const bool mem_adjacent = plan.pitch == int64_t(plan.width);
        const bool reg_adjacent = mem_adjacent && plan.width == slice_bytes;
        uint32_t prev = 64;
        for (uint32_t sel = plan.selected; sel != 0; sel &= sel - 1) {
            const uint32_t i = uint32_t(__builtin_ctz(sel));
            const bool next = i == prev + 1;
            if (next && mem_adjacent) {
                l->probe[np - 1].len += plan.width;
            } else {
                l->probe[np++] = {addresses.Start(i), plan.width, i * slice_bytes};
            }
            if (next && reg_adjacent) {
                l->copy[nc - 1].len += plan.width;
            } else {
                l->copy[nc++] = {addresses.Start(i), plan.width, i * slice_bytes};
            }
            prev = i;
        }
        l->nprobe = np;
        l->ncopy = nc;
        return;
    }
    for (uint32_t sel = plan.selected; sel != 0; sel &= sel - 1) {
        const uint32_t i = uint32_t(__builtin_ctz(sel));
        const SliceRanges sr = addresses.Of(i);
        uint32_t reg = i * slice_bytes;
        for (unsigned k = 0; k < sr.count; ++k) {
            const uint64_t addr = sr.range[k].addr;
            const uint32_t len = sr.range[k].len;
            if (np != 0 && Continues(l->probe[np - 1], addr, addr_mask)) {
                l->probe[np - 1].len += len;
            } else {
                l->probe[np++] = {addr, len, reg};
            }
            if (nc != 0 && Continues(l->copy[nc - 1], addr, addr_mask) &&
                l->copy[nc - 1].reg + l->copy[nc - 1].len == reg) {
                l->copy[nc - 1].len += len;
            } else {
                l->copy[nc++] = {addr, len, reg};
            }
            reg += len;
        }
    }
    l->nprobe = np;
    l->ncopy = nc;
}

/* Load: zero what was not loaded (unselected slices, slice tails, the rest of the register). */
void ZeroUnloaded(const MemPlan &plan, uint8_t *dst)
{
    const uint32_t slice_bytes = plan.block.slice_bytes;
    const uint32_t all = plan.block.dim[0] == 32 ? 0xFFFFFFFFu : (uint32_t{1} << plan.block.dim[0]) - 1;
    if (plan.width == slice_bytes && plan.selected == all) {
        BulkZero(dst + plan.block.bytes, TL_REG_BYTES - plan.block.bytes);
        return;
    }
    uint32_t zero_from = 0; /* start of the pending run of bytes to clear */
    for (uint32_t sel = plan.selected; sel != 0; sel &= sel - 1) {
        const uint32_t start = uint32_t(__builtin_ctz(sel)) * slice_bytes;
        ZeroBytes(dst + zero_from, start - zero_from);
        zero_from = start + plan.width;
    }
    BulkZero(dst + zero_from, TL_REG_BYTES - zero_from);
}

/* The plan and the ranges of a load or store; TL_OK or the illegal-instruction reason. */
tl_status PrepareMemory(const tl_state *s, bool masked, int32_t imm8, uint64_t base,
                        uint64_t addr_mask, MemPlan *plan, RangeLists *l)
{
    const tl_status st = PlanMemoryAccess(s, masked, plan);
    if (st != TL_OK) {
        return st;
    }
    const SliceAddresses addresses(*plan, imm8, base, addr_mask);
    BuildRanges(*plan, addresses, addr_mask, l);
    return TL_OK;
}

/* All-or-nothing through the single-range interface: every probe before any access. */
bool ProbeEach(const RangeLists &l, const tl_mem_if *mem, bool is_store, uint64_t *fault_addr)
{
    for (unsigned k = 0; k < l.nprobe; ++k) {
        uint64_t fault = l.probe[k].addr;
        if (!mem->probe(mem->opaque, l.probe[k].addr, l.probe[k].len, is_store, &fault)) {
            if (fault_addr) {
                *fault_addr = fault;
            }
            return false;
        }
    }
    return true;
}

bool ProbeBatch(const RangeLists &l, const tl_mem_batch_if *mem, bool is_store, uint64_t *fault_addr)
{
    if (l.nprobe == 0) {
        return true;
    }
    uint64_t fault = l.probe[0].addr;
    if (mem->probe(mem->opaque, l.probe, l.nprobe, is_store, &fault)) {
        return true;
    }
    if (fault_addr) {
        *fault_addr = fault;
    }
    return false;
}

} // namespace

extern "C" {

const char *tl_status_message(tl_status st)
{
    switch (st) {
    case TL_OK: return "The instruction completed.";
    case TL_ERR_TTYPE: return "ttype does not select exactly one valid element type.";
    case TL_ERR_UNINIT_TSHAPE: return "tshape has not been written since reset.";
    case TL_ERR_UNINIT_TMASK_LS: return "tmask_ls has not been written since reset.";
    case TL_ERR_UNINIT_TMASK_CONCAT_1: return "tmask_concat_1 has not been written since reset.";
    case TL_ERR_UNINIT_TMASK_CONCAT_2: return "tmask_concat_2 has not been written since reset.";
    case TL_ERR_UNINIT_TVALID: return "tvalid has not been written since reset.";
    case TL_ERR_SHAPE:
        return "tshape has a zero dimension, a block over 1024 bytes or a slice that is not "
               "a whole number of bytes.";
    case TL_ERR_D0_TOO_BIG: return "A load or store has D0 above 32, the width of tmask_ls.";
    case TL_ERR_WIDTH: return "tmask_load_width is zero or larger than the slice size.";
    case TL_ERR_CONCAT_DIM_TOO_BIG:
        return "The concat or merge dimension is above 32, the width of the masks.";
    case TL_ERR_CONCAT_OVERFLOW: return "The concat masks select more slices than the dimension holds.";
    case TL_ERR_XPOSE_SHAPE:
        return "The xpose dimensions contain a zero or do not describe exactly 2048 bytes.";
    case TL_ERR_XPOSE_ODD_D0: return "The xpose D0 is odd, so the tensor cannot be split in two.";
    case TL_ERR_XPOSE_SAME_REG: return "xpose names the same register for both tensor halves.";
    case TL_ERR_VALID_RANGE: return "tvalid has a dimension larger than the same tshape dimension.";
    case TL_FAULT: return "A memory access of the instruction faulted.";
    case TL_STATUS_COUNT: break;
    }
    return "Unknown TL status.";
}

void tl_state_reset(tl_state *s)
{
    memset(s, 0, sizeof(*s));
    s->csr[TL_CSR_TTYPE] = TL_TTYPE_RESET;
    s->csr_initialized = CsrBit(TL_CSR_TTYPE);
}

void tl_state_sanitize(tl_state *s)
{
    s->mem_plan_valid = 0;
    memset(s->reg[0], 0, sizeof(s->reg[0]));
    s->csr_initialized = (s->csr_initialized & kAllCsrFlags) | CsrBit(TL_CSR_TTYPE);
    for (unsigned i = 0; i < TL_CSR_COUNT; i++) {
        s->csr[i] = CsrValue(s, i);
    }
}

const char *tl_csr_name(unsigned idx)
{
    if (idx == TL_CSR_TINIT) {
        return "tinit";
    }
    return idx < TL_CSR_COUNT ? kCsrName[idx] : nullptr;
}

uint32_t tl_csr_writable_mask(unsigned idx)
{
    if (idx == TL_CSR_TINIT) {
        return TL_TINIT_WRITABLE;
    }
    return idx < TL_CSR_COUNT ? kCsrWritableMask[idx] : 0;
}

uint32_t tl_csr_read(const tl_state *s, unsigned idx)
{
    if (idx == TL_CSR_TINIT) {
        return (s->csr_initialized & kAllCsrFlags) | TL_TINIT_RESET;
    }
    return idx < TL_CSR_COUNT ? CsrValue(s, idx) : 0;
}

void tl_csr_write(tl_state *s, unsigned idx, uint64_t value)
{
    s->mem_plan_valid = 0;
    if (idx == TL_CSR_TINIT) {
        const uint32_t flags = (uint32_t(value) & TL_TINIT_WRITABLE) | TL_TINIT_RESET;
        const uint32_t cleared = s->csr_initialized & ~flags;

        for (unsigned i = 0; i < TL_CSR_COUNT; i++) {
            if (cleared & CsrBit(tl_csr_index(i))) {
                s->csr[i] = 0;
            }
        }
        s->csr_initialized = flags;
        return;
    }
    if (idx >= TL_CSR_COUNT) {
        return;
    }
    s->csr[idx] = uint32_t(value) & kCsrWritableMask[idx];
    s->csr_initialized |= uint32_t{1} << idx;
}

bool tl_csr_is_initialized(const tl_state *s, unsigned idx)
{
    return idx == TL_CSR_TINIT || (idx < TL_CSR_COUNT && IsInitialized(s, idx));
}

unsigned tl_ttype_element_bits(uint32_t ttype)
{
    return ElementBits(DecodeTtype(ttype));
}

const char *tl_ttype_name(uint32_t ttype)
{
    return ElementName(DecodeTtype(ttype));
}

tl_status tl_exec_load(tl_state *s, unsigned rd, bool masked, int32_t imm8, uint64_t base,
                       uint64_t addr_mask, const tl_mem_if *mem, uint64_t *fault_addr)
{
    MemPlan plan;
    TL_UNINIT RangeLists l;
    tl_status st = PrepareMemory(s, masked, imm8, base, addr_mask, &plan, &l);
    if (st != TL_OK) {
        return st;
    }
    if (!ProbeEach(l, mem, false, fault_addr)) {
        return TL_FAULT;
    }
    /* A load to tl0 still performs its reads (they may have side effects, e.g. MMIO). */
    TL_UNINIT uint8_t discard[TL_REG_BYTES];
    uint8_t *dst = rd != 0 ? s->reg[rd] : discard;
    for (unsigned k = 0; k < l.ncopy; ++k) {
        mem->read(mem->opaque, l.copy[k].addr, dst + l.copy[k].reg, l.copy[k].len);
    }
    if (rd != 0) {
        ZeroUnloaded(plan, dst);
    }
    return TL_OK;
}

tl_status tl_exec_store(const tl_state *s, unsigned rs, bool masked, int32_t imm8, uint64_t base,
                        uint64_t addr_mask, const tl_mem_if *mem, uint64_t *fault_addr)
{
    MemPlan plan;
    TL_UNINIT RangeLists l;
    tl_status st = PrepareMemory(s, masked, imm8, base, addr_mask, &plan, &l);
    if (st != TL_OK) {
        return st;
    }
    if (!ProbeEach(l, mem, true, fault_addr)) {
        return TL_FAULT;
    }
    const uint8_t *src = SourceReg(s, rs);
    for (unsigned k = 0; k < l.ncopy; ++k) {
        mem->write(mem->opaque, l.copy[k].addr, src + l.copy[k].reg, l.copy[k].len);
    }
    return TL_OK;
}

const tl_mem_plan *tl_mem_plan_compute(tl_state *s, bool masked)
{
    tl_mem_plan *p = &s->mem_plan[masked];
    const uint32_t bit = uint32_t{1} << unsigned(masked);

    MemPlan m;
    const tl_status st = PlanMemoryAccess(s, masked, &m);
    *p = tl_mem_plan{};
    p->status = st;
    if (st == TL_OK) {
        const uint32_t d0 = m.block.dim[0];
        const uint32_t all = d0 == 32 ? 0xFFFFFFFFu : (uint32_t{1} << d0) - 1;
        p->width = m.width;
        p->pitch = m.pitch;
        p->selected = m.selected;
        p->slice_bytes = m.block.slice_bytes;
        p->block_bytes = m.block.bytes;
        p->ordered = m.pitch >= int64_t(m.width);
        p->contiguous = m.selected == all && m.width == m.block.slice_bytes &&
                        m.pitch == int64_t(m.width);
        if (p->ordered && m.selected != 0) {
            const uint64_t last = 31 - unsigned(__builtin_clz(m.selected));
            p->span = last * uint64_t(m.pitch) + m.width;
        }
    }
    s->mem_plan_valid |= bit;
    return p;
}

} // extern "C"

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

#define TL_LOAD_SLICES(COPY)                                                            \
    do {                                                                                \
        if (TL_DENSE_ROWS(p)) {                                                         \
            const uint32_t rows = uint32_t(__builtin_popcount(p->selected));            \
            const uint8_t *from = host;                                                 \
            uint8_t *to = dst;                                                          \
            for (uint32_t r = 0; r < rows; r++, from += p->pitch, to += p->width) {     \
                COPY(to, from, p->width);                                               \
            }                                                                           \
            BulkZero(to, TL_REG_BYTES - rows * p->width);                               \
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
        BulkZero(dst + zero_from, TL_REG_BYTES - zero_from);                            \
    } while (0)

#define TL_STORE_SLICES(COPY)                                                           \
    do {                                                                                \
        if (TL_DENSE_ROWS(p)) {                                                         \
            const uint32_t rows = uint32_t(__builtin_popcount(p->selected));            \
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

#if defined(__x86_64__) && defined(__GNUC__)
#define TL_AVX2_SLICES 1
__attribute__((target("avx2"))) inline void CopySliceAvx2(uint8_t *dst, const uint8_t *src,
                                                           uint32_t n)
{
    if (n < 32 || n > 512) {
        tl_copy_bytes(dst, src, n);
        return;
    }
    uint32_t o = 0;
    for (; o + 32 <= n; o += 32) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + o),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + o)));
    }
    if (o < n) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + n - 32),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + n - 32)));
    }
}

const bool kHostHasAvx2 = __builtin_cpu_supports("avx2");
const bool kHostHasAvx512 = __builtin_cpu_supports("avx512f");

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

__attribute__((noinline, target("avx512f"))) void LoadSlicesAvx512(uint8_t *dst,
                                                                  const tl_mem_plan *p,
                                                                  const uint8_t *host)
{
    TL_LOAD_SLICES(CopySliceAvx512);
}

/*
 * Dense rows of a fixed width W (a multiple of 32): the loop over rows with
 * W / 32 moves unrolled, no per-row size tests.
 */
template <uint32_t W>
__attribute__((target("avx2"), always_inline)) inline void CopyRowsAvx2(uint8_t *to, int64_t to_step,
                                                                      const uint8_t *from,
                                                                      int64_t from_step,
                                                                      uint32_t rows)
{
    for (uint32_t r = 0; r < rows; r++, to += to_step, from += from_step) {
        for (uint32_t o = 0; o < W; o += 32) {
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(to + o),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + o)));
        }
    }
}

/* Dense rows of the widths tiles use most; false for other widths. */
__attribute__((target("avx2"))) inline bool CopyDenseRowsAvx2(uint8_t *to, int64_t to_step,
                                                               const uint8_t *from,
                                                               int64_t from_step, uint32_t width,
                                                               uint32_t rows)
{
    switch (width) {
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
        const uint32_t rows = uint32_t(__builtin_popcount(p->selected));
        if (CopyDenseRowsAvx2(dst, p->width, host, p->pitch, p->width, rows)) {
            BulkZero(dst + rows * p->width, TL_REG_BYTES - rows * p->width);
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
                          uint32_t(__builtin_popcount(p->selected)))) {
        return;
    }
    TL_STORE_SLICES(CopySliceAvx2);
}
#endif

__attribute__((noinline)) void LoadSlicesFromHost(uint8_t *dst, const tl_mem_plan *p,
                                                  const uint8_t *host)
{
#if defined(TL_AVX2_SLICES)
    if (kHostHasAvx512 && p->width >= 64 && !TL_DENSE_ROWS(p)) {
        LoadSlicesAvx512(dst, p, host);
        return;
    }
    if (kHostHasAvx2) {
        LoadSlicesAvx2(dst, p, host);
        return;
    }
#endif
    TL_LOAD_SLICES(tl_copy_bytes);
}

__attribute__((noinline)) void StoreSlicesToHost(uint8_t *host, const tl_mem_plan *p,
                                                 const uint8_t *src)
{
#if defined(TL_AVX2_SLICES)
    if (kHostHasAvx2) {
        StoreSlicesAvx2(host, p, src);
        return;
    }
#endif
    TL_STORE_SLICES(tl_copy_bytes);
}

} // namespace

extern "C" {

void tl_load_from_host(tl_state *s, unsigned rd, const tl_mem_plan *p, const uint8_t *host)
{
    if (rd == 0) {
        return; /* plain RAM: reading it has no effect to keep */
    }
    uint8_t *dst = s->reg[rd];
    if (!p->contiguous) {
        LoadSlicesFromHost(dst, p, host);
        return;
    }
    tl_bulk_copy(dst, host, p->block_bytes);
    if (p->block_bytes != TL_REG_BYTES) {
        BulkZero(dst + p->block_bytes, TL_REG_BYTES - p->block_bytes);
    }
}

void tl_store_to_host(const tl_state *s, unsigned rs, const tl_mem_plan *p, uint8_t *host)
{
    const uint8_t *src = SourceReg(s, rs);
    if (!p->contiguous) {
        StoreSlicesToHost(host, p, src);
        return;
    }
    tl_bulk_copy(host, src, p->block_bytes);
}

tl_status tl_exec_load_batch(tl_state *s, unsigned rd, bool masked, int32_t imm8, uint64_t base,
                             uint64_t addr_mask, const tl_mem_batch_if *mem, uint64_t *fault_addr)
{
    MemPlan plan;
    TL_UNINIT RangeLists l;
    tl_status st = PrepareMemory(s, masked, imm8, base, addr_mask, &plan, &l);
    if (st != TL_OK) {
        return st;
    }
    if (!ProbeBatch(l, mem, false, fault_addr)) {
        return TL_FAULT;
    }
    TL_UNINIT uint8_t discard[TL_REG_BYTES];
    uint8_t *dst = rd != 0 ? s->reg[rd] : discard;
    if (l.ncopy != 0) {
        mem->read(mem->opaque, l.copy, l.ncopy, dst);
    }
    if (rd != 0) {
        ZeroUnloaded(plan, dst);
    }
    return TL_OK;
}

tl_status tl_exec_store_batch(const tl_state *s, unsigned rs, bool masked, int32_t imm8,
                              uint64_t base, uint64_t addr_mask, const tl_mem_batch_if *mem,
                              uint64_t *fault_addr)
{
    MemPlan plan;
    TL_UNINIT RangeLists l;
    tl_status st = PrepareMemory(s, masked, imm8, base, addr_mask, &plan, &l);
    if (st != TL_OK) {
        return st;
    }
    if (!ProbeBatch(l, mem, true, fault_addr)) {
        return TL_FAULT;
    }
    if (l.ncopy != 0) {
        mem->write(mem->opaque, l.copy, l.ncopy, SourceReg(s, rs));
    }
    return TL_OK;
}

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

tl_status tl_exec_xpose(tl_state *s, unsigned dim0, unsigned dim1, unsigned rs1, unsigned rs2,
                        uint64_t dims)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    const unsigned esz = ElementBits(type);
    size_t d[4];
    uint64_t elements = 1;
    for (unsigned k = 0; k < 4; ++k) {
        d[k] = (dims >> (8 * k)) & 0xFF;
        elements *= d[k];
    }
    if (elements == 0 || elements * esz != uint64_t{TL_XPOSE_BYTES} * 8) {
        return TL_ERR_XPOSE_SHAPE;
    }
    if (d[0] % 2 != 0) {
        return TL_ERR_XPOSE_ODD_D0;
    }
    if (rs1 == rs2) {
        return TL_ERR_XPOSE_SAME_REG;
    }
    unsigned a = dim0 & 3;
    unsigned b = dim1 & 3;
    /* Swapping a dimension with itself rewrites every byte where it was. */
    if (a == b) {
        return TL_OK;
    }
    if (a > b) {
        const unsigned t = a;
        a = b;
        b = t;
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

    TL_UNINIT uint8_t in[TL_XPOSE_BYTES];
    TL_UNINIT uint8_t tmp[TL_XPOSE_BYTES];
    tl_bulk_copy(in, SourceReg(s, rs1), TL_REG_BYTES);
    tl_bulk_copy(in + TL_REG_BYTES, SourceReg(s, rs2), TL_REG_BYTES);
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
    return TL_OK;
}

tl_status tl_exec_addi(tl_state *s, unsigned rd, unsigned rs, int32_t imm8)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    if (rd != 0) {
        AddImmediate(type, s->reg[rd], SourceReg(s, rs), imm8);
    }
    return TL_OK;
}

tl_status tl_exec_muls(tl_state *s, unsigned rd, unsigned rs, uint64_t scalar)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    if (rd != 0) {
        MultiplyScalar(type, s->reg[rd], SourceReg(s, rs), scalar);
    }
    return TL_OK;
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
