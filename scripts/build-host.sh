#!/usr/bin/env bash
# Builds the host-side part (semantic core library and its unit tests) with Meson.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
meson=$("$TL_REPO/scripts/get-meson.sh")
obj="$BUILD_DIR/host"
if [ ! -f "$obj/build.ninja" ]; then
    "$meson" setup "$obj" "$TL_REPO" >"$BUILD_DIR/host-setup.log" 2>&1 || {
        tail -n 15 "$BUILD_DIR/host-setup.log" >&2
        die "meson setup of the host build failed (log: $BUILD_DIR/host-setup.log); run 'make deps'"
    }
fi
# meson compile, not ninja: regeneration must find the unpacked meson.
tl_progress "building the semantic core and its unit tests" "$BUILD_DIR/host-build.log" "$meson" compile -C "$obj" || {
    grep -E 'error' "$BUILD_DIR/host-build.log" | head -n 20 >&2
    die "the host build failed (log: $BUILD_DIR/host-build.log)"
}
