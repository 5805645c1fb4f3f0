#!/usr/bin/env bash
# Migration (to a file and back) preserves the TL state byte for byte:
# TLRegs, CSRs and their initialized bits, compared in 'info registers'
# on both sides, and checked by the guest itself after it resumes on the
# destination.  Also shows the TL lines of 'info registers'.  Ends with
# "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
qemu="$BUILD_DIR/qemu/qemu-system-riscv64"
need_qemu "$qemu"
elf=$("$TL_REPO/tests/system/build_guest.sh") || exit 1
qmp="/usr/bin/python3 $TL_REPO/tests/system/qmp.py"
tmp=$(mktemp -d)
trap 'kill $src $dst 2>/dev/null; rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"
machine=(-M virt,tl-l1m-size=64K -bios none -cpu rv64,xtl=on -display none -kernel "$elf")

timeout 120 "$qemu" "${machine[@]}" -serial "file:$tmp/uart-src.txt" -qmp "unix:$tmp/src.sock,server=on,wait=off" -S &
src=$!
$qmp "$tmp/src.sock" cont >/dev/null
sleep 1   # the guest has set up its TL state and waits 3 s of guest time
# HMP output ends its lines with CR LF.
$qmp "$tmp/src.sock" stop "hmp:info registers" | tr -d '\r' >"$tmp/regs-src.txt"
$qmp "$tmp/src.sock" "migrate {\"uri\": \"exec:cat > $tmp/state.bin\"}" wait-migration quit >"$tmp/mig.txt" 2>&1
wait $src
grep -q completed "$tmp/mig.txt"; check $? "migration of a stopped VM with xtl to a file completes ($(tr '\n' ' ' < "$tmp/mig.txt"))"
grep -E '^ (ttype|tshape|tmask_ls|tmask_concat_1)' "$tmp/regs-src.txt" | sed 's/^/# source: /'

timeout 120 "$qemu" "${machine[@]}" -serial "file:$tmp/uart-dst.txt" -qmp "unix:$tmp/dst.sock,server=on,wait=off" \
    -incoming "exec:cat $tmp/state.bin" -S &
dst=$!
$qmp "$tmp/dst.sock" wait-migration "hmp:info registers" | tr -d '\r' >"$tmp/regs-dst.txt"
tl_lines() { grep -E '^ (ttype|tshape|tmask_|tvalid|tl[0-9]+ |all-zero TLRegs)' "$1"; }
[ "$(tl_lines "$tmp/regs-src.txt" | grep -cE '^ (ttype|tshape|tmask_|tvalid)')" -eq 8 ] &&
    grep -q '^ all-zero TLRegs: tl0 tl3 tl4 ' "$tmp/regs-src.txt" && [ "$(grep -cE '^ tl[0-9]+ ' "$tmp/regs-src.txt")" -eq 2 ]
check $? "'info registers' shows the 8 TL CSRs, the non-zero TLRegs tl1 and tl2 in full, and names the all-zero ones"
grep -q '^ tshape            00080180$' "$tmp/regs-src.txt" && grep -q '^ tvalid            00000000 (uninitialized)$' "$tmp/regs-src.txt"
check $? "'info registers' shows CSR values and which are uninitialized (tshape 00080180, tvalid uninitialized)"
cmp -s <(tl_lines "$tmp/regs-src.txt") <(tl_lines "$tmp/regs-dst.txt")
check $? "TLRegs, CSRs and initialized bits on the destination equal the source's byte for byte"
grep -q "^ tl1 *010e1b28" "$tmp/regs-dst.txt"; check $? "the destination's tl1 starts with the guest's data 01 0e 1b 28"
$qmp "$tmp/dst.sock" cont >/dev/null
wait $dst; rc=$?
grep -q "TL state check: PASS" "$tmp/uart-dst.txt"
check $? "the guest resumes on the destination and finds its TL state intact, mask CSR still initialized (UART: $(tr -d '\n' < "$tmp/uart-dst.txt"))"
[ ! -s "$tmp/uart-src.txt" ]; check $? "the source VM was stopped before its check (its UART is empty)"
[ "$rc" -eq 0 ]; check $? "the destination exits through the test finisher with status 0 (got $rc)"
tap_end
