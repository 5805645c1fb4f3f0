#!/usr/bin/env bash
# Builds an unpatched qemu-riscv64 from the same QEMU source as TL-QEMU
# (scripts/fetch-qemu.sh, without TL-QEMU's patches) with the same configure
# options, for the performance-parity figures of make bench; prints its path.
# Not part of make check.
#
# Layout: $BUILD_DIR/stock/patched-qemu (a hard-linked copy of the pristine
# tree; no patch is applied to it) and $BUILD_DIR/stock/qemu (the build).
# The names mirror the TL build's ($BUILD_DIR/patched-qemu, $BUILD_DIR/qemu)
# so that, with CCACHE_BASEDIR, the compile commands are the same relative
# paths and ccache shares the objects of every file the TL patches leave alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
need_tool ninja ninja-build
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

meson=$("$TL_REPO/scripts/get-meson.sh")
pristine=$("$TL_REPO/scripts/fetch-qemu.sh")
base="$BUILD_DIR/stock"
src="$base/patched-qemu"
obj="$base/qemu"
mesonpath="$CACHE_DIR/meson/root/usr/lib/python3/dist-packages"
[ -n "$meson" ] || die "meson is missing; run 'make deps'"

# The source copy: hard links into the pristine tree (never written: QEMU
# builds out of tree), redone when the pristine tree changes.
if [ "$(cat "$src/.tl-stock" 2>/dev/null)" != "$pristine" ]; then
    log "copying the pristine QEMU tree to $src"
    rm -rf "$src" "$src.new"
    mkdir -p "$base"
    cp -al "$pristine" "$src.new" 2>/dev/null || cp -a "$pristine" "$src.new" ||
        die "cannot copy $pristine to $src.new; check free disk space"
    rm -rf "$src.new/debian" "$src.new/.pc"
    echo "$pristine" > "$src.new/.tl-stock"
    mv "$src.new" "$src"
fi

cc=gcc cxx=g++
if command -v ccache >/dev/null 2>&1; then
    cc="ccache gcc" cxx="ccache g++"
    export CCACHE_BASEDIR="$base" CCACHE_NOHASHDIR=true
fi
# The options of scripts/build-qemu.sh, so that both builds compile alike.
config_args=(
    --python=/usr/bin/python3
    "--cc=$cc" "--cxx=$cxx"
    --target-list=riscv64-softmmu,riscv64-linux-user
    --disable-docs --disable-install-blobs --disable-download
    --cross-cc-riscv64=riscv64-linux-gnu-gcc
)
want_stamp=$(printf '%s\n' "$src" "$pristine" "${config_args[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/build.ninja" ] || [ "$(cat "$obj/.tl-configured" 2>/dev/null)" != "$want_stamp" ]; then
    log "configuring the unpatched QEMU in $obj"
    rm -rf "$obj" && mkdir -p "$obj"
    if ! (cd "$obj" && PYTHONPATH="$mesonpath" "$src/configure" "${config_args[@]}" >configure.log 2>&1); then
        tail -n 15 "$obj/configure.log" >&2
        die "configure of the unpatched QEMU failed (full log: $obj/configure.log); run 'make deps' if a library is missing"
    fi
    if [ -d "$mesonpath" ]; then
        for sp in "$obj"/pyvenv/lib/python3*/site-packages; do
            echo "$mesonpath" > "$sp/tl-qemu-meson.pth"
        done
    fi
    echo "$want_stamp" > "$obj/.tl-configured"
fi
log "building the unpatched qemu-riscv64 in $obj"
ninja -C "$obj" qemu-riscv64 >"$obj/ninja.log" 2>&1 || {
    grep -E 'error|Error' "$obj/ninja.log" | head -n 20 >&2
    die "the build of the unpatched QEMU failed (full log: $obj/ninja.log)"
}
printf '%s\n' "$obj/qemu-riscv64"
