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

#include <cstdint>
#include <utility>

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
    if (bytes >= 1024) {
        const TileRows<Block> blocks(32);
        Block t;
        for (; bytes - done >= 1024; done += 1024) {
            blocks.load(t, src + done);
            blocks.store(dst + done, t);
        }
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

namespace detail {

template <class E, unsigned Reg>
void copy2d_tiles(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src);

/* Tile k of a group: rows of W bytes in register Reg + k. */
template <uint32_t W, unsigned Reg, size_t K>
using RowTile = Tile<int8, 1024 / W, W / 64, 64, Reg + unsigned(K)>;

/* Tiles moved per pitch switch: registers Reg .. Reg+15, or up to tl31. */
template <unsigned Reg>
constexpr unsigned kCopyGroup = 32 - Reg < 16 ? 32 - Reg : 16;

/*
 * The whole tiles of a copy in order, tile k at rows (k / per_row) * R and
 * bytes (k % per_row) * W of both sides, walked by adding steps instead of
 * dividing per tile.  wrap: the step from the end of a row of tiles to the
 * start of the next.  The addresses are stepped as integers: past the last
 * tile they may point outside both buffers, and are not used there.
 */
template <uint32_t W>
struct TileWalk {
    uintptr_t src, dst;
    int64_t src_wrap, dst_wrap;
    uint32_t per_row, col;

    /*
     * Without a branch: a guest branch ends QEMU's translation block, and
     * the unrolled loads (or stores) of a group are best one block.
     */
    void next()
    {
        const uint32_t c = col + 1;
        const int64_t wrap = -int64_t(c == per_row); /* all ones at the end of a row of tiles */
        col = c & ~uint32_t(wrap);
        src += uintptr_t(W + (src_wrap & wrap));
        dst += uintptr_t(W + (dst_wrap & wrap));
    }
    const uint8_t *src_tile() const { return reinterpret_cast<const uint8_t *>(src); }
    uint8_t *dst_tile() const { return reinterpret_cast<uint8_t *>(dst); }
};

/*
 * TileWalk for a copy one tile wide (per_row 1): each tile is R rows below
 * the last, one add a side, where TileWalk's row wrap is a dozen guest
 * instructions a tile.
 */
struct TileColumnWalk {
    uintptr_t src, dst;
    int64_t src_step, dst_step;

    void next()
    {
        src += uintptr_t(src_step);
        dst += uintptr_t(dst_step);
    }
    const uint8_t *src_tile() const { return reinterpret_cast<const uint8_t *>(src); }
    uint8_t *dst_tile() const { return reinterpret_cast<uint8_t *>(dst); }
};

/* Loads the next tile of w into register Reg + K and moves w past it. */
template <uint32_t W, unsigned Reg, size_t K, class IO, class Walk>
void load_next(const IO &io, Walk &w)
{
    RowTile<W, Reg, K> t;
    io.load(t, w.src_tile());
    w.next();
}
/* Stores register Reg + K to the next tile of w and moves w past it. */
template <uint32_t W, unsigned Reg, size_t K, class IO, class Walk>
void store_next(const IO &io, Walk &w)
{
    io.store(w.dst_tile(), RowTile<W, Reg, K>{});
    w.next();
}

/* Loads the next tiles of w into registers Reg, Reg+1, ... (w is a copy: the stores walk them again). */
template <uint32_t W, unsigned Reg, class IO, class Walk, size_t... K>
void load_group(const IO &io, Walk w, std::index_sequence<K...>)
{
    (load_next<W, Reg, K>(io, w), ...);
}
/* Stores registers Reg, Reg+1, ... to the next tiles of w, and moves w past them. */
template <uint32_t W, unsigned Reg, class IO, class Walk, size_t... K>
void store_group(const IO &io, Walk &w, std::index_sequence<K...>)
{
    (store_next<W, Reg, K>(io, w), ...);
}

/*
 * The groups of kCopyGroup<Reg> tiles of a copy whose pitches differ, each
 * loaded at src_pitch, then stored at dst_pitch; w moves past them.
 * Returns the tiles done.
 */
template <uint32_t W, unsigned Reg, class IO, class Walk>
uint32_t copy_tile_groups(const IO &io, Walk &w, uint32_t tiles, int64_t src_pitch, int64_t dst_pitch)
{
    constexpr unsigned G = kCopyGroup<Reg>;
    uint32_t k = 0;
    for (; tiles - k >= G; k += G) {
        io.set_pitch(src_pitch);
        load_group<W, Reg>(io, w, std::make_index_sequence<G>{});
        io.set_pitch(dst_pitch);
        store_group<W, Reg>(io, w, std::make_index_sequence<G>{});
    }
    return k;
}

/*
 * The whole tiles of rows of W bytes (W = 64 .. 1024, a power of two) in a
 * copy of `rows` rows of row_bytes bytes: 1024 / W rows per tile, tl.load
 * with the source's pitch and tl.store with the destination's, the CSRs
 * written once; when the pitches differ, sixteen tiles (registers Reg ..
 * Reg+15, fewer when that passes tl31) are loaded, then stored, so the
 * stride changes twice per group.  Returns the rows and columns (bytes)
 * done: the rectangle
 * [0, *rows_done) x [0, *bytes_done).
 */
template <uint32_t W, unsigned Reg>
void copy_row_tiles(uint8_t *dst, int64_t dst_pitch, const uint8_t *src, int64_t src_pitch,
                    uint32_t rows, uint32_t row_bytes, uint32_t *rows_done, uint32_t *bytes_done)
{
    static_assert(Reg >= 1 && Reg < 32, "copy: Reg must be tl1 .. tl31");
    using T = RowTile<W, Reg, 0>;
    constexpr uint32_t R = 1024 / W;
    const uint32_t full_rows = rows / R * R, full_bytes = row_bytes / W * W;
    *rows_done = full_rows;
    *bytes_done = full_bytes;
    if (full_rows == 0 || full_bytes == 0) {
        *rows_done = *bytes_done = 0;
        return;
    }
    const uint32_t per_row = full_bytes / W, tiles = full_rows / R * per_row;
    const TileRows<T> io(src_pitch);
    TileWalk<W> w{reinterpret_cast<uintptr_t>(src), reinterpret_cast<uintptr_t>(dst),
                  int64_t(R) * src_pitch - int64_t(full_bytes), int64_t(R) * dst_pitch - int64_t(full_bytes),
                  per_row, 0};
    uint32_t k = 0;
    if (src_pitch != dst_pitch && per_row == 1) {
        TileColumnWalk c{w.src, w.dst, int64_t(R) * src_pitch, int64_t(R) * dst_pitch};
        k = copy_tile_groups<W, Reg>(io, c, tiles, src_pitch, dst_pitch);
        w.src = c.src;
        w.dst = c.dst;
    } else if (src_pitch != dst_pitch) {
        k = copy_tile_groups<W, Reg>(io, w, tiles, src_pitch, dst_pitch);
    }
    T t;
    for (; k < tiles; ++k, w.next()) {
        if (src_pitch != dst_pitch) {
            io.set_pitch(src_pitch);
        }
        io.load(t, w.src_tile());
        if (src_pitch != dst_pitch) {
            io.set_pitch(dst_pitch);
        }
        io.store(w.dst_tile(), t);
    }
}

/* copy_row_tiles with the widest W that fits row_bytes; nothing below 64 bytes. */
template <unsigned Reg>
void copy_wide_rows(uint8_t *dst, int64_t dst_pitch, const uint8_t *src, int64_t src_pitch,
                    uint32_t rows, uint32_t row_bytes, uint32_t *rows_done, uint32_t *bytes_done)
{
    *rows_done = *bytes_done = 0;
    if (row_bytes >= 1024) {
        copy_row_tiles<1024, Reg>(dst, dst_pitch, src, src_pitch, rows, row_bytes, rows_done, bytes_done);
    } else if (row_bytes >= 512) {
        copy_row_tiles<512, Reg>(dst, dst_pitch, src, src_pitch, rows, row_bytes, rows_done, bytes_done);
    } else if (row_bytes >= 256) {
        copy_row_tiles<256, Reg>(dst, dst_pitch, src, src_pitch, rows, row_bytes, rows_done, bytes_done);
    } else if (row_bytes >= 128) {
        copy_row_tiles<128, Reg>(dst, dst_pitch, src, src_pitch, rows, row_bytes, rows_done, bytes_done);
    } else if (row_bytes >= 64) {
        copy_row_tiles<64, Reg>(dst, dst_pitch, src, src_pitch, rows, row_bytes, rows_done, bytes_done);
    }
}

} // namespace detail

/*
 * dst = src for 2-D views of equal shape.  For 4-bit types the column count
 * (and the views' first column) must be even.  Two dense views are one
 * contiguous copy; otherwise the rows are moved in tiles as wide as they
 * allow (up to 1 KiB per row), and what is left over in tiles of 16 rows.
 */
template <class E, unsigned Reg = 1>
void copy2d(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src)
{
    TL_API_CHECK("copy2d", dst.shape(0) == src.shape(0) && dst.shape(1) == src.shape(1),
                 "shapes differ");
    const uint32_t rows = src.shape(0), cols = src.shape(1);
    if (dst.is_dense() && src.is_dense()) {
        copy_bytes<Reg>(dst.data(), src.data(), (size_t(rows) * cols * E::bits + 7) / 8);
        return;
    }
    if constexpr (E::bits >= 8) {
        uint32_t rows_done, bytes_done;
        detail::copy_wide_rows<Reg>(dst.data(), dst.stride(0), src.data(), src.stride(0), rows,
                                    cols * (E::bits / 8), &rows_done, &bytes_done);
        if (rows_done != 0) {
            const uint32_t cols_done = bytes_done / (E::bits / 8);
            if (cols_done < cols) {
                detail::copy2d_tiles<E, Reg>(dst.sub(0, cols_done, rows_done, cols - cols_done),
                                             src.sub(0, cols_done, rows_done, cols - cols_done));
            }
            if (rows_done < rows) {
                detail::copy2d_tiles<E, Reg>(dst.sub(rows_done, 0, rows - rows_done, cols),
                                             src.sub(rows_done, 0, rows - rows_done, cols));
            }
            return;
        }
    }
    detail::copy2d_tiles<E, Reg>(dst, src);
}

namespace detail {
/* dst = src in tiles of 16 rows of 64 bytes, the edges through the valid region. */
template <class E, unsigned Reg>
void copy2d_tiles(const GlobalTensor<E, 2> &dst, const GlobalTensor<E, 2> &src)
{
    using T = CopyTile<E, Reg>;
    const uint32_t rows = src.shape(0), cols = src.shape(1);
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
} // namespace detail

/* dst = src for views of any rank 1..4 and equal shape. */
template <class E, unsigned Rank, unsigned Reg = 1>
void copy(const GlobalTensor<E, Rank> &dst, const GlobalTensor<E, Rank> &src)
{
    for (unsigned d = 0; d < Rank; ++d) {
        TL_API_CHECK("copy", dst.shape(d) == src.shape(d), "shapes differ");
    }
    if constexpr (Rank == 1) {
        copy2d<E, Reg>(tl::detail::as_matrix(dst), tl::detail::as_matrix(src));
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
