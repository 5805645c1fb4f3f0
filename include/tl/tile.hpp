/*
 * TL tile API: a C++17 programming interface to the TensorLoad (xtl)
 * extension, modelled on Ascend PTO (Tile, GlobalTensor, TLOAD, TSTORE,
 * TADDS, TMULS, TFILLPAD, ...).  docs/programming-guide.md is the manual.
 *
 *   using T = tl::Tile<tl::int8, 16, 1, 64, 1>;      // 16x64 uint8 block in tl1
 *   tl::GlobalTensor<tl::int8> in(src, {rows, cols}); // dense row-major matrix
 *   T t(valid_rows, valid_cols);
 *   tl::TLOAD(t, in.sub(r0, c0, valid_rows, valid_cols));
 *   tl::TADDS<-5>(t, t);
 *   tl::TSTORE(out.sub(r0, c0, valid_rows, valid_cols), t);
 *
 * The same source compiles for two backends, chosen at compile time:
 *  - riscv64 (default when __riscv is defined): TL instructions and csrw;
 *    run under qemu-riscv64 -cpu rv64,xtl=on or on TL hardware;
 *  - host (default elsewhere): a thread_local TL hart simulated by the
 *    semantic core target-riscv-tl/core (link tl_core).
 * Define TL_BACKEND_HOST or TL_BACKEND_RISCV to force one.
 *
 * Every operation writes the CSRs it needs (ttype, tshape, tmask_ls,
 * tmask_load_stride, tmask_load_width, tmask_concat_1/2, tvalid) and then
 * issues one instruction (TLOAD of a non-box valid region issues two).
 * Misuse that the types can show is a compile error (static_assert); misuse
 * that depends on run-time values (valid regions, masks, strides) is caught by
 * TL_API_CHECK before any instruction is issued: a message on stderr and
 * abort().  Define TL_API_NO_CHECKS to drop the run-time checks (the hardware
 * then raises illegal-instruction for what it cannot do).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TILE_HPP
#define TL_TILE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "xtl-opc.h"

#if defined(TL_BACKEND_HOST) && defined(TL_BACKEND_RISCV)
#error "define at most one of TL_BACKEND_HOST and TL_BACKEND_RISCV"
#endif
#if !defined(TL_BACKEND_HOST) && !defined(TL_BACKEND_RISCV)
#if defined(__riscv)
#define TL_BACKEND_RISCV 1
#else
#define TL_BACKEND_HOST 1
#endif
#endif

#if defined(TL_BACKEND_RISCV)
#if !defined(__riscv)
#error "TL_BACKEND_RISCV needs a RISC-V compiler"
#endif
#include "tile_backend_riscv.hpp"
#else
#include "tile_backend_host.hpp"
#endif

/*
 * The operations are thin wrappers around CSR writes and one instruction:
 * always inlined, so that a kernel's loop is straight-line code (a call per
 * operation costs more than the operation under emulation).
 */
#if defined(__GNUC__)
#define TL_OP inline __attribute__((always_inline))
#else
#define TL_OP inline
#endif

namespace tl {

/* ------------------------------------------------------------------------ */
/* CSR addresses (docs/isa.md section 2.3), from the generated xtl-opc.h    */
/* ------------------------------------------------------------------------ */
namespace csr {
constexpr unsigned ttype = XTL_CSR_TTYPE;
constexpr unsigned tshape = XTL_CSR_TSHAPE;
constexpr unsigned tmask_ls = XTL_CSR_TMASK_LS;
constexpr unsigned tmask_concat_1 = XTL_CSR_TMASK_CONCAT_1;
constexpr unsigned tmask_concat_2 = XTL_CSR_TMASK_CONCAT_2;
constexpr unsigned tmask_load_stride = XTL_CSR_TMASK_LOAD_STRIDE;
constexpr unsigned tmask_load_width = XTL_CSR_TMASK_LOAD_WIDTH;
constexpr unsigned tvalid = XTL_CSR_TVALID;
} // namespace csr

/* ------------------------------------------------------------------------ */
/* Element types                                                             */
/* ------------------------------------------------------------------------ */
/*
 * One tag type per TL element type.  `storage` is the C++ type that holds one
 * element in memory (4-bit types: one byte holds two elements, element 2m in
 * bits 3:0).  The integer types are unsigned (docs/isa.md 3.2); float types
 * are stored as their bit patterns.
 */
#define TL_ELEMENT_TYPE(Name, Ttype, Bits, IsFloat, Storage)          \
    struct Name {                                                      \
        static constexpr uint32_t ttype = Ttype;                       \
        static constexpr unsigned bits = Bits;                         \
        static constexpr bool is_float = IsFloat;                      \
        using storage = Storage;                                       \
        static constexpr const char *name = #Name;                     \
    }
TL_ELEMENT_TYPE(int4, XTL_TTYPE_INT4, 4, false, uint8_t);
TL_ELEMENT_TYPE(int8, XTL_TTYPE_INT8, 8, false, uint8_t);
TL_ELEMENT_TYPE(int16, XTL_TTYPE_INT16, 16, false, uint16_t);
TL_ELEMENT_TYPE(int32, XTL_TTYPE_INT32, 32, false, uint32_t);
TL_ELEMENT_TYPE(e2m1, XTL_TTYPE_E2M1, 4, true, uint8_t);
TL_ELEMENT_TYPE(e4m3, XTL_TTYPE_E4M3, 8, true, uint8_t);
TL_ELEMENT_TYPE(e5m2, XTL_TTYPE_E5M2, 8, true, uint8_t);
TL_ELEMENT_TYPE(e3m4, XTL_TTYPE_E3M4, 8, true, uint8_t);
TL_ELEMENT_TYPE(fp16, XTL_TTYPE_FP16, 16, true, uint16_t);
TL_ELEMENT_TYPE(bf16, XTL_TTYPE_BF16, 16, true, uint16_t);
TL_ELEMENT_TYPE(fp32, XTL_TTYPE_FP32, 32, true, uint32_t);
#undef TL_ELEMENT_TYPE

template <class E> struct is_element_type : std::false_type {};
template <> struct is_element_type<int4> : std::true_type {};
template <> struct is_element_type<int8> : std::true_type {};
template <> struct is_element_type<int16> : std::true_type {};
template <> struct is_element_type<int32> : std::true_type {};
template <> struct is_element_type<e2m1> : std::true_type {};
template <> struct is_element_type<e4m3> : std::true_type {};
template <> struct is_element_type<e5m2> : std::true_type {};
template <> struct is_element_type<e3m4> : std::true_type {};
template <> struct is_element_type<fp16> : std::true_type {};
template <> struct is_element_type<bf16> : std::true_type {};
template <> struct is_element_type<fp32> : std::true_type {};

/* The scalar TMULS takes: float (passed as its binary32 bits) or unsigned. */
template <class E>
using mul_scalar_t = std::conditional_t<E::is_float, float, uint64_t>;

/* PTO's PadValue: the pad of TFILLPAD.  Null has no TL counterpart. */
enum class PadValue : unsigned { Zero = 0, Min = 1, Max = 2 };

/* tshape / tvalid encoding: [23:16] D0, [15:8] D1, [7:0] D2. */
constexpr uint32_t shape_value(unsigned d0, unsigned d1, unsigned d2)
{
    return ((d0 & 0xFFu) << 16) | ((d1 & 0xFFu) << 8) | (d2 & 0xFFu);
}

/* Bits 0 .. n-1 set (n <= 32). */
constexpr uint32_t low_mask(unsigned n) { return n >= 32 ? 0xFFFFFFFFu : (uint32_t{1} << n) - 1; }

/* ------------------------------------------------------------------------ */
/* Run-time checks                                                           */
/* ------------------------------------------------------------------------ */
namespace detail {
[[noreturn]] inline void api_fail(const char *op, const char *what, const char *file, int line)
{
    std::fprintf(stderr, "%s:%d: tl::%s: %s\n", file, line, op, what);
    std::fflush(stderr);
    std::abort();
}
/*
 * Bit counts without a library call: on a RISC-V target without Zbb the
 * builtins call libgcc, a function call per TL operation.
 */
constexpr unsigned popcount(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}
/* Index of the highest set bit of v != 0. */
constexpr unsigned highest_bit(uint32_t v)
{
    unsigned n = 0;
    if (v >> 16) { v >>= 16; n += 16; }
    if (v >> 8) { v >>= 8; n += 8; }
    if (v >> 4) { v >>= 4; n += 4; }
    if (v >> 2) { v >>= 2; n += 2; }
    return n + (v >> 1);
}
} // namespace detail

#if defined(TL_API_NO_CHECKS)
#define TL_API_CHECK(op, cond, what) ((void)0)
#else
#define TL_API_CHECK(op, cond, what) \
    ((cond) ? (void)0 : ::tl::detail::api_fail(op, what, __FILE__, __LINE__))
#endif

/* ------------------------------------------------------------------------ */
/* GlobalTensor: a view of memory                                            */
/* ------------------------------------------------------------------------ */
/*
 * Pointer + shape + byte strides, up to 4 dimensions, dimension 0 outermost.
 * Strides may be negative or zero.  The innermost dimension must be
 * contiguous (TL moves contiguous bytes within a slice): its stride is the
 * element size (ignored for the 4-bit types, whose elements are packed two
 * per byte; a 4-bit view must start on an even element).
 */
template <class E, unsigned Rank = 2>
class GlobalTensor {
    static_assert(is_element_type<E>::value, "GlobalTensor: E must be a tl element type (tl::int8, tl::fp16, ...)");
    static_assert(Rank >= 1 && Rank <= 4, "GlobalTensor: rank must be 1 to 4");

public:
    using elem = E;
    static constexpr unsigned rank = Rank;
    static constexpr int64_t elem_stride = E::bits / 8; /* 0 for 4-bit types */

    GlobalTensor() = default;

    /* A dense row-major tensor at data. */
    GlobalTensor(const void *data, const std::array<uint32_t, Rank> &shape)
        : data_(static_cast<uint8_t *>(const_cast<void *>(data))), shape_(shape)
    {
        int64_t s = elem_stride;
        stride_[Rank - 1] = s;
        int64_t row = row_bytes(shape_[Rank - 1]);
        for (int d = int(Rank) - 2; d >= 0; --d) {
            stride_[d] = row;
            row *= shape_[d];
        }
        TL_API_CHECK("GlobalTensor", E::bits >= 8 || (shape_[Rank - 1] % 2) == 0,
                     "a dense 4-bit tensor needs an even innermost dimension");
    }

    /* Any layout: strides in bytes; strides[Rank-1] must be the element size. */
    GlobalTensor(const void *data, const std::array<uint32_t, Rank> &shape,
                 const std::array<int64_t, Rank> &strides)
        : data_(static_cast<uint8_t *>(const_cast<void *>(data))), shape_(shape), stride_(strides)
    {
        TL_API_CHECK("GlobalTensor", E::bits < 8 || stride_[Rank - 1] == elem_stride,
                     "the innermost dimension must be contiguous (stride = element size)");
        stride_[Rank - 1] = elem_stride;
    }

    uint8_t *data() const { return data_; }
    uint32_t shape(unsigned d) const { return shape_[d]; }
    int64_t stride(unsigned d) const { return stride_[d]; }
    const std::array<uint32_t, Rank> &shapes() const { return shape_; }
    uint64_t size() const
    {
        uint64_t n = 1;
        for (unsigned d = 0; d < Rank; ++d) n *= shape_[d];
        return n;
    }
    /* Bytes taken by n consecutive elements of the innermost dimension. */
    static constexpr int64_t row_bytes(uint64_t n) { return int64_t(n * E::bits / 8); }

    /* Address of an element (for 4-bit types the innermost index must be even). */
    uint8_t *ptr(const std::array<uint32_t, Rank> &idx) const
    {
        int64_t off = 0;
        for (unsigned d = 0; d + 1 < Rank; ++d) off += int64_t(idx[d]) * stride_[d];
        TL_API_CHECK("GlobalTensor::ptr", E::bits >= 8 || idx[Rank - 1] % 2 == 0,
                     "a 4-bit element at an odd index has no byte address");
        off += row_bytes(idx[Rank - 1]);
        return data_ + off;
    }

    /* True when the elements are contiguous in row-major order. */
    bool is_dense() const
    {
        int64_t expect = row_bytes(shape_[Rank - 1]);
        for (int d = int(Rank) - 2; d >= 0; --d) {
            if (shape_[d] > 1 && stride_[d] != expect) return false;
            expect *= shape_[d];
        }
        return true;
    }

    /*
     * Elements start, start+step, ..., start+(len-1)*step of dimension dim.
     * step may be negative (reversed order); it must be 1 for the innermost
     * dimension.  len may be 0 (then start may equal the size).
     */
    GlobalTensor slice(unsigned dim, uint32_t start, uint32_t len, int32_t step = 1) const
    {
        TL_API_CHECK("GlobalTensor::slice", dim < Rank, "no such dimension");
        TL_API_CHECK("GlobalTensor::slice", step != 0, "step 0");
        TL_API_CHECK("GlobalTensor::slice", dim + 1 < Rank || step == 1,
                     "the innermost dimension cannot be strided");
        if (len > 0) {
            const int64_t last = int64_t(start) + int64_t(len - 1) * step;
            TL_API_CHECK("GlobalTensor::slice", start < shape_[dim] && last >= 0 && last < shape_[dim],
                         "slice out of range");
        } else {
            TL_API_CHECK("GlobalTensor::slice", start <= shape_[dim], "slice start out of range");
        }
        GlobalTensor r = *this;
        if (dim + 1 < Rank) {
            r.data_ = data_ + int64_t(start) * stride_[dim];
        } else {
            TL_API_CHECK("GlobalTensor::slice", E::bits >= 8 || start % 2 == 0,
                         "a 4-bit slice must start at an even element");
            r.data_ = data_ + row_bytes(start);
        }
        r.shape_[dim] = len;
        r.stride_[dim] = stride_[dim] * step;
        return r;
    }

    /* The sub-tensor at index i of dimension dim (one rank less). */
    template <unsigned R = Rank, class = std::enable_if_t<(R > 1)>>
    GlobalTensor<E, Rank - 1> select(unsigned dim, uint32_t i) const
    {
        TL_API_CHECK("GlobalTensor::select", dim + 1 < Rank, "cannot select along the innermost dimension");
        TL_API_CHECK("GlobalTensor::select", i < shape_[dim], "index out of range");
        std::array<uint32_t, Rank - 1> sh{};
        std::array<int64_t, Rank - 1> st{};
        for (unsigned d = 0, k = 0; d < Rank; ++d) {
            if (d == dim) continue;
            sh[k] = shape_[d];
            st[k] = stride_[d];
            ++k;
        }
        return GlobalTensor<E, Rank - 1>(data_ + int64_t(i) * stride_[dim], sh, st);
    }

    /* Merges dimensions dim and dim+1 (which must be laid out contiguously). */
    template <unsigned R = Rank, class = std::enable_if_t<(R > 1)>>
    GlobalTensor<E, Rank - 1> flatten(unsigned dim) const
    {
        TL_API_CHECK("GlobalTensor::flatten", dim + 1 < Rank, "no dimension after dim");
        const int64_t inner = dim + 2 == Rank ? row_bytes(shape_[dim + 1])
                                              : int64_t(shape_[dim + 1]) * stride_[dim + 1];
        TL_API_CHECK("GlobalTensor::flatten", shape_[dim] <= 1 || stride_[dim] == inner,
                     "the two dimensions are not contiguous");
        std::array<uint32_t, Rank - 1> sh{};
        std::array<int64_t, Rank - 1> st{};
        for (unsigned d = 0, k = 0; d < Rank; ++d) {
            if (d == dim + 1) continue;
            sh[k] = d == dim ? shape_[d] * shape_[d + 1] : shape_[d];
            st[k] = d == dim ? stride_[d + 1] : stride_[d];
            ++k;
        }
        return GlobalTensor<E, Rank - 1>(data_, sh, st);
    }

    /* The same dense data with another shape of the same size. */
    template <unsigned R2>
    GlobalTensor<E, R2> reshape(const std::array<uint32_t, R2> &shape) const
    {
        TL_API_CHECK("GlobalTensor::reshape", is_dense(), "only a dense tensor can be reshaped in place");
        uint64_t n = 1;
        for (unsigned d = 0; d < R2; ++d) n *= shape[d];
        TL_API_CHECK("GlobalTensor::reshape", n == size(), "reshape changes the element count");
        return GlobalTensor<E, R2>(data_, shape);
    }

    /* 2-D window: rows r0 .. r0+nr-1, columns c0 .. c0+nc-1. */
    template <unsigned R = Rank, class = std::enable_if_t<(R == 2)>>
    GlobalTensor sub(uint32_t r0, uint32_t c0, uint32_t nr, uint32_t nc) const
    {
        return slice(0, r0, nr).slice(1, c0, nc);
    }

private:
    uint8_t *data_ = nullptr;
    std::array<uint32_t, Rank> shape_{};
    std::array<int64_t, Rank> stride_{};
};

/* ------------------------------------------------------------------------ */
/* Tile: a block of shape [D0, D1, D2] in TL register Reg                    */
/* ------------------------------------------------------------------------ */
/*
 * The data live in the TL register; a Tile object only carries the run-time
 * valid region (V0, V1, V2) <= (D0, D1, D2), PTO's GetValidRow/GetValidCol.
 * Several Tile objects, even of different types, may name the same register:
 * each is a typed view of it (tl.xpose results are read that way).
 * Tile<E, Rows, 1, Cols, Reg> (alias Tile2D) is PTO's 2-D row-major tile.
 */
template <class E, unsigned D0_, unsigned D1_, unsigned D2_, unsigned Reg_>
class Tile {
    static_assert(is_element_type<E>::value, "Tile: E must be a tl element type (tl::int8, tl::fp16, ...)");
    static_assert(Reg_ < 32, "Tile: the TL register number must be 0..31");
    static_assert(D0_ >= 1 && D0_ <= 255 && D1_ >= 1 && D1_ <= 255 && D2_ >= 1 && D2_ <= 255,
                  "Tile: each dimension must be 1..255 (8-bit tshape fields)");
    static_assert((D1_ * D2_ * E::bits) % 8 == 0,
                  "Tile: a slice (D1*D2 elements) must be a whole number of bytes");
    static_assert(D0_ * D1_ * D2_ * E::bits <= 8 * 1024,
                  "Tile: the block must fit in one 1024-byte TL register");

public:
    using elem = E;
    static constexpr unsigned D0 = D0_, D1 = D1_, D2 = D2_, reg = Reg_;
    static constexpr uint32_t elements = D0_ * D1_ * D2_;
    static constexpr uint32_t slice_bytes = D1_ * D2_ * E::bits / 8;
    static constexpr uint32_t bytes = D0_ * slice_bytes;
    static constexpr uint32_t tshape = shape_value(D0_, D1_, D2_);
    static constexpr unsigned dim(unsigned d) { return d == 0 ? D0_ : d == 1 ? D1_ : D2_; }

    /* Fully valid. */
    constexpr Tile() : v_{D0_, D1_, D2_} {}
    /* Valid region (v0, v1, v2). */
    Tile(unsigned v0, unsigned v1, unsigned v2) : v_{v0, v1, v2} { check_valid(); }
    /* 2-D tiles (D1 == 1): valid rows x valid columns. */
    Tile(unsigned valid_rows, unsigned valid_cols) : v_{valid_rows, 1, valid_cols}
    {
        static_assert(D1_ == 1, "Tile(rows, cols) is for 2-D tiles [Rows, 1, Cols]");
        check_valid();
    }

    unsigned valid(unsigned d) const { return v_[d]; }
    unsigned GetValidRow() const { return v_[0]; }
    /* Valid columns of a 2-D tile [Rows, 1, Cols]. */
    unsigned GetValidCol() const
    {
        static_assert(D1_ == 1, "GetValidCol() is for 2-D tiles [Rows, 1, Cols]; use valid(d)");
        return v_[2];
    }
    void set_valid(unsigned v0, unsigned v1, unsigned v2)
    {
        v_[0] = v0;
        v_[1] = v1;
        v_[2] = v2;
        check_valid();
    }
    void set_valid_full() { set_valid(D0_, D1_, D2_); }
    bool empty() const { return v_[0] == 0 || v_[1] == 0 || v_[2] == 0; }
    uint32_t tvalid() const { return shape_value(v_[0], v_[1], v_[2]); }

private:
    void check_valid() const
    {
        TL_API_CHECK("Tile", v_[0] <= D0_ && v_[1] <= D1_ && v_[2] <= D2_,
                     "the valid region is larger than the tile");
    }
    unsigned v_[3];
};

template <class E, unsigned Rows, unsigned Cols, unsigned Reg>
using Tile2D = Tile<E, Rows, 1, Cols, Reg>;

/* tl0 reads as zero: a source of zeros for TCONCAT / TMERGE. */
template <class E, unsigned D0, unsigned D1, unsigned D2>
using ZeroTile = Tile<E, D0, D1, D2, 0>;

template <class T> struct is_tile : std::false_type {};
template <class E, unsigned A, unsigned B, unsigned C, unsigned R>
struct is_tile<Tile<E, A, B, C, R>> : std::true_type {};

/* Row selection of TLOAD / TSTORE (tmask_ls): bit i selects slice i. */
struct RowMask {
    uint32_t bits;
};
constexpr RowMask all_rows{0xFFFFFFFFu};

/* 4-D shape [X0, X1, X2, X3] of the 2048-byte tensor TXPOSE works on. */
template <unsigned X0, unsigned X1, unsigned X2, unsigned X3>
struct XposeShape {
    static_assert(X0 >= 1 && X0 <= 255 && X1 >= 1 && X1 <= 255 && X2 >= 1 && X2 <= 255 &&
                      X3 >= 1 && X3 <= 255,
                  "XposeShape: each dimension must be 1..255");
    static constexpr unsigned dim[4] = {X0, X1, X2, X3};
    static constexpr uint64_t elements = uint64_t(X0) * X1 * X2 * X3;
    /* x[rs] of tl.xpose: D3[31:24] D2[23:16] D1[15:8] D0[7:0] */
    static constexpr uint32_t value = (X3 << 24) | (X2 << 16) | (X1 << 8) | X0;
};

/* ------------------------------------------------------------------------ */
/* Registers as bytes (debugging, context switch)                            */
/* ------------------------------------------------------------------------ */
/*
 * Copies all 1024 bytes of TL register Reg to out / from in, through
 * tl.store / tl.load with the whole-register shape of docs/isa.md 2.5.
 * Overwrites ttype, tshape, tmask_load_width and tmask_load_stride.
 */
template <unsigned Reg>
inline void read_register(void *out)
{
    static_assert(Reg < 32, "read_register: register 0..31");
    backend::csr_write_const<csr::ttype, int8::ttype>();
    backend::csr_write_const<csr::tshape, shape_value(4, 2, 128)>();
    backend::csr_write_const<csr::tmask_load_width, 256>();
    backend::csr_write_const<csr::tmask_load_stride, 256>();
    backend::store<Reg, false>(out);
}
template <unsigned Reg>
inline void write_register(const void *in)
{
    static_assert(Reg >= 1 && Reg < 32, "write_register: register 1..31 (tl0 is read-only zero)");
    backend::csr_write_const<csr::ttype, int8::ttype>();
    backend::csr_write_const<csr::tshape, shape_value(4, 2, 128)>();
    backend::csr_write_const<csr::tmask_load_width, 256>();
    backend::csr_write_const<csr::tmask_load_stride, 256>();
    backend::load<Reg, false>(in);
}
template <class T>
inline void read_register(const T &, void *out)
{
    static_assert(is_tile<T>::value, "read_register: argument must be a Tile");
    read_register<T::reg>(out);
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */
/* ------------------------------------------------------------------------ */
namespace detail {

/* Elements of the valid region's slice prefix: all of (j < V1, k < V2) lie before it. */
template <class T>
TL_OP uint32_t valid_prefix_elements(const T &t)
{
    if (t.empty()) return 0;
    return (t.valid(1) - 1) * T::D2 + t.valid(2);
}

/* True when the valid region is exactly a prefix of each slice. */
template <class T>
TL_OP bool valid_is_prefix(const T &t)
{
    return t.empty() || t.valid(1) == 1 || t.valid(2) == T::D2;
}

template <class T, class GE>
TL_OP void setup_memory(const char *op, const T &t, const GlobalTensor<GE, 2> &g, uint32_t rows_mask,
                         uint32_t *mask_out, uint32_t *width_out, bool *empty_out)
{
    using E = typename T::elem;
    (void)op;
    const uint32_t n = valid_prefix_elements(t);
    const uint32_t mask = low_mask(t.valid(0)) & rows_mask & low_mask(T::D0);
    *empty_out = n == 0 || mask == 0;
    *mask_out = mask;
    uint32_t width = T::slice_bytes;
    int64_t pitch = 0;
    if (!*empty_out) {
        TL_API_CHECK(op, (n * E::bits) % 8 == 0,
                     "the valid part of a slice of a 4-bit tile must be an even number of elements");
        width = n * E::bits / 8;
        const unsigned last_row = highest_bit(mask);
        TL_API_CHECK(op, last_row < g.shape(0), "the valid rows exceed the GlobalTensor's rows");
        TL_API_CHECK(op, n <= g.shape(1), "the valid columns exceed the GlobalTensor's columns");
        pitch = g.stride(0);
        if (last_row == 0) pitch = 0; /* one row: the pitch is never used */
        TL_API_CHECK(op, pitch >= INT32_MIN && pitch <= INT32_MAX,
                     "the row stride does not fit the 32-bit tmask_load_stride");
    }
    *width_out = width;
    backend::csr_write_const<csr::ttype, E::ttype>();
    backend::csr_write_const<csr::tshape, T::tshape>();
    backend::csr_write<csr::tmask_load_width>(width);
    backend::csr_write<csr::tmask_load_stride>(static_cast<uint32_t>(static_cast<int32_t>(pitch)));
}

template <class GE>
inline GlobalTensor<GE, 2> as_matrix(const GlobalTensor<GE, 1> &g)
{
    return GlobalTensor<GE, 2>(g.data(), {1, g.shape(0)}, {0, GlobalTensor<GE, 1>::elem_stride});
}

} // namespace detail

/*
 * TLOAD: dst[i][j][k] = src[i][j*D2 + k] inside dst's valid region, zero
 * elsewhere (PTO TLOAD with zero padding).  Row i of src (dimension 0 of the
 * view, any byte stride) fills slice i; the slice's elements come from the
 * row's contiguous columns.  Rows outside rows (tmask_ls) are zero too.
 * CSRs: ttype, tshape, tmask_load_width (valid bytes per slice),
 * tmask_load_stride (row stride), tmask_ls (valid rows & rows) -> tl.load or
 * tl.mload.  A valid region that is not a prefix of each slice (V1 > 1 and
 * V2 < D2) costs one more instruction, tl.fillpad.zero.
 */
template <class E, unsigned D0, unsigned D1, unsigned D2, unsigned Reg, class GE>
TL_OP void TLOAD(Tile<E, D0, D1, D2, Reg> &dst, const GlobalTensor<GE, 2> &src, RowMask rows = all_rows)
{
    static_assert(E::bits == GE::bits, "TLOAD: tile and GlobalTensor element sizes differ");
    static_assert(D0 <= 32, "TLOAD: D0 must be <= 32 (tmask_ls selects at most 32 slices)");
    static_assert(Reg != 0, "TLOAD: tl0 is read-only (writes to it are discarded)");
    uint32_t mask, width;
    bool empty;
    detail::setup_memory("TLOAD", dst, src, rows.bits, &mask, &width, &empty);
    if (empty) {
        backend::csr_write_const<csr::tmask_ls, 0>(); /* nothing selected: an all-zero block */
        backend::load<Reg, true>(src.data());
        return;
    }
    if (mask == low_mask(D0)) {
        backend::load<Reg, false>(src.data());
    } else {
        backend::csr_write<csr::tmask_ls>(mask);
        backend::load<Reg, true>(src.data());
    }
    if (!detail::valid_is_prefix(dst)) {
        backend::csr_write<csr::tvalid>(dst.tvalid());
        backend::fillpad<static_cast<unsigned>(PadValue::Zero), Reg, Reg>();
    }
}
template <class E, unsigned D0, unsigned D1, unsigned D2, unsigned Reg, class GE>
TL_OP void TLOAD(Tile<E, D0, D1, D2, Reg> &dst, const GlobalTensor<GE, 1> &src, RowMask rows = all_rows)
{
    TLOAD(dst, detail::as_matrix(src), rows);
}

/*
 * TSTORE: src's valid region (restricted to rows) is written to dst, row i of
 * the tile to row i of the view; nothing else in memory changes.  The valid
 * region must be a prefix of each slice (always true for 2-D tiles).
 */
template <class E, unsigned D0, unsigned D1, unsigned D2, unsigned Reg, class GE>
TL_OP void TSTORE(const GlobalTensor<GE, 2> &dst, const Tile<E, D0, D1, D2, Reg> &src,
                   RowMask rows = all_rows)
{
    static_assert(E::bits == GE::bits, "TSTORE: tile and GlobalTensor element sizes differ");
    static_assert(D0 <= 32, "TSTORE: D0 must be <= 32 (tmask_ls selects at most 32 slices)");
    TL_API_CHECK("TSTORE", detail::valid_is_prefix(src),
                 "the valid region must be a prefix of each slice (V1 == 1 or V2 == D2)");
    const uint32_t n = detail::valid_prefix_elements(src);
    if (n == 0 || (low_mask(src.valid(0)) & rows.bits) == 0) {
        return; /* nothing to store */
    }
    uint32_t mask, width;
    bool empty;
    detail::setup_memory("TSTORE", src, dst, rows.bits, &mask, &width, &empty);
    if (mask == low_mask(D0)) {
        backend::store<Reg, false>(dst.data());
    } else {
        backend::csr_write<csr::tmask_ls>(mask);
        backend::store<Reg, true>(dst.data());
    }
}
template <class E, unsigned D0, unsigned D1, unsigned D2, unsigned Reg, class GE>
TL_OP void TSTORE(const GlobalTensor<GE, 1> &dst, const Tile<E, D0, D1, D2, Reg> &src,
                   RowMask rows = all_rows)
{
    TSTORE(detail::as_matrix(dst), src, rows);
}

namespace detail {
template <class TD, class TS>
constexpr bool same_shape = TD::D0 == TS::D0 && TD::D1 == TS::D1 && TD::D2 == TS::D2;
} // namespace detail

/*
 * TADDS<Imm>: dst = sat(src + Imm) for every element of the whole register
 * (tl.addi).  Imm is an int8 instruction field, hence a template argument.
 * Integers saturate to [0, 2^bits - 1]; floats round once (docs/isa.md 5.9).
 * dst's valid region becomes src's.
 */
namespace detail {
/* The instruction of TADDS, with ttype already the tiles' element type. */
template <int Imm, class TD, class TS>
TL_OP void adds_insn(TD &dst, const TS &src)
{
    backend::addi<TD::reg, TS::reg, Imm>();
    const unsigned v0 = src.valid(0), v1 = src.valid(1), v2 = src.valid(2);
    dst.set_valid(v0, v1, v2);
}
/* The instruction of TMULS, with ttype already the tiles' element type. */
template <class TD, class TS>
TL_OP void muls_insn(TD &dst, const TS &src, uint64_t raw)
{
    backend::muls<TD::reg, TS::reg>(raw);
    const unsigned v0 = src.valid(0), v1 = src.valid(1), v2 = src.valid(2);
    dst.set_valid(v0, v1, v2);
}
} // namespace detail

template <int Imm, class TD, class TS>
TL_OP void TADDS(TD &dst, const TS &src)
{
    static_assert(is_tile<TD>::value && is_tile<TS>::value, "TADDS: operands must be tl::Tile");
    static_assert(Imm >= -128 && Imm <= 127, "TADDS: the immediate must fit in int8 (-128..127)");
    static_assert(std::is_same<typename TD::elem, typename TS::elem>::value,
                  "TADDS: source and destination element types differ");
    static_assert(detail::same_shape<TD, TS>, "TADDS: source and destination shapes differ");
    static_assert(TD::reg != 0, "TADDS: tl0 is read-only (writes to it are discarded)");
    backend::csr_write_const<csr::ttype, TD::elem::ttype>();
    detail::adds_insn<Imm>(dst, src);
}

/* TMULS with the raw GPR value (binary32 bits for floats), e.g. a NaN payload. */
struct ScalarBits {
    uint64_t value;
};

/*
 * TMULS: dst = sat(src * scalar) for every element of the whole register
 * (tl.muls).  Float tiles: scalar is a float, passed as its binary32 bits
 * (exact for fp16/bf16/fp8 scalars).  Integer tiles: scalar is unsigned.
 * dst's valid region becomes src's.
 */
template <class TD, class TS>
TL_OP void TMULS(TD &dst, const TS &src, ScalarBits scalar)
{
    static_assert(is_tile<TD>::value && is_tile<TS>::value, "TMULS: operands must be tl::Tile");
    static_assert(std::is_same<typename TD::elem, typename TS::elem>::value,
                  "TMULS: source and destination element types differ");
    static_assert(detail::same_shape<TD, TS>, "TMULS: source and destination shapes differ");
    static_assert(TD::reg != 0, "TMULS: tl0 is read-only (writes to it are discarded)");
    backend::csr_write_const<csr::ttype, TD::elem::ttype>();
    detail::muls_insn(dst, src, scalar.value);
}
namespace detail {
/* x[rs] of tl.muls: a float scalar as its binary32 bits, an integer as it is. */
template <class E>
TL_OP uint64_t muls_operand(mul_scalar_t<E> scalar)
{
    if constexpr (E::is_float) {
        uint32_t bits;
        std::memcpy(&bits, &scalar, sizeof bits);
        return bits;
    } else {
        return scalar;
    }
}
} // namespace detail
template <class TD, class TS>
TL_OP void TMULS(TD &dst, const TS &src, mul_scalar_t<typename TD::elem> scalar)
{
    TMULS(dst, src, ScalarBits{detail::muls_operand<typename TD::elem>(scalar)});
}

/*
 * TFILLPAD<Pad>: dst = src inside src's valid region, the pad value outside
 * (tl.fillpad; tvalid = src's valid region).  Min/Max are -inf/+inf for
 * types with infinities, else the lowest/highest finite value (0 and
 * 2^bits-1 for integers).  Afterwards dst is fully valid.
 */
template <PadValue Pad = PadValue::Zero, class TD, class TS>
TL_OP void TFILLPAD(TD &dst, const TS &src)
{
    static_assert(is_tile<TD>::value && is_tile<TS>::value, "TFILLPAD: operands must be tl::Tile");
    static_assert(TD::elem::bits == TS::elem::bits, "TFILLPAD: source and destination element sizes differ");
    static_assert(detail::same_shape<TD, TS>,
                  "TFILLPAD: source and destination shapes differ (TFILLPAD_EXPAND has no TL counterpart)");
    static_assert(TD::reg != 0, "TFILLPAD: tl0 is read-only (writes to it are discarded)");
    backend::csr_write_const<csr::ttype, TD::elem::ttype>();
    backend::csr_write_const<csr::tshape, TD::tshape>();
    backend::csr_write<csr::tvalid>(src.tvalid());
    backend::fillpad<static_cast<unsigned>(Pad), TD::reg, TS::reg>();
    dst.set_valid_full();
}

/*
 * TCONCAT<Dim>: the indices along Dim selected by mask1 in src1, then those
 * selected by mask2 in src2, become indices 0, 1, ... of dst; the rest of dst
 * is zero (tl.concat.Dim).  The three tiles share one shape.  dst's valid
 * extent along Dim becomes the number of selected indices, along the other
 * dimensions the smaller of the sources'.  The form without masks
 * concatenates the valid prefixes along Dim.
 */
namespace detail {
/* TCONCAT but for ttype and tshape, which hold the tiles' type and shape already. */
template <unsigned Dim, class TD, class T1, class T2>
TL_OP void concat_insn(TD &dst, const T1 &src1, const T2 &src2, uint32_t mask1, uint32_t mask2)
{
    static_assert(is_tile<TD>::value && is_tile<T1>::value && is_tile<T2>::value,
                  "TCONCAT: operands must be tl::Tile");
    static_assert(Dim <= 2, "TCONCAT: Dim must be 0, 1 or 2");
    static_assert(TD::dim(Dim) <= 32, "TCONCAT: the concatenated dimension must be <= 32 (32-bit masks)");
    static_assert(TD::elem::bits == T1::elem::bits && TD::elem::bits == T2::elem::bits,
                  "TCONCAT: element sizes differ");
    static_assert(detail::same_shape<TD, T1> && detail::same_shape<TD, T2>,
                  "TCONCAT: the three tiles must have one shape (one tshape)");
    static_assert(TD::reg != 0, "TCONCAT: tl0 is read-only (writes to it are discarded)");
    constexpr uint32_t all = low_mask(TD::dim(Dim));
    const unsigned n = detail::popcount(mask1 & all) + detail::popcount(mask2 & all);
    TL_API_CHECK("TCONCAT", n <= TD::dim(Dim), "the masks select more indices than the dimension holds");
    unsigned v[3];
    for (unsigned d = 0; d < 3; ++d) {
        v[d] = src1.valid(d) < src2.valid(d) ? src1.valid(d) : src2.valid(d);
    }
    v[Dim] = n;
    backend::csr_write<csr::tmask_concat_1>(mask1);
    backend::csr_write<csr::tmask_concat_2>(mask2);
    backend::concat<Dim, TD::reg, T1::reg, T2::reg>();
    dst.set_valid(v[0], v[1], v[2]);
}
} // namespace detail

template <unsigned Dim, class TD, class T1, class T2>
TL_OP void TCONCAT(TD &dst, const T1 &src1, const T2 &src2, uint32_t mask1, uint32_t mask2)
{
    static_assert(is_tile<TD>::value, "TCONCAT: operands must be tl::Tile");
    backend::csr_write_const<csr::ttype, TD::elem::ttype>();
    backend::csr_write_const<csr::tshape, TD::tshape>();
    detail::concat_insn<Dim>(dst, src1, src2, mask1, mask2);
}
template <unsigned Dim, class TD, class T1, class T2>
TL_OP void TCONCAT(TD &dst, const T1 &src1, const T2 &src2)
{
    static_assert(Dim <= 2, "TCONCAT: Dim must be 0, 1 or 2");
    TCONCAT<Dim>(dst, src1, src2, low_mask(src1.valid(Dim)), low_mask(src2.valid(Dim)));
}

/*
 * TMERGE<Dim>: dst takes index t along Dim from src1 when bit t of mask is 1,
 * from src2 otherwise (tl.merge.Dim).  dst's valid region becomes the
 * component-wise maximum of the sources'.
 */
template <unsigned Dim, class TD, class T1, class T2>
TL_OP void TMERGE(TD &dst, const T1 &src1, const T2 &src2, uint32_t mask)
{
    static_assert(is_tile<TD>::value && is_tile<T1>::value && is_tile<T2>::value,
                  "TMERGE: operands must be tl::Tile");
    static_assert(Dim <= 2, "TMERGE: Dim must be 0, 1 or 2");
    static_assert(TD::dim(Dim) <= 32, "TMERGE: the merged dimension must be <= 32 (32-bit mask)");
    static_assert(TD::elem::bits == T1::elem::bits && TD::elem::bits == T2::elem::bits,
                  "TMERGE: element sizes differ");
    static_assert(detail::same_shape<TD, T1> && detail::same_shape<TD, T2>,
                  "TMERGE: the three tiles must have one shape (one tshape)");
    static_assert(TD::reg != 0, "TMERGE: tl0 is read-only (writes to it are discarded)");
    unsigned v[3];
    for (unsigned d = 0; d < 3; ++d) {
        v[d] = src1.valid(d) > src2.valid(d) ? src1.valid(d) : src2.valid(d);
    }
    backend::csr_write_const<csr::ttype, TD::elem::ttype>();
    backend::csr_write_const<csr::tshape, TD::tshape>();
    backend::csr_write<csr::tmask_concat_1>(mask);
    backend::merge<Dim, TD::reg, T1::reg, T2::reg>();
    dst.set_valid(v[0], v[1], v[2]);
}

/*
 * TXPOSE<A, B>: swaps dimensions A and B of the 2048-byte tensor Shape
 * [X0, X1, X2, X3] whose first half is in lo's register and second half in
 * hi's (tl.xpose.AB); the row-major result is written back the same way.
 * Read the result through Tile types of the transposed shape on the same
 * registers.  Only lo's element type matters (ttype).
 */
namespace detail {
/* What TXPOSE's operands must satisfy. */
template <unsigned A, unsigned B, class TLo, class THi, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
constexpr void xpose_checks()
{
    static_assert(is_tile<TLo>::value && is_tile<THi>::value, "TXPOSE: operands must be tl::Tile");
    static_assert(A <= 3 && B <= 3, "TXPOSE: dimensions are 0..3");
    static_assert(TLo::elem::bits == THi::elem::bits, "TXPOSE: element sizes differ");
    static_assert(uint64_t(X0) * X1 * X2 * X3 * TLo::elem::bits == 2048 * 8,
                  "TXPOSE: the tensor [X0, X1, X2, X3] must be exactly 2048 bytes (two TL registers)");
    static_assert(X0 % 2 == 0, "TXPOSE: X0 must be even (each register holds X0/2 slices)");
    static_assert(TLo::reg != THi::reg, "TXPOSE: the two halves must be in different registers");
    static_assert(TLo::reg != 0 && THi::reg != 0, "TXPOSE: tl0 is read-only (half of the result would be lost)");
}

/* The instruction of TXPOSE, with ttype already the tiles' element type. */
template <unsigned A, unsigned B, class TLo, class THi, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
TL_OP void xpose_insn(XposeShape<X0, X1, X2, X3>)
{
    xpose_checks<A, B, TLo, THi, X0, X1, X2, X3>();
    backend::xpose<A, B, TLo::reg, THi::reg>(XposeShape<X0, X1, X2, X3>::value);
}
} // namespace detail

template <unsigned A, unsigned B, class TLo, class THi, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
TL_OP void TXPOSE(TLo &lo, THi &hi, XposeShape<X0, X1, X2, X3> shape)
{
    static_assert(is_tile<TLo>::value && is_tile<THi>::value, "TXPOSE: operands must be tl::Tile");
    backend::csr_write_const<csr::ttype, TLo::elem::ttype>();
    detail::xpose_insn<A, B, TLo, THi>(shape);
    (void)lo;
    (void)hi;
}


/*
 * TileRows<T>: TLOAD / TSTORE of whole tiles of T (every slice, all of its
 * bytes) between the tile and memory rows `pitch` bytes apart, for loops
 * that move many such tiles.  The constructor writes the four CSRs (ttype,
 * tshape, tmask_load_width, tmask_load_stride) once; set_pitch rewrites the
 * stride only; load / store are then one instruction each.
 *
 * The TL CSRs are per-thread architectural state that nothing but the
 * program's own instructions changes (a signal handler's changes are undone
 * when it returns, docs/abi.md), so the setting holds until the program
 * writes a TL CSR again: another TileRows, set_pitch, or a tile operation
 * that writes tshape, tmask_load_width or tmask_load_stride (TLOAD, TSTORE,
 * TCONCAT, ...).  TADDS, TMULS and TXPOSE of tiles of T's element type only
 * need ttype, and TCONCAT of tiles of T's shape ttype and tshape, which the
 * constructor set: adds / muls / xpose / concat issue them without writing
 * those again (concat writes its masks), and the free functions TADDS,
 * TMULS and TXPOSE (which rewrite ttype with the same value) may be used in
 * between as well.
 */
template <class T>
class TileRows {
    static_assert(is_tile<T>::value, "TileRows: T must be a tl::Tile");
    static_assert(T::D0 <= 32, "TileRows: D0 must be <= 32 (tmask_ls selects at most 32 slices)");

public:
    explicit TileRows(int64_t pitch)
    {
        backend::csr_write_const<csr::ttype, T::elem::ttype>();
        backend::csr_write_const<csr::tshape, T::tshape>();
        backend::csr_write_const<csr::tmask_load_width, T::slice_bytes>();
        set_pitch(pitch);
    }
    /* pitch: bytes from one row to the next (the view's stride(0) in bytes). */
    void set_pitch(int64_t pitch) const
    {
        TL_API_CHECK("TileRows", pitch >= INT32_MIN && pitch <= INT32_MAX,
                     "the row stride does not fit the 32-bit tmask_load_stride");
        backend::csr_write<csr::tmask_load_stride>(static_cast<uint32_t>(static_cast<int32_t>(pitch)));
    }
    /* Row i of the tile from address rows + i * pitch.  U: T in any register. */
    template <class U>
    void load(U &t, const void *rows) const
    {
        check_same<U>();
        static_assert(U::reg != 0, "TileRows::load: tl0 is read-only (writes to it are discarded)");
        backend::load<U::reg, false>(rows);
        t.set_valid_full();
    }
    /* Row i of the tile to address rows + i * pitch; t must be fully valid. */
    template <class U>
    void store(void *rows, const U &t) const
    {
        check_same<U>();
        TL_API_CHECK("TileRows::store", t.valid(0) == T::D0 && t.valid(1) == T::D1 && t.valid(2) == T::D2,
                     "the tile is not fully valid");
        backend::store<U::reg, false>(rows);
    }

    /* TADDS<Imm> without the ttype write (tiles of T's element type). */
    template <int Imm, class UD, class US>
    void adds(UD &dst, const US &src) const
    {
        check_type<UD>();
        static_assert(Imm >= -128 && Imm <= 127, "TileRows::adds: the immediate must fit in int8 (-128..127)");
        static_assert(std::is_same<typename UD::elem, typename US::elem>::value && detail::same_shape<UD, US>,
                      "TileRows::adds: source and destination differ in element type or shape");
        static_assert(UD::reg != 0, "TileRows::adds: tl0 is read-only (writes to it are discarded)");
        detail::adds_insn<Imm>(dst, src);
    }
    /* TMULS without the ttype write (tiles of T's element type). */
    template <class UD, class US>
    void muls(UD &dst, const US &src, mul_scalar_t<typename T::elem> scalar) const
    {
        check_type<UD>();
        static_assert(std::is_same<typename UD::elem, typename US::elem>::value && detail::same_shape<UD, US>,
                      "TileRows::muls: source and destination differ in element type or shape");
        static_assert(UD::reg != 0, "TileRows::muls: tl0 is read-only (writes to it are discarded)");
        detail::muls_insn(dst, src, detail::muls_operand<typename T::elem>(scalar));
    }
    /* TCONCAT<Dim> without the ttype and tshape writes (tiles of T's type and shape). */
    template <unsigned Dim, class UD, class U1, class U2>
    void concat(UD &dst, const U1 &src1, const U2 &src2, uint32_t mask1, uint32_t mask2) const
    {
        check_same<UD>();
        check_same<U1>();
        check_same<U2>();
        detail::concat_insn<Dim>(dst, src1, src2, mask1, mask2);
    }
    /* TXPOSE<A, B> without the ttype write (tiles of T's element type). */
    template <unsigned A, unsigned B, class TLo, class THi, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
    void xpose(TLo &lo, THi &hi, XposeShape<X0, X1, X2, X3> shape) const
    {
        check_type<TLo>();
        check_type<THi>();
        detail::xpose_insn<A, B, TLo, THi>(shape);
        (void)lo;
        (void)hi;
    }
    /*
     * load(lo, rows_lo), load(hi, rows_hi), then xpose<A, B>(lo, hi, shape)
     * as three instructions in a row, which TL-QEMU runs in one pass that
     * writes each register once: the way to feed a transpose or an
     * interleave.
     */
    template <unsigned A, unsigned B, class TLo, class THi, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
    void load_xpose(TLo &lo, const void *rows_lo, THi &hi, const void *rows_hi,
                    XposeShape<X0, X1, X2, X3> shape) const
    {
        check_same<TLo>();
        check_same<THi>();
        detail::xpose_checks<A, B, TLo, THi, X0, X1, X2, X3>();
        backend::load_load_xpose<A, B, TLo::reg, THi::reg>(rows_lo, rows_hi, shape.value);
        lo.set_valid_full();
        hi.set_valid_full();
    }
    /*
     * load_xpose, then store(out_lo, lo) and store(out_hi, hi), as five
     * instructions in a row, which TL-QEMU runs in one pass: a transpose
     * or interleave of two blocks from memory to memory (the registers
     * hold the result as well).
     */
    template <unsigned A, unsigned B, class TLo, class THi, unsigned X0, unsigned X1, unsigned X2, unsigned X3>
    void load_xpose_store(TLo &lo, const void *rows_lo, THi &hi, const void *rows_hi,
                          XposeShape<X0, X1, X2, X3> shape, void *out_lo, void *out_hi) const
    {
        check_same<TLo>();
        check_same<THi>();
        detail::xpose_checks<A, B, TLo, THi, X0, X1, X2, X3>();
        backend::load_load_xpose_store_store<A, B, TLo::reg, THi::reg>(rows_lo, rows_hi, shape.value,
                                                                      out_lo, out_hi);
        lo.set_valid_full();
        hi.set_valid_full();
    }

private:
    template <class U>
    static constexpr void check_type()
    {
        static_assert(is_tile<U>::value && std::is_same<typename U::elem, typename T::elem>::value,
                      "TileRows: the tile's element type must be T's (the one ttype holds)");
    }
    template <class U>
    static constexpr void check_same()
    {
        static_assert(is_tile<U>::value && std::is_same<typename U::elem, typename T::elem>::value &&
                          U::D0 == T::D0 && U::D1 == T::D1 && U::D2 == T::D2,
                      "TileRows: the tile's element type and shape must be those of T");
    }
};

/* The shape after swapping dimensions A and B. */
template <class S, unsigned A, unsigned B>
struct xposed_shape;
template <unsigned X0, unsigned X1, unsigned X2, unsigned X3, unsigned A, unsigned B>
struct xposed_shape<XposeShape<X0, X1, X2, X3>, A, B> {
    static constexpr unsigned d(unsigned i)
    {
        constexpr unsigned x[4] = {X0, X1, X2, X3};
        return i == A ? x[B] : i == B ? x[A] : x[i];
    }
    using type = XposeShape<d(0), d(1), d(2), d(3)>;
};

} // namespace tl

#endif /* TL_TILE_HPP */
