/*
 * Transpose kernels: 2-D matrix transpose of any size (tiled, edge tiles by
 * valid regions) and NCHW <-> NHWC layout changes built on it.
 *
 * One step transposes an X0 x X1 block that fills two TL registers
 * (2048 bytes): the upper X0/2 rows are loaded into tl[RegA], the lower into
 * tl[RegB], tl.xpose.01 swaps the two dimensions of the [X0, X1, 1, 1]
 * tensor, and the X1 x X0 result is stored from the same two registers.
 * Loads zero-fill what lies outside the matrix; stores write only the valid
 * part, so the edge tiles need no special code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_TRANSPOSE_HPP
#define TL_KERNELS_TRANSPOSE_HPP

#include <utility>

#include "tl/tile.hpp"

namespace tl {
namespace kernels {

/* Block shape of one transpose step for element type E. */
template <class E>
struct TransposeBlock {
    static constexpr unsigned X0 = E::bits == 4 ? 64 : E::bits == 8 ? 32 : E::bits == 16 ? 32 : 16;
    static constexpr unsigned X1 = 2048 * 8 / (X0 * E::bits);
    using Shape = XposeShape<X0, X1, 1, 1>;
};

/*
 * dst[c][r] = src[r][c]; src is R x C, dst C x R, any byte strides.
 * 4-bit types need even R and C.
 */
namespace detail {

constexpr unsigned kXposeGroup = 4; /* whole blocks per CSR setting: 8 registers */

/*
 * Blocks first .. first+3 of the whole ones (block k: rows (k / per_row) *
 * X0, columns (k % per_row) * X1 of src), block g in registers Reg + 2g and
 * Reg + 2g + 1: all halves loaded, transposed, then stored.
 */
template <class E, unsigned Reg, size_t... G>
void transpose_block_group(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src, int64_t src_pitch,
                           int64_t dst_pitch, uint32_t per_row, uint32_t first, std::index_sequence<G...>)
{
    using B = TransposeBlock<E>;
    constexpr unsigned X0 = B::X0, X1 = B::X1, H0 = X0 / 2, H1 = X1 / 2;
    const TileRows<Tile2D<E, H0, X1, Reg>> in(src_pitch);
    (([&] {
         const uint32_t k = first + uint32_t(G), r0 = k / per_row * X0, c0 = k % per_row * X1;
         Tile2D<E, H0, X1, Reg + 2 * unsigned(G)> a;
         Tile2D<E, H0, X1, Reg + 2 * unsigned(G) + 1> b;
         in.template load_xpose<0, 1>(a, src.ptr({r0, c0}), b, src.ptr({r0 + H0, c0}),
                                      typename B::Shape{});
     })(),
     ...);
    const TileRows<Tile2D<E, H1, X0, Reg>> out(dst_pitch);
    (([&] {
         const uint32_t k = first + uint32_t(G), r0 = k / per_row * X0, c0 = k % per_row * X1;
         out.store(dst.ptr({c0, r0}), Tile2D<E, H1, X0, Reg + 2 * unsigned(G)>{});
         out.store(dst.ptr({c0 + H1, r0}), Tile2D<E, H1, X0, Reg + 2 * unsigned(G) + 1>{});
     })(),
     ...);
}

} // namespace detail

template <class E, unsigned RegA = 1, unsigned RegB = 2>
void transpose2d(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src)
{
    using B = TransposeBlock<E>;
    constexpr unsigned X0 = B::X0, X1 = B::X1, H0 = X0 / 2, H1 = X1 / 2;
    using InA = Tile2D<E, H0, X1, RegA>;
    using InB = Tile2D<E, H0, X1, RegB>;
    using OutA = Tile2D<E, H1, X0, RegA>;
    using OutB = Tile2D<E, H1, X0, RegB>;
    const uint32_t R = src.shape(0), C = src.shape(1);
    TL_API_CHECK("transpose2d", dst.shape(0) == C && dst.shape(1) == R, "dst must be src's shape swapped");
    auto lo = [](uint32_t v, uint32_t h) { return v < h ? v : h; };
    auto hi = [](uint32_t v, uint32_t h) { return v > h ? v - h : 0u; };
    /*
     * Whole blocks: the rows of each half moved by TileRows, so the CSRs are
     * written once per direction and group of blocks instead of before every
     * instruction (with RegB = RegA + 1 <= 25, four blocks at a time in
     * registers RegA .. RegA+7); the edges below, through the valid regions.
     */
    const uint32_t R_full = R / X0 * X0, C_full = C / X1 * X1;
    if constexpr (E::bits >= 8) {
        const int64_t src_pitch = src.stride(0), dst_pitch = dst.stride(0);
        const uint32_t per_row = C_full / X1, blocks = R_full / X0 * per_row;
        uint32_t k = 0;
        if constexpr (RegB == RegA + 1 && RegA + 7 < 32) {
            for (; blocks - k >= detail::kXposeGroup; k += detail::kXposeGroup) {
                detail::transpose_block_group<E, RegA>(dst, src, src_pitch, dst_pitch, per_row, k,
                                                       std::make_index_sequence<detail::kXposeGroup>{});
            }
        }
        for (; k < blocks; ++k) {
            const uint32_t r0 = k / per_row * X0, c0 = k % per_row * X1;
            InA a;
            InB b;
            const TileRows<InA> in(src_pitch);
            in.template load_xpose<0, 1>(a, src.ptr({r0, c0}), b, src.ptr({r0 + H0, c0}),
                                         typename B::Shape{});
            OutA oa;
            OutB ob;
            const TileRows<OutA> out(dst_pitch);
            out.store(dst.ptr({c0, r0}), oa);
            out.store(dst.ptr({c0 + H1, r0}), ob);
        }
    }
    for (uint32_t r0 = 0; r0 < R; r0 += X0) {
        const uint32_t vr = lo(R - r0, X0);
        for (uint32_t c0 = 0; c0 < C; c0 += X1) {
            if (E::bits >= 8 && r0 + X0 <= R_full && c0 + X1 <= C_full) {
                continue; /* done above */
            }
            const uint32_t vc = lo(C - c0, X1);
            InA a(lo(vr, H0), vc);
            InB b(hi(vr, H0), vc);
            TLOAD(a, src.sub(r0, c0, a.GetValidRow(), vc));
            TLOAD(b, src.sub(r0 + a.GetValidRow(), c0, b.GetValidRow(), vc));
            TXPOSE<0, 1>(a, b, typename B::Shape{});
            OutA oa(lo(vc, H1), vr);
            OutB ob(hi(vc, H1), vr);
            TSTORE(dst.sub(c0, r0, oa.GetValidRow(), vr), oa);
            TSTORE(dst.sub(c0 + oa.GetValidRow(), r0, ob.GetValidRow(), vr), ob);
        }
    }
}

/* dst [N, H, W, C] = src [N, C, H, W] (each image's H and W contiguous). */
template <class E, unsigned RegA = 1, unsigned RegB = 2>
void nchw_to_nhwc(const GlobalTensor<E, 4> &dst, const GlobalTensor<E, 4> &src)
{
    TL_API_CHECK("nchw_to_nhwc",
                 dst.shape(0) == src.shape(0) && dst.shape(1) == src.shape(2) &&
                     dst.shape(2) == src.shape(3) && dst.shape(3) == src.shape(1),
                 "dst must be [N, H, W, C] for src [N, C, H, W]");
    for (uint32_t n = 0; n < src.shape(0); ++n) {
        transpose2d<E, RegA, RegB>(dst.select(0, n).flatten(0), src.select(0, n).flatten(1));
    }
}

/* dst [N, C, H, W] = src [N, H, W, C]. */
template <class E, unsigned RegA = 1, unsigned RegB = 2>
void nhwc_to_nchw(const GlobalTensor<E, 4> &dst, const GlobalTensor<E, 4> &src)
{
    TL_API_CHECK("nhwc_to_nchw",
                 dst.shape(0) == src.shape(0) && dst.shape(1) == src.shape(3) &&
                     dst.shape(2) == src.shape(1) && dst.shape(3) == src.shape(2),
                 "dst must be [N, C, H, W] for src [N, H, W, C]");
    for (uint32_t n = 0; n < src.shape(0); ++n) {
        transpose2d<E, RegA, RegB>(dst.select(0, n).flatten(1), src.select(0, n).flatten(0));
    }
}

} // namespace kernels
} // namespace tl

#endif /* TL_KERNELS_TRANSPOSE_HPP */
