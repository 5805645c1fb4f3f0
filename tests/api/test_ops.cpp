/*
 * Tile-API operation tests: every operation, every element type, several
 * tile shapes, random data; each result (whole TL registers, read back with
 * tl::read_register, or whole memory buffers with guards) is compared with
 * the independent scalar reference of reference.hpp.
 *
 * Built for the host backend (meson) and for riscv64 (tests/api/run.sh).
 * Usage: test_ops [--dump FILE] [--seed N]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cinttypes>
#include <cstring>
#include <vector>

#include "harness.hpp"
#include "reference.hpp"
#include "tl/tile.hpp"

using tltest::Harness;
using tltest::Rng;

namespace {

template <unsigned A, unsigned B, unsigned C>
struct Shape {
    static constexpr unsigned d0 = A, d1 = B, d2 = C;
};
using S1 = Shape<8, 2, 16>;
using S2 = Shape<32, 1, 8>;
using S3 = Shape<5, 3, 6>;

template <class E, class S, unsigned Reg>
using TileOf = tl::Tile<E, S::d0, S::d1, S::d2, Reg>;

ref::Reg dump_reg_1() { ref::Reg r(1024); tl::read_register<1>(r.data()); return r; }
template <unsigned R>
ref::Reg dump_reg() { ref::Reg r(1024); tl::read_register<R>(r.data()); return r; }

/* Random register contents; float types get a mix of raw bits and moderate values. */
template <class E>
ref::Reg random_reg(Rng &rng)
{
    ref::Reg r = rng.bytes(1024);
    const ref::Fmt *f = ref::fmt_of(E::ttype);
    if (f) {
        for (size_t n = 0; n < 8192 / E::bits; ++n) {
            if (rng.below(4) == 0) continue; /* keep raw bits: NaN, inf, subnormals, huge */
            const double v = (double(int64_t(rng.next() % 2000001)) - 1000000.0) / double(1u << rng.below(16));
            ref::set(r.data(), n, E::bits, ref::from_double(*f, v));
        }
    }
    return r;
}

void report_reg(Harness &h, const char *label, const ref::Reg &got, const ref::Reg &want, const char *what)
{
    const long d = tltest::first_diff(got.data(), want.data(), 1024);
    h.dump(label, got.data(), got.size());
    if (d < 0) {
        h.check(true, "%s", what);
    } else {
        h.check(false, "%s: register byte %ld is 0x%02x, expected 0x%02x", what, d, got[size_t(d)],
                want[size_t(d)]);
    }
}

/* Valid region with a whole number of bytes per slice prefix. */
template <class E, class S>
void random_valid(Rng &rng, unsigned v[3], bool prefix_only)
{
    v[0] = rng.range(0, S::d0);
    v[1] = rng.range(0, S::d1);
    v[2] = rng.range(0, S::d2);
    if (rng.below(4) == 0) { v[0] = S::d0; v[1] = S::d1; v[2] = S::d2; }
    if (prefix_only && v[1] > 1) v[2] = S::d2;
    if (E::bits == 4 && v[1] >= 1 && v[2] >= 1 && (((v[1] - 1) * S::d2 + v[2]) % 2)) --v[2];
}

/* ---- TLOAD ---- */
template <class E, class S>
void test_load(Harness &h, Rng &rng)
{
    using T = TileOf<E, S, 1>;
    char what[160];
    for (int iter = 0; iter < 4; ++iter) {
        const uint32_t cols = T::D1 * T::D2 + 2 * rng.below(8);
        const uint32_t rows = T::D0 + rng.below(3);
        const int64_t pitch = int64_t(cols) * E::bits / 8 + rng.below(5);
        const bool negative = rng.below(3) == 0;
        std::vector<uint8_t> mem = rng.bytes(size_t(pitch) * rows + 64);
        uint8_t *base = negative ? mem.data() + pitch * (rows - 1) : mem.data();
        const int64_t stride = negative ? -pitch : pitch;
        tl::GlobalTensor<E, 2> g(base, {rows, cols}, {stride, tl::GlobalTensor<E, 2>::elem_stride});
        unsigned v[3];
        random_valid<E, S>(rng, v, false);
        const uint32_t mask = iter % 2 ? uint32_t(rng.next()) : 0xFFFFFFFFu;
        /* Old contents must not survive. */
        tl::write_register<1>(rng.bytes(1024).data());
        T t(v[0], v[1], v[2]);
        tl::TLOAD(t, g, tl::RowMask{mask});
        ref::Reg want = ref::zero_reg();
        for (unsigned i = 0; i < v[0]; ++i) {
            if (!((mask >> i) & 1)) continue;
            const uint8_t *row = base + int64_t(i) * stride;
            for (unsigned j = 0; j < v[1]; ++j)
                for (unsigned k = 0; k < v[2]; ++k)
                    ref::set(want.data(), (size_t(i) * T::D1 + j) * T::D2 + k, E::bits,
                             ref::get(row, size_t(j) * T::D2 + k, E::bits));
        }
        std::snprintf(what, sizeof what, "TLOAD %s [%u,%u,%u] valid (%u,%u,%u) mask 0x%08" PRIx32 " stride %" PRId64,
                      E::name, T::D0, T::D1, T::D2, v[0], v[1], v[2], mask, stride);
        report_reg(h, what, dump_reg_1(), want, what);
    }
}

/* ---- TSTORE ---- */
template <class E, class S>
void test_store(Harness &h, Rng &rng)
{
    using T = TileOf<E, S, 2>;
    char what[160];
    for (int iter = 0; iter < 3; ++iter) {
        const uint32_t cols = T::D1 * T::D2 + 2 * rng.below(8);
        const uint32_t rows = T::D0 + rng.below(3);
        const int64_t pitch = int64_t(cols) * E::bits / 8 + rng.below(5);
        const bool negative = rng.below(3) == 0;
        const size_t n = size_t(pitch) * rows;
        tltest::Guarded buf(n);
        rng.fill(buf.data(), n);
        std::vector<uint8_t> want(buf.data(), buf.data() + n);
        uint8_t *base = negative ? buf.data() + pitch * (rows - 1) : buf.data();
        uint8_t *wbase = negative ? want.data() + pitch * (rows - 1) : want.data();
        const int64_t stride = negative ? -pitch : pitch;
        tl::GlobalTensor<E, 2> g(base, {rows, cols}, {stride, tl::GlobalTensor<E, 2>::elem_stride});
        const ref::Reg content = rng.bytes(1024);
        tl::write_register<2>(content.data());
        unsigned v[3];
        random_valid<E, S>(rng, v, true);
        const uint32_t mask = iter == 1 ? uint32_t(rng.next()) : 0xFFFFFFFFu;
        T t(v[0], v[1], v[2]);
        tl::TSTORE(g, t, tl::RowMask{mask});
        for (unsigned i = 0; i < v[0]; ++i) {
            if (!((mask >> i) & 1)) continue;
            uint8_t *row = wbase + int64_t(i) * stride;
            for (unsigned j = 0; j < v[1]; ++j)
                for (unsigned k = 0; k < v[2]; ++k)
                    ref::set(row, size_t(j) * T::D2 + k, E::bits,
                             ref::get(content.data(), (size_t(i) * T::D1 + j) * T::D2 + k, E::bits));
        }
        std::snprintf(what, sizeof what, "TSTORE %s [%u,%u,%u] valid (%u,%u,%u) mask 0x%08" PRIx32 " stride %" PRId64,
                      E::name, T::D0, T::D1, T::D2, v[0], v[1], v[2], mask, stride);
        h.dump(what, buf.data(), n);
        const long d = tltest::first_diff(buf.data(), want.data(), n);
        h.check(d < 0 && buf.guards_intact(), "%s%s", what,
                d >= 0 ? ": memory differs" : !buf.guards_intact() ? ": wrote outside the view" : "");
    }
}

/* ---- TADDS ---- */
template <int K, class E>
void adds_case(Harness &h, Rng &rng)
{
    using T = tl::Tile<E, 1, 1, 8192 / E::bits / 4 < 255 ? 8192 / E::bits / 4 : 128, 3>;
    using U = tl::Tile<E, 1, 1, T::D2, 4>;
    const ref::Reg src = random_reg<E>(rng);
    tl::write_register<3>(src.data());
    T a;
    U b(1, 1, 5);
    tl::TADDS<K>(b, a);
    char what[96];
    std::snprintf(what, sizeof what, "TADDS<%d> %s (whole register)", K, E::name);
    report_reg(h, what, dump_reg<4>(), ref::addi(src, E::ttype, K), what);
}
template <class E>
void test_adds(Harness &h, Rng &rng)
{
    adds_case<-128, E>(h, rng);
    adds_case<-5, E>(h, rng);
    adds_case<0, E>(h, rng);
    adds_case<1, E>(h, rng);
    adds_case<100, E>(h, rng);
    adds_case<127, E>(h, rng);
    /* In place. */
    using T = tl::Tile<E, 1, 1, 16, 5>;
    const ref::Reg src = random_reg<E>(rng);
    tl::write_register<5>(src.data());
    T t;
    tl::TADDS<-3>(t, t);
    char what[96];
    std::snprintf(what, sizeof what, "TADDS<-3> %s in place", E::name);
    report_reg(h, what, dump_reg<5>(), ref::addi(src, E::ttype, -3), what);
}

/* ---- TMULS ---- */
template <class E>
void test_muls(Harness &h, Rng &rng)
{
    using T = tl::Tile<E, 4, 1, 16, 6>;
    using U = tl::Tile<E, 4, 1, 16, 7>;
    char what[128];
    for (int iter = 0; iter < 8; ++iter) {
        const ref::Reg src = random_reg<E>(rng);
        tl::write_register<6>(src.data());
        T a;
        U b;
        uint64_t raw;
        if constexpr (E::is_float) {
            static const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, 1e30f, -1e-30f,
                                             INFINITY, -INFINITY, NAN, 1e-45f};
            float s;
            if (iter < 4) {
                s = float(int(rng.below(2001)) - 1000) / float(1u << rng.below(10));
            } else {
                s = specials[rng.below(sizeof specials / sizeof specials[0])];
            }
            tl::TMULS(b, a, s);
            raw = ref::float_bits(s);
            std::snprintf(what, sizeof what, "TMULS %s by %g (0x%08" PRIx32 ")", E::name, double(s), uint32_t(raw));
        } else {
            static const uint64_t specials[] = {0, 1, 2, 3, 255, 65536, 0xFFFFFFFFull, 0x100000001ull,
                                                ~uint64_t(0)};
            raw = iter < 4 ? rng.below(20) : specials[rng.below(sizeof specials / sizeof specials[0])];
            tl::TMULS(b, a, raw);
            std::snprintf(what, sizeof what, "TMULS %s by %" PRIu64, E::name, raw);
        }
        report_reg(h, what, dump_reg<7>(), ref::muls(src, E::ttype, raw), what);
    }
    if constexpr (E::is_float) {
        /* A NaN with payload and bits above 31 through ScalarBits. */
        const ref::Reg src = random_reg<E>(rng);
        tl::write_register<6>(src.data());
        T a;
        tl::TMULS(a, a, tl::ScalarBits{0xDEADBEEF7FC01234ull});
        std::snprintf(what, sizeof what, "TMULS %s in place by raw 0xDEADBEEF7FC01234 (NaN)", E::name);
        report_reg(h, what, dump_reg<6>(), ref::muls(src, E::ttype, 0x7FC01234u), what);
        tl::write_register<6>(src.data());
        tl::TMULS(a, a, tl::ScalarBits{0xFFFFFFFF40000000ull});
        std::snprintf(what, sizeof what, "TMULS %s by raw 0xFFFFFFFF40000000 (2.0, upper bits ignored)", E::name);
        report_reg(h, what, dump_reg<6>(), ref::muls(src, E::ttype, 0x40000000u), what);
    }
}

/* ---- TFILLPAD ---- */
template <tl::PadValue P, class E, class S>
void fillpad_case(Harness &h, Rng &rng)
{
    using T = TileOf<E, S, 8>;
    using U = TileOf<E, S, 9>;
    const ref::Reg src = rng.bytes(1024);
    tl::write_register<8>(src.data());
    unsigned v[3];
    random_valid<E, S>(rng, v, false);
    v[2] = rng.range(0, S::d2); /* fillpad has no byte restriction */
    T a(v[0], v[1], v[2]);
    U b(0, 0, 0);
    tl::TFILLPAD<P>(b, a);
    char what[128];
    std::snprintf(what, sizeof what, "TFILLPAD<%s> %s [%u,%u,%u] valid (%u,%u,%u)",
                  P == tl::PadValue::Zero ? "Zero" : P == tl::PadValue::Min ? "Min" : "Max", E::name, S::d0, S::d1,
                  S::d2, v[0], v[1], v[2]);
    ref::Reg want = ref::fillpad(src, {S::d0, S::d1, S::d2}, E::ttype, unsigned(P), {v[0], v[1], v[2]});
    report_reg(h, what, dump_reg<9>(), want, what);
    h.check(b.valid(0) == S::d0 && b.valid(1) == S::d1 && b.valid(2) == S::d2,
            "TFILLPAD %s: the destination is fully valid afterwards", E::name);
}
template <class E, class S>
void test_fillpad(Harness &h, Rng &rng)
{
    fillpad_case<tl::PadValue::Zero, E, S>(h, rng);
    fillpad_case<tl::PadValue::Min, E, S>(h, rng);
    fillpad_case<tl::PadValue::Max, E, S>(h, rng);
}

/* ---- TCONCAT / TMERGE ---- */
template <unsigned Dim, class E, class S>
void concat_case(Harness &h, Rng &rng)
{
    using A = TileOf<E, S, 10>;
    using B = TileOf<E, S, 11>;
    using O = TileOf<E, S, 12>;
    constexpr unsigned Dd = A::dim(Dim);
    const ref::Reg ra = rng.bytes(1024), rb = rng.bytes(1024);
    tl::write_register<10>(ra.data());
    tl::write_register<11>(rb.data());
    /* Masks with at most Dd bits set among the low Dd (plus junk above). */
    uint32_t m1 = 0, m2 = 0;
    unsigned n = 0;
    for (unsigned t = 0; t < Dd; ++t) {
        if (n < Dd && rng.below(2)) { m1 |= 1u << t; ++n; }
    }
    for (unsigned t = 0; t < Dd; ++t) {
        if (n < Dd && rng.below(2)) { m2 |= 1u << t; ++n; }
    }
    if (Dd < 32) {
        m1 |= uint32_t(rng.next()) & ~tl::low_mask(Dd);
        m2 |= uint32_t(rng.next()) & ~tl::low_mask(Dd);
    }
    A a;
    B b;
    O o;
    tl::TCONCAT<Dim>(o, a, b, m1, m2);
    char what[128];
    std::snprintf(what, sizeof what, "TCONCAT<%u> %s [%u,%u,%u] masks 0x%" PRIx32 " 0x%" PRIx32, Dim, E::name, S::d0,
                  S::d1, S::d2, m1, m2);
    report_reg(h, what, dump_reg<12>(), ref::concat(ra, rb, {S::d0, S::d1, S::d2}, E::bits, Dim, m1, m2), what);
    h.check(o.valid(Dim) == n, "TCONCAT<%u> %s: valid extent along Dim is %u (want %u)", Dim, E::name, o.valid(Dim), n);

    /* Valid-prefix form, in place into a source. */
    unsigned va = rng.range(0, Dd), vb = rng.range(0, Dd - va);
    unsigned sa[3] = {S::d0, S::d1, S::d2}, sb[3] = {S::d0, S::d1, S::d2};
    sa[Dim] = va;
    sb[Dim] = vb;
    A a2(sa[0], sa[1], sa[2]);
    B b2(sb[0], sb[1], sb[2]);
    tl::TCONCAT<Dim>(a2, a2, b2);
    std::snprintf(what, sizeof what, "TCONCAT<%u> %s valid prefixes %u + %u, in place", Dim, E::name, va, vb);
    report_reg(h, what, dump_reg<10>(),
               ref::concat(ra, rb, {S::d0, S::d1, S::d2}, E::bits, Dim, tl::low_mask(va), tl::low_mask(vb)), what);

    /* Merge. */
    tl::write_register<10>(ra.data());
    const uint32_t mm = uint32_t(rng.next());
    tl::TMERGE<Dim>(o, a, b, mm);
    std::snprintf(what, sizeof what, "TMERGE<%u> %s [%u,%u,%u] mask 0x%08" PRIx32, Dim, E::name, S::d0, S::d1,
                  S::d2, mm);
    report_reg(h, what, dump_reg<12>(), ref::merge(ra, rb, {S::d0, S::d1, S::d2}, E::bits, Dim, mm), what);
}
template <class E, class S>
void test_concat(Harness &h, Rng &rng)
{
    concat_case<0, E, S>(h, rng);
    concat_case<1, E, S>(h, rng);
    concat_case<2, E, S>(h, rng);
}

/* ---- TXPOSE ---- */
template <unsigned A, unsigned B, class E, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
void xpose_case(Harness &h, Rng &rng)
{
    using Lo = tl::Tile<E, 1, 1, 8 / (E::bits == 4 ? 1 : 1), 13>;
    using Hi = tl::Tile<E, 1, 1, 8, 14>;
    ref::Reg lo = rng.bytes(1024), hi = rng.bytes(1024);
    tl::write_register<13>(lo.data());
    tl::write_register<14>(hi.data());
    Lo l;
    Hi u;
    tl::TXPOSE<A, B>(l, u, tl::XposeShape<X0, X1, X2, X3>{});
    const unsigned X[4] = {X0, X1, X2, X3};
    ref::xpose(lo, hi, X, E::bits, A, B);
    char what[128];
    std::snprintf(what, sizeof what, "TXPOSE<%u,%u> %s [%u,%u,%u,%u] first half", A, B, E::name, X0, X1, X2, X3);
    report_reg(h, what, dump_reg<13>(), lo, what);
    std::snprintf(what, sizeof what, "TXPOSE<%u,%u> %s [%u,%u,%u,%u] second half", A, B, E::name, X0, X1, X2, X3);
    report_reg(h, what, dump_reg<14>(), hi, what);
}
template <class E, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
void xpose_shape(Harness &h, Rng &rng)
{
    xpose_case<0, 1, E, X0, X1, X2, X3>(h, rng);
    xpose_case<0, 2, E, X0, X1, X2, X3>(h, rng);
    xpose_case<0, 3, E, X0, X1, X2, X3>(h, rng);
    xpose_case<1, 2, E, X0, X1, X2, X3>(h, rng);
    xpose_case<3, 1, E, X0, X1, X2, X3>(h, rng);
    xpose_case<2, 3, E, X0, X1, X2, X3>(h, rng);
    xpose_case<2, 2, E, X0, X1, X2, X3>(h, rng);
}
template <class E>
void test_xpose(Harness &h, Rng &rng)
{
    constexpr unsigned N = 2048 * 8 / E::bits; /* elements */
    xpose_shape<E, 8, 16, N / 8 / 16 / 2, 2>(h, rng);
    xpose_shape<E, 2, N / 2 / 4 / 8, 4, 8>(h, rng);
    xpose_shape<E, 4, 4, 4, N / 64>(h, rng);
}

/* ---- registers ---- */
void test_registers(Harness &h, Rng &rng)
{
    const ref::Reg r = rng.bytes(1024);
    tl::write_register<31>(r.data());
    report_reg(h, "write_register/read_register tl31", dump_reg<31>(), r, "write_register/read_register tl31 round trip");
    report_reg(h, "read_register tl0", dump_reg<0>(), ref::zero_reg(), "read_register tl0 is all zero");
}

/* ---- GlobalTensor views (address arithmetic only) ---- */
void test_views(Harness &h)
{
    static uint8_t buf[2 * 3 * 4 * 5 * 2];
    tl::GlobalTensor<tl::fp16, 4> t(buf, {2, 3, 4, 5});
    bool ok = t.is_dense() && t.stride(0) == 120 && t.stride(1) == 40 && t.stride(2) == 10 && t.stride(3) == 2;
    h.check(ok, "GlobalTensor dense strides [2,3,4,5] fp16 = 120, 40, 10, 2");
    auto s = t.select(1, 2);
    ok = s.shape(0) == 2 && s.shape(1) == 4 && s.shape(2) == 5 && s.data() == buf + 80 && !s.is_dense();
    h.check(ok, "GlobalTensor::select(1, 2)");
    auto f = t.select(0, 1).flatten(1);
    ok = f.shape(0) == 3 && f.shape(1) == 20 && f.stride(0) == 40 && f.data() == buf + 120;
    h.check(ok, "GlobalTensor::flatten");
    auto r = t.slice(2, 3, 3, -1);
    ok = r.shape(2) == 3 && r.stride(2) == -10 && r.data() == buf + 30 &&
         r.ptr({1, 2, 2, 4}) == buf + 120 + 80 + 10 + 8;
    h.check(ok, "GlobalTensor::slice with step -1 and ptr()");
    auto m = t.reshape<2>({6, 20});
    ok = m.shape(0) == 6 && m.stride(0) == 40 && m.sub(2, 4, 3, 10).data() == buf + 80 + 8;
    h.check(ok, "GlobalTensor::reshape and sub");
    tl::GlobalTensor<tl::int4, 2> q(buf, {4, 6});
    ok = q.stride(0) == 3 && q.ptr({2, 4}) == buf + 6 + 2 && q.is_dense();
    h.check(ok, "GlobalTensor int4 packed rows");
}

/* Rank-1 views: one row of up to D2 elements. */
void test_rank1(Harness &h, Rng &rng)
{
    std::vector<uint8_t> a = rng.bytes(40);
    tltest::Guarded b(40);
    std::vector<uint8_t> want(b.data(), b.data() + 40);
    std::memcpy(want.data() + 3, a.data() + 3, 33);
    tl::Tile<tl::int8, 1, 1, 48, 15> t(1, 1, 33);
    tl::TLOAD(t, tl::GlobalTensor<tl::int8, 1>(a.data() + 3, {33}));
    tl::TSTORE(tl::GlobalTensor<tl::int8, 1>(b.data() + 3, {33}), t);
    h.dump("rank-1", b.data(), 40);
    h.check(!std::memcmp(b.data(), want.data(), 40) && b.guards_intact(),
            "TLOAD/TSTORE of a rank-1 GlobalTensor (33 of 48 elements valid)");
}

template <class E>
void test_type(Harness &h, Rng &rng)
{
    test_load<E, S1>(h, rng);
    test_load<E, S2>(h, rng);
    test_load<E, S3>(h, rng);
    test_store<E, S1>(h, rng);
    test_store<E, S2>(h, rng);
    test_store<E, S3>(h, rng);
    test_adds<E>(h, rng);
    test_muls<E>(h, rng);
    test_fillpad<E, S1>(h, rng);
    test_fillpad<E, S3>(h, rng);
    test_concat<E, S1>(h, rng);
    test_concat<E, S2>(h, rng);
    test_concat<E, S3>(h, rng);
    test_xpose<E>(h, rng);
}

} // namespace

int main(int argc, char **argv)
{
    Harness h(argc, argv);
    Rng rng(h.seed);
    std::printf("# tile API operation tests, backend %s, seed %" PRIu64 "\n", tl::backend::name(), h.seed);
    test_views(h);
    test_registers(h, rng);
    test_rank1(h, rng);
    test_type<tl::int4>(h, rng);
    test_type<tl::int8>(h, rng);
    test_type<tl::int16>(h, rng);
    test_type<tl::int32>(h, rng);
    test_type<tl::e2m1>(h, rng);
    test_type<tl::e4m3>(h, rng);
    test_type<tl::e5m2>(h, rng);
    test_type<tl::e3m4>(h, rng);
    test_type<tl::fp16>(h, rng);
    test_type<tl::bf16>(h, rng);
    test_type<tl::fp32>(h, rng);
    return h.finish();
}
