#!/bin/bash
# The checks of an installed TL-QEMU that use nothing but the installed tree
# (and Debian's riscv64 cross compilers for tl-gcc).  tests/install/run.sh
# runs it with the source and build trees hidden, and inside a fresh Debian
# chroot where the .deb packages were installed; it is self-contained for
# that reason (no file of the repository is sourced).
#
#   installed-checks.sh PREFIX DOCDIR VERSION WORKDIR [FIRMWARE-DIR]
#
# PREFIX: the installed tree (bin/, share/qemu, ...); DOCDIR its docs;
# VERSION: TL-QEMU's version (the repository's VERSION file); WORKDIR: a
# scratch directory; FIRMWARE-DIR: the example firmware project with its
# images built (build/*.elf) when this machine has no riscv64-unknown-elf-gcc.
# Prints "ok - ..." / "not ok - ..." lines and "N passed, M failed".
set -u
P=$1 DOC=$2 VERSION=$3 W=$4 FWDIR=${5:-}
pass=0 fail=0
check() {
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "ok - $2"
    else fail=$((fail + 1)); echo "not ok - $2"; fi
}
show() { sed 's/^/#   /' "$1" | head -n "${2:-15}"; }
mkdir -p "$W"

# 1. --version names TL-QEMU.
v=$("$P/bin/qemu-system-riscv64" --version 2>&1 | head -n 1)
[[ "$v" =~ ^"QEMU emulator version 10.0."[0-9]+" (TL-QEMU $VERSION"[,\)] ]]
check $? "qemu-system-riscv64 --version: '$v' names TL-QEMU $VERSION"
v=$("$P/bin/qemu-riscv64" --version 2>&1 | head -n 1)
[[ "$v" =~ ^"qemu-riscv64 version 10.0."[0-9]+" (TL-QEMU $VERSION"[,\)] ]]
check $? "qemu-riscv64 --version: '$v' names TL-QEMU $VERSION"

# 2. Linux with TL on -cpu max and the default firmware (no -bios): tl-demo.
rc=0
timeout -k 5 300 "$P/bin/tl-demo" >"$W/demo.log" 2>&1 || rc=$?
tr -d '\r' <"$W/demo.log" >"$W/demo.txt"
grep -q '^OpenSBI v1\.6' "$W/demo.txt" && grep -q '^tl-demo: PASS$' "$W/demo.txt" && [ "$rc" -eq 0 ] &&
    grep -q 'xtl: TensorLoad state per task' "$W/demo.txt" && grep -qx 'TL demo: PASS' "$W/demo.txt"
check $? "tl-demo: Linux on -M virt -cpu max without -bios boots on the installed OpenSBI 1.6, keeps TL state per task, TL demo: PASS (exit $rc)"
[ "$rc" -eq 0 ] || show "$W/demo.txt" 40

# 2b. A PCI network card finds its option ROM (efi-virtio.rom) as under
#     Debian's QEMU, without romfile=.
rc=0
echo quit | timeout 30 "$P/bin/qemu-system-riscv64" -M virt -nodefaults -display none -S -monitor stdio \
    -netdev user,id=n0 -device virtio-net-pci,netdev=n0 >"$W/nic.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && ! grep -qi 'romfile' "$W/nic.log"
check $? "-device virtio-net-pci starts without romfile= (exit $rc)"
[ "$rc" -eq 0 ] || show "$W/nic.log"

# 3. The installed binutils: the spec's worked examples (docs/isa.md 5.9)
#    assemble to their words and disassemble to their mnemonics.
cat >"$W/words.S" <<'ASM'
    .option arch, +xtl
    tl.mload tl1, 0(a0)
    tl.xpose.01 tl1, tl2, a0
    tl.addi tl1, tl2, -5
ASM
if "$P/bin/riscv64-linux-gnu-as" -march=rv64gc_xtl "$W/words.S" -o "$W/words.o" 2>"$W/as.log"; then
    "$P/bin/riscv64-linux-gnu-objdump" -d "$W/words.o" >"$W/words.dis" 2>&1
    ok=0
    for want in '1000855b[[:space:]]+tl\.mload[[:space:]]+tl1,0\(a0\)' \
                'c220b55b[[:space:]]+tl\.xpose\.01[[:space:]]+tl1,tl2,a0' \
                '4fb120db[[:space:]]+tl\.addi[[:space:]]+tl1,tl2,-5'; do
        grep -qE "$want" "$W/words.dis" || ok=1
    done
    check $ok "riscv64-linux-gnu-as/objdump: tl.mload, tl.xpose.01, tl.addi give 0x1000855b, 0xc220b55b, 0x4fb120db and disassemble back"
    [ "$ok" -eq 0 ] || show "$W/words.dis"
else
    show "$W/as.log"
    check 1 "riscv64-linux-gnu-as assembles the spec's worked examples"
fi

# 3b. The installed gdb: the same words disassembled as objdump does (the
#     object's attribute names xtl), and info tl from its data directory.
if [ -f "$W/words.o" ]; then
    "$P/bin/riscv64-linux-gnu-gdb" -nx -batch -ex "x/3i 0" "$W/words.o" >"$W/words.gdb" 2>&1
    ok=0
    for want in 'tl\.mload[[:space:]]+tl1,0\(a0\)' 'tl\.xpose\.01[[:space:]]+tl1,tl2,a0' 'tl\.addi[[:space:]]+tl1,tl2,-5'; do
        grep -qE "$want" "$W/words.gdb" || ok=1
    done
    check $ok "riscv64-linux-gnu-gdb disassembles the same three words as tl.mload, tl.xpose.01, tl.addi"
    [ "$ok" -eq 0 ] || show "$W/words.gdb"
fi
"$P/bin/riscv64-linux-gnu-gdb" -nx -batch -ex "help info tl" >"$W/gdb-help.txt" 2>&1
grep -q '^TensorLoad (xtl) state' "$W/gdb-help.txt"
check $? "riscv64-linux-gnu-gdb loads info tl (gdb/xtl.py) from its installed data directory"
[ "$(head -c 4 "$P/share/tl-qemu/riscv64/gdbserver" | od -An -c | tr -d ' ')" = '177ELF' ]
check $? "the riscv64 gdbserver is installed for the guests"

# 4. A C++ program on the tile API, built with the installed tl-g++ (its
#    <tl/tile.hpp> from the installed headers), run under the installed
#    qemu-riscv64 with the installed tlstat plugin.  The quickstart computes
#    y = (x + 10) * 2 on a 5 x 20 window of x[r][c] = 32r + c; row 2 by
#    hand: x[2][4] = 68 -> 156, 69 -> 158, x[2][23] = 87 -> 194, outside 0.
if "$P/bin/tl-g++" -std=c++17 -O2 -static -march=rv64gc_xtl "$DOC/docs/examples/quickstart.cpp" \
        -o "$W/quickstart" 2>"$W/tlgxx.log"; then
    check 0 "tl-g++ -march=rv64gc_xtl builds the tile API quickstart from the installed headers"
    got=$("$P/bin/qemu-riscv64" -cpu max -plugin "$P/lib/libtlstat.so,format=json,outfile=$W/tlstat.json" \
          "$W/quickstart" 2>&1); rc=$?
    [ "$rc" -eq 0 ] && [ "$got" = $'row 2 of y: 0 156 158 ... 194 0\nok' ]
    check $? "the quickstart under qemu-riscv64 -cpu max prints row 2 = 0 156 158 ... 194 0 and ok (exit $rc)"
    # By hand: one masked load and one masked store of the 5 x 20 int8
    # window (100 bytes each), one tl.addi (+10) and one tl.muls (x2).
    mix=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s:%s:%d:%d" % (m["mnemonic"], m["type"], m["count"], m["bytes"]) for m in sorted(r["mix"], key=lambda m: m["mnemonic"])), r["tl_insns"], r["tl_bytes"])' \
          "$W/tlstat.json" 2>&1)
    [ "$mix" = "tl.addi:int8:1:0 tl.mload:int8:1:100 tl.mstore:int8:1:100 tl.muls:int8:1:0 4 200" ]
    check $? "the installed tlstat plugin counts tl.mload/tl.mstore 100 bytes each, tl.addi, tl.muls, 4 TL instructions, 200 bytes (got: $mix)"
    got=$("$P/bin/qemu-riscv64" -cpu rv64 "$W/quickstart" 2>&1 >/dev/null); rc=$?
    [ "$rc" -eq 1 ] && [ "$got" = "this CPU has no xtl: run with -cpu rv64,xtl=on" ]
    check $? "the quickstart under -cpu rv64 (no xtl) stops with exit 1 and the message naming the fix (exit $rc)"
else
    show "$W/tlgxx.log"
    check 1 "tl-g++ -march=rv64gc_xtl builds the tile API quickstart from the installed headers"
fi

# 5. tl-fw-run on the example firmware project (installed with the docs):
#    its three tests pass, and its deliberately failing image fails.
fw="$W/firmware-ci"
rm -rf "$fw"
if [ -n "$FWDIR" ]; then
    cp -r "$FWDIR" "$fw"
else
    cp -r "$DOC/examples/firmware-ci" "$fw"
    make -C "$fw" TL_QEMU="$P" all build/demo_failure.elf >"$W/fw-build.log" 2>&1 ||
        { show "$W/fw-build.log"; check 1 "the example firmware builds against the installed headers"; }
fi
rc=0
(cd "$fw" && "$P/bin/tl-fw-run" --suite suite.toml --out-dir "$W/fw-runs" --junit "$W/fw.xml") \
    >"$W/fw.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c '^ok ' "$W/fw.log")" -eq 3 ] && grep -q 'tests="3"' "$W/fw.xml"
check $? "tl-fw-run runs the example firmware suite on the installed qemu-system-riscv64: 3 ok, JUnit with 3 tests (exit $rc)"
[ "$rc" -eq 0 ] || show "$W/fw.log"
rc=0
"$P/bin/tl-fw-run" --timeout 20 --out-dir "$W/fw-fail-runs" "$fw/build/demo_failure.elf" >"$W/fw-fail.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q '^not ok ' "$W/fw-fail.log"
check $? "tl-fw-run reports the deliberately failing firmware as not ok, exit 1 (exit $rc)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
