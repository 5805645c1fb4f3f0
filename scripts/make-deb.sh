#!/usr/bin/env bash
# make deb: Debian binary packages of TL-QEMU into $BUILD_DIR/deb:
#
#   tl-qemu           the emulators (xtl on -cpu max), their default firmware
#                     (TL-QEMU's OpenSBI), the tlstat plugin, the headers and
#                     semantic core, tl-gcc/tl-g++, tl-fw-run, tl-demo, docs
#   tl-qemu-binutils  GNU binutils for riscv64-linux-gnu with xtl
#   tl-qemu-gdb       GNU gdb for riscv64 with xtl (tl-gdb)
#   tl-qemu-linux     TL-QEMU's Linux kernel Image, the demo initramfs and
#                     gdbserver for riscv64 guests
#
# Everything lives under /usr/lib/tl-qemu (bin/, share/qemu/, ...), so the
# packages install beside Debian's qemu-system-misc, qemu-user and
# binutils-riscv64-linux-gnu; /usr/bin gets tl-qemu-system-riscv64,
# tl-qemu-riscv64, tl-gcc, tl-g++, tl-fw-run and tl-demo.  Dependencies come
# from dpkg-shlibdeps; lintian checks each package (errors fail the build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
umask 022
"$TL_REPO/scripts/install-deps.sh"
need_tool dpkg-deb dpkg
need_tool dpkg-shlibdeps dpkg-dev
need_tool lintian lintian

prefix=/usr/lib/tl-qemu
out="$BUILD_DIR/deb"
stage="$out/stage"
tl_steps_begin
trap 'tl_steps_table "make deb"' EXIT

# Nothing of an earlier run may pass for this one's.
rm -rf "$stage" "$out"/root-* "$out"/*.deb "$out/lintian.log"
"$TL_REPO/scripts/install.sh" PREFIX="$prefix" DESTDIR="$stage" DOCDIR=/usr/share/doc/tl-qemu
t0=$SECONDS

version=$(tl_version)
qemu_version=$("$stage$prefix/bin/qemu-system-riscv64" --version | sed -n '1s/^QEMU emulator version \([0-9.]*\).*/\1/p')
binutils_version=$("$stage$prefix/bin/riscv64-linux-gnu-as" --version | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
# (gdb starts its Python, which must not leave byte-code caches in the tree.)
gdb_version=$(PYTHONDONTWRITEBYTECODE=1 "$stage$prefix/bin/riscv64-linux-gnu-gdb" -nx --version |
              sed -n '1s/^GNU gdb .* \([0-9][0-9.]*\)$/\1/p')
find "$stage" -type d -name __pycache__ -prune -exec rm -rf {} +
linux_version=$(sed -n 's/^# Linux\/riscv \([0-9.]*\) Kernel Configuration$/\1/p' "$stage$prefix/share/tl-qemu/linux/config")
[ -n "$qemu_version" ] && [ -n "$binutils_version" ] && [ -n "$linux_version" ] && [ -n "$gdb_version" ] ||
    die "cannot tell the QEMU, binutils or Linux version of the installed tree in $stage (got '$qemu_version', '$binutils_version', '$linux_version')"
maintainer="TL-QEMU developers <tl-qemu@users.noreply.github.com>"
# The changelog's date: the commit's, so that the same commit gives the same packages.
date=$(git -C "$TL_REPO" log -1 --format=%cD 2>/dev/null || date -R)
commit=$(git -C "$TL_REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
arch=$(dpkg --print-architecture)

# pkg_root NAME: the package's tree.
pkg_root() { printf '%s/root-%s' "$out" "$1"; }
# take NAME PATH...: moves PATHs (relative to the staged tree) into NAME's tree.
take() {
    local name=$1 p
    shift
    for p in "$@"; do
        mkdir -p "$(dirname "$(pkg_root "$name")/$p")"
        mv "$stage/$p" "$(pkg_root "$name")/$p"
    done
}

# ---- split the installed tree ----
P=${prefix#/}
take tl-qemu-gdb "$P/bin/riscv64-linux-gnu-gdb" "$P/share/gdb"
take tl-qemu-binutils "$P/riscv64-linux-gnu"
for f in "$stage/$P"/bin/riscv64-linux-gnu-*; do
    take tl-qemu-binutils "$P/bin/$(basename "$f")"
done
rm -rf "${stage:?}/$P/share/man"   # Debian's binutils-riscv64-linux-gnu-doc has them
take tl-qemu-linux "$P/share/tl-qemu"
# The NIC option ROMs: Debian's ipxe-qemu's, as Debian's QEMU links them.
for f in "$stage/$P"/share/qemu/*.rom; do
    [ -f "$f" ] && ln -sfn "../../../ipxe/qemu/$(basename "$f")" "$f"
done
take tl-qemu "$P" usr/share/doc/tl-qemu
mkdir -p "$(pkg_root tl-qemu)/usr/bin"
for link in qemu-system-riscv64:tl-qemu-system-riscv64 qemu-riscv64:tl-qemu-riscv64 \
            tl-gcc:tl-gcc tl-g++:tl-g++ tl-fw-run:tl-fw-run tl-demo:tl-demo; do
    ln -s "../lib/tl-qemu/bin/${link%%:*}" "$(pkg_root tl-qemu)/usr/bin/${link#*:}"
done
mkdir -p "$(pkg_root tl-qemu-gdb)/usr/bin"
ln -s ../lib/tl-qemu/bin/riscv64-linux-gnu-gdb "$(pkg_root tl-qemu-gdb)/usr/bin/tl-gdb"
# gdbserver runs in the emulated riscv64 machine, not on this one.
mkdir -p "$(pkg_root tl-qemu-linux)/usr/share/lintian/overrides"
cat >"$(pkg_root tl-qemu-linux)/usr/share/lintian/overrides/tl-qemu-linux" <<'OVR'
# gdbserver is a static riscv64 program for the emulated machine's Linux guests
# (TL-QEMU runs it there); it is data for this computer.
tl-qemu-linux: arch-independent-package-contains-binary-or-object [usr/lib/tl-qemu/share/tl-qemu/riscv64/gdbserver]
tl-qemu-linux: binary-from-other-architecture [usr/lib/tl-qemu/share/tl-qemu/riscv64/gdbserver]
tl-qemu-linux: statically-linked-binary [usr/lib/tl-qemu/share/tl-qemu/riscv64/gdbserver]
OVR
left=$(cd "$stage" && find . -type f | head -n 5 || true)
[ -z "$left" ] || die "make deb put these installed files in no package: $left"

# ---- copyright (machine-readable) ----
# licence NAME: one License stanza (the texts are in /usr/share/common-licenses).
licence() {
    local gnu="" version="" later=""
    case "$1" in
        GPL-2) gnu="General Public License" version=2 ;;
        GPL-2+) gnu="General Public License" version=2 later=1 ;;
        GPL-3+) gnu="General Public License" version=3 later=1 ;;
        LGPL-2.1+) gnu="Lesser General Public License" version=2.1 later=1 ;;
    esac
    printf '\nLicense: %s\n' "$1"
    if [ -n "$gnu" ]; then
        printf ' This program is free software; you can redistribute it and/or modify it\n'
        printf ' under the terms of the GNU %s as published by the Free\n' "$gnu"
        if [ -n "$later" ]; then
            printf ' Software Foundation; either version %s of the License, or (at your option)\n any later version.\n' "$version"
        else
            printf ' Software Foundation, version %s.\n' "$version"
        fi
        printf ' .\n On Debian systems, the complete text of the GNU %s\n' "$gnu"
        printf " version %s can be found in '/usr/share/common-licenses/%s'.\n" "$version" "${1%+}"
        return
    fi
    cat <<'TXT'
 Redistribution and use in source and binary forms, with or without
 modification, are permitted provided that the following conditions are met:
 1. Redistributions of source code must retain the above copyright notice,
    this list of conditions and the following disclaimer.
 2. Redistributions in binary form must reproduce the above copyright notice,
    this list of conditions and the following disclaimer in the documentation
    and/or other materials provided with the distribution.
 .
 THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
 AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
 IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
 ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE
 LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
 CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF
 SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
 INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
 CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)
 ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
 POSSIBILITY OF SUCH DAMAGE.
TXT
}

# licence_texts PACKAGE: the License stanzas its copyright file names.
licence_texts() {
    local l
    case "$1" in
        tl-qemu) set -- GPL-2+ GPL-2 BSD-2-Clause LGPL-2.1+ ;;
        tl-qemu-binutils|tl-qemu-gdb) set -- GPL-2+ GPL-3+ ;;
        tl-qemu-linux) set -- GPL-2+ GPL-3+ GPL-2 LGPL-2.1+ ;;
    esac
    for l in "$@"; do
        licence "$l"
    done
}

copyright() {
    local name=$1
    cat <<TXT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: TL-QEMU
Comment: Built by TL-QEMU's make deb (commit $commit) from TL-QEMU's own
 files and Debian's source packages of the projects listed below, with
 TL-QEMU's patches (the patches carry the licence of the project they patch).

Files: *
Copyright: 2026 TL-QEMU developers
License: GPL-2+
TXT
    case "$name" in
        tl-qemu) cat <<TXT

Files: $P/bin/qemu-system-riscv64 $P/bin/qemu-riscv64 $P/lib/libtlstat.so
Copyright: 2003-2025 Fabrice Bellard and the QEMU Project developers
License: GPL-2
Comment: QEMU $qemu_version (Debian's qemu source package) with the TensorLoad
 extension.  QEMU as a whole is released under the GNU GPL version 2; its
 parts are under GPL-2-compatible licences (GPL-2+, LGPL-2.1+, MIT,
 BSD-2-Clause, BSD-3-Clause); see QEMU's LICENSE file.

Files: $P/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
Copyright: 2019-2024 Western Digital Corporation and the OpenSBI contributors
License: BSD-2-Clause
Comment: OpenSBI 1.6 (Debian's opensbi source package), generic platform.
TXT
        ;;
        tl-qemu-gdb) cat <<TXT

Files: $P/bin/* $P/share/gdb/*
Copyright: 1986-2025 Free Software Foundation, Inc.
License: GPL-3+
Comment: GNU gdb $gdb_version (Debian's gdb source package) with the xtl
 (TensorLoad) disassembler, TL registers, core files and info tl.

Files: $P/share/gdb/python/gdb/command/xtl.py
Copyright: 2026 TL-QEMU developers
License: GPL-2+
TXT
        ;;
        tl-qemu-binutils) cat <<TXT

Files: $P/bin/* $P/riscv64-linux-gnu/*
Copyright: 1988-2024 Free Software Foundation, Inc.
License: GPL-3+
Comment: GNU binutils $binutils_version (Debian's binutils source package)
 with the xtl (TensorLoad) opcodes.
TXT
        ;;
        tl-qemu-linux) cat <<TXT

Files: $P/share/tl-qemu/linux/*
Copyright: 1991-2024 Linus Torvalds and the Linux kernel contributors
License: GPL-2
Comment: Linux $linux_version (Debian's linux source package) with TensorLoad
 support.

Files: $P/share/tl-qemu/riscv64/gdbserver
Copyright: 1986-2025 Free Software Foundation, Inc.
License: GPL-3+
Comment: gdbserver of GNU gdb $gdb_version for riscv64 Linux, static (GNU C
 library, LGPL-2.1+), with the NT_RISCV_XTL register set.

Files: $P/share/tl-qemu/demo/*
Copyright: 1998-2024 The BusyBox authors; 1991-2024 Free Software Foundation, Inc.; 2026 TL-QEMU developers
License: GPL-2 and LGPL-2.1+ and GPL-2+
Comment: An initramfs: BusyBox (GPL-2) and TL-QEMU's test programs (GPL-2+),
 linked statically with the GNU C library (LGPL-2.1+).
TXT
        ;;
    esac
    licence_texts "$name"
}

# ---- control files, one package ----
# (Each package is built in the background, start_package; all run at once,
# each in its own directories, and the script waits for them below.)
make_package() {
    local name=$1 pkgversion=$2 architecture=$3 section=$4 summary=$5 description=$6 depends=$7 recommends=$8
    local root docdir size elves shlibs
    root=$(pkg_root "$name")
    docdir="$root/usr/share/doc/$name"
    mkdir -p "$docdir" "$root/DEBIAN"
    copyright "$name" > "$docdir/copyright"
    {
        printf '%s (%s) unstable; urgency=medium\n\n' "$name" "$pkgversion"
        printf '  * TL-QEMU %s (commit %s).\n\n' "$version" "$commit"
        printf ' -- %s  %s\n' "$maintainer" "$date"
    } | gzip -9n > "$docdir/changelog.Debian.gz"
    find "$root" -path "$root/DEBIAN" -prune -o -type d -exec chmod 0755 {} +
    # dpkg-shlibdeps wants a debian/control of its own.
    local -a elves=()
    mapfile -t elves < <(find "$root" -path "$root/DEBIAN" -prune -o -type f -print |
            while IFS= read -r f; do
                if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then printf '%s\n' "$f"; fi
            done)
    shlibs=""
    # Architecture all: its programs are the emulated machine's.
    if [ ${#elves[@]} -gt 0 ] && [ "$architecture" != all ]; then
        mkdir -p "$out/shlibdeps/$name/debian"
        printf 'Source: tl-qemu\n\nPackage: %s\nArchitecture: any\n' "$name" > "$out/shlibdeps/$name/debian/control"
        shlibs=$(cd "$out/shlibdeps/$name" && dpkg-shlibdeps -O "${elves[@]}" 2>"$out/shlibdeps-$name.log" |
                 sed -n 's/^shlibs:Depends=//p') ||
            die "dpkg-shlibdeps failed for $name (see $out/shlibdeps-$name.log)"
    fi
    depends=$(printf '%s\n' "$shlibs" "$depends" | sed '/^$/d' | paste -sd, | sed 's/, */, /g')
    size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    {
        printf 'Package: %s\nVersion: %s\nArchitecture: %s\n' "$name" "$pkgversion" "$architecture"
        printf 'Maintainer: %s\nInstalled-Size: %s\nSection: %s\nPriority: optional\n' "$maintainer" "$size" "$section"
        [ -z "$depends" ] || printf 'Depends: %s\n' "$depends"
        [ -z "$recommends" ] || printf 'Recommends: %s\n' "$recommends"
        printf 'Description: %s\n' "$summary"
        printf '%s\n' "$description" | fold -s -w 72 | sed 's/ *$//; s/^$/./; s/^/ /'
    } > "$root/DEBIAN/control"
    if [ "$name" = tl-qemu-gdb ]; then
        # gdb's Python writes byte-code caches beside its modules; they go
        # with the package.
        cat >"$root/DEBIAN/prerm" <<'PRERM'
#!/bin/sh
set -e
case "$1" in
    remove|upgrade|deconfigure)
        find /usr/lib/tl-qemu/share/gdb/python -type d -name __pycache__ -prune -exec rm -rf {} + 2>/dev/null || true
        ;;
esac
PRERM
        chmod 0755 "$root/DEBIAN/prerm"
    fi
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
    dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${name}_${pkgversion}_${architecture}.deb" >/dev/null ||
        die "dpkg-deb could not build $name"
}

package_pids=() package_names=()
start_package() {
    make_package "$@" &
    package_pids+=("$!")
    package_names+=("$1")
}

start_package tl-qemu "$version+qemu$qemu_version-1" "$arch" otherosfs \
    "QEMU for RISC-V with the TensorLoad (xtl) extension" \
    "TL-QEMU is QEMU $qemu_version with the TensorLoad (xtl) tile extension of RISC-V: qemu-system-riscv64 (its default firmware for -M virt is TL-QEMU's OpenSBI, which enables TL for Linux) and qemu-riscv64, with xtl on -cpu max; the tlstat plugin (instruction mix, bytes moved, hot spots); the tile API and guest headers; tl-gcc and tl-g++ (Debian's riscv64 cross compilers with TL-QEMU's binutils); tl-fw-run, a runner for bare-metal firmware test suites (TAP, JUnit); and tl-demo, which boots TL-QEMU's Linux. Everything is installed under /usr/lib/tl-qemu, beside Debian's own QEMU packages; /usr/bin gets tl-qemu-system-riscv64, tl-qemu-riscv64, tl-gcc, tl-g++, tl-fw-run and tl-demo." \
    "python3 (>= 3.11), ipxe-qemu" \
    "tl-qemu-binutils (= $version+binutils$binutils_version-1), tl-qemu-gdb (= $version+gdb$gdb_version-1), tl-qemu-linux (= $version+linux$linux_version-1), gcc-riscv64-linux-gnu, g++-riscv64-linux-gnu"
start_package tl-qemu-binutils "$version+binutils$binutils_version-1" "$arch" devel \
    "GNU binutils for riscv64-linux-gnu with the TensorLoad (xtl) extension" \
    "GNU binutils $binutils_version (as, ld, objdump, readelf and the other binary tools) for riscv64-linux-gnu that know TL-QEMU's TensorLoad (xtl) instructions: tl.* mnemonics in assembly, -march=..._xtl, and their disassembly. Installed under /usr/lib/tl-qemu (bin/riscv64-linux-gnu-*, and riscv64-linux-gnu/bin for gcc -B, which tl-gcc passes), beside Debian's binutils-riscv64-linux-gnu." \
    "" ""
start_package tl-qemu-gdb "$version+gdb$gdb_version-1" "$arch" devel \
    "GNU gdb for riscv64 with the TensorLoad (xtl) extension" \
    "GNU gdb $gdb_version for riscv64-linux-gnu targets (qemu-system-riscv64 and qemu-riscv64 gdbstubs, gdbserver, core files) that knows TL-QEMU's TensorLoad (xtl) extension: tl.* disassembly, the tile registers tl0 .. tl31 and TL CSRs by name (info registers xtl), info tl (a tile register as a block of the current element type and shape), and the TL state of each thread in core files. Installed as /usr/lib/tl-qemu/bin/riscv64-linux-gnu-gdb, with /usr/bin/tl-gdb, beside Debian's gdb-multiarch. The gdbserver for riscv64 guests is in tl-qemu-linux." \
    "" "tl-qemu"
start_package tl-qemu-linux "$version+linux$linux_version-1" all kernel \
    "Linux kernel for RISC-V with TensorLoad (xtl) support, for TL-QEMU" \
    "TL-QEMU's Linux $linux_version kernel Image for qemu-system-riscv64 -M virt: it keeps TL state per task (first-use trap, context switch, signal frames, ptrace, core dumps). With it, the demo initramfs that tl-demo boots (BusyBox and programs that run TL workloads in Linux user space), and a static riscv64 gdbserver that reads and writes TL state. The files are in /usr/lib/tl-qemu/share/tl-qemu; they are for the emulated machine, not for this computer." \
    "" "tl-qemu"
failed_packages=()
for i in "${!package_pids[@]}"; do
    wait "${package_pids[$i]}" || failed_packages+=("${package_names[$i]}")
done
[ ${#failed_packages[@]} -eq 0 ] || die "could not build ${failed_packages[*]} (the reason is above)"
tl_step_done "the Debian packages (dpkg-shlibdeps, dpkg-deb)" $((SECONDS - t0))

t0=$SECONDS
log "lintian on the packages"
rc=0
lintian --fail-on error "$out"/*.deb >"$out/lintian.log" 2>&1 || rc=$?
cat "$out/lintian.log"
tl_step_done "lintian" $((SECONDS - t0))
[ "$rc" -eq 0 ] || die "lintian found errors in the packages (above; full: $out/lintian.log)"
rm -rf "$stage" "$out"/root-* "$out/shlibdeps"
ls -l "$out"/*.deb
log "Debian packages in $out: install them with apt install $out/tl-qemu*.deb"
