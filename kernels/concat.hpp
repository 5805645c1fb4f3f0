/*
 * Channel concatenation.
 *
 *  concat_cols: out[p][0:C1] = a[p], out[p][C1:C1+C2] = b[p] (innermost
 *    dimension, NHWC).  With C1 + C2 <= 32 one tl.concat.2 interleaves a
 *    tile of rows of a and b; otherwise it is two strided copies.
 *  concat_rows: out[0:C1] = a, out[C1:C1+C2] = b (outer dimension, NCHW),
 *    with tl.concat.0 when C1 + C2 <= 32.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_CONCAT_HPP
#define TL_KERNELS_CONCAT_HPP

#include "copy.hpp"
#include "tl/tile.hpp"

namespace tl {
namespace kernels {

/* out [P, C1+C2], a [P, C1], b [P, C2]. */
template <class E, unsigned RegA = 1, unsigned RegB = 2, unsigned RegO = 3>
void concat_cols(const GlobalTensor<E, 2> &out, const GlobalTensor<E, 2> &a, const GlobalTensor<E, 2> &b)
{
    const uint32_t P = a.shape(0), C1 = a.shape(1), C2 = b.shape(1);
    TL_API_CHECK("concat_cols", b.shape(0) == P && out.shape(0) == P && out.shape(1) == C1 + C2,
                 "shapes do not match");
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
void concat_channels_nhwc(const GlobalTensor<E, 4> &out, const GlobalTensor<E, 4> &a,
                          const GlobalTensor<E, 4> &b)
{
    concat_cols<E>(out.flatten(0).flatten(0), a.flatten(0).flatten(0), b.flatten(0).flatten(0));
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
