/*
 * Shared fixtures for the TL semantic-core unit tests: a reset hart state,
 * register/CSR helpers and a fake guest memory that records every callback.
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
 * Guest memory: bytes written by Poke or by a store are kept, every other
 * byte reads as Background(addr).  Bytes in a forbidden range fail probe.
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

    const tl_mem_if *If() const { return &if_; }
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
    size_t Stored() const { return bytes_.size(); }

    std::vector<Call> calls;

private:
    struct Range {
        uint64_t first, last;
    };

    static FakeMemory *Self(void *o) { return static_cast<FakeMemory *>(o); }
    static bool Probe(void *o, uint64_t addr, uint32_t len, bool is_store, uint64_t *fault)
    {
        FakeMemory *m = Self(o);
        m->calls.push_back({'P', addr, len, is_store});
        EXPECT_GE(len, 1u);
        EXPECT_GE(addr + (len - 1), addr) << "a range passed to probe wraps";
        for (uint64_t a = addr; a - addr < len; ++a) {
            for (const Range &r : m->forbidden_) {
                if (a >= r.first && a <= r.last) {
                    *fault = a;
                    return false;
                }
            }
        }
        return true;
    }
    static void Read(void *o, uint64_t addr, void *dst, uint32_t len)
    {
        FakeMemory *m = Self(o);
        m->calls.push_back({'R', addr, len, false});
        for (uint32_t i = 0; i < len; ++i) {
            static_cast<uint8_t *>(dst)[i] = m->Peek(addr + i);
        }
    }
    static void Write(void *o, uint64_t addr, const void *src, uint32_t len)
    {
        FakeMemory *m = Self(o);
        m->calls.push_back({'W', addr, len, true});
        for (uint32_t i = 0; i < len; ++i) {
            m->bytes_[addr + i] = static_cast<const uint8_t *>(src)[i];
        }
    }

    tl_mem_if if_;
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

} // namespace tltest

#endif /* TL_TEST_SUPPORT_H */
