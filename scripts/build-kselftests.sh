#!/usr/bin/env bash
# Builds a selection of Linux's own selftests (tools/testing/selftests of the
# kernel source build-linux.sh uses, with the headers of TL-QEMU's kernel
# build) for riscv64, and the guest root they run in; prints the directory
# holding them (KSFT_ROOT below).  Not part of the kernel build: the
# linux test group calls it.
#
# The selftests link against Debian 13's riscv64 C library and libcap (the
# latter is not packaged for Debian 12's cross compiler), fetched through
# the private riscv64 apt configuration and unpacked once under
# $CACHE_DIR/kselftest-sysroot; bash comes from there too (some selftests
# are bash scripts), and coreutils' true (exec's non-regular executes
# /bin/true through a symlink, which busybox's applet links cannot serve).
# Without a verified riscv64 index, and nothing unpacked before, it prints
# the reason as its one "error:" line and exits 3.
#
# Output: $BUILD_DIR/kselftest/root, laid out as the guest sees it:
#   /lib, /usr/lib     Debian's riscv64 libraries (and /bin/bash, /bin/true)
#   /kselftest/...     the installed selftests (kselftest-list.txt)
#   /usr/lib/tl-touch.so   an LD_PRELOAD library that uses TL before main
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool dpkg-deb dpkg
need_tool make make
need_tool rsync rsync

# The selftest collections built (tools/testing/selftests/TARGET).
TL_KSELFTEST_TARGETS=(riscv sigaltstack ptrace exec clone3 rseq futex seccomp timers vDSO membarrier cpu-hotplug cgroup)
sysroot_pkgs=(libc6 libc6-dev libcrypt1 libcrypt-dev libcap2 libcap-dev libgcc-s1 bash libtinfo6 coreutils)

sysroot="$CACHE_DIR/kselftest-sysroot"
want=$(printf '%s\n' "${sysroot_pkgs[@]}" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$sysroot/.tl-unpacked" 2>/dev/null)" != "$want" ]; then
    (
        rv_apt_update
        rm -rf "$sysroot.new" && mkdir -p "$sysroot.new"
        for p in "${sysroot_pkgs[@]}"; do
            deb=$(rv_download "$p" "$CACHE_DIR/kselftest-debs")
            dpkg-deb -x "$deb" "$sysroot.new" || die "cannot unpack $deb; delete it and rerun"
        done
        for d in bin lib sbin; do
            [ -e "$sysroot.new/$d" ] || ln -s "usr/$d" "$sysroot.new/$d"
        done
        echo "$want" > "$sysroot.new/.tl-unpacked"
        rm -rf "$sysroot" && mv "$sysroot.new" "$sysroot"
    ) || exit 3
fi

kernel=$("$TL_REPO/scripts/build-linux.sh")
# Debian 12's ld crashes linking Debian 13's static libc (newer relocations): TL-QEMU's binutils 2.43.
"$TL_REPO/scripts/build-binutils.sh" >/dev/null
tooldir="$BUILD_DIR/binutils/riscv64-linux-gnu/bin"
obj="$BUILD_DIR/linux"
src="$BUILD_DIR/linux-src"
out="$BUILD_DIR/kselftest"
root="$out/root"
install="$root/kselftest"
mkdir -p "$out"

# The compiler on Debian 13's libraries: its headers and libraries come
# before the cross compiler's own (Debian 12's glibc).
CC_SYSROOT="riscv64-linux-gnu-gcc -B$tooldir/ --sysroot=$sysroot -isystem $sysroot/usr/include/riscv64-linux-gnu -isystem $sysroot/usr/include -L$sysroot/usr/lib/riscv64-linux-gnu -B$sysroot/usr/lib/riscv64-linux-gnu"

stamp=$( { echo "$kernel"; stat -c %Y "$kernel"; echo "$want"; printf '%s\n' "${TL_KSELFTEST_TARGETS[@]}";
           cat "$TL_REPO/scripts/build-kselftests.sh" "$TL_REPO/tests/linux/kselftest/tl_touch.c" \
               "$TL_REPO/tests/linux/kselftest/run.list"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.tl-built" 2>/dev/null)" != "$stamp" ]; then
    log "building Linux's selftests (${TL_KSELFTEST_TARGETS[*]}) in $out"
    make -C "$src" O="$obj" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- headers >"$out/headers.log" 2>&1 ||
        die "make headers of the kernel failed (see $out/headers.log)"
    rm -rf "$install" "$obj/kselftest"
    if ! tl_progress "building Linux's selftests" "$out/build.log" make -C "$src/tools/testing/selftests" \
            O="$obj" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- \
            CC="$CC_SYSROOT" TARGETS="${TL_KSELFTEST_TARGETS[*]}" KSFT_INSTALL_PATH="$install" \
            -j"$(nproc)" install; then
        grep -E 'error|Error' "$out/build.log" | head -n 20 >&2
        die "the selftests did not build (see $out/build.log)"
    fi
    # A collection whose build fails does not fail the whole install: every
    # selftest the list runs must be there.
    while read -r name _; do
        case "$name" in ''|'#'*) continue ;; esac
        cmd=$(awk -v n="$name" '$1 == n { for (i = 3; i <= NF; i++) if ($i ~ /^\.\//) { print $i; exit } }' \
              "$TL_REPO/tests/linux/kselftest/run.list")
        [ -e "$install/${name%%:*}/${cmd#./}" ] ||
            die "the selftest $name was not built ($install/${name%%:*}/${cmd#./} is missing; see $out/build.log)"
    done < "$TL_REPO/tests/linux/kselftest/run.list"
    mkdir -p "$root/usr/lib"
    $CC_SYSROOT -O2 -Wall -Werror -shared -fPIC -I"$TL_REPO/include" \
        "$TL_REPO/tests/linux/kselftest/tl_touch.c" -o "$root/usr/lib/tl-touch.so" ||
        die "cannot build tests/linux/kselftest/tl_touch.c"
    echo "$stamp" > "$out/.tl-built"
fi
printf '%s\n' "$out"
