#!/usr/bin/env bash
# Builds a static riscv64 busybox from Debian 13's busybox source package
# with Debian's own configuration of its busybox-static package, and prints
# its path.  Used for the Linux guest's initramfs and the parity suite.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config

BUSYBOX_VERSION=1:1.37.0-6
# Built in this make check run: nothing to wait for (the lock) or check.
if tl_built_this_run "$BUILD_DIR/busybox/busybox" "$BUSYBOX_VERSION"; then
    printf '%s\n' "$BUILD_DIR/busybox/busybox"
    exit 0
fi
tl_build_lock "$0" "$@"
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool make make

src=$("$TL_REPO/scripts/fetch-debian-source.sh" busybox "$BUSYBOX_VERSION")
obj="$BUILD_DIR/busybox"
bin="$obj/busybox"
mkdir -p "$obj"

want=$( { echo "$src"; cat "$src/debian/config/pkg/static"; } | sha256sum | cut -d' ' -f1)
if [ ! -x "$bin" ] || [ "$(cat "$obj/.tl-built" 2>/dev/null)" != "$want" ]; then
    cc=riscv64-linux-gnu-gcc
    command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
    bmake=(make -C "$src" O="$obj" CROSS_COMPILE=riscv64-linux-gnu- CC="$cc"
           KCONFIG_NOTIMESTAMP=1)
    log "building busybox ${BUSYBOX_VERSION#*:} (Debian's busybox-static configuration) in $obj"
    cp "$src/debian/config/pkg/static" "$obj/.config"
    # tc does not build against newer kernel headers; the guests do not need it.
    sed -i 's/^CONFIG_TC=y/# CONFIG_TC is not set/' "$obj/.config"
    "${bmake[@]}" oldconfig </dev/null >"$obj/config.log" 2>&1 || die "busybox's oldconfig failed (see $obj/config.log)"
    tl_progress "building busybox" "$obj/build.log" "${bmake[@]}" -j"$(nproc)" busybox || {
        grep -E 'error|Error' "$obj/build.log" | head -n 10 >&2
        die "the busybox build failed (full log: $obj/build.log)"
    }
    echo "$want" > "$obj/.tl-built"
fi
tl_mark_built "$bin" "$BUSYBOX_VERSION"
printf '%s\n' "$bin"
