#!/usr/bin/python3
"""gdb's x/i of the differential word set against objdump's -D of the same
words (TL-QEMU's binutils, checked in the asm group against docs/isa.md):
every word's text must be the same.  Prints ok/not ok and "N passed, M failed".

  compare_disasm.py GDB-OUTPUT OBJDUMP-OUTPUT WORDS.TXT [BASE-ADDRESS]
"""
import re
import sys


def norm(text):
    return " ".join(text.replace("\t", " ").split())


def gdb_lines(path):
    out = {}
    for line in open(path):
        m = re.match(r"^\s*(?:=> )?0x([0-9a-f]+)(?: <[^>]*>)?:\s*(.*)$", line.rstrip("\n"))
        if m:
            out[int(m.group(1), 16)] = norm(m.group(2))
    return out


def objdump_lines(path):
    out = {}
    for line in open(path):
        m = re.match(r"^\s*([0-9a-f]+):\t([0-9a-f]{8})\s*\t(.*)$", line.rstrip("\n"))
        if m:
            out[int(m.group(1), 16)] = (int(m.group(2), 16), norm(m.group(3)))
    return out


def main():
    gdb = gdb_lines(sys.argv[1])
    obj = objdump_lines(sys.argv[2])
    words = [int(w, 16) for w in open(sys.argv[3]).read().split()]
    base = int(sys.argv[4], 0) if len(sys.argv) > 4 else 0
    bad = []
    tl = 0
    for k, w in enumerate(words):
        want = obj.get(base + 4 * k)
        got = gdb.get(base + 4 * k)
        if want is None or want[0] != w:
            bad.append("0x%08x: no objdump line" % w)
        elif got != want[1]:
            bad.append("0x%08x: gdb '%s', objdump '%s'" % (w, got, want[1]))
        elif want[1].startswith("tl."):
            tl += 1
    ok = not bad and tl > 0
    print("%s - gdb x/i = objdump -D on all %d words (%d of them tl.*)%s"
          % ("ok" if ok else "not ok", len(words), tl,
             "" if not bad else ": %d differ, e.g. %s" % (len(bad), "; ".join(bad[:4]))))
    print("%d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
