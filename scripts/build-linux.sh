#!/usr/bin/env bash
# Builds TL-QEMU's riscv64 Linux kernel and prints the path of its Image:
# Debian 13's linux source package (pinned below), the hook patches of
# patches/linux-6.12/, the TL code of linux-riscv-tl/ linked into the tree,
# and "make tinyconfig" plus linux-riscv-tl/tl-qemu.config as configuration.
# Out of tree in $BUILD_DIR/linux, with ccache; incremental once built.
#
#   scripts/build-linux.sh --stock   the same source and configuration
#                                    without TL support, in $BUILD_DIR/linux-stock
#                                    (the baseline of make bench)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config

stock=0
case "${1:-}" in
    --stock) stock=1 ;;
    "") ;;
    *) die "unknown option '$1' (scripts/build-linux.sh [--stock])" ;;
esac

LINUX_VERSION=${TL_LINUX_SOURCE_VERSION:-6.12.107-1}
image="$BUILD_DIR/$([ "$stock" = 1 ] && echo linux-stock || echo linux)/arch/riscv/boot/Image"
# Built in this make check run: nothing to wait for (the lock) or check.
if tl_built_this_run "$image" "$LINUX_VERSION"; then
    printf '%s\n' "$image"
    exit 0
fi
tl_build_lock "$0" "$@"
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool make make
need_tool flex flex
need_tool bison bison
need_tool bc bc

pristine=$("$TL_REPO/scripts/fetch-debian-source.sh" linux "$LINUX_VERSION")
ours="$TL_REPO/linux-riscv-tl"
if [ "$stock" = 1 ]; then
    # Out-of-tree builds leave the source tree untouched: build the pristine one.
    src=$pristine
    obj="$BUILD_DIR/linux-stock"
    mkdir -p "$obj"
    fragment="$obj/stock.config"
    grep -v 'CONFIG_RISCV_ISA_XTL' "$ours/tl-qemu.config" > "$fragment.new"
    cmp -s "$fragment.new" "$fragment" 2>/dev/null || mv "$fragment.new" "$fragment"
    rm -f "$fragment.new"
else
    src="$BUILD_DIR/linux-src"
    obj="$BUILD_DIR/linux"
    fragment="$ours/tl-qemu.config"
    links=()
    while IFS= read -r f; do
        links+=("$f=$ours/$f")
    done < <(cd "$ours" && find arch -type f | sort)
    tl_patched_tree "$pristine" "$src" "$TL_REPO/patches/linux-6.12" "${links[@]}"
fi

kmake=(make -C "$src" O="$obj" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-
       KBUILD_BUILD_USER=tl-qemu KBUILD_BUILD_HOST=tl-qemu
       KBUILD_BUILD_TIMESTAMP="Debian $LINUX_VERSION")
if command -v ccache >/dev/null 2>&1; then
    kmake+=(CC="ccache riscv64-linux-gnu-gcc")
    export CCACHE_BASEDIR="$BUILD_DIR" CCACHE_NOHASHDIR=true
fi
mkdir -p "$obj"

want_config=$( { echo "$LINUX_VERSION"; cat "$fragment"; } | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.tl-config" 2>/dev/null)" != "$want_config" ]; then
    log "configuring Linux $LINUX_VERSION (tinyconfig + $(basename "$fragment")) in $obj"
    { "${kmake[@]}" tinyconfig &&
      "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" &&
      "${kmake[@]}" olddefconfig; } >"$obj/config.log" 2>&1 ||
        die "configuring the kernel failed (see $obj/config.log)"
    # Every option of the fragment must have survived Kconfig's dependencies.
    while IFS= read -r line; do
        case "$line" in
            CONFIG_*=*) grep -qxF "$line" "$obj/.config" ||
                die "kernel option ${line%%=*} did not end up as '${line#*=}' (its dependencies are not met; see $obj/config.log); fix $fragment" ;;
            "# CONFIG_"*" is not set") name=${line#\# }; name=${name%% *}
                ! grep -q "^$name=" "$obj/.config" ||
                die "kernel option $name is still enabled (something selects it; see $obj/config.log); fix $fragment" ;;
        esac
    done < "$fragment"
    echo "$want_config" > "$obj/.tl-config"
fi

log "building the Linux kernel Image in $obj"
if ! tl_progress "building Linux ($(basename "$obj"))" "$obj/build.log" "${kmake[@]}" -j"$(nproc)" Image; then
    grep -E 'error|Error' "$obj/build.log" | head -n 20 >&2
    die "the kernel build failed (full log: $obj/build.log)"
fi
tl_mark_built "$image" "$LINUX_VERSION"
printf '%s\n' "$image"
