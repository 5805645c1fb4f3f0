/*
 * im2col for a 3x3 convolution (stride 1, padding 1) and its pooling variant.
 *
 *   out[c*9 + kh*3 + kw][oh*W + ow] = in[c][oh+kh-1][ow+kw-1], or Pad outside
 *
 * Each output row is the input image shifted by (kh-1, kw-1).  An image of
 * at most 32 rows that fits one register is loaded once per channel and
 * shifted in registers (im2col3x3_whole_images).  Otherwise the kernel
 * walks the image in tiles of TH x 32 elements.  For one tile and shift:
 *  1. TLOAD the part of the shifted window inside the image with a valid
 *     region (rows x columns); TL zero-fills the rest of the tile;
 *  2. TFILLPAD<Pad> turns that rest into the pad value (skipped for Zero);
 *  3. where the window starts one row / column before the image, the pad
 *     row / column now sits last: TCONCAT of the tile with itself rotates it
 *     to the front (tl.concat.0 / tl.concat.2);
 *  4. TSTORE the tile's valid part into the output row.
 * Pad = PadValue::Zero is the convolution's im2col; PadValue::Min gives the
 * patches of a 3x3 max-pooling (padding never wins the max).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_IM2COL_HPP
#define TL_KERNELS_IM2COL_HPP

#include "tl/tile.hpp"

namespace tl {
namespace kernels {

template <class E>
struct Im2colTile {
    static constexpr unsigned TW = 32;                           /* <= 32: tl.concat.2 */
    static constexpr unsigned TH = 8192 / (TW * E::bits) < 16 ? 8192 / (TW * E::bits) : 16;
};

namespace detail {

/*
 * Images of at most 32 rows of at most SW elements fit one register as a
 * tile [32, 1, SW]: each channel is loaded once, and each of the nine
 * shifted copies is made in registers, a pad row and a pad column joined
 * to the image by tl.concat.0 / tl.concat.2 (the pad register is tl0 for
 * zero, else filled by TFILLPAD), then stored as one output row.
 * Registers Reg .. Reg+3.  False (nothing done) for larger images.
 */
/*
 * The nine shifted copies of an image in a register, output row k = kh*3 + kw
 * being the image shifted by (kh - 1, kw - 1): rows through concat0 (a pad
 * row joined above or below), columns through concat2 (a pad column joined
 * left or right), each copy handed to store(k, tile).
 */
template <class Image, class Rows, class Shifted, class PadTile, class Concat0, class Concat2, class Store>
void nine_shifts(const Image &image, Rows &shifted_rows, Shifted &shifted, const PadTile &pad, uint32_t rows,
                 uint32_t cols, Concat0 concat0, Concat2 concat2, Store store)
{
    /* Column j of copies kh*3 .. kh*3+2 is column j - 1, j, j + 1 of src. */
    auto columns = [&](int kh, const auto &src) {
        concat2(shifted, pad, src, 1u, cols >> 1);
        store(kh * 3, shifted);
        store(kh * 3 + 1, src);
        concat2(shifted, src, pad, cols & ~1u, 1u);
        store(kh * 3 + 2, shifted);
    };
    /* Row i of copies 0..2 is image row i - 1; of copies 6..8, row i + 1. */
    concat0(shifted_rows, pad, image, 1u, rows >> 1);
    columns(0, shifted_rows);
    columns(1, image);
    concat0(shifted_rows, image, pad, rows & ~1u, 1u);
    columns(2, shifted_rows);
}

template <class E, PadValue Pad, unsigned Reg>
bool im2col3x3_whole_images(const GlobalTensor<E, 2> &out, const GlobalTensor<E, 3> &in)
{
    constexpr unsigned SW = 8192 / (32 * E::bits) < 32 ? 8192 / (32 * E::bits) : 32;
    using Image = Tile<E, 32, 1, SW, Reg>;
    using Rows = Tile<E, 32, 1, SW, Reg + 1>;
    using Shifted = Tile<E, 32, 1, SW, Reg + 2>;
    using PadTile = Tile<E, 32, 1, SW, Pad == PadValue::Zero ? 0 : Reg + 3>;
    const uint32_t C = in.shape(0), H = in.shape(1), W = in.shape(2);
    if (H > 32 || W > SW || H == 0 || W == 0) {
        return false;
    }
    PadTile pad;
    if constexpr (Pad != PadValue::Zero) {
        PadTile nothing(0, 1, 0);
        TFILLPAD<Pad>(pad, nothing); /* an empty valid region: every element is the pad value */
    }
    const uint32_t rows = low_mask(H), cols = low_mask(W);
    Rows shifted_rows;
    Shifted shifted;
    if (H == 32 && W == SW && in.stride(1) == int64_t(W * E::bits / 8)) {
        /*
         * Whole tiles of dense images: the CSRs written once for all
         * channels (TileRows), then per channel a load, the concats and the
         * stores, each one instruction (concat writes its two masks).
         */
        const TileRows<Image> io(in.stride(1));
        Image image;
        const int64_t orow_bytes = out.stride(0);
        for (uint32_t c = 0; c < C; ++c) {
            io.load(image, in.select(0, c).data());
            uint8_t *orows = out.select(0, c * 9).data();
            nine_shifts(
                image, shifted_rows, shifted, pad, rows, cols,
                [&](auto &d, const auto &a, const auto &b, uint32_t m1, uint32_t m2) {
                    io.template concat<0>(d, a, b, m1, m2);
                },
                [&](auto &d, const auto &a, const auto &b, uint32_t m1, uint32_t m2) {
                    io.template concat<2>(d, a, b, m1, m2);
                },
                [&](int k, const auto &t) { io.store(orows + k * orow_bytes, t); });
        }
        return true;
    }
    for (uint32_t c = 0; c < C; ++c) {
        Image image(H, 1, W);
        TLOAD(image, in.select(0, c));
        nine_shifts(
            image, shifted_rows, shifted, pad, rows, cols,
            [](auto &d, const auto &a, const auto &b, uint32_t m1, uint32_t m2) { TCONCAT<0>(d, a, b, m1, m2); },
            [](auto &d, const auto &a, const auto &b, uint32_t m1, uint32_t m2) { TCONCAT<2>(d, a, b, m1, m2); },
            [&](int k, const auto &t) {
                TSTORE(out.select(0, c * 9 + uint32_t(k)).template reshape<2>({H, W}), t);
            });
    }
    return true;
}

} // namespace detail

/* out [C*9, H*W] (rows dense), in [C, H, W] (rows contiguous, any strides). */
template <class E, PadValue Pad = PadValue::Zero, unsigned Reg = 1>
void im2col3x3(const GlobalTensor<E, 2> &out, const GlobalTensor<E, 3> &in)
{
    static_assert(E::bits >= 8, "im2col3x3: a one-element shift of a 4-bit row is not byte aligned");
    constexpr unsigned TH = Im2colTile<E>::TH, TW = Im2colTile<E>::TW;
    using T = Tile<E, TH, 1, TW, Reg>;
    const uint32_t C = in.shape(0), H = in.shape(1), W = in.shape(2);
    TL_API_CHECK("im2col3x3", out.shape(0) == C * 9 && out.shape(1) == H * W,
                 "out must be [C*9, H*W]");
    if (detail::im2col3x3_whole_images<E, Pad, Reg>(out, in)) {
        return;
    }
    for (uint32_t c = 0; c < C; ++c) {
        const GlobalTensor<E, 2> image = in.select(0, c);
        for (int kh = 0; kh < 3; ++kh) {
            for (int kw = 0; kw < 3; ++kw) {
                const GlobalTensor<E, 2> orow =
                    out.select(0, c * 9 + uint32_t(kh * 3 + kw)).template reshape<2>({H, W});
                const int dy = kh - 1, dx = kw - 1;
                for (uint32_t oh0 = 0; oh0 < H; oh0 += TH) {
                    for (uint32_t ow0 = 0; ow0 < W; ow0 += TW) {
                        /* Tile row i reads image row oh0+dy+i; valid ones: [lr, end). */
                        const int sr = int(oh0) + dy, sc = int(ow0) + dx;
                        const unsigned lr = sr < 0 ? 1u : 0u, lc = sc < 0 ? 1u : 0u;
                        const int er = int(H) - sr < int(TH) ? int(H) - sr : int(TH);
                        const int ec = int(W) - sc < int(TW) ? int(W) - sc : int(TW);
                        const unsigned nr = er > int(lr) ? unsigned(er) - lr : 0u;
                        const unsigned nc = ec > int(lc) ? unsigned(ec) - lc : 0u;
                        T t(nr, 1, nc);
                        TLOAD(t, image.sub(nr ? uint32_t(sr + int(lr)) : 0, nc ? uint32_t(sc + int(lc)) : 0,
                                           nr, nc));
                        if (Pad != PadValue::Zero) {
                            TFILLPAD<Pad>(t, t);
                        }
                        if (lr) { /* pad row TH-1 (nr <= TH-1) goes to the top */
                            TCONCAT<0>(t, t, t, 1u << (TH - 1), low_mask(TH - 1));
                        }
                        if (lc) { /* pad column TW-1 goes to the left */
                            TCONCAT<2>(t, t, t, 1u << (TW - 1), low_mask(TW - 1));
                        }
                        const uint32_t th = H - oh0 < TH ? H - oh0 : TH;
                        const uint32_t tw = W - ow0 < TW ? W - ow0 : TW;
                        t.set_valid(th, 1, tw);
                        TSTORE(orow.sub(oh0, ow0, th, tw), t);
                    }
                }
            }
        }
    }
}

} // namespace kernels
} // namespace tl

#endif /* TL_KERNELS_IM2COL_HPP */
