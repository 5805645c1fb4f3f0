#!/usr/bin/python3
"""Expected words for tests/asm/test_asm.S, from two independent encoders.

The instruction lines of test_asm.S are parsed here, without the assembler
macros, and encoded with
  * tests/reference/tlref.py  (encode_load ... encode_fillpad), and
  * include/tl/tl_insn.h      (TL_ENC_* macros, via a generated C program).

    check_words.py pairs   TEST.S                 # "word<TAB>source line" from tlref
    check_words.py cprog   TEST.S OUT.c           # C program printing the TL_ENC_* words
    check_words.py compare TEST.S TEXT.bin CWORDS  # one ok/not ok line per instruction

Run with Debian's /usr/bin/python3 (tlref needs numpy).
"""

import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
import tlref  # noqa: E402

ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
       "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
       "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
       "t3", "t4", "t5", "t6"]
GPR = {"x%d" % i: i for i in range(32)}
GPR.update({n: i for i, n in enumerate(ABI)})
GPR["fp"] = 8

# mnemonic -> (operand kinds, default EngineID of docs/isa.md 4.2)
FORMS = {}
for _m in ("load", "mload"):
    FORMS["tl." + _m] = ("tm", 0)
for _m in ("store", "mstore"):
    FORMS["tl." + _m] = ("tm", 2)
for _d in range(3):
    FORMS["tl.concat.%d" % _d] = ("ttt", 3)
    FORMS["tl.merge.%d" % _d] = ("ttt", 3)
for _ab in ("01", "02", "03", "12", "13", "23"):
    FORMS["tl.xpose." + _ab] = ("ttg", 3)
FORMS["tl.addi"] = ("tti", 1)
FORMS["tl.muls"] = ("ttg", 1)
for _p in ("zero", "min", "max"):
    FORMS["tl.fillpad." + _p] = ("tt", 3)


def gas_int(text, syms):
    """An integer literal as GNU as reads it (sign, 0x, 0b, leading-0 octal), a
    symbol from .equ, or a small parenthesised arithmetic expression of those."""
    s = text.replace(" ", "")
    if s in syms:
        return syms[s]
    m = re.fullmatch(r"([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)", s)
    if m:
        body = m.group(2)
        if body[:2] in ("0x", "0X"):
            v = int(body[2:], 16)
        elif body[:2] in ("0b", "0B"):
            v = int(body[2:], 2)
        elif body.startswith("0"):
            v = int(body, 8)
        else:
            v = int(body, 10)
        return -v if m.group(1) == "-" else v
    # expressions such as (1<<6)+1: replace every literal/symbol, then evaluate
    tokens = re.findall(r"0[xX][0-9a-fA-F]+|0[bB][01]+|\d+|[.A-Za-z_][.\w]*|<<|>>|[-+*/()&|~^]", s)
    if "".join(tokens) != s:
        raise ValueError("cannot read number %r" % text)
    out = []
    for t in tokens:
        if re.fullmatch(r"[.A-Za-z_][.\w]*", t):
            out.append(str(syms[t]))
        elif re.fullmatch(r"0[xX][0-9a-fA-F]+|0[bB][01]+|\d+", t):
            out.append(str(gas_int(t, syms)))
        else:
            out.append(t)
    return int(eval("".join(out), {"__builtins__": {}}))


def tlnum(s):
    m = re.fullmatch(r"tl([0-9]|[12][0-9]|3[01])", s)
    if not m:
        raise ValueError("bad TL register %r" % s)
    return int(m.group(1))


def parse(path):
    """Instructions of an assembly file: list of (lineno, text, fields)."""
    syms = {}
    out = []
    with open(path) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for no, raw in enumerate(text.split("\n"), 1):
        line = raw.split("#", 1)[0].strip()
        m = re.match(r"\.(equ|set)\s+([.\w]+)\s*,\s*(.+)$", line)
        if m:
            syms[m.group(2)] = gas_int(m.group(3), syms)
            continue
        if not line.startswith("tl."):
            continue
        mnem, rest = re.match(r"(\S+)\s*(.*)$", line).groups()
        ops = [o.replace(" ", "").replace("\t", "") for o in rest.split(",")]
        kinds, eng = FORMS[mnem]
        if len(ops) == len(kinds) + 1:
            last = ops.pop()
            eng = gas_int(last[4:] if last.startswith("eng=") else last, syms)
        assert len(ops) == len(kinds), (no, raw)
        assert 0 <= eng <= 3
        vals = []
        for k, o in zip(kinds, ops):
            if k == "t":
                vals.append(tlnum(o))
            elif k == "g":
                vals.append(GPR[o])
            elif k == "i":
                v = gas_int(o, syms)
                assert -128 <= v <= 127, (no, raw)
                vals.append(v)
            else:  # imm(reg)
                m = re.fullmatch(r"(.*)\((\w+)\)", o)
                v = gas_int(m.group(1), syms) if m.group(1) else 0
                assert -128 <= v <= 127, (no, raw)
                vals.append((v, GPR[m.group(2)]))
        out.append((no, raw.strip(), (mnem, vals, eng)))
    return out


def ref_word(mnem, vals, eng):
    """The word from tlref.py's encoders."""
    base = mnem.split(".")[1]
    if base in ("load", "mload", "store", "mstore"):
        tlr, (imm, rs1) = vals
        return getattr(tlref, "encode_" + base)(tlr, imm, rs1, engine=eng)
    if base in ("concat", "merge"):
        d = int(mnem.split(".")[2])
        return getattr(tlref, "encode_" + base)(d, *vals, engine=eng)
    if base == "xpose":
        return tlref.encode_xpose_ab(mnem.split(".")[2], *vals, engine=eng)
    if base == "addi":
        return tlref.encode_addi(*vals, engine=eng)
    if base == "muls":
        return tlref.encode_muls(*vals, engine=eng)
    if base == "fillpad":
        return tlref.encode_fillpad(mnem.split(".")[2], *vals, engine=eng)
    raise ValueError(mnem)


def c_expr(mnem, vals, eng):
    """The same instruction as a TL_ENC_* expression of include/tl/tl_insn.h."""
    base = mnem.split(".")[1]
    if base in ("load", "mload", "store", "mstore"):
        tlr, (imm, rs1) = vals
        st = int(base.endswith("store"))
        tm = int(base.startswith("m"))
        return "TL_ENC_MEM(%d, %d, %d, %d, %d, %d)" % (eng, st, tm, tlr, imm, rs1)
    if base in ("concat", "merge"):
        d = int(mnem.split(".")[2])
        return "TL_ENC_MOVE(%d, %d, %d, %d, %d, %d)" % (eng, base == "merge", d, *vals)
    if base == "xpose":
        ab = mnem.split(".")[2]
        return "TL_ENC_XPOSE(%d, %s, %s, %d, %d, %d)" % (eng, ab[0], ab[1], *vals)
    if base == "addi":
        return "TL_ENC_ADDI(%d, %d, %d, %d)" % (eng, *vals)
    if base == "muls":
        return "TL_ENC_MULS(%d, %d, %d, %d)" % (eng, *vals)
    if base == "fillpad":
        pad = "TL_PAD_" + mnem.split(".")[2].upper()
        return "TL_ENC_FILLPAD(%d, %s, %d, %d)" % (eng, pad, *vals)
    raise ValueError(mnem)


def main(argv):
    mode, src = argv[1], argv[2]
    insns = parse(src)
    if mode == "pairs":
        for no, text, f in insns:
            print("0x%08x\t%s" % (ref_word(*f), text))
        return 0
    if mode == "cprog":
        with open(argv[3], "w") as out:
            out.write("/* generated by tests/asm/check_words.py from %s */\n"
                      "#include <stdio.h>\n#include \"tl/tl_insn.h\"\n"
                      "static const unsigned long long words[] = {\n" % os.path.basename(src))
            for no, text, f in insns:
                out.write("    %s, /* %d: %s */\n" % (c_expr(*f), no, text.replace("*/", "")))
            out.write("};\nint main(void)\n{\n"
                      "    for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++)\n"
                      "        printf(\"%08llx\\n\", words[i]);\n    return 0;\n}\n")
        return 0
    if mode == "compare":
        data = open(argv[3], "rb").read()
        cwords = [int(x, 16) for x in open(argv[4]).read().split()]
        asm = list(struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4]))
        ok = len(insns) > 0 and len(asm) == len(insns) and len(cwords) == len(insns) and len(data) % 4 == 0
        print("%s - word count: %d instruction lines, %d bytes of .text (%d words), %d TL_ENC_* words"
              % ("ok" if ok else "not ok", len(insns), len(data), len(asm), len(cwords)))
        for k, (no, text, f) in enumerate(insns):
            ref = ref_word(*f)
            c = cwords[k] if k < len(cwords) else None
            a = asm[k] if k < len(asm) else None
            good = a == ref == c
            line = "%s - line %d: %-40s -> 0x%08x" % ("ok" if good else "not ok", no, text,
                                                      a if a is not None else 0)
            if not good:
                line += "  (as %s, tlref 0x%08x, tl_insn.h %s)" % (
                    "none" if a is None else "0x%08x" % a, ref, "none" if c is None else "0x%08x" % c)
            print(line)
        return 0
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
