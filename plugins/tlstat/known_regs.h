/*
 * The integer registers whose values a straight run of RV64 instructions
 * (one translation block) sets to constants: li / lui / addi / addiw and
 * their compressed forms, and c.mv.  tlstat uses it at translation to see
 * the value a TL CSR write stores when the program computed it from
 * constants (the tile API's ttype, tshape and widths), and then records
 * that value with an inline store instead of reading the CSR back through
 * the register API when a TL instruction needs it.
 *
 * Conservative: any instruction this does not model makes the registers it
 * may write unknown (for compressed forms, every register field it has).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TLSTAT_KNOWN_REGS_H
#define TLSTAT_KNOWN_REGS_H

#include <cstdint>

namespace tlstat {

class KnownRegs {
public:
    /* True with *v the value of x[r] after the instructions seen so far. */
    bool value(unsigned r, uint64_t *v) const
    {
        if (r == 0) {
            *v = 0;
            return true;
        }
        if (!((known_ >> r) & 1)) {
            return false;
        }
        *v = val_[r];
        return true;
    }

    /* One instruction: word holds its 2 or 4 bytes (size). */
    void step(uint32_t w, unsigned size)
    {
        if (size == 4) {
            step32(w);
        } else {
            step16(w & 0xFFFF);
        }
    }

private:
    static int64_t sext(uint64_t v, unsigned bits) { return int64_t(v << (64 - bits)) >> (64 - bits); }

    void set(unsigned r, uint64_t v)
    {
        if (r != 0) {
            val_[r] = v;
            known_ |= uint32_t{1} << r;
        }
    }
    void forget(unsigned r) { known_ &= ~(uint32_t{1} << r); }

    void step32(uint32_t w)
    {
        const unsigned op = w & 0x7F, rd = (w >> 7) & 31, f3 = (w >> 12) & 7, rs1 = (w >> 15) & 31;
        uint64_t a;
        if (op == 0x13 && f3 == 0) {                    /* addi */
            if (value(rs1, &a)) {
                set(rd, a + uint64_t(sext(w >> 20, 12)));
                return;
            }
        } else if (op == 0x1B && f3 == 0) {             /* addiw */
            if (value(rs1, &a)) {
                set(rd, uint64_t(sext((a + uint64_t(sext(w >> 20, 12))) & 0xFFFFFFFFu, 32)));
                return;
            }
        } else if (op == 0x37) {                        /* lui */
            set(rd, uint64_t(sext(w & 0xFFFFF000u, 32)));
            return;
        } else if (op == 0x73 && f3 == 0) {             /* ecall, ebreak, xret, wfi, ... */
            known_ = 0;
            return;
        }
        forget(rd);
    }

    void step16(uint32_t w)
    {
        const unsigned quadrant = w & 3, f3 = (w >> 13) & 7, rd = (w >> 7) & 31;
        const int64_t imm6 = sext(((w >> 12) & 1) << 5 | ((w >> 2) & 31), 6);
        uint64_t a;
        if (quadrant == 1 && f3 == 2) {                 /* c.li */
            set(rd, uint64_t(imm6));
            return;
        }
        if (quadrant == 1 && f3 == 3 && rd != 2 && imm6 != 0) {   /* c.lui */
            set(rd, uint64_t(imm6 * 4096));
            return;
        }
        if (quadrant == 1 && f3 == 0 && value(rd, &a)) {          /* c.addi */
            set(rd, a + uint64_t(imm6));
            return;
        }
        if (quadrant == 1 && f3 == 1 && rd != 0 && value(rd, &a)) {   /* c.addiw */
            set(rd, uint64_t(sext((a + uint64_t(imm6)) & 0xFFFFFFFFu, 32)));
            return;
        }
        const unsigned rs2 = (w >> 2) & 31;
        if (quadrant == 2 && f3 == 4 && !((w >> 12) & 1) && rs2 != 0) {   /* c.mv */
            if (value(rs2, &a)) {
                set(rd, a);
            } else {
                forget(rd);
            }
            return;
        }
        if (quadrant == 2 && f3 == 4 && ((w >> 12) & 1) && rd == 0 && rs2 == 0) {   /* c.ebreak */
            known_ = 0;
            return;
        }
        /* Anything else: every register it may name as a destination. */
        forget(rd);
        forget(8 + ((w >> 7) & 7));
        forget(8 + ((w >> 2) & 7));
        forget(1);                                      /* c.jalr */
    }

    uint32_t known_ = 0;                                /* bit r: val_[r] holds x[r] */
    uint64_t val_[32] = {};
};

} // namespace tlstat

#endif /* TLSTAT_KNOWN_REGS_H */
