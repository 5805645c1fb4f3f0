#!/usr/bin/env bash
# The gdb group: TL-QEMU's GNU gdb (scripts/build-gdb.sh) with xtl.
#  1. disassembly: x/i of the differential word set (tests/diff's words and
#     all of bits [31:20] x funct3) is objdump's text for every word; without
#     -M xtl and an ELF attribute, no tl.*;
#  2. qemu-system-riscv64 -s -S: stepping step_guest.c's TL sequence one
#     instruction at a time, the whole TL state gdb reads after each TL
#     instruction and CSR write is the reference model's (tests/reference),
#     and x/i shows each TL instruction as objdump does; info tl, info tl
#     tlN [TYPE], info registers xtl, $tshape with hand-computed values;
#  3. gdbserver (riscv64, static) inside TL-QEMU's Linux: the host's gdb
#     attaches through a forwarded port, stops a TL process at a breakpoint,
#     reads its TL registers, writes one, and the process continues with it;
#  4. a core dump of a two-thread TL process made by that kernel: gdb shows
#     each thread's TL registers from its NT_RISCV_XTL note, and readelf -n
#     and objdump -h name that note.
# Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
. "$TL_REPO/tests/tap.sh"
. "$TL_REPO/scripts/linux-lib.sh"
PY=/usr/bin/python3
src="$TL_REPO/tests/gdb"
out="$BUILD_DIR/tests/gdb"
rm -rf "$out" && mkdir -p "$out"
qpid=""
trap '[ -z "$qpid" ] || kill "$qpid" 2>/dev/null' EXIT

"$TL_REPO/scripts/build-gdb.sh" || { check 1 "scripts/build-gdb.sh builds gdb and gdbserver"; tap_end; exit 1; }
"$TL_REPO/scripts/build-binutils.sh" >/dev/null || { check 1 "binutils build"; tap_end; exit 1; }
GDB="$BUILD_DIR/gdb/bin/riscv64-linux-gnu-gdb"
GDBSERVER="$BUILD_DIR/gdb/riscv64/gdbserver"
OBJDUMP="$BUILD_DIR/binutils/bin/riscv64-linux-gnu-objdump"
OBJCOPY="$BUILD_DIR/binutils/bin/riscv64-linux-gnu-objcopy"
QEMU="$BUILD_DIR/qemu/qemu-system-riscv64"
need_qemu "$QEMU"
gdb_batch() { timeout 300 "$GDB" -nx -batch "$@"; }

v=$("$GDB" --version | head -n 1)
[[ "$v" == "GNU gdb "*"16.3"* ]]
check $? "riscv64-linux-gnu-gdb --version: $v"

# ---- 1. disassembly ----
"$PY" "$TL_REPO/tests/asm/gas_xtl.py" words "$out/words.bin" "$out/words.txt" || check 1 "the word set"
n=$(wc -l <"$out/words.txt")
AS="$BUILD_DIR/binutils/bin/riscv64-linux-gnu-as"
LD="$BUILD_DIR/binutils/bin/riscv64-linux-gnu-ld"
# The words as instructions of a linked program: once with an ELF attribute
# naming xtl, once without (then only set disassembler-options xtl decodes them).
{ echo "    .text"; echo "    .globl _start"; echo "_start:"; sed 's/^/    .insn 4, 0x/' "$out/words.txt"; } >"$out/words.S"
for v in xtl plain; do
    march=rv64gc_xtl; [ "$v" = xtl ] || march=rv64gc
    "$AS" -march="$march" "$out/words.S" -o "$out/words-$v.o" &&
        "$LD" -Ttext=0x10000 -e _start "$out/words-$v.o" -o "$out/words-$v" || check 1 "the word set assembles ($v)"
done
"$OBJDUMP" -d "$out/words-xtl" >"$out/words.objdump"
gdb_batch -ex "x/${n}i _start" "$out/words-xtl" >"$out/words.gdb" 2>&1
relay_cmd --prefix "ELF attribute naming xtl: " -- "$PY" "$src/compare_disasm.py" "$out/words.gdb" "$out/words.objdump" "$out/words.txt" 0x10000
gdb_batch -ex "set disassembler-options xtl" -ex "x/${n}i _start" "$out/words-plain" >"$out/words-opt.gdb" 2>&1
relay_cmd --prefix "no attribute, set disassembler-options xtl: " -- "$PY" "$src/compare_disasm.py" "$out/words-opt.gdb" "$out/words.objdump" "$out/words.txt" 0x10000
gdb_batch -ex "x/${n}i _start" "$out/words-plain" >"$out/words-noxtl.gdb" 2>&1
[ "$(grep -c ':' "$out/words-noxtl.gdb")" -ge "$n" ] && ! grep -qP '\ttl\.' "$out/words-noxtl.gdb"
check $? "without the option and without an ELF attribute naming xtl, gdb shows no tl.* mnemonic"

# info tl's element decoding against the reference model's formats.
relay_cmd --prefix "formats: " -- env TL_REPO="$TL_REPO" "$GDB" -nx -batch -x "$src/check_formats.py"

# ---- 2. stepping TL firmware under qemu-system-riscv64 -s -S ----
need_tool riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
elf="$out/step_guest.elf"
riscv64-unknown-elf-gcc -O2 -g -march=rv64gc -mabi=lp64d -mcmodel=medany -ffreestanding -nostdlib \
    -Wl,--no-warn-rwx-segments -I"$TL_REPO/include" -I"$TL_REPO" -T "$TL_REPO/tests/system/guest/link.ld" \
    "$TL_REPO/tests/system/guest/start.S" "$src/step_guest.c" -o "$elf" 2>"$out/step_cc.txt"
check $? "tests/gdb/step_guest.c builds"
"$OBJDUMP" -d -M xtl "$elf" >"$out/step_guest.objdump"
port=$(tl_free_port)
timeout 300 "$QEMU" -M virt -bios none -cpu max -display none -serial "file:$out/step_uart.txt" \
    -kernel "$elf" -gdb "tcp:127.0.0.1:$port" -S &
qpid=$!
cat >"$out/step.gdb" <<GDB
set pagination off
set confirm off
file $elf
target remote 127.0.0.1:$port
x/16i tl_sequence
echo ==== options\n
show disassembler-options
break tl_sequence
continue
source $src/step.py
echo ==== info tl\n
info tl
echo ==== info tl tl2\n
info tl tl2
echo ==== info tl tl2 fp16\n
info tl tl2 fp16
echo ==== info registers xtl\n
info registers xtl
echo ==== p\n
p/x \$tshape
p \$tl2.b[17]
echo ==== info registers\n
info registers
echo ==== bad\n
info tl tl32
GDB
TL_STEP_OUT="$out/steps.jsonl" gdb_batch -x "$out/step.gdb" >"$out/step.out" 2>&1
kill "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null; qpid=""
relay_cmd --prefix "stepping: " -- "$PY" "$src/check_steps.py" "$out/steps.jsonl" "$out/step_guest.objdump"
grep -qP '^\s+0x[0-9a-f]+ <tl_sequence\+\d+>:\ttl\.load\t' "$out/step.out" &&
    sed -n '/^==== options$/,/^Breakpoint/p' "$out/step.out" | grep -qxF "The current disassembler options are ''"
check $? "x/16i tl_sequence on a target with TL registers shows tl.load without set disassembler-options, which stays empty"
# After tl_sequence: ttype int8 (its last write), tshape [2, 8, 16], and tl2
# = the 256 bytes src[256 .. 511] = (7i + 3) mod 256 (7 * 256 = 0 mod 256),
# zero beyond (a load clears the rest of the register): by hand.
section() { sed -n "/^==== $1\$/,/^==== /p" "$out/step.out" | sed '1d;$d'; }
section "info tl" >"$out/info_tl.txt"
grep -qE '^ttype +0x00000002 +int8$' "$out/info_tl.txt" &&
    grep -qE '^tshape +0x00020810 +\[2, 8, 16\]$' "$out/info_tl.txt" &&
    grep -qE '^tmask_ls +0x00000005' "$out/info_tl.txt" &&
    grep -qE '^tvalid +0x00000000 +not initialized$' "$out/info_tl.txt"
check $? "info tl: ttype 0x2 int8, tshape 0x20810 [2, 8, 16], tmask_ls 0x5, tvalid not initialized"
want=$("$PY" -c '
rows = []
for d0 in range(2):
    for d1 in range(8):
        base = (d0 * 8 + d1) * 16
        rows.append("  [%d][%d] %s" % (d0, d1, " ".join(str((7 * i + 3) % 256) for i in range(base, base + 16))))
print("tl2: [2][8][16] int8"); print("\n".join(rows))')
[ "$(section "info tl tl2")" = "$want" ]
check $? "info tl tl2: the [2][8][16] int8 block, each element (7i + 3) mod 256"
want=$("$PY" -c '
import struct
b = bytes((7 * i + 3) % 256 if i < 256 else 0 for i in range(1024))
v = struct.unpack("<512e", b)
f = lambda x: "nan" if x != x else ("inf" if x == float("inf") else ("-inf" if x == -float("inf") else "%.6g" % x))
print("tl2: [2][8][16] fp16")
for d0 in range(2):
    for d1 in range(8):
        base = (d0 * 8 + d1) * 16
        print("  [%d][%d] %s" % (d0, d1, " ".join(f(x) for x in v[base:base + 16])))')
[ "$(section "info tl tl2 fp16")" = "$want" ]
check $? "info tl tl2 fp16: the same bytes as IEEE binary16 (Python's struct 'e' as the reference)"
section "info registers xtl" >"$out/regs_xtl.txt"
[ "$(grep -cE '^tl[0-9]+ ' "$out/regs_xtl.txt")" -eq 32 ] &&
    [ "$(grep -cE '^(ttype|tshape|tmask_ls|tmask_concat_1|tmask_concat_2|tmask_load_stride|tmask_load_width|tvalid|tinit) ' "$out/regs_xtl.txt")" -eq 9 ]
check $? "info registers xtl: the 9 TL CSRs and tl0 .. tl31"
section "p" >"$out/p.txt"
grep -qx '\$1 = 0x20810' "$out/p.txt" && grep -qx '\$2 = 122' "$out/p.txt"
check $? "p/x \$tshape = 0x20810; p \$tl2.b[17] = 122 ((7*17 + 3) mod 256)"
grep -q "info tl: 'tl32' is not a TL register (tl0 .. tl31)" "$out/step.out"
check $? "info tl tl32: one error naming the TL registers"
section "info registers" >"$out/regs_plain.txt"
grep -qE '^pc ' "$out/regs_plain.txt" && ! grep -qE '^tl[0-9]+ ' "$out/regs_plain.txt"
check $? "a plain info registers lists the general registers, not the 32 KiB of tile registers"

# ---- 3. gdbserver in TL-QEMU's Linux; 4. a core file of that kernel ----
export TL_DEMO_DIR="$BUILD_DIR/gdb-guest" TL_DEMO_ADD="$GDBSERVER $src/guest/tl_gdb_target.c"
mkdir -p "$TL_DEMO_DIR"
tl_linux_prepare tl
tl_build_initramfs
target="$TL_DEMO_DIR/bin/extra/tl_gdb_target"
port=$(tl_free_port)
console="$out/linux-console.txt"
timeout -k 5 600 "$QEMU" -M virt -cpu max -smp 2 -m 512M -nographic -no-reboot \
    -kernel "$TL_KERNEL" -initrd "$TL_DEMO_DIR/initramfs.cpio.gz" \
    -append "console=ttyS0 panic=-1 tlrun=gdb" \
    -netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$port-:1234" -device virtio-net-pci,netdev=n0 \
    </dev/null >"$console.raw" 2>&1 &
qpid=$!
for _ in $(seq 1 240); do
    grep -q 'Listening on port 1234' "$console.raw" 2>/dev/null && break
    kill -0 "$qpid" 2>/dev/null || break
    sleep 0.5
done
grep -q 'Listening on port 1234' "$console.raw"
check $? "gdbserver runs inside TL-QEMU's Linux (tlrun=gdb) and listens on port 1234"
cat >"$out/server.gdb" <<GDB
set pagination off
set confirm off
file $target
target remote 127.0.0.1:$port
break gdb_stop_here
continue
echo ==== info tl\n
info tl
echo ==== read\n
p \$tl2.b[3]
p/x \$tshape
p \$tl1.b[63]
set var \$tl2.b[3] = 119
set var \$tmask_ls = 5
echo ==== after write\n
p \$tl2.b[3]
continue
GDB
gdb_batch -x "$out/server.gdb" >"$out/server.out" 2>&1
wait "$qpid"; qpid=""
tr -d '\r' <"$console.raw" >"$console"
grep -qE '^ttype +0x00000002 +int8$' "$out/server.out" && grep -qE '^tshape +0x00020408 +\[2, 4, 8\]$' "$out/server.out"
check $? "gdb through gdbserver: info tl shows the TL CSRs of the stopped process (int8, tshape [2, 4, 8])"
sed -n '/^==== read$/,/^==== after write$/p' "$out/server.out" >"$out/server_read.txt"
grep -qx '\$1 = 26' "$out/server_read.txt" && grep -qx '\$2 = 0x20408' "$out/server_read.txt" &&
    grep -qx '\$3 = 60' "$out/server_read.txt"
check $? "reads through gdbserver: tl2.b[3] = 26 (3*5+1+10), tshape 0x20408, tl1.b[63] = 60 ((63*5+1) mod 256)"
grep -qx '\$4 = 119' "$out/server.out"
check $? "gdb writes tl2.b[3] = 119 through gdbserver (NT_RISCV_XTL) and reads it back"
want_sum=$("$PY" -c 'print(sum(min(255, (5 * i + 1) % 256 + 10) for i in range(64)) - 26 + 119)')
grep -q "^tl-gdb-target: tl2\[3\] = 119, tl2 sum = $want_sum, tshape = 0x20408, tmask_ls = 0x5, tinit = 0x7$" "$console"
check $? "the process continues with gdb's writes: tl2[3] = 119 (sum $want_sum), and tmask_ls = 5, which it never wrote, is initialized (tinit 0x7)"
! grep -q 'Warning: ptrace' "$console"
check $? "gdbserver gives no ptrace warning (also for the threads without TL state)"

sed -n '/^tl-gdb: core begin/,/^tl-gdb: core end/p' "$console" | sed '1d;$d' | base64 -d 2>/dev/null |
    gunzip >"$out/core" 2>/dev/null
size=$(sed -n 's/^tl-gdb: core begin \([0-9]*\)$/\1/p' "$console")
[ -n "$size" ] && [ "$(stat -c %s "$out/core" 2>/dev/null || echo 0)" = "$size" ] &&
    grep -q "^tl-gdb: tl_gdb_target core: SIGABRT" "$console"
check $? "the two-thread TL program dumped core in the guest (SIGABRT), $size bytes reached the host intact"
cat >"$out/core.gdb" <<GDB
set pagination off
info threads
thread apply all -c info tl
thread apply all -c printf "THREAD tl1[0]=%d tl1[200]=%d tl3[0]=%d tl3[255]=%d ttype=%d tshape=%#x\\n", \$tl1.b[0], \$tl1.b[200], \$tl3.b[0], \$tl3.b[255], \$ttype, \$tshape
GDB
gdb_batch -x "$out/core.gdb" "$target" "$out/core" >"$out/core.out" 2>&1
# Thread k: tl1[i] = (i + 16k) mod 256, tl3 = tl1 + k + 1 (int8 saturates at 255).
want=$("$PY" -c '
for k in range(2):
    t1 = lambda i: (i + 16 * k) % 256
    t3 = lambda i: min(255, t1(i) + k + 1)
    print("THREAD tl1[0]=%d tl1[200]=%d tl3[0]=%d tl3[255]=%d ttype=2 tshape=0x41010" % (t1(0), t1(200), t3(0), t3(255)))' | sort)
got=$(grep '^THREAD ' "$out/core.out" | sort)
[ "$got" = "$want" ]
check $? "gdb PROG core: each TL thread's registers and CSRs from its NT_RISCV_XTL note ($(echo "$got" | wc -l) threads)"
grep -q '<unavailable>\|value is not available' "$out/core.out" &&
    grep -q "this thread has no TL state" "$out/core.out"
check $? "the thread that never used TL has no TL note: its TL registers are unavailable, info tl says so"
# The note's size by hand: nine CSR words and three reserved ones, then 32 registers of 1 KiB.
READELF="$BUILD_DIR/binutils/bin/riscv64-linux-gnu-readelf"
notes=$("$READELF" -n "$out/core" 2>&1 | grep -c 'LINUX[[:space:]]*0x00008030[[:space:]]*NT_RISCV_XTL (RISC-V TensorLoad (xtl) state)')
sections=$("$OBJDUMP" -h "$out/core" 2>&1 | grep -c ' \.reg-riscv-xtl/[0-9]')
[ "$notes" -eq 2 ] && [ "$sections" -eq 2 ]
check $? "binutils name the core's TL notes: readelf -n shows 2 NT_RISCV_XTL notes of 0x8030 bytes (got $notes), objdump -h 2 .reg-riscv-xtl/TID sections (got $sections)"

tap_end
