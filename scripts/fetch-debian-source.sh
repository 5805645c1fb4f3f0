#!/usr/bin/env bash
# Fetches one Debian source package of a pinned version through the private
# apt configuration and prints the path of the unpacked tree.
#
#   scripts/fetch-debian-source.sh PACKAGE VERSION            Debian's tree (patches applied)
#   scripts/fetch-debian-source.sh --orig-only PACKAGE VERSION the upstream tarball only
#
# Every file is checked against the SHA-256 of the signed Sources index
# before it is used.  Files are cached in $CACHE_DIR/src/PACKAGE and the tree
# is unpacked once, in $CACHE_DIR/src/PACKAGE/unpacked/VERSION[-orig].
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"

orig_only=0
if [ "${1:-}" = --orig-only ]; then
    orig_only=1
    shift
fi
[ $# -eq 2 ] || die "usage: scripts/fetch-debian-source.sh [--orig-only] PACKAGE VERSION"
pkg=$1 version=$2
dir="$CACHE_DIR/src/$pkg"
# No epoch in the path: make cannot handle ':' in file names.
tree="$dir/unpacked/${version#*:}"
[ $orig_only = 0 ] || tree="$tree-orig"
mkdir -p "$dir"

if [ -f "$tree.stamp" ]; then
    printf '%s\n' "$tree"
    exit 0
fi

need_tool apt-get apt
need_tool curl curl
private_apt_update
# shellcheck disable=SC2046
uris=$(apt-get $(private_apt_opts) -q source --print-uris "$pkg=$version" 2>"$dir/uris.log" |
       sed -n "s/^'\([^']*\)' \([^ ]*\) \([0-9]*\) SHA256:\([0-9a-f]*\)$/\1 \2 \3 \4/p") || true
[ -n "$uris" ] ||
    die "Debian trixie's Sources index has no $pkg $version (see $dir/uris.log); the version pinned in scripts/ must be updated"

# Downloads (or finds in the cache) one file and checks it against the index.
fetch_file() {
    local url=$1 name=$2 sum=$3
    if [ -f "$dir/$name" ] && [ "$(sha256sum "$dir/$name" | cut -d' ' -f1)" = "$sum" ]; then
        return 0
    fi
    log "downloading $name"
    local t0=$SECONDS
    if ! curl -fsS --retry 3 -o "$dir/$name.part" "$url" 2>"$dir/$name.log"; then
        rm -f "$dir/$name.part"
        die "could not download $url (see $dir/$name.log); check network access to the Debian mirror (or set DEBIAN_MIRROR)"
    fi
    [ "$(sha256sum "$dir/$name.part" | cut -d' ' -f1)" = "$sum" ] || {
        rm -f "$dir/$name.part"
        die "$name from the mirror does not match the signed Sources index (SHA-256); retry later or set DEBIAN_MIRROR"
    }
    mv "$dir/$name.part" "$dir/$name"
    tl_step_done "downloading $name ($(( $(stat -c %s "$dir/$name") >> 20 )) MiB)" $((SECONDS - t0))
}

rm -rf "$tree" && mkdir -p "$dir/unpacked"
if [ $orig_only = 1 ]; then
    orig=$(awk '$2 ~ /\.orig\.tar\./ {print; exit}' <<<"$uris")
    [ -n "$orig" ] || die "Debian's $pkg $version has no upstream tarball"
    read -r url name _ sum <<<"$orig"
    fetch_file "$url" "$name" "$sum"
    log "unpacking upstream $name"
    mkdir -p "$tree"
    tl_timed "unpacking $name" tar -xf "$dir/$name" -C "$tree" --strip-components=1 ||
        die "could not unpack $dir/$name; delete $dir and rerun"
else
    need_tool dpkg-source dpkg-dev
    while read -r url name _ sum; do
        fetch_file "$url" "$name" "$sum"
    done <<<"$uris"
    dsc=$(awk '$2 ~ /\.dsc$/ {print $2; exit}' <<<"$uris")
    log "unpacking $pkg $version with Debian's patches"
    tl_timed "unpacking $pkg $version" dpkg-source --no-check -x "$dir/$dsc" "$tree" >"$dir/unpack-$version.log" 2>&1 ||
        die "dpkg-source could not unpack $dsc (see $dir/unpack-$version.log); delete $dir and rerun"
fi
touch "$tree.stamp"
printf '%s\n' "$tree"
