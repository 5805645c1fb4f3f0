#!/usr/bin/env bash
# Tests the GNU as macros of include/tl/tl_asm.S (tl.* mnemonics for riscv64
# assembly).  Prints one "ok - ..." / "not ok - ..." line per check and ends
# with "N passed, M failed"; exits non-zero if any check failed.
#
#  1. include/tl/tl_asm.S is what scripts/gen-tl-asm.py generates;
#  2. tests/asm/test_asm.S assembles (as, and gcc -c through cpp, identically),
#     leaks no helper symbols, and every one of its instruction words equals
#     both the tests/reference/tlref.py encoders and the include/tl/tl_insn.h
#     TL_ENC_* macros (tests/asm/check_words.py);
#  3. every tests/asm/bad/*.S fails to assemble with the message named on its
#     "# expect:" line (and assembles once that last, bad line is removed);
#  4. prog_main.c + prog_kernel.S, linked statically, pass their own checks under
#     qemu-riscv64 -cpu rv64,xtl=on, die of SIGILL with xtl=off, and QEMU's
#     -d in_asm shows the tl.* mnemonics.
# Nothing here builds QEMU: it uses the existing $BUILD_DIR/qemu/qemu-riscv64.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-as binutils-riscv64-linux-gnu
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

PY=/usr/bin/python3                      # Debian's python: tlref needs numpy
HOST_CC=${HOST_CC:-cc}
qemu="$BUILD_DIR/qemu/qemu-riscv64"
src="$TL_REPO/tests/asm"
inc="$TL_REPO/include"
out="$BUILD_DIR/tests/asm"
mkdir -p "$out"
rm -f "$out"/*.o "$out"/*.bin "$out"/*.txt "$out"/*.log "$out"/tl_enc_words "$out"/prog

. "$TL_REPO/tests/tap.sh"

# ---- 1. generated file is fresh ----
"$PY" "$TL_REPO/scripts/gen-tl-asm.py" --check 2>"$out/gen.txt"
check $? "include/tl/tl_asm.S is up to date with scripts/gen-tl-asm.py"

# ---- 2. encodings ----
riscv64-linux-gnu-as -I "$inc" "$src/test_asm.S" -o "$out/test_asm.o" 2>"$out/as.txt"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$out/as.txt" ]
check $? "riscv64-linux-gnu-as assembles tests/asm/test_asm.S without messages (exit $rc)"
[ -s "$out/as.txt" ] && show "$out/as.txt"
riscv64-linux-gnu-objcopy -O binary -j .text "$out/test_asm.o" "$out/test_asm.bin" 2>/dev/null ||
    : >"$out/test_asm.bin"
riscv64-linux-gnu-objdump -d "$out/test_asm.o" >"$out/test_asm.dis.txt" 2>&1

riscv64-linux-gnu-gcc -c -I "$inc" -Wa,-I"$inc" "$src/test_asm.S" -o "$out/test_asm_gcc.o" \
    2>"$out/gcc.txt" &&
    riscv64-linux-gnu-objcopy -O binary -j .text "$out/test_asm_gcc.o" "$out/test_asm_gcc.bin" &&
    [ -s "$out/test_asm.bin" ] && cmp -s "$out/test_asm.bin" "$out/test_asm_gcc.bin"
check $? "riscv64-linux-gnu-gcc -c (through cpp) gives the same .text as as"

syms=$(riscv64-linux-gnu-nm "$out/test_asm.o" 2>&1 | grep -v ' T tl_asm_test$')
[ -f "$out/test_asm.o" ] && [ -z "$syms" ]
check $? "no helper symbol reaches the object file (nm shows only tl_asm_test)"
[ -n "$syms" ] && printf '#   %s\n' "$syms" | head -n 5

"$PY" "$src/check_words.py" pairs "$src/test_asm.S" >"$out/expected_tlref.txt" &&
    [ -s "$out/expected_tlref.txt" ]
check $? "tlref.py encodes every line of test_asm.S ($(wc -l <"$out/expected_tlref.txt") pairs in $out/expected_tlref.txt)"

"$PY" "$src/check_words.py" cprog "$src/test_asm.S" "$out/tl_enc_words.c" &&
    "$HOST_CC" -O1 -Wall -Werror -I "$inc" "$out/tl_enc_words.c" -o "$out/tl_enc_words" 2>"$out/cc.txt" &&
    "$out/tl_enc_words" >"$out/expected_tl_insn_h.txt"
check $? "include/tl/tl_insn.h TL_ENC_* program builds ($HOST_CC) and runs"
[ -s "$out/cc.txt" ] && show "$out/cc.txt"

# one line per instruction: assembled word == tlref word == TL_ENC_* word
relay_cmd -- "$PY" "$src/check_words.py" compare "$src/test_asm.S" "$out/test_asm.bin" \
    "$out/expected_tl_insn_h.txt"

# ---- 3. bad operands are assembler errors ----
for f in "$src"/bad/*.S; do
    name=$(basename "$f")
    expect=$(sed -n '1s/^# expect: //p' "$f")
    riscv64-linux-gnu-as -I "$inc" "$f" -o "$out/bad.o" >"$out/bad.txt" 2>&1
    rc=$?
    sed '$d' "$f" >"$out/bad_control.S"
    riscv64-linux-gnu-as -I "$inc" "$out/bad_control.S" -o "$out/bad_control.o" 2>/dev/null
    crc=$?
    [ "$rc" -ne 0 ] && [ -n "$expect" ] && grep -qF -- "$expect" "$out/bad.txt" &&
        grep -q 'Error:' "$out/bad.txt" && [ "$crc" -eq 0 ]
    check $? "bad/$name: '$(tail -n 1 "$f" | sed 's/^ *//')' is rejected: $expect"
    [ "$rc" -eq 0 ] || grep -qF -- "$expect" "$out/bad.txt" || show "$out/bad.txt"
done
rm -f "$out/bad.o" "$out/bad_control.o"

# ---- 4. a program using the macros, under QEMU ----
if [ -x "$qemu" ]; then
    riscv64-linux-gnu-gcc -O2 -Wall -Werror -static -I "$inc" -Wa,-I"$inc" \
        "$src/prog_main.c" "$src/prog_kernel.S" -o "$out/prog" 2>"$out/prog_build.txt"
    rc=$?
    check "$rc" "prog_main.c (macros in inline asm via .include) + prog_kernel.S (via #include) build and link (exit $rc)"
    [ "$rc" -eq 0 ] || show "$out/prog_build.txt"

    timeout 60 "$qemu" -cpu rv64,xtl=on -d in_asm -D "$out/in_asm.log" "$out/prog" >"$out/prog.txt" 2>&1
    rc=$?
    relay "prog: " <"$out/prog.txt"     # each of the program's own checks is a check here
    read -r p f < <(counts_of "$out/prog.txt")
    [ "$rc" -eq 0 ] && [ "${p:-0}" -gt 0 ] && [ "${f:-1}" -eq 0 ]
    check $? "prog under -cpu rv64,xtl=on exits 0 after ${p:-0} passed, ${f:-?} failed (exit $rc)"

    # the TL part of QEMU's own disassembly of the kernels
    awk '/^IN: tl_/ {keep = 1} /^IN: / && !/^IN: tl_/ {keep = 0} keep && NF' "$out/in_asm.log" \
        >"$out/in_asm_kernels.txt"
    missing=
    for want in 'tl.load                 tl1, 0(a0)' 'tl.addi                 tl2, tl1, -5' \
                'tl.store                tl2, 0(a1)' 'tl.load                 tl30, 0(s1), eng=3' \
                'tl.addi                 tl31, tl30, -5, eng=2' 'tl.store                tl31, 0(s1), eng=0' \
                'tl.muls                 tl4, tl3, a2' 'tl.mload                tl5, 1(a0)' \
                'tl.mstore               tl5, 0(a1)' 'tl.concat.2             tl3, tl1, tl2' \
                'tl.merge.0              tl4, tl1, tl2' 'tl.fillpad.max          tl7, tl6' \
                'tl.xpose.01             tl1, tl2, a2'; do
        grep -qF -- "$want" "$out/in_asm_kernels.txt" || missing="$missing [$want]"
    done
    [ -z "$missing" ]
    check $? "qemu -d in_asm disassembles the kernels as the tl.* source lines (see $out/in_asm_kernels.txt)${missing:+; missing:$missing}"

    # (a subshell that cannot exec, so that the shell's "Illegal instruction" notice is hidden)
    (timeout 60 "$qemu" -cpu rv64,xtl=off "$out/prog" >"$out/prog_off.txt" 2>&1; exit $?) 2>/dev/null
    rc=$?
    [ "$rc" -eq 132 ] && ! grep -q '^ok' "$out/prog_off.txt"
    check $? "prog under -cpu rv64,xtl=off dies of SIGILL at its first TL CSR access (exit $rc, want 132)"
else
    check 1 "$qemu is missing (build it with 'make qemu'; this script never builds QEMU)"
fi

tap_end
