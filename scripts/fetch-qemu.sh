#!/usr/bin/env bash
# Obtains a pristine QEMU 10.0.x source tree and prints its path.
#   QEMU_SOURCE=debian  (default) Debian's 'qemu' source package from trixie,
#                       fetched with a private apt configuration, cached.
#   QEMU_SOURCE=dir     an existing tree, QEMU_SRC_DIR.
#   QEMU_SOURCE=tarball an upstream qemu-10.0.x.tar.xz, QEMU_TARBALL, whose
#                       SHA-256 must be listed in scripts/qemu-tarballs.sha256.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"

check_qemu_tree() {
    local dir=$1 version
    [ -f "$dir/VERSION" ] && [ -f "$dir/target/riscv/cpu.c" ] ||
        die "'$dir' is not a QEMU source tree (no VERSION or target/riscv/cpu.c); pass --qemu-src=DIR with an unpacked QEMU 10.0.x"
    version=$(cat "$dir/VERSION")
    case "$version" in
        10.0.*) ;;
        *) die "QEMU source at '$dir' is version $version; TL-QEMU's patches need QEMU 10.0.x (use the default Debian source, --qemu-src=DIR or --qemu-tarball=FILE with 10.0.x)" ;;
    esac
}

fetch_debian() {
    local dir="$CACHE_DIR/qemu-debian" dsc
    mkdir -p "$dir"
    dsc=$(ls "$dir"/qemu_10.0.*.dsc 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$dsc" ]; then
        need_tool apt-get apt
        need_tool dpkg-source dpkg-dev
        private_apt_update
        log "downloading Debian's qemu source package (trixie) into $dir"
        # shellcheck disable=SC2046
        tl_timed "downloading Debian's qemu source package" \
            bash -c 'cd "$1" && shift && exec "$@"' - "$dir" apt-get $(private_apt_opts) -q source --download-only qemu \
            >"$dir/download.log" 2>&1 ||
            die "could not download Debian's qemu source package (see $dir/download.log); check network access to the Debian mirror"
        dsc=$(ls "$dir"/qemu_*.dsc 2>/dev/null | sort -V | tail -n 1 || true)
        case "$(basename "${dsc:-none}")" in
            qemu_10.0.*) ;;
            *) die "Debian trixie now offers $(basename "${dsc:-nothing}"), not QEMU 10.0.x; use --qemu-tarball=qemu-10.0.x.tar.xz or --qemu-src=DIR" ;;
        esac
    fi
    local base version tree
    base=$(basename "$dsc" .dsc)             # qemu_10.0.13+ds-0+deb13u1
    version=${base#qemu_}
    tree="$dir/unpacked/$version"
    if [ ! -f "$tree.stamp" ]; then
        need_tool dpkg-source dpkg-dev
        log "unpacking $base with Debian's patches"
        rm -rf "$tree" && mkdir -p "$dir/unpacked"
        tl_timed "unpacking $base" dpkg-source --no-check -x "$dsc" "$tree" >"$dir/unpack.log" 2>&1 ||
            die "dpkg-source could not unpack $dsc (see $dir/unpack.log); delete $dir and retry"
        touch "$tree.stamp"
    fi
    check_qemu_tree "$tree"
    printf '%s\n' "$tree"
}

fetch_tarball() {
    local tarball=$1 sum name tree
    [ -f "$tarball" ] || die "--qemu-tarball: '$tarball' does not exist"
    sum=$(sha256sum "$tarball" | cut -d' ' -f1)
    name=$(grep -E "^$sum " "$TL_REPO/scripts/qemu-tarballs.sha256" | awk '{print $2}' || true)
    [ -n "$name" ] ||
        die "'$tarball' (sha256 $sum) is not a known QEMU 10.0.x release tarball; it is corrupt or another version (known: $(awk '{print $2}' "$TL_REPO/scripts/qemu-tarballs.sha256" | tr '\n' ' '))"
    tree="$CACHE_DIR/qemu-tarball/${name%.tar.xz}"
    if [ ! -f "$tree.stamp" ]; then
        log "unpacking $name"
        rm -rf "$tree" && mkdir -p "$tree"
        tar -xJf "$tarball" -C "$tree" --strip-components=1 ||
            die "could not unpack '$tarball'; it is corrupt: download it again"
        touch "$tree.stamp"
    fi
    check_qemu_tree "$tree"
    printf '%s\n' "$tree"
}

case "$QEMU_SOURCE" in
    debian) fetch_debian ;;
    dir) [ -d "${QEMU_SRC_DIR:-}" ] || die "--qemu-src: '${QEMU_SRC_DIR:-}' is not a directory"
         check_qemu_tree "$(cd "$QEMU_SRC_DIR" && pwd)"
         cd "$QEMU_SRC_DIR" && pwd ;;
    tarball) fetch_tarball "$QEMU_TARBALL" ;;
    *) die "unknown QEMU_SOURCE '$QEMU_SOURCE'; rerun ./configure" ;;
esac
