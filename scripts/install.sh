#!/usr/bin/env bash
# make install: builds what is missing and installs TL-QEMU into
# $DESTDIR$PREFIX (PREFIX default /opt/tl-qemu, beside Debian's own QEMU):
#
#   bin/qemu-system-riscv64, bin/qemu-riscv64   the emulators (xtl on -cpu max)
#   bin/tl-gcc, bin/tl-g++                       riscv64-linux-gnu-gcc/g++ with the xtl binutils
#   bin/tl-fw-run                                bare-metal firmware runner (TAP, JUnit)
#   bin/tl-demo                                  boots the TL kernel with the demo initramfs
#   bin/riscv64-linux-gnu-*, riscv64-linux-gnu/  GNU binutils with xtl
#   bin/riscv64-linux-gnu-gdb, share/gdb/        GNU gdb with xtl (info tl: gdb/xtl.py)
#   share/tl-qemu/riscv64/gdbserver              gdbserver for the riscv64 Linux guests
#   share/qemu/                                  the virt machine's default firmware (TL OpenSBI),
#                                                NIC option ROMs (from Debian's ipxe-qemu)
#   lib/libtlstat.so                             the tlstat TCG plugin
#   lib/libtlcore.a, include/tl/                 tile API and guest headers, semantic core (host backend)
#   share/tl-qemu/linux/Image, share/tl-qemu/demo/initramfs.cpio.gz
#   share/doc/tl-qemu/ (DOCDIR)                  README, docs, examples
#
# Nothing installed refers to the source or build tree: the programs find
# each other relative to their own location, so the tree can be moved.
#   scripts/install.sh [PREFIX=DIR] [DESTDIR=DIR] [DOCDIR=DIR]
#   scripts/install.sh --build-only      (make build) only build it
# As root over a build tree someone else owns, it installs what is built
# (make build) and builds nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"
umask 022
# What is installed is what this tree builds, whatever the environment says.
unset TL_LINUX_KERNEL TL_OPENSBI TL_BUSYBOX TL_DEMO_ADD
TL_DEMO_DIR="$BUILD_DIR/demo"

PREFIX=${PREFIX:-/opt/tl-qemu}
DESTDIR=${DESTDIR:-}
DOCDIR=${DOCDIR:-}
build_only=0
for arg in "$@"; do
    case "$arg" in
        --build-only) build_only=1 ;;
        PREFIX=*|DESTDIR=*|DOCDIR=*) declare "${arg%%=*}=${arg#*=}" ;;
        *) die "unknown argument '$arg' (usage: scripts/install.sh [--build-only] [PREFIX=DIR] [DESTDIR=DIR] [DOCDIR=DIR])" ;;
    esac
done
case "$PREFIX" in
    /*) ;;
    *) die "PREFIX=$PREFIX is not an absolute path (e.g. PREFIX=/opt/tl-qemu)" ;;
esac
[ -z "$DESTDIR" ] || case "$DESTDIR" in
    /*) ;;
    *) DESTDIR="$(pwd)/$DESTDIR" ;;
esac
PREFIX=${PREFIX%/}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/tl-qemu}
case "$DOCDIR" in
    /*) ;;
    *) die "DOCDIR=$DOCDIR is not an absolute path (e.g. DOCDIR=$PREFIX/share/doc/tl-qemu)" ;;
esac
root="$DESTDIR$PREFIX"

if [ "$build_only" = 0 ]; then
    mkdir -p "$root" 2>/dev/null && [ -w "$root" ] ||
        die "cannot write to $root; run make install as root, or choose PREFIX=DIR (or DESTDIR=DIR) you can write"
fi
tl_steps_begin
trap 'tl_steps_table "make install"' EXIT
# ---- build what is installed ----
# As root over a build tree that belongs to someone else (sudo make install
# after make build), nothing is built: root's files would be left in it.
if [ "$(id -u)" -eq 0 ] && [ -d "$BUILD_DIR" ] && [ ! -O "$BUILD_DIR" ]; then
    log "installing what $(stat -c %U "$BUILD_DIR") built in $BUILD_DIR (nothing is built as root)"
    TL_KERNEL="$BUILD_DIR/linux/arch/riscv/boot/Image"
    TL_OPENSBI="$BUILD_DIR/opensbi/platform/generic/firmware/fw_dynamic.bin"
    for f in "$BUILD_DIR/qemu/qemu-system-riscv64" "$BUILD_DIR/qemu/qemu-riscv64" \
             "$BUILD_DIR/gdb/bin/riscv64-linux-gnu-gdb" "$BUILD_DIR/gdb/riscv64/gdbserver" \
             "$BUILD_DIR/qemu/contrib/plugins/tlstat/libtlstat.so" "$BUILD_DIR/binutils/bin/riscv64-linux-gnu-as" \
             "$BUILD_DIR/host/target-riscv-tl/core/libtlcore.a" "$TL_KERNEL" "$TL_OPENSBI" \
             "$TL_DEMO_DIR/initramfs.cpio.gz"; do
        [ -f "$f" ] || die "$f is missing; run 'make build' as $(stat -c %U "$BUILD_DIR") first, then make install"
    done
else
    tl_timed "Debian packages the build needs (make deps)" "$TL_REPO/scripts/install-deps.sh"
    "$TL_REPO/scripts/build-qemu.sh"
    "$TL_REPO/scripts/build-binutils.sh"
    "$TL_REPO/scripts/build-gdb.sh"
    "$TL_REPO/scripts/build-host.sh"
    tl_linux_prepare tl
    tl_timed "the demo initramfs" tl_build_initramfs
fi
if [ "$build_only" = 1 ]; then
    log "built everything make install installs (in $BUILD_DIR)"
    exit 0
fi
opensbi=$TL_OPENSBI
q="$BUILD_DIR/qemu"

log "installing into $root"
t0=$SECONDS

# Executables without their debug sections (the build keeps them).
install_prog() {
    install -D -m 0755 "$1" "$2"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$2" 2>/dev/null ||
        die "strip failed on $2"
}

# ---- emulators, plugin, firmware ----
install_prog "$q/qemu-system-riscv64" "$root/bin/qemu-system-riscv64"
install_prog "$q/qemu-riscv64" "$root/bin/qemu-riscv64"
install -D -m 0644 "$q/contrib/plugins/tlstat/libtlstat.so" "$root/lib/libtlstat.so"
strip --strip-unneeded --remove-section=.comment "$root/lib/libtlstat.so"
install -D -m 0644 "$opensbi" "$root/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin"
# The NIC option ROMs (Debian's ipxe-qemu), copied so that the tree stands alone.
for rom in /usr/lib/ipxe/qemu/*.rom; do
    [ -f "$rom" ] && install -m 0644 "$rom" "$root/share/qemu/$(basename "$rom")"
done

# ---- binutils (as gcc -B finds them: PREFIX/riscv64-linux-gnu/bin) ----
bu="$BUILD_DIR/binutils"
for f in "$bu"/bin/riscv64-linux-gnu-*; do
    install_prog "$f" "$root/bin/$(basename "$f")"
done
for f in "$bu"/riscv64-linux-gnu/bin/*; do
    install_prog "$f" "$root/riscv64-linux-gnu/bin/$(basename "$f")"
done
# (ld's default linker scripts are built in: lib/ldscripts is not needed.)

# ---- gdb (its data directory is found relative to the program) ----
install_prog "$BUILD_DIR/gdb/bin/riscv64-linux-gnu-gdb" "$root/bin/riscv64-linux-gnu-gdb"
mkdir -p "$root/share/gdb"
cp -r "$BUILD_DIR/gdb/share/gdb/." "$root/share/gdb/"
# Python's byte-code caches of a gdb that ran from the build tree are not installed.
find "$root/share/gdb" -type d -name __pycache__ -prune -exec rm -rf {} +
install -D -m 0755 "$BUILD_DIR/gdb/riscv64/gdbserver" "$root/share/tl-qemu/riscv64/gdbserver"
for f in "$bu"/share/man/man1/riscv64-linux-gnu-*.1; do
    [ -f "$f" ] && install -D -m 0644 "$f" "$root/share/man/man1/$(basename "$f")"
done

# ---- headers, semantic core ----
mkdir -p "$root/include/tl"
install -m 0644 "$TL_REPO"/include/tl/* "$TL_REPO/target-riscv-tl/core/tl_core.h" "$root/include/tl/"
# Meson's archive of the core is thin (it names the objects of the build
# tree); the installed one holds them.
core="$BUILD_DIR/host/target-riscv-tl/core/libtlcore.a"
rm -f "$root/lib/libtlcore.a"
mkdir -p "$root/lib"
(mapfile -t objs < <(ar t "$core") && [ ${#objs[@]} -gt 0 ] && ar rcsD "$root/lib/libtlcore.a" "${objs[@]}") ||
    die "could not make $root/lib/libtlcore.a from $core; rerun scripts/build-host.sh"

# ---- tools ----
install -D -m 0755 "$TL_REPO/scripts/tl-fw-run" "$root/bin/tl-fw-run"
for f in tl-gcc tl-demo; do
    install -D -m 0755 "$TL_REPO/scripts/installed/$f" "$root/bin/$f"
done
ln -sf tl-gcc "$root/bin/tl-g++"

# ---- the TL kernel and the demo ----
install -D -m 0644 "$TL_KERNEL" "$root/share/tl-qemu/linux/Image"
install -D -m 0644 "$BUILD_DIR/linux/.config" "$root/share/tl-qemu/linux/config"
install -D -m 0644 "$TL_DEMO_DIR/initramfs.cpio.gz" "$root/share/tl-qemu/demo/initramfs.cpio.gz"

# ---- documentation ----
doc="$DESTDIR$DOCDIR"
mkdir -p "$doc/docs"
install -m 0644 "$TL_REPO/README.md" "$TL_REPO/COPYING" "$doc/"
cp -r "$TL_REPO/docs/." "$doc/docs/"
mkdir -p "$doc/examples" && cp -r "$TL_REPO/examples/." "$doc/examples/"
find "$doc" -name '.git*' -delete
find "$doc" -type d -exec chmod 0755 {} + && find "$doc" -type f -exec chmod 0644 {} +

tl_step_done "installing the files" $((SECONDS - t0))
log "installed TL-QEMU $(tl_version) into $root ($(du -sh "$root" | cut -f1)); try: $PREFIX/bin/tl-demo"
