#!/usr/bin/env bash
# gdb-multiarch against qemu-system-riscv64 -s -S: the TLRegs are registers
# tl0..tl31 (1024 bytes, viewable as .b/.h/.w/.d lanes) and the TL CSRs are
# in the CSR feature; both can be read and written; a watchpoint fires on
# a byte a TL store writes.  The guest itself checks
# afterwards that the write made by gdb took effect.  Ends "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool gdb-multiarch gdb-multiarch
qemu="$BUILD_DIR/qemu/qemu-system-riscv64"
need_qemu "$qemu"
elf=$("$TL_REPO/tests/system/build_guest.sh") || exit 1
tmp=$(mktemp -d)
trap 'kill $qpid 2>/dev/null; rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"

port=$(tl_free_port)
timeout 120 "$qemu" -M virt -bios none -cpu rv64,xtl=on -display none -serial "file:$tmp/uart.txt" \
    -kernel "$elf" -gdb "tcp:127.0.0.1:$port" -S &
qpid=$!
cat > "$tmp/cmds.gdb" <<GDB
set pagination off
set confirm off
file $elf
target remote 127.0.0.1:$port
break checkpoint
continue
printf "ttype=%#x tshape=%#x tmask_ls=%#x\n", \$ttype, \$tshape, \$tmask_ls
printf "tinit=%#x\n", \$tinit
printf "tl1.b[0..3]=%d %d %d %d\n", \$tl1.b[0], \$tl1.b[1], \$tl1.b[2], \$tl1.b[3]
printf "tl2.b[0..3]=%d %d %d %d\n", \$tl2.b[0], \$tl2.b[1], \$tl2.b[2], \$tl2.b[3]
printf "tl1.w[1]=%#x\n", \$tl1.w[1]
printf "tl0.d[7]=%#x\n", \$tl0.d[7]
set var \$tl3.b[5] = 0x42
printf "tl3.b[5] after write=%#x\n", \$tl3.b[5]
set var gdb_edited_tl3 = 1
set var spin_ticks = 0
watch out[700]
continue
printf "watch: out[700]=%d\n", out[700]
delete
continue
GDB
timeout 90 gdb-multiarch -batch -x "$tmp/cmds.gdb" >"$tmp/gdb.txt" 2>&1
wait $qpid; qrc=$?
sed 's/^/# gdb: /' "$tmp/gdb.txt" | grep -E 'ttype|tl[0-9]|Breakpoint|exited' 
out=$(cat "$tmp/gdb.txt")
# data[i] = i*13+1, so tl1 bytes 0..3 are 1 14 27 40 and tl2 = tl1 + 5.
[[ "$out" == *"ttype=0x2 tshape=0x80180 tmask_ls=0x42"* ]]; check $? "gdb reads the TL CSRs ttype, tshape, tmask_ls"
[[ "$out" == *"tinit=0x7"$'\n'* ]]; check $? "gdb reads tinit = 0x7 (ttype, tshape, tmask_ls initialized)"
[[ "$out" == *"tl1.b[0..3]=1 14 27 40"* ]]; check $? "gdb reads TLReg tl1 bytes (1 14 27 40)"
[[ "$out" == *"tl2.b[0..3]=6 19 32 45"* ]]; check $? "gdb reads TLReg tl2 = tl1 + 5 (6 19 32 45)"
[[ "$out" == *"tl1.w[1]=0x5c4f4235"* ]]; check $? "gdb reads tl1 as 32-bit lanes (w[1] = bytes 4..7 = 53 66 79 92 = 0x5c4f4235)"
[[ "$out" == *"tl0.d[7]=0"$'\n'* ]]; check $? "gdb reads tl0 as zero"
[[ "$out" == *"tl3.b[5] after write=0x42"* ]]; check $? "gdb writes byte 5 of tl3 and reads it back"
# data[i] = i*13+1: the first tl.store of the guest writes out[700] = 9101 mod 256 = 141.
[[ "$out" == *"atchpoint"*"out[700]"*"New value = 141"* ]] && [[ "$out" == *"watch: out[700]=141"* ]]
check $? "a gdb watchpoint on a byte a tl.store writes stops there with the new value 141"
grep -q "TL state check: PASS" "$tmp/uart.txt"; check $? "the guest sees gdb's write to tl3 and an intact TL state (UART: $(tr -d '\n' < "$tmp/uart.txt"))"
[ "$qrc" -eq 0 ]; check $? "QEMU exited through the test finisher with status 0 (got $qrc)"
tap_end
