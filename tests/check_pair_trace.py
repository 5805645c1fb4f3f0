#!/usr/bin/env python3
"""Which path each check of test_pair_xpose or test_pair_store (user mode)
or test_pair (firmware) took, from one stream holding the program's check
lines and QEMU's xtl_load_pair_xpose trace lines (-trace
xtl_load_pair_xpose, the log on the same output).  The trace lines a
check's runs made come before its "ok" line.  Each check's description says
what it tests; RULES say which outcomes its runs must trace: at least / at
most so many of one outcome ("one pass": tl.load, tl.load, tl.xpose run as
one; "one pass with the two stores": the same and the two tl.store after
them), and whether the translator may try at all.  Prints one "ok"/"not ok"
line per rule ("ok - ...", for tests/tap.sh's relay) and exits 1 when one
fails or a rule matched no check.

  check_pair_trace.py user|user-store|firmware|plugin FILE

plugin: the program ran under a TCG plugin, where the instructions always
run one by one: no check's runs may trace an attempt.
"""
import re
import sys

TRACE = re.compile(r"xtl_load_pair_xpose tl\.load, tl\.load, tl\.xpose from 0x[0-9a-f]+ and "
                   r"0x[0-9a-f]+: (.*)$")
CHECK = re.compile(r"^(?:not )?ok(?: \d+)? - (.*)$")

ONE = "one pass"
STORES = "one pass with the two stores"

# (description contains, min, max (None: any), traced at all[, the outcome counted: ONE unless
# given])
RULES = {
    "user": [
        (", in a row:", 1, None, True),
        ("with nops between", 0, 0, False),
        ("the second load faults", 0, 0, True),
        ("the first load faults", 0, 0, True),
        ("not 2048 bytes", 0, 0, True),
        ("an invalid ttype", 0, 0, True),
        ("both loads to tl5", 0, 0, False),
        ("a load into tl0", 0, 0, False),
        ("rewritten to another swap", 3, None, True),
        ("across a page boundary", 0, 0, False),
        ("300 runs of one block", 290, None, True),
    ],
    "firmware": [
        ("twice: the 16-byte runs interleaved", 1, None, True),
        ("a 32 x 64 transpose, twice", 1, None, True),
        ("mstateen0.C = 0", 0, 0, True),
        ("the second load's page unmapped", 0, 0, True),
        ("an xpose of [3,64,16,1]", 0, 0, True),
        ("a load trigger", 0, 0, True),
        ("rewritten to tl.xpose.22", 2, None, True),
        ("tl.store A; tl.store B, twice", 1, None, True, STORES),
        ("tl.store A; tl.store B, twice", 0, 0, True),
        ("the first store's page unmapped", 0, 0, True, STORES),
        ("the second store's page unmapped", 0, 0, True, STORES),
        ("the first store's page read-only", 0, 0, True, STORES),
        ("a store trigger on the first store's", 0, 0, True, STORES),
        ("a store trigger on the second store's", 0, 0, True, STORES),
        ("stores rewritten", 2, None, True, STORES),
        ("stores rewritten", 1, None, True),
        ("over the function", 0, 0, True, STORES),
        ("the five in a loop with the CSRs written once", 3, None, True, STORES),
    ],
    "user-store": [
        (", in a row: the ISA's registers and stored memory", 1, None, True, STORES),
        ("with nops between: the same registers", 0, 0, False, STORES),
        ("overlap:", 1, None, True, STORES),
        ("a store over a load's source:", 0, 0, True, STORES),
        ("the two loads' sources overlap", 0, 0, True, STORES),
        ("stores' operands:", 1, None, True, STORES),
        ("trap:", 0, 0, True, STORES),
        ("then rewritten", 4, None, True, STORES),
        ("then rewritten", 2, None, True),
        ("self-modifying code:", 0, 0, True, STORES),
        ("the second store on the next page", 0, 0, True, STORES),
        ("the second store on the next page", 1, None, True),
        ("300 runs of one block", 290, None, True, STORES),
        ("tl_load_load_xpose_store_store", 18, None, True, STORES),
        ("one block in a loop, CSRs written once", 3, None, True, STORES),
    ],
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in list(RULES) + ["plugin"]:
        sys.exit("usage: check_pair_trace.py user|user-store|firmware|plugin FILE")
    rules = RULES.get(sys.argv[1], [("", 0, 0, False)])
    checks = []          # (description, outcomes of the trace lines before it)
    pending = []
    with open(sys.argv[2], errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            t = TRACE.search(line)
            if t:
                pending.append(t.group(1))
                continue
            c = CHECK.match(line)
            if c:
                checks.append((c.group(1), pending))
                pending = []
    failed = 0
    n = 0
    for key, lo, hi, traced, *counted in rules:
        outcome = counted[0] if counted else ONE
        matched = [(d, o) for d, o in checks if key in d]
        if not matched:
            n += 1
            failed += 1
            print(f"not ok - a check whose description holds '{key}' (none found)")
            continue
        for desc, outcomes in matched:
            n += 1
            one = outcomes.count(outcome)
            ok = one >= lo and (hi is None or one <= hi) and (traced or not outcomes)
            failed += not ok
            want = f"at least {lo}" if hi is None else f"{lo}" if lo == hi else f"{lo} to {hi}"
            others = sorted(set(o for o in outcomes if o != outcome))
            runs = "one-pass runs" if outcome == ONE else f"runs '{outcome}'"
            print(f"{'ok' if ok else 'not ok'} - '{desc[:60].rstrip()}': {one} {runs} (want {want})"
                  f"{'' if traced else ', no attempt'}; {len(outcomes)} traced"
                  f"{' (' + '; '.join(others) + ')' if others else ''}")
    print(f"{n - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
