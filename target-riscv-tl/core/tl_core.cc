/*
 * TensorLoad (xtl) semantic core.  The normative behaviour is
 * shared/spec/TL-ISA-decisions.md; section numbers below refer to it.
 *
 * Freestanding C++17: no exceptions, RTTI, heap or C++ runtime, so the object
 * links into QEMU's C executables.  Everything is plain integer arithmetic on
 * byte arrays stored little-endian, so results do not depend on the host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tl_float.h"

namespace {

enum class ElemType : uint8_t {
    kInvalid,
    kInt4,
    kInt8,
    kInt16,
    kInt32,
    kE2M1,
    kE4M3,
    kE5M2,
    kE3M4,
    kFp16,
    kBf16,
    kFp32,
};

constexpr uint32_t kCsrWritableMask[TL_CSR_COUNT] = {
    0x00000FFFu, /* ttype */
    0x00FFFFFFu, /* tshape */
    0xFFFFFFFFu, /* tmask_ls */
    0xFFFFFFFFu, /* tmask_concat_1 */
    0xFFFFFFFFu, /* tmask_concat_2 */
    0xFFFFFFFFu, /* tmask_load_stride */
    0xFFFFFFFFu, /* tmask_load_width */
    0x00FFFFFFu, /* tvalid */
};

constexpr const char *kCsrName[TL_CSR_COUNT] = {
    "ttype",          "tshape",            "tmask_ls",         "tmask_concat_1",
    "tmask_concat_2", "tmask_load_stride", "tmask_load_width", "tvalid",
};

/* Source operand for tl0, which reads as zero whatever reg[0] holds. */
constexpr uint8_t kZeroReg[TL_REG_BYTES] = {};

constexpr ElemType DecodeTtype(uint32_t ttype)
{
    /*
     * Exactly one field is non-zero and not a reserved code, so each valid
     * value is unique; bits above 11 are reserved-zero (the CSR cannot hold them).
     */
    switch (ttype) {
    case 0x001: return ElemType::kInt4;
    case 0x002: return ElemType::kInt8;
    case 0x004: return ElemType::kInt16;
    case 0x008: return ElemType::kInt32;
    case 0x010: return ElemType::kE2M1;
    case 0x040: return ElemType::kE4M3;
    case 0x080: return ElemType::kE5M2;
    case 0x0C0: return ElemType::kE3M4;
    case 0x100: return ElemType::kFp16;
    case 0x200: return ElemType::kBf16;
    case 0x400: return ElemType::kFp32;
    default: return ElemType::kInvalid;
    }
}

constexpr unsigned ElementBits(ElemType type)
{
    switch (type) {
    case ElemType::kInt4:
    case ElemType::kE2M1:
        return 4;
    case ElemType::kInt8:
    case ElemType::kE4M3:
    case ElemType::kE5M2:
    case ElemType::kE3M4:
        return 8;
    case ElemType::kInt16:
    case ElemType::kFp16:
    case ElemType::kBf16:
        return 16;
    case ElemType::kInt32:
    case ElemType::kFp32:
        return 32;
    case ElemType::kInvalid:
        break;
    }
    return 0;
}

constexpr const char *ElementName(ElemType type)
{
    switch (type) {
    case ElemType::kInt4: return "int4";
    case ElemType::kInt8: return "int8";
    case ElemType::kInt16: return "int16";
    case ElemType::kInt32: return "int32";
    case ElemType::kE2M1: return "e2m1";
    case ElemType::kE4M3: return "e4m3";
    case ElemType::kE5M2: return "e5m2";
    case ElemType::kE3M4: return "e3m4";
    case ElemType::kFp16: return "fp16";
    case ElemType::kBf16: return "bf16";
    case ElemType::kFp32: return "fp32";
    case ElemType::kInvalid: break;
    }
    return nullptr;
}

inline bool IsInitialized(const tl_state *s, unsigned idx)
{
    return (s->csr_initialized >> idx) & 1u;
}

/* The architectural value: masked even if the raw state was set by other means. */
inline uint32_t CsrValue(const tl_state *s, unsigned idx)
{
    return IsInitialized(s, idx) ? s->csr[idx] & kCsrWritableMask[idx] : 0;
}

inline const uint8_t *SourceReg(const tl_state *s, unsigned r)
{
    return r == 0 ? kZeroReg : s->reg[r];
}

inline uint32_t Load16(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8; }
inline uint32_t Load32(const uint8_t *p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline void Store16(uint8_t *p, uint32_t v)
{
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
}
inline void Store32(uint8_t *p, uint32_t v)
{
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
    p[2] = uint8_t(v >> 16);
    p[3] = uint8_t(v >> 24);
}

/* ---- shapes ---- */

struct Block {
    uint32_t dim[3];     /* D0, D1, D2 in elements */
    unsigned esz;        /* element bits */
    uint32_t slice_bytes; /* S */
    uint32_t bytes;       /* D0 * S */
};

/* Sec. 3: every D >= 1, S a whole number of bytes, D0 * S <= 1024. */
inline bool DecodeShape(uint32_t tshape, unsigned esz, Block *b)
{
    b->dim[0] = (tshape >> 16) & 0xFF;
    b->dim[1] = (tshape >> 8) & 0xFF;
    b->dim[2] = tshape & 0xFF;
    b->esz = esz;
    if (b->dim[0] == 0 || b->dim[1] == 0 || b->dim[2] == 0) {
        return false;
    }
    const uint32_t slice_bits = b->dim[1] * b->dim[2] * esz;
    if (slice_bits % 8 != 0) {
        return false;
    }
    b->slice_bytes = slice_bits / 8;
    b->bytes = b->dim[0] * b->slice_bytes;
    return b->bytes <= TL_REG_BYTES;
}

/* Not __builtin_popcount: without a popcnt instruction it calls libgcc. */
constexpr unsigned CountOnes(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    return (v * 0x01010101u) >> 24;
}

constexpr uint32_t CsrBit(tl_csr_index idx) { return uint32_t{1} << idx; }

constexpr tl_status UninitializedStatus(unsigned idx)
{
    switch (idx) {
    case TL_CSR_TSHAPE: return TL_ERR_UNINIT_TSHAPE;
    case TL_CSR_TMASK_LS: return TL_ERR_UNINIT_TMASK_LS;
    case TL_CSR_TMASK_CONCAT_1: return TL_ERR_UNINIT_TMASK_CONCAT_1;
    case TL_CSR_TMASK_CONCAT_2: return TL_ERR_UNINIT_TMASK_CONCAT_2;
    case TL_CSR_TVALID: return TL_ERR_UNINIT_TVALID;
    default: return TL_ERR_UNINIT_TSHAPE;
    }
}

/*
 * The checks every block instruction starts with, in the architectural
 * order: ttype valid, then each needed CSR initialized (tshape first, then
 * the others in CSR-number order), then the shape.
 */
tl_status CheckBlockPrologue(const tl_state *s, uint32_t needed_csrs, ElemType *type, Block *block)
{
    *type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (*type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    needed_csrs |= CsrBit(TL_CSR_TSHAPE);
    for (unsigned idx = TL_CSR_TSHAPE; idx < TL_CSR_COUNT; ++idx) {
        if (((needed_csrs >> idx) & 1u) && !IsInitialized(s, idx)) {
            return UninitializedStatus(idx);
        }
    }
    if (!DecodeShape(CsrValue(s, TL_CSR_TSHAPE), ElementBits(*type), block)) {
        return TL_ERR_SHAPE;
    }
    return TL_OK;
}

/* ---- element copies (4-bit elements are nibbles, element 2n low) ---- */

inline unsigned GetNibble(const uint8_t *p, size_t n)
{
    return (p[n >> 1] >> ((n & 1) * 4)) & 0xF;
}

inline void SetNibble(uint8_t *p, size_t n, unsigned v)
{
    const unsigned shift = (n & 1) * 4;
    p[n >> 1] = uint8_t((p[n >> 1] & ~(0xFu << shift)) | (v << shift));
}

void CopyNibbles(uint8_t *dst, size_t dst_nibble, const uint8_t *src, size_t src_nibble,
                 size_t count)
{
    if (((dst_nibble ^ src_nibble) & 1) == 0) {
        if ((dst_nibble & 1) && count != 0) {
            SetNibble(dst, dst_nibble++, GetNibble(src, src_nibble++));
            --count;
        }
        memcpy(dst + dst_nibble / 2, src + src_nibble / 2, count / 2);
        if (count & 1) {
            SetNibble(dst, dst_nibble + count - 1, GetNibble(src, src_nibble + count - 1));
        }
        return;
    }
    for (size_t k = 0; k < count; ++k) {
        SetNibble(dst, dst_nibble + k, GetNibble(src, src_nibble + k));
    }
}

inline void CopyElements(uint8_t *dst, size_t dst_index, const uint8_t *src, size_t src_index,
                         size_t count, unsigned esz)
{
    if (esz == 4) {
        CopyNibbles(dst, dst_index, src, src_index, count);
        return;
    }
    const size_t elem_bytes = esz / 8;
    memcpy(dst + dst_index * elem_bytes, src + src_index * elem_bytes, count * elem_bytes);
}

/* A fixed-size memcpy compiles to plain moves; kRunBytes == 0 means "run bytes". */
template <size_t kRunBytes>
inline void CopyRun(uint8_t *dst, const uint8_t *src, size_t run_bytes)
{
    if constexpr (kRunBytes != 0) {
        (void)run_bytes;
        memcpy(dst, src, kRunBytes);
    } else {
        memcpy(dst, src, run_bytes);
    }
}

/* Calls body(std::integral_constant<size_t, N>) with N = run_bytes when it is a common small size. */
template <class Body>
inline void DispatchRunBytes(size_t run_bytes, Body body)
{
    switch (run_bytes) {
    case 1: body(std::integral_constant<size_t, 1>{}); break;
    case 2: body(std::integral_constant<size_t, 2>{}); break;
    case 4: body(std::integral_constant<size_t, 4>{}); break;
    case 8: body(std::integral_constant<size_t, 8>{}); break;
    case 16: body(std::integral_constant<size_t, 16>{}); break;
    default: body(std::integral_constant<size_t, 0>{}); break;
    }
}

/*
 * A block seen along dimension d as [outer][Dd][inner]: the index along d
 * moves runs of `inner` contiguous elements.
 */
struct DimView {
    size_t outer;
    uint32_t size; /* Dd */
    size_t inner;
};

inline DimView ViewAlong(const Block &b, unsigned d)
{
    DimView v{1, b.dim[d], 1};
    for (unsigned k = 0; k < d; ++k) {
        v.outer *= b.dim[k];
    }
    for (unsigned k = d + 1; k < 3; ++k) {
        v.inner *= b.dim[k];
    }
    return v;
}

/* Where result index t along d comes from. */
struct IndexSource {
    const uint8_t *reg;
    uint32_t index;
};

/*
 * dst[o][t][*] = table[t].reg[o][table[t].index][*] for t < count; dst
 * positions t >= count are left as they are.
 */
void GatherAlongDim(uint8_t *dst, const DimView &v, unsigned esz, const IndexSource *table,
                    unsigned count)
{
    const size_t inner_bits = v.inner * esz;
    if (inner_bits % 8 != 0) { /* 4-bit elements, odd run: nibble granularity */
        for (size_t o = 0; o < v.outer; ++o) {
            const size_t row = o * v.size;
            if (v.inner == 1) { /* the common case (dim 2) without a call per nibble */
                for (unsigned t = 0; t < count; ++t) {
                    SetNibble(dst, row + t, GetNibble(table[t].reg, row + table[t].index));
                }
                continue;
            }
            for (unsigned t = 0; t < count; ++t) {
                CopyNibbles(dst, (row + t) * v.inner, table[t].reg,
                            (row + table[t].index) * v.inner, v.inner);
            }
        }
        return;
    }
    const size_t run = inner_bits / 8;
    const size_t row_bytes = run * v.size;
    DispatchRunBytes(run, [&](auto fixed) {
        for (size_t o = 0; o < v.outer; ++o) {
            const size_t row = o * row_bytes;
            for (unsigned t = 0; t < count; ++t) {
                CopyRun<decltype(fixed)::value>(dst + row + t * run,
                                                table[t].reg + row + table[t].index * run, run);
            }
        }
    });
}

/* ---- pad values and fills ---- */

template <const tl::fp::FloatFormat &F>
constexpr uint32_t FloatPad(tl_pad_kind pad)
{
    return pad == TL_PAD_MIN ? tl::fp::InfinityOrSaturated<F>(true)
                             : tl::fp::InfinityOrSaturated<F>(false);
}

uint32_t PadValue(ElemType type, tl_pad_kind pad)
{
    if (pad != TL_PAD_MIN && pad != TL_PAD_MAX) {
        return 0;
    }
    switch (type) {
    case ElemType::kInt4:
    case ElemType::kInt8:
    case ElemType::kInt16:
    case ElemType::kInt32:
        if (pad == TL_PAD_MIN) {
            return 0;
        }
        return uint32_t(~uint64_t{0} >> (64 - ElementBits(type)));
    case ElemType::kE2M1: return FloatPad<tl::fp::kE2M1>(pad);
    case ElemType::kE4M3: return FloatPad<tl::fp::kE4M3>(pad);
    case ElemType::kE5M2: return FloatPad<tl::fp::kE5M2>(pad);
    case ElemType::kE3M4: return FloatPad<tl::fp::kE3M4>(pad);
    case ElemType::kFp16: return FloatPad<tl::fp::kFp16>(pad);
    case ElemType::kBf16: return FloatPad<tl::fp::kBf16>(pad);
    case ElemType::kFp32: return FloatPad<tl::fp::kFp32>(pad);
    case ElemType::kInvalid: break;
    }
    return 0;
}

void FillElements(uint8_t *dst, size_t bytes, uint32_t value, unsigned esz)
{
    switch (esz) {
    case 4:
        memset(dst, int(value | value << 4), bytes);
        break;
    case 8:
        memset(dst, int(value), bytes);
        break;
    case 16:
        for (size_t i = 0; i < bytes; i += 2) {
            Store16(dst + i, value);
        }
        break;
    default:
        for (size_t i = 0; i < bytes; i += 4) {
            Store32(dst + i, value);
        }
        break;
    }
}

/* ---- element-wise arithmetic over the whole register ---- */

/* dst[e] = op(src[e]) for every element of the 1024 bytes; dst may equal src. */
template <unsigned kBits, class Op>
void MapElements(uint8_t *dst, const uint8_t *src, Op op)
{
    if constexpr (kBits == 4 || kBits == 8) {
        /* At most 256 distinct inputs: evaluate op once per input, then look up. */
        uint8_t table[256];
        if constexpr (kBits == 4) {
            uint8_t nibble[16];
            for (unsigned v = 0; v < 16; ++v) {
                nibble[v] = uint8_t(op(v) & 0xF);
            }
            for (unsigned v = 0; v < 256; ++v) {
                table[v] = uint8_t(nibble[v & 0xF] | nibble[v >> 4] << 4);
            }
        } else {
            for (unsigned v = 0; v < 256; ++v) {
                table[v] = uint8_t(op(v));
            }
        }
        for (size_t i = 0; i < TL_REG_BYTES; ++i) {
            dst[i] = table[src[i]];
        }
    } else if constexpr (kBits == 16) {
        for (size_t i = 0; i < TL_REG_BYTES; i += 2) {
            Store16(dst + i, op(Load16(src + i)));
        }
    } else {
        static_assert(kBits == 32, "element size");
        for (size_t i = 0; i < TL_REG_BYTES; i += 4) {
            Store32(dst + i, op(Load32(src + i)));
        }
    }
}

template <unsigned kBits>
constexpr uint32_t kIntMax = uint32_t(~uint64_t{0} >> (64 - kBits));

template <unsigned kBits>
inline uint32_t SaturatingAdd(uint32_t v, int32_t k)
{
    const int64_t sum = int64_t(v) + k;
    if (sum < 0) {
        return 0;
    }
    return sum > int64_t{kIntMax<kBits>} ? kIntMax<kBits> : uint32_t(sum);
}

template <unsigned kBits>
inline uint32_t SaturatingMul(uint32_t v, uint64_t scalar)
{
    if (v == 0) {
        return 0;
    }
    if (scalar >= kIntMax<kBits>) {
        return kIntMax<kBits>;
    }
    /* Both factors are below 2^32 here, so the product fits in 64 bits. */
    const uint64_t product = uint64_t{v} * scalar;
    return product > kIntMax<kBits> ? kIntMax<kBits> : uint32_t(product);
}

void AddImmediate(ElemType type, uint8_t *dst, const uint8_t *src, int32_t imm)
{
    using namespace tl::fp;
    switch (type) {
    case ElemType::kInt4:
        MapElements<4>(dst, src, [imm](uint32_t v) { return SaturatingAdd<4>(v, imm); });
        break;
    case ElemType::kInt8:
        MapElements<8>(dst, src, [imm](uint32_t v) { return SaturatingAdd<8>(v, imm); });
        break;
    case ElemType::kInt16:
        MapElements<16>(dst, src, [imm](uint32_t v) { return SaturatingAdd<16>(v, imm); });
        break;
    case ElemType::kInt32:
        MapElements<32>(dst, src, [imm](uint32_t v) { return SaturatingAdd<32>(v, imm); });
        break;
    case ElemType::kE2M1:
        MapElements<4>(dst, src, [imm](uint32_t v) { return AddInteger<kE2M1>(v, imm); });
        break;
    case ElemType::kE4M3:
        MapElements<8>(dst, src, [imm](uint32_t v) { return AddInteger<kE4M3>(v, imm); });
        break;
    case ElemType::kE5M2:
        MapElements<8>(dst, src, [imm](uint32_t v) { return AddInteger<kE5M2>(v, imm); });
        break;
    case ElemType::kE3M4:
        MapElements<8>(dst, src, [imm](uint32_t v) { return AddInteger<kE3M4>(v, imm); });
        break;
    case ElemType::kFp16:
        MapElements<16>(dst, src, [imm](uint32_t v) { return AddInteger<kFp16>(v, imm); });
        break;
    case ElemType::kBf16:
        MapElements<16>(dst, src, [imm](uint32_t v) { return AddInteger<kBf16>(v, imm); });
        break;
    case ElemType::kFp32:
        MapElements<32>(dst, src, [imm](uint32_t v) { return AddInteger<kFp32>(v, imm); });
        break;
    case ElemType::kInvalid:
        break;
    }
}

void MultiplyScalar(ElemType type, uint8_t *dst, const uint8_t *src, uint64_t scalar)
{
    using namespace tl::fp;
    const Unpacked f = Unpack<kFp32>(uint32_t(scalar));
    switch (type) {
    case ElemType::kInt4:
        MapElements<4>(dst, src, [scalar](uint32_t v) { return SaturatingMul<4>(v, scalar); });
        break;
    case ElemType::kInt8:
        MapElements<8>(dst, src, [scalar](uint32_t v) { return SaturatingMul<8>(v, scalar); });
        break;
    case ElemType::kInt16:
        MapElements<16>(dst, src, [scalar](uint32_t v) { return SaturatingMul<16>(v, scalar); });
        break;
    case ElemType::kInt32:
        MapElements<32>(dst, src, [scalar](uint32_t v) { return SaturatingMul<32>(v, scalar); });
        break;
    case ElemType::kE2M1:
        MapElements<4>(dst, src, [&f](uint32_t v) { return MultiplyBy<kE2M1>(v, f); });
        break;
    case ElemType::kE4M3:
        MapElements<8>(dst, src, [&f](uint32_t v) { return MultiplyBy<kE4M3>(v, f); });
        break;
    case ElemType::kE5M2:
        MapElements<8>(dst, src, [&f](uint32_t v) { return MultiplyBy<kE5M2>(v, f); });
        break;
    case ElemType::kE3M4:
        MapElements<8>(dst, src, [&f](uint32_t v) { return MultiplyBy<kE3M4>(v, f); });
        break;
    case ElemType::kFp16:
        MapElements<16>(dst, src, [&f](uint32_t v) { return MultiplyBy<kFp16>(v, f); });
        break;
    case ElemType::kBf16:
        MapElements<16>(dst, src, [&f](uint32_t v) { return MultiplyBy<kBf16>(v, f); });
        break;
    case ElemType::kFp32:
        MapElements<32>(dst, src, [&f](uint32_t v) { return MultiplyBy<kFp32>(v, f); });
        break;
    case ElemType::kInvalid:
        break;
    }
}

/* ---- memory ---- */

struct MemPlan {
    Block block;
    uint32_t width;    /* W */
    int64_t pitch;     /* P */
    uint32_t selected; /* bit i: slice i is accessed */
};

/* Sec. 5, memory: the checks and the parameters shared by loads and stores. */
tl_status PlanMemoryAccess(const tl_state *s, bool masked, MemPlan *plan)
{
    ElemType type;
    const uint32_t needed = masked ? CsrBit(TL_CSR_TMASK_LS) : 0;
    tl_status st = CheckBlockPrologue(s, needed, &type, &plan->block);
    if (st != TL_OK) {
        return st;
    }
    const uint32_t d0 = plan->block.dim[0];
    if (d0 > TL_MAX_MASKED_DIM) {
        return TL_ERR_D0_TOO_BIG;
    }
    plan->width = IsInitialized(s, TL_CSR_TMASK_LOAD_WIDTH)
                      ? CsrValue(s, TL_CSR_TMASK_LOAD_WIDTH)
                      : plan->block.slice_bytes;
    if (plan->width == 0 || plan->width > plan->block.slice_bytes) {
        return TL_ERR_WIDTH;
    }
    plan->pitch = IsInitialized(s, TL_CSR_TMASK_LOAD_STRIDE)
                      ? int64_t(int32_t(CsrValue(s, TL_CSR_TMASK_LOAD_STRIDE)))
                      : int64_t(plan->width);
    const uint32_t all = d0 == 32 ? 0xFFFFFFFFu : (uint32_t{1} << d0) - 1;
    plan->selected = (masked ? CsrValue(s, TL_CSR_TMASK_LS) : 0xFFFFFFFFu) & all;
    return TL_OK;
}

struct ByteRange {
    uint64_t addr;
    uint32_t len;
};

/* The W bytes of one slice as at most two ranges that do not wrap past addr_mask. */
struct SliceRanges {
    ByteRange range[2];
    unsigned count;
};

class SliceAddresses {
public:
    SliceAddresses(const MemPlan &plan, int32_t imm8, uint64_t base, uint64_t addr_mask)
        : width_(plan.width), pitch_(uint64_t(plan.pitch)), addr_mask_(addr_mask),
          first_(base + uint64_t(int64_t(imm8) * int64_t(plan.width)))
    {
    }

    SliceRanges Of(uint32_t slice) const
    {
        /* Unsigned arithmetic wraps modulo 2^64; the mask reduces to 2^XLEN. */
        const uint64_t addr = (first_ + uint64_t(slice) * pitch_) & addr_mask_;
        /* Bytes from addr to the top, less one, so that 2^64 cannot overflow. */
        const uint64_t room_minus_one = addr_mask_ - addr;
        if (room_minus_one >= width_ - 1) {
            return {{{addr, width_}, {0, 0}}, 1};
        }
        const uint32_t before_wrap = uint32_t(room_minus_one + 1);
        return {{{addr, before_wrap}, {0, width_ - before_wrap}}, 2};
    }

private:
    uint32_t width_;
    uint64_t pitch_;
    uint64_t addr_mask_;
    uint64_t first_;
};

/* All-or-nothing: every range is probed, in slice order, before any access. */
tl_status ProbeSelectedSlices(const MemPlan &plan, const SliceAddresses &addresses,
                              const tl_mem_if *mem, bool is_store, uint64_t *fault_addr)
{
    for (uint32_t i = 0; i < plan.block.dim[0]; ++i) {
        if (!((plan.selected >> i) & 1u)) {
            continue;
        }
        const SliceRanges r = addresses.Of(i);
        for (unsigned k = 0; k < r.count; ++k) {
            uint64_t fault = r.range[k].addr;
            if (!mem->probe(mem->opaque, r.range[k].addr, r.range[k].len, is_store, &fault)) {
                if (fault_addr) {
                    *fault_addr = fault;
                }
                return TL_FAULT;
            }
        }
    }
    return TL_OK;
}

} // namespace

extern "C" {

const char *tl_status_message(tl_status st)
{
    switch (st) {
    case TL_OK: return "The instruction completed.";
    case TL_ERR_TTYPE: return "ttype does not select exactly one valid element type.";
    case TL_ERR_UNINIT_TSHAPE: return "tshape has not been written since reset.";
    case TL_ERR_UNINIT_TMASK_LS: return "tmask_ls has not been written since reset.";
    case TL_ERR_UNINIT_TMASK_CONCAT_1: return "tmask_concat_1 has not been written since reset.";
    case TL_ERR_UNINIT_TMASK_CONCAT_2: return "tmask_concat_2 has not been written since reset.";
    case TL_ERR_UNINIT_TVALID: return "tvalid has not been written since reset.";
    case TL_ERR_SHAPE:
        return "tshape has a zero dimension, a block over 1024 bytes or a slice that is not "
               "a whole number of bytes.";
    case TL_ERR_D0_TOO_BIG: return "A load or store has D0 above 32, the width of tmask_ls.";
    case TL_ERR_WIDTH: return "tmask_load_width is zero or larger than the slice size.";
    case TL_ERR_CONCAT_DIM_TOO_BIG:
        return "The concat or merge dimension is above 32, the width of the masks.";
    case TL_ERR_CONCAT_OVERFLOW: return "The concat masks select more slices than the dimension holds.";
    case TL_ERR_XPOSE_SHAPE:
        return "The xpose dimensions contain a zero or do not describe exactly 2048 bytes.";
    case TL_ERR_XPOSE_ODD_D0: return "The xpose D0 is odd, so the tensor cannot be split in two.";
    case TL_ERR_XPOSE_SAME_REG: return "xpose names the same register for both tensor halves.";
    case TL_ERR_VALID_RANGE: return "tvalid has a dimension larger than the same tshape dimension.";
    case TL_FAULT: return "A memory access of the instruction faulted.";
    case TL_STATUS_COUNT: break;
    }
    return "Unknown TL status.";
}

void tl_state_reset(tl_state *s)
{
    memset(s, 0, sizeof(*s));
    s->csr[TL_CSR_TTYPE] = TL_TTYPE_RESET;
    s->csr_initialized = CsrBit(TL_CSR_TTYPE);
}

const char *tl_csr_name(unsigned idx)
{
    return idx < TL_CSR_COUNT ? kCsrName[idx] : nullptr;
}

uint32_t tl_csr_writable_mask(unsigned idx)
{
    return idx < TL_CSR_COUNT ? kCsrWritableMask[idx] : 0;
}

uint32_t tl_csr_read(const tl_state *s, unsigned idx)
{
    return idx < TL_CSR_COUNT ? CsrValue(s, idx) : 0;
}

void tl_csr_write(tl_state *s, unsigned idx, uint64_t value)
{
    if (idx >= TL_CSR_COUNT) {
        return;
    }
    s->csr[idx] = uint32_t(value) & kCsrWritableMask[idx];
    s->csr_initialized |= uint32_t{1} << idx;
}

bool tl_csr_is_initialized(const tl_state *s, unsigned idx)
{
    return idx < TL_CSR_COUNT && IsInitialized(s, idx);
}

unsigned tl_ttype_element_bits(uint32_t ttype)
{
    return ElementBits(DecodeTtype(ttype));
}

const char *tl_ttype_name(uint32_t ttype)
{
    return ElementName(DecodeTtype(ttype));
}

tl_status tl_exec_load(tl_state *s, unsigned rd, bool masked, int32_t imm8, uint64_t base,
                       uint64_t addr_mask, const tl_mem_if *mem, uint64_t *fault_addr)
{
    MemPlan plan;
    tl_status st = PlanMemoryAccess(s, masked, &plan);
    if (st != TL_OK) {
        return st;
    }
    const SliceAddresses addresses(plan, imm8, base, addr_mask);
    st = ProbeSelectedSlices(plan, addresses, mem, false, fault_addr);
    if (st != TL_OK) {
        return st;
    }
    /* A load to tl0 still performs its reads (they may have side effects, e.g. MMIO). */
    uint8_t discard[TL_REG_BYTES];
    const bool keep = rd != 0;
    uint8_t *dst = keep ? s->reg[rd] : discard;
    const uint32_t slice_bytes = plan.block.slice_bytes;
    for (uint32_t i = 0; i < plan.block.dim[0]; ++i) {
        uint8_t *slice = dst + size_t(i) * slice_bytes;
        if (!((plan.selected >> i) & 1u)) {
            if (keep) {
                memset(slice, 0, slice_bytes);
            }
            continue;
        }
        const SliceRanges r = addresses.Of(i);
        mem->read(mem->opaque, r.range[0].addr, slice, r.range[0].len);
        if (r.count == 2) {
            mem->read(mem->opaque, r.range[1].addr, slice + r.range[0].len, r.range[1].len);
        }
        if (keep) {
            memset(slice + plan.width, 0, slice_bytes - plan.width);
        }
    }
    if (keep) {
        memset(dst + plan.block.bytes, 0, TL_REG_BYTES - plan.block.bytes);
    }
    return TL_OK;
}

tl_status tl_exec_store(const tl_state *s, unsigned rs, bool masked, int32_t imm8, uint64_t base,
                        uint64_t addr_mask, const tl_mem_if *mem, uint64_t *fault_addr)
{
    MemPlan plan;
    tl_status st = PlanMemoryAccess(s, masked, &plan);
    if (st != TL_OK) {
        return st;
    }
    const SliceAddresses addresses(plan, imm8, base, addr_mask);
    st = ProbeSelectedSlices(plan, addresses, mem, true, fault_addr);
    if (st != TL_OK) {
        return st;
    }
    const uint8_t *src = SourceReg(s, rs);
    for (uint32_t i = 0; i < plan.block.dim[0]; ++i) {
        if (!((plan.selected >> i) & 1u)) {
            continue;
        }
        const uint8_t *slice = src + size_t(i) * plan.block.slice_bytes;
        const SliceRanges r = addresses.Of(i);
        mem->write(mem->opaque, r.range[0].addr, slice, r.range[0].len);
        if (r.count == 2) {
            mem->write(mem->opaque, r.range[1].addr, slice + r.range[0].len, r.range[1].len);
        }
    }
    return TL_OK;
}

tl_status tl_exec_concat(tl_state *s, unsigned dim, unsigned rd, unsigned rs1, unsigned rs2)
{
    ElemType type;
    Block block;
    tl_status st = CheckBlockPrologue(
        s, CsrBit(TL_CSR_TMASK_CONCAT_1) | CsrBit(TL_CSR_TMASK_CONCAT_2), &type, &block);
    if (st != TL_OK) {
        return st;
    }
    if (dim > 2) { /* unreachable from a decoded instruction: DD = 11 is illegal */
        return TL_ERR_SHAPE;
    }
    const DimView view = ViewAlong(block, dim);
    if (view.size > TL_MAX_MASKED_DIM) {
        return TL_ERR_CONCAT_DIM_TOO_BIG;
    }
    const uint32_t in_dim = view.size == 32 ? 0xFFFFFFFFu : (uint32_t{1} << view.size) - 1;
    const uint32_t mask[2] = {CsrValue(s, TL_CSR_TMASK_CONCAT_1) & in_dim,
                              CsrValue(s, TL_CSR_TMASK_CONCAT_2) & in_dim};
    const unsigned selected = CountOnes(mask[0]) + CountOnes(mask[1]);
    if (selected > view.size) {
        return TL_ERR_CONCAT_OVERFLOW;
    }
    if (rd == 0) {
        return TL_OK;
    }
    const uint8_t *src[2] = {SourceReg(s, rs1), SourceReg(s, rs2)};
    IndexSource table[TL_MAX_MASKED_DIM];
    unsigned count = 0;
    for (unsigned n = 0; n < 2; ++n) {
        for (uint32_t m = mask[n]; m != 0; m &= m - 1) {
            table[count++] = {src[n], uint32_t(__builtin_ctz(m))};
        }
    }
    uint8_t scratch[TL_REG_BYTES];
    const bool aliased = rd == rs1 || rd == rs2;
    uint8_t *dst = aliased ? scratch : s->reg[rd];
    memset(dst, 0, TL_REG_BYTES);
    GatherAlongDim(dst, view, block.esz, table, count);
    if (aliased) {
        memcpy(s->reg[rd], scratch, TL_REG_BYTES);
    }
    return TL_OK;
}

tl_status tl_exec_merge(tl_state *s, unsigned dim, unsigned rd, unsigned rs1, unsigned rs2)
{
    ElemType type;
    Block block;
    tl_status st = CheckBlockPrologue(s, CsrBit(TL_CSR_TMASK_CONCAT_1), &type, &block);
    if (st != TL_OK) {
        return st;
    }
    if (dim > 2) { /* unreachable from a decoded instruction: DD = 11 is illegal */
        return TL_ERR_SHAPE;
    }
    const DimView view = ViewAlong(block, dim);
    if (view.size > TL_MAX_MASKED_DIM) {
        return TL_ERR_CONCAT_DIM_TOO_BIG;
    }
    if (rd == 0) {
        return TL_OK;
    }
    const uint32_t mask = CsrValue(s, TL_CSR_TMASK_CONCAT_1);
    const uint8_t *src1 = SourceReg(s, rs1);
    const uint8_t *src2 = SourceReg(s, rs2);
    IndexSource table[TL_MAX_MASKED_DIM];
    for (uint32_t t = 0; t < view.size; ++t) {
        table[t] = {((mask >> t) & 1u) ? src1 : src2, t};
    }
    uint8_t scratch[TL_REG_BYTES];
    const bool aliased = rd == rs1 || rd == rs2;
    uint8_t *dst = aliased ? scratch : s->reg[rd];
    GatherAlongDim(dst, view, block.esz, table, view.size);
    memset(dst + block.bytes, 0, TL_REG_BYTES - block.bytes);
    if (aliased) {
        memcpy(s->reg[rd], scratch, TL_REG_BYTES);
    }
    return TL_OK;
}

tl_status tl_exec_xpose(tl_state *s, unsigned dim0, unsigned dim1, unsigned rs1, unsigned rs2,
                        uint64_t dims)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    const unsigned esz = ElementBits(type);
    size_t d[4];
    uint64_t elements = 1;
    for (unsigned k = 0; k < 4; ++k) {
        d[k] = (dims >> (8 * k)) & 0xFF;
        elements *= d[k];
    }
    if (elements == 0 || elements * esz != uint64_t{TL_XPOSE_BYTES} * 8) {
        return TL_ERR_XPOSE_SHAPE;
    }
    if (d[0] % 2 != 0) {
        return TL_ERR_XPOSE_ODD_D0;
    }
    if (rs1 == rs2) {
        return TL_ERR_XPOSE_SAME_REG;
    }
    unsigned a = dim0 & 3;
    unsigned b = dim1 & 3;
    /* Swapping a dimension with itself rewrites every byte where it was. */
    if (a == b) {
        return TL_OK;
    }
    if (a > b) {
        const unsigned t = a;
        a = b;
        b = t;
    }
    /* [outer][Da][middle][Db][inner] -> [outer][Db][middle][Da][inner] */
    size_t outer = 1, middle = 1, inner = 1;
    for (unsigned k = 0; k < a; ++k) {
        outer *= d[k];
    }
    for (unsigned k = a + 1; k < b; ++k) {
        middle *= d[k];
    }
    for (unsigned k = b + 1; k < 4; ++k) {
        inner *= d[k];
    }
    const size_t da = d[a], db = d[b];

    uint8_t in[TL_XPOSE_BYTES];
    uint8_t out[TL_XPOSE_BYTES];
    memcpy(in, SourceReg(s, rs1), TL_REG_BYTES);
    memcpy(in + TL_REG_BYTES, SourceReg(s, rs2), TL_REG_BYTES);

    const size_t inner_bits = inner * esz;
    if (inner_bits % 8 != 0) {
        /*
         * 4-bit elements with an odd run; as every D is a power of two here
         * the run is a single nibble.  Output nibbles are produced in order
         * and stored a byte (two nibbles) at a time.
         */
        const size_t step_p = middle * db; /* source nibbles between consecutive p */
        size_t dst_nibble = 0;
        unsigned low = 0;
        for (size_t x = 0; x < outer; ++x) {
            for (size_t q = 0; q < db; ++q) {
                for (size_t m = 0; m < middle; ++m) {
                    size_t src_run = (x * da * middle + m) * db + q;
                    for (size_t p = 0; p < da; ++p, src_run += step_p) {
                        for (size_t e = 0; e < inner; ++e, ++dst_nibble) {
                            const unsigned v = GetNibble(in, src_run * inner + e);
                            if (dst_nibble & 1) {
                                out[dst_nibble >> 1] = uint8_t(low | v << 4);
                            } else {
                                low = v;
                            }
                        }
                    }
                }
            }
        }
    } else {
        const size_t run = inner_bits / 8;
        const size_t step_p = middle * db * run; /* source distance between consecutive p */
        DispatchRunBytes(run, [&](auto fixed) {
            uint8_t *dst = out;
            for (size_t x = 0; x < outer; ++x) {
                for (size_t q = 0; q < db; ++q) {
                    for (size_t m = 0; m < middle; ++m) {
                        const uint8_t *src = in + ((x * da * middle + m) * db + q) * run;
                        for (size_t p = 0; p < da; ++p) {
                            CopyRun<decltype(fixed)::value>(dst, src, run);
                            dst += run;
                            src += step_p;
                        }
                    }
                }
            }
        });
    }
    if (rs1 != 0) {
        memcpy(s->reg[rs1], out, TL_REG_BYTES);
    }
    if (rs2 != 0) {
        memcpy(s->reg[rs2], out + TL_REG_BYTES, TL_REG_BYTES);
    }
    return TL_OK;
}

tl_status tl_exec_addi(tl_state *s, unsigned rd, unsigned rs, int32_t imm8)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    if (rd != 0) {
        AddImmediate(type, s->reg[rd], SourceReg(s, rs), imm8);
    }
    return TL_OK;
}

tl_status tl_exec_muls(tl_state *s, unsigned rd, unsigned rs, uint64_t scalar)
{
    const ElemType type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    if (rd != 0) {
        MultiplyScalar(type, s->reg[rd], SourceReg(s, rs), scalar);
    }
    return TL_OK;
}

tl_status tl_exec_fillpad(tl_state *s, tl_pad_kind pad, unsigned rd, unsigned rs)
{
    ElemType type;
    Block block;
    tl_status st = CheckBlockPrologue(s, CsrBit(TL_CSR_TVALID), &type, &block);
    if (st != TL_OK) {
        return st;
    }
    const uint32_t tvalid = CsrValue(s, TL_CSR_TVALID);
    const uint32_t valid[3] = {(tvalid >> 16) & 0xFF, (tvalid >> 8) & 0xFF, tvalid & 0xFF};
    for (unsigned k = 0; k < 3; ++k) {
        if (valid[k] > block.dim[k]) {
            return TL_ERR_VALID_RANGE;
        }
    }
    if (rd == 0) {
        return TL_OK;
    }
    const uint8_t *src = SourceReg(s, rs);
    uint8_t scratch[TL_REG_BYTES];
    uint8_t *dst = rd == rs ? scratch : s->reg[rd];
    if (valid[0] == block.dim[0] && valid[1] == block.dim[1] && valid[2] == block.dim[2]) {
        memcpy(dst, src, block.bytes);
    } else {
        FillElements(dst, block.bytes, PadValue(type, pad), block.esz);
        for (uint32_t i = 0; i < valid[0]; ++i) {
            for (uint32_t j = 0; j < valid[1]; ++j) {
                const size_t row = (size_t(i) * block.dim[1] + j) * block.dim[2];
                CopyElements(dst, row, src, row, valid[2], block.esz);
            }
        }
    }
    memset(dst + block.bytes, 0, TL_REG_BYTES - block.bytes);
    if (dst == scratch) {
        memcpy(s->reg[rd], scratch, TL_REG_BYTES);
    }
    return TL_OK;
}

} // extern "C"
