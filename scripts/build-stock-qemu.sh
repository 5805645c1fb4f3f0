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
tl_build_lock "$0" "$@"
need_tool ninja ninja-build
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

meson=$("$TL_REPO/scripts/get-meson.sh")
pristine=$("$TL_REPO/scripts/fetch-qemu.sh")
base="$BUILD_DIR/stock"
src="$base/patched-qemu"
obj="$base/qemu"
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

export CCACHE_BASEDIR="$base" CCACHE_NOHASHDIR=true
qemu_configure "$src" "$obj" "the unpatched QEMU" "$pristine"
log "building the unpatched qemu-riscv64 in $obj"
tl_progress "building the unpatched QEMU" "$obj/ninja.log" ninja -C "$obj" qemu-riscv64 || {
    grep -E 'error|Error' "$obj/ninja.log" | head -n 20 >&2
    die "the build of the unpatched QEMU failed (full log: $obj/ninja.log)"
}
printf '%s\n' "$obj/qemu-riscv64"
