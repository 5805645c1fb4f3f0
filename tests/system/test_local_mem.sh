#!/usr/bin/env bash
# The L1M/L0M local memories of -M virt: device tree nodes at the documented
# addresses with the requested sizes, absent by default, and one clear error
# for a size that is not allowed.  (TL loads/stores into them are exercised
# by the firmware suite.)  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool fdtget device-tree-compiler
qemu="$BUILD_DIR/qemu/qemu-system-riscv64"
need_qemu "$qemu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"

"$qemu" -M virt,tl-l1m-size=256K,tl-l0m-size=64K,dumpdtb="$tmp/a.dtb" -bios none -cpu rv64,xtl=on -nographic >/dev/null 2>&1
l1=$(fdtget -t x "$tmp/a.dtb" /soc/tl-l1m@8000000 reg 2>&1)
l0=$(fdtget -t x "$tmp/a.dtb" /soc/tl-l0m@9000000 reg 2>&1)
c1=$(fdtget "$tmp/a.dtb" /soc/tl-l1m@8000000 compatible 2>&1)
[ "$l1" = "0 8000000 0 40000" ] && [ "$c1" = "tl-qemu,l1m" ]
check $? "tl-l1m-size=256K: node /soc/tl-l1m@8000000, compatible tl-qemu,l1m, reg <0 0x8000000 0 0x40000> (got '$c1' '$l1')"
[ "$l0" = "0 9000000 0 10000" ]; check $? "tl-l0m-size=64K: node /soc/tl-l0m@9000000 reg <0 0x9000000 0 0x10000> (got '$l0')"

"$qemu" -M virt,dumpdtb="$tmp/b.dtb" -bios none -cpu rv64,xtl=on -nographic >/dev/null 2>&1 &&
    fdtget "$tmp/b.dtb" /soc compatible >/dev/null 2>&1 &&
    ! fdtget "$tmp/b.dtb" /soc/tl-l1m@8000000 reg >/dev/null 2>&1 && ! fdtget "$tmp/b.dtb" /soc/tl-l0m@9000000 reg >/dev/null 2>&1
check $? "without the properties there are no L1M/L0M nodes"

for bad in 3000 32M; do
    err=$("$qemu" -M virt,tl-l1m-size=$bad -bios none -nographic 2>&1 >/dev/null); rc=$?
    [ "$rc" -ne 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [[ "$err" == *"tl-l1m-size must be 0 or a multiple of 4 KiB up to 16 MiB"* ]]
    check $? "tl-l1m-size=$bad is refused with one clear line: $err"
done
"$qemu" -M virt,help 2>&1 | grep -q "tl-l0m-size=<size>.*L0M"; check $? "-M virt,help documents tl-l0m-size"
tap_end
