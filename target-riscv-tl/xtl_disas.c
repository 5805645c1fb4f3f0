/*
 * Disassembly of TensorLoad (xtl) instruction words.  Syntax and the default
 * EngineID of each instruction follow docs/isa.md section 4; a non-default
 * EngineID is shown as a trailing "eng=N" operand.
 *
 * Which words are instructions, their mnemonics, fields and default
 * EngineIDs come from the rows of xtl-opc.h, generated from the opcode table
 * of scripts/xtl-encodings.py.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "xtl_disas.h"

#include <stdio.h>

/* TL-QEMU's include/tl/, linked into QEMU's include/ as include/tl. */
#include "tl/xtl-opc.h"

static const char *const gpr_abi_name[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
    "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
    "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

struct xtl_form {
    uint32_t match, mask;
    const char *name;
    unsigned kind, default_eng;
};

#define XTL_DISAS_FORM(sym, name, match, mask, kind, eng) { match, mask, name, kind, eng },
static const struct xtl_form xtl_forms[] = { XTL_FORMS(XTL_DISAS_FORM) };
#undef XTL_DISAS_FORM

/* The legal form of insn, or NULL (not CUSTOM-2, or a reserved encoding). */
static const struct xtl_form *xtl_find_form(uint32_t insn)
{
    for (size_t i = 0; i < sizeof(xtl_forms) / sizeof(xtl_forms[0]); i++) {
        if ((insn & xtl_forms[i].mask) == xtl_forms[i].match) {
            return &xtl_forms[i];
        }
    }
    return NULL;
}

bool xtl_disassemble(uint32_t insn, char *buf, size_t size, size_t tab)
{
    const struct xtl_form *f = xtl_find_form(insn);
    unsigned eng = XTL_EXTRACT(ENG, insn);
    char ops[48], eng_note[12] = "";

    if (!f) {
        return false;
    }
    switch (f->kind) {
    case XTL_KIND_MEM:
        snprintf(ops, sizeof(ops), "tl%u, %d(%s)", XTL_EXTRACT(MEM_TLR, insn),
                 (int8_t)XTL_EXTRACT(MEM_IMM8, insn), gpr_abi_name[XTL_EXTRACT(MEM_RS1, insn)]);
        break;
    case XTL_KIND_CONCAT:
    case XTL_KIND_MERGE:
        snprintf(ops, sizeof(ops), "tl%u, tl%u, tl%u", XTL_EXTRACT(MOVE_TLRD, insn),
                 XTL_EXTRACT(MOVE_TLRS1, insn), XTL_EXTRACT(MOVE_TLRS2, insn));
        break;
    case XTL_KIND_ADDI:
        snprintf(ops, sizeof(ops), "tl%u, tl%u, %d", XTL_EXTRACT(ADDI_TLRD, insn),
                 XTL_EXTRACT(ADDI_TLRS, insn), (int8_t)XTL_EXTRACT(ADDI_IMM8, insn));
        break;
    case XTL_KIND_XPOSE: /* the row's name has the sorted dimension pair */
        snprintf(ops, sizeof(ops), "tl%u, tl%u, %s", XTL_EXTRACT(XPOSE_TLRS1, insn),
                 XTL_EXTRACT(XPOSE_TLRS2, insn), gpr_abi_name[XTL_EXTRACT(XPOSE_RS, insn)]);
        break;
    case XTL_KIND_MULS:
        snprintf(ops, sizeof(ops), "tl%u, tl%u, %s", XTL_EXTRACT(MULS_TLRD, insn),
                 XTL_EXTRACT(MULS_TLRS, insn), gpr_abi_name[XTL_EXTRACT(MULS_RS2, insn)]);
        break;
    case XTL_KIND_FILLPAD:
        snprintf(ops, sizeof(ops), "tl%u, tl%u", XTL_EXTRACT(FILLPAD_TLRD, insn),
                 XTL_EXTRACT(FILLPAD_TLRS, insn));
        break;
    default:
        return false;
    }
    if (eng != f->default_eng) {
        snprintf(eng_note, sizeof(eng_note), ", eng=%u", eng);
    }
    snprintf(buf, size, "%-*s%s%s", (int)tab, f->name, ops, eng_note);
    return true;
}
