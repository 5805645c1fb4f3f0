#!/usr/bin/python3
"""Helpers of tests/asm/binutils.sh (the patched GNU binutils with xtl).

Expected values come from tests/reference/tlref.py (decoder, CSR encoder) and
the syntax rules of docs/isa.md section 4, never from binutils:

    gas_xtl.py csr-src OUT.S OUT.words     # csr* instructions on every TL CSR, expected words
    gas_xtl.py words OUT.bin OUT.txt       # word set: tests/diff directed + random (fixed
                                           # seed) + every xpose funct5 and EngineID + all of
                                           # bits [31:20] x funct3 (random register fields)
    gas_xtl.py text WORD                   # docs/isa.md text of one word (or "-")
    gas_xtl.py objdump-vs-text DUMP.txt WORDS.bin [QEMU.txt]
          # one ok/not ok line per class (legal, reserved if any, QEMU): objdump
          # -d text (and QEMU xtl_disas text) of each word == the docs/isa.md
          # text from tlref.decode
    gas_xtl.py relisting DUMP.txt OUT.S    # objdump's TL lines as a source file

Run with Debian's /usr/bin/python3 (tlref needs numpy).
"""

import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
sys.path.insert(0, os.path.join(HERE, "..", "diff"))
import tlref  # noqa: E402

ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
       "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
       "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
       "t3", "t4", "t5", "t6"]
CSR_NAMES = ["ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
             "tmask_load_stride", "tmask_load_width", "tvalid", "tinit"]
# default EngineID per instruction, docs/isa.md 4.2
DEFAULT_ENG = {"tl.load": 0, "tl.mload": 0, "tl.store": 2, "tl.mstore": 2, "tl.addi": 1,
               "tl.muls": 1, "tl.concat": 3, "tl.merge": 3, "tl.xpose": 3, "tl.fillpad": 3}
PADS = ["zero", "min", "max"]


def doc_text(word):
    """The assembler text of docs/isa.md 4.3 (objdump spacing: no blank after
    commas) for a legal TL word, None for anything else."""
    i = tlref.decode(word)
    if i is None or i.name == "illegal":
        return None
    n = i.name
    if n in ("tl.load", "tl.mload"):
        m, ops = n, "tl%d,%d(%s)" % (i.tlrd, i.imm, ABI[i.rs1])
    elif n in ("tl.store", "tl.mstore"):
        m, ops = n, "tl%d,%d(%s)" % (i.tlrs, i.imm, ABI[i.rs1])
    elif n in ("tl.concat", "tl.merge"):
        m, ops = "%s.%d" % (n, i.dim), "tl%d,tl%d,tl%d" % (i.tlrd, i.tlrs1, i.tlrs2)
    elif n == "tl.addi":
        m, ops = n, "tl%d,tl%d,%d" % (i.tlrd, i.tlrs, i.imm)
    elif n == "tl.xpose":
        a, b = sorted((i.dim0, i.dim1))                 # docs/isa.md 4.4, choice A8
        m, ops = "tl.xpose.%d%d" % (a, b), "tl%d,tl%d,%s" % (i.tlrs1, i.tlrs2, ABI[i.rs])
    elif n == "tl.muls":
        m, ops = n, "tl%d,tl%d,%s" % (i.tlrd, i.tlrs, ABI[i.rs2])
    elif n == "tl.fillpad":
        m, ops = "tl.fillpad." + PADS[i.pad], "tl%d,tl%d" % (i.tlrd, i.tlrs)
    else:
        raise ValueError(n)
    if i.engine != DEFAULT_ENG[n]:
        ops += ",eng=%d" % i.engine                    # docs/isa.md 4.2, choice A7
    return "%s %s" % (m, ops)


def norm(text):
    """'mnemonic<spaces>a, b' -> 'mnemonic a,b'."""
    text = text.strip()
    parts = text.split(None, 1)
    if len(parts) == 1:
        return parts[0]
    return parts[0] + " " + re.sub(r"\s*,\s*", ",", parts[1].strip())


def objdump_lines(path):
    """(address, word, text) of each instruction line of objdump -d output."""
    out = []
    for line in open(path):
        m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(.*)$", line.rstrip("\n"))
        if m:
            out.append((int(m.group(1), 16), int(m.group(2), 16), norm(m.group(3))))
    return out


def word_set():
    """Words of the differential test set plus systematic ones, de-duplicated, in order."""
    import tl_diff
    words = []
    env = tl_diff.make_env(tl_diff.DIRECTED_SEED, True)
    words += [c.word for c in tl_diff.directed_cases(env.by_type)]
    seed = 20261125
    env = tl_diff.make_env(seed, False)
    words += [tl_diff.random_case(seed, k, env.by_type).word for k in range(3000)]
    F = tlref.encode_fields
    for f5 in range(32):                                 # every xpose funct5, every engine
        for eng in range(4):
            words.append(F(tlref.FUNCT3_XPOSE, f5, 2, 1, 10, engine=eng))
    for f3 in range(8):                                  # every funct3 x funct5, engine 1
        for f5 in range(32):
            words.append(F(f3, f5, 0, 5, 6, engine=1))
    import random
    rnd = random.Random(4096)                            # all of [31:20] x funct3
    for eng in range(4):
        for f5 in range(32):
            for b24 in range(32):
                for f3 in range(8):
                    b19 = rnd.randrange(32)
                    words.append(F(f3, f5, b24, b19, rnd.randrange(32), engine=eng))
    seen, out = set(), []
    for w in words:
        w &= 0xFFFFFFFF
        if tlref.decode(w) is not None and w not in seen:
            seen.add(w)
            out.append(w)
    return out


def main(argv):
    mode = argv[1]
    if mode == "csr-src":
        src, words = [], []
        for k, name in enumerate(CSR_NAMES):
            num = 0x800 + k
            assert getattr(tlref, "CSR_" + name.upper()) == num
            rd, rs = 10 + k % 8, 5 + k % 3
            for text, word in (
                    ("csrr %s, %s" % (ABI[rd], name), tlref.encode_csr("csrrs", num, rd, 0)),
                    ("csrw %s, %s" % (name, ABI[rs]), tlref.encode_csr("csrrw", num, 0, rs)),
                    ("csrs %s, %s" % (name, ABI[rs]), tlref.encode_csr("csrrs", num, 0, rs)),
                    ("csrc %s, %s" % (name, ABI[rs]), tlref.encode_csr("csrrc", num, 0, rs)),
                    ("csrrw %s, %s, %s" % (ABI[rd], name, ABI[rs]),
                     tlref.encode_csr("csrrw", num, rd, rs)),
                    ("csrwi %s, %d" % (name, k + 1), tlref.encode_csr("csrrwi", num, 0, k + 1)),
                    ("csrrci %s, %s, 3" % (ABI[rd], name), tlref.encode_csr("csrrci", num, rd, 3))):
                src.append("\t%s\t# %s" % (text, name))
                words.append("%08x %s" % (word, name))
        with open(argv[2], "w") as f:
            f.write("/* every TL CSR by name (generated by tests/asm/gas_xtl.py) */\n"
                    "\t.text\n" + "\n".join(src) + "\n")
        with open(argv[3], "w") as f:
            f.write("\n".join(words) + "\n")
        return 0
    if mode == "words":
        ws = word_set()
        with open(argv[2], "wb") as f:
            f.write(struct.pack("<%dI" % len(ws), *ws))
        with open(argv[3], "w") as f:
            f.write("".join("%08x\n" % w for w in ws))
        return 0
    if mode == "text":
        t = doc_text(int(argv[2], 0))
        print(t if t else "-")
        return 0
    if mode == "objdump-vs-text":
        data = open(argv[3], "rb").read()
        ws = struct.unpack("<%dI" % (len(data) // 4), data)
        dump = {addr: (w, t) for addr, w, t in objdump_lines(argv[2])}
        qemu = None
        if len(argv) > 4:
            qemu = [ln.rstrip("\n") for ln in open(argv[4])]
        legal = sum(1 for w in ws if doc_text(w) is not None)
        bad_obj, bad_rej, bad_q = [], [], []
        for k, w in enumerate(ws):
            want = doc_text(w)
            got_w, got = dump.get(4 * k, (None, ""))
            if got_w != w:
                bad_obj.append("0x%08x: objdump shows no line for it" % w)
                continue
            if want is None:
                if got.startswith("tl."):
                    bad_rej.append("0x%08x: reserved, objdump shows %s" % (w, got))
            elif got != want:
                bad_obj.append("0x%08x: objdump '%s', docs/isa.md '%s'" % (w, got, want))
            if qemu is not None:
                q = qemu[k] if k < len(qemu) else "?"
                if want is None:
                    if q != "-" or got.startswith("tl."):
                        bad_q.append("0x%08x: reserved; QEMU '%s', objdump '%s'" % (w, q, got))
                elif norm(q) != got:
                    bad_q.append("0x%08x: QEMU '%s', objdump '%s'" % (w, norm(q), got))
        reserved = len(ws) - legal
        print("%s - objdump prints the docs/isa.md text (tlref.decode) of all %d legal TL words%s"
              % ("not ok" if bad_obj or not legal else "ok", legal,
                 "; " + "; ".join(bad_obj[:3]) if bad_obj else ""))
        if reserved:                # (a set of legal words makes no claim about reserved ones)
            print("%s - objdump shows none of the %d reserved CUSTOM-2 words as a tl.* instruction%s"
                  % ("not ok" if bad_rej else "ok", reserved,
                     "; " + "; ".join(bad_rej[:3]) if bad_rej else ""))
        if qemu is not None:        # the differential set holds both kinds
            print("%s - QEMU's disassembler (xtl_disas.c) and objdump agree on all %d words "
                  "(%d legal, %d reserved)%s"
                  % ("not ok" if bad_q or not legal or not reserved else "ok", len(ws), legal, reserved,
                     "; " + "; ".join(bad_q[:3]) if bad_q else ""))
        return 0
    if mode == "relisting":
        with open(argv[3], "w") as f:
            f.write("\t.text\n")
            for addr, w, t in objdump_lines(argv[2]):
                f.write("\t%s\n" % t)
        return 0
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
