/*
 * Channel concatenation.
 *
 *  concat_cols: out[p][0:C1] = a[p], out[p][C1:C1+C2] = b[p] (innermost
 *    dimension, NHWC).  Equal dense rows of 8 to 128 bytes are interleaved
 *    a 2 KiB block at a time by one tl.xpose.01 (two contiguous loads, two
 *    contiguous stores); otherwise, with C1 + C2 <= 32, one tl.concat.2
 *    interleaves a tile of rows of a and b, else two strided copies.
 *  concat_rows: out[0:C1] = a, out[C1:C1+C2] = b (outer dimension, NCHW):
 *    for dense views two contiguous copies, 1 KiB per instruction;
 *    otherwise tl.concat.0 when C1 + C2 <= 32.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_CONCAT_HPP
#define TL_KERNELS_CONCAT_HPP

#include "copy.hpp"
#include "tl/tile.hpp"

namespace tl {
namespace kernels {

namespace detail {

/*
 * Rows of RB bytes of dense a and b, interleaved into dense out (rows of
 * 2*RB bytes), 1024/RB rows at a time: a's block in RegLo and b's in RegHi
 * form the 2048-byte tensor [2, 1024/RB, RB, 1] (bytes), and tl.xpose.01
 * turns it into [1024/RB, 2, RB, 1], which is out.  Returns the rows done
 * (a multiple of 1024/RB).
 */
template <unsigned RB, unsigned RegLo, unsigned RegHi>
uint32_t interleave_row_blocks(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t rows)
{
    constexpr uint32_t N = 1024 / RB;
    using Block = Tile2D<int8, 32, 32, RegLo>;
    using BlockHi = Tile2D<int8, 32, 32, RegHi>;
    const uint32_t blocks = rows / N;
    if (blocks == 0) {
        return 0;
    }
    /* Contiguous 1 KiB blocks, the CSRs written once (tl.xpose needs only ttype). */
    const TileRows<Block> io(32);
    Block lo;
    BlockHi hi;
    for (uint32_t k = 0; k < blocks; ++k, a += 1024, b += 1024, out += 2048) {
        io.template load_xpose_store<0, 1>(lo, a, hi, b, XposeShape<2, N, RB, 1>{}, out, out + 1024);
    }
    return blocks * N;
}

/* [N, H, W, C] as [N*H*W, C], as t.flatten(0).flatten(0) but in a few instructions when dense. */
template <class E>
TL_OP GlobalTensor<E, 2> pixel_rows(const GlobalTensor<E, 4> &t)
{
    const uint32_t pixels = t.shape(0) * t.shape(1) * t.shape(2);
    if (t.stride(1) == int64_t(t.shape(2)) * t.stride(2) && t.stride(0) == int64_t(t.shape(1)) * t.stride(1)) {
        return GlobalTensor<E, 2>(t.data(), {pixels, t.shape(3)}, {t.stride(2), t.stride(3)});
    }
    return t.flatten(0).flatten(0);
}

template <unsigned RegLo, unsigned RegHi>
TL_OP uint32_t interleave_rows(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t row_bytes,
                         uint32_t rows)
{
    switch (row_bytes) {
    case 8: return interleave_row_blocks<8, RegLo, RegHi>(out, a, b, rows);
    case 16: return interleave_row_blocks<16, RegLo, RegHi>(out, a, b, rows);
    case 32: return interleave_row_blocks<32, RegLo, RegHi>(out, a, b, rows);
    case 64: return interleave_row_blocks<64, RegLo, RegHi>(out, a, b, rows);
    case 128: return interleave_row_blocks<128, RegLo, RegHi>(out, a, b, rows);
    default: return 0;
    }
}

} // namespace detail

/* out [P, C1+C2], a [P, C1], b [P, C2]. */
template <class E, unsigned RegA = 1, unsigned RegB = 2, unsigned RegO = 3>
void concat_cols(const GlobalTensor<E, 2> &out_all, const GlobalTensor<E, 2> &a_all,
                 const GlobalTensor<E, 2> &b_all)
{
    const uint32_t P_all = a_all.shape(0), C1 = a_all.shape(1), C2 = b_all.shape(1);
    TL_API_CHECK("concat_cols", b_all.shape(0) == P_all && out_all.shape(0) == P_all &&
                                    out_all.shape(1) == C1 + C2,
                 "shapes do not match");
    /* Equal dense rows: interleave whole blocks with tl.xpose, the rest below. */
    uint32_t p_done = 0;
    if (C1 == C2 && (C1 * E::bits) % 8 == 0 && a_all.is_dense() && b_all.is_dense() &&
        out_all.is_dense()) {
        p_done = detail::interleave_rows<RegA, RegB>(out_all.data(), a_all.data(), b_all.data(),
                                                     C1 * E::bits / 8, P_all);
    }
    if (p_done == P_all) {
        return;
    }
    const GlobalTensor<E, 2> out = out_all.sub(p_done, 0, P_all - p_done, C1 + C2);
    const GlobalTensor<E, 2> a = a_all.sub(p_done, 0, P_all - p_done, C1);
    const GlobalTensor<E, 2> b = b_all.sub(p_done, 0, P_all - p_done, C2);
    const uint32_t P = P_all - p_done;
    if (C1 + C2 > 32 || C1 == 0 || C2 == 0) {
        copy2d<E, RegA>(out.sub(0, 0, P, C1), a);
        copy2d<E, RegA>(out.sub(0, C1, P, C2), b);
        return;
    }
    constexpr unsigned TR = 8192 / (32 * E::bits) < 32 ? 8192 / (32 * E::bits) : 32;
    using TA = Tile2D<E, TR, 32, RegA>;
    using TB = Tile2D<E, TR, 32, RegB>;
    using TO = Tile2D<E, TR, 32, RegO>;
    for (uint32_t p0 = 0; p0 < P; p0 += TR) {
        const uint32_t vr = P - p0 < TR ? P - p0 : TR;
        TA ta(vr, C1);
        TB tb(vr, C2);
        TO to;
        TLOAD(ta, a.sub(p0, 0, vr, C1));
        TLOAD(tb, b.sub(p0, 0, vr, C2));
        TCONCAT<2>(to, ta, tb); /* valid (vr, C1 + C2) */
        TSTORE(out.sub(p0, 0, vr, C1 + C2), to);
    }
}

/* out [C1+C2, L], a [C1, L], b [C2, L]. */
template <class E, unsigned RegA = 1, unsigned RegB = 2, unsigned RegO = 3>
void concat_rows(const GlobalTensor<E, 2> &out, const GlobalTensor<E, 2> &a, const GlobalTensor<E, 2> &b)
{
    const uint32_t C1 = a.shape(0), C2 = b.shape(0), L = a.shape(1);
    TL_API_CHECK("concat_rows", b.shape(1) == L && out.shape(1) == L && out.shape(0) == C1 + C2,
                 "shapes do not match");
    /* Dense rows: out is a's bytes followed by b's, two contiguous copies. */
    if (a.is_dense() && b.is_dense() && out.is_dense() && (size_t(C1) * L * E::bits) % 8 == 0) {
        const size_t a_bytes = size_t(C1) * L * E::bits / 8;
        copy_bytes<RegA>(out.data(), a.data(), a_bytes);
        copy_bytes<RegA>(out.data() + a_bytes, b.data(), (size_t(C2) * L * E::bits + 7) / 8);
        return;
    }
    if (C1 + C2 > 32 || C1 == 0 || C2 == 0) {
        copy2d<E, RegA>(out.sub(0, 0, C1, L), a);
        copy2d<E, RegA>(out.sub(C1, 0, C2, L), b);
        return;
    }
    constexpr unsigned LC = 8192 / (32 * E::bits);
    using TA = Tile2D<E, 32, LC, RegA>;
    using TB = Tile2D<E, 32, LC, RegB>;
    using TO = Tile2D<E, 32, LC, RegO>;
    for (uint32_t c0 = 0; c0 < L; c0 += LC) {
        const uint32_t vc = L - c0 < LC ? L - c0 : LC;
        TA ta(C1, vc);
        TB tb(C2, vc);
        TO to;
        TLOAD(ta, a.sub(0, c0, C1, vc));
        TLOAD(tb, b.sub(0, c0, C2, vc));
        TCONCAT<0>(to, ta, tb); /* valid (C1 + C2, vc) */
        TSTORE(out.sub(0, c0, C1 + C2, vc), to);
    }
}

/* NHWC: out [N, H, W, C1+C2], a [N, H, W, C1], b [N, H, W, C2], dense pixels. */
template <class E>
TL_OP void concat_channels_nhwc(const GlobalTensor<E, 4> &out, const GlobalTensor<E, 4> &a,
                          const GlobalTensor<E, 4> &b)
{
    concat_cols<E>(detail::pixel_rows(out), detail::pixel_rows(a), detail::pixel_rows(b));
}

/* NCHW: out [N, C1+C2, H, W], a [N, C1, H, W], b [N, C2, H, W]. */
template <class E>
void concat_channels_nchw(const GlobalTensor<E, 4> &out, const GlobalTensor<E, 4> &a,
                          const GlobalTensor<E, 4> &b)
{
    for (uint32_t n = 0; n < a.shape(0); ++n) {
        concat_rows<E>(out.select(0, n).flatten(1), a.select(0, n).flatten(1), b.select(0, n).flatten(1));
    }
}

} // namespace kernels
} // namespace tl

#endif /* TL_KERNELS_CONCAT_HPP */
