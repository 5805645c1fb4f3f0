#!/usr/bin/env bash
# Prints a command that runs Meson >= 1.5.  Debian 12 ships 1.0, so unless a
# new enough meson is installed, the bookworm-backports package is unpacked
# into the cache (no system change).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"

if command -v meson >/dev/null 2>&1 &&
   meson --version | awk -F. '{exit !($1 > 1 || ($1 == 1 && $2 >= 5))}'; then
    command -v meson
    exit 0
fi
dir="$CACHE_DIR/meson"
wrapper="$dir/meson"
if [ ! -x "$wrapper" ]; then
    private_apt_update
    mkdir -p "$dir/deb"
    log "fetching meson from bookworm-backports"
    # shellcheck disable=SC2046
    (cd "$dir/deb" && apt-get $(private_apt_opts) -q download meson/bookworm-backports \
        >"$dir/download.log" 2>&1) ||
        die "could not download meson from bookworm-backports (see $dir/download.log)"
    deb=$(ls "$dir"/deb/meson_*.deb | sort -V | tail -n 1)
    rm -rf "$dir/root" && dpkg-deb -x "$deb" "$dir/root" ||
        die "could not unpack $deb; delete $dir and retry"
    cat > "$wrapper" <<WRAP
#!/bin/sh
PYTHONPATH="$dir/root/usr/lib/python3/dist-packages\${PYTHONPATH:+:\$PYTHONPATH}" exec /usr/bin/python3 -m mesonbuild.mesonmain "\$@"
WRAP
    chmod +x "$wrapper"
fi
"$wrapper" --version >/dev/null || die "the unpacked meson at $dir does not run; delete $dir and retry"
printf '%s\n' "$wrapper"
