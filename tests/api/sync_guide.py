#!/usr/bin/env python3
"""Keeps the example listings of docs/programming-guide.md equal to the files.

A listing is a line '<!-- example: PATH -->' followed by a ```cpp fenced block;
the block must hold exactly the text of PATH (relative to the repository).
  sync_guide.py --check   exit 1 and name every stale listing (used by run.sh)
  sync_guide.py --update  rewrite the listings from the files
Prints the example paths, one per line, on success (run.sh builds them).
"""
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "programming-guide.md"
PATTERN = re.compile(r"<!-- example: (\S+) -->\n```cpp\n(.*?)```\n", re.S)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "--check"
    text = GUIDE.read_text()
    stale, paths = [], []

    def replace(m):
        path = m.group(1)
        paths.append(path)
        body = (REPO / path).read_text()
        if m.group(2) != body:
            stale.append(path)
        return "<!-- example: %s -->\n```cpp\n%s```\n" % (path, body)

    new = PATTERN.sub(replace, text)
    if mode == "--update":
        GUIDE.write_text(new)
    elif stale:
        for p in stale:
            print("stale listing of %s in %s (run %s --update)" % (p, GUIDE, sys.argv[0]),
                  file=sys.stderr)
        return 1
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
