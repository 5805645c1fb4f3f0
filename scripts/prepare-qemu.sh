#!/usr/bin/env bash
# Makes $BUILD_DIR/patched-qemu: a copy of the pristine QEMU tree with TL-QEMU's
# hook patches applied, target-riscv-tl/ linked in as target/riscv/xtl and
# plugins/tlstat as contrib/plugins/tlstat, include/tl (the generated encoding
# header) as include/tl.
# Re-done only when the pristine tree or a patch changes; editing
# target-riscv-tl/ needs no re-patch because it is a symlink.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
need_tool git git

pristine=$("$TL_REPO/scripts/fetch-qemu.sh")
# Not "qemu-...": meson would take a sibling of build/qemu with that prefix
# for a generated directory.
tree="$BUILD_DIR/patched-qemu"
patches=("$TL_REPO"/patches/qemu-10.0/*.patch)
[ -e "${patches[0]}" ] || die "no patches in $TL_REPO/patches/qemu-10.0; the checkout is incomplete"

# The links into TL-QEMU's tree (below) are part of what a prepared tree is.
links="target/riscv/xtl hw/riscv/tl contrib/plugins/tlstat include/tl"
stamp_want=$( { echo "$pristine"; echo "$TL_REPO"; echo "$links"; cat "${patches[@]}"; } | sha256sum | cut -d' ' -f1)
if [ -f "$tree/.tl-prepared" ] && [ "$(cat "$tree/.tl-prepared")" = "$stamp_want" ]; then
    printf '%s\n' "$tree"
    exit 0
fi

log "preparing patched QEMU tree in $tree"
rm -rf "$tree.new"
mkdir -p "$BUILD_DIR"
# -a keeps timestamps, so an existing build only recompiles what the patches touch.
cp -a "$pristine" "$tree.new"
rm -rf "$tree.new/debian" "$tree.new/.pc"
# The tree may sit inside another git work tree (this repository's build/):
# stop git's repository discovery there, or it would apply paths relative to
# that repository and silently skip them.
export GIT_CEILING_DIRECTORIES
GIT_CEILING_DIRECTORIES=$(dirname "$tree")
for p in "${patches[@]}"; do
    if ! out=$(cd "$tree.new" && git apply --check "$p" 2>&1); then
        files=$(printf '%s\n' "$out" | sed -n 's/^error: \(.*\): patch does not apply$/\1/p;s/^error: patch failed: \([^:]*\):.*/\1/p' | sort -u | tr '\n' ' ')
        rm -rf "$tree.new"
        die "patch $(basename "$p") does not apply to ${files:-the QEMU tree} ($(printf '%s' "$out" | head -n 1)); the QEMU source is not the 10.0.x these patches were made for"
    fi
    (cd "$tree.new" && git apply "$p") || die "git apply of $(basename "$p") failed"
    for f in $(cd "$tree.new" && git apply --numstat "$p" 2>/dev/null | cut -f3); do
        ! cmp -s "$pristine/$f" "$tree.new/$f" ||
            die "patch $(basename "$p") left $f unchanged; check that git can apply patches in $tree"
    done
done
ln -s "$TL_REPO/target-riscv-tl" "$tree.new/target/riscv/xtl"
ln -s "$TL_REPO/hw" "$tree.new/hw/riscv/tl"
ln -s "$TL_REPO/plugins/tlstat" "$tree.new/contrib/plugins/tlstat"
# The generated encoding header, as "tl/xtl-opc.h" on QEMU's include path.
ln -s "$TL_REPO/include/tl" "$tree.new/include/tl"
echo "$stamp_want" > "$tree.new/.tl-prepared"
rm -rf "$tree"
mv "$tree.new" "$tree"
printf '%s\n' "$tree"
