#!/usr/bin/env bash
# Builds GNU binutils 2.43 (Debian 13's upstream tarball) with TL-QEMU's xtl
# patches (patches/binutils-2.43/) for the riscv64-linux-gnu target only: gas,
# ld, objdump, readelf and the other binutils programs, installed into
# $BUILD_DIR/binutils (tools as $BUILD_DIR/binutils/bin/riscv64-linux-gnu-*,
# and as/ld/objdump for `gcc -B` in $BUILD_DIR/binutils/riscv64-linux-gnu/bin/).
# The patched tree is re-made only when the tarball or a patch changes, and the
# build is incremental (make, ccache); a fresh build takes a few minutes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config

BINUTILS_VERSION=2.43.1-5
prefix="$BUILD_DIR/binutils"
# Built in this make check run: nothing to wait for (the lock) or check.
if tl_built_this_run "$prefix/bin/riscv64-linux-gnu-as" "$BINUTILS_VERSION"; then
    exit 0
fi
tl_build_lock "$0" "$@"
need_tool git git
need_tool make make
need_tool gcc gcc
need_tool bison bison
need_tool flex flex

tree="$BUILD_DIR/binutils-src"
obj="$BUILD_DIR/binutils-obj"

pristine=$("$TL_REPO/scripts/fetch-debian-source.sh" --orig-only binutils "$BINUTILS_VERSION")
[ -f "$pristine/gas/config/tc-riscv.c" ] ||
    die "$pristine is not a binutils source tree; delete $CACHE_DIR/src/binutils and rerun"

# ---- the patched source tree (re-made only when the tarball or a patch changes) ----
tl_patched_tree "$pristine" "$tree" "$TL_REPO/patches/binutils-2.43"

# ---- configure (once) and build ----
cc=gcc
if command -v ccache >/dev/null 2>&1; then
    cc="ccache gcc"
    export CCACHE_BASEDIR="$BUILD_DIR" CCACHE_NOHASHDIR=true
fi
config_args=(
    --target=riscv64-linux-gnu "--prefix=$prefix"
    --disable-gdb --disable-gdbserver --disable-sim --disable-gprof --disable-gprofng
    --disable-gold --disable-libctf --disable-nls --disable-werror
    --without-debuginfod --without-zstd --without-msgpack --with-system-zlib
    MAKEINFO=true
)
want_stamp=$(printf '%s\n' "$tree" "$cc" "${config_args[@]}" | sha256sum | cut -d' ' -f1)
jobs=$(nproc 2>/dev/null || echo 2)

build() {
    if [ ! -f "$obj/Makefile" ] || [ "$(cat "$obj/.tl-configured" 2>/dev/null)" != "$want_stamp" ]; then
        log "configuring binutils in $obj"
        rm -rf "$obj" && mkdir -p "$obj"
        if ! (cd "$obj" && CC="$cc" CFLAGS="-O2 -g0" "$tree/configure" "${config_args[@]}" \
                >configure.log 2>&1); then
            tail -n 15 "$obj/configure.log" >&2
            die "binutils' configure failed (full log: $obj/configure.log); run 'make deps' if a tool is missing"
        fi
        echo "$want_stamp" > "$obj/.tl-configured"
    fi
    log "building binutils (gas, ld, binutils) for riscv64-linux-gnu"
    if ! tl_progress "building binutils" "$obj/make.log" make -C "$obj" -j"$jobs" MAKEINFO=true \
            all-gas all-ld all-binutils; then
        grep -E 'error|Error' "$obj/make.log" | head -n 20 >&2
        die "the binutils build failed (full log: $obj/make.log)"
    fi
    if ! make -C "$obj" MAKEINFO=true install-gas install-ld install-binutils >"$obj/install.log" 2>&1; then
        grep -E 'error|Error' "$obj/install.log" | head -n 20 >&2
        die "installing binutils into $prefix failed (full log: $obj/install.log)"
    fi
}

# Nothing to do when the installed tools are newer than every object-tree input.
if [ -x "$prefix/bin/riscv64-linux-gnu-as" ] && [ -f "$obj/.tl-configured" ] &&
   [ "$(cat "$obj/.tl-configured")" = "$want_stamp" ] &&
   [ "$prefix/bin/riscv64-linux-gnu-as" -nt "$tree/.tl-prepared" ]; then
    log "binutils up to date in $prefix"
    tl_mark_built "$prefix/bin/riscv64-linux-gnu-as" "$BINUTILS_VERSION"
    exit 0
fi

start=$(date +%s)
build
log "built binutils into $prefix in $(( $(date +%s) - start )) s"
tl_mark_built "$prefix/bin/riscv64-linux-gnu-as" "$BINUTILS_VERSION"
