#!/usr/bin/python3
"""The TensorLoad (xtl) opcode table of docs/isa.md sections 2.3 and 4, and
everything generated from it.

The table is the one statement of the encoding that C and assembly use: the
instruction fields (4.1, 4.3), one row per assembler or disassembler form
(mnemonic, funct3, fixed fields, binutils operands, default EngineID of 4.2),
the reserved encodings R1..R10 of 4.6 as match/mask rows, and the CSRs with
their writable masks and reset values (2.3-2.6).  From it come:

  include/tl/xtl-opc.h                       C header (no includes: C, C++, the
                                             Linux kernel, bare metal): field
                                             shifts and widths, MATCH_/MASK_,
                                             XTL_FORMS and XTL_RESERVED row lists,
                                             CSR numbers, masks and reset values
  linux-riscv-tl/arch/riscv/include/asm/xtl-opc.h   the same file, for the kernel
  patches/binutils-2.43/0002-riscv-xtl-opcode-table.patch
                                             binutils' include/opcode/riscv-opc-xtl.h:
                                             MATCH_/MASK_, the operand shifts of the
                                             Xl* letters, riscv_opcodes[] and
                                             DECLARE_CSR rows
  include/tl/tl_asm.S                        through scripts/gen-tl-asm.py, which
                                             imports this table

    xtl-encodings.py --write      # regenerate every file above
    xtl-encodings.py --check      # exit 1 naming each file that is stale
    xtl-encodings.py --header     # print the binutils header to stdout
    xtl-encodings.py --verify     # compare the table with tests/reference/tlref.py
                                  # and target-riscv-tl/xtl.decode (one ok line each)

Every CUSTOM-2 word matches exactly one legal row or at least one reserved row
(--verify walks them all), so "is this word a TL instruction, and which" is a
walk over XTL_FORMS, and "which rule makes it reserved" a walk over
XTL_RESERVED in order (the first matching row names the rule).

Operand letters (binutils args strings; see the 0001 patch, gas/config/tc-riscv.c
and opcodes/riscv-dis.c):
    XlD  TL register in [11:7]      XlS  TL register in [19:15]
    XlT  TL register in [24:20]     Xli  signed imm8 in [27:20] (tl.addi)
    Xlo  signed imm8 in [27:20], the offset of imm(rs1), may be omitted
    XleN EngineID in [31:30]: optional trailing `, eng=N` (default N); the
         disassembler prints it only when it differs from N
    Xlx  disassembler-only form (gas rejects it): the non-canonical tl.xpose
         dimension fields of docs/isa.md 4.4
    d    GPR in [11:7]              t    GPR in [24:20]
The Xl* positions come from the table (OP_SH_XTL_* in the generated header);
d and t are binutils' own rd and rs2, so the table's GPR fields must be there.
"""

import argparse
import importlib.util
import os
import re
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PATCH = os.path.join(REPO, "patches", "binutils-2.43", "0002-riscv-xtl-opcode-table.patch")
HEADER_PATH = "include/opcode/riscv-opc-xtl.h"
C_HEADER = os.path.join(REPO, "include", "tl", "xtl-opc.h")
LINUX_HEADER = os.path.join(REPO, "linux-riscv-tl", "arch", "riscv", "include", "asm", "xtl-opc.h")
TL_ASM = os.path.join(REPO, "include", "tl", "tl_asm.S")

OPCODE_CUSTOM2 = 0x5B

# EngineIDs (docs/isa.md 4.2): name, value, the instructions it is the default of
ENGINES = [("LOAD", 0, "TensorLoad: tl.load, tl.mload"),
           ("COMP", 1, "TensorComp: tl.addi, tl.muls"),
           ("STORE", 2, "TensorStore: tl.store, tl.mstore"),
           ("RESHAPE", 3, "Reshape: tl.concat, tl.merge, tl.xpose, tl.fillpad")]
ENG_LOAD, ENG_COMP, ENG_STORE, ENG_RESHAPE = (v for _, v, _ in ENGINES)

# Instruction fields: name, hi, lo, meaning.  First the common layout of
# docs/isa.md 4.1, then the operand and fixed fields of each format of 4.3.
FIELDS = [
    ("ENG", 31, 30, "EngineID (4.2): never changes what an instruction does"),
    ("FUNCT5", 29, 25, "funct5 (st, tm and imm8[7:5] in the memory instructions)"),
    ("OPERAND_B", 24, 20, "operand B"),
    ("OPERAND_A", 19, 15, "operand A"),
    ("FUNCT3", 14, 12, "instruction group"),
    ("OPERAND_C", 11, 7, "operand C"),
    ("OPCODE", 6, 0, "major opcode, CUSTOM-2"),
    # tl.load, tl.mload, tl.store, tl.mstore
    ("MEM_ST", 29, 29, "1: store"),
    ("MEM_TM", 28, 28, "1: masked by tmask_ls"),
    ("MEM_IMM8", 27, 20, "signed offset, in units of the slice width W"),
    ("MEM_TLR", 19, 15, "TL register loaded (tlrd) or stored (tlrs)"),
    ("MEM_RS1", 11, 7, "GPR holding the base address"),
    # tl.concat.D, tl.merge.D
    ("MOVE_OP", 29, 27, "funct5[4:2]: 000 concat, 001 merge"),
    ("MOVE_DIM", 26, 25, "DD: the dimension D"),
    ("MOVE_TLRS2", 24, 20, "tlrs2"),
    ("MOVE_TLRS1", 19, 15, "tlrs1"),
    ("MOVE_TLRD", 11, 7, "tlrd"),
    # tl.addi
    ("ADDI_FUNCT2", 29, 28, "funct2, 00"),
    ("ADDI_IMM8", 27, 20, "signed immediate"),
    ("ADDI_TLRS", 19, 15, "tlrs"),
    ("ADDI_TLRD", 11, 7, "tlrd"),
    # tl.xpose.AB
    ("XPOSE_F5HI", 29, 29, "funct5[4], 0"),
    ("XPOSE_DIM1", 28, 27, "funct5[3:2]: one dimension swapped"),
    ("XPOSE_DIM0", 26, 25, "funct5[1:0]: the other dimension swapped"),
    ("XPOSE_TLRS2", 24, 20, "tlrs2"),
    ("XPOSE_TLRS1", 19, 15, "tlrs1"),
    ("XPOSE_RS", 11, 7, "GPR holding the 4-D shape"),
    # tl.muls
    ("MULS_FUNCT5", 29, 25, "funct5, 00000"),
    ("MULS_RS2", 24, 20, "GPR holding the scalar"),
    ("MULS_TLRS", 19, 15, "tlrs"),
    ("MULS_TLRD", 11, 7, "tlrd"),
    # tl.fillpad.P
    ("FILLPAD_F5HI", 29, 27, "funct5[4:2], 000"),
    ("FILLPAD_PP", 26, 25, "PP: 00 zero, 01 min, 10 max"),
    ("FILLPAD_ZERO", 24, 20, "00000"),
    ("FILLPAD_TLRS", 19, 15, "tlrs"),
    ("FILLPAD_TLRD", 11, 7, "tlrd"),
]
FIELD = {name: (hi, lo) for name, hi, lo, _ in FIELDS}


def field_mask(name):
    """The field's bits in place."""
    hi, lo = FIELD[name]
    return ((1 << (hi - lo + 1)) - 1) << lo


def insert(name, value):
    hi, lo = FIELD[name]
    assert 0 <= value < (1 << (hi - lo + 1)), (name, value)
    return value << lo


def extract(name, word):
    hi, lo = FIELD[name]
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)


# Instruction kinds: funct3, the binutils operand string (without the EngineID)
# and the field of each operand letter in it, in order.
KINDS = [
    ("mem", 0b000, "XlS,Xlo(d)", ["MEM_TLR", "MEM_IMM8", "MEM_RS1"]),
    ("concat", 0b001, "XlD,XlS,XlT", ["MOVE_TLRD", "MOVE_TLRS1", "MOVE_TLRS2"]),
    ("merge", 0b001, "XlD,XlS,XlT", ["MOVE_TLRD", "MOVE_TLRS1", "MOVE_TLRS2"]),
    ("addi", 0b010, "XlD,XlS,Xli", ["ADDI_TLRD", "ADDI_TLRS", "ADDI_IMM8"]),
    ("xpose", 0b011, "XlS,XlT,d", ["XPOSE_TLRS1", "XPOSE_TLRS2", "XPOSE_RS"]),
    ("muls", 0b100, "XlD,XlS,t", ["MULS_TLRD", "MULS_TLRS", "MULS_RS2"]),
    ("fillpad", 0b101, "XlD,XlS", ["FILLPAD_TLRD", "FILLPAD_TLRS"]),
]
KIND = {k: (f3, args, ops) for k, f3, args, ops in KINDS}
KIND_NAMES = [k for k, _, _, _ in KINDS]
LETTER_RE = re.compile(r"Xl[A-Za-z]|[dt]")

# binutils operand letters: the OP_SH_/OP_MASK_ name the generated header
# defines for it, or for binutils' own GPR letters the field they use
# (rd [11:7], rs2 [24:20]), which the table must agree with.
LETTERS = {"XlD": "XTL_TLD", "XlS": "XTL_TLS", "XlT": "XTL_TLT", "Xli": "XTL_IMM8",
           "Xlo": "XTL_IMM8"}
BINUTILS_GPR = {"d": (11, 7), "t": (24, 20)}

# CSRs of docs/isa.md 2.3: name, number, writable bits (2.4, 2.6: the rest are
# WARL 0 or read-only), value read after reset (2.5, 2.6: an uninitialized CSR reads 0)
CSR_TABLE = [
    ("ttype", 0x800, 0x00000FFF, 0x002),
    ("tshape", 0x801, 0x00FFFFFF, 0),
    ("tmask_ls", 0x802, 0xFFFFFFFF, 0),
    ("tmask_concat_1", 0x803, 0xFFFFFFFF, 0),
    ("tmask_concat_2", 0x804, 0xFFFFFFFF, 0),
    ("tmask_load_stride", 0x805, 0xFFFFFFFF, 0),
    ("tmask_load_width", 0x806, 0xFFFFFFFF, 0),
    ("tvalid", 0x807, 0x00FFFFFF, 0),
    ("tinit", 0x808, 0x000000FE, 0x01),
]
CSRS = [(name, num) for name, num, _, _ in CSR_TABLE]

# The valid ttype values of docs/isa.md 3.1 (every other value is invalid)
TTYPES = [("int4", 0x001), ("int8", 0x002), ("int16", 0x004), ("int32", 0x008), ("e2m1", 0x010),
          ("e4m3", 0x040), ("e5m2", 0x080), ("e3m4", 0x0C0), ("fp16", 0x100), ("bf16", 0x200),
          ("fp32", 0x400)]

# tl.xpose.AB funct5 emitted by the assembler (docs/isa.md 4.4, the values in bold)
XPOSE_FUNCT5 = {"01": 0x01, "02": 0x02, "03": 0x03, "12": 0x09, "13": 0x0D, "23": 0x0B}
PADS = ["zero", "min", "max"]


class Form:
    """One opcode row: fixed is a dict field name -> value."""

    def __init__(self, name, kind, fixed, eng, disasm_only=False, sym=None):
        self.name, self.kind, self.fixed, self.eng = name, kind, fixed, eng
        self.funct3, args, self.operands = KIND[kind]
        self.disasm_only = disasm_only
        self.args = ("Xlx" if disasm_only else "") + args + "Xle%d" % eng
        self.sym = sym or name.upper().replace(".", "_")
        self.match = insert("OPCODE", OPCODE_CUSTOM2) | insert("FUNCT3", self.funct3)
        self.mask = field_mask("OPCODE") | field_mask("FUNCT3")
        for fname, v in fixed.items():
            assert not self.mask & field_mask(fname), (name, fname)
            self.match |= insert(fname, v)
            self.mask |= field_mask(fname)


def forms():
    out = []
    for name, st, tm, eng in (("tl.load", 0, 0, ENG_LOAD), ("tl.mload", 0, 1, ENG_LOAD),
                              ("tl.store", 1, 0, ENG_STORE), ("tl.mstore", 1, 1, ENG_STORE)):
        out.append(Form(name, "mem", {"MEM_ST": st, "MEM_TM": tm}, eng))
    for kind, m in (("concat", 0), ("merge", 1)):
        for d in range(3):
            out.append(Form("tl.%s.%d" % (kind, d), kind, {"MOVE_OP": m, "MOVE_DIM": d},
                            ENG_RESHAPE))
    out.append(Form("tl.addi", "addi", {"ADDI_FUNCT2": 0}, ENG_COMP))
    # every legal funct5 (docs/isa.md 4.4); rows of one mnemonic stay together,
    # the assembler's canonical value first
    for a in range(4):
        for b in range(a, 4):
            ab = "%d%d" % (a, b)
            pairs = sorted({(b, a), (a, b)},
                           key=lambda p: (p[0] << 2 | p[1]) != XPOSE_FUNCT5.get(ab))
            for dim1, dim0 in pairs:
                f5 = dim1 << 2 | dim0
                canonical = XPOSE_FUNCT5.get(ab) == f5
                out.append(Form("tl.xpose." + ab, "xpose",
                                {"XPOSE_F5HI": 0, "XPOSE_DIM1": dim1, "XPOSE_DIM0": dim0},
                                ENG_RESHAPE, disasm_only=not canonical,
                                sym=None if canonical else "TL_XPOSE_F5_%02X" % f5))
    out.append(Form("tl.muls", "muls", {"MULS_FUNCT5": 0}, ENG_COMP))
    for pp, pad in enumerate(PADS):
        out.append(Form("tl.fillpad." + pad, "fillpad",
                        {"FILLPAD_F5HI": 0, "FILLPAD_PP": pp, "FILLPAD_ZERO": 0}, ENG_RESHAPE))
    return out


def _rows(funct3, field=None, *patterns):
    """Reserved rows of one funct3: one per pattern of field (MSB first,
    '0'/'1' fixed, '-' any), or the whole funct3 without a field."""
    base_m = insert("OPCODE", OPCODE_CUSTOM2) | insert("FUNCT3", funct3)
    base_k = field_mask("OPCODE") | field_mask("FUNCT3")
    if field is None:
        return [(base_m, base_k)]
    hi, lo = FIELD[field]
    out = []
    for p in patterns:
        assert len(p) == hi - lo + 1, (field, p)
        m, k = base_m, base_k
        for i, c in enumerate(p):
            bit = 1 << (hi - i)
            if c != "-":
                k |= bit
                m |= bit if c == "1" else 0
        out.append((m, k))
    return out


def _nonzero(width):
    """Patterns that together match every non-zero value of a field."""
    return ["-" * i + "1" + "-" * (width - i - 1) for i in range(width)]


# The reserved encodings of docs/isa.md 4.6, in rule order: (rule, match, mask).
# A word is reserved when a row matches; the first row that does names the rule.
RESERVED_RULES = [
    (1, "funct3 110", _rows(0b110)),
    (2, "funct3 111", _rows(0b111)),
    (3, "concat/merge funct5[4:2] not 000 or 001", _rows(0b001, "MOVE_OP", "01-", "1--")),
    (4, "concat/merge DD = 11", _rows(0b001, "MOVE_DIM", "11")),
    (5, "addi funct2 not 00", _rows(0b010, "ADDI_FUNCT2", *_nonzero(2))),
    (6, "xpose funct5[4] = 1", _rows(0b011, "XPOSE_F5HI", "1")),
    (7, "muls funct5 not 00000", _rows(0b100, "MULS_FUNCT5", *_nonzero(5))),
    (8, "fillpad funct5[4:2] not 000", _rows(0b101, "FILLPAD_F5HI", *_nonzero(3))),
    (9, "fillpad PP = 11", _rows(0b101, "FILLPAD_PP", "11")),
    (10, "fillpad [24:20] not 00000", _rows(0b101, "FILLPAD_ZERO", *_nonzero(5))),
]


def reserved_rows():
    return [(rule, m, k) for rule, _, rows in RESERVED_RULES for m, k in rows]


def letter_fields():
    """binutils operand letter -> (hi, lo), from the rows; asserts one place per letter."""
    where = {}
    for kind, _, args, ops in KINDS:
        letters = LETTER_RE.findall(args)
        assert len(letters) == len(ops), (kind, letters, ops)
        for letter, fname in zip(letters, ops):
            pos = FIELD[fname]
            assert where.setdefault(letter, pos) == pos, \
                "operand %s of %s is at %s, elsewhere at %s" % (letter, kind, pos, where[letter])
            if letter in BINUTILS_GPR:
                assert pos == BINUTILS_GPR[letter], \
                    "binutils' GPR letter %s is at %s, the table has %s for %s" % (
                        letter, BINUTILS_GPR[letter], pos, fname)
    return where


# ---- binutils: include/opcode/riscv-opc-xtl.h in the 0002 patch -------------

def header():
    fs = forms()
    o = ["/* TensorLoad (xtl) instructions and CSRs for RISC-V, docs/isa.md of TL-QEMU.",
         "   GENERATED by TL-QEMU's scripts/xtl-encodings.py; do not edit.",
         "",
         "   Included three ways: plainly for the MATCH_/MASK_/CSR_ values (from",
         "   riscv-opc.h), with RISCV_XTL_WANT_CSRS for the DECLARE_CSR rows and with",
         "   RISCV_XTL_WANT_OPCODES for the riscv_opcodes[] rows (riscv-opc.c).  */",
         "",
         "#if defined (RISCV_XTL_WANT_CSRS)",
         ]
    for name, num in CSRS:
        o.append("DECLARE_CSR(%s, CSR_%s, CSR_CLASS_XTL, PRIV_SPEC_CLASS_NONE, "
                 "PRIV_SPEC_CLASS_NONE)" % (name, name.upper()))
    o.append("#elif defined (RISCV_XTL_WANT_OPCODES)")
    o.append("/* name, xlen, isa, operands, match, mask, match_func, pinfo.  */")
    for f in fs:
        o.append('{"%s", 0, INSN_CLASS_XTL, "%s", MATCH_%s, MASK_%s, match_opcode, 0 },'
                 % (f.name, f.args, f.sym, f.sym))
    o.append("#else")
    o.append("#ifndef RISCV_OPC_XTL_H")
    o.append("#define RISCV_OPC_XTL_H")
    for f in fs:
        o.append("#define MATCH_%s 0x%x" % (f.sym, f.match))
        o.append("#define MASK_%s 0x%x" % (f.sym, f.mask))
    for name, num in CSRS:
        o.append("#define CSR_%s 0x%x" % (name.upper(), num))
    o.append("/* Fields of the Xl* operands (INSERT_OPERAND, EXTRACT_OPERAND).  */")
    where = letter_fields()
    fields = [("XTL_ENG", FIELD["ENG"])]
    for letter, sym in LETTERS.items():
        if (sym, where[letter]) not in fields:
            assert sym not in dict(fields), "letters of %s at two places" % sym
            fields.append((sym, where[letter]))
    for sym, (hi, lo) in fields:
        o.append("#define OP_MASK_%s 0x%x" % (sym, (1 << (hi - lo + 1)) - 1))
        o.append("#define OP_SH_%s %d" % (sym, lo))
    o.append("#endif /* RISCV_OPC_XTL_H */")
    o.append("#endif")
    return "\n".join(o) + "\n"


def patch_text():
    lines = header().splitlines()
    head = ["From: TL-QEMU <tl-qemu@localhost>",
            "Subject: [PATCH 2/4] RISC-V: xtl opcode table (generated)",
            "",
            "Generated by TL-QEMU's scripts/xtl-encodings.py --write; do not edit.",
            "",
            "---",
            "diff --git a/%s b/%s" % (HEADER_PATH, HEADER_PATH),
            "new file mode 100644",
            "--- /dev/null",
            "+++ b/%s" % HEADER_PATH,
            "@@ -0,0 +1,%d @@" % len(lines)]
    return "\n".join(head + ["+" + line for line in lines]) + "\n"


# ---- C: include/tl/xtl-opc.h (and the Linux copy) --------------------------

def _macro_list(name, params, rows):
    """#define name(X) with one X(...) line per row."""
    o = ["#define %s(X) \\" % name]
    for i, r in enumerate(rows):
        o.append("    X(%s)%s" % (", ".join(r), " \\" if i + 1 < len(rows) else ""))
    return ["/* %s(X): X(%s) */" % (name, params)] + o


def c_header():
    fs = forms()
    o = ["/* SPDX-License-Identifier: GPL-2.0-or-later */",
         "/*",
         " * TensorLoad (xtl) instruction encodings and CSRs (docs/isa.md 2.3-2.6, 4).",
         " * GENERATED by scripts/xtl-encodings.py from its opcode table; do not edit",
         " * (change the table, then run scripts/xtl-encodings.py --write).",
         " *",
         " * Macros only and no includes, for C and C++, bare-metal code and the Linux",
         " * kernel (arch/riscv/include/asm/xtl-opc.h is the same file):",
         " *",
         " *   XTL_<F>_SHIFT, _WIDTH, _MASK  field F of an instruction word (_MASK in place)",
         " *   XTL_INSERT(F, v), XTL_EXTRACT(F, w)",
         " *   MATCH_<FORM>, MASK_<FORM>    a word w has the form when (w & MASK) == MATCH",
         " *   XTL_FORMS(X)                 every legal form, with its kind and default EngineID",
         " *   XTL_RESERVED(X)              the reserved encodings R1..R10 (docs/isa.md 4.6)",
         " *   XTL_CSRS(X)                  CSR numbers, writable bits, values after reset",
         " *   XTL_TTYPE_<T>                the valid ttype values, one per element type",
         " *",
         " * Every CUSTOM-2 word matches exactly one XTL_FORMS row (it is that TL",
         " * instruction) or none; then it matches XTL_RESERVED rows, and the first",
         " * that matches names the rule that makes it reserved.  No row looks at",
         " * bits [19:15] or [11:7].",
         " */",
         "#ifndef XTL_OPC_H",
         "#define XTL_OPC_H",
         "",
         "/* ---- fields (docs/isa.md 4.1, 4.3) ---- */"]
    for name, hi, lo, what in FIELDS:
        if name == "MEM_ST":
            o.append("/* operand and fixed fields of each format */")
        bits = "[%d]" % hi if hi == lo else "[%d:%d]" % (hi, lo)
        o.append("#define XTL_%s_SHIFT %d  /* %s %s */" % (name, lo, bits, what))
        o.append("#define XTL_%s_WIDTH %d" % (name, hi - lo + 1))
        o.append("#define XTL_%s_MASK 0x%08xu" % (name, field_mask(name)))
    o += ["/* field F of value v, in place; field F of word w */",
          "#define XTL_INSERT(F, v) \\",
          "    ((((unsigned int)(v)) & ((1u << XTL_##F##_WIDTH) - 1u)) << XTL_##F##_SHIFT)",
          "#define XTL_EXTRACT(F, w) \\",
          "    ((((unsigned int)(w)) >> XTL_##F##_SHIFT) & ((1u << XTL_##F##_WIDTH) - 1u))",
          "",
          "#define XTL_OPCODE 0x%02xu  /* CUSTOM-2 */" % OPCODE_CUSTOM2]
    o.append("/* funct3 of each kind of instruction */")
    for k, f3, _, _ in KINDS:
        o.append("#define XTL_FUNCT3_%s %d" % (k.upper(), f3))
    o.append("/* kinds of instruction (XTL_FORMS) */")
    for i, k in enumerate(KIND_NAMES):
        o.append("#define XTL_KIND_%s %d" % (k.upper(), i))
    o.append("/* EngineIDs (docs/isa.md 4.2), each the default of the instructions named */")
    for name, v, what in ENGINES:
        o.append("#define XTL_ENG_%s %du  /* %s */" % (name, v, what))
    o.append("/* tl.fillpad PP */")
    for pp, pad in enumerate(PADS):
        o.append("#define XTL_PAD_%s %d" % (pad.upper(), pp))
    o += ["", "/* ---- instruction forms (docs/isa.md 4.3, 4.4) ---- */"]
    for f in fs:
        o.append("#define MATCH_%s 0x%08xu" % (f.sym, f.match))
        o.append("#define MASK_%s 0x%08xu" % (f.sym, f.mask))
    o.append("#define XTL_NUM_FORMS %d" % len(fs))
    o += _macro_list("XTL_FORMS", "sym, name, match, mask, kind, default EngineID",
                     [(f.sym, '"%s"' % f.name, "MATCH_" + f.sym, "MASK_" + f.sym,
                       "XTL_KIND_" + f.kind.upper(), "XTL_ENG_" + ENGINES[f.eng][0])
                      for f in fs])
    o += ["", "/* ---- reserved encodings (docs/isa.md 4.6) ---- */"]
    for rule, what, _ in RESERVED_RULES:
        o.append("/* R%d: %s */" % (rule, what))
    o.append("#define XTL_NUM_RESERVED_RULES %d" % len(RESERVED_RULES))
    rows = reserved_rows()
    o.append("#define XTL_NUM_RESERVED_ROWS %d" % len(rows))
    o += _macro_list("XTL_RESERVED", "rule, match, mask",
                     [("%d" % r, "0x%08xu" % m, "0x%08xu" % k) for r, m, k in rows])
    o += ["", "/* ---- CSRs (docs/isa.md 2.3-2.6) ---- */"]
    for name, num, wmask, reset in CSR_TABLE:
        s = name.upper()
        o.append("#define XTL_CSR_%s 0x%03x" % (s, num))
        o.append("#define XTL_CSR_%s_WMASK 0x%08xu" % (s, wmask))
        o.append("#define XTL_CSR_%s_RESET 0x%03xu" % (s, reset))
    o.append("#define XTL_NUM_CSRS %d" % len(CSR_TABLE))
    o += _macro_list("XTL_CSRS", "SYM, name, number, writable mask, value after reset",
                     [(n.upper(), '"%s"' % n, "XTL_CSR_" + n.upper(),
                       "XTL_CSR_%s_WMASK" % n.upper(), "XTL_CSR_%s_RESET" % n.upper())
                      for n, _, _, _ in CSR_TABLE])
    o += ["", "/* ---- ttype values (docs/isa.md 3.1): any other value is invalid ---- */"]
    for name, value in TTYPES:
        o.append("#define XTL_TTYPE_%s 0x%03xu" % (name.upper(), value))
    o += ["", "#endif /* XTL_OPC_H */"]
    return "\n".join(o) + "\n"


def tl_asm_text():
    """include/tl/tl_asm.S, from scripts/gen-tl-asm.py (which imports this table)."""
    spec = importlib.util.spec_from_file_location(
        "gen_tl_asm", os.path.join(REPO, "scripts", "gen-tl-asm.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.gen()


def outputs():
    """(path, text) of every generated file."""
    h = c_header()
    return [(C_HEADER, h), (LINUX_HEADER, h), (PATCH, patch_text()), (TL_ASM, tl_asm_text())]


# ---- verification against the independent encoders/decoders ----------------

def operand_values(form, rnd):
    """Random EngineID and operand fields for a row: field name -> value."""
    v = {"ENG": rnd.randrange(4)}
    for fname in form.operands:
        hi, lo = FIELD[fname]
        v[fname] = rnd.randrange(1 << (hi - lo + 1))
    return v


def assemble(form, v):
    """The word the row gives for operand values v (what gas inserts)."""
    w = form.match
    for fname, value in v.items():
        w |= insert(fname, value)
    return w


def sext8(x):
    return x - 256 if x & 0x80 else x


def tlref_encode(tlref, form, v):
    """The same instruction through tlref.py's encoders (independent of the table)."""
    base = form.name.split(".")[1]
    e = v["ENG"]
    if form.kind == "mem":
        return getattr(tlref, "encode_" + base)(v["MEM_TLR"], sext8(v["MEM_IMM8"]), v["MEM_RS1"],
                                                engine=e)
    if form.kind in ("concat", "merge"):
        return getattr(tlref, "encode_" + base)(int(form.name[-1]), v["MOVE_TLRD"],
                                                v["MOVE_TLRS1"], v["MOVE_TLRS2"], engine=e)
    if form.kind == "addi":
        return tlref.encode_addi(v["ADDI_TLRD"], v["ADDI_TLRS"], sext8(v["ADDI_IMM8"]), engine=e)
    if form.kind == "xpose":
        if not form.disasm_only:
            return tlref.encode_xpose_ab(form.name.split(".")[2], v["XPOSE_TLRS1"],
                                         v["XPOSE_TLRS2"], v["XPOSE_RS"], engine=e)
        return tlref.encode_xpose(v["XPOSE_TLRS1"], v["XPOSE_TLRS2"], v["XPOSE_RS"],
                                  form.fixed["XPOSE_DIM0"], form.fixed["XPOSE_DIM1"], engine=e)
    if form.kind == "muls":
        return tlref.encode_muls(v["MULS_TLRD"], v["MULS_TLRS"], v["MULS_RS2"], engine=e)
    if form.kind == "fillpad":
        return tlref.encode_fillpad(form.name.split(".")[2], v["FILLPAD_TLRD"],
                                    v["FILLPAD_TLRS"], engine=e)
    raise ValueError(form.name)


def decode_patterns(path):
    """(name, fixedmask, fixedbits) of the patterns of a QEMU decodetree file."""
    pats = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line or line[0] in "&@%{}":
                continue
            parts = line.split()
            name, bits = parts[0], "".join(p for p in parts[1:] if not p.startswith(("@", "&")))
            assert len(bits) == 32, (name, bits)
            fm = fb = 0
            for i, c in enumerate(bits):
                pos = 31 - i
                if c in "01":
                    fm |= 1 << pos
                    fb |= int(c) << pos
            pats.append((name, fm, fb))
    return pats


def table_lookup(fs, w):
    for f in fs:
        if w & f.mask == f.match:
            return f
    return None


def reserved_rule(rows, w):
    """The rule of the first reserved row that matches w, or None."""
    for rule, m, k in rows:
        if w & k == m:
            return rule
    return None


def verify():
    import random
    sys.path.insert(0, os.path.join(REPO, "tests", "reference"))
    import tlref
    fs = forms()
    rsv = reserved_rows()
    pats = decode_patterns(os.path.join(REPO, "target-riscv-tl", "xtl.decode"))
    rnd = random.Random(20261125)
    ok_all = True

    def report(ok, text):
        nonlocal ok_all
        ok_all &= ok
        print("%s - %s" % ("ok" if ok else "not ok", text))

    # 1. each row, 64 random operand sets: table word == tlref encoder word,
    #    and tlref.decode names the same instruction
    for f in fs:
        bad = []
        for _ in range(64):
            v = operand_values(f, rnd)
            w = assemble(f, v)
            r = tlref_encode(tlref, f, v)
            d = tlref.decode(w)
            if w != r or d is None or d.name != ".".join(f.name.split(".")[:2]):
                bad.append("0x%08x vs tlref 0x%08x" % (w, r))
        report(not bad, "%-16s match 0x%08x mask 0x%08x = tlref encoder and decoder (64 operand sets)%s"
               % (f.name, f.match, f.mask, "; " + bad[0] if bad else ""))

    # 1b. the common layout of docs/isa.md 4.1 packs as tlref.encode_fields
    bad = []
    for _ in range(256):
        v = {name: rnd.randrange(1 << (hi - lo + 1)) for name, hi, lo, _ in FIELDS[:6]}
        w = insert("OPCODE", OPCODE_CUSTOM2)
        for name, value in v.items():
            w |= insert(name, value)
        r = tlref.encode_fields(v["FUNCT3"], v["FUNCT5"], v["OPERAND_B"], v["OPERAND_A"],
                                v["OPERAND_C"], engine=v["ENG"])
        if w != r:
            bad.append("0x%08x vs tlref 0x%08x" % (w, r))
    report(not bad, "fields %s of the common layout = tlref.encode_fields (256 sets)%s"
           % (", ".join(name for name, _, _, _ in FIELDS[:7]), "; " + bad[0] if bad else ""))

    # 1c. the valid ttype values are the reference model's
    codes = sorted(v for _, v in TTYPES)
    report(codes == sorted(tlref.TTYPE_CODES),
           "ttype values %s = tlref.TTYPE_CODES" % ", ".join("0x%03x" % c for c in codes))

    # 2. no row looks at [19:15] or [11:7], so walking all of [31:20] x funct3
    #    (those two fields random) walks every case.  On each word: at most one
    #    legal row; a reserved row exactly when no legal row, and the first one
    #    names the rule tlref.decode gives; the table, tlref.decode and
    #    xtl.decode (plus the trans functions' reserved dim/pad 3) agree on
    #    legal/illegal and on the instruction.
    free = field_mask("OPERAND_A") | field_mask("OPERAND_C")
    lookers = [f.name for f in fs if f.mask & free] + ["R%d" % r for r, _, k in rsv if k & free]
    report(not lookers, "no legal or reserved row looks at bits [19:15] or [11:7]%s"
           % ("; " + ", ".join(lookers) if lookers else ""))
    qemu_name = {"tl_load": "tl.load", "tl_mload": "tl.mload", "tl_store": "tl.store",
                 "tl_mstore": "tl.mstore", "tl_concat": "tl.concat", "tl_merge": "tl.merge",
                 "tl_addi": "tl.addi", "tl_xpose": "tl.xpose", "tl_muls": "tl.muls",
                 "tl_fillpad": "tl.fillpad"}
    mismatches, rule_bad = [], []
    n = n_reserved = 0
    for hi in range(1 << 12):
        for f3 in range(8):
            w = (hi << 20) | (rnd.randrange(32) << 15) | (f3 << 12) | (rnd.randrange(32) << 7) \
                | OPCODE_CUSTOM2
            n += 1
            rows = [f for f in fs if w & f.mask == f.match]
            t = ".".join(rows[0].name.split(".")[:2]) if rows else None
            rule = reserved_rule(rsv, w)
            n_reserved += rule is not None
            d = tlref.decode(w)
            r = None if d.name == "illegal" else d.name
            if (rule is None) == (not rows) or rule != d.rule:
                rule_bad.append("0x%08x: rows %s, reserved R%s, tlref R%s"
                                % (w, [x.name for x in rows], rule, d.rule))
            q = None
            for name, fm, fb in pats:
                if w & fm == fb:
                    q = qemu_name[name]
                    break
            f5 = (w >> 25) & 31
            if q in ("tl.concat", "tl.merge") and f5 & 3 == 3:
                q = None          # trans_tl_concat/merge reject DD = 3
            if q == "tl.fillpad" and f5 & 3 == 3:
                q = None          # trans_tl_fillpad rejects PP = 3
            if len(rows) > 1 or not (t == r == q):
                mismatches.append("0x%08x: table %s, tlref %s, xtl.decode %s"
                                  % (w, [x.name for x in rows], r, q))
    report(not mismatches, "%d CUSTOM-2 words ([31:20] x funct3 exhaustive): table, tlref.decode "
           "and xtl.decode agree, no two rows overlap%s"
           % (n, "; " + "; ".join(mismatches[:3]) if mismatches else ""))
    report(not rule_bad and n_reserved > 0,
           "the same %d words: the %d reserved ones (no legal row) and only they match a "
           "reserved row, whose rule R1..R10 is tlref.decode's%s"
           % (n, n_reserved, "; " + "; ".join(rule_bad[:3]) if rule_bad else ""))

    # 3. assembler forms are exactly docs/isa.md's mnemonics, default EngineIDs of 4.2
    want = {"tl.load": 0, "tl.mload": 0, "tl.store": 2, "tl.mstore": 2, "tl.addi": 1,
            "tl.muls": 1}
    for k in ("concat", "merge"):
        for d in range(3):
            want["tl.%s.%d" % (k, d)] = 3
    for ab in XPOSE_FUNCT5:
        want["tl.xpose." + ab] = 3
    for p in PADS:
        want["tl.fillpad." + p] = 3
    got = {f.name: f.eng for f in fs if not f.disasm_only}
    report(got == want, "assembler mnemonics and default EngineIDs are those of docs/isa.md 4.2-4.4 "
           "(%d mnemonics)" % len(got))
    report(all(f.eng == ENG_RESHAPE and f.kind == "xpose" for f in fs if f.disasm_only),
           "disassembler-only rows are tl.xpose rows with its default EngineID 3")

    # 4. CSRs agree with tlref: names, numbers, writable bits, values after reset
    st = tlref.TLState()
    ref = [(name, num, tlref.TINIT_WRITE_MASK if num == tlref.CSR_TINIT
            else tlref.CSR_WRITE_MASK[num], st.csr_read(num))
           for name, num in ((n, getattr(tlref, "CSR_" + n.upper())) for n, _, _, _ in CSR_TABLE)]
    ref_names = dict(tlref.ALL_CSR_NAMES)
    report(ref == CSR_TABLE and ref_names == {num: name for name, num, _, _ in CSR_TABLE},
           "%d CSRs: names, numbers, writable masks and reset values = tlref's" % len(CSR_TABLE))
    return 0 if ok_all else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    g.add_argument("--header", action="store_true")
    g.add_argument("--verify", action="store_true")
    a = ap.parse_args()
    if a.header:
        sys.stdout.write(header())
        return 0
    if a.verify:
        return verify()
    outs = outputs()
    if a.check:
        rc = 0
        for path, text in outs:
            try:
                with open(path) as f:
                    cur = f.read()
            except OSError:
                cur = None
            if cur != text:
                print("error: %s is stale (not what the table of scripts/xtl-encodings.py "
                      "generates); run scripts/xtl-encodings.py --write"
                      % os.path.relpath(path, REPO), file=sys.stderr)
                rc = 1
        return rc
    for path, text in outs:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
