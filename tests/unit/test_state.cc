/*
 * Reset values, CSR WARL masks and initialized bits, ttype decoding, status
 * messages, and the check order shared by the instructions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cstring>
#include <set>
#include <string>

#include "tl_test_support.h"

namespace tltest {
namespace {

using StateTest = TlTest;

TEST_F(StateTest, ResetZeroesRegistersAndCsrsExceptTtype)
{
    memset(s(), 0xAB, sizeof(tl_state));
    tl_state_reset(s());
    for (unsigned r = 0; r < TL_NUM_REGS; ++r) {
        SCOPED_TRACE(r);
        EXPECT_TRUE(RegIsAll(r, 0));
    }
    EXPECT_EQ(s()->csr[TL_CSR_TTYPE], 0x002u);
    for (unsigned i = 1; i < TL_CSR_COUNT; ++i) {
        EXPECT_EQ(s()->csr[i], 0u) << i;
    }
    EXPECT_EQ(s()->csr_initialized, 1u);
}

TEST_F(StateTest, AfterResetOnlyTtypeIsInitializedAndReadsItsResetValue)
{
    EXPECT_TRUE(tl_csr_is_initialized(s(), TL_CSR_TTYPE));
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TTYPE), 0x002u);
    for (unsigned i = 1; i < TL_CSR_COUNT; ++i) {
        SCOPED_TRACE(tl_csr_name(i));
        EXPECT_FALSE(tl_csr_is_initialized(s(), i));
        EXPECT_EQ(tl_csr_read(s(), i), 0u);
    }
}

TEST(CsrTable, NamesInAddressOrder)
{
    const char *expected[] = {"ttype",          "tshape",            "tmask_ls",
                              "tmask_concat_1", "tmask_concat_2",    "tmask_load_stride",
                              "tmask_load_width", "tvalid", "tinit"};
    for (unsigned i = 0; i < TL_CSR_ADDR_COUNT; ++i) {
        ASSERT_NE(tl_csr_name(i), nullptr);
        EXPECT_STREQ(tl_csr_name(i), expected[i]);
    }
    EXPECT_EQ(tl_csr_name(TL_CSR_ADDR_COUNT), nullptr);
    EXPECT_EQ(tl_csr_name(1000), nullptr);
}

TEST(CsrTable, WritableMasks)
{
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TTYPE), 0x00000FFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TSHAPE), 0x00FFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TMASK_LS), 0xFFFFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TMASK_CONCAT_1), 0xFFFFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TMASK_CONCAT_2), 0xFFFFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TMASK_LOAD_STRIDE), 0xFFFFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TMASK_LOAD_WIDTH), 0xFFFFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TVALID), 0x00FFFFFFu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_TINIT), 0xFEu);
    EXPECT_EQ(tl_csr_writable_mask(TL_CSR_ADDR_COUNT), 0u);
}

TEST_F(StateTest, WritesDropReservedBitsAndUpperHalf)
{
    const uint32_t expected[TL_CSR_COUNT] = {0xFFF,      0xFFFFFF,   0xFFFFFFFF, 0xFFFFFFFF,
                                             0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFF};
    for (unsigned i = 0; i < TL_CSR_COUNT; ++i) {
        SCOPED_TRACE(tl_csr_name(i));
        tl_csr_write(s(), i, ~0ull);
        EXPECT_EQ(tl_csr_read(s(), i), expected[i]);
    }
    tl_csr_write(s(), TL_CSR_TTYPE, 0xF00D);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TTYPE), 0x00Du);
    tl_csr_write(s(), TL_CSR_TSHAPE, 0xFF123456);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TSHAPE), 0x123456u);
    tl_csr_write(s(), TL_CSR_TVALID, 0xA1B2C3D4);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TVALID), 0xB2C3D4u);
    tl_csr_write(s(), TL_CSR_TMASK_LS, 0x123456789ABCDEF0ull);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TMASK_LS), 0x9ABCDEF0u);
}

TEST_F(StateTest, AnyWriteEvenOfZeroInitializesOnlyThatCsr)
{
    for (unsigned i = 1; i < TL_CSR_COUNT; ++i) {
        SCOPED_TRACE(tl_csr_name(i));
        tl_csr_write(s(), i, 0);
        EXPECT_TRUE(tl_csr_is_initialized(s(), i));
        EXPECT_EQ(tl_csr_read(s(), i), 0u);
        EXPECT_EQ(s()->csr_initialized, (2u << i) - 1) << "CSRs 0.." << i;
    }
}

TEST_F(StateTest, OutOfRangeCsrIndexIsIgnored)
{
    const auto before = Snapshot();
    tl_csr_write(s(), TL_CSR_ADDR_COUNT, 123);
    tl_csr_write(s(), 31, 123);
    EXPECT_TRUE(Unchanged(*before));
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_ADDR_COUNT), 0u);
    EXPECT_FALSE(tl_csr_is_initialized(s(), TL_CSR_ADDR_COUNT));
}

/* tinit (docs/isa.md 2.6): the flags, with the ttype bit read-only 1. */
TEST_F(StateTest, TinitReadsTheFlagsWithTtypeAlwaysSet)
{
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TINIT), 0x01u);
    EXPECT_TRUE(tl_csr_is_initialized(s(), TL_CSR_TINIT));
    tl_csr_write(s(), TL_CSR_TSHAPE, 0);
    tl_csr_write(s(), TL_CSR_TVALID, 5);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TINIT), 0x83u);
}

TEST_F(StateTest, TinitWriteClearingAFlagClearsTheValue)
{
    tl_csr_write(s(), TL_CSR_TSHAPE, 0x040404);
    tl_csr_write(s(), TL_CSR_TMASK_LS, 0xF0);
    tl_csr_write(s(), TL_CSR_TTYPE, 0x004);
    tl_csr_write(s(), TL_CSR_TINIT, 0x04);   /* keep tmask_ls; bit 0 reads 1 anyway */
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TINIT), 0x05u);
    EXPECT_FALSE(tl_csr_is_initialized(s(), TL_CSR_TSHAPE));
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TSHAPE), 0u);
    EXPECT_EQ(s()->csr[TL_CSR_TSHAPE], 0u) << "the value itself is cleared, not only hidden";
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TMASK_LS), 0xF0u);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TTYPE), 0x004u) << "ttype keeps its value";
}

TEST_F(StateTest, TinitWriteSettingAFlagKeepsTheValueAndWarlBitsReadZero)
{
    tl_csr_write(s(), TL_CSR_TINIT, ~0ull);
    EXPECT_EQ(tl_csr_read(s(), TL_CSR_TINIT), 0xFFu);
    for (unsigned i = 1; i < TL_CSR_COUNT; ++i) {
        SCOPED_TRACE(tl_csr_name(i));
        EXPECT_TRUE(tl_csr_is_initialized(s(), i));
        EXPECT_EQ(tl_csr_read(s(), i), 0u);
    }
}

TEST_F(StateTest, SanitizeRestoresTheInvariants)
{
    memset(s()->reg[0], 0x5A, TL_REG_BYTES);
    s()->csr[TL_CSR_TSHAPE] = 0xFF010101u;      /* reserved bits set */
    s()->csr[TL_CSR_TMASK_LS] = 0x1234u;        /* value of an uninitialized CSR */
    s()->csr_initialized = 0xF02u;              /* ttype bit clear, bits above 7 set */
    tl_state_sanitize(s());
    EXPECT_TRUE(RegIsAll(0, 0));
    EXPECT_EQ(s()->csr_initialized, 0x03u);
    EXPECT_EQ(s()->csr[TL_CSR_TSHAPE], 0x010101u);
    EXPECT_EQ(s()->csr[TL_CSR_TMASK_LS], 0u);
    EXPECT_EQ(s()->csr[TL_CSR_TTYPE], 0x002u);
}

TEST(Ttype, EveryValidEncodingHasItsSizeAndName)
{
    struct Case {
        uint32_t ttype;
        unsigned bits;
        const char *name;
    } cases[] = {
        {0x001, 4, "int4"},  {0x002, 8, "int8"},  {0x004, 16, "int16"}, {0x008, 32, "int32"},
        {0x010, 4, "e2m1"},  {0x040, 8, "e4m3"},  {0x080, 8, "e5m2"},   {0x0C0, 8, "e3m4"},
        {0x100, 16, "fp16"}, {0x200, 16, "bf16"}, {0x400, 32, "fp32"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.name);
        EXPECT_EQ(tl_ttype_element_bits(c.ttype), c.bits);
        ASSERT_NE(tl_ttype_name(c.ttype), nullptr);
        EXPECT_STREQ(tl_ttype_name(c.ttype), c.name);
    }
}

TEST(Ttype, NoFieldTwoFieldsAndReservedCodesAreInvalid)
{
    const uint32_t invalid[] = {
        0x000,        /* no field */
        0x003, 0x041, /* two fields */
        0x042, 0x101, 0x500, 0x00F,
        0x020, 0x030, /* tfp4 = 10, 11 reserved */
        0x300,        /* tfp16 = 11 reserved */
        0x800, 0xC00, /* tfp32 = 10, 11 reserved */
        0x1002,       /* a reserved bit above 11 */
    };
    for (uint32_t t : invalid) {
        SCOPED_TRACE(t);
        EXPECT_EQ(tl_ttype_element_bits(t), 0u);
        EXPECT_EQ(tl_ttype_name(t), nullptr);
    }
}

TEST(StatusMessage, EveryStatusHasADistinctSentence)
{
    std::set<std::string> seen;
    for (int st = 0; st < TL_STATUS_COUNT; ++st) {
        const char *msg = tl_status_message(tl_status(st));
        ASSERT_NE(msg, nullptr) << st;
        const std::string text(msg);
        EXPECT_FALSE(text.empty()) << st;
        EXPECT_EQ(text.back(), '.') << st;
        EXPECT_TRUE(seen.insert(text).second) << "duplicate message for " << st;
    }
    EXPECT_NE(tl_status_message(TL_STATUS_COUNT), nullptr);
    EXPECT_NE(tl_status_message(tl_status(1000)), nullptr);
}

/* ---- the check order: ttype, needed CSRs (tshape first), shape, limits ---- */

class CheckOrderTest : public MemoryPathTest {
protected:
    tl_status Load(bool masked) { return MemoryPathTest::Load(1, masked, 0, 0x1000); }
    tl_status Store(bool masked) { return MemoryPathTest::Store(1, masked, 0, 0x1000); }
};

TEST_F(CheckOrderTest, InvalidTtypeComesFirstForEveryInstruction)
{
    Type(0x003);
    const auto before = Snapshot();
    EXPECT_EQ(Load(true), TL_ERR_TTYPE);
    EXPECT_EQ(Store(true), TL_ERR_TTYPE);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_TTYPE);
    EXPECT_EQ(tl_exec_merge(s(), 0, 1, 2, 3), TL_ERR_TTYPE);
    EXPECT_EQ(tl_exec_xpose(s(), 0, 1, 1, 2, XposeDims(32, 64, 1, 1)), TL_ERR_TTYPE);
    EXPECT_EQ(tl_exec_addi(s(), 1, 2, 1), TL_ERR_TTYPE);
    EXPECT_EQ(tl_exec_muls(s(), 1, 2, 1), TL_ERR_TTYPE);
    EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 1, 2), TL_ERR_TTYPE);
    EXPECT_TRUE(Unchanged(*before));
    EXPECT_TRUE(mem.calls.empty());
}

TEST_F(CheckOrderTest, TshapeIsCheckedBeforeTheOtherCsrs)
{
    EXPECT_EQ(Load(true), TL_ERR_UNINIT_TSHAPE);
    EXPECT_EQ(Store(true), TL_ERR_UNINIT_TSHAPE);
    EXPECT_EQ(Load(false), TL_ERR_UNINIT_TSHAPE);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_UNINIT_TSHAPE);
    EXPECT_EQ(tl_exec_merge(s(), 0, 1, 2, 3), TL_ERR_UNINIT_TSHAPE);
    EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 1, 2), TL_ERR_UNINIT_TSHAPE);
}

TEST_F(CheckOrderTest, MaskCsrsAreCheckedBeforeTheShape)
{
    Csr(TL_CSR_TSHAPE, 0); /* initialized but an invalid shape */
    EXPECT_EQ(Load(true), TL_ERR_UNINIT_TMASK_LS);
    EXPECT_EQ(Store(true), TL_ERR_UNINIT_TMASK_LS);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_UNINIT_TMASK_CONCAT_1);
    EXPECT_EQ(tl_exec_merge(s(), 0, 1, 2, 3), TL_ERR_UNINIT_TMASK_CONCAT_1);
    EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 1, 2), TL_ERR_UNINIT_TVALID);
    Csr(TL_CSR_TMASK_CONCAT_1, 0);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_UNINIT_TMASK_CONCAT_2);
    /* Unmasked forms and merge do not need the other masks. */
    EXPECT_EQ(Load(false), TL_ERR_SHAPE);
    EXPECT_EQ(Store(false), TL_ERR_SHAPE);
    EXPECT_EQ(tl_exec_merge(s(), 0, 1, 2, 3), TL_ERR_SHAPE);
    Csr(TL_CSR_TMASK_CONCAT_2, 0);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_SHAPE);
    Csr(TL_CSR_TVALID, 0);
    EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 1, 2), TL_ERR_SHAPE);
    EXPECT_TRUE(mem.calls.empty());
}

TEST_F(CheckOrderTest, ArithmeticAndXposeNeedOnlyTtype)
{
    /* tshape, masks and tvalid are all uninitialized here. */
    EXPECT_EQ(tl_exec_addi(s(), 1, 2, 1), TL_OK);
    EXPECT_EQ(tl_exec_muls(s(), 1, 2, 1), TL_OK);
    EXPECT_EQ(tl_exec_xpose(s(), 0, 1, 1, 2, XposeDims(32, 64, 1, 1)), TL_OK);
}

struct ShapeCase {
    uint32_t ttype;
    uint32_t d0, d1, d2;
    bool valid;
    const char *why;
};

TEST_F(CheckOrderTest, ShapeValidity)
{
    const ShapeCase cases[] = {
        {kInt8, 0, 4, 4, false, "D0 = 0"},
        {kInt8, 4, 0, 4, false, "D1 = 0"},
        {kInt8, 4, 4, 0, false, "D2 = 0"},
        {kInt8, 4, 16, 16, true, "exactly 1024 bytes"},
        {kInt8, 2, 32, 17, false, "1088 bytes"},
        {kInt32, 1, 16, 17, false, "1088 bytes of int32"},
        {kInt32, 1, 16, 16, true, "1024 bytes of int32"},
        {kInt4, 1, 3, 3, false, "int4 slice of 4.5 bytes"},
        {kE2M1, 3, 1, 1, false, "e2m1 slice of half a byte"},
        {kInt4, 3, 1, 2, true, "int4 slice of 1 byte"},
        {kInt4, 1, 64, 32, true, "2048 int4 elements = 1024 bytes"},
        {kInt4, 1, 64, 33, false, "2112 int4 elements"},
        {kFp16, 2, 16, 16, true, "1024 bytes of fp16"},
        {kFp16, 2, 16, 17, false, "1088 bytes of fp16"},
    };
    for (const ShapeCase &c : cases) {
        SCOPED_TRACE(c.why);
        tl_state_reset(s());
        Type(c.ttype);
        SetShape(c.d0, c.d1, c.d2);
        Csr(TL_CSR_TMASK_CONCAT_1, 0);
        Csr(TL_CSR_TMASK_CONCAT_2, 0);
        Csr(TL_CSR_TVALID, 0);
        const tl_status expected = c.valid ? TL_OK : TL_ERR_SHAPE;
        EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), expected);
        EXPECT_EQ(tl_exec_merge(s(), 0, 1, 2, 3), expected);
        EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 1, 2), expected);
        EXPECT_EQ(Load(false), c.valid ? TL_OK : TL_ERR_SHAPE);
    }
}

TEST_F(CheckOrderTest, ShapeIsCheckedBeforeInstructionLimits)
{
    Type(kInt8);
    SetShape(64, 4, 5); /* 1280 bytes, and D0 > 32 */
    Csr(TL_CSR_TMASK_CONCAT_1, 0);
    Csr(TL_CSR_TMASK_CONCAT_2, 0);
    Csr(TL_CSR_TMASK_LOAD_WIDTH, 0);
    EXPECT_EQ(Load(false), TL_ERR_SHAPE);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_SHAPE);
    SetShape(64, 4, 4); /* 1024 bytes, D0 > 32, width 0 */
    EXPECT_EQ(Load(false), TL_ERR_D0_TOO_BIG);
    EXPECT_EQ(tl_exec_concat(s(), 0, 1, 2, 3), TL_ERR_CONCAT_DIM_TOO_BIG);
    SetShape(4, 4, 4);
    EXPECT_EQ(Load(false), TL_ERR_WIDTH);
}

} // namespace
} // namespace tltest
