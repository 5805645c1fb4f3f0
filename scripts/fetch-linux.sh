#!/usr/bin/env bash
# Obtains Debian 13 (trixie)'s stock riscv64 Linux kernel (Debian testing's when
# the mirror's trixie index does not verify, see rv_apt_update) from its riscv64
# binary package (the kernel without TL support, for scripts/demo.sh
# --stock-kernel) and prints the path of its image (vmlinux-*, an Image with
# a PE header).  The package is fetched with a private apt configuration for the riscv64
# architecture under $CACHE_DIR/apt-riscv64 (the machine's /etc/apt and its
# dpkg architecture list are never changed) and unpacked under
# $CACHE_DIR/linux-riscv64; once unpacked, nothing is downloaded again.
#
# TL_KERNEL_PACKAGE=NAME picks another linux-image-* package.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"

# Extracts the files matching the tar patterns $3... of .deb $1 into $2.
extract() {
    local deb=$1 dest=$2; shift 2
    rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
    # dpkg-deb -x would unpack ~500 MB of modules we do not need; take /boot etc. only.
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dest.tmp" --wildcards "$@" ||
        die "could not unpack $deb; it is corrupt: delete $(dirname "$deb") and rerun"
    rm -rf "$dest" && mv "$dest.tmp" "$dest"
}

root="$CACHE_DIR/linux-riscv64"
debs="$root/debs"

kernel=$(ls "$root"/kernel/boot/vmlinu[xz]-* 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$kernel" ] || [ ! -f "$root/kernel.stamp" ]; then
    need_tool dpkg-deb dpkg
    rv_apt_update
    pkg=${TL_KERNEL_PACKAGE:-}
    if [ -z "$pkg" ]; then
        # linux-image-riscv64 is a metapackage: Depends: linux-image-6.x.y+debNN-riscv64
        # shellcheck disable=SC2046
        pkg=$(apt-cache $(rv_apt_opts) depends linux-image-riscv64 2>/dev/null |
              sed -n 's/^ *|\{0,1\}Depends: \(linux-image-[0-9][^ ]*-riscv64\)$/\1/p' | head -n 1 || true)
        [ -n "$pkg" ] ||
            die "Debian $(rv_suite) (riscv64) has no linux-image-riscv64 depending on a linux-image-6.x package; set TL_KERNEL_PACKAGE=linux-image-VERSION-riscv64 or TL_LINUX_KERNEL=FILE"
    fi
    # shellcheck disable=SC2046
    apt-cache $(rv_apt_opts) show "$pkg" >/dev/null 2>&1 ||
        die "the kernel package '$pkg' is not in Debian $(rv_suite) (riscv64); set TL_KERNEL_PACKAGE=linux-image-VERSION-riscv64 to a kernel package of that suite, or TL_LINUX_KERNEL=FILE"
    deb=$(rv_download "$pkg" "$debs")
    log "unpacking the kernel image from $(basename "$deb")"
    extract "$deb" "$root/kernel" './boot/*'
    kernel=$(ls "$root"/kernel/boot/vmlinu[xz]-* 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$kernel" ] || die "$(basename "$deb") holds no /boot/vmlinux-*; set TL_LINUX_KERNEL=FILE to a riscv64 Image"
    rm -f "$deb"       # 100+ MB, and the unpacked kernel is all we use
    touch "$root/kernel.stamp"
fi

printf '%s\n' "$kernel"
