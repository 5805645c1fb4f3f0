#!/usr/bin/env bash
# Builds GNU gdb 16.3 (Debian 13's upstream tarball) for riscv64-linux-gnu
# targets with TL-QEMU's xtl support: the disassembler half of the binutils
# patch (patches/gdb-16.3/) and the opcode table generated for binutils
# (patches/binutils-2.43/0002, the same file: there is one table), installed
# into $BUILD_DIR/gdb (bin/riscv64-linux-gnu-gdb, its data directory with
# gdb/xtl.py, the TL commands, loaded at start-up), and gdbserver for riscv64
# Linux guests (static, $BUILD_DIR/gdb/riscv64/gdbserver) from the same
# source.  docs/toolchain.md.
#
# gdb 16.3, not an older one: Debian 13 has it, and its opcodes are the
# nearest to binutils 2.43's of the gdb releases Debian offers (16.1, 16.3),
# so the binutils patch carries over with context changes only.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
need_tool make make
need_tool g++ g++
need_tool python3-config python3-dev

GDB_VERSION=16.3-1
prefix="$BUILD_DIR/gdb"
tree="$BUILD_DIR/gdb-src"
obj="$BUILD_DIR/gdb-obj"
for h in /usr/include/expat.h /usr/include/x86_64-linux-gnu/gmp.h /usr/include/mpfr.h; do
    [ -f "$h" ] || die "$h is missing; run 'make deps' (or: apt-get install libexpat1-dev libgmp-dev libmpfr-dev)"
done

pristine=$("$TL_REPO/scripts/fetch-debian-source.sh" --orig-only gdb "$GDB_VERSION")
[ -f "$pristine/gdb/riscv-tdep.c" ] ||
    die "$pristine is not a gdb source tree; delete $CACHE_DIR/src/gdb and rerun"

# The patch set: gdb's own, and binutils' generated opcode table.
patchdir="$BUILD_DIR/gdb-patches"
rm -rf "$patchdir" && mkdir -p "$patchdir"
for p in "$TL_REPO"/patches/gdb-16.3/*.patch; do
    ln -s "$p" "$patchdir/$(basename "$p")"
done
ln -s "$TL_REPO/patches/binutils-2.43/0002-riscv-xtl-opcode-table.patch" "$patchdir/0002-riscv-xtl-opcode-table.patch"
tl_patched_tree "$pristine" "$tree" "$patchdir"

cc=gcc cxx=g++
if command -v ccache >/dev/null 2>&1; then
    cc="ccache gcc" cxx="ccache g++"
    export CCACHE_BASEDIR="$BUILD_DIR" CCACHE_NOHASHDIR=true
fi
config_args=(
    --target=riscv64-linux-gnu "--prefix=$prefix" --program-prefix=riscv64-linux-gnu-
    --disable-sim --disable-gdbserver --disable-binutils --disable-gas --disable-ld
    --disable-gprof --disable-gprofng --disable-gold --disable-libctf --disable-nls
    --disable-werror --disable-tui --disable-source-highlight
    --with-python=/usr/bin/python3 --with-expat --with-system-zlib
    --without-debuginfod --without-zstd --without-guile --without-babeltrace
    --without-intel-pt --without-xxhash --without-lzma
    MAKEINFO=true
)
want_stamp=$(printf '%s\n' "$tree" "$cc" "${config_args[@]}" | sha256sum | cut -d' ' -f1)
jobs=$(nproc 2>/dev/null || echo 2)
gdb="$prefix/bin/riscv64-linux-gnu-gdb"
datadir="$prefix/share/gdb"

# Rewritten only when it changed: a gdb started meanwhile loads it.
install_python() {
    cmp -s "$TL_REPO/gdb/xtl.py" "$datadir/python/gdb/command/xtl.py" ||
        install -D -m 0644 "$TL_REPO/gdb/xtl.py" "$datadir/python/gdb/command/xtl.py"
}

build_host_gdb() {
    if [ ! -f "$obj/Makefile" ] || [ "$(cat "$obj/.tl-configured" 2>/dev/null)" != "$want_stamp" ]; then
        log "configuring gdb in $obj"
        rm -rf "$obj" && mkdir -p "$obj"
        if ! (cd "$obj" && CC="$cc" CXX="$cxx" CFLAGS="-O2 -g0" CXXFLAGS="-O2 -g0" "$tree/configure" \
                "${config_args[@]}" >configure.log 2>&1); then
            tail -n 15 "$obj/configure.log" >&2
            die "gdb's configure failed (full log: $obj/configure.log); run 'make deps' if a library is missing"
        fi
        echo "$want_stamp" > "$obj/.tl-configured"
    fi
    log "building gdb for riscv64-linux-gnu (a fresh build takes about 6 minutes on 2 cores)"
    if ! tl_progress "building gdb" "$obj/make.log" make -C "$obj" -j"$jobs" MAKEINFO=true all-gdb; then
        grep -E ': (fatal )?error:|\*\*\*' "$obj/make.log" | head -n 20 >&2
        die "the gdb build failed (full log: $obj/make.log)"
    fi
    # The program and its data directory (Python modules, syscall and
    # target-description files); not the manuals (no texinfo here).
    install -D -m 0755 "$obj/gdb/gdb" "$gdb"
    if ! make -C "$obj/gdb/data-directory" install >"$obj/install.log" 2>&1; then
        grep -E ': (fatal )?error:|\*\*\*' "$obj/install.log" | head -n 20 >&2
        die "installing gdb's data directory into $prefix failed (full log: $obj/install.log)"
    fi
    touch "$gdb"
}

# ---- gdbserver for the riscv64 guests: static, cross-compiled ----
sobj="$BUILD_DIR/gdbserver-obj"
gdbserver="$prefix/riscv64/gdbserver"
need_tool riscv64-linux-gnu-g++ g++-riscv64-linux-gnu
rcc=riscv64-linux-gnu-gcc rcxx=riscv64-linux-gnu-g++
command -v ccache >/dev/null 2>&1 && rcc="ccache $rcc" rcxx="ccache $rcxx"
server_args=(
    --host=riscv64-linux-gnu --target=riscv64-linux-gnu --prefix=/usr
    --disable-gdb --enable-gdbserver --disable-sim --disable-binutils --disable-gas --disable-ld
    --disable-gprof --disable-gprofng --disable-gold --disable-libctf --disable-nls --disable-werror
    --disable-inprocess-agent --without-debuginfod --without-zstd MAKEINFO=true
)
server_stamp=$(printf '%s\n' "$tree" "$rcc" "${server_args[@]}" | sha256sum | cut -d' ' -f1)

build_gdbserver() {
    if [ ! -f "$sobj/Makefile" ] || [ "$(cat "$sobj/.tl-configured" 2>/dev/null)" != "$server_stamp" ]; then
        log "configuring gdbserver for riscv64 Linux in $sobj"
        rm -rf "$sobj" && mkdir -p "$sobj"
        if ! (cd "$sobj" && CC="$rcc" CXX="$rcxx" CFLAGS="-O2 -g0" CXXFLAGS="-O2 -g0" LDFLAGS="-static" \
                "$tree/configure" "${server_args[@]}" >configure.log 2>&1); then
            tail -n 15 "$sobj/configure.log" >&2
            die "gdbserver's configure failed (full log: $sobj/configure.log); run 'make deps'"
        fi
        echo "$server_stamp" > "$sobj/.tl-configured"
    fi
    if ! tl_progress "building gdbserver (riscv64)" "$sobj/make.log" make -C "$sobj" -j"$jobs" MAKEINFO=true all-gdbserver; then
        grep -E ': (fatal )?error:|\*\*\*' "$sobj/make.log" | head -n 20 >&2
        die "the gdbserver build failed (full log: $sobj/make.log)"
    fi
    mkdir -p "$(dirname "$gdbserver")"
    riscv64-linux-gnu-strip -o "$gdbserver" "$sobj/gdbserver/gdbserver" || die "cannot strip $sobj/gdbserver/gdbserver"
}

if [ -x "$gdb" ] && [ "$(cat "$obj/.tl-configured" 2>/dev/null)" = "$want_stamp" ] &&
   [ "$gdb" -nt "$tree/.tl-prepared" ]; then
    log "gdb up to date in $prefix"
else
    build_host_gdb
fi
install_python
if [ -x "$gdbserver" ] && [ "$(cat "$sobj/.tl-configured" 2>/dev/null)" = "$server_stamp" ] &&
   [ "$gdbserver" -nt "$tree/.tl-prepared" ]; then
    log "gdbserver up to date in $gdbserver"
else
    build_gdbserver
fi
log "built $gdb and $gdbserver"
