/*
 * Data movement: tl.concat, tl.merge, tl.xpose and tl.fillpad on int8,
 * int16, int32 and 4-bit (nibble) data, with tl0 and aliasing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_test_support.h"

namespace tltest {
namespace {

class MoveTest : public TlTest {
protected:
    void Masks(uint32_t m1, uint32_t m2)
    {
        Csr(TL_CSR_TMASK_CONCAT_1, m1);
        Csr(TL_CSR_TMASK_CONCAT_2, m2);
    }
    void Valid(uint32_t v0, uint32_t v1, uint32_t v2) { Csr(TL_CSR_TVALID, Shape(v0, v1, v2)); }
};

/* ---- concat ---- */

TEST_F(MoveTest, ConcatSeedExampleAlongDim2)
{
    /* Seed 4.3.4: [a,b,c,d] mask 0x0C, [e,f,g,h] mask 0x03 -> [c,d,e,f]. */
    SetShape(1, 1, 4);
    Masks(0x0C, 0x03);
    SetReg(1, {0xA, 0xB, 0xC, 0xD});
    SetReg(2, {0xE, 0xF, 0x10, 0x11});
    SetReg(3, {}, 0xAA);
    ASSERT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 4), (Bytes{0xC, 0xD, 0xE, 0xF}));
    EXPECT_TRUE(RegIsAll(3, 0, 4));
}

TEST_F(MoveTest, ConcatDim2AppliesToEveryRow)
{
    /* Seed 5.3 example 1 in small: shape [2,2,4], every row becomes [c,d,e,f]. */
    SetShape(2, 2, 4);
    Masks(0x0C, 0x03);
    SetReg(1, {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
               0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F});
    SetReg(2, {0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
               0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F});
    ASSERT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 17), (Bytes{0x02, 0x03, 0x80, 0x81, 0x06, 0x07, 0x84, 0x85,
                                 0x0A, 0x0B, 0x88, 0x89, 0x0E, 0x0F, 0x8C, 0x8D, 0x00}));
}

TEST_F(MoveTest, ConcatDim0FillsTheRestWithZero)
{
    SetShape(4, 1, 2);
    Masks(0b0101, 0b1000);
    SetReg(1, {0xA0, 0xA1, 0xB0, 0xB1, 0xC0, 0xC1, 0xD0, 0xD1});
    SetReg(2, {0x10, 0x11, 0x20, 0x21, 0x30, 0x31, 0x40, 0x41});
    SetReg(3, {}, 0xAA);
    ASSERT_EQ(tl_exec_concat(s(), 0, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 8), (Bytes{0xA0, 0xA1, 0xC0, 0xC1, 0x40, 0x41, 0x00, 0x00}));
    EXPECT_TRUE(RegIsAll(3, 0, 8));
}

TEST_F(MoveTest, ConcatDim1)
{
    SetShape(2, 3, 2);
    Masks(0b010, 0b001);
    SetReg(1, {0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26});
    SetReg(2, {0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6});
    ASSERT_EQ(tl_exec_concat(s(), 1, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 12), (Bytes{0x13, 0x14, 0x91, 0x92, 0x00, 0x00,
                                 0x23, 0x24, 0xA1, 0xA2, 0x00, 0x00}));
}

TEST_F(MoveTest, ConcatInt16Dim2)
{
    Type(kInt16);
    SetShape(1, 2, 3);
    Masks(0b100, 0b011);
    SetReg(1, {0x01, 0x10, 0x02, 0x10, 0x03, 0x10, 0x04, 0x10, 0x05, 0x10, 0x06, 0x10});
    SetReg(2, {0x01, 0x20, 0x02, 0x20, 0x03, 0x20, 0x04, 0x20, 0x05, 0x20, 0x06, 0x20});
    ASSERT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_OK);
    /* row 0: [1003, 2001, 2002], row 1: [1006, 2004, 2005] (hex, little-endian) */
    EXPECT_EQ(Reg(3, 12), (Bytes{0x03, 0x10, 0x01, 0x20, 0x02, 0x20,
                                 0x06, 0x10, 0x04, 0x20, 0x05, 0x20}));
}

TEST_F(MoveTest, ConcatInt4Dim2MovesNibbles)
{
    Type(kInt4);
    SetShape(1, 2, 4); /* S = 4 bytes */
    Masks(0b0010, 0b0101);
    SetReg(1, {0x21, 0x43, 0x65, 0x87}); /* rows [1,2,3,4] [5,6,7,8] */
    SetReg(2, {0xA9, 0xCB, 0xED, 0x0F}); /* rows [9,A,B,C] [D,E,F,0] */
    ASSERT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_OK);
    /* rows [2,9,B,0] [6,D,F,0] */
    EXPECT_EQ(Reg(3, 5), (Bytes{0x92, 0x0B, 0xD6, 0x0F, 0x00}));
}

TEST_F(MoveTest, ConcatInt4Dim1WithOddRowLength)
{
    Type(kInt4);
    SetShape(2, 2, 3); /* S = 3 bytes, rows of 3 nibbles */
    Masks(0b10, 0b01);
    SetReg(1, {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB}); /* nibbles 1..C */
    SetReg(2, {0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45}); /* nibbles F..4 */
    ASSERT_EQ(tl_exec_concat(s(), 1, 3, 1, 2), TL_OK);
    /* i = 0: [4,5,6 | F,E,D], i = 1: [A,B,C | 9,8,7] */
    EXPECT_EQ(Reg(3, 7), (Bytes{0x54, 0xF6, 0xDE, 0xBA, 0x9C, 0x78, 0x00}));
}

TEST_F(MoveTest, ConcatIgnoresMaskBitsBeyondTheDim)
{
    SetShape(1, 1, 4);
    Masks(0xFFFFFFF1, 0xF0000002);
    SetReg(1, {1, 2, 3, 4});
    SetReg(2, {5, 6, 7, 8});
    ASSERT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 4), (Bytes{1, 6, 0, 0}));
}

TEST_F(MoveTest, ConcatSelectingMoreThanTheDimHoldsIsIllegal)
{
    SetShape(1, 1, 4);
    Masks(0b0111, 0b0011);
    SetReg(3, {9, 9, 9, 9});
    const auto before = Snapshot();
    EXPECT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_ERR_CONCAT_OVERFLOW);
    EXPECT_TRUE(Unchanged(*before));
    Masks(0b0111, 0b0001); /* exactly 4 */
    EXPECT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_OK);
}

TEST_F(MoveTest, ConcatAndMergeAlongADimAbove32AreIllegal)
{
    SetShape(1, 1, 64);
    Masks(0, 0);
    EXPECT_EQ(tl_exec_concat(s(), 2, 3, 1, 2), TL_ERR_CONCAT_DIM_TOO_BIG);
    EXPECT_EQ(tl_exec_merge(s(), 2, 3, 1, 2), TL_ERR_CONCAT_DIM_TOO_BIG);
    /* The other dims are small enough. */
    EXPECT_EQ(tl_exec_concat(s(), 0, 3, 1, 2), TL_OK);
    EXPECT_EQ(tl_exec_merge(s(), 1, 3, 1, 2), TL_OK);
    SetShape(1, 33, 1);
    EXPECT_EQ(tl_exec_concat(s(), 1, 3, 1, 2), TL_ERR_CONCAT_DIM_TOO_BIG);
    SetShape(32, 1, 1);
    EXPECT_EQ(tl_exec_concat(s(), 0, 3, 1, 2), TL_OK);
}

TEST_F(MoveTest, ConcatWithDestinationAliasingASource)
{
    SetShape(1, 1, 4);
    Masks(0x0C, 0x03);
    SetReg(1, {0xA, 0xB, 0xC, 0xD});
    SetReg(2, {0xE, 0xF, 0x10, 0x11});
    ASSERT_EQ(tl_exec_concat(s(), 2, 1, 1, 2), TL_OK);
    EXPECT_EQ(Reg(1, 4), (Bytes{0xC, 0xD, 0xE, 0xF}));
    SetReg(1, {0xA, 0xB, 0xC, 0xD});
    ASSERT_EQ(tl_exec_concat(s(), 2, 2, 1, 2), TL_OK);
    EXPECT_EQ(Reg(2, 4), (Bytes{0xC, 0xD, 0xE, 0xF}));
    /* Both sources the same register as the destination. */
    SetReg(1, {0xA, 0xB, 0xC, 0xD});
    ASSERT_EQ(tl_exec_concat(s(), 2, 1, 1, 1), TL_OK);
    EXPECT_EQ(Reg(1, 4), (Bytes{0xC, 0xD, 0xA, 0xB}));
}

TEST_F(MoveTest, ConcatWithTl0)
{
    SetShape(1, 1, 4);
    Masks(0x0C, 0x03);
    SetReg(1, {0xA, 0xB, 0xC, 0xD});
    ASSERT_EQ(tl_exec_concat(s(), 2, 3, 1, 0), TL_OK);
    EXPECT_EQ(Reg(3, 4), (Bytes{0xC, 0xD, 0, 0}));
    ASSERT_EQ(tl_exec_concat(s(), 2, 0, 1, 3), TL_OK);
    EXPECT_TRUE(RegIsAll(0, 0));
    /* The checks still apply to a tl0 destination. */
    Masks(0x0F, 0x0F);
    EXPECT_EQ(tl_exec_concat(s(), 2, 0, 1, 3), TL_ERR_CONCAT_OVERFLOW);
}

/* ---- merge ---- */

TEST_F(MoveTest, MergeTakesRs1WhereTheMaskBitIsSet)
{
    SetShape(1, 1, 4);
    Csr(TL_CSR_TMASK_CONCAT_1, 0b0101);
    SetReg(1, {0x11, 0x12, 0x13, 0x14});
    SetReg(2, {0x21, 0x22, 0x23, 0x24});
    SetReg(3, {}, 0xAA);
    /* tmask_concat_2 is not needed. */
    ASSERT_EQ(tl_exec_merge(s(), 2, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 4), (Bytes{0x11, 0x22, 0x13, 0x24}));
    EXPECT_TRUE(RegIsAll(3, 0, 4));
}

TEST_F(MoveTest, MergeInt16Dim0)
{
    Type(kInt16);
    SetShape(3, 1, 2);
    Csr(TL_CSR_TMASK_CONCAT_1, 0b010);
    SetReg(1, {0x01, 0x10, 0x02, 0x10, 0x03, 0x10, 0x04, 0x10, 0x05, 0x10, 0x06, 0x10});
    SetReg(2, {0x01, 0x20, 0x02, 0x20, 0x03, 0x20, 0x04, 0x20, 0x05, 0x20, 0x06, 0x20});
    ASSERT_EQ(tl_exec_merge(s(), 0, 3, 1, 2), TL_OK);
    EXPECT_EQ(Reg(3, 14), (Bytes{0x01, 0x20, 0x02, 0x20, 0x03, 0x10, 0x04, 0x10,
                                 0x05, 0x20, 0x06, 0x20, 0x00, 0x00}));
}

TEST_F(MoveTest, MergeInt4Dim2MovesNibbles)
{
    Type(kInt4);
    SetShape(1, 2, 3); /* S = 3 bytes */
    Csr(TL_CSR_TMASK_CONCAT_1, 0b101);
    SetReg(1, {0x21, 0x43, 0x65});          /* nibbles 1..6 */
    SetReg(2, {0xBA, 0xDC, 0xFE}, 0x99);    /* nibbles A..F */
    ASSERT_EQ(tl_exec_merge(s(), 2, 3, 1, 2), TL_OK);
    /* rows [1,B,3] [4,E,6] */
    EXPECT_EQ(Reg(3, 4), (Bytes{0xB1, 0x43, 0x6E, 0x00}));
}

TEST_F(MoveTest, MergeDim1AliasedWithTl0Source)
{
    SetShape(2, 2, 2);
    Csr(TL_CSR_TMASK_CONCAT_1, 0b01);
    SetReg(1, {1, 2, 3, 4, 5, 6, 7, 8});
    ASSERT_EQ(tl_exec_merge(s(), 1, 1, 1, 0), TL_OK);
    EXPECT_EQ(Reg(1, 8), (Bytes{1, 2, 0, 0, 5, 6, 0, 0}));
}

/* ---- xpose ---- */

/* A deterministic byte pattern with few repeats, used as input data. */
uint8_t Pattern(size_t i) { return uint8_t((i * 2654435761u) >> 13); }

class XposeTest : public MoveTest {
protected:
    void FillPattern(unsigned r1, unsigned r2)
    {
        for (size_t i = 0; i < TL_REG_BYTES; ++i) {
            s()->reg[r1][i] = Pattern(i);
            s()->reg[r2][i] = Pattern(i + TL_REG_BYTES);
        }
    }
    /* Byte i of the 2048-byte tensor held in (r1, r2). */
    uint8_t TensorByte(unsigned r1, unsigned r2, size_t i) const
    {
        return i < TL_REG_BYTES ? Reg(r1, i, 1)[0] : Reg(r2, i - TL_REG_BYTES, 1)[0];
    }
};

TEST_F(XposeTest, MatrixTransposeSeedExample)
{
    /* Seed 5.2: [32,64,1,1] -> [64,32,1,1], li x11, 0x01014020. */
    FillPattern(2, 3);
    ASSERT_EQ(tl_exec_xpose(s(), 0, 1, 2, 3, 0x01014020), TL_OK);
    for (size_t r = 0; r < 32; ++r) {
        for (size_t c = 0; c < 64; ++c) {
            ASSERT_EQ(TensorByte(2, 3, c * 32 + r), Pattern(r * 64 + c)) << r << "," << c;
        }
    }
    EXPECT_EQ(s()->reg[2][1], Pattern(64));   /* out[0][1] = in[1][0] */
    EXPECT_EQ(s()->reg[2][32], Pattern(1));   /* out[1][0] = in[0][1] */
    EXPECT_EQ(s()->reg[3][0], Pattern(32));   /* out[32][0] = in[0][32] */
    EXPECT_EQ(s()->reg[3][1023], Pattern(2047));
}

TEST_F(XposeTest, Swap01SeedExample)
{
    /* Seed 3.5: li x10, 0x02081008: [8,16,8,2] -> [16,8,8,2]. */
    FillPattern(1, 2);
    ASSERT_EQ(tl_exec_xpose(s(), 0, 1, 1, 2, 0x02081008), TL_OK);
    for (size_t i = 0; i < 8; ++i) {
        for (size_t j = 0; j < 16; ++j) {
            for (size_t k = 0; k < 8; ++k) {
                for (size_t l = 0; l < 2; ++l) {
                    const size_t out = ((j * 8 + i) * 8 + k) * 2 + l;
                    const size_t in = ((i * 16 + j) * 8 + k) * 2 + l;
                    ASSERT_EQ(TensorByte(1, 2, out), Pattern(in));
                }
            }
        }
    }
    EXPECT_EQ(s()->reg[1][16], Pattern(256)); /* out[0][1][0][0] = in[1][0][0][0] */
    EXPECT_EQ(s()->reg[1][128], Pattern(16)); /* out[1][0][0][0] = in[0][1][0][0] */
}

TEST_F(XposeTest, Swap23SeedExample)
{
    /* Seed 5.1 example 2: 0x02080810: [16,8,8,2] -> [16,8,2,8]. */
    FillPattern(1, 2);
    ASSERT_EQ(tl_exec_xpose(s(), 2, 3, 1, 2, 0x02080810), TL_OK);
    for (size_t i = 0; i < 16; ++i) {
        for (size_t j = 0; j < 8; ++j) {
            for (size_t k = 0; k < 8; ++k) {
                for (size_t l = 0; l < 2; ++l) {
                    const size_t out = ((i * 8 + j) * 2 + l) * 8 + k;
                    const size_t in = ((i * 8 + j) * 8 + k) * 2 + l;
                    ASSERT_EQ(TensorByte(1, 2, out), Pattern(in));
                }
            }
        }
    }
    EXPECT_EQ(s()->reg[1][1], Pattern(2)); /* out[0][0][0][1] = in[0][0][1][0] */
    EXPECT_EQ(s()->reg[1][8], Pattern(1)); /* out[0][0][1][0] = in[0][0][0][1] */
}

TEST_F(XposeTest, SwapOrderOfTheDimFieldsDoesNotMatter)
{
    FillPattern(1, 2);
    FillPattern(3, 4);
    ASSERT_EQ(tl_exec_xpose(s(), 0, 2, 1, 2, XposeDims(4, 8, 16, 4)), TL_OK);
    ASSERT_EQ(tl_exec_xpose(s(), 2, 0, 3, 4, XposeDims(4, 8, 16, 4)), TL_OK);
    EXPECT_EQ(Reg(1), Reg(3));
    EXPECT_EQ(Reg(2), Reg(4));
    /* out[k][j][i][l] = in[i][j][k][l], dims [4,8,16,4] -> [16,8,4,4] */
    EXPECT_EQ(s()->reg[1][4], Pattern(512)); /* out[0][0][1][0] = in[1][0][0][0] */
    EXPECT_EQ(s()->reg[1][128], Pattern(4)); /* out[1][0][0][0] = in[0][0][1][0] */
}

TEST_F(XposeTest, Int16Swap03)
{
    /* [4,8,8,4] is the seed's erratum for int8 (1024 bytes) but 2048 bytes of int16. */
    Type(kInt16);
    FillPattern(5, 6);
    tl_state before;
    memcpy(&before, s(), sizeof before);
    ASSERT_EQ(tl_exec_xpose(s(), 0, 3, 5, 6, 0x04080804), TL_OK);
    auto in16 = [&](size_t e) {
        const uint8_t *p = e < 512 ? before.reg[5] + 2 * e : before.reg[6] + 2 * (e - 512);
        return uint32_t(p[0]) | uint32_t(p[1]) << 8;
    };
    auto out16 = [&](size_t e) { return e < 512 ? Reg16(5, e) : Reg16(6, e - 512); };
    for (size_t i = 0; i < 4; ++i) {
        for (size_t j = 0; j < 8; ++j) {
            for (size_t k = 0; k < 8; ++k) {
                for (size_t l = 0; l < 4; ++l) {
                    ASSERT_EQ(out16(((l * 8 + j) * 8 + k) * 4 + i),
                              in16(((i * 8 + j) * 8 + k) * 4 + l));
                }
            }
        }
    }
    /* out element 1 = out[0][0][0][1] = in[1][0][0][0] = input element 256 */
    EXPECT_EQ(Reg16(5, 1), uint32_t(Pattern(512)) | uint32_t(Pattern(513)) << 8);
}

TEST_F(XposeTest, Int32Swap12)
{
    Type(kInt32);
    for (size_t e = 0; e < 256; ++e) {
        SetReg32(1, e, 0x10000 + e);
        SetReg32(2, e, 0x20000 + e);
    }
    ASSERT_EQ(tl_exec_xpose(s(), 1, 2, 1, 2, XposeDims(2, 16, 16, 1)), TL_OK);
    /* out[i][k][j] = in[i][j][k]; element n of the input holds 0x10000 + n (first half). */
    EXPECT_EQ(Reg32(1, 0), 0x10000u);
    EXPECT_EQ(Reg32(1, 1), 0x10010u);  /* out[0][0][1] = in[0][1][0] = element 16 */
    EXPECT_EQ(Reg32(1, 16), 0x10001u); /* out[0][1][0] = in[0][0][1] */
    EXPECT_EQ(Reg32(2, 0), 0x20000u);  /* out[1][0][0] = in[1][0][0] */
    EXPECT_EQ(Reg32(2, 255), 0x200FFu);
    EXPECT_EQ(Reg32(2, 3), 0x20030u);  /* out[1][0][3] = in[1][3][0] */
}

TEST_F(XposeTest, Int4Swap03MovesNibbles)
{
    /*
     * [2,16,128,1] -> [1,16,128,2]: out[0][j][k][i] = in[i][j][k][0], so with
     * m = j*128 + k output nibble 2m + i is nibble m of half i: output byte m
     * is (low: nibble m of tlrs1, high: nibble m of tlrs2).
     */
    Type(kInt4);
    SetReg(1, {}, 0x21); /* nibble m of tlrs1: 1 for even m, 2 for odd m */
    SetReg(2, {}, 0x43); /* nibble m of tlrs2: 3 for even m, 4 for odd m */
    ASSERT_EQ(tl_exec_xpose(s(), 0, 3, 1, 2, XposeDims(2, 16, 128, 1)), TL_OK);
    for (size_t b = 0; b < TL_REG_BYTES; ++b) {
        ASSERT_EQ(s()->reg[1][b], b % 2 ? 0x42 : 0x31) << b;
        ASSERT_EQ(s()->reg[2][b], b % 2 ? 0x42 : 0x31) << b;
    }
}

TEST_F(XposeTest, Int4Swap23WithSingleNibbleRuns)
{
    Type(kInt4);
    FillPattern(1, 2);
    tl_state before;
    memcpy(&before, s(), sizeof before);
    auto in4 = [&](size_t n) {
        const uint8_t *half = n < 2048 ? before.reg[1] : before.reg[2];
        const size_t m = n % 2048;
        return (half[m / 2] >> (4 * (m % 2))) & 0xF;
    };
    auto out4 = [&](size_t n) { return n < 2048 ? Nibble(1, n) : Nibble(2, n - 2048); };
    ASSERT_EQ(tl_exec_xpose(s(), 2, 3, 1, 2, XposeDims(2, 8, 2, 128)), TL_OK);
    for (size_t i = 0; i < 2; ++i) {
        for (size_t j = 0; j < 8; ++j) {
            for (size_t k = 0; k < 2; ++k) {
                for (size_t l = 0; l < 128; ++l) {
                    ASSERT_EQ(out4(((i * 8 + j) * 128 + l) * 2 + k),
                              in4(((i * 8 + j) * 2 + k) * 128 + l));
                }
            }
        }
    }
    /* out nibble 1 = out[0][0][0][1] = in[0][0][1][0] = input nibble 128 = low nibble of byte 64 */
    EXPECT_EQ(Nibble(1, 1), unsigned(Pattern(64) & 0xF));
}

TEST_F(XposeTest, SameDimIsANoOp)
{
    FillPattern(1, 2);
    const auto before = Snapshot();
    for (unsigned d = 0; d < 4; ++d) {
        EXPECT_EQ(tl_exec_xpose(s(), d, d, 1, 2, 0x02081008), TL_OK);
    }
    EXPECT_TRUE(Unchanged(*before));
}

TEST_F(XposeTest, Tl0HalvesReadAsZeroAndAreDiscarded)
{
    FillPattern(1, 2);
    /* tl0 as the second half: [32,64] transpose of a tensor whose rows 16..31 are zero. */
    ASSERT_EQ(tl_exec_xpose(s(), 0, 1, 1, 0, 0x01014020), TL_OK);
    EXPECT_TRUE(RegIsAll(0, 0));
    for (size_t c = 0; c < 32; ++c) { /* output rows 0..31 land in reg 1 */
        for (size_t r = 0; r < 32; ++r) {
            ASSERT_EQ(s()->reg[1][c * 32 + r], r < 16 ? Pattern(r * 64 + c) : 0);
        }
    }
    /* tl0 as the first half with dim0 == dim1: the other register keeps its data. */
    const Bytes kept = Reg(2);
    ASSERT_EQ(tl_exec_xpose(s(), 1, 1, 0, 2, 0x01014020), TL_OK);
    EXPECT_EQ(Reg(2), kept);
    EXPECT_TRUE(RegIsAll(0, 0));
}

TEST_F(XposeTest, UpperBitsOfTheDimsRegisterAreIgnored)
{
    FillPattern(1, 2);
    FillPattern(3, 4);
    ASSERT_EQ(tl_exec_xpose(s(), 0, 1, 1, 2, 0x01014020), TL_OK);
    ASSERT_EQ(tl_exec_xpose(s(), 0, 1, 3, 4, 0xFFFFFFFF01014020ull), TL_OK);
    EXPECT_EQ(Reg(1), Reg(3));
    EXPECT_EQ(Reg(2), Reg(4));
}

TEST_F(XposeTest, IllegalDimsAndRegisters)
{
    FillPattern(1, 2);
    const auto before = Snapshot();
    struct Case {
        uint32_t ttype;
        uint64_t dims;
        unsigned rs2;
        tl_status expected;
        const char *why;
    } cases[] = {
        {kInt8, 0x04080804, 2, TL_ERR_XPOSE_SHAPE, "seed erratum [4,8,8,4]: 1024 bytes"},
        {kInt8, XposeDims(0, 64, 1, 1), 2, TL_ERR_XPOSE_SHAPE, "D0 = 0"},
        {kInt8, XposeDims(32, 64, 0, 1), 2, TL_ERR_XPOSE_SHAPE, "D2 = 0"},
        {kInt8, XposeDims(32, 64, 2, 1), 2, TL_ERR_XPOSE_SHAPE, "4096 bytes"},
        {kInt16, XposeDims(32, 64, 1, 1), 2, TL_ERR_XPOSE_SHAPE, "4096 bytes of int16"},
        {kInt4, XposeDims(32, 64, 1, 1), 2, TL_ERR_XPOSE_SHAPE, "1024 bytes of int4"},
        {kInt8, XposeDims(1, 128, 16, 1), 2, TL_ERR_XPOSE_ODD_D0, "D0 = 1"},
        {kInt8, XposeDims(3, 1, 1, 1), 2, TL_ERR_XPOSE_SHAPE, "shape before parity"},
        {kInt8, XposeDims(32, 64, 1, 1), 1, TL_ERR_XPOSE_SAME_REG, "rs1 == rs2"},
        {kInt8, XposeDims(1, 128, 16, 1), 1, TL_ERR_XPOSE_ODD_D0, "parity before same-reg"},
        {kInt8, XposeDims(0, 0, 0, 0), 1, TL_ERR_XPOSE_SHAPE, "shape before same-reg"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.why);
        Type(c.ttype);
        EXPECT_EQ(tl_exec_xpose(s(), 0, 1, 1, c.rs2, c.dims), c.expected);
        /* A swap of a dim with itself is checked the same way. */
        EXPECT_EQ(tl_exec_xpose(s(), 2, 2, 1, c.rs2, c.dims), c.expected);
    }
    Type(kInt8);
    EXPECT_TRUE(Unchanged(*before));
    EXPECT_EQ(tl_exec_xpose(s(), 0, 0, 0, 0, 0x01014020), TL_ERR_XPOSE_SAME_REG);
}

/* ---- fillpad ---- */

TEST_F(MoveTest, FillpadInt8AllPadKinds)
{
    SetShape(2, 2, 3);
    Valid(1, 2, 2);
    const Bytes src = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    struct Case {
        tl_pad_kind pad;
        uint8_t p;
    } cases[] = {{TL_PAD_ZERO, 0x00}, {TL_PAD_MIN, 0x00}, {TL_PAD_MAX, 0xFF}};
    for (const Case &c : cases) {
        SCOPED_TRACE(c.pad);
        SetReg(1, src, 0x77);
        SetReg(2, {}, 0xAA);
        ASSERT_EQ(tl_exec_fillpad(s(), c.pad, 2, 1), TL_OK);
        const uint8_t p = c.p;
        EXPECT_EQ(Reg(2, 12), (Bytes{1, 2, p, 4, 5, p, p, p, p, p, p, p}));
        EXPECT_TRUE(RegIsAll(2, 0, 12));
    }
}

struct PadCase {
    uint32_t ttype;
    uint32_t min, max;
    const char *name;
};

TEST_F(MoveTest, FillpadMinAndMaxOfEveryType)
{
    /* -inf/+inf where the format has them, else the lowest/highest finite value. */
    const PadCase cases[] = {
        {kInt8, 0x00, 0xFF, "int8"},
        {kInt16, 0x0000, 0xFFFF, "int16"},
        {kInt32, 0x00000000, 0xFFFFFFFF, "int32"},
        {kE4M3, 0xFE, 0x7E, "e4m3: -448, +448"},
        {kE5M2, 0xFC, 0x7C, "e5m2: -inf, +inf"},
        {kE3M4, 0xF0, 0x70, "e3m4: -inf, +inf"},
        {kFp16, 0xFC00, 0x7C00, "fp16"},
        {kBf16, 0xFF80, 0x7F80, "bf16"},
        {kFp32, 0xFF800000, 0x7F800000, "fp32"},
    };
    for (const PadCase &c : cases) {
        SCOPED_TRACE(c.name);
        const unsigned bytes = tl_ttype_element_bits(c.ttype) / 8;
        Type(c.ttype);
        SetShape(1, 1, 2);
        Valid(1, 1, 1);
        SetReg(1, {0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A}, 0x33);
        for (tl_pad_kind pad : {TL_PAD_MIN, TL_PAD_MAX, TL_PAD_ZERO}) {
            const uint32_t p = pad == TL_PAD_MIN ? c.min : pad == TL_PAD_MAX ? c.max : 0;
            ASSERT_EQ(tl_exec_fillpad(s(), pad, 2, 1), TL_OK);
            Bytes expected(2 * bytes + 1, 0x5A);
            for (unsigned k = 0; k < bytes; ++k) {
                expected[bytes + k] = uint8_t(p >> (8 * k));
            }
            expected[2 * bytes] = 0;
            EXPECT_EQ(Reg(2, 2 * bytes + 1), expected) << "pad " << pad;
        }
    }
}

TEST_F(MoveTest, FillpadFourBitTypes)
{
    const PadCase cases[] = {{kInt4, 0x0, 0xF, "int4"}, {kE2M1, 0xF, 0x7, "e2m1: -6, +6"}};
    for (const PadCase &c : cases) {
        SCOPED_TRACE(c.name);
        Type(c.ttype);
        SetShape(1, 2, 3); /* S = 3 bytes */
        Valid(1, 2, 1);
        SetReg(1, {0x21, 0x43, 0x65}, 0x99); /* rows [1,2,3] [4,5,6] */
        ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MIN, 2, 1), TL_OK);
        const uint8_t lo = uint8_t(c.min), hi = uint8_t(c.max);
        /* rows [1,p,p] [4,p,p] */
        EXPECT_EQ(Reg(2, 4), (Bytes{uint8_t(lo << 4 | 1), uint8_t(4 << 4 | lo),
                                    uint8_t(lo << 4 | lo), 0}));
        ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 2, 1), TL_OK);
        EXPECT_EQ(Reg(2, 4), (Bytes{uint8_t(hi << 4 | 1), uint8_t(4 << 4 | hi),
                                    uint8_t(hi << 4 | hi), 0}));
    }
}

TEST_F(MoveTest, FillpadFullAndEmptyValidRegions)
{
    SetShape(1, 2, 2);
    SetReg(1, {1, 2, 3, 4}, 0x77);
    Valid(1, 2, 2);
    ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 2, 1), TL_OK);
    EXPECT_EQ(Reg(2, 5), (Bytes{1, 2, 3, 4, 0}));
    Valid(0, 2, 2);
    ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 2, 1), TL_OK);
    EXPECT_EQ(Reg(2, 5), (Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0}));
    Valid(1, 1, 0);
    ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 2, 1), TL_OK);
    EXPECT_EQ(Reg(2, 5), (Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0}));
}

TEST_F(MoveTest, FillpadInPlaceAndWithTl0)
{
    Type(kInt16);
    SetShape(1, 1, 3);
    Valid(1, 1, 2);
    SetReg(1, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06}, 0x77);
    ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 1, 1), TL_OK);
    EXPECT_EQ(Reg(1, 8), (Bytes{0x01, 0x02, 0x03, 0x04, 0xFF, 0xFF, 0, 0}));
    ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 1, 0), TL_OK);
    EXPECT_EQ(Reg(1, 8), (Bytes{0, 0, 0, 0, 0xFF, 0xFF, 0, 0}));
    ASSERT_EQ(tl_exec_fillpad(s(), TL_PAD_MAX, 0, 1), TL_OK);
    EXPECT_TRUE(RegIsAll(0, 0));
}

TEST_F(MoveTest, FillpadValidBeyondShapeIsIllegal)
{
    SetShape(2, 3, 4);
    for (uint32_t v : {Shape(3, 3, 4), Shape(2, 4, 4), Shape(2, 3, 5)}) {
        SCOPED_TRACE(v);
        Csr(TL_CSR_TVALID, v);
        SetReg(2, {}, 0x55);
        const auto before = Snapshot();
        EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 2, 1), TL_ERR_VALID_RANGE);
        EXPECT_TRUE(Unchanged(*before));
    }
    Valid(2, 3, 4);
    EXPECT_EQ(tl_exec_fillpad(s(), TL_PAD_ZERO, 2, 1), TL_OK);
}

} // namespace
} // namespace tltest
