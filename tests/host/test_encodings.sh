#!/usr/bin/env bash
# The one opcode table (scripts/xtl-encodings.py) and what is generated from
# it: include/tl/xtl-opc.h, its Linux copy, the binutils opcode patch and
# include/tl/tl_asm.S.  Prints one "ok - ..." / "not ok - ..." line per check
# and ends with "N passed, M failed".
#
#  1. in this tree: --check finds every generated file fresh; --verify agrees
#     with tlref.py and xtl.decode; the header's MATCH_/MASK_ values and CSRs
#     equal what tlref.py computes (C11 static asserts, both copies); QEMU's
#     disassembler and a walk over the header's rows decide legality, the
#     mnemonic and the reserved rule R1..R10 as tlref.decode does;
#  2. in a scratch copy, a one-bit change of the table (tl.muls funct3 100 ->
#     110): --check names each stale generated file, also each one alone
#     after a --write of the others; once regenerated, --verify and the same
#     consumer checks as in 1 fail.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
repo=$TL_REPO
PY=/usr/bin/python3                      # Debian's python: tlref needs numpy
HOST_CC=${HOST_CC:-cc}
need_tool "$HOST_CC" gcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/tap.sh"

generated=(include/tl/xtl-opc.h linux-riscv-tl/arch/riscv/include/asm/xtl-opc.h
           patches/binutils-2.43/0002-riscv-xtl-opcode-table.patch include/tl/tl_asm.S)
helper="$repo/tests/host/xtl_opc_check.py"
"$PY" "$helper" asserts "$tmp/asserts.c" && "$PY" "$helper" words "$tmp/words.txt" ||
    die "tests/host/xtl_opc_check.py could not compute the expectations from tlref.py"

# consumers <tree> <label> <expect 0|1>: the consumer checks on the header and
# the disassembler of <tree>; with 1, each must fail (the change is caught).
consumers() {
    local tree=$1 label=$2 want=$3 hdr rc out
    for hdr in include/tl linux-riscv-tl/arch/riscv/include/asm; do
        out=$("$HOST_CC" -std=c11 -fsyntax-only -I"$tree/$hdr" "$tmp/asserts.c" 2>&1); rc=$?
        if [ "$want" = 0 ]; then
            check "$rc" "$label: $hdr/xtl-opc.h: MATCH_/MASK_ of every form, CSR numbers, writable masks and reset values are tlref's (C11 static asserts)"
        else
            [ "$rc" -ne 0 ]
            check $? "$label: $hdr/xtl-opc.h no longer compiles against tlref's values: $(printf '%s\n' "$out" | grep -m1 -o 'MATCH_[A-Z0-9_]* is tlref.s word\|MASK_[A-Z0-9_]* is the bits[^"]*')"
        fi
        [ "$rc" -ne "$want" ] && [ "$want" = 0 ] && printf '%s\n' "$out" | sed 's/^/#   /' | head -n 5
    done
    if "$HOST_CC" -O1 -Wall -Werror -I"$tree/target-riscv-tl" -I"$tree/include" "$repo/tests/asm/xtl_disas_words.c" \
            "$tree/target-riscv-tl/xtl_disas.c" -o "$tmp/disas" 2>"$tmp/cc.txt" &&
        "$HOST_CC" -O1 -Wall -Werror -I"$tree/include/tl" "$repo/tests/host/xtl_opc_rules.c" \
            -o "$tmp/rules" 2>>"$tmp/cc.txt"; then
        "$tmp/disas" <"$tmp/words.txt" >"$tmp/disas.txt"
        "$tmp/rules" <"$tmp/words.txt" >"$tmp/rules.txt"
        for kind in disas rules; do
            out=$("$PY" "$helper" "$kind" "$tmp/words.txt" "$tmp/$kind.txt"); rc=$?
            if [ "$want" = 0 ]; then
                check "$rc" "$label: ${out#* - }"
            else
                [ "$rc" -ne 0 ]
                check $? "$label: the consumer check fails, as it must: ${out#* - }"
            fi
        done
    else
        check 1 "$label: xtl_disas.c or xtl_opc_rules.c does not build with $HOST_CC"
        show "$tmp/cc.txt"
    fi
}

# ---- 1. this tree ----
"$PY" "$repo/scripts/xtl-encodings.py" --check 2>"$tmp/check.txt"
check $? "scripts/xtl-encodings.py --check: ${#generated[@]} generated files are what the table gives (${generated[*]})"
[ -s "$tmp/check.txt" ] && show "$tmp/check.txt"
relay_cmd --prefix "--verify: " -- "$PY" "$repo/scripts/xtl-encodings.py" --verify
cmp -s "$repo/${generated[0]}" "$repo/${generated[1]}"
check $? "the Linux copy of xtl-opc.h is identical to include/tl/xtl-opc.h"
consumers "$repo" "this tree" 0

# ---- 2. a one-bit change of the table in a scratch copy ----
s="$tmp/repo"
mkdir -p "$s/patches" "$s/tests" "$s/linux-riscv-tl/arch/riscv/include"
cp -a "$repo/scripts" "$repo/include" "$repo/target-riscv-tl" "$s/"
cp -a "$repo/patches/binutils-2.43" "$s/patches/"
cp -a "$repo/tests/reference" "$s/tests/"
cp -a "$repo/linux-riscv-tl/arch/riscv/include/asm" "$s/linux-riscv-tl/arch/riscv/include/"
sed -i 's/^    ("muls", 0b100, /    ("muls", 0b110, /' "$s/scripts/xtl-encodings.py"
[ "$(diff "$repo/scripts/xtl-encodings.py" "$s/scripts/xtl-encodings.py" | grep -c '^>')" = 1 ]
check $? "scratch copy: the table's tl.muls funct3 changed from 100 to 110 (one line, one bit)"

"$PY" "$s/scripts/xtl-encodings.py" --check 2>"$tmp/check.txt"
rc=$?
[ "$rc" -eq 1 ]
check $? "one-bit change: --check exits 1 (got $rc)"
sed 's/^/#   /' "$tmp/check.txt"
for f in "${generated[@]}"; do
    grep -q "^error: $f is stale" "$tmp/check.txt"
    check $? "one-bit change: --check names $f"
done

"$PY" "$s/scripts/xtl-encodings.py" --write
for f in "${generated[@]}"; do
    cp "$s/$f" "$tmp/new"
    cp "$repo/$f" "$s/$f"               # this one file as generated from the unchanged table
    "$PY" "$s/scripts/xtl-encodings.py" --check 2>"$tmp/check.txt"
    rc=$?
    [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/check.txt")" -eq 1 ] &&
        grep -q "^error: $f is stale" "$tmp/check.txt"
    check $? "one-bit change, all else regenerated: --check exits 1 ($rc) with one line: $(cat "$tmp/check.txt")"
    cp "$tmp/new" "$s/$f"
done
"$PY" "$s/scripts/xtl-encodings.py" --check
check $? "one-bit change, everything regenerated: --check is satisfied (staleness is all it checks)"

"$PY" "$s/scripts/xtl-encodings.py" --verify >"$tmp/verify.txt" 2>&1
rc=$?
[ "$rc" -ne 0 ] && grep -q '^not ok' "$tmp/verify.txt"
check $? "one-bit change: --verify fails ($(grep -c '^not ok' "$tmp/verify.txt") checks), e.g. $(grep -m1 '^not ok' "$tmp/verify.txt" | cut -c1-160)"
consumers "$s" "one-bit change" 1

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
