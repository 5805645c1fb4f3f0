#!/usr/bin/env bash
# QEMU's riscv64 qtests boot edk2 (bios-tables-test) and probe NIC option
# ROMs (qos-test); Debian's QEMU source ships neither.  This puts Debian's
# builds of them where a build-tree QEMU looks (beside the default OpenSBI,
# TL-QEMU's, and the iPXE ROMs of bookworm's ipxe-qemu, which
# scripts/build-qemu.sh put there): edk2 from trixie's (or Debian
# testing's, see rv_apt_update) qemu-efi-riscv64 (Architecture: all, via the
# private riscv64 apt tree) as
# build/qemu/pc-bios/edk2-riscv-{code,vars}.fd, and the iPXE ROMs of
# bookworm's ipxe-qemu into the build's firmware directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
obj="$BUILD_DIR/qemu"
need_qemu
[ -d /usr/lib/ipxe/qemu ] || die "iPXE option ROMs missing; run 'make deps' (or: apt-get install ipxe-qemu)"

fw="$obj/qemu-bundle/usr/local/share/qemu"
mkdir -p "$fw" "$obj/pc-bios"
[ -e "$fw/opensbi-riscv64-generic-fw_dynamic.bin" ] ||
    die "QEMU's default firmware is missing in $fw; run 'make qemu'"
[ -e "$fw/efi-virtio.rom" ] ||
    die "the NIC option ROMs are missing in $fw; run 'make qemu' (with ipxe-qemu installed)"

# edk2 last: when no verified riscv64 index is available (and nothing was
# unpacked before), the error line is printed and the exit status is 3, so
# that the tests needing edk2 can be skipped and the others still run.
blobs="$CACHE_DIR/qtest-blobs"
if [ ! -f "$blobs/edk2.stamp" ]; then
    need_tool dpkg-deb dpkg
    (
        rv_apt_update
        deb=$(rv_download qemu-efi-riscv64 "$blobs/debs")
        rm -rf "$blobs/edk2" && mkdir -p "$blobs/edk2"
        dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$blobs/edk2" --wildcards './usr/share/qemu-efi-riscv64/*' ||
            die "could not unpack $deb; delete $blobs and rerun"
        touch "$blobs/edk2.stamp"
    ) || exit 3
fi
code=$(ls "$blobs"/edk2/usr/share/qemu-efi-riscv64/RISCV_VIRT_CODE.fd 2>/dev/null || true)
vars=$(ls "$blobs"/edk2/usr/share/qemu-efi-riscv64/RISCV_VIRT_VARS.fd 2>/dev/null || true)
[ -n "$code" ] && [ -n "$vars" ] ||
    die "qemu-efi-riscv64 has no RISCV_VIRT_CODE.fd/RISCV_VIRT_VARS.fd; delete $blobs and rerun"
ln -sf "$code" "$obj/pc-bios/edk2-riscv-code.fd"
ln -sf "$vars" "$obj/pc-bios/edk2-riscv-vars.fd"
