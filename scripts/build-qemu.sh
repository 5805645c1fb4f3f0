#!/usr/bin/env bash
# Configures (once) and builds qemu-system-riscv64 and qemu-riscv64 with the
# TL extension, and the tlstat plugin, into $BUILD_DIR/qemu.  Extra ninja
# targets may be given.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
need_tool ninja ninja-build
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

"$TL_REPO/scripts/get-meson.sh" >/dev/null
src=$("$TL_REPO/scripts/prepare-qemu.sh")
obj="$BUILD_DIR/qemu"
# Cache hits across checkouts in other directories (a fresh clone in CI):
# paths below the build directory are hashed relative to it.
export CCACHE_BASEDIR="$BUILD_DIR" CCACHE_NOHASHDIR=true
qemu_configure "$src" "$obj" QEMU
targets=(qemu-system-riscv64 qemu-riscv64 contrib/plugins/tlstat/libtlstat.so "$@")
log "building ${targets[*]}"
ninja -C "$obj" "${targets[@]}" >"$obj/ninja.log" 2>&1 || {
    grep -E 'error|Error' "$obj/ninja.log" | head -n 20 >&2
    die "the QEMU build failed (full log: $obj/ninja.log)"
}
log "built $obj/qemu-system-riscv64, $obj/qemu-riscv64 and $obj/contrib/plugins/tlstat/libtlstat.so"
