#!/usr/bin/env bash
# Configures (once) and builds qemu-system-riscv64 and qemu-riscv64 with the
# TL extension, and the tlstat plugin, into $BUILD_DIR/qemu.  Extra ninja
# targets may be given.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
need_tool ninja ninja-build
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

meson=$("$TL_REPO/scripts/get-meson.sh")
src=$("$TL_REPO/scripts/prepare-qemu.sh")
obj="$BUILD_DIR/qemu"
mesonpath="$CACHE_DIR/meson/root/usr/lib/python3/dist-packages"

cc=gcc cxx=g++
if command -v ccache >/dev/null 2>&1; then
    cc="ccache gcc" cxx="ccache g++"
    # Cache hits across checkouts in other directories (a fresh clone in CI):
    # paths below the build directory are hashed relative to it.
    export CCACHE_BASEDIR="$BUILD_DIR" CCACHE_NOHASHDIR=true
fi
config_args=(
    --python=/usr/bin/python3
    "--cc=$cc" "--cxx=$cxx"
    --target-list=riscv64-softmmu,riscv64-linux-user
    --disable-docs --disable-install-blobs --disable-download
    --cross-cc-riscv64=riscv64-linux-gnu-gcc
)
want_stamp=$(printf '%s\n' "$src" "${config_args[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/build.ninja" ] || [ "$(cat "$obj/.tl-configured" 2>/dev/null)" != "$want_stamp" ]; then
    log "configuring QEMU in $obj"
    rm -rf "$obj" && mkdir -p "$obj"
    if ! (cd "$obj" && PYTHONPATH="$mesonpath" "$src/configure" "${config_args[@]}" >configure.log 2>&1); then
        tail -n 15 "$obj/configure.log" >&2
        die "QEMU's configure failed (full log: $obj/configure.log); run 'make deps' if a library is missing"
    fi
    # Let meson's automatic re-configuration (run by ninja) find the unpacked meson too.
    if [ -d "$mesonpath" ]; then
        for sp in "$obj"/pyvenv/lib/python3*/site-packages; do
            echo "$mesonpath" > "$sp/tl-qemu-meson.pth"
        done
    fi
    echo "$want_stamp" > "$obj/.tl-configured"
fi
targets=(qemu-system-riscv64 qemu-riscv64 contrib/plugins/tlstat/libtlstat.so "$@")
log "building ${targets[*]}"
ninja -C "$obj" "${targets[@]}" >"$obj/ninja.log" 2>&1 || {
    grep -E 'error|Error' "$obj/ninja.log" | head -n 20 >&2
    die "the QEMU build failed (full log: $obj/ninja.log)"
}
log "built $obj/qemu-system-riscv64, $obj/qemu-riscv64 and $obj/contrib/plugins/tlstat/libtlstat.so"
