/*
 * Affine quantization step y = (x + Offset) * scale, element-wise:
 * TADDS<Offset> (tl.addi, saturating / rounded once) then TMULS (tl.muls).
 * For int8 (uint8 data) this is the zero-point shift and integer rescale of
 * uint8 quantization, both saturating to [0, 255]; for fp16 / bf16 / fp32 it
 * is the float offset + scale with one rounding per step (docs/isa.md 5.9).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_QUANT_HPP
#define TL_KERNELS_QUANT_HPP

#include <cstddef>

#include "tl/tile.hpp"

namespace tl {
namespace kernels {

template <class E, unsigned Reg>
using QuantTile = Tile2D<E, 16, 512 / E::bits, Reg>;

/* dst = (src + Offset) * scale on 2-D views of equal shape (in place allowed). */
template <int Offset, class E, unsigned Reg = 1>
void quant_affine(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src, mul_scalar_t<E> scale)
{
    using T = QuantTile<E, Reg>;
    TL_API_CHECK("quant_affine", dst.shape(0) == src.shape(0) && dst.shape(1) == src.shape(1),
                 "shapes differ");
    const uint32_t rows = src.shape(0), cols = src.shape(1);
    for (uint32_t r0 = 0; r0 < rows; r0 += T::D0) {
        const uint32_t vr = rows - r0 < T::D0 ? rows - r0 : T::D0;
        for (uint32_t c0 = 0; c0 < cols; c0 += T::D2) {
            const uint32_t vc = cols - c0 < T::D2 ? cols - c0 : T::D2;
            T t(vr, vc);
            TLOAD(t, src.sub(r0, c0, vr, vc));
            TADDS<Offset>(t, t);
            TMULS(t, t, scale);
            TSTORE(dst.sub(r0, c0, vr, vc), t);
        }
    }
}

/* The same on n contiguous elements. */
template <int Offset, class E, unsigned Reg = 1>
void quant_affine(typename E::storage *dst, const typename E::storage *src, size_t n, mul_scalar_t<E> scale)
{
    static_assert(E::bits >= 8, "quant_affine: flat arrays of 4-bit elements are not supported");
    using T = QuantTile<E, Reg>;
    constexpr uint32_t C = T::D2;
    /* Whole 1 KiB blocks: contiguous tiles, the memory CSRs written once. */
    const size_t blocks = n / T::elements;
    if (blocks != 0) {
        const TileRows<T> io(T::slice_bytes);
        T t;
        for (size_t k = 0; k < blocks; ++k) {
            io.load(t, src + k * T::elements);
            io.template adds<Offset>(t, t);
            io.muls(t, t, scale);
            io.store(dst + k * T::elements, t);
        }
        dst += blocks * T::elements;
        src += blocks * T::elements;
        n -= blocks * T::elements;
    }
    const uint32_t rows = uint32_t(n / C), tail = uint32_t(n % C);
    if (rows) {
        quant_affine<Offset, E, Reg>(GlobalTensor<E, 2>(dst, {rows, C}), GlobalTensor<E, 2>(src, {rows, C}),
                                     scale);
    }
    if (tail) {
        quant_affine<Offset, E, Reg>(GlobalTensor<E, 2>(dst + size_t(rows) * C, {1, tail}),
                                     GlobalTensor<E, 2>(src + size_t(rows) * C, {1, tail}), scale);
    }
}

} // namespace kernels
} // namespace tl

#endif /* TL_KERNELS_QUANT_HPP */
