/*
 * TensorLoad (xtl) semantic core: the hart state and its CSRs.  Reset and
 * sanitizing of state set from outside the instructions, the CSR names,
 * WARL masks, reads and writes (tinit and the initialized flags included,
 * every write invalidating the cached memory plans), the element-type
 * decoding of ttype for the C ABI, and the sentence of each tl_status.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core_internal.h"

#include <cstdint>
#include <cstring>

using namespace tl::detail;

namespace {

/* The CSR names of the encoding table, in CSR number order (tinit last). */
constexpr const char *kCsrName[TL_CSR_ADDR_COUNT] = {
#define TL_CSR_NAME(sym, name, num, wmask, reset) name,
    XTL_CSRS(TL_CSR_NAME)
#undef TL_CSR_NAME
};

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

constexpr uint32_t kAllCsrFlags = (uint32_t{1} << TL_CSR_COUNT) - 1;

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

void tl_state_sanitize(tl_state *s)
{
    s->mem_plan_valid = 0;
    s->plan_cache_used = 0;
    s->plan_cache_next = 0;
    memset(s->reg[0], 0, sizeof(s->reg[0]));
    s->csr_initialized = (s->csr_initialized & kAllCsrFlags) | CsrBit(TL_CSR_TTYPE);
    for (unsigned i = 0; i < TL_CSR_COUNT; i++) {
        s->csr[i] = CsrValue(s, i);
    }
}

const char *tl_csr_name(unsigned idx)
{
    return idx < TL_CSR_ADDR_COUNT ? kCsrName[idx] : nullptr;
}

uint32_t tl_csr_writable_mask(unsigned idx)
{
    if (idx == TL_CSR_TINIT) {
        return TL_TINIT_WRITABLE;
    }
    return idx < TL_CSR_COUNT ? kCsrWritableMask[idx] : 0;
}

uint32_t tl_csr_read(const tl_state *s, unsigned idx)
{
    if (idx == TL_CSR_TINIT) {
        return (s->csr_initialized & kAllCsrFlags) | TL_TINIT_RESET;
    }
    return idx < TL_CSR_COUNT ? CsrValue(s, idx) : 0;
}

void tl_csr_write(tl_state *s, unsigned idx, uint64_t value)
{
    if (tl_csr_shapes_mem_plan(idx)) {
        s->mem_plan_valid = 0;
    }
    if (idx == TL_CSR_TINIT) {
        const uint32_t flags = (uint32_t(value) & TL_TINIT_WRITABLE) | TL_TINIT_RESET;
        const uint32_t cleared = s->csr_initialized & ~flags;

        for (unsigned i = 0; i < TL_CSR_COUNT; i++) {
            if (cleared & CsrBit(tl_csr_index(i))) {
                s->csr[i] = 0;
            }
        }
        s->csr_initialized = flags;
        tl_mem_plan_from_cache(s);
        return;
    }
    if (idx >= TL_CSR_COUNT) {
        return;
    }
    s->csr[idx] = uint32_t(value) & kCsrWritableMask[idx];
    s->csr_initialized |= uint32_t{1} << idx;
    if (tl_csr_shapes_mem_plan(idx)) {
        tl_mem_plan_from_cache(s);
    }
}

bool tl_csr_is_initialized(const tl_state *s, unsigned idx)
{
    return idx == TL_CSR_TINIT || (idx < TL_CSR_COUNT && IsInitialized(s, idx));
}

unsigned tl_ttype_element_bits(uint32_t ttype)
{
    return ElementBits(DecodeTtype(ttype));
}

const char *tl_ttype_name(uint32_t ttype)
{
    return ElementName(DecodeTtype(ttype));
}

} // extern "C"
