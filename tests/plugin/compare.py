#!/usr/bin/env python3
"""compare.py REPORT.json EXPECTED.json LABEL: checks a tlstat JSON report
against independently computed expectations; prints one TAP-ish line per
check ("ok - ..." / "not ok - ...") and exits 1 if any failed.

EXPECTED: {"mix": {"mnemonic type": [count, bytes, traps]}, "engines": {...},
"cells": [hit cell names]}; optional "guest_insns_min" and "cell_hits"
({cell name: hits}, for the cells whose hits were counted by hand).  Mix rows
and hit cells must match exactly (nothing missing, nothing extra); totals must
be the sums of the expected rows."""
import json
import sys


def main():
    rep = json.load(open(sys.argv[1]))
    exp = json.load(open(sys.argv[2]))
    label = sys.argv[3]
    fails = 0

    def check(ok, what):
        nonlocal fails
        print(("ok - " if ok else "not ok - ") + label + ": " + what)
        fails += not ok

    got = {"%s %s" % (m["mnemonic"], m["type"]): [m["count"], m["bytes"], m["traps"]]
           for m in rep["mix"]}
    for key in sorted(set(got) | set(exp["mix"])):
        e, g = exp["mix"].get(key), got.get(key)
        check(e == g, "%s count/bytes/traps expected %s, reported %s" % (key, e, g))
    gotn = {"%s %s" % (m["mnemonic"], m["type"]): m["engines"] for m in rep["mix"]}
    for key, e in sorted(exp.get("engines", {}).items()):
        check(gotn.get(key) == e, "%s per EngineID expected %s, reported %s" % (key, e, gotn.get(key)))
    tot = [sum(v[i] for v in exp["mix"].values()) for i in range(3)]
    check([rep["tl_insns"], rep["tl_bytes"], rep["traps"]] == tot,
          "totals (TL instructions, bytes, traps) expected %s, reported %s"
          % (tot, [rep["tl_insns"], rep["tl_bytes"], rep["traps"]]))
    hit = {c["cell"] for c in rep["coverage"]["cells"] if c["hits"]}
    want = set(exp["cells"])
    check(hit == want, "coverage cells hit are exactly the %d expected (missing %s, unexpected %s)"
          % (len(want), sorted(want - hit), sorted(hit - want)))
    hits = {c["cell"]: c["hits"] for c in rep["coverage"]["cells"]}
    for cell, e in sorted(exp.get("cell_hits", {}).items()):
        check(hits.get(cell) == e, "cell %s hit %s times, expected %d" % (cell, hits.get(cell), e))
    never = set(rep["coverage"]["never_hit"])
    allc = {c["cell"] for c in rep["coverage"]["cells"]}
    check(never == allc - hit and rep["coverage"]["hit"] == len(hit),
          "never_hit lists exactly the %d cells with 0 hits" % len(allc - hit))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
