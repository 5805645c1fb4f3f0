/*
 * TensorLoad (xtl) semantic core: the element-wise instructions tl.addi and
 * tl.muls.  Integer types saturate to [0, 2^bits - 1], float types round
 * once in their format (tl_float.h); 4- and 8-bit types go through a
 * 256-entry table built per instruction, and on little-endian hosts the
 * integer types take vector paths (GCC / Clang vector extensions, SSE2 for
 * int8 multiplication) with the same results element by element.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core_internal.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "tl_float.h"

using namespace tl::detail;

namespace {

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

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * int8 on hosts with AVX2 or AVX-512BW (the host SIMD set, tl_host_simd.cc):
 * 32 or 64 elements per step, with the saturating byte add / subtract and
 * 16-bit multiply of the ISA.  The results are those of SaturatingAdd /
 * SaturatingMul element by element.
 */
#define TL_AVX2_ARITH 1
__attribute__((target("avx2"))) void AddSaturateU8Avx2(uint8_t *dst, const uint8_t *src,
                                                       int32_t k)
{
    /* k is an int8 immediate: -k fits an unsigned byte. */
    const __m256i kk = _mm256_set1_epi8(char(uint8_t(k >= 0 ? k : -k)));
    for (size_t i = 0; i < TL_REG_BYTES; i += 32) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i));
        const __m256i r = k >= 0 ? _mm256_adds_epu8(x, kk) : _mm256_subs_epu8(x, kk);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + i), r);
    }
}

/*
 * scalar < 255: the products fit 16 bits.  The byte unpacks and the pack
 * both work within 128-bit lanes, so the bytes come back in order.
 */
__attribute__((target("avx2"))) void MultiplySaturateU8Avx2(uint8_t *dst, const uint8_t *src,
                                                            uint64_t scalar)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i s = _mm256_set1_epi16(int16_t(scalar));
    const __m256i max = _mm256_set1_epi16(255);
    for (size_t i = 0; i < TL_REG_BYTES; i += 32) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i));
        const __m256i lo = _mm256_min_epu16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(x, zero), s), max);
        const __m256i hi = _mm256_min_epu16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(x, zero), s), max);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + i), _mm256_packus_epi16(lo, hi));
    }
}
#endif

/* The same with AVX-512BW (64 elements a step), on hosts that have it. */
__attribute__((target("avx512bw"))) void AddSaturateU8Avx512(uint8_t *dst, const uint8_t *src,
                                                             int32_t k)
{
    const __m512i kk = _mm512_set1_epi8(char(uint8_t(k >= 0 ? k : -k)));
    for (size_t i = 0; i < TL_REG_BYTES; i += 64) {
        const __m512i x = _mm512_loadu_si512(src + i);
        _mm512_storeu_si512(dst + i, k >= 0 ? _mm512_adds_epu8(x, kk) : _mm512_subs_epu8(x, kk));
    }
}

__attribute__((target("avx512bw"))) void MultiplySaturateU8Avx512(uint8_t *dst, const uint8_t *src,
                                                                  uint64_t scalar)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i s = _mm512_set1_epi16(int16_t(scalar));
    const __m512i max = _mm512_set1_epi16(255);
    for (size_t i = 0; i < TL_REG_BYTES; i += 64) {
        const __m512i x = _mm512_loadu_si512(src + i);
        const __m512i lo = _mm512_min_epu16(_mm512_mullo_epi16(_mm512_unpacklo_epi8(x, zero), s), max);
        const __m512i hi = _mm512_min_epu16(_mm512_mullo_epi16(_mm512_unpackhi_epi8(x, zero), s), max);
        _mm512_storeu_si512(dst + i, _mm512_packus_epi16(lo, hi));
    }
}

/* Integer tl.addi / tl.muls through the vector paths; false when not available. */
bool AddIntegerFast(ElemType type, uint8_t *dst, const uint8_t *src, int32_t imm)
{
#if defined(TL_AVX2_ARITH)
    if (type == ElemType::kInt8 && HostUses(TL_HOST_SIMD_AVX512BW)) {
        AddSaturateU8Avx512(dst, src, imm);
        return true;
    }
    if (type == ElemType::kInt8 && HostUses(TL_HOST_SIMD_AVX2)) {
        AddSaturateU8Avx2(dst, src, imm);
        return true;
    }
#endif
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
#if defined(TL_AVX2_ARITH)
            if (HostUses(TL_HOST_SIMD_AVX512BW)) {
                MultiplySaturateU8Avx512(dst, src, scalar);
                return true;
            }
            if (HostUses(TL_HOST_SIMD_AVX2)) {
                MultiplySaturateU8Avx2(dst, src, scalar);
                return true;
            }
#endif
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

/*
 * The element-by-element paths, out of line: their 256-byte tables would
 * otherwise give tl_exec_addi / tl_exec_muls a large stack frame (and a
 * stack-protector check) on every call, the vector paths' included.
 */
__attribute__((noinline)) void AddImmediateByElement(ElemType type, uint8_t *dst, const uint8_t *src,
                                                     int32_t imm)
{
    VisitElementType(type, [&](auto elements) {
        using E = decltype(elements);
        MapElements<E::kElementBits>(dst, src, [imm](uint32_t v) { return E::Add(v, imm); });
    });
}

__attribute__((noinline)) void MultiplyScalarByElement(ElemType type, uint8_t *dst, const uint8_t *src,
                                                       uint64_t scalar)
{
    /* For float types x[rs2][31:0] is a binary32 bit pattern. */
    const tl::fp::Unpacked f = tl::fp::Unpack<tl::fp::kFp32>(uint32_t(scalar));
    VisitElementType(type, [&](auto elements) {
        using E = decltype(elements);
        MapElements<E::kElementBits>(dst, src,
                                     [scalar, &f](uint32_t v) { return E::Multiply(v, scalar, f); });
    });
}

void AddImmediate(ElemType type, uint8_t *dst, const uint8_t *src, int32_t imm)
{
    if (!AddIntegerFast(type, dst, src, imm)) {
        AddImmediateByElement(type, dst, src, imm);
    }
}

void MultiplyScalar(ElemType type, uint8_t *dst, const uint8_t *src, uint64_t scalar)
{
    if (!MultiplyIntegerFast(type, dst, src, scalar)) {
        MultiplyScalarByElement(type, dst, src, scalar);
    }
}

} // namespace

extern "C" {

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

} // extern "C"
