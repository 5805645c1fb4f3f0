#!/usr/bin/python3
"""A small Debian mirror on disk, signed with a throw-away key, for the
tests of the private apt trees (scripts/lib.sh) that must not depend on
the real mirror.

    fake_mirror.py build ROOT GNUPGHOME   make ROOT/debian (dists/, pool/)
                                          and ROOT/keyring.gpg
    fake_mirror.py break ROOT SUITE GNUPGHOME
                                          re-sign SUITE's Release file for a
                                          riscv64 index that is not served
                                          (a mirror caught mid-sync)
    fake_mirror.py serve ROOT PORTFILE    serve ROOT over HTTP on 127.0.0.1,
                                          writing the port to PORTFILE

Suites: trixie (riscv64 binaries: linux-image-riscv64 depending on
linux-image-6.0.0-fake-riscv64, whose .deb holds /boot/vmlinux-6.0.0-fake;
sources: linux 6.12.0-1), forky (the same binaries), bookworm-backports
(amd64 binaries, empty).
"""
import functools
import hashlib
import http.server
import lzma
import os
import shutil
import subprocess
import sys
import tempfile
import time

ARCH_OF = {"trixie": ["riscv64"], "forky": ["riscv64"], "bookworm-backports": ["amd64"]}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def make_deb(pool, name, version, arch, files, depends=None):
    """Builds pool/NAME_VERSION_ARCH.deb holding FILES {path: bytes}; returns its stanza."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "DEBIAN"))
        for path, data in files.items():
            full = os.path.join(tmp, path.lstrip("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(data)
        control = ["Package: " + name, "Version: " + version, "Architecture: " + arch,
                   "Maintainer: TL-QEMU tests <tests@invalid>", "Description: test package"]
        if depends:
            control.append("Depends: " + depends)
        with open(os.path.join(tmp, "DEBIAN", "control"), "w") as f:
            f.write("\n".join(control) + "\n")
        deb = os.path.join(pool, "%s_%s_%s.deb" % (name, version, arch))
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", tmp, deb],
                       check=True, stdout=subprocess.DEVNULL)
    data = open(deb, "rb").read()
    rel = os.path.relpath(deb, os.path.dirname(os.path.dirname(pool)))
    return "\n".join(control[:3] + control[5:] + [
        "Maintainer: TL-QEMU tests <tests@invalid>", "Filename: " + rel,
        "Size: %d" % len(data), "SHA256: " + sha256(data), "Description: test package", ""])


def write_index(dists, suite, rel, text):
    """Writes REL (and REL.xz) under dists/SUITE; returns their Release lines."""
    lines = []
    raw = text.encode()
    for name, data in ((rel, raw), (rel + ".xz", lzma.compress(raw))):
        path = os.path.join(dists, suite, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        lines.append(" %s %d %s" % (sha256(data), len(data), name))
    return lines


def sign_release(dists, suite, gnupghome, sha_lines):
    archs = " ".join(ARCH_OF[suite])
    release = "\n".join([
        "Origin: Debian", "Label: Debian", "Suite: " + suite, "Codename: " + suite,
        "Date: " + time.strftime("%a, %d %b %Y %H:%M:%S UTC", time.gmtime()),
        "Architectures: " + archs, "Components: main", "SHA256:"] + sha_lines) + "\n"
    path = os.path.join(dists, suite, "Release")
    with open(path, "w") as f:
        f.write(release)
    inrel = os.path.join(dists, suite, "InRelease")
    if os.path.exists(inrel):
        os.unlink(inrel)
    subprocess.run(["gpg", "--homedir", gnupghome, "--batch", "--yes", "--clearsign",
                    "-o", inrel, path], check=True, stderr=subprocess.DEVNULL)


def build(root, gnupghome):
    mirror = os.path.join(root, "debian")
    shutil.rmtree(mirror, ignore_errors=True)
    os.makedirs(os.path.join(mirror, "pool", "main"))
    os.makedirs(gnupghome, mode=0o700, exist_ok=True)
    subprocess.run(["gpg", "--homedir", gnupghome, "--batch", "--passphrase", "",
                    "--quick-gen-key", "TL-QEMU test mirror <tests@invalid>", "ed25519",
                    "sign", "never"], check=True, stderr=subprocess.DEVNULL)
    with open(os.path.join(root, "keyring.gpg"), "wb") as f:
        f.write(subprocess.run(["gpg", "--homedir", gnupghome, "--export"], check=True,
                               stdout=subprocess.PIPE).stdout)
    pool = os.path.join(mirror, "pool", "main")
    kernel = make_deb(pool, "linux-image-6.0.0-fake-riscv64", "6.0.0-1", "riscv64",
                      {"/boot/vmlinux-6.0.0-fake": b"fake riscv64 kernel image\n"})
    meta = make_deb(pool, "linux-image-riscv64", "6.0.0-1", "riscv64", {},
                    depends="linux-image-6.0.0-fake-riscv64")
    # linux 6.12.0-1: a source package whose files exist (apt --print-uris only)
    files = {}
    for name, data in (("linux_6.12.0-1.dsc", b"Format: 3.0 (quilt)\nSource: linux\n"),
                       ("linux_6.12.0.orig.tar.xz", lzma.compress(b""))):
        with open(os.path.join(pool, name), "wb") as f:
            f.write(data)
        files[name] = data
    sources = "\n".join(["Package: linux", "Binary: linux-source", "Version: 6.12.0-1",
                         "Maintainer: TL-QEMU tests <tests@invalid>", "Architecture: any",
                         "Format: 3.0 (quilt)", "Directory: pool/main", "Checksums-Sha256:"] +
                        [" %s %d %s" % (sha256(d), len(d), n) for n, d in files.items()]) + "\n\n"
    dists = os.path.join(mirror, "dists")
    for suite, archs in ARCH_OF.items():
        lines = []
        for arch in archs:
            text = kernel + "\n" + meta + "\n" if arch == "riscv64" else ""
            lines += write_index(dists, suite, "main/binary-%s/Packages" % arch, text)
        lines += write_index(dists, suite, "main/source/Sources", sources if suite == "trixie" else "")
        sign_release(dists, suite, gnupghome, lines)


def break_suite(root, suite, gnupghome):
    """SUITE as a mirror caught in the middle of a sync: a newly signed
    Release file names a riscv64 Packages index that is not yet there (the
    old one is served)."""
    dists = os.path.join(root, "debian", "dists", suite)
    rel = "main/binary-riscv64/Packages"
    old = {n: open(os.path.join(dists, n), "rb").read() for n in (rel, rel + ".xz")}
    lines = [l for l in open(os.path.join(dists, "Release")).read().splitlines()
             if l.startswith(" ") and not l.endswith(" " + rel) and not l.endswith(" " + rel + ".xz")]
    lines += write_index(os.path.dirname(dists), suite, rel,
                         old[rel].decode() + "Package: newer\nVersion: 1\nArchitecture: riscv64\n\n")
    time.sleep(1)       # a Date of its own
    sign_release(os.path.dirname(dists), suite, gnupghome, lines)
    for n, data in old.items():
        with open(os.path.join(dists, n), "wb") as f:
            f.write(data)


def serve(root, portfile):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=root)
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        with open(portfile + ".tmp", "w") as f:
            f.write("%d\n" % httpd.server_address[1])
        os.rename(portfile + ".tmp", portfile)
        httpd.serve_forever()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "break":
        break_suite(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
