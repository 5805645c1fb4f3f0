#!/usr/bin/env bash
# Host-side mistakes must stop the build with one clear "error:" line that
# names the fix: bad configure options, a wrong QEMU tree, a corrupt tarball,
# a missing tool, a QEMU, Linux, OpenSBI or binutils patch that does not
# apply.  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
repo=$TL_REPO
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The scripts under test take the build lock of BUILD_DIR (tl_build_lock): a
# scratch one, so that they never wait for a build of the real tree beside them.
export BUILD_DIR="$tmp/build"
. "$repo/tests/tap.sh"

# expect_error <description> <regex the error line must match> <command...>
expect_error() {
    local what=$1 pattern=$2; shift 2
    local err rc errors
    err=$("$@" 2>&1 >/dev/null); rc=$?
    errors=$(printf '%s\n' "$err" | grep -c '^error: ')
    if [ "$rc" -ne 0 ] && [ "$errors" -eq 1 ] && printf '%s\n' "$err" | grep -Eq "^error: .*($pattern)"; then
        check 0 "$what: $(printf '%s\n' "$err" | grep '^error: ')"
    else
        check 1 "$what (exit $rc, $errors error lines): $err"
    fi
}

# configure runs in a scratch copy so the real config.mk is untouched.
mkdir -p "$tmp/repo" && cp "$repo/configure" "$tmp/repo/"
expect_error "unknown configure option" "unknown option '--frobnicate'" "$tmp/repo/configure" --frobnicate
expect_error "--qemu-src that does not exist" "not a directory" "$tmp/repo/configure" --qemu-src="$tmp/nowhere"
mkdir -p "$tmp/notqemu"
expect_error "--qemu-src that is not a QEMU tree" "not a QEMU source tree" "$tmp/repo/configure" --qemu-src="$tmp/notqemu"
mkdir -p "$tmp/qemu-9/target/riscv" && echo 9.2.0 > "$tmp/qemu-9/VERSION" && touch "$tmp/qemu-9/target/riscv/cpu.c"
expect_error "--qemu-src with QEMU 9.2.0" "9.2.0; TL-QEMU needs 10.0.x" "$tmp/repo/configure" --qemu-src="$tmp/qemu-9"
expect_error "--qemu-tarball that does not exist" "does not exist" "$tmp/repo/configure" --qemu-tarball="$tmp/none.tar.xz"

head -c 100000 /dev/urandom > "$tmp/qemu-10.0.0.tar.xz"
expect_error "a corrupt qemu-10.0.0.tar.xz" "not a known QEMU 10.0.x release tarball" \
    env QEMU_SOURCE=tarball QEMU_TARBALL="$tmp/qemu-10.0.0.tar.xz" CACHE_DIR="$tmp/cache" \
    "$repo/scripts/fetch-qemu.sh"
expect_error "QEMU_SOURCE=dir with a version-9 tree" "version 9.2.0" \
    env QEMU_SOURCE=dir QEMU_SRC_DIR="$tmp/qemu-9" "$repo/scripts/fetch-qemu.sh"

# A PATH without ninja: the build names the package to install.
mkdir -p "$tmp/bin"
for t in bash dirname cat; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
expect_error "ninja missing from PATH" "'ninja' is not installed; run 'make deps'" \
    env PATH="$tmp/bin" "$repo/scripts/build-qemu.sh"

# A QEMU tree whose target/riscv/cpu.c differs where a patch applies.
pristine=$("$repo/scripts/fetch-qemu.sh" 2>/dev/null)
if [ -n "$pristine" ] && [ -d "$pristine" ]; then
    cp -al "$pristine" "$tmp/qemu-edited"
    rm "$tmp/qemu-edited/target/riscv/cpu.c"
    sed 's/ISA_EXT_DATA_ENTRY(xtheadsync, /ISA_EXT_DATA_ENTRY(xtheadsync,  /' \
        "$pristine/target/riscv/cpu.c" > "$tmp/qemu-edited/target/riscv/cpu.c"
    expect_error "a patch that does not apply" "patch 0002-.*does not apply to target/riscv/cpu.c" \
        env QEMU_SOURCE=dir QEMU_SRC_DIR="$tmp/qemu-edited" "$repo/scripts/prepare-qemu.sh"
else
    check 1 "a patch that does not apply: no pristine QEMU tree to edit (run make qemu first)"
fi

# Packages and source versions Debian does not have, and a mirror caught in
# the middle of a sync: tests/host/test_mirror.sh (against a mirror of its own).

# The Linux and OpenSBI patches against trees whose files differ where they apply.
patched_tree() {   # patched_tree <pristine> <patch dir>
    bash -c '. "$1/scripts/lib.sh"; tl_patched_tree "$2" "$4/out" "$3"' _ "$repo" "$@" "$tmp"
}
mkdir -p "$tmp/linux/arch/riscv/kernel"
printf 'config RISCV\n\tbool\n' > "$tmp/linux/arch/riscv/Kconfig"
printf 'obj-y += head.o\n' > "$tmp/linux/arch/riscv/kernel/Makefile"
expect_error "a Linux patch that does not apply" "patch 0001-.*does not apply to arch/riscv/Kconfig" \
    patched_tree "$tmp/linux" "$repo/patches/linux-6.12"
mkdir -p "$tmp/opensbi/include/sbi" "$tmp/opensbi/lib/sbi"
printf 'enum sbi_hart_extensions {\n\tSBI_HART_EXT_MAX,\n};\n' > "$tmp/opensbi/include/sbi/sbi_hart.h"
printf '/* no mstatus_init here */\n' > "$tmp/opensbi/lib/sbi/sbi_hart.c"
expect_error "an OpenSBI patch that does not apply" "patch 0001-.*does not apply to" \
    patched_tree "$tmp/opensbi" "$repo/patches/opensbi-1.6"
mkdir -p "$tmp/binutils/bfd"
printf '/* not the binutils 2.43.1 elfxx-riscv.c */\n' > "$tmp/binutils/bfd/elfxx-riscv.c"
expect_error "a binutils patch that does not apply" "patch 0001-.*does not apply to bfd/elfxx-riscv.c" \
    patched_tree "$tmp/binutils" "$repo/patches/binutils-2.43"

# make install
expect_error "make install with a relative PREFIX" "PREFIX=opt/x is not an absolute path" \
    "$repo/scripts/install.sh" PREFIX=opt/x
expect_error "make install with an unknown argument" "unknown argument 'PERFIX=/opt'" \
    "$repo/scripts/install.sh" PERFIX=/opt

tap_end
