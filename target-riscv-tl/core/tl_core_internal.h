/*
 * What the source files of the TensorLoad (xtl) semantic core share, not
 * part of its C ABI (tl_core.h): the decoded element type and shape of the
 * CSRs, architectural CSR values, the zero source register tl0, the check
 * sequence every block instruction starts with, little-endian element
 * access and the zeroing helpers.  Everything here is inline, so a hot path
 * that uses it compiles as if it were in its own file.  The normative
 * behaviour is docs/isa.md; section numbers refer to it.
 *
 * Freestanding C++17: no exceptions, RTTI, heap or C++ runtime, so the
 * objects link into QEMU's C executables.  Everything is plain integer
 * arithmetic on byte arrays stored little-endian, so results do not depend
 * on the host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_CORE_INTERNAL_H
#define TL_CORE_INTERNAL_H

#include "tl_core.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

/*
 * Scratch buffers that are fully written before they are read.  QEMU builds
 * with -ftrivial-auto-var-init=zero, which would otherwise clear every such
 * buffer (up to 4 KiB) on each instruction.
 */
#if defined(__has_attribute)
#if __has_attribute(uninitialized)
#define TL_UNINIT __attribute__((uninitialized))
#endif
#endif
#ifndef TL_UNINIT
#define TL_UNINIT
#endif

namespace tl {
/* Hidden: the core's own symbols bind within the executable that links it. */
namespace detail __attribute__((visibility("hidden"))) {

/*
 * memset of register-sized blocks through the C library (GCC would expand a
 * bounded one as a slow `rep stos`; see tl_copy.h for copies).
 */
inline void BulkZero(void *dst, size_t n)
{
#if defined(__GNUC__)
    __asm__("" : "+r"(n));
#endif
    memset(dst, 0, n);
}

/* memset for short, run-time sizes: the counterpart of tl_copy_bytes. */
inline __attribute__((always_inline)) void ZeroBytes(uint8_t *dst, size_t n)
{
    if (n > 64) {
        BulkZero(dst, n);
    } else if (n >= 32) {
        memset(dst, 0, 32);
        memset(dst + n - 32, 0, 32);
    } else if (n >= 16) {
        memset(dst, 0, 16);
        memset(dst + n - 16, 0, 16);
    } else if (n >= 8) {
        memset(dst, 0, 8);
        memset(dst + n - 8, 0, 8);
    } else if (n >= 4) {
        memset(dst, 0, 4);
        memset(dst + n - 4, 0, 4);
    } else if (n != 0) {
        dst[0] = 0;
        dst[n / 2] = 0;
        dst[n - 1] = 0;
    }
}

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

/* Writable bits of CSRs 0x800..0x807 (tinit: TL_TINIT_WRITABLE), from xtl-opc.h. */
inline constexpr uint32_t kCsrWritableMask[TL_CSR_COUNT] = {
    XTL_CSR_TTYPE_WMASK,          XTL_CSR_TSHAPE_WMASK,         XTL_CSR_TMASK_LS_WMASK,
    XTL_CSR_TMASK_CONCAT_1_WMASK, XTL_CSR_TMASK_CONCAT_2_WMASK, XTL_CSR_TMASK_LOAD_STRIDE_WMASK,
    XTL_CSR_TMASK_LOAD_WIDTH_WMASK, XTL_CSR_TVALID_WMASK,
};
static_assert(XTL_NUM_CSRS == TL_CSR_ADDR_COUNT && XTL_CSR_TINIT == TL_CSR_ADDR_BASE + TL_CSR_TINIT,
              "the encoding table and tl_csr_index disagree");

/* The TL_HOST_SIMD_* extensions the optimized paths use (tl_host_simd.cc). */
extern std::atomic<unsigned> g_host_simd;

inline bool HostUses(unsigned extension)
{
    return (g_host_simd.load(std::memory_order_relaxed) & extension) != 0;
}

/* Source operand for tl0, which reads as zero whatever reg[0] holds. */
inline constexpr uint8_t kZeroReg[TL_REG_BYTES] = {};

constexpr ElemType DecodeTtype(uint32_t ttype)
{
    /*
     * Exactly one field is non-zero and not a reserved code, so each valid
     * value is unique; bits above 11 are reserved-zero (the CSR cannot hold them).
     */
    switch (ttype) {
    case XTL_TTYPE_INT4: return ElemType::kInt4;
    case XTL_TTYPE_INT8: return ElemType::kInt8;
    case XTL_TTYPE_INT16: return ElemType::kInt16;
    case XTL_TTYPE_INT32: return ElemType::kInt32;
    case XTL_TTYPE_E2M1: return ElemType::kE2M1;
    case XTL_TTYPE_E4M3: return ElemType::kE4M3;
    case XTL_TTYPE_E5M2: return ElemType::kE5M2;
    case XTL_TTYPE_E3M4: return ElemType::kE3M4;
    case XTL_TTYPE_FP16: return ElemType::kFp16;
    case XTL_TTYPE_BF16: return ElemType::kBf16;
    case XTL_TTYPE_FP32: return ElemType::kFp32;
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

/* Sec. 3.4: every D >= 1, S a whole number of bytes, D0 * S <= 1024. */
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
 * the others in CSR-number order), then the shape.  Once per instruction:
 * each file has its own out-of-line copy, specialized for its callers.
 */
static inline __attribute__((noinline)) tl_status
CheckBlockPrologue(const tl_state *s, uint32_t needed_csrs, ElemType *type, Block *block)
{
    *type = DecodeTtype(CsrValue(s, TL_CSR_TTYPE));
    if (*type == ElemType::kInvalid) {
        return TL_ERR_TTYPE;
    }
    /* The lowest missing CSR number: tshape (1) first, then in CSR-number order. */
    const uint32_t missing = (needed_csrs | CsrBit(TL_CSR_TSHAPE)) & ~s->csr_initialized &
                             ((uint32_t{1} << TL_CSR_COUNT) - 1);
    if (missing != 0) {
        return UninitializedStatus(unsigned(__builtin_ctz(missing)));
    }
    if (!DecodeShape(CsrValue(s, TL_CSR_TSHAPE), ElementBits(*type), block)) {
        return TL_ERR_SHAPE;
    }
    return TL_OK;
}

} // namespace detail
} // namespace tl

#endif /* TL_CORE_INTERNAL_H */
