/*
 * TensorLoad (xtl) semantic core: what a tl.load / tl.mload / tl.store /
 * tl.mstore accesses, and the batched memory protocol.  The plan of the
 * CSRs (width, pitch, selected slices, cached in the state for the host
 * pointer path of tl_host_copy.cc), the slice addresses modulo 2^XLEN, the
 * ranges of one instruction merged by memory and register adjacency, and
 * the all-or-nothing execution through tl_mem_batch_if: every range probed
 * before any is accessed, then one read or write call.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core_internal.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

using namespace tl::detail;

namespace {

struct MemPlan {
    Block block;
    uint32_t width;    /* W */
    int64_t pitch;     /* P */
    uint32_t selected; /* bit i: slice i is accessed */
};

/* Sec. 5.2: the checks and the parameters shared by loads and stores. */
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

    /* Address of byte 0 of slice 0. */
    uint64_t First() const { return first_ & addr_mask_; }

    /* Address of byte 0 of slice i. */
    uint64_t Start(uint32_t slice) const { return (first_ + uint64_t(slice) * pitch_) & addr_mask_; }

    /*
     * False when, for a non-negative pitch, the bytes of slices 0 .. d0-1
     * lie in increasing order below the top of the address space, so that
     * no slice wraps (true when unsure).
     */
    bool AnyWraps(uint32_t d0) const
    {
        if (int64_t(pitch_) < 0 || pitch_ > uint64_t(UINT32_MAX)) {
            return true;
        }
        const uint64_t first = First();
        /* Offset of the last byte of slice d0-1 from the first byte: < 2^32 * 32 + 2^32. */
        const uint64_t span = uint64_t(d0 - 1) * pitch_ + width_ - 1;
        return span > addr_mask_ - first;
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

/*
 * The accesses of one instruction as few ranges as possible: the byte
 * ranges of the selected slices, in scan order (slice i, then byte b), with
 * a range merged into the previous one when it continues it in memory
 * (probe list) or in memory and in the register (copy list).  Merging never
 * reorders bytes, so the first faulting byte of a merged probe is the first
 * in scan order, and overlapping slices (P < W) are never merged, so their
 * last-writer-wins order is kept.  A merged range never wraps past the top
 * of the address space (the wrap point is never a merge point).
 */
struct RangeLists {
    tl_mem_range probe[TL_MEM_MAX_RANGES];
    tl_mem_range copy[TL_MEM_MAX_RANGES];
    unsigned nprobe;
    unsigned ncopy;
};

inline bool Continues(const tl_mem_range &last, uint64_t addr, uint64_t addr_mask)
{
    return last.addr + last.len - 1 != addr_mask && last.addr + last.len == addr;
}

/*
 * True when every slice is selected and the slices follow each other without
 * gaps both in memory (P = W) and in the register (W = S), and the block does
 * not wrap past the top: the whole access is one range, which is what the
 * merging below would produce, found without walking the slices.
 */
bool IsOneRange(const MemPlan &plan, const SliceAddresses &addresses, uint64_t addr_mask,
                tl_mem_range *whole)
{
    const uint32_t d0 = plan.block.dim[0];
    const uint32_t all = d0 == 32 ? 0xFFFFFFFFu : (uint32_t{1} << d0) - 1;
    if (plan.selected != all || plan.width != plan.block.slice_bytes ||
        plan.pitch != int64_t(plan.width)) {
        return false;
    }
    const uint64_t addr = addresses.First();
    if (addr_mask - addr < uint64_t(plan.block.bytes) - 1) {
        return false; /* wraps: split at the top by the general path */
    }
    *whole = {addr, plan.block.bytes, 0};
    return true;
}

void BuildRanges(const MemPlan &plan, const SliceAddresses &addresses, uint64_t addr_mask,
                 RangeLists *l)
{
    if (IsOneRange(plan, addresses, addr_mask, &l->probe[0])) {
        l->copy[0] = l->probe[0];
        l->nprobe = l->ncopy = 1;
        return;
    }
    unsigned np = 0, nc = 0;
    const uint32_t slice_bytes = plan.block.slice_bytes;
    if (plan.pitch >= int64_t(plan.width) && !addresses.AnyWraps(plan.block.dim[0])) {
        /*
         * Slices in increasing address order, not overlapping, none wrapping:
         * two slices are adjacent in memory exactly when they are consecutive
         * and P = W, and in the register too when moreover W = S.  The same
         * lists as the general loop below, without its per-range checks.
         */
        const bool mem_adjacent = plan.pitch == int64_t(plan.width);
        const bool reg_adjacent = mem_adjacent && plan.width == slice_bytes;
        uint32_t prev = 64;
        for (uint32_t sel = plan.selected; sel != 0; sel &= sel - 1) {
            const uint32_t i = uint32_t(__builtin_ctz(sel));
            const bool next = i == prev + 1;
            if (next && mem_adjacent) {
                l->probe[np - 1].len += plan.width;
            } else {
                l->probe[np++] = {addresses.Start(i), plan.width, i * slice_bytes};
            }
            if (next && reg_adjacent) {
                l->copy[nc - 1].len += plan.width;
            } else {
                l->copy[nc++] = {addresses.Start(i), plan.width, i * slice_bytes};
            }
            prev = i;
        }
        l->nprobe = np;
        l->ncopy = nc;
        return;
    }
    for (uint32_t sel = plan.selected; sel != 0; sel &= sel - 1) {
        const uint32_t i = uint32_t(__builtin_ctz(sel));
        const SliceRanges sr = addresses.Of(i);
        uint32_t reg = i * slice_bytes;
        for (unsigned k = 0; k < sr.count; ++k) {
            const uint64_t addr = sr.range[k].addr;
            const uint32_t len = sr.range[k].len;
            if (np != 0 && Continues(l->probe[np - 1], addr, addr_mask)) {
                l->probe[np - 1].len += len;
            } else {
                l->probe[np++] = {addr, len, reg};
            }
            if (nc != 0 && Continues(l->copy[nc - 1], addr, addr_mask) &&
                l->copy[nc - 1].reg + l->copy[nc - 1].len == reg) {
                l->copy[nc - 1].len += len;
            } else {
                l->copy[nc++] = {addr, len, reg};
            }
            reg += len;
        }
    }
    l->nprobe = np;
    l->ncopy = nc;
}

/* Load: zero what was not loaded (unselected slices, slice tails, the rest of the register). */
void ZeroUnloaded(const MemPlan &plan, uint8_t *dst)
{
    const uint32_t slice_bytes = plan.block.slice_bytes;
    const uint32_t all = plan.block.dim[0] == 32 ? 0xFFFFFFFFu : (uint32_t{1} << plan.block.dim[0]) - 1;
    if (plan.width == slice_bytes && plan.selected == all) {
        BulkZero(dst + plan.block.bytes, TL_REG_BYTES - plan.block.bytes);
        return;
    }
    uint32_t zero_from = 0; /* start of the pending run of bytes to clear */
    for (uint32_t sel = plan.selected; sel != 0; sel &= sel - 1) {
        const uint32_t start = uint32_t(__builtin_ctz(sel)) * slice_bytes;
        ZeroBytes(dst + zero_from, start - zero_from);
        zero_from = start + plan.width;
    }
    BulkZero(dst + zero_from, TL_REG_BYTES - zero_from);
}

/* The plan and the ranges of a load or store; TL_OK or the illegal-instruction reason. */
tl_status PrepareMemory(const tl_state *s, bool masked, int32_t imm8, uint64_t base,
                        uint64_t addr_mask, MemPlan *plan, RangeLists *l)
{
    const tl_status st = PlanMemoryAccess(s, masked, plan);
    if (st != TL_OK) {
        return st;
    }
    const SliceAddresses addresses(*plan, imm8, base, addr_mask);
    BuildRanges(*plan, addresses, addr_mask, l);
    return TL_OK;
}

bool ProbeBatch(const RangeLists &l, const tl_mem_batch_if *mem, bool is_store, uint64_t *fault_addr)
{
    if (l.nprobe == 0) {
        return true;
    }
    uint64_t fault = l.probe[0].addr;
    if (mem->probe(mem->opaque, l.probe, l.nprobe, is_store, &fault)) {
        return true;
    }
    if (fault_addr) {
        *fault_addr = fault;
    }
    return false;
}

/* The plan of the current CSRs, as tl_mem_plan_compute caches it. */
void FillPlan(const tl_state *s, bool masked, tl_mem_plan *p)
{
    MemPlan m;
    const tl_status st = PlanMemoryAccess(s, masked, &m);
    *p = tl_mem_plan{};
    p->status = st;
    if (st == TL_OK) {
        const uint32_t d0 = m.block.dim[0];
        const uint32_t all = d0 == 32 ? 0xFFFFFFFFu : (uint32_t{1} << d0) - 1;
        p->width = m.width;
        p->pitch = m.pitch;
        p->selected = m.selected;
        p->slice_bytes = m.block.slice_bytes;
        p->block_bytes = m.block.bytes;
        p->ordered = m.pitch >= int64_t(m.width);
        p->contiguous = m.selected == all && m.width == m.block.slice_bytes &&
                        m.pitch == int64_t(m.width);
        p->whole_reg = p->contiguous && m.block.bytes == TL_REG_BYTES;
        if (p->ordered && m.selected != 0) {
            const uint64_t last = 31 - unsigned(__builtin_clz(m.selected));
            p->span = last * uint64_t(m.pitch) + m.width;
            p->direct = 1;
        }
    }
    /* Slices 0 .. R-1 selected: the low R bits, R the highest bit's position (direct: not 0). */
    if (p->direct && (p->selected & (p->selected + 1u)) == 0 && p->width == p->slice_bytes &&
        p->width % 32 == 0) {
        p->dense_rows = TL_DENSE_ROWS_KEY(32u - unsigned(__builtin_clz(p->selected)), p->width);
    }
}

/*
 * Everything PlanMemoryAccess reads: what a plan_cache entry is found by,
 * two CSRs to a 64-bit word.  CachedPlan reads the words as they are
 * written here: 64-bit loads of 32-bit stores just made would not be
 * forwarded from the store buffer, and the search would wait for them.
 */
void PlanKey(const tl_state *s, bool masked, uint64_t key[TL_MEM_PLAN_KEY_WORDS])
{
    static_assert(TL_MEM_PLAN_KEY_WORDS == 3, "six 32-bit values in three words");
    key[0] = s->csr[TL_CSR_TTYPE] | uint64_t{s->csr[TL_CSR_TSHAPE]} << 32;
    key[1] = (masked ? s->csr[TL_CSR_TMASK_LS] : 0) | uint64_t{s->csr[TL_CSR_TMASK_LOAD_STRIDE]} << 32;
    key[2] = s->csr[TL_CSR_TMASK_LOAD_WIDTH] |
             uint64_t{(s->csr_initialized & 0xFFu) | uint32_t(masked) << 8} << 32;
}

/* Whether key (PlanKey's) is that of a masked access. */
bool PlanKeyMasked(const uint64_t key[TL_MEM_PLAN_KEY_WORDS])
{
    return (key[2] >> 40) & 1;
}

/*
 * The entry of key, or null.  The words are compared inline (a library
 * memcmp per entry cost more than the search): a program switching the
 * pitch runs this after every pitch write.
 */
const tl_mem_plan_entry *CachedPlan(const tl_state *s, const uint64_t key[TL_MEM_PLAN_KEY_WORDS])
{
    const uint32_t used = std::min<uint32_t>(s->plan_cache_used, TL_MEM_PLAN_CACHE_SIZE);
    for (uint32_t i = 0; i < used; i++) {
        const uint64_t *k = s->plan_cache[i].key;
        uint64_t differ = 0;
        for (unsigned w = 0; w < TL_MEM_PLAN_KEY_WORDS; w++) {
            differ |= k[w] ^ key[w];
        }
        if (differ == 0) {
            return &s->plan_cache[i];
        }
    }
    return nullptr;
}

} // namespace

extern "C" {

const tl_mem_plan *tl_mem_plan_compute(tl_state *s, bool masked)
{
    tl_mem_plan *p = &s->mem_plan[masked];
    const uint32_t bit = uint32_t{1} << unsigned(masked);
    uint64_t key[TL_MEM_PLAN_KEY_WORDS];
    PlanKey(s, masked, key);
    const uint32_t used = std::min<uint32_t>(s->plan_cache_used, TL_MEM_PLAN_CACHE_SIZE);
    const tl_mem_plan_entry *hit = CachedPlan(s, key);
    if (hit) {
        *p = hit->plan;
        s->mem_plan_valid |= bit;
        return p;
    }

    FillPlan(s, masked, p);
    const uint32_t slot = used < TL_MEM_PLAN_CACHE_SIZE
                              ? used
                              : s->plan_cache_next++ % TL_MEM_PLAN_CACHE_SIZE;
    memcpy(s->plan_cache[slot].key, key, sizeof(key));
    s->plan_cache[slot].plan = *p;
    s->plan_cache_used = used < TL_MEM_PLAN_CACHE_SIZE ? used + 1 : used;
    s->mem_plan_valid |= bit;
    return p;
}

void tl_mem_plan_from_cache(tl_state *s)
{
    if (s->mem_plan_valid & 1) {
        return;
    }
    uint64_t key[TL_MEM_PLAN_KEY_WORDS];
    PlanKey(s, false, key);
    const tl_mem_plan_entry *hit = CachedPlan(s, key);
    if (hit) {
        s->mem_plan[0] = hit->plan;
        s->mem_plan_valid |= 1;
    }
}

uint32_t tl_mem_plan_expected_dense_rows(const tl_state *s, bool *now_apart)
{
    tl_mem_plan now;
    FillPlan(s, false, &now);
    *now_apart = now.dense_rows != 0 && !now.contiguous;
    if (now.dense_rows == 0 || *now_apart) {
        return now.dense_rows;
    }
    const uint32_t used = std::min<uint32_t>(s->plan_cache_used, TL_MEM_PLAN_CACHE_SIZE);
    for (uint32_t i = 0; i < used; i++) {
        const tl_mem_plan &p = s->plan_cache[i].plan;
        if (p.dense_rows == now.dense_rows && !p.contiguous) {
            return now.dense_rows;
        }
    }
    return 0;
}

bool tl_mem_plan_expected_whole(const tl_state *s)
{
    tl_mem_plan now;
    FillPlan(s, false, &now);
    if (!now.whole_reg) {
        return false;
    }
    const uint32_t used = std::min<uint32_t>(s->plan_cache_used, TL_MEM_PLAN_CACHE_SIZE);
    for (uint32_t i = 0; i < used; i++) {
        if (!PlanKeyMasked(s->plan_cache[i].key) && !s->plan_cache[i].plan.whole_reg) {
            return false;
        }
    }
    return true;
}

tl_status tl_exec_load_batch(tl_state *s, unsigned rd, bool masked, int32_t imm8, uint64_t base,
                             uint64_t addr_mask, const tl_mem_batch_if *mem, uint64_t *fault_addr)
{
    MemPlan plan;
    TL_UNINIT RangeLists l;
    tl_status st = PrepareMemory(s, masked, imm8, base, addr_mask, &plan, &l);
    if (st != TL_OK) {
        return st;
    }
    if (!ProbeBatch(l, mem, false, fault_addr)) {
        return TL_FAULT;
    }
    /*
     * The reads go to a buffer and the register is written after the last
     * one: a read that ends the instruction half-way (a device that fails
     * the access, a host fault in user mode) leaves the register as it was.
     * A load to tl0 still performs its reads (they may have side effects,
     * e.g. MMIO).
     */
    TL_UNINIT uint8_t stage[TL_REG_BYTES];
    if (l.ncopy != 0) {
        mem->read(mem->opaque, l.copy, l.ncopy, stage);
    }
    if (rd != 0) {
        ZeroUnloaded(plan, stage);
        tl_copy_whole_reg(s->reg[rd], stage);
    }
    return TL_OK;
}

tl_status tl_exec_store_batch(const tl_state *s, unsigned rs, bool masked, int32_t imm8,
                              uint64_t base, uint64_t addr_mask, const tl_mem_batch_if *mem,
                              uint64_t *fault_addr)
{
    MemPlan plan;
    TL_UNINIT RangeLists l;
    tl_status st = PrepareMemory(s, masked, imm8, base, addr_mask, &plan, &l);
    if (st != TL_OK) {
        return st;
    }
    if (!ProbeBatch(l, mem, true, fault_addr)) {
        return TL_FAULT;
    }
    if (l.ncopy != 0) {
        mem->write(mem->opaque, l.copy, l.ncopy, SourceReg(s, rs));
    }
    return TL_OK;
}

} // extern "C"
