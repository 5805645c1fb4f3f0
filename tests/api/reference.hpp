/*
 * Scalar reference implementations for the tile-API tests, written from
 * docs/isa.md independently of the semantic core (never call tl_core to get
 * an expected value):
 *  - element access in packed little-endian byte buffers (4..32 bits);
 *  - the float formats of docs/isa.md 3.3: decode to double, round a double
 *    once to nearest-even with saturation (5.9), the tl.addi / tl.muls rules;
 *  - per-instruction register semantics (load/store/fillpad/concat/merge/xpose);
 *  - plain loops for every kernel of kernels/.
 * Double arithmetic is exact for every product and sum used here (see
 * fp_addi / fp_muls), so one rounding of the double gives the exact result.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_API_TEST_REFERENCE_HPP
#define TL_API_TEST_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ref {

/* ---- elements ---- */
inline uint32_t get(const uint8_t *buf, size_t n, unsigned bits)
{
    switch (bits) {
    case 4: return (buf[n / 2] >> (4 * (n % 2))) & 0xFu;
    case 8: return buf[n];
    case 16: return uint32_t(buf[2 * n]) | uint32_t(buf[2 * n + 1]) << 8;
    default:
        return uint32_t(buf[4 * n]) | uint32_t(buf[4 * n + 1]) << 8 | uint32_t(buf[4 * n + 2]) << 16 |
               uint32_t(buf[4 * n + 3]) << 24;
    }
}
inline void set(uint8_t *buf, size_t n, unsigned bits, uint32_t v)
{
    switch (bits) {
    case 4: {
        const unsigned sh = 4 * (n % 2);
        buf[n / 2] = uint8_t((buf[n / 2] & ~(0xFu << sh)) | ((v & 0xFu) << sh));
        break;
    }
    case 8: buf[n] = uint8_t(v); break;
    case 16:
        buf[2 * n] = uint8_t(v);
        buf[2 * n + 1] = uint8_t(v >> 8);
        break;
    default:
        for (int i = 0; i < 4; ++i) buf[4 * n + i] = uint8_t(v >> (8 * i));
    }
}

/* ---- float formats (docs/isa.md 3.3) ---- */
enum class NanKind { Ieee, FnOnly, None };
struct Fmt {
    const char *name;
    unsigned ttype, bits, ebits, mbits;
    int bias;
    bool has_inf;
    NanKind nan;
    uint32_t canon_nan; /* E2M1: the result of a NaN, +0 */
    uint32_t max_bits;
};
constexpr Fmt kE2M1{"e2m1", 0x010, 4, 2, 1, 1, false, NanKind::None, 0x0, 0x7};
constexpr Fmt kE4M3{"e4m3", 0x040, 8, 4, 3, 7, false, NanKind::FnOnly, 0x7F, 0x7E};
constexpr Fmt kE5M2{"e5m2", 0x080, 8, 5, 2, 15, true, NanKind::Ieee, 0x7E, 0x7B};
constexpr Fmt kE3M4{"e3m4", 0x0C0, 8, 3, 4, 3, true, NanKind::Ieee, 0x78, 0x6F};
constexpr Fmt kFp16{"fp16", 0x100, 16, 5, 10, 15, true, NanKind::Ieee, 0x7E00, 0x7BFF};
constexpr Fmt kBf16{"bf16", 0x200, 16, 8, 7, 127, true, NanKind::Ieee, 0x7FC0, 0x7F7F};
constexpr Fmt kFp32{"fp32", 0x400, 32, 8, 23, 127, true, NanKind::Ieee, 0x7FC00000, 0x7F7FFFFF};

inline const Fmt *fmt_of(unsigned ttype)
{
    static const Fmt *all[] = {&kE2M1, &kE4M3, &kE5M2, &kE3M4, &kFp16, &kBf16, &kFp32};
    for (const Fmt *f : all) {
        if (f->ttype == ttype) return f;
    }
    return nullptr;
}

struct Value {
    bool nan = false, inf = false, neg = false;
    double mag = 0; /* |value| when finite */
};

inline Value decode(const Fmt &f, uint32_t bits)
{
    Value v;
    const uint32_t emax = (1u << f.ebits) - 1, mmask = (1u << f.mbits) - 1;
    v.neg = (bits >> (f.bits - 1)) & 1;
    const uint32_t e = (bits >> f.mbits) & emax, m = bits & mmask;
    if (f.nan == NanKind::Ieee && e == emax) {
        (m ? v.nan : v.inf) = true;
        return v;
    }
    if (f.nan == NanKind::FnOnly && e == emax && m == mmask) {
        v.nan = true;
        return v;
    }
    if (e == 0) {
        v.mag = std::ldexp(double(m), 1 - f.bias - int(f.mbits));
    } else {
        v.mag = std::ldexp(double(m | (1u << f.mbits)), int(e) - f.bias - int(f.mbits));
    }
    return v;
}

inline double max_finite(const Fmt &f) { return decode(f, f.max_bits).mag; }
inline uint32_t sign_bit(const Fmt &f, bool neg) { return neg ? 1u << (f.bits - 1) : 0u; }

/* Encodes a magnitude that is exactly representable (0 < r <= max finite). */
inline uint32_t encode_exact(const Fmt &f, double r)
{
    const int emin = 1 - f.bias;
    int ex;
    std::frexp(r, &ex);
    const int E = ex - 1;
    if (E < emin) {
        return uint32_t(std::ldexp(r, f.mbits - emin));
    }
    const uint32_t m = uint32_t(std::ldexp(r, int(f.mbits) - E)) - (1u << f.mbits);
    return (uint32_t(E + f.bias) << f.mbits) | m;
}

/* Rounds |exact value| a once, nearest-even, unbounded exponent, then saturates. */
inline uint32_t round_to(const Fmt &f, double a, bool neg)
{
    if (a == 0) return sign_bit(f, neg);
    const int emin = 1 - f.bias;
    int ex;
    std::frexp(a, &ex);
    int E = ex - 1;
    if (E < emin) E = emin;
    const double n = std::nearbyint(std::ldexp(a, int(f.mbits) - E)); /* ties to even */
    double r = std::ldexp(n, E - int(f.mbits));
    if (r > max_finite(f)) r = max_finite(f);
    if (r == 0) return sign_bit(f, neg);
    return sign_bit(f, neg) | encode_exact(f, r);
}

inline uint32_t nan_result(const Fmt &f) { return f.canon_nan; }
inline uint32_t inf_result(const Fmt &f, bool neg)
{
    return sign_bit(f, neg) | (f.has_inf ? ((1u << f.ebits) - 1) << f.mbits : f.max_bits);
}

/*
 * tl.addi on one float element.  x + k is exact in double when the operands'
 * bits span at most 53 positions; otherwise one operand is far below half an
 * ulp of the other in every TL format and both roundings give the same value.
 */
inline uint32_t fp_addi(const Fmt &f, uint32_t x, int k)
{
    const Value v = decode(f, x);
    if (v.nan) return nan_result(f);
    if (v.inf) return inf_result(f, v.neg);
    const double s = (v.neg ? -v.mag : v.mag) + double(k);
    return round_to(f, std::fabs(s), s < 0); /* a zero sum gives +0 */
}

/* tl.muls on one float element; s = binary32 bits.  Products are exact in double (<= 48 bits). */
inline uint32_t fp_muls(const Fmt &f, uint32_t x, uint32_t sbits)
{
    const Value v = decode(f, x), s = decode(kFp32, sbits);
    const bool neg = v.neg != s.neg;
    if (v.nan || s.nan) return nan_result(f);
    if ((v.inf && !s.inf && s.mag == 0) || (s.inf && !v.inf && v.mag == 0)) return nan_result(f);
    if (v.inf || s.inf) return inf_result(f, neg);
    return round_to(f, v.mag * s.mag, neg);
}

inline uint32_t float_bits(float x)
{
    uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
}

/* A double rounded to a format, for building test data and scalars. */
inline uint32_t from_double(const Fmt &f, double x) { return round_to(f, std::fabs(x), std::signbit(x)); }

/* ---- integer arithmetic (unsigned, saturating) ---- */
inline uint32_t int_addi(unsigned bits, uint32_t x, int k)
{
    const int64_t max = (int64_t(1) << bits) - 1;
    int64_t r = int64_t(x) + k;
    return uint32_t(r < 0 ? 0 : r > max ? max : r);
}
inline uint32_t int_muls(unsigned bits, uint32_t x, uint64_t s)
{
    const uint64_t max = (uint64_t(1) << bits) - 1;
    if (x == 0 || s == 0) return 0;
    if (s > max / x) return uint32_t(max);
    return uint32_t(std::min<uint64_t>(uint64_t(x) * s, max));
}

/* ---- register semantics (docs/isa.md 5) ---- */
using Reg = std::vector<uint8_t>; /* 1024 bytes */
inline Reg zero_reg() { return Reg(1024, 0); }

struct Shape3 {
    unsigned d0, d1, d2;
};

inline unsigned ttype_bits(unsigned ttype)
{
    switch (ttype) {
    case 0x001: case 0x010: return 4;
    case 0x002: case 0x040: case 0x080: case 0x0C0: return 8;
    case 0x004: case 0x100: case 0x200: return 16;
    default: return 32;
    }
}

/* tl.mload with W bytes per slice, pitch P, mask M. */
inline Reg load(const uint8_t *base, Shape3 s, unsigned bits, uint32_t W, int64_t P, uint32_t M)
{
    Reg r = zero_reg();
    const uint32_t S = s.d1 * s.d2 * bits / 8;
    for (unsigned i = 0; i < s.d0; ++i) {
        if (!((M >> i) & 1)) continue;
        for (uint32_t b = 0; b < W; ++b) r[i * S + b] = base[int64_t(i) * P + b];
    }
    return r;
}
inline void store(uint8_t *base, const Reg &r, Shape3 s, unsigned bits, uint32_t W, int64_t P, uint32_t M)
{
    const uint32_t S = s.d1 * s.d2 * bits / 8;
    for (unsigned i = 0; i < s.d0; ++i) {
        if (!((M >> i) & 1)) continue;
        for (uint32_t b = 0; b < W; ++b) base[int64_t(i) * P + b] = r[i * S + b];
    }
}

inline uint32_t pad_value(unsigned ttype, unsigned pp)
{
    /* docs/isa.md 5.6 table: {zero, min, max} */
    switch (ttype) {
    case 0x001: return pp == 2 ? 0xF : 0;
    case 0x002: return pp == 2 ? 0xFF : 0;
    case 0x004: return pp == 2 ? 0xFFFF : 0;
    case 0x008: return pp == 2 ? 0xFFFFFFFFu : 0;
    case 0x010: return pp == 0 ? 0 : pp == 1 ? 0xF : 0x7;
    case 0x040: return pp == 0 ? 0 : pp == 1 ? 0xFE : 0x7E;
    case 0x080: return pp == 0 ? 0 : pp == 1 ? 0xFC : 0x7C;
    case 0x0C0: return pp == 0 ? 0 : pp == 1 ? 0xF0 : 0x70;
    case 0x100: return pp == 0 ? 0 : pp == 1 ? 0xFC00 : 0x7C00;
    case 0x200: return pp == 0 ? 0 : pp == 1 ? 0xFF80 : 0x7F80;
    default: return pp == 0 ? 0 : pp == 1 ? 0xFF800000u : 0x7F800000u;
    }
}

inline Reg fillpad(const Reg &src, Shape3 s, unsigned ttype, unsigned pp, Shape3 v)
{
    const unsigned bits = ttype_bits(ttype);
    Reg out = zero_reg();
    for (unsigned i = 0; i < s.d0; ++i)
        for (unsigned j = 0; j < s.d1; ++j)
            for (unsigned k = 0; k < s.d2; ++k) {
                const size_t n = (size_t(i) * s.d1 + j) * s.d2 + k;
                const bool in = i < v.d0 && j < v.d1 && k < v.d2;
                set(out.data(), n, bits, in ? get(src.data(), n, bits) : pad_value(ttype, pp));
            }
    return out;
}

inline Reg concat(const Reg &a, const Reg &b, Shape3 s, unsigned bits, unsigned d, uint32_t m1, uint32_t m2)
{
    const unsigned D[3] = {s.d0, s.d1, s.d2};
    std::vector<std::pair<const Reg *, unsigned>> picks;
    for (unsigned t = 0; t < D[d]; ++t)
        if ((m1 >> t) & 1) picks.push_back({&a, t});
    for (unsigned t = 0; t < D[d]; ++t)
        if ((m2 >> t) & 1) picks.push_back({&b, t});
    Reg out = zero_reg();
    for (unsigned i = 0; i < s.d0; ++i)
        for (unsigned j = 0; j < s.d1; ++j)
            for (unsigned k = 0; k < s.d2; ++k) {
                unsigned idx[3] = {i, j, k};
                const unsigned t = idx[d];
                if (t >= picks.size()) continue;
                unsigned sidx[3] = {i, j, k};
                sidx[d] = picks[t].second;
                const size_t n = (size_t(i) * s.d1 + j) * s.d2 + k;
                const size_t sn = (size_t(sidx[0]) * s.d1 + sidx[1]) * s.d2 + sidx[2];
                set(out.data(), n, bits, get(picks[t].first->data(), sn, bits));
            }
    return out;
}

inline Reg merge(const Reg &a, const Reg &b, Shape3 s, unsigned bits, unsigned d, uint32_t m)
{
    Reg out = zero_reg();
    for (unsigned i = 0; i < s.d0; ++i)
        for (unsigned j = 0; j < s.d1; ++j)
            for (unsigned k = 0; k < s.d2; ++k) {
                const unsigned idx[3] = {i, j, k};
                const size_t n = (size_t(i) * s.d1 + j) * s.d2 + k;
                set(out.data(), n, bits, get(((m >> idx[d]) & 1) ? a.data() : b.data(), n, bits));
            }
    return out;
}

/* tl.xpose on the 2048 bytes lo ++ hi, shape X, swapping dims p and q. */
inline void xpose(Reg &lo, Reg &hi, const unsigned X[4], unsigned bits, unsigned p, unsigned q)
{
    std::vector<uint8_t> src(2048), dst(2048, 0);
    std::memcpy(src.data(), lo.data(), 1024);
    std::memcpy(src.data() + 1024, hi.data(), 1024);
    unsigned Y[4] = {X[0], X[1], X[2], X[3]};
    Y[p] = X[q];
    Y[q] = X[p];
    for (unsigned a = 0; a < X[0]; ++a)
        for (unsigned b = 0; b < X[1]; ++b)
            for (unsigned c = 0; c < X[2]; ++c)
                for (unsigned e = 0; e < X[3]; ++e) {
                    unsigned idx[4] = {a, b, c, e};
                    unsigned o[4] = {a, b, c, e};
                    o[p] = idx[q];
                    o[q] = idx[p];
                    const size_t n = ((size_t(a) * X[1] + b) * X[2] + c) * X[3] + e;
                    const size_t on = ((size_t(o[0]) * Y[1] + o[1]) * Y[2] + o[2]) * Y[3] + o[3];
                    set(dst.data(), on, bits, get(src.data(), n, bits));
                }
    std::memcpy(lo.data(), dst.data(), 1024);
    std::memcpy(hi.data(), dst.data() + 1024, 1024);
}

/* Whole-register arithmetic. */
inline Reg addi(const Reg &src, unsigned ttype, int k)
{
    const unsigned bits = ttype_bits(ttype);
    const Fmt *f = fmt_of(ttype);
    Reg out = zero_reg();
    for (size_t n = 0; n < 8192 / bits; ++n) {
        const uint32_t x = get(src.data(), n, bits);
        set(out.data(), n, bits, f ? fp_addi(*f, x, k) : int_addi(bits, x, k));
    }
    return out;
}
inline Reg muls(const Reg &src, unsigned ttype, uint64_t s)
{
    const unsigned bits = ttype_bits(ttype);
    const Fmt *f = fmt_of(ttype);
    Reg out = zero_reg();
    for (size_t n = 0; n < 8192 / bits; ++n) {
        const uint32_t x = get(src.data(), n, bits);
        set(out.data(), n, bits, f ? fp_muls(*f, x, uint32_t(s)) : int_muls(bits, x, s));
    }
    return out;
}

/* ---- kernels ---- */

/* Dense row-major R x C -> C x R. */
inline void transpose2d(uint8_t *dst, const uint8_t *src, uint32_t R, uint32_t C, unsigned bits)
{
    for (uint32_t r = 0; r < R; ++r)
        for (uint32_t c = 0; c < C; ++c) set(dst, size_t(c) * R + r, bits, get(src, size_t(r) * C + c, bits));
}

/* [N, C, H, W] -> [N, H, W, C] */
inline void nchw_to_nhwc(uint8_t *dst, const uint8_t *src, uint32_t N, uint32_t C, uint32_t H, uint32_t W,
                         unsigned bits)
{
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t c = 0; c < C; ++c)
            for (uint32_t h = 0; h < H; ++h)
                for (uint32_t w = 0; w < W; ++w)
                    set(dst, ((size_t(n) * H + h) * W + w) * C + c, bits,
                        get(src, ((size_t(n) * C + c) * H + h) * W + w, bits));
}
/* [N, H, W, C] -> [N, C, H, W] */
inline void nhwc_to_nchw(uint8_t *dst, const uint8_t *src, uint32_t N, uint32_t C, uint32_t H, uint32_t W,
                         unsigned bits)
{
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t c = 0; c < C; ++c)
            for (uint32_t h = 0; h < H; ++h)
                for (uint32_t w = 0; w < W; ++w)
                    set(dst, ((size_t(n) * C + c) * H + h) * W + w, bits,
                        get(src, ((size_t(n) * H + h) * W + w) * C + c, bits));
}

/* [C, H, W] -> [C*9, H*W], 3x3 window, padding 1 with value pad. */
inline void im2col3x3(uint8_t *out, const uint8_t *in, uint32_t C, uint32_t H, uint32_t W, unsigned bits,
                      uint32_t pad)
{
    for (uint32_t c = 0; c < C; ++c)
        for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw)
                for (uint32_t oh = 0; oh < H; ++oh)
                    for (uint32_t ow = 0; ow < W; ++ow) {
                        const int ih = int(oh) + kh - 1, iw = int(ow) + kw - 1;
                        const bool inside = ih >= 0 && ih < int(H) && iw >= 0 && iw < int(W);
                        const uint32_t v =
                            inside ? get(in, (size_t(c) * H + uint32_t(ih)) * W + uint32_t(iw), bits) : pad;
                        set(out, (size_t(c) * 9 + uint32_t(kh * 3 + kw)) * H * W + size_t(oh) * W + ow, bits, v);
                    }
}

/* Concatenation along the innermost dimension: out [P, C1+C2]. */
inline void concat_cols(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t P, uint32_t C1, uint32_t C2,
                        unsigned bits)
{
    for (uint32_t p = 0; p < P; ++p) {
        for (uint32_t c = 0; c < C1; ++c) set(out, size_t(p) * (C1 + C2) + c, bits, get(a, size_t(p) * C1 + c, bits));
        for (uint32_t c = 0; c < C2; ++c)
            set(out, size_t(p) * (C1 + C2) + C1 + c, bits, get(b, size_t(p) * C2 + c, bits));
    }
}

/* Concatenation of [N, C1, L] and [N, C2, L] along dimension 1. */
inline void concat_mid(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t N, uint32_t C1, uint32_t C2,
                       uint32_t L, unsigned bits)
{
    for (uint32_t n = 0; n < N; ++n) {
        for (uint32_t c = 0; c < C1 + C2; ++c)
            for (uint32_t l = 0; l < L; ++l) {
                const uint32_t v = c < C1 ? get(a, (size_t(n) * C1 + c) * L + l, bits)
                                          : get(b, (size_t(n) * C2 + (c - C1)) * L + l, bits);
                set(out, (size_t(n) * (C1 + C2) + c) * L + l, bits, v);
            }
    }
}

/* Gather of a strided view (byte strides; innermost stride = element) into dense memory. */
inline void gather(uint8_t *dst, const uint8_t *base, const uint32_t *shape, const int64_t *stride, unsigned rank,
                   unsigned bits)
{
    uint32_t idx[4] = {0, 0, 0, 0};
    size_t total = 1;
    for (unsigned d = 0; d < rank; ++d) total *= shape[d];
    for (size_t n = 0; n < total; ++n) {
        size_t rem = n;
        for (int d = int(rank) - 1; d >= 0; --d) {
            idx[d] = uint32_t(rem % shape[d]);
            rem /= shape[d];
        }
        int64_t off = 0;
        for (unsigned d = 0; d + 1 < rank; ++d) off += int64_t(idx[d]) * stride[d];
        const uint8_t *row = base + off;
        set(dst, n, bits, get(row, idx[rank - 1], bits));
    }
}

} // namespace ref

#endif /* TL_API_TEST_REFERENCE_HPP */
