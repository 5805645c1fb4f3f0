#!/usr/bin/env bash
# Builds OpenSBI 1.6 (Debian 13's opensbi source package, upstream tarball)
# with the patches of patches/opensbi-1.6/ (mstateen0.C for harts with xtl)
# for the generic platform, and prints the path of fw_dynamic.bin.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config

OPENSBI_VERSION=1.6-1
fw="$BUILD_DIR/opensbi/platform/generic/firmware/fw_dynamic.bin"
# Built in this make check run: nothing to wait for (the lock) or check.
if tl_built_this_run "$fw" "$OPENSBI_VERSION"; then
    printf '%s\n' "$fw"
    exit 0
fi
tl_build_lock "$0" "$@"
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool make make

pristine=$("$TL_REPO/scripts/fetch-debian-source.sh" --orig-only opensbi "$OPENSBI_VERSION")
src="$BUILD_DIR/opensbi-src"
obj="$BUILD_DIR/opensbi"
tl_patched_tree "$pristine" "$src" "$TL_REPO/patches/opensbi-1.6"

cc=riscv64-linux-gnu-gcc
command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
log "building OpenSBI (generic platform) in $obj"
mkdir -p "$obj"
if ! tl_progress "building OpenSBI" "$obj/make.log" make -C "$src" O="$obj" PLATFORM=generic \
        CROSS_COMPILE=riscv64-linux-gnu- CC="$cc" FW_PIC=y -j"$(nproc)"; then
    grep -E 'error|Error' "$obj/make.log" | head -n 10 >&2
    die "the OpenSBI build failed (full log: $obj/make.log)"
fi
[ -f "$fw" ] || die "the OpenSBI build produced no $fw (see $obj/make.log)"
tl_mark_built "$fw" "$OPENSBI_VERSION"
printf '%s\n' "$fw"
