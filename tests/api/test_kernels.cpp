/*
 * Kernel tests: every kernel of kernels/ on random inputs and sizes (with
 * edge tiles), compared with the plain scalar loops of reference.hpp.
 * Output buffers carry guard bytes: a kernel must not write outside them.
 *
 * Built for the host backend (meson) and for riscv64 (tests/api/run.sh).
 * Usage: test_kernels [--dump FILE] [--seed N]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cinttypes>
#include <cstring>
#include <vector>

#include "harness.hpp"
#include "reference.hpp"
#include "tl/tile.hpp"
#include "tl_kernels.hpp"

using tltest::Guarded;
using tltest::Harness;
using tltest::Rng;

namespace {

/* Random element data; floats are mostly moderate values, some raw bit patterns. */
template <class E>
std::vector<uint8_t> random_data(Rng &rng, size_t elements, bool raw_floats = true)
{
    std::vector<uint8_t> v = rng.bytes((elements * E::bits + 7) / 8);
    const ref::Fmt *f = ref::fmt_of(E::ttype);
    if (f) {
        for (size_t n = 0; n < elements; ++n) {
            if (raw_floats && rng.below(8) == 0) continue;
            const double x = (double(int64_t(rng.next() % 200001)) - 100000.0) / double(1u << rng.below(12));
            ref::set(v.data(), n, E::bits, ref::from_double(*f, x));
        }
    }
    return v;
}

bool compare(Harness &h, const char *label, const Guarded &got, const std::vector<uint8_t> &want)
{
    h.dump(label, got.data(), got.size());
    const long d = tltest::first_diff(got.data(), want.data(), want.size());
    if (d >= 0) {
        return h.check(false, "%s: byte %ld is 0x%02x, expected 0x%02x", label, d, got.data()[d],
                       want[size_t(d)]);
    }
    if (!got.guards_intact()) {
        return h.check(false, "%s: wrote outside the output", label);
    }
    return h.check(true, "%s", label);
}

/* ---- 2-D transpose ---- */
template <class E>
void transpose_case(Harness &h, Rng &rng, uint32_t R, uint32_t C, bool view)
{
    /* Optionally a window of a larger matrix: extra rows/cols around it. */
    const uint32_t er = view ? 2 * rng.below(3) : 0, ec = view ? 2 * rng.below(4) : 0;
    const uint32_t PR = R + er, PC = C + ec;
    std::vector<uint8_t> big = random_data<E>(rng, size_t(PR) * PC);
    tl::GlobalTensor<E, 2> whole(big.data(), {PR, PC});
    tl::GlobalTensor<E, 2> src = whole.sub(er / 2, ec ? 2 : 0, R, C);
    /* The reference works on a dense copy of the window. */
    std::vector<uint8_t> dense((size_t(R) * C * E::bits + 7) / 8);
    const uint32_t shape[2] = {R, C};
    const int64_t strides[2] = {src.stride(0), src.stride(1)};
    ref::gather(dense.data(), src.data(), shape, strides, 2, E::bits);
    std::vector<uint8_t> want(dense.size());
    ref::transpose2d(want.data(), dense.data(), R, C, E::bits);
    Guarded out(want.size());
    tl::kernels::transpose2d<E>(tl::GlobalTensor<E, 2>(out.data(), {C, R}), src);
    char label[96];
    std::snprintf(label, sizeof label, "transpose2d %s %ux%u%s", E::name, R, C, view ? " (window of a larger matrix)" : "");
    compare(h, label, out, want);
}
template <class E>
void test_transpose(Harness &h, Rng &rng)
{
    const bool even = E::bits == 4;
    const uint32_t sizes[][2] = {{1, 1}, {2, 2}, {31, 65}, {32, 64}, {33, 63}, {100, 7}, {7, 100}, {64, 64}, {96, 130}};
    for (auto &s : sizes) {
        uint32_t R = s[0], C = s[1];
        if (even) { R += R % 2; C += C % 2; }
        transpose_case<E>(h, rng, R, C, false);
    }
    for (int i = 0; i < 3; ++i) {
        uint32_t R = rng.range(1, 150), C = rng.range(1, 150);
        if (even) { R += R % 2; C += C % 2; }
        transpose_case<E>(h, rng, R, C, true);
    }
}

/* ---- NCHW <-> NHWC ---- */
template <class E>
void test_layout(Harness &h, Rng &rng)
{
    const uint32_t dims[][4] = {{1, 3, 5, 7}, {2, 16, 8, 8}, {2, 40, 3, 11}, {1, 1, 1, 1}};
    for (int i = 0; i < 5; ++i) {
        uint32_t N, C, H, W;
        if (i < 4) {
            N = dims[i][0]; C = dims[i][1]; H = dims[i][2]; W = dims[i][3];
        } else {
            N = rng.range(1, 3); C = rng.range(1, 70); H = rng.range(1, 12); W = rng.range(1, 12);
        }
        const size_t n = size_t(N) * C * H * W;
        std::vector<uint8_t> x = random_data<E>(rng, n);
        std::vector<uint8_t> want(x.size());
        ref::nchw_to_nhwc(want.data(), x.data(), N, C, H, W, E::bits);
        Guarded y(x.size());
        tl::kernels::nchw_to_nhwc<E>(tl::GlobalTensor<E, 4>(y.data(), {N, H, W, C}),
                                     tl::GlobalTensor<E, 4>(x.data(), {N, C, H, W}));
        char label[96];
        std::snprintf(label, sizeof label, "nchw_to_nhwc %s N=%u C=%u H=%u W=%u", E::name, N, C, H, W);
        compare(h, label, y, want);
        /* And back. */
        Guarded z(x.size());
        tl::kernels::nhwc_to_nchw<E>(tl::GlobalTensor<E, 4>(z.data(), {N, C, H, W}),
                                     tl::GlobalTensor<E, 4>(y.data(), {N, H, W, C}));
        std::snprintf(label, sizeof label, "nhwc_to_nchw %s N=%u C=%u H=%u W=%u (round trip)", E::name, N, C, H, W);
        compare(h, label, z, x);
    }
}

/* ---- im2col ---- */
template <class E, tl::PadValue P>
void test_im2col(Harness &h, Rng &rng)
{
    /* up to 32 x 32 (int8) or 32 x 16 (16-bit): one image per register; larger: tiles */
    const uint32_t dims[][3] = {{1, 1, 1},   {2, 5, 5},   {1, 16, 32}, {1, 17, 33}, {3, 20, 40},
                                {1, 40, 3},  {2, 32, 32}, {2, 32, 16}, {1, 32, 1},  {2, 1, 16}};
    constexpr int kFixed = sizeof(dims) / sizeof(dims[0]);
    for (int i = 0; i < kFixed + 1; ++i) {
        uint32_t C, H, W;
        if (i < kFixed) {
            C = dims[i][0]; H = dims[i][1]; W = dims[i][2];
        } else {
            C = rng.range(1, 3); H = rng.range(1, 50); W = rng.range(1, 70);
        }
        std::vector<uint8_t> x = random_data<E>(rng, size_t(C) * H * W);
        std::vector<uint8_t> want(size_t(C) * 9 * H * W * E::bits / 8);
        ref::im2col3x3(want.data(), x.data(), C, H, W, E::bits, ref::pad_value(E::ttype, unsigned(P)));
        Guarded out(want.size());
        tl::kernels::im2col3x3<E, P>(tl::GlobalTensor<E, 2>(out.data(), {C * 9, H * W}),
                                     tl::GlobalTensor<E, 3>(x.data(), {C, H, W}));
        char label[96];
        std::snprintf(label, sizeof label, "im2col3x3 %s pad %s C=%u H=%u W=%u", E::name,
                      P == tl::PadValue::Zero ? "zero" : P == tl::PadValue::Min ? "min" : "max", C, H, W);
        compare(h, label, out, want);
    }
}

/* ---- channel concat ---- */
template <class E>
void test_concat(Harness &h, Rng &rng)
{
    const bool even = E::bits == 4;
    const uint32_t cs[][2] = {{3, 5}, {16, 16}, {1, 31}, {20, 30}, {64, 8}};
    for (auto &c : cs) {
        const uint32_t N = rng.range(1, 2), H = rng.range(1, 9), W = rng.range(1, 9) * (even ? 2 : 1);
        uint32_t C1 = c[0] + (even ? c[0] % 2 : 0), C2 = c[1] + (even ? c[1] % 2 : 0);
        const size_t px = size_t(N) * H * W;
        std::vector<uint8_t> a = random_data<E>(rng, px * C1), b = random_data<E>(rng, px * C2);
        std::vector<uint8_t> want(px * (C1 + C2) * E::bits / 8);
        char label[96];
        /* NHWC: concatenate the innermost dimension. */
        ref::concat_cols(want.data(), a.data(), b.data(), uint32_t(px), C1, C2, E::bits);
        Guarded out(want.size());
        tl::kernels::concat_channels_nhwc<E>(tl::GlobalTensor<E, 4>(out.data(), {N, H, W, C1 + C2}),
                                             tl::GlobalTensor<E, 4>(a.data(), {N, H, W, C1}),
                                             tl::GlobalTensor<E, 4>(b.data(), {N, H, W, C2}));
        std::snprintf(label, sizeof label, "concat_channels_nhwc %s N=%u H=%u W=%u C=%u+%u%s", E::name, N, H, W, C1,
                      C2, C1 + C2 <= 32 ? " (tl.concat.2)" : " (strided copies)");
        compare(h, label, out, want);
        /* NCHW: concatenate dimension 1. */
        ref::concat_mid(want.data(), a.data(), b.data(), N, C1, C2, H * W, E::bits);
        Guarded out2(want.size());
        tl::kernels::concat_channels_nchw<E>(tl::GlobalTensor<E, 4>(out2.data(), {N, C1 + C2, H, W}),
                                             tl::GlobalTensor<E, 4>(a.data(), {N, C1, H, W}),
                                             tl::GlobalTensor<E, 4>(b.data(), {N, C2, H, W}));
        std::snprintf(label, sizeof label, "concat_channels_nchw %s N=%u H=%u W=%u C=%u+%u%s", E::name, N, H, W, C1,
                      C2, C1 + C2 <= 32 ? " (tl.concat.0)" : " (copies)");
        compare(h, label, out2, want);
    }
}

/*
 * NHWC concat of equal channel counts over several 2 KiB interleave blocks
 * with pixels left after them, and of views whose batch dimension is one
 * image taken with a step (a stride that is not the pixels' own).
 */
void test_concat_nhwc_blocks(Harness &h, Rng &rng)
{
    using E = tl::int8;
    struct Case {
        uint32_t N, H, W, C;
    };
    const Case cases[] = {{1, 16, 20, 16}, {2, 5, 13, 8}, {1, 9, 31, 32}, {3, 4, 16, 64}};
    for (const Case &c : cases) {
        const size_t px = size_t(c.N) * c.H * c.W;
        std::vector<uint8_t> a = random_data<E>(rng, px * c.C), b = random_data<E>(rng, px * c.C);
        std::vector<uint8_t> want(px * 2 * c.C);
        ref::concat_cols(want.data(), a.data(), b.data(), uint32_t(px), c.C, c.C, 8);
        Guarded out(want.size());
        tl::kernels::concat_channels_nhwc<E>(tl::GlobalTensor<E, 4>(out.data(), {c.N, c.H, c.W, 2 * c.C}),
                                             tl::GlobalTensor<E, 4>(a.data(), {c.N, c.H, c.W, c.C}),
                                             tl::GlobalTensor<E, 4>(b.data(), {c.N, c.H, c.W, c.C}));
        char label[96];
        std::snprintf(label, sizeof label, "concat_channels_nhwc int8 N=%u H=%u W=%u C=%u+%u (%zu pixels)", c.N, c.H,
                      c.W, c.C, c.C, px);
        compare(h, label, out, want);
    }
    /* Image 1 of three, as a [1, H, W, C] view with a batch step of 2: its stride is 2 images. */
    const uint32_t H = 8, W = 24, C = 16;
    const size_t img = size_t(H) * W * C;
    std::vector<uint8_t> a = random_data<E>(rng, 3 * img), b = random_data<E>(rng, 3 * img);
    std::vector<uint8_t> want(2 * img);
    ref::concat_cols(want.data(), a.data() + img, b.data() + img, H * W, C, C, 8);
    Guarded out(want.size());
    const auto view = [](const std::vector<uint8_t> &x) {
        return tl::GlobalTensor<E, 4>(x.data(), {3, H, W, C}).slice(0, 1, 1, 2);
    };
    const auto va = view(a), vb = view(b);
    h.check(va.stride(0) == int64_t(2 * img), "concat_channels_nhwc: the stepped view's batch stride is 2 images");
    tl::kernels::concat_channels_nhwc<E>(tl::GlobalTensor<E, 4>(out.data(), {1, H, W, 2 * C}), va, vb);
    compare(h, "concat_channels_nhwc int8 of image 1 of 3, batch step 2", out, want);
}

/* ---- strided slicing and reshape ---- */
template <class E>
void test_slice(Harness &h, Rng &rng)
{
    const bool even = E::bits == 4;
    for (int i = 0; i < 6; ++i) {
        const uint32_t A = rng.range(1, 9), B = rng.range(1, 40), C = rng.range(1, 80) * (even ? 2 : 1);
        std::vector<uint8_t> x = random_data<E>(rng, size_t(A) * B * C);
        tl::GlobalTensor<E, 3> t(x.data(), {A, B, C});
        /* x[a0 :: sa, b0 :: sb, c0 : c0 + nc] with signed steps. */
        const int32_t sa = int32_t(rng.range(1, 3)) * (rng.below(2) ? -1 : 1);
        const int32_t sb = int32_t(rng.range(1, 4)) * (rng.below(2) ? -1 : 1);
        const uint32_t a0 = rng.below(A), b0 = rng.below(B);
        const uint32_t na = sa > 0 ? (A - a0 + uint32_t(sa) - 1) / uint32_t(sa) : a0 / uint32_t(-sa) + 1;
        const uint32_t nb = sb > 0 ? (B - b0 + uint32_t(sb) - 1) / uint32_t(sb) : b0 / uint32_t(-sb) + 1;
        uint32_t c0 = rng.below(C), nc = rng.range(1, C - c0);
        if (even) { /* 4-bit rows start and end on byte boundaries */
            c0 = 2 * rng.below(C / 2);
            nc = 2 * rng.range(1, (C - c0) / 2);
        }
        auto view = t.slice(0, a0, na, sa).slice(1, b0, nb, sb).slice(2, c0, nc);
        const uint32_t shape[3] = {na, nb, nc};
        const int64_t strides[3] = {view.stride(0), view.stride(1), view.stride(2)};
        std::vector<uint8_t> want((size_t(na) * nb * nc * E::bits + 7) / 8);
        ref::gather(want.data(), view.data(), shape, strides, 3, E::bits);
        Guarded out(want.size());
        tl::kernels::copy<E, 3>(tl::GlobalTensor<E, 3>(out.data(), {na, nb, nc}), view);
        char label[128];
        std::snprintf(label, sizeof label, "slice %s [%u,%u,%u][%u::%d, %u::%d, %u:%u] -> [%u,%u,%u]", E::name, A, B,
                      C, a0, sa, b0, sb, c0, c0 + nc, na, nb, nc);
        compare(h, label, out, want);
        /* Reshape of the same view to [na*nb, nc] and to a flat row. */
        Guarded out2(want.size());
        auto r = tl::kernels::reshape<E, 2>(out2.data(), {na * nb, nc}, view);
        std::snprintf(label, sizeof label, "reshape %s strided [%u,%u,%u] -> [%u,%u]", E::name, na, nb, nc, na * nb, nc);
        h.check(r.shape(0) == na * nb && r.shape(1) == nc && r.is_dense(), "%s: result view", label);
        compare(h, label, out2, want);
    }
}

/*
 * Copies of views whose rows are wide enough for whole-row tiles (64 to
 * 1024 bytes a row, and rows of several 1 KiB tiles; one or more groups of
 * sixteen registers and tiles after them), with rows and columns
 * left over and pitches of either sign; expected bytes gathered element by
 * element (ref::gather).
 */
void test_copy_wide_rows(Harness &h)
{
    struct Case {
        uint32_t rows, cols, pitch;
        bool reversed;
    };
    const Case cases[] = {
        {13, 300, 1000, false}, {13, 300, 1000, true}, {5, 1100, 1200, false},
        {33, 64, 64 + 7, false}, {17, 200, 4096, true}, {3, 129, 130, false},
        /* several 1 KiB tiles per row, more tiles than one group of registers */
        {20, 2500, 2600, false}, {7, 3100, 3200, true}, {18, 2048, 2048 + 64, false},
        /* one tile a row of tiles, more tiles than one group (TileColumnWalk), with the rest after it */
        {130, 256, 2048, false}, {130, 256, 2048, true}, {70, 300, 1000, false}, {300, 64, 72, true},
        {16 * 17 + 5, 100, 128, false},
    };
    for (const Case &c : cases) {
        std::vector<uint8_t> x(size_t(c.rows) * c.pitch);
        for (size_t i = 0; i < x.size(); ++i) {
            x[i] = uint8_t(i * 37 + i / 251);
        }
        const tl::GlobalTensor<tl::int8, 2> all(x.data(), {c.rows, c.cols}, {int64_t(c.pitch), 1});
        const auto view = c.reversed ? all.slice(0, c.rows - 1, c.rows, -1) : all;
        const uint32_t shape[2] = {c.rows, c.cols};
        const int64_t strides[2] = {view.stride(0), view.stride(1)};
        std::vector<uint8_t> want(size_t(c.rows) * c.cols);
        ref::gather(want.data(), view.data(), shape, strides, 2, 8);
        Guarded out(want.size());
        tl::kernels::copy<tl::int8, 2>(tl::GlobalTensor<tl::int8, 2>(out.data(), {c.rows, c.cols}), view);
        char label[96];
        std::snprintf(label, sizeof label, "copy int8 %ux%u, row pitch %s%u", c.rows, c.cols,
                      c.reversed ? "-" : "", c.pitch);
        compare(h, label, out, want);
    }
}

/* ---- quantization offset + scale ---- */
template <int Off, class E>
void quant_case(Harness &h, Rng &rng, size_t n, tl::mul_scalar_t<E> scale)
{
    std::vector<uint8_t> x = random_data<E>(rng, n);
    std::vector<uint8_t> want(x.size());
    const ref::Fmt *f = ref::fmt_of(E::ttype);
    uint64_t raw;
    if constexpr (E::is_float) raw = ref::float_bits(scale); else raw = scale;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t v = ref::get(x.data(), i, E::bits);
        const uint32_t y = f ? ref::fp_muls(*f, ref::fp_addi(*f, v, Off), uint32_t(raw))
                             : ref::int_muls(E::bits, ref::int_addi(E::bits, v, Off), raw);
        ref::set(want.data(), i, E::bits, y);
    }
    Guarded out(want.size());
    using S = typename E::storage;
    tl::kernels::quant_affine<Off, E>(reinterpret_cast<S *>(out.data()), reinterpret_cast<const S *>(x.data()), n,
                                      scale);
    char label[96];
    std::snprintf(label, sizeof label, "quant_affine %s n=%zu offset %d scale %g", E::name, n, Off, double(scale));
    compare(h, label, out, want);
}
void test_quant(Harness &h, Rng &rng)
{
    quant_case<-128, tl::int8>(h, rng, 1000, 2);
    quant_case<-3, tl::int8>(h, rng, 64, 1);
    quant_case<5, tl::int8>(h, rng, 1, 3);
    quant_case<127, tl::int8>(h, rng, 777, 0);
    quant_case<-9, tl::int8>(h, rng, 5000, 4);    /* four whole 1 KiB blocks, then rows and a tail */
    quant_case<-7, tl::fp16>(h, rng, 1000, 0.0078125f);
    quant_case<3, tl::fp16>(h, rng, 33, -1.7f);
    quant_case<100, tl::fp16>(h, rng, 4096, 1e-3f);
    quant_case<-128, tl::bf16>(h, rng, 999, 0.1f);
    quant_case<1, tl::bf16>(h, rng, 5, 300.0f);
    quant_case<-1, tl::fp32>(h, rng, 1000, 0.3333333f);
    quant_case<17, tl::fp32>(h, rng, 17, -2.5e-3f);
    /* 2-D view form on a window of a matrix, in place. */
    const uint32_t R = 37, C = 91;
    std::vector<uint8_t> m = random_data<tl::int8>(rng, size_t(R) * C);
    std::vector<uint8_t> want = m;
    for (uint32_t r = 3; r < 30; ++r)
        for (uint32_t c = 5; c < 80; ++c)
            want[size_t(r) * C + c] = uint8_t(ref::int_muls(8, ref::int_addi(8, m[size_t(r) * C + c], -20), 3));
    tl::GlobalTensor<tl::int8, 2> g(m.data(), {R, C});
    tl::kernels::quant_affine<-20, tl::int8>(g.sub(3, 5, 27, 75), g.sub(3, 5, 27, 75), 3);
    h.dump("quant_affine 2-D", m.data(), m.size());
    h.check(m == want, "quant_affine int8 on a 27x75 window of a 37x91 matrix, in place");
}

} // namespace

int main(int argc, char **argv)
{
    Harness h(argc, argv);
    Rng rng(h.seed);
    std::printf("# kernel tests, backend %s, seed %" PRIu64 "\n", tl::backend::name(), h.seed);
    test_transpose<tl::int4>(h, rng);
    test_transpose<tl::int8>(h, rng);
    test_transpose<tl::fp16>(h, rng);
    test_transpose<tl::fp32>(h, rng);
    test_layout<tl::int8>(h, rng);
    test_layout<tl::bf16>(h, rng);
    test_layout<tl::fp32>(h, rng);
    test_im2col<tl::int8, tl::PadValue::Zero>(h, rng);
    test_im2col<tl::fp16, tl::PadValue::Zero>(h, rng);
    test_im2col<tl::fp16, tl::PadValue::Min>(h, rng);
    test_im2col<tl::e4m3, tl::PadValue::Max>(h, rng);
    test_im2col<tl::fp32, tl::PadValue::Zero>(h, rng);
    test_concat<tl::int4>(h, rng);
    test_concat<tl::int8>(h, rng);
    test_concat<tl::fp16>(h, rng);
    test_concat<tl::fp32>(h, rng);
    test_concat_nhwc_blocks(h, rng);
    test_slice<tl::int4>(h, rng);
    test_slice<tl::int8>(h, rng);
    test_slice<tl::int16>(h, rng);
    test_slice<tl::fp32>(h, rng);
    test_copy_wide_rows(h);
    test_quant(h, rng);
    return h.finish();
}
