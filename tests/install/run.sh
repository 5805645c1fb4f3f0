#!/usr/bin/env bash
# The install group: TL-QEMU as its users install it.
#  1. make install (scripts/install.sh) into a staging directory (DESTDIR):
#     the listed tree is there;
#  2. the installed tree alone, with the source, build and cache directories
#     hidden (a private mount namespace with empty directories over them), and
#     not where its PREFIX says (relocated): tests/install/installed-checks.sh;
#  3. make deb: three packages, lintian without errors and only the
#     warnings docs/install.md explains;
#  4. the packages installed with apt into a fresh Debian 12 minbase chroot,
#     beside Debian's qemu-system-misc, qemu-user and binutils-riscv64-linux-gnu,
#     the same checks there, then purged without a trace.  Without a
#     verified Debian system or packages (mirror mid-sync, no network), or
#     where this machine cannot make a chroot (not root), these checks are
#     skipped and counted as skipped.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
. "$TL_REPO/tests/tap.sh"
tap_can_skip

version=$(tl_version)
work=$(mktemp -d /tmp/tl-install-test.XXXXXX)
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
    rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# ---- 1. make install into DESTDIR ----
dest="$work/dest"
prefix=/opt/tl-qemu
echo "# scripts/install.sh PREFIX=$prefix DESTDIR=$dest"
rc=0
"$TL_REPO/scripts/install.sh" PREFIX=$prefix DESTDIR="$dest" >"$work/install.log" 2>&1 || rc=$?
check $rc "make install PREFIX=$prefix DESTDIR=... (exit $rc)"
[ "$rc" -eq 0 ] || { show "$work/install.log"; tap_end; exit 1; }
root="$dest$prefix"
missing=""
for f in bin/qemu-system-riscv64 bin/qemu-riscv64 bin/tl-gcc bin/tl-g++ bin/tl-fw-run bin/tl-demo \
         bin/riscv64-linux-gnu-as bin/riscv64-linux-gnu-ld bin/riscv64-linux-gnu-objdump \
         bin/riscv64-linux-gnu-gdb share/gdb/python/gdb/command/xtl.py share/tl-qemu/riscv64/gdbserver \
         riscv64-linux-gnu/bin/as riscv64-linux-gnu/bin/ld \
         share/qemu/opensbi-riscv64-generic-fw_dynamic.bin lib/libtlstat.so lib/libtlcore.a \
         include/tl/tile.hpp include/tl/tl_insn.h include/tl/xtl-opc.h include/tl/tl_core.h \
         share/tl-qemu/linux/Image share/tl-qemu/demo/initramfs.cpio.gz \
         share/doc/tl-qemu/README.md share/doc/tl-qemu/docs/isa.md share/doc/tl-qemu/COPYING; do
    [ -e "$root/$f" ] || missing="$missing $f"
done
[ -z "$missing" ]
check $? "the installed tree has the emulators, tools, binutils, firmware, plugin, headers, kernel, demo and docs${missing:+ (missing:$missing)}"
cmp -s "$root/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin" "$BUILD_DIR/opensbi/platform/generic/firmware/fw_dynamic.bin"
check $? "the installed default firmware is TL-QEMU's OpenSBI (the build's fw_dynamic.bin)"

# ---- 2. the installed tree alone ----
hidden_in_chroot=0
install -m 0755 "$TL_REPO/tests/install/installed-checks.sh" "$work/installed-checks.sh"
# The example firmware project of the installed docs, built against the
# installed headers (riscv64-unknown-elf-gcc is the machine's, not ours).
fw="$work/firmware-ci"
cp -r "$root/share/doc/tl-qemu/examples/firmware-ci" "$fw"
make -C "$fw" TL_QEMU="$root" all build/demo_failure.elf >"$work/fw-build.log" 2>&1
check $? "the example firmware project (installed with the docs) builds against the installed headers"
hide=()
for d in "$TL_REPO" "$BUILD_DIR" "$CACHE_DIR"; do
    d=$(readlink -f "$d")
    [ -d "$d" ] || continue
    for h in "${hide[@]}"; do
        case "$d/" in "$h"/*) continue 2 ;; esac
    done
    hide+=("$d")
done
if [ "$(id -u)" -eq 0 ] && unshare --mount --propagation private true 2>/dev/null; then
    # shellcheck disable=SC2016
    relay_cmd --prefix "installed tree, sources hidden: " -- unshare --mount --propagation private bash -c '
        w=$1 v=$2 r=$3; shift 3
        for d in "$@"; do mount -t tmpfs -o size=1m tl-hidden "$d" || exit 1; done
        for d in "$@"; do
            if [ -n "$(ls -A "$d")" ]; then echo "not ok - $d is hidden"; exit 1; fi
        done
        echo "ok - the source, build and cache directories are hidden (empty): $*"
        exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$w" LANG=C.UTF-8 \
            bash "$w/installed-checks.sh" "$r" "$r/share/doc/tl-qemu" "$v" "$w/ic" "$w/firmware-ci"' \
        tl-hidden "$work" "$version" "$root" "${hide[@]}"
else
    # (Inside a chroot whose root is not a mount point, a private mount
    # namespace cannot be made: the DESTDIR tree is then checked inside the
    # fresh Debian chroot of part 4, where no source tree exists.)
    hidden_in_chroot=1
    echo "# no private mount namespace here (unshare --mount): the DESTDIR tree is checked inside the Debian chroot below"
fi

# ---- 3. make deb ----
debs="$BUILD_DIR/deb"
rc=0
"$TL_REPO/scripts/make-deb.sh" >"$work/deb.log" 2>&1 || rc=$?
deb_rc=$rc
check $rc "make deb builds the packages and lintian finds no error (exit $rc)"
[ "$rc" -eq 0 ] || show "$work/deb.log"
n=$(ls "$debs"/tl-qemu_*.deb "$debs"/tl-qemu-binutils_*.deb "$debs"/tl-qemu-gdb_*.deb \
      "$debs"/tl-qemu-linux_*_all.deb 2>/dev/null | wc -l)
[ "$n" -eq 4 ]
check $? "make deb made tl-qemu, tl-qemu-binutils, tl-qemu-gdb and tl-qemu-linux (found $n)"
if [ -f "$debs/lintian.log" ]; then
    errors=$(grep -c '^E: ' "$debs/lintian.log")
    others=$(grep -E '^[WEI]: ' "$debs/lintian.log" | grep -vE ': (no-manual-page|initial-upload-closes-no-bugs) ' || true)
    [ "$errors" -eq 0 ] && [ -z "$others" ]
    check $? "lintian: no error, and no warning but no-manual-page and initial-upload-closes-no-bugs (docs/install.md)${others:+: $others}"
else
    check 1 "lintian ran (no $debs/lintian.log)"
fi
outside=$(for d in "$debs"/*.deb; do dpkg-deb -c "$d"; done | awk '{print $6}' |
          grep -vE '^\./$|^\./usr/$|^\./usr/(bin|lib|share|share/doc|share/lintian|share/lintian/overrides)/$|^\./usr/lib/tl-qemu/|^\./usr/bin/tl-|^\./usr/share/doc/tl-qemu(-binutils|-gdb|-linux)?/|^\./usr/share/lintian/overrides/tl-qemu-linux$' || true)
[ -z "$outside" ]
check $? "the packages hold files only in /usr/lib/tl-qemu, /usr/bin/tl-*, /usr/share/doc/tl-qemu* (and tl-qemu-linux's lintian overrides)${outside:+ (also: $outside)}"

# ---- 4. the packages in a fresh Debian 12 chroot ----
chroot_checks() {
    local why="" base="$CACHE_DIR/install-test/bookworm-minbase.tar" cr="$work/chroot" m rc
    if [ "$(id -u)" -ne 0 ]; then
        why="making a chroot needs root"
    elif [ "$deb_rc" -ne 0 ] || [ "$n" -ne 4 ]; then
        why="make deb failed (counted above)"
    elif ! command -v debootstrap >/dev/null 2>&1; then
        why="debootstrap is not installed (make deps)"
    fi
    if [ -z "$why" ] && [ ! -f "$base" ]; then
        echo "# debootstrap --variant=minbase bookworm (cached afterwards as $base)"
        mkdir -p "$CACHE_DIR/install-test/debs"
        rm -rf "$work/base"
        if debootstrap --variant=minbase --keyring="$(debian_keyring)" --cache-dir="$CACHE_DIR/install-test/debs" \
                bookworm "$work/base" "$(debian_mirror)" >"$work/debootstrap.log" 2>&1; then
            tar -C "$work/base" -cf "$base.tmp" . && mv "$base.tmp" "$base"
        else
            grep -E '^(E|W):' "$work/debootstrap.log" | tail -n 3 | sed 's/^/# /'
            why="debootstrap of Debian 12 from $(debian_mirror) failed (mirror mid-sync or unreachable)"
        fi
        rm -rf "$work/base"
    fi
    if [ -n "$why" ]; then
        skip_case "the .deb packages installed with apt into a fresh Debian 12 minbase chroot" "$why"
        [ "$hidden_in_chroot" = 0 ] ||
            skip_case "the installed tree with no source tree around (no private mount namespace here)" "$why"
        return
    fi
    mkdir -p "$cr" && tar -C "$cr" -xf "$base"
    for m in proc sys dev; do
        mount --bind "/$m" "$cr/$m" && mounts+=("$cr/$m")
    done
    mkdir -p "$CACHE_DIR/install-test/archives/partial"
    mount --bind "$CACHE_DIR/install-test/archives" "$cr/var/cache/apt/archives" && mounts+=("$cr/var/cache/apt/archives")
    cp /etc/resolv.conf "$cr/etc/resolv.conf" 2>/dev/null || true
    # No service of a package starts in the chroot (the usual policy-rc.d).
    printf '#!/bin/sh\nexit 101\n' >"$cr/usr/sbin/policy-rc.d" && chmod 0755 "$cr/usr/sbin/policy-rc.d"
    mkdir -p "$cr/tmp/debs" && cp "$debs"/*.deb "$cr/tmp/debs/"
    echo "# apt-get update, apt-get install ./tl-qemu*.deb qemu-system-misc qemu-user binutils-riscv64-linux-gnu (in the chroot)"
    rc=0
    chroot "$cr" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        apt-get -q update >"$work/apt.log" 2>&1 || rc=$?
    # Ours as a user installs them (with what tl-qemu recommends: the cross
    # compilers); Debian's QEMU without its recommends (qemu-user-binfmt
    # would register binfmt handlers, which are the host kernel's).
    [ "$rc" -ne 0 ] || chroot "$cr" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        sh -c 'cd /tmp/debs && apt-get -q install -y ./tl-qemu_*.deb ./tl-qemu-binutils_*.deb ./tl-qemu-gdb_*.deb ./tl-qemu-linux_*.deb &&
               apt-get -q install -y --no-install-recommends qemu-system-misc qemu-user binutils-riscv64-linux-gnu' \
        >>"$work/apt.log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] && grep -qE 'Failed to fetch|Unable to fetch|Temporary failure|Hash Sum mismatch|Could not resolve|Release file .* is not valid' "$work/apt.log"; then
        grep -E '^(E|W):' "$work/apt.log" | tail -n 3 | sed 's/^/# /'
        skip_case "the .deb packages installed with apt into a fresh Debian 12 minbase chroot" "apt could not fetch verified packages from $(debian_mirror) (mirror mid-sync or unreachable)"
        [ "$hidden_in_chroot" = 0 ] ||
            skip_case "the installed tree with no source tree around (no private mount namespace here)" "the chroot has no cross compilers without the mirror"
        return
    fi
    check $rc "apt-get install ./tl-qemu*.deb with Debian's qemu-system-misc, qemu-user and binutils-riscv64-linux-gnu in a fresh Debian 12 minbase chroot (exit $rc)"
    [ "$rc" -eq 0 ] || { grep -E '^(E|W|dpkg):' "$work/apt.log" | tail -n 10 | sed 's/^/#   /'; return; }
    grep -q '^Setting up gcc-riscv64-linux-gnu' "$work/apt.log"
    check $? "apt installed the cross compilers tl-qemu recommends (gcc-riscv64-linux-gnu)"

    # Debian's own programs are untouched; ours are under their names.
    v=$(chroot "$cr" /usr/bin/tl-qemu-system-riscv64 --version 2>&1 | head -n 1)
    [[ "$v" =~ "(TL-QEMU $version"[,\)] ]]
    check $? "/usr/bin/tl-qemu-system-riscv64 is TL-QEMU ($v)"
    v=$(chroot "$cr" /usr/bin/qemu-system-riscv64 --version 2>&1 | head -n 1)
    [[ "$v" == "QEMU emulator version "*"Debian"* ]] && [[ "$v" != *TL-QEMU* ]]
    check $? "/usr/bin/qemu-system-riscv64 is still Debian's ($v)"
    printf '\ttl.addi tl1, tl2, -5\n' >"$cr/tmp/t.S"
    chroot "$cr" /usr/bin/riscv64-linux-gnu-as -march=rv64gc_xtl /tmp/t.S -o /tmp/t.o >/dev/null 2>&1
    [ $? -ne 0 ] && chroot "$cr" /usr/bin/tl-gcc -march=rv64gc_xtl -c /tmp/t.S -o /tmp/t.o >/dev/null 2>&1
    check $? "Debian's riscv64-linux-gnu-as rejects tl.addi, tl-gcc (TL-QEMU's as) assembles it"

    cp "$work/installed-checks.sh" "$cr/tmp/installed-checks.sh"
    cp -r "$fw" "$cr/tmp/fw"
    if [ "$hidden_in_chroot" = 1 ]; then
        # make install's tree, relocated into a system that has no source tree.
        mkdir -p "$cr/srv/tl-qemu-destdir" && cp -a "$root/." "$cr/srv/tl-qemu-destdir/"
        relay_cmd --prefix "installed tree (DESTDIR copy) in a fresh chroot: " -- chroot "$cr" env -i \
            PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash /tmp/installed-checks.sh \
            /srv/tl-qemu-destdir /srv/tl-qemu-destdir/share/doc/tl-qemu "$version" /tmp/ic-destdir /tmp/fw
        rm -rf "$cr/srv/tl-qemu-destdir"
    fi
    relay_cmd --prefix "Debian packages in a fresh chroot: " -- chroot "$cr" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 bash /tmp/installed-checks.sh /usr/lib/tl-qemu /usr/share/doc/tl-qemu "$version" /tmp/ic /tmp/fw

    rc=0
    chroot "$cr" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        apt-get -q purge -y tl-qemu tl-qemu-binutils tl-qemu-gdb tl-qemu-linux >"$work/purge.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] && [ ! -e "$cr/usr/lib/tl-qemu" ] && [ ! -e "$cr/usr/bin/tl-gcc" ] && [ ! -e "$cr/usr/bin/tl-gdb" ] &&
        [ ! -e "$cr/usr/share/doc/tl-qemu" ] && [ -x "$cr/usr/bin/qemu-system-riscv64" ]
    check $? "apt-get purge removes the four packages without a trace and leaves Debian's QEMU (exit $rc)"
    find "$cr/usr/lib/tl-qemu" "$cr/usr/share/doc/tl-qemu" 2>/dev/null | head -n 5 | sed "s|^$cr|#   left: |"
}
chroot_checks

tap_end
