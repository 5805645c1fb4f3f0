/*
 * Disassembly of TensorLoad (xtl) instruction words.  Syntax and the default
 * EngineID of each instruction follow docs/isa.md section 4; a non-default
 * EngineID is shown as a trailing "eng=N" operand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "xtl_disas.h"

#include <stdio.h>

static const char *const gpr_abi_name[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
    "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
    "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

enum { ENG_LOAD = 0, ENG_COMP = 1, ENG_STORE = 2, ENG_RESHAPE = 3 };

static unsigned field(uint32_t insn, unsigned lsb, unsigned len)
{
    return (insn >> lsb) & ((1u << len) - 1);
}

static bool emit(char *buf, size_t size, size_t tab, const char *mnemonic,
                 const char *operands, unsigned eng, unsigned default_eng)
{
    char eng_note[12] = "";

    if (eng != default_eng) {
        snprintf(eng_note, sizeof(eng_note), ", eng=%u", eng);
    }
    snprintf(buf, size, "%-*s%s%s", (int)tab, mnemonic, operands, eng_note);
    return true;
}

bool xtl_disassemble(uint32_t insn, char *buf, size_t size, size_t tab)
{
    static const char *const mem_names[4] = { "tl.load", "tl.mload", "tl.store", "tl.mstore" };
    static const char *const pad_names[3] = { "zero", "min", "max" };
    unsigned eng = field(insn, 30, 2);
    unsigned rd = field(insn, 7, 5), rs1 = field(insn, 15, 5), rs2 = field(insn, 20, 5);
    unsigned funct5 = field(insn, 25, 5);
    char mnemonic[24], ops[48];

    if ((insn & 0x7f) != 0x5b) {
        return false;
    }
    switch (field(insn, 12, 3)) {
    case 0: { /* [29] st, [28] tm, [27:20] imm8, [19:15] tlr, [11:7] rs1 */
        unsigned st_tm = field(insn, 28, 2);
        int imm = (int8_t)field(insn, 20, 8);

        snprintf(ops, sizeof(ops), "tl%u, %d(%s)", rs1, imm, gpr_abi_name[rd]);
        return emit(buf, size, tab, mem_names[st_tm], ops, eng,
                    st_tm & 2 ? ENG_STORE : ENG_LOAD);
    }
    case 1: { /* concat 000DD / merge 001DD */
        unsigned dim = funct5 & 3, kind = funct5 >> 2;

        if (dim == 3 || kind > 1) {
            return false;
        }
        snprintf(mnemonic, sizeof(mnemonic), "%s.%u", kind ? "tl.merge" : "tl.concat", dim);
        snprintf(ops, sizeof(ops), "tl%u, tl%u, tl%u", rd, rs1, rs2);
        return emit(buf, size, tab, mnemonic, ops, eng, ENG_RESHAPE);
    }
    case 2: /* addi: funct2 [29:28] = 00 */
        if (field(insn, 28, 2) != 0) {
            return false;
        }
        snprintf(ops, sizeof(ops), "tl%u, tl%u, %d", rd, rs1, (int8_t)field(insn, 20, 8));
        return emit(buf, size, tab, "tl.addi", ops, eng, ENG_COMP);
    case 3: { /* xpose: [29] 0, dims in [28:27] and [26:25], GPR in [11:7] */
        unsigned a = field(insn, 25, 2), b = field(insn, 27, 2);

        if (funct5 & 0x10) {
            return false;
        }
        snprintf(mnemonic, sizeof(mnemonic), "tl.xpose.%u%u", a < b ? a : b, a < b ? b : a);
        snprintf(ops, sizeof(ops), "tl%u, tl%u, %s", rs1, rs2, gpr_abi_name[rd]);
        return emit(buf, size, tab, mnemonic, ops, eng, ENG_RESHAPE);
    }
    case 4: /* muls: funct5 = 0, scalar GPR in [24:20] */
        if (funct5 != 0) {
            return false;
        }
        snprintf(ops, sizeof(ops), "tl%u, tl%u, %s", rd, rs1, gpr_abi_name[rs2]);
        return emit(buf, size, tab, "tl.muls", ops, eng, ENG_COMP);
    case 5: /* fillpad: funct5 = 000PP, [24:20] = 0 */
        if ((funct5 >> 2) != 0 || (funct5 & 3) == 3 || rs2 != 0) {
            return false;
        }
        snprintf(mnemonic, sizeof(mnemonic), "tl.fillpad.%s", pad_names[funct5 & 3]);
        snprintf(ops, sizeof(ops), "tl%u, tl%u", rd, rs1);
        return emit(buf, size, tab, mnemonic, ops, eng, ENG_RESHAPE);
    default:
        return false;
    }
}
