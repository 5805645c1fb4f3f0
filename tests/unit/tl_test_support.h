/*
 * Shared fixtures for the TL semantic-core unit tests: a reset hart state,
 * register/CSR helpers, a fake guest memory that records every callback,
 * and loads and stores run on both memory paths of QEMU's helper.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TEST_SUPPORT_H
#define TL_TEST_SUPPORT_H

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "tl_core.h"

namespace tltest {

using Bytes = std::vector<uint8_t>;

/* ttype values of section 3 of the decisions file. */
enum : uint32_t {
    kInt4 = 0x001,
    kInt8 = 0x002,
    kInt16 = 0x004,
    kInt32 = 0x008,
    kE2M1 = 0x010,
    kE4M3 = 0x040,
    kE5M2 = 0x080,
    kE3M4 = 0x0C0,
    kFp16 = 0x100,
    kBf16 = 0x200,
    kFp32 = 0x400,
};

constexpr uint32_t Shape(uint32_t d0, uint32_t d1, uint32_t d2) { return d0 << 16 | d1 << 8 | d2; }
constexpr uint64_t XposeDims(uint32_t d0, uint32_t d1, uint32_t d2, uint32_t d3)
{
    return uint64_t{d3} << 24 | d2 << 16 | d1 << 8 | d0;
}

/* The host SIMD paths this test run uses (TL_TEST_HOST_SIMD; test_host_simd.cc). */
unsigned HostSimdUnderTest();

/*
 * Whether the core has its one-pass interleave (and makes an interleave
 * memo) in this run: x86-64 with AVX-512F in use.
 */
inline bool InterleavePassExpected()
{
#if defined(__x86_64__) && defined(__GNUC__)
    return (HostSimdUnderTest() & TL_HOST_SIMD_AVX512F) != 0;
#else
    return false;
#endif
}

class TlTest : public ::testing::Test {
protected:
    void SetUp() override { tl_state_reset(s()); }

    tl_state *s() { return state_.get(); }
    const tl_state *state() const { return state_.get(); }
    void Csr(tl_csr_index idx, uint64_t v) { tl_csr_write(s(), idx, v); }
    void Type(uint32_t ttype) { Csr(TL_CSR_TTYPE, ttype); }
    void SetShape(uint32_t d0, uint32_t d1, uint32_t d2) { Csr(TL_CSR_TSHAPE, Shape(d0, d1, d2)); }

    /* Register r = bytes, the rest of the register = fill. */
    void SetReg(unsigned r, const Bytes &bytes, uint8_t fill = 0)
    {
        memset(s()->reg[r], fill, TL_REG_BYTES);
        if (!bytes.empty()) {
            memcpy(s()->reg[r], bytes.data(), bytes.size());
        }
    }
    Bytes Reg(unsigned r, size_t from, size_t count) const
    {
        return Bytes(state_->reg[r] + from, state_->reg[r] + from + count);
    }
    Bytes Reg(unsigned r, size_t count = TL_REG_BYTES) const { return Reg(r, 0, count); }
    bool RegIsAll(unsigned r, uint8_t v, size_t from = 0, size_t to = TL_REG_BYTES) const
    {
        for (size_t i = from; i < to; ++i) {
            if (state_->reg[r][i] != v) {
                return false;
            }
        }
        return true;
    }
    uint32_t Reg16(unsigned r, size_t element) const
    {
        const uint8_t *p = state_->reg[r] + 2 * element;
        return uint32_t(p[0]) | uint32_t(p[1]) << 8;
    }
    uint32_t Reg32(unsigned r, size_t element) const
    {
        const uint8_t *p = state_->reg[r] + 4 * element;
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    void SetReg16(unsigned r, size_t element, uint32_t v)
    {
        state_->reg[r][2 * element] = uint8_t(v);
        state_->reg[r][2 * element + 1] = uint8_t(v >> 8);
    }
    void SetReg32(unsigned r, size_t element, uint32_t v)
    {
        for (unsigned k = 0; k < 4; ++k) {
            state_->reg[r][4 * element + k] = uint8_t(v >> (8 * k));
        }
    }
    unsigned Nibble(unsigned r, size_t n) const
    {
        return (state_->reg[r][n / 2] >> (4 * (n % 2))) & 0xF;
    }

    std::unique_ptr<tl_state> Snapshot() const
    {
        std::unique_ptr<tl_state> copy(new tl_state);
        memcpy(copy.get(), state_.get(), sizeof(tl_state));
        return copy;
    }
    bool Unchanged(const tl_state &before) const
    {
        return memcmp(&before, state_.get(), sizeof(tl_state)) == 0;
    }

private:
    std::unique_ptr<tl_state> state_{new tl_state};
};

/*
 * Guest memory behind the batched interface (tl_mem_batch_if), which QEMU's
 * general path implements: bytes written by Poke or by a store are kept,
 * every other byte reads as Background(addr).  Bytes in a forbidden range
 * fail probe.  Each range a callback gets is recorded as one Call, in
 * order; probe stops at the first range with a fault, as the interface
 * requires.  ProbeRange / ReadRange / WriteRange are what happens to one
 * range, for adapters to other interfaces.
 */
class FakeMemory {
public:
    struct Call {
        char kind; /* 'P'robe, 'R'ead, 'W'rite */
        uint64_t addr;
        uint32_t len;
        bool is_store;
        bool operator==(const Call &o) const
        {
            return kind == o.kind && addr == o.addr && len == o.len && is_store == o.is_store;
        }
    };

    FakeMemory() : if_{this, &Probe, &Read, &Write} {}

    static uint8_t Background(uint64_t addr) { return uint8_t((addr * 7) ^ 0xA5); }

    const tl_mem_batch_if *Batch() const { return &if_; }
    void Poke(uint64_t addr, const Bytes &b)
    {
        for (size_t i = 0; i < b.size(); ++i) {
            bytes_[addr + i] = b[i];
        }
    }
    uint8_t Peek(uint64_t addr) const
    {
        auto it = bytes_.find(addr);
        return it == bytes_.end() ? Background(addr) : it->second;
    }
    Bytes Peek(uint64_t addr, size_t n) const
    {
        Bytes out;
        for (size_t i = 0; i < n; ++i) {
            out.push_back(Peek(addr + i));
        }
        return out;
    }
    void Forbid(uint64_t first, uint64_t last) { forbidden_.push_back({first, last}); }
    /* True when a byte of [addr, addr + len) is forbidden. */
    bool AnyForbidden(uint64_t addr, uint64_t len) const
    {
        for (const Range &r : forbidden_) {
            if (len != 0 && r.first <= addr + (len - 1) && r.last >= addr) {
                return true;
            }
        }
        return false;
    }
    size_t Stored() const { return bytes_.size(); }

    bool ProbeRange(uint64_t addr, uint32_t len, bool is_store, uint64_t *fault)
    {
        calls.push_back({'P', addr, len, is_store});
        EXPECT_GE(len, 1u);
        EXPECT_GE(addr + (len - 1), addr) << "a range passed to probe wraps";
        for (uint64_t a = addr; a - addr < len; ++a) {
            for (const Range &r : forbidden_) {
                if (a >= r.first && a <= r.last) {
                    *fault = a;
                    return false;
                }
            }
        }
        return true;
    }
    void ReadRange(uint64_t addr, void *dst, uint32_t len)
    {
        calls.push_back({'R', addr, len, false});
        for (uint32_t i = 0; i < len; ++i) {
            static_cast<uint8_t *>(dst)[i] = Peek(addr + i);
        }
    }
    void WriteRange(uint64_t addr, const void *src, uint32_t len)
    {
        calls.push_back({'W', addr, len, true});
        for (uint32_t i = 0; i < len; ++i) {
            bytes_[addr + i] = static_cast<const uint8_t *>(src)[i];
        }
    }

    std::vector<Call> calls;
    /* Batched callbacks so far, each with all its ranges. */
    unsigned probe_batches = 0, read_batches = 0, write_batches = 0;

private:
    struct Range {
        uint64_t first, last;
    };

    static FakeMemory *Self(void *o) { return static_cast<FakeMemory *>(o); }
    static bool Probe(void *o, const tl_mem_range *r, unsigned n, bool is_store, uint64_t *fault)
    {
        FakeMemory *m = Self(o);
        ++m->probe_batches;
        EXPECT_GE(n, 1u);
        EXPECT_LE(n, unsigned(TL_MEM_MAX_RANGES));
        for (unsigned k = 0; k < n; ++k) {
            if (!m->ProbeRange(r[k].addr, r[k].len, is_store, fault)) {
                return false;
            }
        }
        return true;
    }
    static void Read(void *o, const tl_mem_range *r, unsigned n, uint8_t *dst)
    {
        FakeMemory *m = Self(o);
        ++m->read_batches;
        EXPECT_LE(n, unsigned(TL_MEM_MAX_RANGES));
        for (unsigned k = 0; k < n; ++k) {
            EXPECT_LE(uint64_t(r[k].reg) + r[k].len, uint64_t(TL_REG_BYTES)) << "outside the register";
            m->ReadRange(r[k].addr, dst + r[k].reg, r[k].len);
        }
    }
    static void Write(void *o, const tl_mem_range *r, unsigned n, const uint8_t *src)
    {
        FakeMemory *m = Self(o);
        ++m->write_batches;
        EXPECT_LE(n, unsigned(TL_MEM_MAX_RANGES));
        for (unsigned k = 0; k < n; ++k) {
            EXPECT_LE(uint64_t(r[k].reg) + r[k].len, uint64_t(TL_REG_BYTES)) << "outside the register";
            m->WriteRange(r[k].addr, src + r[k].reg, r[k].len);
        }
    }

    tl_mem_batch_if if_;
    std::map<uint64_t, uint8_t> bytes_;
    std::vector<Range> forbidden_;
};

inline std::ostream &operator<<(std::ostream &os, const FakeMemory::Call &c)
{
    return os << c.kind << "(0x" << std::hex << c.addr << std::dec << ", " << c.len
              << (c.is_store ? ", store)" : ")");
}

constexpr uint64_t kMask32 = 0xFFFFFFFFull;
constexpr uint64_t kMask64 = ~0ull;

/*
 * Loads and stores the way QEMU's helper runs them (target-riscv-tl/
 * xtl_helper.c).  Every instruction goes through the batched interface on
 * `mem`, QEMU's general path, which every expectation of a test checks.
 * When QEMU would take the fast path instead (the plan of the CSRs is legal
 * and ordered, and its span is plain memory: not past the top of the
 * address space, no forbidden byte), the instruction also runs, on a copy
 * of the state, through tl_mem_plan_of and a host pointer to those bytes,
 * and must end the same: the same registers after a load, the same bytes
 * after a store.  The plan's status must be the instruction's.
 */
class MemoryPathTest : public TlTest {
protected:
    tl_status Load(unsigned rd, bool masked, int32_t imm8, uint64_t base,
                   uint64_t addr_mask = kMask64)
    {
        return Run(false, rd, masked, imm8, base, addr_mask);
    }
    tl_status Store(unsigned rs, bool masked, int32_t imm8, uint64_t base,
                    uint64_t addr_mask = kMask64)
    {
        return Run(true, rs, masked, imm8, base, addr_mask);
    }

    FakeMemory mem;
    uint64_t fault = 0xDEAD;
    unsigned host_path_runs = 0; /* instructions also checked on the host-pointer path */

private:
    tl_status Run(bool store, unsigned r, bool masked, int32_t imm8, uint64_t base,
                  uint64_t addr_mask)
    {
        /* The fast path first, on a copy: tl_mem_plan_of fills the state's plan cache. */
        const std::unique_ptr<tl_state> fast = Snapshot();
        const tl_mem_plan *plan = tl_mem_plan_of(fast.get(), masked);
        const uint64_t first = tl_mem_plan_first(plan, imm8, base, addr_mask);
        const uint64_t span = plan->span;
        const bool plain = plan->status == TL_OK && plan->ordered &&
                           (span == 0 || (span <= (uint64_t{1} << 20) &&
                                          span - 1 <= addr_mask - first &&
                                          !mem.AnyForbidden(first, span)));
        Bytes host;
        if (plain) {
            host = mem.Peek(first, span);
            if (store) {
                tl_store_to_host(fast.get(), r, plan, span ? host.data() : nullptr);
            } else {
                tl_load_from_host(fast.get(), r, plan, span ? host.data() : nullptr);
            }
        }

        const unsigned probes = mem.probe_batches, reads = mem.read_batches,
                       writes = mem.write_batches;
        const tl_status st =
            store ? tl_exec_store_batch(s(), r, masked, imm8, base, addr_mask, mem.Batch(), &fault)
                  : tl_exec_load_batch(s(), r, masked, imm8, base, addr_mask, mem.Batch(), &fault);
        EXPECT_LE(mem.probe_batches - probes, 1u) << "one probe call per instruction";
        EXPECT_LE(mem.read_batches - reads, 1u) << "one read call per instruction";
        EXPECT_LE(mem.write_batches - writes, 1u) << "one write call per instruction";
        EXPECT_EQ(plan->status, st == TL_FAULT ? TL_OK : st) << "the plan's status";

        if (plain) {
            ++host_path_runs;
            EXPECT_EQ(st, TL_OK) << "an ordered plan in plain memory completes";
            if (store) {
                EXPECT_EQ(host, mem.Peek(first, span)) << "stored bytes, host-pointer path";
            } else {
                EXPECT_EQ(memcmp(fast->reg, state()->reg, sizeof(fast->reg)), 0)
                    << "registers after the load, host-pointer path";
            }
        }
        return st;
    }
};

} // namespace tltest

#endif /* TL_TEST_SUPPORT_H */
