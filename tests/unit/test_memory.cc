/*
 * tl.load / tl.mload / tl.store / tl.mstore: masks, width, stride, the
 * immediate, address wrap, all-or-nothing faults and tl0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_test_support.h"

#include <csetjmp>
#include <cstring>

namespace tltest {
namespace {

using Call = FakeMemory::Call;

/* Every load and store runs on QEMU's paths: see MemoryPathTest. */
class MemoryTest : public MemoryPathTest {
protected:
    static Bytes Range(uint8_t first, size_t n)
    {
        Bytes b;
        for (size_t i = 0; i < n; ++i) {
            b.push_back(uint8_t(first + i));
        }
        return b;
    }
};

/* ---- loads ---- */

TEST_F(MemoryTest, LoadCopiesTheBlockAndZeroesTheRestOfTheRegister)
{
    SetShape(4, 2, 4); /* int8, S = 8, 32 bytes */
    mem.Poke(0x1000, Range(0x40, 32));
    SetReg(5, {}, 0xAA);
    ASSERT_EQ(Load(5, false, 0, 0x1000), TL_OK);
    EXPECT_EQ(Reg(5, 32), Range(0x40, 32));
    EXPECT_TRUE(RegIsAll(5, 0, 32));
    /*
     * Default pitch = W = S: one contiguous slice after another, in memory
     * and in the register, so the core makes one probe and one read.
     */
    const std::vector<Call> expected = {{'P', 0x1000, 32, false}, {'R', 0x1000, 32, false}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, MloadMask0xCCSelectsSlices2367)
{
    /* Seed 5.5 example 1, shape [8,16,8]: the seed's "rows 0,1,4,5" is an erratum. */
    SetShape(8, 16, 8);
    Csr(TL_CSR_TMASK_LS, 0xCC);
    for (unsigned i = 0; i < 8; ++i) {
        for (unsigned k = 0; k < 128; ++k) {
            mem.Poke(0x1000 + i * 128 + k, {uint8_t((i + 1) << 4 | (k & 0xF))});
        }
    }
    SetReg(1, {}, 0xAA);
    ASSERT_EQ(Load(1, true, 0, 0x1000), TL_OK);
    for (unsigned i = 0; i < 8; ++i) {
        SCOPED_TRACE(i);
        const bool selected = i == 2 || i == 3 || i == 6 || i == 7;
        for (unsigned k = 0; k < 128; ++k) {
            ASSERT_EQ(s()->reg[1][i * 128 + k], selected ? uint8_t((i + 1) << 4 | (k & 0xF)) : 0)
                << k;
        }
    }
    EXPECT_EQ(s()->reg[1][2 * 128 + 5], 0x35);
    EXPECT_EQ(s()->reg[1][7 * 128 + 127], 0x8F);
    EXPECT_EQ(s()->reg[1][128], 0x00);
    /* Slices 2-3 and 6-7 are adjacent pairs: one range each. */
    const std::vector<Call> expected = {
        {'P', 0x1100, 256, false}, {'P', 0x1300, 256, false},
        {'R', 0x1100, 256, false}, {'R', 0x1300, 256, false},
    };
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, MaskBitsAtOrAboveD0AreIgnored)
{
    SetShape(2, 1, 4);
    Csr(TL_CSR_TMASK_LS, 0xFFFFFFFC);
    SetReg(1, {}, 0xAA);
    ASSERT_EQ(Load(1, true, 0, 0x1000), TL_OK);
    EXPECT_TRUE(RegIsAll(1, 0));
    EXPECT_TRUE(mem.calls.empty());
}

TEST_F(MemoryTest, MloadWith32SlicesUsesBit31)
{
    SetShape(32, 1, 2);
    Csr(TL_CSR_TMASK_LS, 0x80000001);
    mem.Poke(0x2000, {1, 2});
    mem.Poke(0x2000 + 62, {3, 4});
    ASSERT_EQ(Load(1, true, 0, 0x2000), TL_OK);
    Bytes expected(64, 0);
    expected[0] = 1;
    expected[1] = 2;
    expected[62] = 3;
    expected[63] = 4;
    EXPECT_EQ(Reg(1, 64), expected);
}

TEST_F(MemoryTest, PartialWidthZeroPadsEachSliceAndIsTheDefaultPitch)
{
    SetShape(3, 1, 8); /* S = 8 */
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 5);
    mem.Poke(0x2000, Range(1, 15));
    SetReg(2, {}, 0xAA);
    ASSERT_EQ(Load(2, false, 0, 0x2000), TL_OK);
    EXPECT_EQ(Reg(2, 24), (Bytes{1, 2, 3, 4, 5, 0, 0, 0, 6, 7, 8, 9, 10, 0, 0, 0,
                                 11, 12, 13, 14, 15, 0, 0, 0}));
    EXPECT_TRUE(RegIsAll(2, 0, 24));
}

TEST_F(MemoryTest, WidthCountsBytesNotElements)
{
    Type(kInt16);
    SetShape(2, 1, 2); /* S = 4 bytes */
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 2);
    mem.Poke(0x100, Range(1, 8));
    ASSERT_EQ(Load(1, false, 0, 0x100), TL_OK);
    EXPECT_EQ(Reg(1, 8), (Bytes{1, 2, 0, 0, 3, 4, 0, 0}));
}

TEST_F(MemoryTest, WidthOutOfRangeIsIllegal)
{
    SetShape(2, 1, 4);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 0);
    EXPECT_EQ(Load(1, false, 0, 0x100), TL_ERR_WIDTH);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 5);
    EXPECT_EQ(Load(1, false, 0, 0x100), TL_ERR_WIDTH);
    EXPECT_EQ(Store(1, false, 0, 0x100), TL_ERR_WIDTH);
    EXPECT_TRUE(mem.calls.empty());
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 4);
    EXPECT_EQ(Load(1, false, 0, 0x100), TL_OK);
}

TEST_F(MemoryTest, D0Above32IsIllegalForLoadsAndStores)
{
    SetShape(33, 1, 1);
    const auto before = Snapshot();
    EXPECT_EQ(Load(1, false, 0, 0x100), TL_ERR_D0_TOO_BIG);
    EXPECT_EQ(Store(1, false, 0, 0x100), TL_ERR_D0_TOO_BIG);
    EXPECT_TRUE(Unchanged(*before));
    SetShape(32, 1, 1);
    EXPECT_EQ(Load(1, false, 0, 0x100), TL_OK);
}

TEST_F(MemoryTest, ExplicitStride)
{
    SetShape(3, 1, 4);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 16);
    mem.Poke(0x3000, {1, 2, 3, 4});
    mem.Poke(0x3010, {5, 6, 7, 8});
    mem.Poke(0x3020, {9, 10, 11, 12});
    ASSERT_EQ(Load(1, false, 0, 0x3000), TL_OK);
    EXPECT_EQ(Reg(1, 12), Range(1, 12));
}

TEST_F(MemoryTest, NegativeStrideWalksDown)
{
    SetShape(3, 1, 4);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 0xFFFFFFF8); /* -8 as a 32-bit pattern */
    mem.Poke(0x4000, {1, 2, 3, 4});
    mem.Poke(0x4008, {5, 6, 7, 8});
    mem.Poke(0x4010, {9, 10, 11, 12});
    ASSERT_EQ(Load(1, false, 0, 0x4010), TL_OK);
    EXPECT_EQ(Reg(1, 12), (Bytes{9, 10, 11, 12, 5, 6, 7, 8, 1, 2, 3, 4}));
    /* A 64-bit -8 keeps only its low 32 bits: the same pitch. */
    Csr(TL_CSR_TMASK_LOAD_STRIDE, uint64_t(int64_t{-8}));
    SetReg(1, {});
    ASSERT_EQ(Load(1, false, 0, 0x4010), TL_OK);
    EXPECT_EQ(Reg(1, 12), (Bytes{9, 10, 11, 12, 5, 6, 7, 8, 1, 2, 3, 4}));
}

TEST_F(MemoryTest, ZeroStrideReadsTheSameBytesForEverySlice)
{
    SetShape(3, 1, 2);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 0);
    mem.Poke(0x5000, {7, 9});
    ASSERT_EQ(Load(1, false, 0, 0x5000), TL_OK);
    EXPECT_EQ(Reg(1, 6), (Bytes{7, 9, 7, 9, 7, 9}));
}

TEST_F(MemoryTest, ImmediateIsScaledByWidth)
{
    SetShape(2, 1, 4);
    mem.Poke(0x6000, Range(1, 12));
    /* W = P = 4: base + (-2) * 4. */
    ASSERT_EQ(Load(1, false, -2, 0x6008), TL_OK);
    EXPECT_EQ(Reg(1, 8), Range(1, 8));
    /* W = P = 2: base + 3 * 2, then +2 per slice. */
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 2);
    ASSERT_EQ(Load(1, false, 3, 0x6000), TL_OK);
    EXPECT_EQ(Reg(1, 8), (Bytes{7, 8, 0, 0, 9, 10, 0, 0}));
}

TEST_F(MemoryTest, MaskedLoadWithImmediateAndStride)
{
    /* Slice i at base + imm8 * W + i * P = 0x7000 + 1 * 3 + i * 32. */
    SetShape(3, 1, 4);
    Csr(TL_CSR_TMASK_LS, 0b101);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 3);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 32);
    mem.Poke(0x7003, {1, 2, 3});
    mem.Poke(0x7043, {4, 5, 6});
    ASSERT_EQ(Load(1, true, 1, 0x7000), TL_OK);
    EXPECT_EQ(Reg(1, 12), (Bytes{1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6, 0}));
}

TEST_F(MemoryTest, Int4AndInt32SlicesAreWholeBytes)
{
    Type(kInt4);
    SetShape(2, 1, 2); /* S = 1 byte */
    mem.Poke(0x100, {0x21, 0x43});
    ASSERT_EQ(Load(1, false, 0, 0x100), TL_OK);
    EXPECT_EQ(Reg(1, 3), (Bytes{0x21, 0x43, 0}));
    Type(kInt32);
    SetShape(2, 1, 1); /* S = 4 bytes */
    mem.Poke(0x200, Range(1, 8));
    ASSERT_EQ(Load(1, false, 0, 0x200), TL_OK);
    EXPECT_EQ(Reg(1, 9), (Bytes{1, 2, 3, 4, 5, 6, 7, 8, 0}));
}

TEST_F(MemoryTest, SliceSplitAtTheTopOfA32BitAddressSpace)
{
    SetShape(1, 1, 8);
    mem.Poke(0xFFFFFFFC, {1, 2, 3, 4});
    mem.Poke(0x0, {5, 6, 7, 8});
    ASSERT_EQ(Load(1, false, 0, 0xFFFFFFFC, kMask32), TL_OK);
    EXPECT_EQ(Reg(1, 8), Range(1, 8));
    const std::vector<Call> expected = {
        {'P', 0xFFFFFFFC, 4, false}, {'P', 0x0, 4, false},
        {'R', 0xFFFFFFFC, 4, false}, {'R', 0x0, 4, false},
    };
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, SliceAddressesWrapAndAreReducedToXlen)
{
    SetShape(2, 1, 4);
    /* Slice 0 ends exactly at the top, slice 1 starts at 0: no split, and no merge across the top. */
    ASSERT_EQ(Load(1, false, 0, 0xFFFFFFFC, kMask32), TL_OK);
    std::vector<Call> expected = {
        {'P', 0xFFFFFFFC, 4, false}, {'P', 0x0, 4, false},
        {'R', 0xFFFFFFFC, 4, false}, {'R', 0x0, 4, false},
    };
    EXPECT_EQ(mem.calls, expected);
    /* An XLEN=32 base above 4 GiB is reduced modulo 2^32. */
    mem.calls.clear();
    ASSERT_EQ(Load(1, false, 0, 0x100000010ull, kMask32), TL_OK);
    expected = {{'P', 0x10, 8, false}, {'R', 0x10, 8, false}};
    EXPECT_EQ(mem.calls, expected);
    /* A negative immediate below address 0 wraps to the top. */
    mem.calls.clear();
    ASSERT_EQ(Load(1, false, -1, 0x0, kMask32), TL_OK);
    expected = {{'P', 0xFFFFFFFC, 4, false}, {'P', 0x0, 4, false},
                {'R', 0xFFFFFFFC, 4, false}, {'R', 0x0, 4, false}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, SliceSplitAtTheTopOfA64BitAddressSpace)
{
    SetShape(1, 1, 4);
    mem.Poke(0xFFFFFFFFFFFFFFFEull, {1, 2});
    mem.Poke(0x0, {3, 4});
    ASSERT_EQ(Load(1, false, 0, 0xFFFFFFFFFFFFFFFEull, kMask64), TL_OK);
    EXPECT_EQ(Reg(1, 4), Range(1, 4));
    const std::vector<Call> expected = {
        {'P', 0xFFFFFFFFFFFFFFFEull, 2, false}, {'P', 0x0, 2, false},
        {'R', 0xFFFFFFFFFFFFFFFEull, 2, false}, {'R', 0x0, 2, false},
    };
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, LoadFaultReportsFirstFaultingByteAndChangesNothing)
{
    SetShape(4, 1, 8);
    mem.Forbid(0x2013, 0x2013); /* inside slice 2 */
    SetReg(3, Range(1, 40), 0xAA);
    const auto before = Snapshot();
    ASSERT_EQ(Load(3, false, 0, 0x2000), TL_FAULT);
    EXPECT_EQ(fault, 0x2013u);
    EXPECT_TRUE(Unchanged(*before));
    for (const Call &c : mem.calls) {
        EXPECT_EQ(c.kind, 'P') << "no access before every probe succeeded";
    }
    /* The four adjacent slices are probed as one range, which reports the first bad byte. */
    EXPECT_EQ(mem.calls.size(), 1u) << "probing stops at the fault";
}

TEST_F(MemoryTest, FaultAddressIsTheLowestForbiddenByteOfTheSlice)
{
    SetShape(4, 1, 8);
    mem.Forbid(0x2003, 0x2006);
    ASSERT_EQ(Load(3, false, 0, 0x2000), TL_FAULT);
    EXPECT_EQ(fault, 0x2003u);
}

TEST_F(MemoryTest, FaultIsReportedInSliceOrderNotAddressOrder)
{
    /* Stride -16: slice 3 has the lowest address but slice 1 faults first. */
    SetShape(4, 1, 8);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, uint64_t(int64_t{-16}));
    mem.Forbid(0x2FD0, 0x2FD0); /* slice 3: 0x3000 - 48 */
    mem.Forbid(0x2FF2, 0x2FF2); /* slice 1: 0x3000 - 16 + 2 */
    ASSERT_EQ(Load(3, false, 0, 0x3000), TL_FAULT);
    EXPECT_EQ(fault, 0x2FF2u);
}

TEST_F(MemoryTest, FaultAfterTheWrapOfASplitSlice)
{
    SetShape(1, 1, 8);
    mem.Forbid(0x1, 0x1);
    ASSERT_EQ(Load(3, false, 0, 0xFFFFFFFC, kMask32), TL_FAULT);
    EXPECT_EQ(fault, 0x1u);
}

TEST_F(MemoryTest, UnselectedSlicesCannotFault)
{
    SetShape(4, 1, 8);
    Csr(TL_CSR_TMASK_LS, 0b1011);
    mem.Forbid(0x2010, 0x2017); /* slice 2 */
    ASSERT_EQ(Load(3, true, 0, 0x2000), TL_OK);
    ASSERT_EQ(Store(3, true, 0, 0x2000), TL_OK);
}

TEST_F(MemoryTest, LoadToTl0StillProbesAndReadsButKeepsTl0Zero)
{
    SetShape(2, 1, 4);
    mem.Poke(0x100, Range(1, 8));
    ASSERT_EQ(Load(0, false, 0, 0x100), TL_OK);
    EXPECT_TRUE(RegIsAll(0, 0));
    const std::vector<Call> expected = {{'P', 0x100, 8, false}, {'R', 0x100, 8, false}};
    EXPECT_EQ(mem.calls, expected);
    mem.Forbid(0x104, 0x104);
    EXPECT_EQ(Load(0, false, 0, 0x100), TL_FAULT);
    EXPECT_EQ(fault, 0x104u);
}

/*
 * A read that ends the load half-way (in QEMU a host fault or a device that
 * fails the access, which longjmps out of the read callback) leaves the
 * register as it was: the bytes of the first range reach a buffer only.
 */
jmp_buf read_abandoned;

void ReadFirstRangeThenAbandon(void *, const tl_mem_range *r, unsigned n, uint8_t *dst)
{
    ASSERT_GE(n, 2u);
    memset(dst + r[0].reg, 0x5C, r[0].len);
    longjmp(read_abandoned, 1);
}

TEST_F(MemoryTest, LoadEndedHalfWayByAReadLeavesTheRegisterAsItWas)
{
    SetShape(4, 1, 8);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 16); /* four ranges, one per slice */
    SetReg(3, Range(1, 40), 0xAA);
    const auto before = Snapshot();
    tl_mem_batch_if abandoning = *mem.Batch();
    abandoning.read = ReadFirstRangeThenAbandon;
    if (setjmp(read_abandoned) == 0) {
        tl_exec_load_batch(s(), 3, false, 0, 0x2000, kMask64, &abandoning, &fault);
        ADD_FAILURE() << "the read callback returned";
    }
    EXPECT_TRUE(Unchanged(*before));
}

/* ---- which ranges are merged into one callback ---- */

TEST_F(MemoryTest, OverlappingSlicesAreNeverMerged)
{
    /* P = 2 < W = 4: each slice is its own range, in slice order. */
    SetShape(3, 1, 4);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 2);
    ASSERT_EQ(Store(1, false, 0, 0x100), TL_OK);
    const std::vector<Call> expected = {
        {'P', 0x100, 4, true}, {'P', 0x102, 4, true}, {'P', 0x104, 4, true},
        {'W', 0x100, 4, true}, {'W', 0x102, 4, true}, {'W', 0x104, 4, true},
    };
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, NarrowSlicesMergeProbesButNotRegisterCopies)
{
    /* W = P = 4 < S = 8: adjacent in memory, not in the register. */
    SetShape(2, 1, 8);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 4);
    mem.Poke(0x100, Range(1, 8));
    ASSERT_EQ(Load(1, false, 0, 0x100), TL_OK);
    EXPECT_EQ(Reg(1, 16), (Bytes{1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0}));
    const std::vector<Call> expected = {
        {'P', 0x100, 8, false}, {'R', 0x100, 4, false}, {'R', 0x104, 4, false}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, MaskedSlicesAdjacentInMemoryMergeOnlyTheProbe)
{
    /* P = W / 2 and mask 0b101: slices 0 and 2 touch in memory, not in the register. */
    SetShape(3, 1, 4);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 2);
    Csr(TL_CSR_TMASK_LS, 0b101);
    mem.Poke(0x200, Range(1, 8));
    ASSERT_EQ(Load(1, true, 0, 0x200), TL_OK);
    EXPECT_EQ(Reg(1, 12), (Bytes{1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8}));
    const std::vector<Call> expected = {
        {'P', 0x200, 8, false}, {'R', 0x200, 4, false}, {'R', 0x204, 4, false}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, MaskGapsSplitRanges)
{
    SetShape(4, 1, 4);
    Csr(TL_CSR_TMASK_LS, 0b1101);
    ASSERT_EQ(Store(1, true, 0, 0x300), TL_OK);
    const std::vector<Call> expected = {
        {'P', 0x300, 4, true}, {'P', 0x308, 8, true}, {'W', 0x300, 4, true}, {'W', 0x308, 8, true}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, MergedRangesStopAtTheTopOfTheAddressSpace)
{
    /* XLEN = 32, base 0xFFFFFFF8, 4 slices of 4: [..FFF8, ..FFFC) + [..FFFC, top] | [0, 4) + [4, 8). */
    SetShape(4, 1, 4);
    ASSERT_EQ(Load(1, false, 0, 0xFFFFFFF8, kMask32), TL_OK);
    const std::vector<Call> expected = {
        {'P', 0xFFFFFFF8, 8, false}, {'P', 0x0, 8, false},
        {'R', 0xFFFFFFF8, 8, false}, {'R', 0x0, 8, false}};
    EXPECT_EQ(mem.calls, expected);
}

/* ---- stores ---- */

TEST_F(MemoryTest, StoreWritesEachSliceAndNothingElse)
{
    SetShape(2, 1, 4);
    SetReg(1, Range(1, 8), 0xEE);
    ASSERT_EQ(Store(1, false, 0, 0x7000), TL_OK);
    EXPECT_EQ(mem.Peek(0x7000, 8), Range(1, 8));
    EXPECT_EQ(mem.Stored(), 8u);
    const std::vector<Call> expected = {{'P', 0x7000, 8, true}, {'W', 0x7000, 8, true}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, MstoreSkipsUnselectedSlices)
{
    /* Seed 4.6.3: shape [4,32,8], mask 0b1010 stores slices 1 and 3. */
    SetShape(4, 32, 8);
    Csr(TL_CSR_TMASK_LS, 0b1010);
    for (unsigned i = 0; i < 4; ++i) {
        memset(s()->reg[1] + i * 256, 0x10 * (i + 1), 256);
    }
    ASSERT_EQ(Store(1, true, 0, 0x10000), TL_OK);
    EXPECT_EQ(mem.Stored(), 512u);
    EXPECT_EQ(mem.Peek(0x10000), FakeMemory::Background(0x10000));
    EXPECT_EQ(mem.Peek(0x10100), 0x20);
    EXPECT_EQ(mem.Peek(0x101FF), 0x20);
    EXPECT_EQ(mem.Peek(0x10200), FakeMemory::Background(0x10200));
    EXPECT_EQ(mem.Peek(0x10300), 0x40);
    EXPECT_EQ(mem.Peek(0x103FF), 0x40);
}

TEST_F(MemoryTest, StorePartialWidthWithStride)
{
    SetShape(2, 1, 4);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 3);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 8);
    SetReg(1, Range(1, 8));
    ASSERT_EQ(Store(1, false, 0, 0x8000), TL_OK);
    EXPECT_EQ(mem.Peek(0x8000, 3), (Bytes{1, 2, 3}));
    EXPECT_EQ(mem.Peek(0x8008, 3), (Bytes{5, 6, 7}));
    EXPECT_EQ(mem.Stored(), 6u);
}

TEST_F(MemoryTest, StoreWithZeroStrideLeavesTheLastSlice)
{
    SetShape(3, 1, 2);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 0);
    SetReg(1, {1, 2, 3, 4, 5, 6});
    ASSERT_EQ(Store(1, false, 0, 0x9000), TL_OK);
    EXPECT_EQ(mem.Peek(0x9000, 2), (Bytes{5, 6}));
}

TEST_F(MemoryTest, StoreWithNegativeImmediateAndWrap)
{
    SetShape(1, 1, 8);
    SetReg(1, Range(1, 8));
    /* base + (-1) * 8 = 0xFFFFFFFC with XLEN = 32: split at the top. */
    ASSERT_EQ(Store(1, false, -1, 0x4, kMask32), TL_OK);
    EXPECT_EQ(mem.Peek(0xFFFFFFFC, 4), (Bytes{1, 2, 3, 4}));
    EXPECT_EQ(mem.Peek(0x0, 4), (Bytes{5, 6, 7, 8}));
}

TEST_F(MemoryTest, StoreFaultWritesNothing)
{
    SetShape(3, 1, 4);
    SetReg(1, Range(1, 12));
    mem.Forbid(0xA009, 0xA009); /* slice 2 */
    ASSERT_EQ(Store(1, false, 0, 0xA000), TL_FAULT);
    EXPECT_EQ(fault, 0xA009u);
    EXPECT_EQ(mem.Stored(), 0u);
    const std::vector<Call> expected = {{'P', 0xA000, 12, true}};
    EXPECT_EQ(mem.calls, expected);
}

TEST_F(MemoryTest, StoreFromTl0WritesZeros)
{
    SetShape(1, 2, 2);
    s()->reg[0][0] = 0x77; /* even a corrupted tl0 reads as zero */
    ASSERT_EQ(Store(0, false, 0, 0xB000), TL_OK);
    EXPECT_EQ(mem.Peek(0xB000, 4), (Bytes{0, 0, 0, 0}));
}

TEST_F(MemoryTest, MaskedFormsNeedTmaskLs)
{
    SetShape(1, 1, 4);
    EXPECT_EQ(Load(1, true, 0, 0x100), TL_ERR_UNINIT_TMASK_LS);
    EXPECT_EQ(Store(1, true, 0, 0x100), TL_ERR_UNINIT_TMASK_LS);
    EXPECT_TRUE(mem.calls.empty());
}

/* ---- which of QEMU's two paths each test also checks ---- */

TEST_F(MemoryTest, OrderedPlansInPlainMemoryAlsoRunOnTheHostPointerPath)
{
    SetShape(4, 1, 8);
    ASSERT_EQ(Load(1, false, 0, 0x1000), TL_OK); /* contiguous */
    ASSERT_EQ(Store(1, false, 0, 0x1000), TL_OK);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 24);
    Csr(TL_CSR_TMASK_LS, 0b0101);
    ASSERT_EQ(Load(1, true, 0, 0x1000), TL_OK); /* strided, masked */
    Csr(TL_CSR_TMASK_LS, 0);
    ASSERT_EQ(Load(1, true, 0, 0x1000), TL_OK); /* nothing selected: span 0 */
    EXPECT_EQ(host_path_runs, 4u);
    /* The general path only: slices out of order, past the top, a fault. */
    Csr(TL_CSR_TMASK_LOAD_STRIDE, uint64_t(int64_t{-8}));
    ASSERT_EQ(Load(1, false, 0, 0x1000), TL_OK);
    Csr(TL_CSR_TMASK_LOAD_STRIDE, 8);
    ASSERT_EQ(Load(1, false, 0, 0xFFFFFFF0, kMask32), TL_OK);
    mem.Forbid(0x2010, 0x2010);
    ASSERT_EQ(Load(1, false, 0, 0x2000), TL_FAULT);
    EXPECT_EQ(host_path_runs, 4u);
}

} // namespace
} // namespace tltest
