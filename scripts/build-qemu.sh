#!/usr/bin/env bash
# Configures (once) and builds qemu-system-riscv64 and qemu-riscv64 with the
# TL extension, and the tlstat plugin, into $BUILD_DIR/qemu; builds TL-QEMU's
# OpenSBI and makes it the virt machine's default firmware (-bios) of that
# build.  Extra ninja targets may be given.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
need_tool ninja ninja-build
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

"$TL_REPO/scripts/get-meson.sh" >/dev/null
src=$("$TL_REPO/scripts/prepare-qemu.sh")
obj="$BUILD_DIR/qemu"
# --version: "QEMU emulator version 10.0.x (TL-QEMU V, Debian source D)".
pkgversion="TL-QEMU $(tl_version)"
pristine=$("$TL_REPO/scripts/fetch-qemu.sh")
case "$pristine" in
    */qemu-debian/unpacked/*) pkgversion="$pkgversion, Debian source $(basename "$pristine")" ;;
esac
TL_QEMU_EXTRA_CONFIG=("--with-pkgversion=$pkgversion")
# Cache hits across checkouts in other directories (a fresh clone in CI):
# paths below the build directory are hashed relative to it.
export CCACHE_BASEDIR="$BUILD_DIR" CCACHE_NOHASHDIR=true
qemu_configure "$src" "$obj" QEMU
targets=(qemu-system-riscv64 qemu-riscv64 contrib/plugins/tlstat/libtlstat.so "$@")
log "building ${targets[*]}"
tl_progress "building QEMU" "$obj/ninja.log" ninja -C "$obj" "${targets[@]}" || {
    grep -E 'error|Error' "$obj/ninja.log" | head -n 20 >&2
    die "the QEMU build failed (full log: $obj/ninja.log)"
}
# The makefiles QEMU's Makefile generates from build.ninja (Makefile.ninja,
# Makefile.mtest), refreshed here, under the build lock, rather than by the
# first test group that runs make in this directory.
make -C "$obj" Makefile.mtest >"$obj/makefiles.log" 2>&1 ||
    die "QEMU's generated makefiles could not be refreshed (log: $obj/makefiles.log)"

# The default firmware.  A QEMU run from its build directory looks for data
# files in qemu-bundle/<datadir> (an installed one in <bindir>/../share/qemu);
# Debian's QEMU source has no pc-bios blobs, and -M virt's default -bios is
# opensbi-riscv64-generic-fw_dynamic.bin there: TL-QEMU's OpenSBI, which
# enables TL for S/U-mode on harts with Smstateen.
opensbi=$("$TL_REPO/scripts/build-opensbi.sh")
datadir=$(sed -n 's/^#define CONFIG_QEMU_DATADIR "\(.*\)"$/\1/p' "$obj/config-host.h")
[ -n "$datadir" ] || die "$obj/config-host.h has no CONFIG_QEMU_DATADIR; delete $obj and rerun"
mkdir -p "$obj/qemu-bundle$datadir"
ln -sfn "$opensbi" "$obj/qemu-bundle$datadir/opensbi-riscv64-generic-fw_dynamic.bin"
# PCI network cards' option ROMs (virtio-net-pci loads efi-virtio.rom), as
# Debian's QEMU has them: from ipxe-qemu.
for rom in /usr/lib/ipxe/qemu/*.rom; do
    [ -f "$rom" ] && ln -sfn "$rom" "$obj/qemu-bundle$datadir/$(basename "$rom")"
done
log "built $obj/qemu-system-riscv64 (default firmware: TL-QEMU's OpenSBI), $obj/qemu-riscv64 and $obj/contrib/plugins/tlstat/libtlstat.so"
