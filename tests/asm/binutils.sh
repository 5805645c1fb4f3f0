#!/usr/bin/env bash
# Tests TL-QEMU's xtl-aware GNU binutils ($BUILD_DIR/binutils, built by
# scripts/build-binutils.sh from patches/binutils-2.43/).  Prints one
# "ok - ..." / "not ok - ..." line per check, ends with "N passed, M failed,
# K skipped".
#
#  1. the generated opcode patch is fresh, and the opcode table of
#     scripts/xtl-encodings.py agrees with tlref.py and xtl.decode;
#  2. -march=rv64gc_xtl, rv64gc_xtl1p0 and `.option arch, +xtl` enable xtl;
#     the ELF attribute names xtl1p0;
#  3. every instruction line of tests/asm/test_asm.S assembled by the patched
#     gas (no macros) gives the words of tlref.py and of tl_insn.h TL_ENC_*;
#     every TL CSR by name gives the tlref.encode_csr words;
#  4. objdump prints each of those words as docs/isa.md's text (tlref.decode),
#     and gas assembles objdump's text back to the same words (round trip);
#  5. on the differential test set (tests/diff words) objdump and QEMU's
#     disassembler (target-riscv-tl/xtl_disas.c) print the same text, and both
#     reject the reserved words; objdump -M xtl decodes a raw binary;
#  6. every tests/asm/gas-bad/*.S fails with its "# expect:" message on its
#     last line (file:line: Error:), and assembles without that line;
#  7. tests/asm/gas_prog.c (TL inline assembly) built with scripts/tl-gcc
#     -march=rv64gc_xtl runs under qemu-riscv64 -cpu rv64,xtl=on; QEMU's
#     -d in_asm and objdump show the same TL instructions; built with -flto
#     (GCC's LTO plugin in the patched ld) it prints the same;
#  8. tests/api/test_kernels.cpp (kernels/, tl_insn.h .insn words) built with
#     scripts/tl-g++: objdump names every TL word, the program passes;
#  9. tests/firmware/test_basic linked by the patched ld passes on -M virt
#     (skipped, and counted as skipped, without riscv64-unknown-elf-gcc);
# 10. binutils' own DejaGnu suites pass on the patched tree (no unexpected
#     failure, success or unresolved test): make check-gas (with the xtl
#     tests of patches/binutils-2.43/0003-*), check-binutils, and check-ld's
#     RISC-V part (ld-riscv-elf.exp: the arch attribute merging of bfd).
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

PY=/usr/bin/python3
HOST_CC=${HOST_CC:-cc}
bin="$BUILD_DIR/binutils/bin"
AS="$bin/riscv64-linux-gnu-as"
OBJDUMP="$bin/riscv64-linux-gnu-objdump"
OBJCOPY="$bin/riscv64-linux-gnu-objcopy"
READELF="$bin/riscv64-linux-gnu-readelf"
qemu="$BUILD_DIR/qemu/qemu-riscv64"
src="$TL_REPO/tests/asm"
inc="$TL_REPO/include"
out="$BUILD_DIR/tests/asm-binutils"
rm -rf "$out" && mkdir -p "$out"

. "$TL_REPO/tests/tap.sh"
tap_can_skip

if [ ! -x "$AS" ] || [ ! -x "$OBJDUMP" ]; then
    check 1 "$AS is missing (build it with scripts/build-binutils.sh)"
    tap_end
    exit 1
fi
echo "# $("$AS" --version | head -n 1)"

# ---- 1. one opcode table ----
"$PY" "$TL_REPO/scripts/xtl-encodings.py" --check 2>"$out/gen.txt"
check $? "patches/binutils-2.43/0002-riscv-xtl-opcode-table.patch and the other files scripts/xtl-encodings.py generates are fresh"
[ -s "$out/gen.txt" ] && show "$out/gen.txt"
relay_cmd -- "$PY" "$TL_REPO/scripts/xtl-encodings.py" --verify

# ---- 2. enabling xtl ----
printf '\t.text\n\ttl.addi tl1, tl2, -5\n' >"$out/one.S"
for march in rv64gc_xtl rv64gc_xtl1p0 rv32gc_xtl; do
    "$AS" -march="$march" "$out/one.S" -o "$out/one.o" 2>"$out/one.txt" &&
        "$READELF" -A "$out/one.o" | grep -q 'Tag_RISCV_arch: "rv[36][24]i.*_xtl1p0"'
    check $? "-march=$march assembles tl.addi; Tag_RISCV_arch names xtl1p0"
done
printf '\t.text\n\t.option arch, +xtl\n\ttl.addi tl1, tl2, -5\n' >"$out/opt.S"
"$AS" -march=rv64gc "$out/opt.S" -o "$out/opt.o" 2>"$out/opt.txt" &&
    "$OBJDUMP" -d "$out/opt.o" | grep -qP '\ttl\.addi\ttl1,tl2,-5$'
check $? "-march=rv64gc with '.option arch, +xtl' assembles tl.addi, objdump shows it (mapping symbol)"
printf '\t.text\n\t.option push\n\t.option arch, +xtl\n\ttl.addi tl1, tl2, -5\n\t.option pop\n\taddi a0, a0, 1\n' >"$out/push.S"
"$AS" -march=rv64gc "$out/push.S" -o "$out/push.o" 2>"$out/push.txt" &&
    "$OBJDUMP" -d "$out/push.o" | grep -qP '\ttl\.addi\ttl1,tl2,-5$' &&
    "$READELF" -A "$out/push.o" >"$out/push.attr" && ! grep -q xtl "$out/push.attr"
check $? "'.option push / arch, +xtl / pop' enables xtl for one region: objdump decodes it (mapping symbol), the file attribute does not name xtl"

# ---- 3. encodings: instructions and CSRs ----
grep -v '^\.include "tl/tl_asm.S"' "$src/test_asm.S" >"$out/gas_test.S"
"$AS" -march=rv64gc_xtl "$out/gas_test.S" -o "$out/gas_test.o" 2>"$out/gas_test.txt"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$out/gas_test.txt" ]
check $? "patched gas assembles the instruction lines of tests/asm/test_asm.S without macros (exit $rc)"
[ -s "$out/gas_test.txt" ] && show "$out/gas_test.txt"
"$OBJCOPY" -O binary -j .text "$out/gas_test.o" "$out/gas_test.bin" 2>/dev/null || : >"$out/gas_test.bin"
"$PY" "$src/check_words.py" cprog "$src/test_asm.S" "$out/tl_enc_words.c" &&
    "$HOST_CC" -O1 -Wall -Werror -I "$inc" "$out/tl_enc_words.c" -o "$out/tl_enc_words" &&
    "$out/tl_enc_words" >"$out/expected_tl_insn_h.txt"
check $? "include/tl/tl_insn.h TL_ENC_* words of test_asm.S computed ($HOST_CC)"
"$PY" "$src/check_words.py" compare "$src/test_asm.S" "$out/gas_test.bin" \
    "$out/expected_tl_insn_h.txt" >"$out/compare.txt" 2>&1
rc=$?
n_ok=$(grep -c '^ok - line' "$out/compare.txt")
n_bad=$(grep -c '^not ok' "$out/compare.txt")
[ "$rc" -eq 0 ] && [ "$n_bad" -eq 0 ] && [ "$n_ok" -gt 400 ]
check $? "gas words = tlref.py words = tl_insn.h words for all $n_ok instruction lines of test_asm.S (check_words.py exit $rc)"
[ "$rc" -eq 0 ] || tail -n 5 "$out/compare.txt" | sed 's/^/#   /'
[ "$n_bad" -eq 0 ] || grep '^not ok' "$out/compare.txt" | head -n 10 | sed 's/^/#   /'

"$PY" "$src/gas_xtl.py" csr-src "$out/csr.S" "$out/csr_words.txt" &&
    "$AS" -march=rv64gc_xtl "$out/csr.S" -o "$out/csr.o" 2>"$out/csr.txt" &&
    "$OBJCOPY" -O binary -j .text "$out/csr.o" "$out/csr.bin"
check $? "patched gas assembles csrr/csrw/csrs/csrc/csrrw/csrwi/csrrci on every TL CSR by name"
[ -s "$out/csr.txt" ] && show "$out/csr.txt"
od -An -v -tx4 -w4 "$out/csr.bin" 2>/dev/null | tr -d ' ' >"$out/csr_got.txt"
for name in ttype tshape tmask_ls tmask_concat_1 tmask_concat_2 tmask_load_stride \
            tmask_load_width tvalid tinit; do
    want=$(awk -v n="$name" '$2 == n {print $1}' "$out/csr_words.txt" | tr '\n' ' ')
    got=$(paste -d' ' "$out/csr_got.txt" <(cut -d' ' -f2 "$out/csr_words.txt") |
          awk -v n="$name" '$2 == n {print $1}' | tr '\n' ' ')
    [ -n "$want" ] && [ "$want" = "$got" ]
    check $? "CSR $name: 7 csr* words = tlref.encode_csr (${got:-none})"
done
"$OBJDUMP" -d "$out/csr.o" >"$out/csr.dis"
n=$(grep -cP '\tcsr\w+\t.*\b(ttype|tshape|tmask_ls|tmask_concat_[12]|tmask_load_stride|tmask_load_width|tvalid|tinit)\b' "$out/csr.dis")
[ "$n" -eq 63 ]
check $? "objdump names the TL CSR in all $n of 63 csr* instructions (xtl in the ELF attribute)"
printf '\t.text\n\tcsrr a0, 0x800\n' >"$out/csr_plain.S"
"$AS" -march=rv64gc "$out/csr_plain.S" -o "$out/csr_plain.o" &&
    "$OBJDUMP" -d "$out/csr_plain.o" | grep -qP '\tcsrr\ta0,0x800$'
check $? "without xtl, csrr a0, 0x800 assembles and objdump prints the number, not ttype"

# ---- 4. round trip ----
"$OBJDUMP" -d "$out/gas_test.o" >"$out/gas_test.dis"
relay_cmd -- "$PY" "$src/gas_xtl.py" objdump-vs-text "$out/gas_test.dis" "$out/gas_test.bin"
"$PY" "$src/gas_xtl.py" relisting "$out/gas_test.dis" "$out/relist.S" &&
    "$AS" -march=rv64gc_xtl "$out/relist.S" -o "$out/relist.o" 2>"$out/relist.txt" &&
    "$OBJCOPY" -O binary -j .text "$out/relist.o" "$out/relist.bin" &&
    [ -s "$out/gas_test.bin" ] && cmp -s "$out/gas_test.bin" "$out/relist.bin"
check $? "round trip: gas re-assembles objdump's text of the $(( $(stat -c %s "$out/gas_test.bin") / 4 )) words to the same words"
[ -s "$out/relist.txt" ] && show "$out/relist.txt"

# ---- 5. objdump and QEMU's disassembler on the differential test set ----
"$PY" "$src/gas_xtl.py" words "$out/words.bin" "$out/words.txt" &&
    "$HOST_CC" -O1 -Wall -Werror -I "$TL_REPO/target-riscv-tl" -I "$TL_REPO/include" "$src/xtl_disas_words.c" \
    "$TL_REPO/target-riscv-tl/xtl_disas.c" -o "$out/xtl_disas_words" 2>"$out/qd_cc.txt" &&
    "$out/xtl_disas_words" <"$out/words.txt" >"$out/words_qemu.txt" && [ -s "$out/words_qemu.txt" ]
check $? "QEMU's disassembler (target-riscv-tl/xtl_disas.c) on $(wc -l <"$out/words.txt") words: the differential set (tests/diff) and all of bits [31:20] x funct3"
# a raw binary has no ELF attribute: -M xtl selects the extension
"$OBJDUMP" -D -b binary -m riscv:rv64 -M xtl "$out/words.bin" >"$out/words.dis" 2>"$out/words_err.txt"
check $? "objdump -D -b binary -m riscv:rv64 -M xtl disassembles the raw words"
relay_cmd -- "$PY" "$src/gas_xtl.py" objdump-vs-text "$out/words.dis" "$out/words.bin" "$out/words_qemu.txt"
"$OBJDUMP" -D -b binary -m riscv:rv64 "$out/words.bin" >"$out/words_noxtl.dis" 2>&1 &&
    ! grep -qP '\ttl\.' "$out/words_noxtl.dis"
check $? "without -M xtl (and no ELF attribute) objdump shows no tl.* mnemonic"

# ---- 6. errors ----
for f in "$src"/gas-bad/*.S; do
    name=$(basename "$f")
    expect=$(sed -n '1s/^# expect: //p' "$f")
    march=$(sed -n '2s/^# march: //p' "$f")
    lines=$(wc -l <"$f")
    "$AS" -march="$march" "$f" -o "$out/bad.o" >"$out/bad.txt" 2>&1
    rc=$?
    sed '$d' "$f" >"$out/bad_control.S"
    "$AS" -march="$march" "$out/bad_control.S" -o "$out/bad_control.o" 2>/dev/null
    crc=$?
    [ "$rc" -ne 0 ] && [ -n "$expect" ] && [ "$crc" -eq 0 ] &&
        grep -qF -- "$name:$lines: Error: $expect" "$out/bad.txt" &&
        [ "$(grep -c 'Error:' "$out/bad.txt")" -eq 1 ]
    check $? "gas-bad/$name (-march=$march) '$(tail -n 1 "$f" | sed 's/^ *//')': one error at line $lines: $expect"
    grep -qF -- "$expect" "$out/bad.txt" || show "$out/bad.txt"
done

# ---- 7. a C program with TL inline assembly ----
"$TL_REPO/scripts/tl-gcc" -march=rv64gc_xtl -O2 -Wall -Werror -static "$src/gas_prog.c" \
    -o "$out/gas_prog" 2>"$out/gas_prog_build.txt"
rc=$?
check "$rc" "scripts/tl-gcc -march=rv64gc_xtl builds tests/asm/gas_prog.c (tl.* inline assembly, CSR names) (exit $rc)"
[ "$rc" -eq 0 ] || show "$out/gas_prog_build.txt"
"$OBJDUMP" -d "$out/gas_prog" >"$out/gas_prog.dis" 2>&1
n=$(grep -cP '\ttl\.' "$out/gas_prog.dis")
[ "$n" -ge 13 ] && "$READELF" -A "$out/gas_prog" | grep -q '_xtl1p0'
check $? "objdump -d of the linked program shows $n tl.* instructions; its Tag_RISCV_arch names xtl1p0"
if [ -x "$qemu" ]; then
    timeout 60 "$qemu" -cpu rv64,xtl=on -d in_asm -D "$out/gas_prog_in_asm.log" "$out/gas_prog" \
        >"$out/gas_prog.txt" 2>&1
    rc=$?
    relay "gas_prog: " <"$out/gas_prog.txt"     # its exit status is checked below
    read -r p f < <(counts_of "$out/gas_prog.txt")
    [ "$rc" -eq 0 ] && [ "${p:-0}" -ge 6 ] && [ "${f:-1}" -eq 0 ]
    check $? "gas_prog under -cpu rv64,xtl=on exits 0 after ${p:-0} passed, ${f:-?} failed (exit $rc)"
    # every TL instruction QEMU translated, by address, against objdump's line
    "$PY" - "$out/gas_prog_in_asm.log" "$out/gas_prog.dis" >"$out/in_asm_cmp.txt" <<'EOF'
import re, sys
def norm(t):
    p = t.strip().split(None, 1)
    return p[0] + (" " + re.sub(r"\s*,\s*", ",", p[1].strip()) if len(p) > 1 else "")
q = {}
for line in open(sys.argv[1]):
    m = re.match(r"^0x([0-9a-f]+):\s+([0-9a-f]{8})\s+(tl\..*)$", line.rstrip())
    if m:
        q[int(m.group(1), 16)] = norm(m.group(3))
d = {}
for line in open(sys.argv[2]):
    m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(tl\..*)$", line.rstrip())
    if m:
        d[int(m.group(1), 16)] = norm(m.group(3))
bad = [(hex(a), q[a], d.get(a)) for a in sorted(q) if d.get(a) != q[a]]
print(len(q), len(bad), bad[:3])
EOF
    read -r nq nbad _ <"$out/in_asm_cmp.txt"
    [ "${nq:-0}" -ge 10 ] && [ "${nbad:-1}" -eq 0 ]
    check $? "QEMU -d in_asm and objdump -d print the same text for the ${nq:-0} TL instructions QEMU ran ($(cat "$out/in_asm_cmp.txt"))"
else
    check 1 "$qemu is missing (build it with 'make qemu'; this script never builds QEMU)"
fi

# ---- 7b. link-time optimization: GCC's LTO plugin loaded by the patched ld ----
"$TL_REPO/scripts/tl-gcc" -march=rv64gc_xtl -O2 -flto -Wall -Werror -static "$src/gas_prog.c" \
    -o "$out/gas_prog_lto" 2>"$out/gas_prog_lto_build.txt"
rc=$?
check "$rc" "scripts/tl-gcc -march=rv64gc_xtl -flto builds tests/asm/gas_prog.c (GCC's LTO plugin in the patched ld) (exit $rc)"
[ "$rc" -eq 0 ] || show "$out/gas_prog_lto_build.txt"
if [ -x "$qemu" ] && [ "$rc" -eq 0 ]; then
    timeout 60 "$qemu" -cpu rv64,xtl=on "$out/gas_prog_lto" >"$out/gas_prog_lto.txt" 2>&1
    rc=$?
    read -r p f < <(counts_of "$out/gas_prog_lto.txt")
    [ "$rc" -eq 0 ] && [ "${p:-0}" -ge 6 ] && [ "${f:-1}" -eq 0 ] &&
        cmp -s "$out/gas_prog.txt" "$out/gas_prog_lto.txt"
    check $? "the -flto build under -cpu rv64,xtl=on prints what the plain build printed (${p:-0} passed, ${f:-?} failed, exit $rc)"
fi

# ---- 8. in real use: the ML kernels of kernels/ (tl_insn.h .insn words) ----
"$TL_REPO/scripts/tl-g++" -march=rv64gc_xtl -std=c++17 -O2 -static -Wall -Wextra -Werror \
    -I"$inc" -I"$TL_REPO/kernels" -I"$TL_REPO/tests/api" "$TL_REPO/tests/api/test_kernels.cpp" \
    -o "$out/test_kernels" >"$out/test_kernels_build.txt" 2>&1
rc=$?
check "$rc" "scripts/tl-g++ -march=rv64gc_xtl builds tests/api/test_kernels.cpp (the kernels/ ML kernels) (exit $rc)"
[ "$rc" -eq 0 ] || show "$out/test_kernels_build.txt"
"$OBJDUMP" -d "$out/test_kernels" >"$out/test_kernels.dis" 2>&1
n_tl=$(grep -cP '\ttl\.' "$out/test_kernels.dis")
# a CUSTOM-2 word (low byte 0x5b/0xdb) that objdump does not name would print as .insn or unknown
n_raw=$(grep -P '^\s*[0-9a-f]+:\s+[0-9a-f]{6}(5b|db)\s' "$out/test_kernels.dis" | grep -vcP '\ttl\.')
[ "$n_tl" -ge 50 ] && [ "$n_raw" -eq 0 ]
check $? "objdump -d names all $n_tl TL instructions of the kernels binary ($n_raw CUSTOM-2 words left unnamed)"
if [ -x "$qemu" ] && [ "$rc" -eq 0 ]; then
    timeout 300 "$qemu" -cpu rv64,xtl=on "$out/test_kernels" >"$out/test_kernels.txt" 2>&1
    rc=$?
    read -r p f < <(counts_of "$out/test_kernels.txt")
    [ "$rc" -eq 0 ] && [ "${p:-0}" -gt 0 ] && [ "${f:-1}" -eq 0 ]
    check $? "that binary passes its own kernel checks under qemu-riscv64 -cpu rv64,xtl=on (${p:-0} passed, ${f:-?} failed)"
fi

# ---- 9. bare metal: the firmware suite's test_basic linked by the patched ld ----
# riscv64-unknown-elf-gcc picks its multilib from -march, which an unknown
# extension would spoil: the compiler gets rv64imac, the assembler rv64imac_xtl.
qsys="$BUILD_DIR/qemu/qemu-system-riscv64"
fw="$TL_REPO/tests/firmware"
if ! command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 ||
   [ ! -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ]; then
    skip_case "bare-metal firmware with the patched binutils" "riscv64-unknown-elf-gcc or picolibc missing (make deps)"
else
    riscv64-unknown-elf-gcc -B"$BUILD_DIR/binutils/riscv64-linux-gnu/bin/" --specs=picolibc.specs \
        -march=rv64imac -mno-riscv-attribute -Wa,-march=rv64imac_xtl -misa-spec=2.2 -mabi=lp64 \
        -mcmodel=medany -O2 -Wall -Wextra -Werror -Wno-unused-parameter -ffreestanding \
        -nostartfiles -T "$fw/link.ld" -I"$inc" -I"$TL_REPO" -I"$fw" "$fw/crt0.S" "$fw/rt.c" "$fw/test_basic.c" \
        -o "$out/test_basic.elf" >"$out/test_basic_build.txt" 2>&1
    rc=$?
    check "$rc" "riscv64-unknown-elf-gcc -B<patched binutils> -Wa,-march=rv64imac_xtl builds tests/firmware/test_basic (exit $rc)"
    [ "$rc" -eq 0 ] || show "$out/test_basic_build.txt"
    # its link script discards .riscv.attributes: -M xtl names the TL words
    n=$("$OBJDUMP" -d -M xtl "$out/test_basic.elf" | grep -cP '\ttl\.')
    n0=$("$OBJDUMP" -d "$out/test_basic.elf" | grep -cP '\ttl\.')
    [ "$n" -gt 0 ] && [ "$n0" -eq 0 ]
    check $? "objdump -d -M xtl names $n TL instructions of the firmware (without -M xtl and without an attribute: $n0)"
    if [ -x "$qsys" ] && [ "$rc" -eq 0 ]; then
        (timeout 120 "$qsys" -M virt -m 128M -cpu rv64,xtl=on -nographic -bios none -monitor none \
            -kernel "$out/test_basic.elf" </dev/null; exit $?) >"$out/test_basic.log" 2>&1
        rc=$?
        nok=$(tr -d '\r' <"$out/test_basic.log" | grep -c '^ok - ')
        nbad=$(tr -d '\r' <"$out/test_basic.log" | grep -c '^not ok - ')
        [ "$rc" -eq 0 ] && [ "$nok" -gt 100 ] && [ "$nbad" -eq 0 ]
        check $? "that firmware passes under qemu-system-riscv64 -M virt -bios none ($nok ok, $nbad not ok, exit $rc through the test finisher)"
    elif [ ! -x "$qsys" ]; then
        check 1 "$qsys is missing (build it with 'make qemu')"
    fi
fi

# ---- 10. binutils' own test suites on the patched tree ----
# GNU's DejaGnu suites for this target (gas, objdump/readelf and the other
# binutils, ld) run in the build tree of scripts/build-binutils.sh: the xtl
# patches must leave every upstream expectation as it is, the RISC-V ones
# (the .insn forms of CUSTOM-2 words, vendor extensions, CSR names) most.
obj="$BUILD_DIR/binutils-obj"
if ! command -v runtest >/dev/null 2>&1; then
    check 1 "DejaGnu's runtest is missing for binutils' own test suites (run 'make deps')"
elif [ ! -f "$obj/Makefile" ]; then
    check 1 "$obj is missing (build it with scripts/build-binutils.sh)"
else
    sum_count() { sed -n "s/^# of $2[[:space:]]*\([0-9]*\)$/\1/p" "$1" 2>/dev/null | tail -n 1; }
    suite_sum() { case $1 in gas) echo "$obj/gas/testsuite/gas.sum" ;; *) echo "$obj/$1/$1.sum" ;; esac; }
    suite_flags() { [ "$1" != ld ] || echo ld-riscv-elf.exp; }
    # The three suites at once: each runs in its own directory of the
    # tree scripts/build-binutils.sh built, one process each, and
    # writes its exit status and seconds to check-SUITE.status when done.
    for suite in gas binutils ld; do
        rm -f "$(suite_sum "$suite")" "$out/$suite.sum" "$out/check-$suite.status"
        (
            start=$(date +%s)
            make -C "$obj" MAKEINFO=true "check-$suite" RUNTESTFLAGS="$(suite_flags "$suite")" \
                >"$out/check-$suite.log" 2>&1
            rc=$?
            echo "$rc $(( $(date +%s) - start ))" >"$out/check-$suite.status"
        ) &
    done
    wait
    for suite in gas binutils ld; do
        flags=$(suite_flags "$suite")
        rc=1 secs=0
        [ -s "$out/check-$suite.status" ] && read -r rc secs <"$out/check-$suite.status"
        cp "$(suite_sum "$suite")" "$out/$suite.sum" 2>/dev/null
        n_pass=$(sum_count "$out/$suite.sum" 'expected passes')
        n_fail=$(sum_count "$out/$suite.sum" 'unexpected failures')
        n_xpass=$(sum_count "$out/$suite.sum" 'unexpected successes')
        n_unres=$(sum_count "$out/$suite.sum" 'unresolved testcases')
        [ "$rc" -eq 0 ] && [ "${n_pass:-0}" -gt 50 ] && [ "${n_fail:-0}" -eq 0 ] &&
            [ "${n_xpass:-0}" -eq 0 ] && [ "${n_unres:-0}" -eq 0 ]
        check $? "binutils' own '$suite' test suite (DejaGnu, make check-$suite${flags:+ RUNTESTFLAGS=$flags}) on the patched tree: ${n_pass:-0} expected passes, ${n_fail:-0} unexpected failures, ${n_xpass:-0} unexpected successes, ${n_unres:-0} unresolved (exit $rc, ${secs} s; $out/$suite.sum)"
        if [ -f "$out/$suite.sum" ]; then
            grep -E '^(FAIL|XPASS|UNRESOLVED):' "$out/$suite.sum" | head -n 10 | sed 's/^/#   /'
        else
            tail -n 10 "$out/check-$suite.log" | sed 's/^/#   /'
        fi
    done
fi

tap_end
