#!/usr/bin/env python3
"""The counts and byte totals of tests/plugin/known.c, computed by hand from
docs/isa.md (section 5.2: a memory instruction moves W bytes per selected
slice; S = D1*D2*esz/8; W = S and P = W while the CSRs are uninitialized).

Prints the expectation of one mode of known.c as JSON for compare.py:
  mix:   {"mnemonic type": [count, bytes, traps]} (rows with no count or trap absent)
  engines: {"mnemonic type": [EngineID 0..3 counts]} (only rows checked)
  cells: every coverage cell hit (all others must be 0)
  cell_hits: the hits of the cells counted by hand
"""
import json
import sys

CSRS = ["ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
        "tmask_load_stride", "tmask_load_width", "tvalid", "tinit"]


def mix_mode():
    s8 = 16 * 16 * 8 // 8            # int8 [4,16,16]: S = 256
    s16 = 8 * 8 * 16 // 8            # int16 [2,8,8]: S = 128
    mix = {
        # A: 100 unmasked loads, 4 slices x W = S = 256; M: 6 more (4 strided, 2 contiguous)
        "tl.load int8": [100 + 6, (100 + 6) * 4 * s8, 0],
        # B: W = 100, P = 300: 50 stores of 4 slices x 100 bytes
        "tl.store int8": [50, 50 * 4 * 100, 0],
        # C: tmask_ls = 0b0101 selects 2 of the 4 slices, W = 100
        "tl.mload int8": [20, 20 * 2 * 100, 0],
        # D: after tinit = 0x03, W = S = 128 again: 30 + 3 (EngineID 2) loads of
        # 2 slices; G: two loads from unmapped addresses trap (SIGSEGV, skipped)
        "tl.load int16": [33, 33 * 2 * s16, 2],
        # E
        # 40 in E, 5 after the SIGUSR1 handler (I), 3 in K, 4 in L after the SIGUSR2 handler
        # changed the saved ttype to int16
        "tl.addi int16": [40 + 5 + 3 + 4, 0, 0],
        "tl.addi int8": [3 + 4, 0, 0],        # K: ttype alternates int8, int16 over six runs; L: 4
        "tl.muls int16": [10, 0, 0],
        "tl.fillpad.max int16": [5, 0, 0],
        "tl.concat.0 int16": [6, 0, 0],
        "tl.xpose.01 int16": [4, 0, 0],
        # G: tmask_ls uninitialized after the tinit write: SIGILL
        "tl.mload int16": [0, 0, 1],
        # G: funct3 = 110 (R1), ttype is int16 at that point
        "reserved.R1 int16": [0, 0, 1],
        # H: the store faults once (PROT_NONE page), the handler makes the page
        # writable and it runs again: one trap, one completed store of 2 slices
        "tl.store int16": [1, 2 * s16, 1],
        # I: the SIGUSR1 handler switches ttype to int32 for two tl.addi
        "tl.addi int32": [2, 0, 0],
        # J: int32 [2,8,8] (S = 256), both slices selected; W = 16, 64, 16, ...
        # for ten stores and ten loads: 5 x 2 x 16 + 5 x 2 x 64 = 800 bytes each;
        # then twelve loads with W = 8, 16, ..., 96: 2 x 8 x (1 + ... + 12) = 1248
        "tl.mstore int32": [10, 800, 0],
        "tl.mload int32": [10 + 12, 800 + 1248, 0],
    }
    engines = {"tl.load int16": [30, 0, 3, 0], "tl.load int8": [100 + 6, 0, 0, 0],
               "tl.store int8": [0, 0, 50, 0], "tl.addi int16": [0, 52, 0, 0]}
    cells = [
        "tl.load int8 contiguous full-width",      # P = W = S
        "tl.load int8 strided full-width",         # M: P = 512 or 768, W = S = 256
        "tl.store int8 strided partial-width",     # P = 300 != W = 100 < S = 256
        "tl.mload int8 strided partial-width",
        "tl.load int16 contiguous full-width",
        "tl.store int16 contiguous full-width",
        "tl.mstore int32 contiguous partial-width",  # J: P = W (stride uninitialized), W < S
        "tl.mload int32 contiguous partial-width",
        "tl.addi int8", "tl.addi int16", "tl.addi int32", "tl.muls int16", "tl.fillpad.max int16",
        "tl.concat.0 int16", "tl.xpose.01 int16", "reserved.R1",
        "trap load-page-fault", "trap store-page-fault",
        "trap illegal-instruction.operand", "trap illegal-instruction.reserved",
    ] + ["csr %s written" % c for c in CSRS]
    # A: 100 contiguous; M: pitches 512, 768, 256, 512, 768, 256 with W = 256
    cell_hits = {"tl.load int8 contiguous full-width": 100 + 2, "tl.load int8 strided full-width": 4}
    return mix, engines, cells, cell_hits


def fatal_mode(mode):
    if mode == "segv":        # tshape written, then one load from address 16
        return {"tl.load int8": [0, 0, 1]}, {}, ["trap load-page-fault", "csr tshape written"], {}
    if mode == "sigill":      # tshape never written
        return {"tl.load int8": [0, 0, 1]}, {}, ["trap illegal-instruction.operand"], {}
    if mode == "off":         # no TL CSRs at all: no element type
        return {"tl.addi none": [0, 0, 1]}, {}, ["trap illegal-instruction.xtl-off"], {}
    raise SystemExit("unknown mode " + mode)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "mix"
    mix, engines, cells, cell_hits = mix_mode() if mode == "mix" else fatal_mode(mode)
    json.dump({"mix": mix, "engines": engines, "cells": cells, "cell_hits": cell_hits}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
