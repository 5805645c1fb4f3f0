/*
 * Copy kernels: any strided view (GlobalTensor slice with steps, possibly
 * negative, on the outer dimensions) into any other view of the same shape,
 * and reshape = copy into dense memory + reinterpretation of the shape.
 * TL moves each row with tl.load / tl.store; the row pitch is the view's
 * outer byte stride (tmask_load_stride), edges use the tile's valid region.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_COPY_HPP
#define TL_KERNELS_COPY_HPP

#include "tl/tile.hpp"

namespace tl {
namespace kernels {

/* The tile the copy kernels move: 16 rows of 64 bytes. */
template <class E, unsigned Reg>
using CopyTile = Tile2D<E, 16, 512 / E::bits, Reg>;

/*
 * bytes contiguous bytes from src to dst, 1 KiB (one whole register, one
 * contiguous tl.load and tl.store) at a time; the tail is a shorter block.
 */
template <unsigned Reg = 1>
void copy_bytes(uint8_t *dst, const uint8_t *src, size_t bytes)
{
    using Block = Tile2D<int8, 32, 32, Reg>;
    size_t done = 0;
    for (; bytes - done >= 1024; done += 1024) {
        Block t;
        TLOAD(t, GlobalTensor<int8, 2>(src + done, {32, 32}));
        TSTORE(GlobalTensor<int8, 2>(dst + done, {32, 32}), t);
    }
    if (done < bytes) {
        const uint32_t rest = uint32_t(bytes - done);
        if (rest >= 32) {
            Block t(rest / 32, 32);
            TLOAD(t, GlobalTensor<int8, 2>(src + done, {rest / 32, 32}));
            TSTORE(GlobalTensor<int8, 2>(dst + done, {rest / 32, 32}), t);
            done += rest / 32 * 32;
        }
        if (done < bytes) {
            Block t(1, uint32_t(bytes - done));
            TLOAD(t, GlobalTensor<int8, 2>(src + done, {1, uint32_t(bytes - done)}));
            TSTORE(GlobalTensor<int8, 2>(dst + done, {1, uint32_t(bytes - done)}), t);
        }
    }
}

/*
 * dst = src for 2-D views of equal shape.  For 4-bit types the column count
 * (and the views' first column) must be even.  Two dense views are one
 * contiguous copy.
 */
template <class E, unsigned Reg = 1>
void copy2d(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src)
{
    using T = CopyTile<E, Reg>;
    TL_API_CHECK("copy2d", dst.shape(0) == src.shape(0) && dst.shape(1) == src.shape(1),
                 "shapes differ");
    const uint32_t rows = src.shape(0), cols = src.shape(1);
    if (dst.is_dense() && src.is_dense()) {
        copy_bytes<Reg>(dst.data(), src.data(), (size_t(rows) * cols * E::bits + 7) / 8);
        return;
    }
    for (uint32_t r0 = 0; r0 < rows; r0 += T::D0) {
        const uint32_t vr = rows - r0 < T::D0 ? rows - r0 : T::D0;
        for (uint32_t c0 = 0; c0 < cols; c0 += T::D2) {
            const uint32_t vc = cols - c0 < T::D2 ? cols - c0 : T::D2;
            T t(vr, vc);
            TLOAD(t, src.sub(r0, c0, vr, vc));
            TSTORE(dst.sub(r0, c0, vr, vc), t);
        }
    }
}

/* dst = src for views of any rank 1..4 and equal shape. */
template <class E, unsigned Rank, unsigned Reg = 1>
void copy(const GlobalTensor<E, Rank> &dst, const GlobalTensor<E, Rank> &src)
{
    for (unsigned d = 0; d < Rank; ++d) {
        TL_API_CHECK("copy", dst.shape(d) == src.shape(d), "shapes differ");
    }
    if constexpr (Rank == 1) {
        copy2d<E, Reg>(detail::as_matrix(dst), detail::as_matrix(src));
    } else if constexpr (Rank == 2) {
        copy2d<E, Reg>(dst, src);
    } else {
        for (uint32_t i = 0; i < src.shape(0); ++i) {
            copy<E, Rank - 1, Reg>(dst.select(0, i), src.select(0, i));
        }
    }
}

/*
 * Reshape of any view: its elements, in row-major order, are copied to the
 * dense buffer `out`, which is returned as a tensor of shape `shape`.
 */
template <class E, unsigned R2, unsigned Rank, unsigned Reg = 1>
GlobalTensor<E, R2> reshape(void *out, const std::array<uint32_t, R2> &shape,
                            const GlobalTensor<E, Rank> &src)
{
    GlobalTensor<E, Rank> dense(out, src.shapes());
    copy<E, Rank, Reg>(dense, src);
    return dense.template reshape<R2>(shape);
}

} // namespace kernels
} // namespace tl

#endif /* TL_KERNELS_COPY_HPP */
