/*
 * TL element-format arithmetic: exact ADDI and MULS results rounded once to
 * every TL floating-point format (E2M1, E4M3FN, E5M2, E3M4, binary16,
 * bfloat16, binary32).
 *
 * All arithmetic is on integers, so the host FPU, its rounding mode and its
 * flags are never involved and the results are identical on every host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_FLOAT_H
#define TL_FLOAT_H

#include <cstdint>

namespace tl {
namespace fp {

enum class NanEncoding : uint8_t {
    kNone,             /* E2M1: every encoding is a finite number */
    kAllOnesMagnitude, /* E4M3FN: only S.1111.111 is NaN, no infinities */
    kIeee,             /* exponent all ones: infinity (fraction 0) or NaN */
};

struct FloatFormat {
    unsigned exp_bits;
    unsigned mant_bits;
    int bias;
    NanEncoding nan;
    uint32_t max_finite;    /* magnitude encoding of the largest finite value */
    uint32_t canonical_nan; /* what every NaN result becomes */

    constexpr uint32_t sign_bit() const { return uint32_t{1} << (exp_bits + mant_bits); }
    constexpr uint32_t magnitude_mask() const { return sign_bit() - 1; }
    constexpr uint32_t mant_mask() const { return (uint32_t{1} << mant_bits) - 1; }
    constexpr uint32_t exp_field_max() const { return (uint32_t{1} << exp_bits) - 1; }
    constexpr bool has_inf() const { return nan == NanEncoding::kIeee; }
    constexpr uint32_t inf_magnitude() const { return exp_field_max() << mant_bits; }
};

/* E2M1 has no NaN encoding at all; the architecture makes a NaN result +0. */
inline constexpr FloatFormat kE2M1{2, 1, 1, NanEncoding::kNone, 0x7, 0x0};
inline constexpr FloatFormat kE4M3{4, 3, 7, NanEncoding::kAllOnesMagnitude, 0x7E, 0x7F};
inline constexpr FloatFormat kE5M2{5, 2, 15, NanEncoding::kIeee, 0x7B, 0x7E};
inline constexpr FloatFormat kE3M4{3, 4, 3, NanEncoding::kIeee, 0x6F, 0x78};
inline constexpr FloatFormat kFp16{5, 10, 15, NanEncoding::kIeee, 0x7BFF, 0x7E00};
inline constexpr FloatFormat kBf16{8, 7, 127, NanEncoding::kIeee, 0x7F7F, 0x7FC0};
inline constexpr FloatFormat kFp32{8, 23, 127, NanEncoding::kIeee, 0x7F7FFFFF, 0x7FC00000};

enum class FpClass : uint8_t { kZero, kFinite, kInf, kNaN };

/* A decoded value: (-1)^negative * mant * 2^exp when finite. */
struct Unpacked {
    FpClass cls;
    bool negative;
    uint32_t mant;
    int exp;
};

template <const FloatFormat &F>
constexpr Unpacked Unpack(uint32_t bits)
{
    const bool negative = (bits & F.sign_bit()) != 0;
    const uint32_t magnitude = bits & F.magnitude_mask();
    const uint32_t exp_field = magnitude >> F.mant_bits;
    const uint32_t frac = magnitude & F.mant_mask();
    if (F.nan == NanEncoding::kIeee && exp_field == F.exp_field_max()) {
        return {frac ? FpClass::kNaN : FpClass::kInf, negative, 0, 0};
    }
    if (F.nan == NanEncoding::kAllOnesMagnitude && magnitude == F.magnitude_mask()) {
        return {FpClass::kNaN, negative, 0, 0};
    }
    const int min_quantum_exp = 1 - F.bias - int(F.mant_bits);
    if (exp_field == 0) {
        return {frac ? FpClass::kFinite : FpClass::kZero, negative, frac, min_quantum_exp};
    }
    return {FpClass::kFinite, negative, frac | (uint32_t{1} << F.mant_bits),
            int(exp_field) - F.bias - int(F.mant_bits)};
}

template <const FloatFormat &F>
constexpr uint32_t InfinityOrSaturated(bool negative)
{
    const uint32_t sign = negative ? F.sign_bit() : 0;
    return sign | (F.has_inf() ? F.inf_magnitude() : F.max_finite);
}

/*
 * Rounds (-1)^negative * m * 2^e to nearest-even at the precision of F with
 * an unbounded exponent (subnormal quantum at the bottom, no ceiling), then
 * clamps a magnitude above the largest finite value to it.  m may carry a
 * "jam" bit (see SumOfFinite) standing for nonzero bits below it, which is
 * harmless as long as it lies at least two bits below the rounding position.
 */
template <const FloatFormat &F>
constexpr uint32_t RoundToFormat(bool negative, uint64_t m, int e)
{
    const uint32_t sign = negative ? F.sign_bit() : 0;
    if (m == 0) {
        return sign;
    }
    constexpr int kMant = int(F.mant_bits);
    constexpr int kMinQuantumExp = 1 - F.bias - kMant;
    const int msb = 63 - __builtin_clzll(m);
    int quantum_exp = msb + e - kMant;
    if (quantum_exp < kMinQuantumExp) {
        quantum_exp = kMinQuantumExp;
    }
    const int shift = quantum_exp - e;
    uint64_t r = 0; /* a shift past 64 bits leaves less than half a quantum */
    if (shift <= 0) {
        r = m << -shift; /* exact: at most kMant + 1 significant bits */
    } else if (shift < 64) {
        r = m >> shift;
        const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
        const uint64_t half = uint64_t{1} << (shift - 1);
        if (rem > half || (rem == half && (r & 1))) {
            ++r;
        }
    } else if (shift == 64) {
        r = m > (uint64_t{1} << 63) ? 1 : 0; /* a tie rounds to the even 0 */
    }
    if (r == 0) {
        return sign;
    }
    if (r >> (kMant + 1)) { /* rounding carried into a new binade */
        r >>= 1;
        ++quantum_exp;
    }
    if (r < (uint64_t{1} << kMant)) {
        return sign | uint32_t(r); /* subnormal: quantum_exp is the minimum */
    }
    const int biased_exp = quantum_exp + kMant + F.bias;
    if (biased_exp > int(F.exp_field_max())) {
        return sign | F.max_finite;
    }
    uint32_t magnitude = (uint32_t(biased_exp) << kMant) | (uint32_t(r) & F.mant_mask());
    if (magnitude > F.max_finite) {
        magnitude = F.max_finite;
    }
    return sign | magnitude;
}

struct Signed {
    bool negative;
    uint64_t mant;
    int exp;
};

/* Places the leading one at bit 61, leaving room for a carry and a sign-free difference. */
constexpr Signed NormalizeTo61(Signed v)
{
    const int shift = __builtin_clzll(v.mant) - 2;
    return {v.negative, v.mant << shift, v.exp - shift};
}

/*
 * a + b for nonzero finite a, b whose mantissas are below 2^33.  After
 * normalisation the low 29 bits of both mantissas are zero, so an alignment
 * shift of up to 29 bits is exact; a larger shift can only
 * happen when the result keeps its leading one at bit 60 or 61, and then the
 * bits shifted out are "jammed" into bit 0, far below any TL format's
 * rounding position (at most 24 significant bits are kept), which makes the
 * single rounding in RoundToFormat exact-equivalent.
 */
constexpr Signed SumOfFinite(Signed a, Signed b)
{
    a = NormalizeTo61(a);
    b = NormalizeTo61(b);
    if (a.exp < b.exp) {
        const Signed t = a;
        a = b;
        b = t;
    }
    const int distance = a.exp - b.exp;
    uint64_t b_aligned = 1; /* a shift of 64 or more leaves only the jam bit */
    if (distance == 0) {
        b_aligned = b.mant;
    } else if (distance < 64) {
        const bool lost = (b.mant & ((uint64_t{1} << distance) - 1)) != 0;
        b_aligned = (b.mant >> distance) | uint64_t{lost};
    }
    if (a.negative == b.negative) {
        return {a.negative, a.mant + b_aligned, a.exp};
    }
    if (a.mant >= b_aligned) {
        /* An exact zero difference is +0 under round-to-nearest. */
        const uint64_t diff = a.mant - b_aligned;
        return {diff != 0 && a.negative, diff, a.exp};
    }
    return {b.negative, b_aligned - a.mant, a.exp};
}

/* tl.addi on one element: bits + k, one rounding, saturating. */
template <const FloatFormat &F>
constexpr uint32_t AddInteger(uint32_t bits, int32_t k)
{
    const Unpacked x = Unpack<F>(bits);
    const bool k_negative = k < 0;
    const uint64_t k_magnitude = k_negative ? uint64_t(-int64_t(k)) : uint64_t(k);
    switch (x.cls) {
    case FpClass::kNaN:
        return F.canonical_nan;
    case FpClass::kInf:
        return bits; /* only formats with infinities decode one */
    case FpClass::kZero:
        /* -0 + 0 is +0, so a zero immediate always gives +0. */
        return RoundToFormat<F>(k_negative, k_magnitude, 0);
    case FpClass::kFinite:
        break;
    }
    if (k == 0) {
        return bits;
    }
    const Signed sum = SumOfFinite({x.negative, x.mant, x.exp}, {k_negative, k_magnitude, 0});
    return RoundToFormat<F>(sum.negative, sum.mant, sum.exp);
}

/* tl.muls on one element: bits * scalar (a decoded binary32), one rounding, saturating. */
template <const FloatFormat &F>
constexpr uint32_t MultiplyBy(uint32_t bits, const Unpacked &scalar)
{
    const Unpacked x = Unpack<F>(bits);
    const bool negative = x.negative != scalar.negative;
    if (x.cls == FpClass::kNaN || scalar.cls == FpClass::kNaN) {
        return F.canonical_nan;
    }
    if (x.cls == FpClass::kInf || scalar.cls == FpClass::kInf) {
        if (x.cls == FpClass::kZero || scalar.cls == FpClass::kZero) {
            return F.canonical_nan; /* inf * 0 */
        }
        return InfinityOrSaturated<F>(negative);
    }
    if (x.cls == FpClass::kZero || scalar.cls == FpClass::kZero) {
        return negative ? F.sign_bit() : 0;
    }
    /* At most 24 x 24 significant bits: the product is exact in 64 bits. */
    return RoundToFormat<F>(negative, uint64_t{x.mant} * scalar.mant, x.exp + scalar.exp);
}

} // namespace fp
} // namespace tl

#endif /* TL_FLOAT_H */
