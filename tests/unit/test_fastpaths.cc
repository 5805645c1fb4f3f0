/*
 * The optimized paths of the core against plain element-by-element
 * references written from docs/isa.md 5 (get_elem / set_elem loops):
 *  - tl.xpose (SWAR block transposes) for every element size, every swap
 *    pair and many shapes, with adjacent and non-adjacent registers;
 *  - tl.concat / tl.merge (runs of indices) on random masks, shapes, types;
 *  - integer tl.addi / tl.muls (vector paths): every int8 input with every
 *    immediate, int16/int32 edge values, scalars around the saturation limits;
 *  - the per-range memory interface (tl_exec_load / tl_exec_store, used by
 *    the host backend of the tile API): the same ranges, results and faults
 *    as the batched one on random accesses;
 *  - the host-pointer path (tl_load_from_host / tl_store_to_host) against
 *    the rule of docs/isa.md 5.2 on random ordered plans, dense rows
 *    (every slice, W = S, P > W) included, and the whole-register plans
 *    and copy of QEMU's translated fast path; its reads-first load
 *    (tl_load_from_host_reads_first) the same, and unchanged registers
 *    when a read faults.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <csetjmp>
#include <csignal>
#include <random>

#include <sys/mman.h>
#include <unistd.h>

#include "tl_test_support.h"
#include "../tl_ref.h"

namespace tltest {
namespace {

uint32_t GetElem(const uint8_t *buf, size_t n, unsigned e)
{
    if (e == 4) {
        return (buf[n / 2] >> (4 * (n % 2))) & 0xF;
    }
    uint32_t v = 0;
    for (unsigned b = 0; b < e / 8; ++b) {
        v |= uint32_t(buf[n * (e / 8) + b]) << (8 * b);
    }
    return v;
}

void SetElem(uint8_t *buf, size_t n, unsigned e, uint32_t v)
{
    if (e == 4) {
        const unsigned sh = 4 * (n % 2);
        buf[n / 2] = uint8_t((buf[n / 2] & ~(0xFu << sh)) | ((v & 0xF) << sh));
        return;
    }
    for (unsigned b = 0; b < e / 8; ++b) {
        buf[n * (e / 8) + b] = uint8_t(v >> (8 * b));
    }
}

unsigned Bits(uint32_t ttype) { return tl_ttype_element_bits(ttype); }

class FastPathTest : public TlTest {
protected:
    std::mt19937_64 rng{12345};
    void RandomReg(unsigned r)
    {
        for (size_t i = 0; i < TL_REG_BYTES; ++i) {
            s()->reg[r][i] = uint8_t(rng());
        }
    }
    struct InterleaveCase {
        uint32_t ttype;
        uint32_t D[4];
        unsigned dim0, dim1;
    };
    /*
     * The CSRs of a whole-register plan of c's element type, and c's five
     * instructions (tl.load, tl.load, tl.xpose, tl.store, tl.store) run once
     * from mem[0], mem[1] to mem[2], mem[3], all four random: where the host
     * pass exists, that leaves the interleave memo.
     */
    void RunInterleaveOnce(const InterleaveCase &c, uint8_t (*mem)[TL_REG_BYTES], tl_mem_plan *plan)
    {
        Type(c.ttype);
        SetShape(32, 1, 256 / tl_ttype_element_bits(c.ttype));
        Csr(TL_CSR_TMASK_LOAD_WIDTH, 32);
        Csr(TL_CSR_TMASK_LOAD_STRIDE, 32);
        *plan = *tl_mem_plan_of(s(), false);
        ASSERT_TRUE(plan->whole_reg);
        for (unsigned i = 0; i < 4; ++i) {
            for (size_t j = 0; j < TL_REG_BYTES; ++j) mem[i][j] = uint8_t(rng());
        }
        ASSERT_EQ(tl_exec_load_pair_xpose_store(s(), 1, 2, plan, mem[0], mem[1], c.dim0, c.dim1,
                                                XposeDims(c.D[0], c.D[1], c.D[2], c.D[3]), mem[2], mem[3]),
                  TL_OK);
    }
    /* The plan of an int8 [d0, d1, d2] access with width w, pitch p and mask (when masked). */
    const tl_mem_plan *Int8Plan(uint32_t d0, uint32_t d1, uint32_t d2, uint32_t w, int64_t p,
                                bool masked, uint32_t mask)
    {
        Type(kInt8);
        SetShape(d0, d1, d2);
        Csr(TL_CSR_TMASK_LOAD_WIDTH, w);
        Csr(TL_CSR_TMASK_LOAD_STRIDE, uint64_t(p));
        Csr(TL_CSR_TMASK_LS, mask);
        return tl_mem_plan_of(s(), masked);
    }
};

/* ---- xpose ---- */

/* want = the tensor `in` of shape D (e-bit elements) with dimensions a and b swapped (docs/isa.md 5.5). */
void XposeReference(uint8_t *want, const uint8_t *in, const uint32_t D[4], unsigned a, unsigned b,
                    unsigned e)
{
    const unsigned d[4] = {D[0], D[1], D[2], D[3]};
    xpose_ref(in, want, d, a, b, e);
}

/* Every xpose shape of D0 even, powers of two and small values, for an element size. */
template <class F>
void ForEachXposeShape(unsigned e, F f)
{
    const uint64_t total = uint64_t(TL_XPOSE_BYTES) * 8 / e;
    for (uint32_t d0 = 2; d0 <= 255; d0 *= 2) {
        for (uint32_t d1 = 1; d1 <= 255; d1 = d1 < 4 ? d1 + 1 : d1 * 2) {
            for (uint32_t d2 = 1; d2 <= 255; d2 = d2 < 4 ? d2 + 1 : d2 * 2) {
                if (total % (uint64_t(d0) * d1 * d2) != 0) {
                    continue;
                }
                const uint64_t d3 = total / (uint64_t(d0) * d1 * d2);
                if (d3 == 0 || d3 > 255) {
                    continue;
                }
                const uint32_t D[4] = {d0, d1, d2, uint32_t(d3)};
                f(D);
            }
        }
    }
}

TEST_F(FastPathTest, XposeMatchesTheElementLoopForEveryShapeAndPair)
{
    const uint32_t types[] = {kInt4, kInt8, kInt16, kInt32};
    const std::pair<unsigned, unsigned> regs[] = {{1, 2}, {7, 3}, {0, 5}, {9, 0}};
    unsigned cases = 0;
    for (uint32_t ttype : types) {
        const unsigned e = Bits(ttype);
        ForEachXposeShape(e, [&](const uint32_t D[4]) {
            for (unsigned a = 0; a < 4; ++a) {
                for (unsigned b = 0; b < 4; ++b) {
                    const auto rr = regs[cases % 4];
                    Type(ttype);
                    RandomReg(rr.first);
                    RandomReg(rr.second);
                    memset(s()->reg[0], 0, TL_REG_BYTES); /* tl0 is kept all-zero */
                    uint8_t in[TL_XPOSE_BYTES];
                    memcpy(in, s()->reg[rr.first], TL_REG_BYTES);
                    memcpy(in + TL_REG_BYTES, s()->reg[rr.second], TL_REG_BYTES);
                    if (rr.first == 0) memset(in, 0, TL_REG_BYTES);
                    if (rr.second == 0) memset(in + TL_REG_BYTES, 0, TL_REG_BYTES);
                    uint8_t want[TL_XPOSE_BYTES];
                    XposeReference(want, in, D, a, b, e);
                    ASSERT_EQ(tl_exec_xpose(s(), a, b, rr.first, rr.second,
                                            XposeDims(D[0], D[1], D[2], D[3])),
                              TL_OK);
                    SCOPED_TRACE(testing::Message() << "ttype " << ttype << " [" << D[0] << "," << D[1]
                                                    << "," << D[2] << "," << D[3] << "] swap " << a << b);
                    if (rr.first != 0) {
                        ASSERT_EQ(Reg(rr.first), Bytes(want, want + TL_REG_BYTES));
                    }
                    if (rr.second != 0) {
                        ASSERT_EQ(Reg(rr.second), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
                    }
                    ASSERT_TRUE(RegIsAll(0, 0));
                    ++cases;
                }
            }
        });
    }
    EXPECT_GT(cases, 1000u);
}

/*
 * tl_exec_load_pair_xpose: the two registers as two loads with the plan
 * (docs/isa.md 5.2: slice i's W bytes from i * P, zeros elsewhere) and then
 * the xpose (the element loop) leave them, for every xpose shape and pair;
 * a load into tl0 gives zeros to the transpose.  Whole-register plans
 * (read where they are) and gathered ones (P > W, W < S, a block shorter
 * than the register).  The registers start with other bytes, which must
 * all be replaced, and no other register changes.
 */
TEST_F(FastPathTest, LoadPairXposeIsTwoLoadsThenTheXpose)
{
    struct LoadShape {
        uint32_t d0, d1, d2, w;
        int64_t pitch;
    } const plans[] = {{32, 1, 32, 32, 32}, {16, 2, 32, 64, 200}, {8, 1, 128, 100, 128}, {20, 1, 48, 48, 48}};
    const uint32_t types[] = {kInt4, kInt8, kInt16, kInt32};
    const std::pair<unsigned, unsigned> regs[] = {{1, 2}, {7, 3}, {0, 5}, {9, 0}, {30, 31}};
    unsigned cases = 0, whole = 0;
    for (uint32_t ttype : types) {
        const unsigned e = Bits(ttype);
        ForEachXposeShape(e, [&](const uint32_t D[4]) {
            for (unsigned a = 0; a < 4; ++a) {
                for (unsigned b = 0; b < 4; ++b) {
                    const auto rr = regs[cases % 5];
                    const LoadShape &ls = plans[cases % 4];
                    /* The loads' plan, in bytes (int8); the xpose's element size is ttype's. */
                    const tl_mem_plan plan = *Int8Plan(ls.d0, ls.d1, ls.d2, ls.w, ls.pitch, false, 0);
                    ASSERT_TRUE(plan.direct);
                    const uint32_t S = ls.d1 * ls.d2;
                    Type(ttype);
                    RandomReg(rr.first);
                    RandomReg(rr.second);
                    memset(s()->reg[0], 0, TL_REG_BYTES);
                    RandomReg(4); /* a register the instructions do not name */
                    const Bytes other = Reg(4);
                    /*
                     * The two spans in one buffer, the second right after the
                     * first every other case (the transpose then reads the
                     * two whole registers as one input where they are).
                     */
                    const size_t span = size_t(ls.pitch) * (ls.d0 - 1) + ls.w;
                    const size_t gap = (cases / 5) % 2 == 0 ? 0 : 64;
                    std::vector<uint8_t> buf(2 * span + gap);
                    for (uint8_t &byte : buf) byte = uint8_t(rng());
                    const uint8_t *src[2] = {buf.data(), buf.data() + span + gap};
                    uint8_t in[TL_XPOSE_BYTES] = {};
                    for (unsigned h = 0; h < 2; ++h) {
                        if ((h == 0 ? rr.first : rr.second) == 0) {
                            continue;
                        }
                        for (uint32_t i = 0; i < ls.d0; ++i) {
                            memcpy(in + h * TL_REG_BYTES + i * S, src[h] + i * ls.pitch, ls.w);
                        }
                    }
                    uint8_t want[TL_XPOSE_BYTES];
                    XposeReference(want, in, D, a, b, e);
                    whole += plan.whole_reg;
                    ASSERT_EQ(tl_exec_load_pair_xpose(s(), rr.first, rr.second, &plan, src[0], src[1], a, b,
                                                      XposeDims(D[0], D[1], D[2], D[3])),
                              TL_OK);
                    SCOPED_TRACE(testing::Message() << "ttype " << ttype << " [" << D[0] << "," << D[1]
                                                    << "," << D[2] << "," << D[3] << "] swap " << a << b
                                                    << " regs " << rr.first << "," << rr.second
                                                    << " load shape " << cases % 4);
                    if (rr.first != 0) {
                        ASSERT_EQ(Reg(rr.first), Bytes(want, want + TL_REG_BYTES));
                    }
                    if (rr.second != 0) {
                        ASSERT_EQ(Reg(rr.second), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
                    }
                    ASSERT_TRUE(RegIsAll(0, 0));
                    ASSERT_EQ(Reg(4), other);
                    ++cases;
                }
            }
        });
    }
    EXPECT_GT(cases, 1000u);
    EXPECT_GT(whole, cases / 5);
}

/* Illegal xposes for the fused sequences, with the status each is to give. */
struct IllegalXpose {
    uint32_t ttype;
    unsigned rs1, rs2;
    uint64_t dims;
    tl_status want;
};
const IllegalXpose kIllegalXposes[] = {
    {kInt8, 3, 3, XposeDims(2, 64, 16, 1), TL_ERR_XPOSE_SAME_REG},
    {kInt8, 3, 4, XposeDims(2, 64, 16, 2), TL_ERR_XPOSE_SHAPE},
    {kInt8, 3, 4, XposeDims(2, 64, 0, 1), TL_ERR_XPOSE_SHAPE},
    {kInt16, 3, 4, XposeDims(2, 64, 16, 1), TL_ERR_XPOSE_SHAPE},
    {kInt8, 3, 4, XposeDims(1, 128, 16, 1), TL_ERR_XPOSE_ODD_D0},
    {0x003, 3, 4, XposeDims(2, 64, 16, 1), TL_ERR_TTYPE},
};

/* What the xpose of the three instructions rejects changes nothing, not even the loads' registers. */
TEST_F(FastPathTest, LoadPairXposeChangesNothingWhenTheXposeIsIllegal)
{
    uint8_t mem[2][TL_REG_BYTES];
    for (auto &m : mem) {
        for (uint8_t &byte : m) byte = uint8_t(rng());
    }
    for (const auto &c : kIllegalXposes) {
        const tl_mem_plan plan = *Int8Plan(32, 1, 32, 32, 32, false, 0);
        ASSERT_TRUE(plan.whole_reg);
        Type(c.ttype);
        RandomReg(3);
        RandomReg(4);
        const std::unique_ptr<tl_state> before = Snapshot();
        EXPECT_EQ(tl_exec_load_pair_xpose(s(), c.rs1, c.rs2, &plan, mem[0], mem[1], 0, 1, c.dims), c.want);
        EXPECT_TRUE(Unchanged(*before)) << "status " << c.want;
    }
}

/*
 * tl_exec_load_pair_xpose_store: the five instructions tl.load, tl.load,
 * tl.xpose, tl.store rs1, tl.store rs2 (docs/isa.md 5.2 and 5.5): the
 * registers as above, then each stored with the plan (slice i's W bytes to
 * out + i * P, no other byte of memory written), the first store before
 * the second.  Interleaves (the one-pass case) and other swaps, whole and
 * gathered plans, separate outputs and outputs that overlap each other or
 * the loads' memory.
 */
TEST_F(FastPathTest, LoadPairXposeStoreIsTheFiveInstructions)
{
    struct LoadShape {
        uint32_t d0, d1, d2, w;
        int64_t pitch;
    } const plans[] = {{32, 1, 32, 32, 32}, {8, 1, 128, 128, 128}, {16, 2, 32, 64, 200}, {20, 1, 48, 48, 48}};
    const uint32_t types[] = {kInt4, kInt8, kInt16, kInt32};
    const std::pair<unsigned, unsigned> regs[] = {{1, 2}, {7, 3}, {30, 31}};
    unsigned cases = 0, interleaves = 0;
    for (uint32_t ttype : types) {
        const unsigned e = Bits(ttype);
        ForEachXposeShape(e, [&](const uint32_t D[4]) {
            for (unsigned a = 0; a < 4; ++a) {
                for (unsigned b = a + 1; b < 4; ++b) {
                    const auto rr = regs[cases % 3];
                    const LoadShape &ls = plans[(cases / 3) % 4];
                    const tl_mem_plan plan = *Int8Plan(ls.d0, ls.d1, ls.d2, ls.w, ls.pitch, false, 0);
                    ASSERT_TRUE(plan.direct);
                    const uint32_t S = ls.d1 * ls.d2;
                    const size_t span = size_t(ls.pitch) * (ls.d0 - 1) + ls.w;
                    Type(ttype);
                    RandomReg(rr.first);
                    RandomReg(rr.second);
                    RandomReg(4);
                    const Bytes other = Reg(4);
                    /*
                     * One buffer: the two loads' spans, then the outputs,
                     * placed apart, on top of each other, the second over
                     * the second load's span, or the first over it.
                     */
                    std::vector<uint8_t> buf(4 * span + 256);
                    for (uint8_t &byte : buf) byte = uint8_t(rng());
                    const uint8_t *src[2] = {buf.data(), buf.data() + span + 16};
                    const unsigned placement = (cases / 12) % 4;
                    uint8_t *const apart = buf.data() + 2 * span + 64;
                    uint8_t *const second_src = const_cast<uint8_t *>(src[1]);
                    uint8_t *out1 = placement == 3 ? second_src : apart;
                    uint8_t *out2 = placement == 0   ? apart + span + 32
                                    : placement == 1 ? apart + ls.w / 2
                                    : placement == 2 ? second_src
                                                     : apart;
                    /* What the ISA gives: the loads and the xpose, then the two stores in order. */
                    uint8_t in[TL_XPOSE_BYTES] = {};
                    for (unsigned h = 0; h < 2; ++h) {
                        for (uint32_t i = 0; i < ls.d0; ++i) {
                            memcpy(in + h * TL_REG_BYTES + i * S, src[h] + i * ls.pitch, ls.w);
                        }
                    }
                    uint8_t want[TL_XPOSE_BYTES];
                    XposeReference(want, in, D, a, b, e);
                    std::vector<uint8_t> want_mem = buf;
                    for (unsigned h = 0; h < 2; ++h) {
                        uint8_t *out = want_mem.data() + ((h == 0 ? out1 : out2) - buf.data());
                        for (uint32_t i = 0; i < ls.d0; ++i) {
                            memcpy(out + i * ls.pitch, want + h * TL_REG_BYTES + i * S, ls.w);
                        }
                    }
                    const bool interleave = plan.whole_reg && a == 0 && b == 1 && D[0] == 2;
                    interleaves += interleave;
                    ASSERT_EQ(tl_exec_load_pair_xpose_store(s(), rr.first, rr.second, &plan, src[0], src[1],
                                                            b, a, XposeDims(D[0], D[1], D[2], D[3]), out1,
                                                            out2),
                              TL_OK);
                    SCOPED_TRACE(testing::Message() << "ttype " << ttype << " [" << D[0] << "," << D[1]
                                                    << "," << D[2] << "," << D[3] << "] swap " << a << b
                                                    << " regs " << rr.first << "," << rr.second
                                                    << " load shape " << (cases / 3) % 4 << " placement "
                                                    << placement);
                    ASSERT_EQ(Reg(rr.first), Bytes(want, want + TL_REG_BYTES));
                    ASSERT_EQ(Reg(rr.second), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
                    ASSERT_EQ(buf, want_mem);
                    ASSERT_TRUE(RegIsAll(0, 0));
                    ASSERT_EQ(Reg(4), other);
                    ++cases;
                }
            }
        });
    }
    EXPECT_GT(cases, 500u);
    EXPECT_GT(interleaves, 20u);
}

/* An illegal xpose of the five changes nothing: no register, no byte of memory. */
TEST_F(FastPathTest, LoadPairXposeStoreChangesNothingWhenTheXposeIsIllegal)
{
    uint8_t mem[4][TL_REG_BYTES];
    for (auto &m : mem) {
        for (uint8_t &byte : m) byte = uint8_t(rng());
    }
    uint8_t copy[4][TL_REG_BYTES];
    memcpy(copy, mem, sizeof(mem));
    const tl_mem_plan plan = *Int8Plan(32, 1, 32, 32, 32, false, 0);
    ASSERT_TRUE(plan.whole_reg);
    for (const auto &c : kIllegalXposes) {
        Type(c.ttype);
        RandomReg(3);
        RandomReg(4);
        const std::unique_ptr<tl_state> before = Snapshot();
        EXPECT_EQ(tl_exec_load_pair_xpose_store(s(), c.rs1, c.rs2, &plan, mem[0], mem[1], 0, 1, c.dims,
                                                mem[2], mem[3]),
                  c.want);
        EXPECT_TRUE(Unchanged(*before)) << "status " << c.want;
        EXPECT_EQ(memcmp(mem, copy, sizeof(mem)), 0) << "status " << c.want;
    }
}

/*
 * The interleave memo: the five instructions of an interleave of whole
 * registers leave TL_INTERLEAVE_MEMO_VALID with the xpose's dims and
 * dim0 | dim1 << 2 (when the host pass exists; else no memo), and
 * tl_exec_interleave_store_memo then gives the five instructions' outcome
 * for other registers and memory; a write to a CSR of the plans clears the
 * memo, a write of tvalid does not.
 */
TEST_F(FastPathTest, InterleaveMemoGivesTheFiveInstructions)
{
    const InterleaveCase cases[] = {
        {kInt8, {2, 64, 16, 1}, 0, 1}, {kInt8, {2, 8, 128, 1}, 1, 0}, {kInt16, {2, 32, 16, 1}, 0, 1},
        {kInt4, {2, 32, 2, 32}, 1, 0}, {kInt32, {2, 2, 128, 1}, 0, 1},
    };
    uint8_t mem[6][TL_REG_BYTES];
    unsigned memos = 0;
    for (const auto &c : cases) {
        const unsigned e = Bits(c.ttype);
        const uint64_t dims = XposeDims(c.D[0], c.D[1], c.D[2], c.D[3]);
        tl_mem_plan plan;
        ASSERT_NO_FATAL_FAILURE(RunInterleaveOnce(c, mem, &plan));
        SCOPED_TRACE(testing::Message() << "ttype " << c.ttype << " [" << c.D[0] << "," << c.D[1] << ","
                                        << c.D[2] << "," << c.D[3] << "] dims " << c.dim0 << c.dim1);
        if (!(s()->mem_plan_valid & TL_INTERLEAVE_MEMO_VALID)) {
            continue; /* no host pass: checked below that nothing uses a memo */
        }
        ++memos;
        EXPECT_EQ(s()->interleave_memo.dims, dims);
        EXPECT_EQ(s()->interleave_memo.dim01, c.dim0 | c.dim1 << 2);
        /* Other registers, sources and outputs, through the memo. */
        for (auto &m : mem) {
            for (uint8_t &byte : m) byte = uint8_t(rng());
        }
        RandomReg(7);
        RandomReg(30);
        uint8_t in[TL_XPOSE_BYTES], want[TL_XPOSE_BYTES];
        memcpy(in, mem[0], TL_REG_BYTES);
        memcpy(in + TL_REG_BYTES, mem[1], TL_REG_BYTES);
        XposeReference(want, in, c.D, c.dim0 < c.dim1 ? c.dim0 : c.dim1, c.dim0 < c.dim1 ? c.dim1 : c.dim0, e);
        ASSERT_TRUE(tl_exec_interleave_store_memo(s(), 7, 30, mem[0], mem[1], mem[4], mem[5]));
        EXPECT_EQ(Reg(7), Bytes(want, want + TL_REG_BYTES));
        EXPECT_EQ(Reg(30), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
        EXPECT_EQ(Bytes(mem[4], mem[4] + TL_REG_BYTES), Bytes(want, want + TL_REG_BYTES));
        EXPECT_EQ(Bytes(mem[5], mem[5] + TL_REG_BYTES), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
        EXPECT_EQ(Bytes(mem[0], mem[0] + TL_REG_BYTES), Bytes(in, in + TL_REG_BYTES));
        /* tvalid plays no part; ttype (the element size) and the plan's CSRs do. */
        Csr(TL_CSR_TVALID, 0x010101);
        EXPECT_TRUE(s()->mem_plan_valid & TL_INTERLEAVE_MEMO_VALID);
        for (unsigned idx : {unsigned(TL_CSR_TTYPE), unsigned(TL_CSR_TSHAPE), unsigned(TL_CSR_TMASK_LOAD_STRIDE)}) {
            ASSERT_EQ(tl_exec_load_pair_xpose_store(s(), 1, 2, &plan, mem[0], mem[1], c.dim0, c.dim1, dims,
                                                    mem[2], mem[3]),
                      TL_OK);
            ASSERT_TRUE(s()->mem_plan_valid & TL_INTERLEAVE_MEMO_VALID);
            tl_csr_write(s(), idx, tl_csr_read(s(), idx) ^ 0x10);
            EXPECT_FALSE(s()->mem_plan_valid & TL_INTERLEAVE_MEMO_VALID) << "CSR " << idx;
            tl_csr_write(s(), idx, tl_csr_read(s(), idx) ^ 0x10);
        }
    }
    /* A memo exactly where the host pass exists; without it, none is used. */
    EXPECT_EQ(memos, InterleavePassExpected() ? sizeof(cases) / sizeof(cases[0]) : 0u);
    if (memos == 0) {
        EXPECT_FALSE(tl_exec_interleave_store_memo(s(), 7, 30, mem[0], mem[1], mem[4], mem[5]));
    }
}

/*
 * The interleave passes read their sources at any alignment and no
 * further than the cache lines that hold them: each source at every
 * offset in a cache line, starting right after an inaccessible page or
 * ending right before one, gives the reference transpose through
 * tl_exec_load_pair_xpose and through the memo's
 * tl_exec_interleave_store_memo (where the host pass exists).  A read of
 * one cache line too many faults.
 */
TEST_F(FastPathTest, InterleaveReadsSourcesAtEveryOffsetUpToInaccessiblePages)
{
    const InterleaveCase cases[] = {
        {kInt8, {2, 64, 16, 1}, 0, 1}, {kInt8, {2, 8, 128, 1}, 1, 0}, {kInt16, {2, 32, 16, 1}, 0, 1},
    };
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    uint8_t *region[2];
    for (uint8_t *&r : region) {
        /* [inaccessible page][page][inaccessible page] */
        void *m = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(m, MAP_FAILED);
        r = static_cast<uint8_t *>(m) + page;
        ASSERT_EQ(mprotect(r - page, page, PROT_NONE), 0);
        ASSERT_EQ(mprotect(r + page, page, PROT_NONE), 0);
    }
    uint8_t mem[4][TL_REG_BYTES], out[2][TL_REG_BYTES];
    unsigned checked = 0, memo_checked = 0;
    for (const auto &c : cases) {
        const unsigned e = Bits(c.ttype);
        const uint64_t dims = XposeDims(c.D[0], c.D[1], c.D[2], c.D[3]);
        tl_mem_plan plan;
        ASSERT_NO_FATAL_FAILURE(RunInterleaveOnce(c, mem, &plan));
        const bool memo = s()->mem_plan_valid & TL_INTERLEAVE_MEMO_VALID;
        for (unsigned off = 0; off < 64; ++off) {
            for (bool a_at_start : {true, false}) {
                /* Ending right before the inaccessible page: off bytes into a cache line. */
                const size_t end_at = page - TL_REG_BYTES - (64 - off) % 64;
                const unsigned b_off = (off * 7 + 4) % 64;
                const uint8_t *a = a_at_start ? region[0] + off : region[0] + end_at;
                const uint8_t *b = a_at_start ? region[1] + page - TL_REG_BYTES - (64 - b_off) % 64
                                              : region[1] + b_off;
                SCOPED_TRACE(testing::Message() << "ttype " << c.ttype << " dims " << c.dim0 << c.dim1
                                                << " a at " << (uintptr_t(a) & (page - 1)) << " b at "
                                                << (uintptr_t(b) & (page - 1)));
                for (uint8_t *p : {const_cast<uint8_t *>(a), const_cast<uint8_t *>(b)}) {
                    for (size_t i = 0; i < TL_REG_BYTES; ++i) p[i] = uint8_t(rng());
                }
                uint8_t in[TL_XPOSE_BYTES], want[TL_XPOSE_BYTES];
                memcpy(in, a, TL_REG_BYTES);
                memcpy(in + TL_REG_BYTES, b, TL_REG_BYTES);
                XposeReference(want, in, c.D, c.dim0 < c.dim1 ? c.dim0 : c.dim1,
                               c.dim0 < c.dim1 ? c.dim1 : c.dim0, e);
                RandomReg(7);
                RandomReg(30);
                ASSERT_EQ(tl_exec_load_pair_xpose(s(), 7, 30, &plan, a, b, c.dim0, c.dim1, dims), TL_OK);
                ASSERT_EQ(Reg(7), Bytes(want, want + TL_REG_BYTES));
                ASSERT_EQ(Reg(30), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
                ++checked;
                if (!memo) {
                    continue;
                }
                ASSERT_TRUE(s()->mem_plan_valid & TL_INTERLEAVE_MEMO_VALID);
                RandomReg(7);
                RandomReg(30);
                ASSERT_TRUE(tl_exec_interleave_store_memo(s(), 7, 30, a, b, out[0], out[1]));
                ASSERT_EQ(Reg(7), Bytes(want, want + TL_REG_BYTES));
                ASSERT_EQ(Reg(30), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
                ASSERT_EQ(Bytes(out[0], out[0] + TL_REG_BYTES), Bytes(want, want + TL_REG_BYTES));
                ASSERT_EQ(Bytes(out[1], out[1] + TL_REG_BYTES), Bytes(want + TL_REG_BYTES, want + TL_XPOSE_BYTES));
                ASSERT_EQ(Bytes(a, a + TL_REG_BYTES), Bytes(in, in + TL_REG_BYTES));
                ASSERT_EQ(Bytes(b, b + TL_REG_BYTES), Bytes(in + TL_REG_BYTES, in + TL_XPOSE_BYTES));
                ++memo_checked;
            }
        }
    }
    EXPECT_EQ(checked, 3u * 64 * 2);
    EXPECT_EQ(memo_checked, InterleavePassExpected() ? checked : 0u);
    for (uint8_t *r : region) {
        munmap(r - page, 3 * page);
    }
}

/* ---- concat / merge ---- */

TEST_F(FastPathTest, ConcatAndMergeMatchTheElementLoop)
{
    const uint32_t types[] = {kInt4, kInt8, kInt16, kInt32};
    for (int iter = 0; iter < 3000; ++iter) {
        const uint32_t ttype = types[rng() % 4];
        const unsigned e = Bits(ttype);
        uint32_t D[3];
        uint64_t bits;
        do {
            for (auto &d : D) d = uint32_t(1 + rng() % (rng() % 2 ? 8 : 40));
            bits = uint64_t(D[0]) * D[1] * D[2] * e;
        } while (bits > 8192 || (uint64_t(D[1]) * D[2] * e) % 8 != 0);
        const unsigned dim = unsigned(rng() % 3);
        if (D[dim] > 32) {
            continue;
        }
        const bool merge = rng() % 2;
        const unsigned r1 = unsigned(rng() % 4), r2 = unsigned(rng() % 4), rd = 1 + unsigned(rng() % 3);
        uint32_t m1 = uint32_t(rng()), m2 = uint32_t(rng());
        const uint32_t in_dim = D[dim] == 32 ? 0xFFFFFFFFu : (1u << D[dim]) - 1;
        if (!merge) {
            /* Keep the selection within the dimension: drop bits of m2 until it fits. */
            while (__builtin_popcount(m1 & in_dim) + __builtin_popcount(m2 & in_dim) > int(D[dim])) {
                m2 &= m2 - 1;
                if (rng() % 4 == 0) m1 &= m1 - 1;
            }
        }
        Type(ttype);
        SetShape(D[0], D[1], D[2]);
        Csr(TL_CSR_TMASK_CONCAT_1, m1);
        Csr(TL_CSR_TMASK_CONCAT_2, m2);
        for (unsigned r = 1; r < 4; ++r) RandomReg(r);
        uint8_t A[TL_REG_BYTES] = {}, B[TL_REG_BYTES] = {};
        if (r1) memcpy(A, s()->reg[r1], TL_REG_BYTES);
        if (r2) memcpy(B, s()->reg[r2], TL_REG_BYTES);
        uint8_t want[TL_REG_BYTES] = {};
        std::vector<std::pair<const uint8_t *, uint32_t>> picks;
        for (uint32_t t = 0; t < D[dim]; ++t) if ((m1 >> t) & 1) picks.push_back({A, t});
        for (uint32_t t = 0; t < D[dim]; ++t) if ((m2 >> t) & 1) picks.push_back({B, t});
        for (uint32_t i = 0; i < D[0]; ++i)
            for (uint32_t j = 0; j < D[1]; ++j)
                for (uint32_t k = 0; k < D[2]; ++k) {
                    uint32_t idx[3] = {i, j, k};
                    const size_t n = (size_t(i) * D[1] + j) * D[2] + k;
                    if (merge) {
                        SetElem(want, n, e, GetElem((m1 >> idx[dim]) & 1 ? A : B, n, e));
                    } else if (idx[dim] < picks.size()) {
                        uint32_t sidx[3] = {i, j, k};
                        sidx[dim] = picks[idx[dim]].second;
                        SetElem(want, n, e,
                                GetElem(picks[idx[dim]].first, (size_t(sidx[0]) * D[1] + sidx[1]) * D[2] + sidx[2], e));
                    }
                }
        const tl_status st = merge ? tl_exec_merge(s(), dim, rd, r1, r2) : tl_exec_concat(s(), dim, rd, r1, r2);
        ASSERT_EQ(st, TL_OK);
        SCOPED_TRACE(testing::Message() << (merge ? "merge" : "concat") << " ttype " << ttype << " [" << D[0] << ","
                                        << D[1] << "," << D[2] << "] dim " << dim << " m1 " << m1 << " m2 " << m2
                                        << " rd " << rd << " rs " << r1 << "," << r2);
        ASSERT_EQ(Reg(rd), Bytes(want, want + TL_REG_BYTES));
    }
}

/* ---- integer arithmetic ---- */

uint32_t SatAdd(unsigned e, uint32_t v, int32_t k)
{
    const int64_t r = int64_t(v) + k, max = (int64_t{1} << e) - 1;
    return uint32_t(r < 0 ? 0 : r > max ? max : r);
}

uint32_t SatMul(unsigned e, uint32_t v, uint64_t s)
{
    const unsigned __int128 r = (unsigned __int128)v * s, max = (uint64_t{1} << e) - 1;
    return uint32_t(r > max ? max : r);
}

TEST_F(FastPathTest, IntegerAddiAndMulsMatchTheElementLoop)
{
    const uint32_t types[] = {kInt4, kInt8, kInt16, kInt32};
    const uint64_t scalars[] = {0, 1, 2, 3, 7, 100, 254, 255, 256, 1000, 65534, 65535, 65536,
                                0xFFFFFFFEull, 0xFFFFFFFFull, 0x100000000ull, ~uint64_t{0}};
    for (uint32_t ttype : types) {
        const unsigned e = Bits(ttype);
        const size_t n = 8192 / e;
        const uint32_t max = uint32_t((uint64_t{1} << e) - 1);
        Type(ttype);
        /* Every 4/8-bit value; for wider types the edges and random values. */
        for (size_t i = 0; i < n; ++i) {
            uint32_t v = e <= 8 ? uint32_t(i) & max : uint32_t(rng()) & max;
            if (e > 8 && i < 8) v = (i < 4 ? uint32_t(i) : max - uint32_t(i - 4));
            SetElem(s()->reg[1], i, e, v);
        }
        Bytes src = Reg(1);
        for (int32_t k = -128; k <= 127; ++k) {
            ASSERT_EQ(tl_exec_addi(s(), 2, 1, k), TL_OK);
            for (size_t i = 0; i < n; ++i) {
                ASSERT_EQ(GetElem(s()->reg[2], i, e), SatAdd(e, GetElem(src.data(), i, e), k))
                    << "addi ttype " << ttype << " k " << k << " element " << i;
            }
        }
        for (uint64_t sc : scalars) {
            ASSERT_EQ(tl_exec_muls(s(), 3, 1, sc), TL_OK);
            for (size_t i = 0; i < n; ++i) {
                ASSERT_EQ(GetElem(s()->reg[3], i, e), SatMul(e, GetElem(src.data(), i, e), sc))
                    << "muls ttype " << ttype << " scalar " << sc << " element " << i;
            }
        }
        /* In place. */
        ASSERT_EQ(tl_exec_addi(s(), 1, 1, -3), TL_OK);
        for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(GetElem(s()->reg[1], i, e), SatAdd(e, GetElem(src.data(), i, e), -3));
        }
    }
}

} // namespace

TEST_F(FastPathTest, HostPointerPathFollowsTheSliceRule)
{
    int dense = 0, checked = 0;
    for (int iter = 0; iter < 4000; ++iter) {
        uint32_t d0, d2;
        do {
            d0 = 1 + uint32_t(rng() % 32);
            d2 = 1 + uint32_t(rng() % 128);
        } while (d0 * d2 > 1024);
        const uint32_t S = d2;
        const uint32_t W = rng() % 2 ? S : 1 + uint32_t(rng() % S);
        const int64_t P = int64_t(W) + int64_t(rng() % 3 == 0 ? 0 : rng() % 300);
        const bool masked = rng() % 2;
        const uint32_t mask = rng() % 2 ? 0xFFFFFFFFu : uint32_t(rng());
        Type(kInt8);
        SetShape(d0, 1, d2);
        Csr(TL_CSR_TMASK_LOAD_WIDTH, W);
        Csr(TL_CSR_TMASK_LOAD_STRIDE, uint64_t(P));
        Csr(TL_CSR_TMASK_LS, mask);
        const tl_mem_plan *plan = tl_mem_plan_of(s(), masked);
        ASSERT_EQ(plan->status, TL_OK);
        ASSERT_TRUE(plan->ordered);
        const uint32_t sel = (masked ? mask : 0xFFFFFFFFu) & (d0 == 32 ? 0xFFFFFFFFu : (1u << d0) - 1);
        dense += sel == ((d0 == 32 ? 0xFFFFFFFFu : (1u << d0) - 1)) && W == S && P > int64_t(W);
        std::vector<uint8_t> mem(size_t(P) * d0 + 64);
        for (auto &b : mem) {
            b = uint8_t(rng());
        }
        /* load: slice i selected -> reg[i*S, +W) = mem[i*P, +W); every other byte 0 */
        RandomReg(3);
        tl_load_from_host(s(), 3, plan, mem.data());
        uint8_t want[TL_REG_BYTES] = {};
        for (uint32_t i = 0; i < d0; ++i) {
            if (sel >> i & 1) {
                memcpy(want + i * S, mem.data() + size_t(P) * i, W);
            }
        }
        ASSERT_EQ(memcmp(s()->reg[3], want, TL_REG_BYTES), 0)
            << "load d0 " << d0 << " S " << S << " W " << W << " P " << P << " selected " << sel;
        RandomReg(3);
        tl_load_from_host_reads_first(s(), 3, plan, mem.data());
        ASSERT_EQ(memcmp(s()->reg[3], want, TL_REG_BYTES), 0)
            << "reads-first load d0 " << d0 << " S " << S << " W " << W << " P " << P << " selected "
            << sel;
        /* store: slice i selected -> mem[i*P, +W) = reg[i*S, +W); every other byte unchanged */
        RandomReg(4);
        std::vector<uint8_t> after = mem;
        for (uint32_t i = 0; i < d0; ++i) {
            if (sel >> i & 1) {
                memcpy(after.data() + size_t(P) * i, s()->reg[4] + i * S, W);
            }
        }
        tl_store_to_host(s(), 4, plan, mem.data());
        ASSERT_EQ(mem, after)
            << "store d0 " << d0 << " S " << S << " W " << W << " P " << P << " selected " << sel;
        ++checked;
    }
    std::printf("host-pointer path: %d random plans checked against the slice rule, %d of them dense rows\n",
                checked, dense);
    EXPECT_GT(dense, 100);
}

/*
 * Dense rows of every width a shape of 16-byte columns gives (W = S = 16,
 * 32, .. 1024: the widths the copy loops unroll and those between them,
 * every slice, at most 32, P > W) against the slice rule; with P < 0 the
 * plan is not ordered, so the host-pointer path never gets it.
 */
TEST_F(FastPathTest, DenseRowsOfEveryWidthFollowTheSliceRule)
{
    for (uint32_t W = 16; W <= 1024; W += 16) {
        for (int64_t P : {int64_t(W) + 64, int64_t(W) * 3, -int64_t(W) - 128}) {
            const uint32_t d0 = 1024 / W < 32 ? 1024 / W : 32;
            Type(kInt8);
            SetShape(d0, W / 16, 16); /* slices of W bytes: D2 is at most 255 */
            Csr(TL_CSR_TMASK_LOAD_WIDTH, W);
            Csr(TL_CSR_TMASK_LOAD_STRIDE, uint64_t(P));
            const tl_mem_plan *plan = tl_mem_plan_of(s(), false);
            if (P < 0) {
                EXPECT_FALSE(plan->status == TL_OK && plan->ordered) << "W " << W << " P " << P;
                continue;
            }
            ASSERT_TRUE(plan->status == TL_OK && plan->ordered) << "W " << W << " P " << P;
            const size_t span = size_t(P) * (d0 - 1) + W;
            std::vector<uint8_t> mem(span + 64);
            for (auto &b : mem) {
                b = uint8_t(rng());
            }
            RandomReg(7);
            tl_load_from_host(s(), 7, plan, mem.data() + 1);
            uint8_t want[TL_REG_BYTES] = {};
            for (uint32_t i = 0; i < d0; ++i) {
                memcpy(want + i * W, mem.data() + 1 + size_t(P) * i, W);
            }
            ASSERT_EQ(memcmp(s()->reg[7], want, TL_REG_BYTES), 0) << "load W " << W << " P " << P;
            RandomReg(8);
            std::vector<uint8_t> after = mem;
            for (uint32_t i = 0; i < d0; ++i) {
                memcpy(after.data() + 1 + size_t(P) * i, s()->reg[8] + i * W, W);
            }
            tl_store_to_host(s(), 8, plan, mem.data() + 1);
            ASSERT_EQ(mem, after) << "store W " << W << " P " << P;
        }
    }
}

/*
 * direct (the plans QEMU's translated code completes with one copy, given
 * the span [first, first + span) accessible) is set exactly when the plan
 * is legal, its slices lie in increasing addresses (P >= W) and one is
 * selected; span is then (last selected slice) * P + W, hand-computed here.
 */
TEST_F(FastPathTest, DirectPlansHaveIncreasingSlicesAndTheirSpan)
{
    static const struct { uint32_t d0, d1, d2, w; int64_t p; bool masked; uint32_t mask; bool direct; uint64_t span; } cases[] = {
        {4, 4, 64, 256, 2048, false, 0, true, 3 * 2048 + 256},   /* reshape's rows */
        {32, 1, 32, 32, 32, false, 0, true, 1024},
        {4, 1, 64, 64, 200, false, 0, true, 3 * 200 + 64},
        {4, 1, 64, 64, 64, false, 0, true, 256},                 /* contiguous, not a whole register */
        {4, 1, 64, 48, 48, false, 0, true, 3 * 48 + 48},         /* W < S */
        {4, 1, 64, 64, 63, false, 0, false, 0},                  /* P < W: slices overlap */
        {4, 1, 64, 64, -64, false, 0, false, 0},                 /* decreasing addresses */
        {4, 1, 64, 64, 0, false, 0, false, 0},                   /* every slice at one place */
        {8, 1, 64, 64, 100, true, 0x0Bu, true, 3 * 100 + 64},    /* last selected: slice 3 */
        {8, 1, 64, 64, 100, true, 0x100u, false, 0},             /* bit 8 >= D0: nothing selected */
    };
    for (const auto &c : cases) {
        const tl_mem_plan *plan = Int8Plan(c.d0, c.d1, c.d2, c.w, c.p, c.masked, c.mask);
        ASSERT_EQ(plan->status, TL_OK);
        EXPECT_EQ(bool(plan->direct), c.direct)
            << "[" << c.d0 << "," << c.d1 << "," << c.d2 << "] W " << c.w << " P " << c.p
            << (c.masked ? " masked" : "");
        if (c.direct) {
            EXPECT_EQ(plan->span, c.span) << "[" << c.d0 << "," << c.d1 << "," << c.d2 << "] W " << c.w
                                          << " P " << c.p;
        }
    }
    /* an illegal state (W > S): never direct */
    const tl_mem_plan *plan = Int8Plan(4, 1, 64, 65, 64, false, 0);
    EXPECT_NE(plan->status, TL_OK);
    EXPECT_FALSE(plan->direct);
}

/*
 * dense_rows, the key of QEMU's translated copy of whole rows: R << 16 | W
 * exactly for direct plans of slices 0 .. R-1 with W = S a multiple of 32,
 * whatever the pitch; 0 for every other plan.
 */
TEST_F(FastPathTest, DenseRowsKeyIsRowsAndWidthOfWholeRowPlans)
{
    static const struct { uint32_t d0, d1, d2, w; int64_t p; bool masked; uint32_t mask; uint32_t key; } cases[] = {
        {4, 4, 64, 256, 2048, false, 0, 4u << 16 | 256},       /* reshape's rows */
        {4, 4, 64, 256, 256, false, 0, 4u << 16 | 256},        /* the same rows contiguous */
        {4, 2, 128, 256, 300, false, 0, 4u << 16 | 256},
        {32, 1, 32, 32, 32, false, 0, 32u << 16 | 32},
        {3, 1, 64, 64, 100, false, 0, 3u << 16 | 64},          /* 192 bytes of the register */
        {1, 16, 64, 1024, 5000, false, 0, 1u << 16 | 1024},
        {8, 1, 128, 128, 128, true, 0x0Fu, 4u << 16 | 128},    /* slices 0..3 of 8 */
        {8, 1, 128, 128, 128, true, 0x0Du, 0},                 /* slice 1 unselected */
        {4, 1, 64, 48, 100, false, 0, 0},                      /* W < S */
        {4, 1, 48, 48, 100, false, 0, 0},                      /* W not a multiple of 32 */
        {4, 1, 64, 64, 63, false, 0, 0},                       /* P < W: not direct */
        {4, 1, 64, 64, -64, false, 0, 0},                      /* decreasing addresses */
    };
    for (const auto &c : cases) {
        const tl_mem_plan *plan = Int8Plan(c.d0, c.d1, c.d2, c.w, c.p, c.masked, c.mask);
        ASSERT_EQ(plan->status, TL_OK);
        EXPECT_EQ(plan->dense_rows, c.key)
            << "[" << c.d0 << "," << c.d1 << "," << c.d2 << "] W " << c.w << " P " << c.p
            << (c.masked ? " masked" : "");
    }
}

/*
 * The key a translator specializes for: the current plan's when its rows
 * are apart; when they are contiguous, the same key only while the plan
 * cache holds a plan of that shape with rows apart.
 */
TEST_F(FastPathTest, ExpectedDenseRowsFollowTheCurrentPlanAndTheCache)
{
    bool apart = true;
    Int8Plan(8, 1, 128, 128, 128, false, 0);
    EXPECT_EQ(tl_mem_plan_expected_dense_rows(s(), &apart), 0u) << "contiguous, no strided plan seen";
    EXPECT_FALSE(apart);
    Int8Plan(4, 4, 64, 256, 2048, false, 0);
    EXPECT_EQ(tl_mem_plan_expected_dense_rows(s(), &apart), 4u << 16 | 256);
    EXPECT_TRUE(apart);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 256);                        /* the stores' pitch */
    EXPECT_EQ(tl_mem_plan_expected_dense_rows(s(), &apart), 4u << 16 | 256)
        << "contiguous after a plan of the same rows apart";
    EXPECT_FALSE(apart);
    Int8Plan(8, 1, 128, 128, 128, false, 0);
    EXPECT_EQ(tl_mem_plan_expected_dense_rows(s(), &apart), 0u) << "another shape, never apart";
    Int8Plan(4, 1, 64, 48, 100, false, 0);
    EXPECT_EQ(tl_mem_plan_expected_dense_rows(s(), &apart), 0u) << "W < S";
    EXPECT_FALSE(apart);
}

/*
 * A whole register is expected while the current plan and every unmasked
 * plan in the cache are whole registers; a masked plan of another kind
 * does not count (masked accesses have no whole-register path).
 */
TEST_F(FastPathTest, ExpectedWholeFollowsTheCurrentPlanAndTheUnmaskedCache)
{
    Int8Plan(8, 1, 128, 128, 128, false, 0);
    EXPECT_TRUE(tl_mem_plan_expected_whole(s())) << "int8 [8, 1, 128] contiguous: 1 KiB";
    Int8Plan(4, 1, 128, 128, 128, true, 0xF);
    EXPECT_FALSE(tl_mem_plan_expected_whole(s())) << "the current plan is 512 bytes";
    Int8Plan(8, 1, 128, 128, 128, true, 0x3);
    EXPECT_TRUE(tl_mem_plan_expected_whole(s())) << "only masked plans of 512 bytes seen";
    Int8Plan(4, 1, 128, 128, 128, false, 0);
    Int8Plan(8, 1, 128, 128, 128, false, 0);
    EXPECT_FALSE(tl_mem_plan_expected_whole(s())) << "an unmasked 512-byte plan in the cache";
    Int8Plan(32, 1, 32, 32, 32, false, 0);             /* four other whole-register plans */
    Int8Plan(16, 1, 64, 64, 64, false, 0);
    Type(kInt16);                                       /* [16, 1, 32] of 2 bytes: rows of 64 */
    SetShape(16, 1, 32);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 64);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 64);
    ASSERT_TRUE(tl_mem_plan_of(s(), false)->whole_reg);
    Type(kInt32);                                       /* [16, 1, 16] of 4 bytes: rows of 64 */
    SetShape(16, 1, 16);
    ASSERT_TRUE(tl_mem_plan_of(s(), false)->whole_reg);
    EXPECT_TRUE(tl_mem_plan_expected_whole(s())) << "the 512-byte plan left the cache";
    Int8Plan(8, 1, 128, 128, 256, false, 0);
    EXPECT_FALSE(tl_mem_plan_expected_whole(s())) << "rows apart";
}

/*
 * A CSR write that leads to settings the plan cache holds makes that plan
 * current at once; settings it does not hold leave the plan to compute.
 * Either way the plan the next instruction uses is the one its CSRs give.
 */
TEST_F(FastPathTest, CsrWritesTakeTheCachedPlanOfTheNewValues)
{
    const tl_mem_plan strided = *Int8Plan(4, 4, 64, 256, 2048, false, 0);
    const tl_mem_plan contiguous = *Int8Plan(4, 4, 64, 256, 256, false, 0);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 2048);
    ASSERT_TRUE(s()->mem_plan_valid & 1) << "the load's pitch again: its plan is cached";
    EXPECT_EQ(memcmp(&s()->mem_plan[0], &strided, sizeof(strided)), 0);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 256);
    ASSERT_TRUE(s()->mem_plan_valid & 1);
    EXPECT_EQ(memcmp(&s()->mem_plan[0], &contiguous, sizeof(contiguous)), 0);
    EXPECT_FALSE(s()->mem_plan_valid & 2) << "the masked plan is not restored";
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 3000);
    EXPECT_FALSE(s()->mem_plan_valid & 1) << "settings never planned: computed by the next access";
    const tl_mem_plan *plan = tl_mem_plan_of(s(), false);
    EXPECT_EQ(plan->pitch, 3000);
    EXPECT_EQ(plan->span, 3u * 3000 + 256);
    /* tinit clearing the stride's flag: the pitch is the width again, a cached plan */
    tl_csr_write(s(), TL_CSR_TINIT, tl_csr_read(s(), TL_CSR_TINIT) & ~(1u << TL_CSR_TMASK_LOAD_STRIDE));
    plan = tl_mem_plan_of(s(), false);
    EXPECT_EQ(plan->pitch, 256);
    EXPECT_TRUE(plan->whole_reg);
}

/*
 * whole_reg (the plan QEMU's translated code copies with tl_copy_whole_reg)
 * is set exactly when the access is one contiguous KiB: every slice, W = S
 * = P, D0 * S = 1024.  And the copy moves exactly the 1024 bytes, at any
 * alignment.
 */
TEST_F(FastPathTest, WholeRegisterPlansAreOneContiguousKiB)
{
    static const struct { uint32_t d0, d1, d2, w; int64_t p; bool masked; uint32_t mask; bool whole; } cases[] = {
        {32, 1, 32, 32, 32, false, 0, true},
        {8, 1, 128, 128, 128, false, 0, true},
        {4, 2, 128, 256, 256, false, 0, true},
        {32, 1, 32, 32, 32, true, 0xFFFFFFFFu, true},
        {32, 1, 32, 32, 32, true, 0x7FFFFFFFu, false},   /* slice 31 unselected */
        {32, 1, 32, 32, 64, false, 0, false},            /* P > W */
        {32, 1, 32, 16, 16, false, 0, false},            /* W < S */
        {16, 1, 32, 32, 32, false, 0, false},            /* 512 bytes */
        {31, 1, 33, 33, 33, false, 0, false},            /* 1023 bytes */
    };
    for (const auto &c : cases) {
        const tl_mem_plan *plan = Int8Plan(c.d0, c.d1, c.d2, c.w, c.p, c.masked, c.mask);
        ASSERT_EQ(plan->status, TL_OK);
        EXPECT_EQ(bool(plan->whole_reg), c.whole)
            << "[" << c.d0 << "," << c.d1 << "," << c.d2 << "] W " << c.w << " P " << c.p
            << (c.masked ? " masked" : "");
        if (!c.whole) {
            continue;
        }
        std::vector<uint8_t> mem(TL_REG_BYTES + 64);
        for (auto &b : mem) {
            b = uint8_t(rng());
        }
        RandomReg(5);
        tl_load_from_host(s(), 5, plan, mem.data() + 3);
        EXPECT_EQ(memcmp(s()->reg[5], mem.data() + 3, TL_REG_BYTES), 0);
        RandomReg(5);
        tl_load_from_host_reads_first(s(), 5, plan, mem.data() + 3);
        EXPECT_EQ(memcmp(s()->reg[5], mem.data() + 3, TL_REG_BYTES), 0);
        RandomReg(6);
        std::vector<uint8_t> after = mem;
        memcpy(after.data() + 5, s()->reg[6], TL_REG_BYTES);
        tl_store_to_host(s(), 6, plan, mem.data() + 5);
        EXPECT_EQ(mem, after);
    }
    for (unsigned off = 0; off < 64; off += 7) {
        std::vector<uint8_t> src(TL_REG_BYTES + 128), dst(TL_REG_BYTES + 128, 0xA5);
        for (auto &b : src) {
            b = uint8_t(rng());
        }
        std::vector<uint8_t> want = dst;
        memcpy(want.data() + off + 1, src.data() + off, TL_REG_BYTES);
        tl_copy_whole_reg(dst.data() + off + 1, src.data() + off);
        ASSERT_EQ(dst, want) << "tl_copy_whole_reg from offset " << off << " to " << off + 1;
    }
}

namespace {
sigjmp_buf fault_jump;
void JumpOutOfFault(int) { siglongjmp(fault_jump, 1); }

/* The load into tl9; true when a read faulted (JumpOutOfFault returns here). */
__attribute__((noinline)) bool LoadFaults(tl_state *st, const tl_mem_plan *plan, const uint8_t *host,
                                          bool reads_first)
{
    if (sigsetjmp(fault_jump, 1) != 0) {
        return true;
    }
    if (reads_first) {
        tl_load_from_host_reads_first(st, 9, plan, host);
    } else {
        tl_load_from_host(st, 9, plan, host);
    }
    return false;
}
} // namespace

/*
 * tl_load_from_host_reads_first on memory whose reads fault part-way (QEMU
 * user mode: a file page past the end of its file raises SIGBUS): the last
 * bytes of the access lie on a page that cannot be read (PROT_NONE here,
 * SIGSEGV), the fault ends the copy, and the register keeps every byte it
 * had, for a whole-register plan (one contiguous KiB) and for dense rows
 * (four rows of 256 bytes, pitch 2048) whose last row is on that page.
 * What tl_load_from_host does on the same access is printed: with the
 * AVX-512 and AVX2 copies it writes part of the register first.
 */
TEST_F(FastPathTest, ReadsFirstLoadLeavesTheRegisterWhenAReadFaults)
{
    const long page = sysconf(_SC_PAGESIZE);
    const size_t len = size_t(page) * 4;
    void *map = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(map, MAP_FAILED);
    uint8_t *const mem = static_cast<uint8_t *>(map);
    memset(mem, 0x5A, len);
    uint8_t *const bad = mem + len - size_t(page);
    ASSERT_EQ(mprotect(bad, size_t(page), PROT_NONE), 0);
    struct sigaction sa = {}, old_segv, old_bus;
    sa.sa_handler = JumpOutOfFault;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(sigaction(SIGSEGV, &sa, &old_segv), 0);
    ASSERT_EQ(sigaction(SIGBUS, &sa, &old_bus), 0);

    struct Case { const char *name; uint32_t d0, d1, d2, w; int64_t p; uint8_t *host; };
    const Case cases[] = {
        {"whole register", 32, 1, 32, 32, 32, bad - 512},
        {"dense rows", 4, 4, 64, 256, 2048, bad - 3 * 2048 - 128},
    };
    for (const Case &c : cases) {
        const tl_mem_plan plan = *Int8Plan(c.d0, c.d1, c.d2, c.w, c.p, false, 0);
        ASSERT_TRUE(plan.direct) << c.name;
        for (bool reads_first : {false, true}) {
            RandomReg(9);
            uint8_t before[TL_REG_BYTES];
            memcpy(before, s()->reg[9], TL_REG_BYTES);
            EXPECT_TRUE(LoadFaults(s(), &plan, c.host, reads_first)) << c.name << ": the read of the PROT_NONE page did not fault";
            const bool same = memcmp(s()->reg[9], before, TL_REG_BYTES) == 0;
            if (reads_first) {
                EXPECT_TRUE(same) << c.name << ": the register changed before the faulting read";
            } else {
                std::printf("reads-first load, %s: tl_load_from_host on the same access %s\n", c.name,
                            same ? "wrote nothing before the fault either (this host's copy)"
                                 : "wrote part of the register before the fault");
            }
        }
    }
    sigaction(SIGSEGV, &old_segv, nullptr);
    sigaction(SIGBUS, &old_bus, nullptr);
    munmap(map, len);
}

} // namespace tltest
