/*
 * tl.addi and tl.muls for every element type.  Every expected bit pattern is
 * derived by hand in the comment next to it (value, neighbours, tie rule).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cstdio>
#include <string>

#include "tl_test_support.h"

namespace tltest {
namespace {

struct ElemCase {
    uint32_t in;
    uint64_t operand; /* sign-extended imm8 for addi, x[rs2] for muls */
    uint32_t expected;
    const char *why;
};

std::string Hex(uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

class ArithTest : public TlTest {
protected:
    unsigned Bits() const { return tl_ttype_element_bits(tl_csr_read(state(), TL_CSR_TTYPE)); }
    size_t Elements() const { return TL_REG_BYTES * 8 / Bits(); }

    void Put(unsigned r, size_t e, uint32_t v)
    {
        switch (Bits()) {
        case 4: {
            uint8_t &b = s()->reg[r][e / 2];
            b = uint8_t(e % 2 ? (b & 0x0F) | (v << 4) : (b & 0xF0) | (v & 0xF));
            break;
        }
        case 8: s()->reg[r][e] = uint8_t(v); break;
        case 16: SetReg16(r, e, v); break;
        default: SetReg32(r, e, v); break;
        }
    }
    uint32_t Get(unsigned r, size_t e) const
    {
        switch (Bits()) {
        case 4: return Nibble(r, e);
        case 8: return state()->reg[r][e];
        case 16: return Reg16(r, e);
        default: return Reg32(r, e);
        }
    }

    /* Each case at the first and the last element of the register. */
    template <class Exec>
    void Run(uint32_t ttype, std::initializer_list<ElemCase> cases, Exec exec)
    {
        Type(ttype);
        for (const ElemCase &c : cases) {
            SCOPED_TRACE(Hex(c.in) + " op " + Hex(c.operand) + ": " + c.why);
            SetReg(1, {});
            Put(1, 0, c.in);
            Put(1, Elements() - 1, c.in);
            ASSERT_EQ(exec(c.operand), TL_OK);
            EXPECT_EQ(Hex(Get(2, 0)), Hex(c.expected));
            EXPECT_EQ(Hex(Get(2, Elements() - 1)), Hex(c.expected));
        }
    }
    void Addi(uint32_t ttype, std::initializer_list<ElemCase> cases)
    {
        Run(ttype, cases, [this](uint64_t imm) {
            return tl_exec_addi(s(), 2, 1, int32_t(int64_t(imm)));
        });
    }
    void Muls(uint32_t ttype, std::initializer_list<ElemCase> cases)
    {
        Run(ttype, cases, [this](uint64_t scalar) { return tl_exec_muls(s(), 2, 1, scalar); });
    }
};

constexpr uint64_t Imm(int v) { return uint64_t(int64_t(v)); }

/* ---- addi, integers ---- */

TEST_F(ArithTest, AddiInt8SeedExamples)
{
    /* Seed 4.4.4. */
    Addi(kInt8, {
        {200, Imm(100), 255, "saturates"},
        {50, Imm(-100), 0, "saturates at 0"},
        {128, Imm(10), 138, "normal"},
        {30, Imm(-20), 10, "normal"},
    });
}

TEST_F(ArithTest, AddiInt8SeedBoundaryExampleOnAWholeRegister)
{
    /* Seed 5.4 example 4: [250,10,128,200] + 100 and - 50. */
    SetReg(4, {250, 10, 128, 200}, 0);
    ASSERT_EQ(tl_exec_addi(s(), 5, 4, 100), TL_OK);
    EXPECT_EQ(Reg(5, 4), (Bytes{255, 110, 228, 255}));
    EXPECT_TRUE(RegIsAll(5, 100, 4)) << "every byte of the register, not only a block";
    ASSERT_EQ(tl_exec_addi(s(), 6, 4, -50), TL_OK);
    EXPECT_EQ(Reg(6, 4), (Bytes{200, 0, 78, 150}));
    EXPECT_TRUE(RegIsAll(6, 0, 4));
}

TEST_F(ArithTest, AddiInt4)
{
    Addi(kInt4, {
        {15, Imm(1), 15, "saturates at 15"},
        {0, Imm(1), 1, ""},
        {7, Imm(1), 8, ""},
        {8, Imm(1), 9, "unsigned: 8 is not negative"},
        {15, Imm(-8), 7, ""},
        {3, Imm(-8), 0, "saturates at 0"},
        {5, Imm(-128), 0, ""},
        {0, Imm(127), 15, ""},
        {9, Imm(0), 9, ""},
    });
}

TEST_F(ArithTest, AddiInt4KeepsNeighbouringNibblesApart)
{
    Type(kInt4);
    SetReg(1, {0xF0, 0x87}, 0x00);
    ASSERT_EQ(tl_exec_addi(s(), 2, 1, 1), TL_OK);
    /* nibbles [0,F,7,8] + 1 -> [1,F,8,9] */
    EXPECT_EQ(Reg(2, 3), (Bytes{0xF1, 0x98, 0x11}));
}

TEST_F(ArithTest, AddiInt16)
{
    Addi(kInt16, {
        {65535, Imm(1), 65535, "saturates"},
        {100, Imm(-128), 0, "saturates at 0"},
        {0x1234, Imm(127), 0x12B3, ""},
        {65500, Imm(35), 65535, ""},
        {65500, Imm(34), 65534, ""},
    });
}

TEST_F(ArithTest, AddiInt32)
{
    Addi(kInt32, {
        {0xFFFFFFFF, Imm(1), 0xFFFFFFFF, "saturates"},
        {5, Imm(-6), 0, "saturates at 0"},
        {0x80000000, Imm(-1), 0x7FFFFFFF, "unsigned: bit 31 is magnitude"},
        {0xFFFFFF80, Imm(127), 0xFFFFFFFF, "exactly the maximum"},
        {0xFFFFFF81, Imm(127), 0xFFFFFFFF, "one above"},
        {0, Imm(-128), 0, ""},
    });
}

TEST_F(ArithTest, AddiInPlaceFromTl0AndToTl0)
{
    SetReg(3, {1, 2, 3}, 250);
    ASSERT_EQ(tl_exec_addi(s(), 3, 3, 10), TL_OK);
    EXPECT_EQ(Reg(3, 4), (Bytes{11, 12, 13, 255}));
    ASSERT_EQ(tl_exec_addi(s(), 3, 0, 5), TL_OK);
    EXPECT_TRUE(RegIsAll(3, 5));
    ASSERT_EQ(tl_exec_addi(s(), 0, 3, 5), TL_OK);
    EXPECT_TRUE(RegIsAll(0, 0));
}

/* ---- addi, floats ---- */

TEST_F(ArithTest, AddiFp32)
{
    Addi(kFp32, {
        {0x3F800000, Imm(1), 0x40000000, "1 + 1 = 2"},
        {0x80000000, Imm(0), 0x00000000, "-0 + 0 = +0"},
        {0x00000000, Imm(-3), 0xC0400000, "0 - 3 = -3"},
        {0x40200000, Imm(-2), 0x3F000000, "2.5 - 2 = 0.5"},
        {0xBF800000, Imm(1), 0x00000000, "-1 + 1 = +0"},
        {0xC2FE0000, Imm(127), 0x00000000, "-127 + 127 = +0"},
        {0xC2FF0000, Imm(127), 0xBF000000, "-127.5 + 127 = -0.5"},
        {0x4B800000, Imm(1), 0x4B800000, "2^24 + 1: tie, even is 2^24"},
        {0x4B800000, Imm(3), 0x4B800002, "2^24 + 3: tie between +2 (odd) and +4"},
        {0x4B800001, Imm(1), 0x4B800002, "2^24+2 + 1: tie between +2 (odd) and +4"},
        {0x4C000000, Imm(-1), 0x4C000000, "2^25 - 1: tie between 2^25-2 (odd) and 2^25"},
        {0x4C000000, Imm(2), 0x4C000000, "2^25 + 2: tie between 2^25 and 2^25+4 (odd)"},
        {0x4C000000, Imm(3), 0x4C000001, "2^25 + 3 nearer 2^25+4"},
        {0x4E800000, Imm(64), 0x4E800000, "2^30 + 64: tie, ulp 128"},
        {0x4E800001, Imm(64), 0x4E800002, "2^30+128 + 64: tie, even is 2^30+256"},
        {0x4E800000, Imm(-64), 0x4E7FFFFF, "2^30 - 64 exact, ulp below 2^30 is 64"},
        {0x4E800000, Imm(-65), 0x4E7FFFFF, "2^30 - 65 nearer 2^30 - 64"},
        {0x5D800000, Imm(-1), 0x5D800000, "2^60 - 1 rounds back to 2^60"},
        {0x00000001, Imm(1), 0x3F800000, "2^-149 + 1 rounds to 1"},
        {0x80000001, Imm(1), 0x3F800000, "1 - 2^-149 rounds to 1"},
        {0x00400000, Imm(-1), 0xBF800000, "2^-127 - 1 rounds to -1"},
        {0x3F800001, Imm(-1), 0x34000000, "1+2^-23 - 1 = 2^-23 exactly"},
        {0x00000003, Imm(0), 0x00000003, "subnormals are kept"},
        {0x7F7FFFFF, Imm(127), 0x7F7FFFFF, "max + 127 rounds to max"},
        {0xFF7FFFFF, Imm(-128), 0xFF7FFFFF, "-max - 128 rounds to -max"},
        {0x7F800000, Imm(-128), 0x7F800000, "inf stays"},
        {0xFF800000, Imm(5), 0xFF800000, "-inf stays"},
        {0x7F800001, Imm(1), 0x7FC00000, "signalling NaN -> canonical"},
        {0xFFC00000, Imm(0), 0x7FC00000, "negative NaN -> canonical"},
    });
}

TEST_F(ArithTest, AddiFp16)
{
    Addi(kFp16, {
        {0x3C00, Imm(1), 0x4000, "1 + 1 = 2"},
        {0x6800, Imm(1), 0x6800, "2048 + 1: tie, ulp 2, even is 2048"},
        {0x6800, Imm(3), 0x6802, "2048 + 3: tie between 2050 (odd) and 2052"},
        {0x0000, Imm(127), 0x57F0, "127 = 1.984375 * 2^6"},
        {0x7BFF, Imm(127), 0x7BFF, "65504 + 127 -> 65536 -> clamp"},
        {0x7BFF, Imm(16), 0x7BFF, "65520: tie to 65536 -> clamp"},
        {0xFBFF, Imm(-128), 0xFBFF, "clamp to -max"},
        {0x7C00, Imm(-1), 0x7C00, "inf stays"},
        {0x7C01, Imm(0), 0x7E00, "NaN"},
        {0xFE00, Imm(1), 0x7E00, "negative NaN"},
        {0x0001, Imm(0), 0x0001, "subnormal kept"},
        {0x0001, Imm(1), 0x3C00, "1 + 2^-24 rounds to 1"},
        {0xC000, Imm(2), 0x0000, "-2 + 2 = +0"},
        {0x8000, Imm(0), 0x0000, "-0 + 0 = +0"},
        {0x3800, Imm(-1), 0xB800, "0.5 - 1 = -0.5"},
    });
}

TEST_F(ArithTest, AddiBf16)
{
    Addi(kBf16, {
        {0x3F80, Imm(1), 0x4000, "1 + 1 = 2"},
        {0x4380, Imm(1), 0x4380, "256 + 1: tie, ulp 2"},
        {0x4380, Imm(3), 0x4382, "256 + 3: tie between 258 (odd) and 260"},
        {0x0000, Imm(-127), 0xC2FE, "-127 fits 8 bits"},
        {0x7F7F, Imm(127), 0x7F7F, "max stays"},
        {0x0001, Imm(1), 0x3F80, "2^-133 + 1 rounds to 1"},
        {0x0001, Imm(0), 0x0001, "subnormal kept"},
        {0x3F81, Imm(-1), 0x3C00, "1+2^-7 - 1 = 2^-7"},
        {0x7F81, Imm(0), 0x7FC0, "NaN"},
        {0xFF80, Imm(-3), 0xFF80, "-inf stays"},
    });
}

TEST_F(ArithTest, AddiE5M2)
{
    /* E5M2: bias 15, 2 fraction bits, inf 0x7C, max 0x7B = 57344. */
    Addi(kE5M2, {
        {0x3C, Imm(1), 0x40, "1 + 1 = 2"},
        {0x44, Imm(1), 0x45, "4 + 1 = 5 = 1.25 * 4"},
        {0x48, Imm(1), 0x48, "8 + 1: tie between 8 and 10 (odd)"},
        {0x48, Imm(3), 0x4A, "8 + 3: tie between 10 (odd) and 12"},
        {0x00, Imm(100), 0x56, "100 nearest 96 = 1.5 * 64"},
        {0x00, Imm(127), 0x58, "127 nearest 128"},
        {0x00, Imm(-128), 0xD8, "-128"},
        {0x7A, Imm(127), 0x7A, "49152 + 127, ulp 8192"},
        {0x7B, Imm(127), 0x7B, "max stays"},
        {0xFB, Imm(-128), 0xFB, "-max stays"},
        {0x7C, Imm(1), 0x7C, "inf stays"},
        {0x7D, Imm(0), 0x7E, "NaN"},
        {0xFF, Imm(0), 0x7E, "negative NaN"},
        {0x01, Imm(0), 0x01, "subnormal 2^-16 kept"},
        {0x01, Imm(1), 0x3C, "1 + 2^-16 rounds to 1"},
        {0xBC, Imm(1), 0x00, "-1 + 1 = +0"},
    });
}

TEST_F(ArithTest, AddiE4M3)
{
    /* E4M3FN: bias 7, 3 fraction bits, no inf, NaN S.1111.111, max 0x7E = 448. */
    Addi(kE4M3, {
        {0x38, Imm(1), 0x40, "1 + 1 = 2"},
        {0x00, Imm(100), 0x6C, "100: tie between 96 and 104 (odd)"},
        {0x00, Imm(127), 0x70, "127 nearest 128"},
        {0x78, Imm(16), 0x78, "256 + 16: tie between 256 and 288 (odd)"},
        {0x78, Imm(17), 0x79, "273 nearer 288"},
        {0x7E, Imm(16), 0x7E, "448 + 16: tie between 448 and 480 (odd)"},
        {0x7E, Imm(127), 0x7E, "575 -> clamp to 448"},
        {0x7D, Imm(127), 0x7E, "416 + 127 = 543 -> 512 -> clamp"},
        {0xFE, Imm(-128), 0xFE, "-448 - 128 -> clamp to -448"},
        {0x7F, Imm(1), 0x7F, "NaN"},
        {0xFF, Imm(0), 0x7F, "negative NaN"},
        {0x01, Imm(0), 0x01, "subnormal 2^-9 kept"},
        {0x01, Imm(1), 0x38, "1 + 2^-9 rounds to 1"},
        {0x80, Imm(0), 0x00, "-0 + 0 = +0"},
    });
}

TEST_F(ArithTest, AddiE3M4)
{
    /* E3M4: bias 3, 4 fraction bits, inf 0x70, max 0x6F = 15.5. */
    Addi(kE3M4, {
        {0x30, Imm(1), 0x40, "1 + 1 = 2"},
        {0x60, Imm(1), 0x62, "8 + 1 = 9 = 1.125 * 8"},
        {0x5E, Imm(1), 0x61, "7.5 + 1 = 8.5 exact"},
        {0x5F, Imm(1), 0x62, "7.75 + 1 = 8.75: tie between 8.5 (odd) and 9"},
        {0x00, Imm(15), 0x6E, "15 = 1.875 * 8"},
        {0x6F, Imm(1), 0x6F, "16.5 -> clamp to 15.5"},
        {0x00, Imm(16), 0x6F, "16 -> clamp, not inf"},
        {0x00, Imm(-100), 0xEF, "-100 -> clamp to -15.5"},
        {0x01, Imm(1), 0x30, "1 + 2^-6 rounds to 1"},
        {0x01, Imm(0), 0x01, "subnormal kept"},
        {0x70, Imm(1), 0x70, "inf stays"},
        {0xF0, Imm(-1), 0xF0, "-inf stays"},
        {0x71, Imm(0), 0x78, "NaN"},
        {0xF8, Imm(0), 0x78, "negative NaN"},
    });
}

TEST_F(ArithTest, AddiE2M1)
{
    /* E2M1 values 0x0..0x7: 0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 is the sign. */
    Addi(kE2M1, {
        {0x0, Imm(1), 0x2, "0 + 1 = 1"},
        {0x0, Imm(5), 0x6, "5: tie between 4 and 6 (odd)"},
        {0x0, Imm(-1), 0xA, "-1"},
        {0x2, Imm(1), 0x4, "1 + 1 = 2"},
        {0x3, Imm(1), 0x4, "2.5: tie between 2 and 3 (odd)"},
        {0x1, Imm(1), 0x3, "1.5"},
        {0x1, Imm(-1), 0x9, "-0.5"},
        {0x5, Imm(2), 0x6, "5: tie -> 4"},
        {0x6, Imm(-1), 0x5, "4 - 1 = 3"},
        {0x7, Imm(1), 0x7, "7 -> clamp to 6"},
        {0x0, Imm(127), 0x7, "127 -> clamp to 6"},
        {0x7, Imm(-128), 0xF, "-122 -> clamp to -6"},
        {0x8, Imm(0), 0x0, "-0 + 0 = +0"},
        {0x9, Imm(1), 0x1, "-0.5 + 1 = 0.5"},
        {0xE, Imm(1), 0xD, "-4 + 1 = -3"},
        {0xC, Imm(2), 0x0, "-2 + 2 = +0"},
    });
}

/* ---- muls, integers ---- */

TEST_F(ArithTest, MulsInt8UsesTheFull64BitScalar)
{
    SetReg(1, {0, 1, 100, 255});
    ASSERT_EQ(tl_exec_muls(s(), 2, 1, 2), TL_OK);
    EXPECT_EQ(Reg(2, 4), (Bytes{0, 2, 200, 255}));
    ASSERT_EQ(tl_exec_muls(s(), 2, 1, 0), TL_OK);
    EXPECT_EQ(Reg(2, 4), (Bytes{0, 0, 0, 0}));
    ASSERT_EQ(tl_exec_muls(s(), 2, 1, ~0ull), TL_OK);
    EXPECT_EQ(Reg(2, 4), (Bytes{0, 255, 255, 255}));
    ASSERT_EQ(tl_exec_muls(s(), 2, 1, 0x100000000ull), TL_OK);
    EXPECT_EQ(Reg(2, 4), (Bytes{0, 255, 255, 255})) << "low 32 bits are zero";
    ASSERT_EQ(tl_exec_muls(s(), 2, 1, 1), TL_OK);
    EXPECT_EQ(Reg(2, 4), (Bytes{0, 1, 100, 255}));
}

TEST_F(ArithTest, MulsInt4)
{
    Muls(kInt4, {
        {0, 3, 0, ""},
        {1, 3, 3, ""},
        {7, 3, 15, "21 saturates"},
        {15, 3, 15, ""},
        {5, 0, 0, ""},
        {2, 0x8000000000000000ull, 15, "huge scalar"},
    });
}

TEST_F(ArithTest, MulsInt16)
{
    Muls(kInt16, {
        {300, 200, 60000, ""},
        {300, 219, 65535, "65700 saturates"},
        {1, 65535, 65535, ""},
        {2, 0x10000, 65535, ""},
        {0, ~0ull, 0, ""},
    });
}

TEST_F(ArithTest, MulsInt32)
{
    Muls(kInt32, {
        {7, 6, 42, ""},
        {0x10000, 0x10000, 0xFFFFFFFF, "2^32 saturates"},
        {0xFFFF, 0x10001, 0xFFFFFFFF, "exactly 2^32 - 1"},
        {3, 0x55555555, 0xFFFFFFFF, "exactly 2^32 - 1"},
        {2, 0x7FFFFFFF, 0xFFFFFFFE, ""},
        {1, 0xFFFFFFFF, 0xFFFFFFFF, ""},
        {1, 1ull << 40, 0xFFFFFFFF, "scalar above 32 bits"},
        {0, ~0ull, 0, ""},
    });
}

/* ---- muls, floats: the scalar is x[rs2][31:0] as binary32 ---- */

TEST_F(ArithTest, MulsFp32)
{
    Muls(kFp32, {
        {0x3FC00000, 0x40000000, 0x40400000, "1.5 * 2 = 3"},
        {0x3FC00000, 0xFFFFFFFF40000000ull, 0x40400000, "scalar bits 63:32 ignored"},
        {0xC0000000, 0x40400000, 0xC0C00000, "-2 * 3 = -6"},
        {0x00000000, 0xBF800000, 0x80000000, "0 * -1 = -0"},
        {0x80000000, 0xBF800000, 0x00000000, "-0 * -1 = +0"},
        {0x80000000, 0x40A00000, 0x80000000, "-0 * 5 = -0"},
        {0x7F800000, 0x00000000, 0x7FC00000, "inf * 0 = NaN"},
        {0x00000000, 0x7F800000, 0x7FC00000, "0 * inf = NaN"},
        {0x7F800000, 0xC0000000, 0xFF800000, "inf * -2 = -inf"},
        {0x3F800000, 0x7F800000, 0x7F800000, "1 * inf = inf"},
        {0x3F800000, 0x7FC00000, 0x7FC00000, "NaN scalar"},
        {0x00000000, 0xFFC00001, 0x7FC00000, "NaN scalar, zero element"},
        {0x7F7FFFFF, 0x40000000, 0x7F7FFFFF, "max * 2 -> clamp"},
        {0xFF7FFFFF, 0x40000000, 0xFF7FFFFF, "-max * 2 -> clamp"},
        {0x00000001, 0x3F000000, 0x00000000, "2^-150: tie between 0 and 2^-149 (odd)"},
        {0x80000001, 0x3F000000, 0x80000000, "-2^-150 -> -0"},
        {0x00000001, 0x3F400000, 0x00000001, "0.75 * 2^-149 -> 2^-149"},
        {0x00000003, 0x3F000000, 0x00000002, "1.5 * 2^-149: tie between 1 (odd) and 2"},
        {0x00800000, 0x3F000000, 0x00400000, "2^-126 / 2 = subnormal 2^-127"},
        {0x3F800001, 0x3F800001, 0x3F800002, "(1+u)^2 = 1 + 2u + u^2"},
        {0x3F800001, 0x3FC00000, 0x3FC00002, "1.5 + 1.5u: tie between +u (odd) and +2u"},
        {0x3F800003, 0x3FC00000, 0x3FC00004, "1.5 + 4.5u: tie between +4u and +5u (odd)"},
    });
}

TEST_F(ArithTest, MulsFp16)
{
    Muls(kFp16, {
        {0x3C00, 0x3DCCCCCD, 0x2E66, "0.1f: 1638.40002 * 2^-14 -> 1638 * 2^-14"},
        {0x3C00, 0x33800000, 0x0001, "2^-24"},
        {0x3C00, 0x33000000, 0x0000, "2^-25: tie between 0 and 2^-24 (odd)"},
        {0x3C00, 0x33000001, 0x0001, "just above 2^-25"},
        {0x6400, 0x30800000, 0x0010, "1024 * 2^-30 = 2^-20 = 16 * 2^-24"},
        {0x0001, 0x3F000000, 0x0000, "2^-25: tie -> 0"},
        {0x0001, 0x3FC00000, 0x0002, "1.5 * 2^-24: tie between 1 (odd) and 2"},
        {0x0003, 0x3F000000, 0x0002, "1.5 * 2^-24"},
        {0x7BFF, 0x40000000, 0x7BFF, "clamp"},
        {0x3C00, 0x71800000, 0x7BFF, "2^100 -> clamp"},
        {0x0000, 0x71800000, 0x0000, "0 * 2^100"},
        {0x8000, 0x71800000, 0x8000, "-0 * 2^100"},
        {0x7C00, 0x00000000, 0x7E00, "inf * 0"},
        {0x7C00, 0xBF800000, 0xFC00, "inf * -1"},
        {0x3C00, 0x7F800001, 0x7E00, "NaN scalar"},
        {0xBC00, 0x3F800000, 0xBC00, "-1 * 1"},
    });
}

TEST_F(ArithTest, MulsBf16)
{
    Muls(kBf16, {
        {0x3F80, 0x40400000, 0x4040, "1 * 3"},
        {0x3F81, 0x3FC00000, 0x3FC2, "1.5 + 1.5 ulp: tie between +1 (odd) and +2"},
        {0x3F80, 0x3F808000, 0x3F80, "1 + 2^-8: tie -> 1"},
        {0x3F80, 0x3F818000, 0x3F82, "1 + 3 * 2^-8: tie between 0x3F81 (odd) and 0x3F82"},
        {0x3F80, 0x3F808001, 0x3F81, "just above the tie"},
        {0x3F80, 0x7FC00000, 0x7FC0, "NaN scalar"},
        {0x3F80, 0x7F800000, 0x7F80, "inf scalar"},
        {0x7F7F, 0x40000000, 0x7F7F, "clamp"},
        {0x0001, 0x3F000000, 0x0000, "2^-134: tie -> 0"},
        {0x0001, 0x3F400000, 0x0001, "0.75 * 2^-133 -> 2^-133"},
    });
}

TEST_F(ArithTest, MulsE4M3)
{
    Muls(kE4M3, {
        {0x38, 0x40000000, 0x40, "1 * 2"},
        {0x38, 0x43E00000, 0x7E, "1 * 448"},
        {0x40, 0x43E00000, 0x7E, "896 -> clamp"},
        {0x7E, 0x3F880000, 0x7E, "476 -> 480 -> clamp"},
        {0x7E, 0xBF800000, 0xFE, "-448"},
        {0x38, 0x7F800000, 0x7E, "inf saturates"},
        {0x38, 0xFF800000, 0xFE, "-inf saturates"},
        {0x00, 0x7F800000, 0x7F, "0 * inf = NaN"},
        {0x38, 0x7FC00000, 0x7F, "NaN scalar"},
        {0x7F, 0x3F800000, 0x7F, "NaN element"},
        {0x38, 0x3F880000, 0x38, "1.0625: tie between 1 and 1.125 (odd)"},
        {0x38, 0x3F980000, 0x3A, "1.1875: tie between 1.125 (odd) and 1.25"},
        {0x08, 0x3E000000, 0x01, "2^-6 / 8 = 2^-9, smallest subnormal"},
        {0x01, 0x3F000000, 0x00, "2^-10: tie -> 0"},
        {0x01, 0xBF000000, 0x80, "-2^-10 -> -0"},
    });
}

TEST_F(ArithTest, MulsE5M2)
{
    Muls(kE5M2, {
        {0x3C, 0x40000000, 0x40, "1 * 2"},
        {0x3C, 0x7F800000, 0x7C, "inf"},
        {0x7C, 0x00000000, 0x7E, "inf * 0"},
        {0x7B, 0x40000000, 0x7B, "clamp"},
        {0x3C, 0x3F900000, 0x3C, "1.125: tie between 1 and 1.25 (odd)"},
        {0x3C, 0x3FB00000, 0x3E, "1.375: tie between 1.25 (odd) and 1.5"},
        {0xBC, 0x00000000, 0x80, "-1 * 0 = -0"},
        {0xFF, 0x3F800000, 0x7E, "NaN element"},
        {0x01, 0x3F000000, 0x00, "2^-17: tie -> 0"},
    });
}

TEST_F(ArithTest, MulsE3M4)
{
    Muls(kE3M4, {
        {0x30, 0x41780000, 0x6F, "1 * 15.5"},
        {0x30, 0x41800000, 0x6F, "16 -> clamp"},
        {0x30, 0x7F800000, 0x70, "inf"},
        {0x30, 0xFF800000, 0xF0, "-inf"},
        {0x30, 0x7FC00000, 0x78, "NaN scalar"},
        {0x70, 0x00000000, 0x78, "inf * 0"},
        {0x30, 0x3F840000, 0x30, "1 + 2^-5: tie between 1 and 1 + 2^-4 (odd)"},
        {0x30, 0x3F8C0000, 0x32, "1 + 3 * 2^-5: tie between 1 + 2^-4 (odd) and 1 + 2^-3"},
        {0x01, 0x3F000000, 0x00, "2^-7: tie -> 0"},
        {0x01, 0x3F400000, 0x01, "0.75 * 2^-6 -> 2^-6"},
    });
}

TEST_F(ArithTest, MulsE2M1)
{
    Muls(kE2M1, {
        {0x2, 0x40400000, 0x5, "1 * 3"},
        {0x5, 0x3FC00000, 0x6, "4.5 nearest 4"},
        {0x5, 0x40000000, 0x7, "6"},
        {0x7, 0x40000000, 0x7, "12 -> clamp"},
        {0x2, 0x40200000, 0x4, "2.5: tie between 2 and 3 (odd)"},
        {0x1, 0x3F000000, 0x0, "0.25: tie between 0 and 0.5 (odd)"},
        {0x1, 0xBF000000, 0x8, "-0.25 -> -0"},
        {0x1, 0x3F400000, 0x1, "0.375 nearest 0.5"},
        {0xA, 0xBF800000, 0x2, "-1 * -1"},
        {0x2, 0x7FC00000, 0x0, "NaN -> +0, E2M1 has no NaN"},
        {0x2, 0x7F800000, 0x7, "inf saturates"},
        {0x2, 0xFF800000, 0xF, "-inf saturates"},
        {0x0, 0x7F800000, 0x0, "0 * inf = NaN -> +0"},
    });
}

TEST_F(ArithTest, MulsFromTl0WithNaNFillsTheRegisterWithCanonicalNaN)
{
    Type(kFp16);
    ASSERT_EQ(tl_exec_muls(s(), 3, 0, 0x7F800001), TL_OK);
    for (size_t e = 0; e < 512; ++e) {
        ASSERT_EQ(Reg16(3, e), 0x7E00u) << e;
    }
    Type(kE2M1);
    SetReg(3, {}, 0x55);
    ASSERT_EQ(tl_exec_muls(s(), 3, 3, 0x7FC00000), TL_OK);
    EXPECT_TRUE(RegIsAll(3, 0x00));
    ASSERT_EQ(tl_exec_muls(s(), 0, 3, 2), TL_OK);
    EXPECT_TRUE(RegIsAll(0, 0));
}

/*
 * Every byte of a whole int8 register against the rule of docs/isa.md 5.9
 * (unsigned, saturating to [0, 255]), for register contents holding every
 * value and immediates / scalars around the edges: the host's vector paths
 * (SSE2, AVX2, AVX-512BW) handle 16 to 64 elements a step, and an element
 * out of place shows here.
 */
TEST_F(ArithTest, Int8WholeRegisterEveryLane)
{
    Type(kInt8);
    Bytes in(TL_REG_BYTES);
    for (size_t i = 0; i < TL_REG_BYTES; ++i) {
        in[i] = uint8_t(i * 37 + i / 256);      /* every value, in a different order per 256 */
    }
    for (int imm : {-128, -100, -1, 0, 1, 3, 100, 127}) {
        SetReg(1, in);
        ASSERT_EQ(tl_exec_addi(s(), 2, 1, imm), TL_OK);
        Bytes want(TL_REG_BYTES);
        for (size_t i = 0; i < TL_REG_BYTES; ++i) {
            const int v = int(in[i]) + imm;
            want[i] = uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
        }
        EXPECT_EQ(Reg(2), want) << "tl.addi imm " << imm;
    }
    for (uint64_t scalar : {0ull, 1ull, 2ull, 3ull, 7ull, 100ull, 254ull, 255ull, 256ull, 1ull << 40}) {
        SetReg(1, in);
        ASSERT_EQ(tl_exec_muls(s(), 2, 1, scalar), TL_OK);
        Bytes want(TL_REG_BYTES);
        for (size_t i = 0; i < TL_REG_BYTES; ++i) {
            const uint64_t p = in[i] == 0 ? 0 : scalar >= 255 ? 255 : uint64_t(in[i]) * scalar;
            want[i] = uint8_t(p > 255 ? 255 : p);
        }
        EXPECT_EQ(Reg(2), want) << "tl.muls scalar " << scalar;
    }
}

TEST_F(ArithTest, MulsInPlace)
{
    Type(kInt16);
    SetReg(1, {0x10, 0x00, 0x00, 0x10}, 0);
    ASSERT_EQ(tl_exec_muls(s(), 1, 1, 16), TL_OK);
    EXPECT_EQ(Reg(1, 4), (Bytes{0x00, 0x01, 0xFF, 0xFF}));
}

} // namespace
} // namespace tltest
