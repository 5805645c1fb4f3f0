#!/usr/bin/env python3
"""gen_cases.py SEED COUNT OUTDIR: random TL programs for the tlstat test,
with their expected report computed by the reference model
(tests/reference/tlref.py), not by the plugin.

Writes OUTDIR/cases.S (function run_cases: straight-line CSR writes and TL
words; a handler in cases_main.c skips every trapping instruction) and
OUTDIR/cases_expected.json (the format of compare.py).  Memory: the program
maps [BASE, BASE + 1 MiB) with the first and last 256 KiB PROT_NONE; every
address a case can touch lies inside, so the model knows each fault.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import tlref  # noqa: E402

BASE = 0x20000000
GUARD = 256 * 1024
DATA_LO, DATA_HI = BASE + GUARD, BASE + 3 * GUARD
TOP = BASE + 4 * GUARD
CSR = {n: 0x800 + i for i, n in enumerate(
    ["ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
     "tmask_load_stride", "tmask_load_width", "tvalid", "tinit"])}
# docs/isa.md 3.1, with tlstat's short names
TYPES = {0x001: ("int4", 4), 0x002: ("int8", 8), 0x004: ("int16", 16), 0x008: ("int32", 32),
         0x010: ("e2m1", 4), 0x040: ("e4m3", 8), 0x080: ("e5m2", 8), 0x0C0: ("e3m4", 8),
         0x100: ("fp16", 16), 0x200: ("bf16", 16), 0x400: ("fp32", 32)}


class CountingMemory(tlref.Memory):
    """The model's memory, counting the bytes an instruction reads or writes."""

    def __init__(self):
        super().__init__()
        self.moved = 0

    def read(self, addr, length):
        self.moved += length
        return super().read(addr, length)

    def write(self, addr, data):
        self.moved += len(data)
        super().write(addr, data)


def reserved_rule(w):
    """R1..R10 of docs/isa.md 4.6 (as tlref.decode names it), or 0 for a valid encoding."""
    d = tlref.decode(w)
    return d.rule if d.name == "illegal" else 0


def mnemonic(ins):
    n = ins.name
    if n in ("tl.concat", "tl.merge"):
        return "%s.%d" % (n, ins.dim)
    if n == "tl.xpose":
        a, b = sorted((ins.dim0, ins.dim1))
        return "tl.xpose.nop" if a == b else "tl.xpose.%d%d" % (a, b)
    if n == "tl.fillpad":
        return "tl.fillpad." + ("zero", "min", "max")[ins.pad]
    return n


def rand_csrs(rng, st):
    """A few random CSR writes: (csr address, value) in program order."""
    out = []
    if rng.random() < 0.4:
        t = rng.choice(list(TYPES)) if rng.random() < 0.9 else rng.choice([0, 0x003, 0x020, 0x300])
        out.append((CSR["ttype"], t))
    if rng.random() < 0.4:
        d0 = rng.choice([1, 2, 3, 4, 8, 16, 32, 33])
        d1, d2 = rng.choice([1, 2, 4, 8, 16]), rng.choice([1, 2, 3, 4, 8, 16])
        out.append((CSR["tshape"], tlref.tshape_value(d0, d1, d2)))
    if rng.random() < 0.3:
        out.append((CSR["tmask_load_width"], rng.choice([0, 1, 3, 16, 64, 100, 256, 1024, 2000])))
    if rng.random() < 0.3:
        out.append((CSR["tmask_load_stride"], rng.choice([0, 1, 64, 256, 1000, -64, -300, 2048]) & 0xFFFFFFFF))
    if rng.random() < 0.3:
        out.append((CSR["tmask_ls"], rng.getrandbits(32)))
    if rng.random() < 0.2:
        out.append((CSR["tmask_concat_1"], rng.getrandbits(rng.choice([2, 4, 32]))))
    if rng.random() < 0.2:
        out.append((CSR["tmask_concat_2"], rng.getrandbits(rng.choice([2, 4, 32]))))
    if rng.random() < 0.2:
        out.append((CSR["tvalid"], tlref.tshape_value(rng.randint(0, 4), rng.randint(0, 8), rng.randint(0, 8))))
    if rng.random() < 0.1:
        out.append((CSR["tinit"], rng.getrandbits(8)))
    return out


MEM_ENCODERS = [[tlref.encode_load, tlref.encode_mload], [tlref.encode_store, tlref.encode_mstore]]


def rand_word(rng):
    eng = rng.randint(0, 3)
    r = lambda: rng.randint(0, 31)  # noqa: E731
    k = rng.random()
    if k < 0.5:  # memory forms use t0 (x5) as rs1
        st, tm = rng.randint(0, 1), rng.randint(0, 1)
        imm = rng.choice([0, 0, 0, 1, -1, 2, rng.randint(-128, 127)]) & 0xFF
        return MEM_ENCODERS[st][tm](r(), imm, 5, engine=eng)
    if k < 0.9:
        f3 = rng.choice([tlref.FUNCT3_MOVE, tlref.FUNCT3_MOVE, tlref.FUNCT3_ADDI, tlref.FUNCT3_XPOSE,
                         tlref.FUNCT3_XPOSE, tlref.FUNCT3_MULS, tlref.FUNCT3_FILLPAD])
        # funct5: concat.D/merge.D, any xpose pair, fillpad.P (drawn for every f3)
        f5 = {tlref.FUNCT3_MOVE: rng.choice([0, 1, 2, 4, 5, 6]), tlref.FUNCT3_ADDI: 0,
              tlref.FUNCT3_XPOSE: rng.randint(0, 15), tlref.FUNCT3_MULS: 0,
              tlref.FUNCT3_FILLPAD: rng.randint(0, 2)}[f3]
        if f3 == tlref.FUNCT3_ADDI:
            imm = rng.randint(0, 255)
            tlrs = r()
            return tlref.encode_addi(r(), tlrs, imm, engine=eng)
        b24 = 6 if f3 == tlref.FUNCT3_MULS else (0 if f3 == tlref.FUNCT3_FILLPAD else r())
        rd = 6 if f3 == tlref.FUNCT3_XPOSE else r()
        return tlref.encode_fields(f3, f5, b24, r(), rd, engine=eng)
    while True:  # a reserved encoding: random bits [31:7] of a CUSTOM-2 word
        w = rng.getrandbits(25) << 7 | tlref.OPCODE_CUSTOM2
        if reserved_rule(w):
            return w


def rand_base(rng):
    if rng.random() < 0.8:
        return (DATA_LO + DATA_HI) // 2 + rng.randint(-32768, 32768)
    if rng.random() < 0.5:
        return DATA_HI - rng.randint(0, 4096)     # slices may run into the upper guard
    return DATA_LO - rng.randint(1, 4096)         # starts in the lower guard


def rand_arg(rng, st):
    """t1: xpose dimensions (usually 2048 bytes for the current type) or a muls scalar."""
    t = TYPES.get(st.csr_read(CSR["ttype"]))
    if t and rng.random() < 0.8:
        n = 2048 * 8 // t[1]
        d0 = rng.choice([2, 4])
        d1 = rng.choice([1, 2, 4])
        d2 = rng.choice([1, 2, 4, 8])
        d3 = n // (d0 * d1 * d2)
        if 1 <= d3 <= 255 and d0 * d1 * d2 * d3 == n:
            return tlref.xpose_dims_value(d0, d1, d2, d3)
    return rng.getrandbits(32)


def main():
    seed, count, outdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    st = tlref.TLState()
    mix, cells = {}, set()
    asm = ["# generated by tests/plugin/gen_cases.py, seed %d" % seed, ".text", ".globl run_cases",
           "run_cases:"]
    for _ in range(count):
        for addr, val in rand_csrs(rng, st):
            asm += ["  li t2, %d" % val, "  csrw 0x%x, t2" % addr]
            st.csr_write(addr, val)
            cells.add("csr %s written" % [k for k, v in CSR.items() if v == addr][0])
        w, base, arg = rand_word(rng), rand_base(rng), None
        arg = rand_arg(rng, st)
        asm += ["  li t0, %d" % base, "  li t1, %d" % arg, "  .insn 4, 0x%08x" % w]
        ttype = st.csr_read(CSR["ttype"])
        tname = TYPES.get(ttype, ("none", 0))[0]
        mem = CountingMemory()
        mem.add_fault(BASE, DATA_LO)
        mem.add_fault(DATA_HI, TOP)
        rule = reserved_rule(w)
        name = "reserved.R%d" % rule if rule else mnemonic(tlref.decode(w))
        row = mix.setdefault("%s %s" % (name, tname), [0, 0, 0])
        try:
            tlref.execute(st, mem, w, {5: base, 6: arg})
        except tlref.IllegalInstruction:
            row[2] += 1
            if rule:
                cells.add("reserved.R%d" % rule)
                cells.add("trap illegal-instruction.reserved")
            else:
                cells.add("trap illegal-instruction.operand")
            continue
        except tlref.MemoryFault as f:
            row[2] += 1
            cells.add("trap store-page-fault" if f.is_store else "trap load-page-fault")
            continue
        row[0] += 1
        row[1] += mem.moved
        if name.startswith(("tl.load", "tl.store", "tl.mload", "tl.mstore")):
            esz = TYPES[ttype][1]
            d1, d2 = (st.csr_read(CSR["tshape"]) >> 8) & 255, st.csr_read(CSR["tshape"]) & 255
            s = d1 * d2 * esz // 8
            wdt = st.csr_read(CSR["tmask_load_width"]) if st.csr_initialized(CSR["tmask_load_width"]) else s
            p = tlref.sext(st.csr_read(CSR["tmask_load_stride"]), 32) \
                if st.csr_initialized(CSR["tmask_load_stride"]) else wdt
            cells.add("%s %s %s %s" % (name, tname, "strided" if p != wdt else "contiguous",
                                       "partial-width" if wdt < s else "full-width"))
        else:
            cells.add("%s %s" % (name, tname))
    asm += ["  ret", ""]
    mix = {k: v for k, v in mix.items() if v != [0, 0, 0]}
    with open(os.path.join(outdir, "cases.S"), "w") as f:
        f.write("\n".join(asm))
    with open(os.path.join(outdir, "cases_expected.json"), "w") as f:
        json.dump({"mix": mix, "engines": {}, "cells": sorted(cells)}, f, indent=1)


if __name__ == "__main__":
    main()
