#!/usr/bin/env python3
"""Tools for tlstat's JSON reports (format=json).

  tlstat-report.py merge OUT.json IN.json...    sum reports (one per QEMU run) into one
  tlstat-report.py summary REPORT.json          coverage summary and never-hit cells
                                                (compact; the JSON lists every cell)
  tlstat-report.py validate REPORT.json...      check reports against tlstat.schema.json
  tlstat-report.py check --claims FILE REPORT.json
        every cell FILE claims is hit; FILE lines are "CELL <tab or 2+ spaces> TEST"
        (the test that claims it), '#' starts a comment.  Prints one ok/not ok
        line per claim and "N passed, M failed"; exits 1 if a claim is not hit.

Mistakes (missing file, not a tlstat report, a claim naming no cell of the
matrix) stop with one "error: ..." line.
"""
import json
import os
import re
import sys


def die(msg):
    print("error: tlstat-report: " + msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            rep = json.load(f)
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    except ValueError as e:
        die("%s is not JSON (%s); run the plugin with format=json" % (path, e))
    if not isinstance(rep, dict) or rep.get("tool") != "tlstat":
        die("%s is not a tlstat report (no \"tool\": \"tlstat\")" % path)
    return rep


def merge(reports):
    out = {"tool": "tlstat", "version": 1, "mode": reports[0]["mode"], "binary": "",
           "guest_insns": 0, "tl_insns": 0, "tl_bytes": 0, "traps": 0}
    mix, pcs, fns, cells, order = {}, {}, {}, {}, []
    for r in reports:
        for k in ("guest_insns", "tl_insns", "tl_bytes", "traps"):
            out[k] += r[k]
        for m in r["mix"]:
            row = mix.setdefault((m["mnemonic"], m["type"]),
                                 {"mnemonic": m["mnemonic"], "type": m["type"], "count": 0, "bytes": 0,
                                  "traps": 0, "share": 0.0, "engines": [0, 0, 0, 0]})
            for k in ("count", "bytes", "traps"):
                row[k] += m[k]
            row["engines"] = [a + b for a, b in zip(row["engines"], m["engines"])]
        for h in r["hot_pcs"]:
            row = pcs.setdefault(h["pc"], dict(h, count=0, bytes=0, traps=0))
            for k in ("count", "bytes", "traps"):
                row[k] += h[k]
        for h in r["hot_functions"]:
            row = fns.setdefault(h["function"], dict(h, count=0, bytes=0, traps=0))
            for k in ("count", "bytes", "traps"):
                row[k] += h[k]
        for c in r["coverage"]["cells"]:
            if c["cell"] not in cells:
                order.append(c["cell"])
                cells[c["cell"]] = 0
            cells[c["cell"]] += c["hits"]
    for row in mix.values():
        row["share"] = row["count"] / out["guest_insns"] if out["guest_insns"] else 0.0
    out["mix"] = sorted(mix.values(), key=lambda m: -m["count"])
    out["hot_pcs"] = sorted(pcs.values(), key=lambda h: -h["count"])[:100]
    out["hot_functions"] = sorted(fns.values(), key=lambda h: -h["count"])[:100]
    out["coverage"] = {"total": len(order), "hit": sum(1 for c in order if cells[c]),
                       "cells": [{"cell": c, "hits": cells[c]} for c in order],
                       "never_hit": [c for c in order if not cells[c]]}
    return out


def summary(rep):
    cov = rep["coverage"]
    print("coverage: %d of %d cells hit (%.1f%%)" % (cov["hit"], cov["total"], 100.0 * cov["hit"] / cov["total"]))
    groups = [("memory forms x type x stride x width", lambda c: c.split()[0] in
               ("tl.load", "tl.mload", "tl.store", "tl.mstore")),
              ("other forms x type", lambda c: c.startswith("tl.") and c.split()[0] not in
               ("tl.load", "tl.mload", "tl.store", "tl.mstore")),
              ("reserved encodings R1-R10", lambda c: c.startswith("reserved.")),
              ("TL CSRs written", lambda c: c.startswith("csr ")),
              ("trap causes", lambda c: c.startswith("trap "))]
    for name, sel in groups:
        cs = [c for c in cov["cells"] if sel(c["cell"])]
        print("  %-40s %4d of %4d" % (name, sum(1 for c in cs if c["hits"]), len(cs)))
    print("never hit (%d cells; a form or form+type none of whose cells was hit is one line):"
          % len(cov["never_hit"]))
    for line in compact_never_hit(cov):
        print("  " + line)


def compact_never_hit(cov):
    """The never-hit cells, a form (or memory form + type) with no hit cell as one line."""
    mem = ("tl.load", "tl.mload", "tl.store", "tl.mstore")
    form_hit, memtype_hit = {}, {}
    for c in cov["cells"]:
        w = c["cell"].split()
        if w[0].startswith("tl."):
            form_hit[w[0]] = form_hit.get(w[0], 0) + (c["hits"] > 0)
            if w[0] in mem:
                memtype_hit[(w[0], w[1])] = memtype_hit.get((w[0], w[1]), 0) + (c["hits"] > 0)
    out = []
    for cell in cov["never_hit"]:
        w = cell.split()
        line = cell
        if w[0] in form_hit and not form_hit[w[0]]:
            line = "%s (every type%s)" % (w[0], ", stride and width" if w[0] in mem else "")
        elif w[0] in mem and not memtype_hit[(w[0], w[1])]:
            line = "%s %s (every stride and width)" % (w[0], w[1])
        if not out or out[-1] != line:
            out.append(line)
    return out


def validate(paths):
    try:
        import jsonschema
    except ImportError:
        die("python3-jsonschema is missing (apt-get install python3-jsonschema, or make deps)")
    schema = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tlstat.schema.json")))
    bad = 0
    for p in paths:
        try:
            with open(p) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("invalid: %s: %s" % (p, e))
            bad += 1
            continue
        errs = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
        cov = doc.get("coverage") if isinstance(doc, dict) else None
        if not errs and cov and cov.get("hit") != sum(1 for c in cov["cells"] if c["hits"]):
            print("invalid: %s: coverage.hit is not the number of cells with hits" % p)
            bad += 1
            continue
        for e in errs[:5]:
            print("invalid: %s: at /%s: %s" % (p, "/".join(str(x) for x in e.path), e.message))
        if errs:
            bad += 1
        else:
            print("valid: %s" % p)
    return bad


def check_claims(claims_path, rep):
    hits = {c["cell"]: c["hits"] for c in rep["coverage"]["cells"]}
    try:
        lines = open(claims_path).read().splitlines()
    except OSError as e:
        die("cannot read the claims file %s: %s" % (claims_path, e.strerror))
    npass = nfail = 0
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = re.split(r"\t+| {2,}", line, maxsplit=1)
        if len(parts) != 2:
            die("%s:%d: expected 'CELL<tab>TEST', got %r" % (claims_path, n, line))
        cell, test = parts[0].strip(), parts[1].strip()
        if cell not in hits:
            die("%s:%d: '%s' is no cell of tlstat's coverage matrix" % (claims_path, n, cell))
        ok = hits[cell] > 0
        print("%s - %s claims '%s': %d hit(s)" % ("ok" if ok else "not ok", test, cell, hits[cell]))
        npass += ok
        nfail += not ok
    print("%d passed, %d failed" % (npass, nfail))
    return nfail


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd = argv[1]
    if cmd == "merge" and len(argv) >= 4:
        out = merge([load(p) for p in argv[3:]])
        with open(argv[2], "w") as f:
            json.dump(out, f, indent=1)
        return 0
    if cmd == "summary" and len(argv) == 3:
        summary(load(argv[2]))
        return 0
    if cmd == "validate" and len(argv) >= 3:
        return 1 if validate(argv[2:]) else 0
    if cmd == "check" and len(argv) == 5 and argv[2] == "--claims":
        return 1 if check_claims(argv[3], load(argv[4])) else 0
    die("usage: tlstat-report.py merge OUT IN... | summary R | validate R... | check --claims FILE R")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
