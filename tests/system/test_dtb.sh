#!/usr/bin/env bash
# qemu-system-riscv64 -M virt describes the extension in the device tree:
# "xtl" in riscv,isa and riscv,isa-extensions of every hart with xtl, and
# nowhere without it.  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool fdtget device-tree-compiler
qemu="$BUILD_DIR/qemu/qemu-system-riscv64"
need_qemu "$qemu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"

for cpu in rv64,xtl=on max rv64 rv64,xtl=off; do
    dtb="$tmp/virt-${cpu//[,=]/_}.dtb"
    "$qemu" -M "virt,dumpdtb=$dtb" -bios none -cpu "$cpu" -smp 2 -nographic >"$tmp/qemu.log" 2>&1
    if ! isa=$(fdtget "$dtb" /cpus/cpu@1 riscv,isa 2>&1) ||
       ! exts=$(fdtget "$dtb" /cpus/cpu@1 riscv,isa-extensions 2>&1); then
        check 1 "-cpu $cpu: QEMU wrote a device tree with riscv,isa and riscv,isa-extensions ($(head -n 1 "$tmp/qemu.log"))"
        continue
    fi
    echo "# -cpu $cpu: riscv,isa = $isa"
    case "$cpu" in
        rv64,xtl=on|max)
            [[ "$isa" =~ _xtl(_|$) ]]; check $? "-cpu $cpu: riscv,isa of hart 1 contains _xtl"
            [[ " $exts " == *" xtl "* ]]; check $? "-cpu $cpu: riscv,isa-extensions of hart 1 lists xtl" ;;
        *)
            [[ ! "$isa" =~ xtl ]] && [[ "$isa" == rv64* ]]; check $? "-cpu $cpu: riscv,isa has no xtl"
            [[ " $exts " != *" xtl "* ]] && [ -n "$exts" ]; check $? "-cpu $cpu: riscv,isa-extensions has no xtl" ;;
    esac
done
tap_end
