#!/usr/bin/env python3
"""Writes a gzip-compressed cpio "newc" archive (a Linux initramfs) from a
list in the style of the kernel's usr/gen_init_cpio, without needing root
for device nodes and with fixed owners and times (reproducible output).

    mkcpio.py LIST OUTPUT.cpio.gz

LIST lines (# starts a comment):
    dir   NAME MODE
    file  NAME SOURCE MODE
    slink NAME TARGET MODE
    nod   NAME MODE c|b MAJOR MINOR
    tree  NAME SOURCE_DIR      (SOURCE_DIR's contents under NAME: files and
                                directories with their modes, symbolic links)
Every entry is owned by 0:0; MODE is octal.
"""
import gzip
import os
import stat
import sys


def die(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(1)


def entry(out, ino, name, mode, data=b"", rdev=(0, 0)):
    name_b = name.lstrip("/").encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_b), 0]
    hdr = b"070701" + b"".join(b"%08X" % f for f in fields)
    out.write(hdr + name_b)
    out.write(b"\0" * (-(len(hdr) + len(name_b)) % 4))
    out.write(data)
    out.write(b"\0" * (-len(data) % 4))


def tree(out, ino, dest, src):
    """Entries for everything below directory src, placed under dest; returns the next inode."""
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        rel = os.path.relpath(dirpath, src)
        base = dest if rel == "." else os.path.join(dest, rel)
        for name in sorted(dirnames) + sorted(filenames):
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            target = os.path.join(base, name)
            if stat.S_ISLNK(st.st_mode):
                entry(out, ino, target, stat.S_IFLNK | 0o777, os.readlink(path).encode())
            elif stat.S_ISDIR(st.st_mode):
                entry(out, ino, target, stat.S_IFDIR | stat.S_IMODE(st.st_mode))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    entry(out, ino, target, stat.S_IFREG | stat.S_IMODE(st.st_mode), f.read())
            else:
                continue
            ino += 1
    return ino


def main():
    if len(sys.argv) != 3:
        die("usage: mkcpio.py LIST OUTPUT.cpio.gz")
    spec, output = sys.argv[1], sys.argv[2]
    tmp = output + ".tmp"
    with open(spec) as f, gzip.GzipFile(tmp, "wb", compresslevel=6, mtime=0) as out:
        ino = 1
        for lineno, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            kind, args = words[0], words[1:]
            try:
                if kind == "dir" and len(args) == 2:
                    entry(out, ino, args[0], stat.S_IFDIR | int(args[1], 8))
                elif kind == "file" and len(args) == 3:
                    with open(args[1], "rb") as src:
                        data = src.read()
                    entry(out, ino, args[0], stat.S_IFREG | int(args[2], 8), data)
                elif kind == "slink" and len(args) == 3:
                    entry(out, ino, args[0], stat.S_IFLNK | int(args[2], 8),
                          args[1].encode())
                elif kind == "nod" and len(args) == 5 and args[2] in ("c", "b"):
                    ftype = stat.S_IFCHR if args[2] == "c" else stat.S_IFBLK
                    entry(out, ino, args[0], ftype | int(args[1], 8),
                          rdev=(int(args[3]), int(args[4])))
                elif kind == "tree" and len(args) == 2:
                    ino = tree(out, ino, args[0], args[1])
                else:
                    die(f"{spec}:{lineno}: cannot parse '{line.strip()}'")
            except (OSError, ValueError) as e:
                die(f"{spec}:{lineno}: {e}")
            ino += 1
        entry(out, 0, "TRAILER!!!", 0)
    os.replace(tmp, output)


if __name__ == "__main__":
    main()
