#!/usr/bin/env bash
# Builds the riscv64 user-mode test programs with Debian's cross compiler and
# runs them under the freshly built qemu-riscv64.  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

qemu="$BUILD_DIR/qemu/qemu-riscv64"
need_qemu "$qemu"
out="$BUILD_DIR/tests/user"
mkdir -p "$out"
src="$TL_REPO/tests/user"
CFLAGS=(-O2 -Wall -Werror -static -I"$TL_REPO/include" -I"$src")

. "$TL_REPO/tests/tap.sh"

for c in "$src"/*.c; do
    prog="$out/$(basename "$c" .c)"
    if [ ! -x "$prog" ] || [ "$c" -nt "$prog" ] || [ "$src/tl_test.h" -nt "$prog" ] || [ "$src/tl_state.h" -nt "$prog" ] ||
       [ "$TL_REPO/tests/tl_ref.h" -nt "$prog" ] || [ "$TL_REPO/tests/tl_ool_block.h" -nt "$prog" ] || [ "$TL_REPO/include/tl/tl_insn.h" -nt "$prog" ] ||
       [ "$TL_REPO/include/tl/xtl-opc.h" -nt "$prog" ]; then
        riscv64-linux-gnu-gcc "${CFLAGS[@]}" "$c" -o "$prog" || die "cannot compile $c"
    fi
done

# A test program's own "N passed, M failed" line is added to the totals.
run_prog() {   # run_prog <cpu> <program> [args...]
    local cpu=$1; shift
    local log rc p f
    log=$(mktemp)
    echo "# $(basename "$1") $* (-cpu $cpu)"
    timeout "${RUN_TIMEOUT:-120}" "$qemu" -cpu "$cpu" "$out/$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    read -r p f < <(counts_of "$log")
    add_counts "${p:-0}" "${f:-0}"
    check $(( rc != 0 || ${p:-0} == 0 )) "$(basename "$1") under -cpu $cpu exits 0 and ran tests (exit $rc)"
    rm -f "$log"
}

run_prog rv64,xtl=on test_csr
run_prog rv64,xtl=on test_encodings on
run_prog rv64,xtl=off test_encodings off
run_prog rv64,xtl=on test_faults
run_prog rv64,xtl=on test_file_faults
run_prog rv64,xtl=on test_signals
run_prog rv64,xtl=on test_tinit
run_prog rv64,xtl=on test_fastpath
run_prog rv64,xtl=on test_out_of_line
# Its checks test the out-of-line paths only if QEMU translated the block's
# three words so: each in the trace of xtl_mem_out_of_line.
log="$out/test_out_of_line.trace"
timeout 120 "$qemu" -cpu rv64,xtl=on -trace xtl_mem_out_of_line "$out/test_out_of_line" >"$log" 2>&1
rc=$?
words=$(sed -n 's/^# block words: //p' "$log")
not_so=""
for w in $words; do
    grep -q "tl.load/tl.store at $w translated with its whole-register path inline" "$log" || not_so="$not_so $w"
done
check $(( rc != 0 || $(wc -w <<<"$words") != 3 || ${#not_so} != 0 )) \
    "test_out_of_line's three words translated with their other paths after the TB (exit $rc; words: ${words:-none}; not so:${not_so:- none})"
# pair_paths <program> <rules>: the program under QEMU's trace event of the
# fused helpers: each check's runs took the path it tests (one pass, one pass
# with the two stores, declined, or not tried; check_pair_trace.py's rules);
# then under a plugin, which sees every instruction, where the words never
# run as one.
tlstat="$BUILD_DIR/qemu/contrib/plugins/tlstat/libtlstat.so"
pair_paths() {
    local prog=$1 rules=$2 log="$out/$1.trace" rc
    timeout 120 "$qemu" -cpu rv64,xtl=on -trace xtl_load_pair_xpose "$out/$prog" >"$log" 2>&1
    rc=$?
    relay "$prog's paths: " < <(python3 "$TL_REPO/tests/check_pair_trace.py" "$rules" "$log")
    check $(( rc != 0 || relayed == 0 )) "$prog under -trace xtl_load_pair_xpose exits 0 and its paths were checked (exit $rc, $relayed checks)"
    if [ -f "$tlstat" ]; then
        timeout 120 "$qemu" -cpu rv64,xtl=on -plugin "$tlstat,outfile=$out/$prog.tlstat.txt" \
            -trace xtl_load_pair_xpose "$out/$prog" >"$log" 2>&1
        rc=$?
        relay "$prog under tlstat: " < <(python3 "$TL_REPO/tests/check_pair_trace.py" plugin "$log")
        check $(( rc != 0 || relayed == 0 || relay_failed != 0 )) "$prog under the tlstat plugin passes with no fused run (exit $rc)"
        [ "$rc" -eq 0 ] || show "$log"
    else
        skip_case "$prog under the tlstat plugin" "$tlstat was not built"
    fi
}
run_prog rv64,xtl=on test_pair_xpose
pair_paths test_pair_xpose user
run_prog rv64,xtl=on test_pair_store
pair_paths test_pair_store user-store
run_prog rv64,xtl=off test_tinit off
# The inline tl.load/tl.store copies are 256-bit moves on AVX2 hosts: their TBs
# must clear the upper halves of ymm before calls and before chaining
# (patches/qemu-10.0/0018), checked in the host code QEMU emitted.
if [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo; then
    need_tool objdump binutils
    log="$out/test_fastpath.out_asm"
    timeout 120 "$qemu" -cpu rv64,xtl=on -d out_asm -D "$log" "$out/test_fastpath" >/dev/null 2>&1
    rc=$?
    res=$(python3 "$src/check_vzeroupper.py" "$log" objdump 2>&1)
    vrc=$?
    check $(( rc != 0 || vrc != 0 )) "test_fastpath's host code: vzeroupper before each call and TB exit after 256-bit moves, none in other TBs (exit $rc): $(tail -n 1 <<<"$res")"
    [ "$rc" -eq 0 ] && [ "$vrc" -eq 0 ] || printf '# %s\n' "$res"
    rm -f "$log"
else
    skip_case "vzeroupper in the host code of TBs with 256-bit moves" "the host is not x86-64 with AVX2 ($(uname -m))"
fi
# Signal frames: no TL record until a thread uses TL (docs/abi.md), on every CPU.
run_prog max test_sigframe
run_prog rv64,xtl=on test_sigframe
run_prog rv64 test_sigframe notl
# Crash fuzz: a fresh seed each run (TL_FUZZ_SEED=N repeats one); it is on the
# command line, so the "# test_fuzz ..." line above its output shows it.
fuzz_seed=${TL_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
RUN_TIMEOUT=600 run_prog rv64,xtl=on test_fuzz 50000 "$fuzz_seed"

# -d guest_errors names the reason of each illegal-instruction trap, in order.
log="$out/guest_errors.log"
rm -f "$log"
run_prog rv64,xtl=on test_guest_errors
timeout 60 "$qemu" -cpu rv64,xtl=on -d guest_errors -D "$log" "$out/test_guest_errors" >/dev/null 2>&1
reasons=(
    "tl.load .* tshape has not been written since reset"
    "tl.addi .* ttype does not select exactly one valid element type"
    "tl.load .* D0 above 32"
    "tl.load .* block over 1024 bytes"
    "tl.load .* tmask_load_width is zero or larger than the slice size"
    "tl.mload .* tmask_ls has not been written since reset"
    "tl.concat.0 .* tmask_concat_1 has not been written since reset"
    "tl.concat.0 .* select more slices than the dimension holds"
    "tl.xpose.[0-3][0-3] .* do not describe exactly 2048 bytes"
    "tl.xpose.[0-3][0-3] .* contain a zero"
    "tl.xpose.[0-3][0-3] .* D0 is odd"
    "tl.xpose.[0-3][0-3] .* same register for both tensor halves"
    "tl.fillpad.zero .* tvalid has not been written since reset"
    "tl.fillpad.zero .* tvalid"
)
for i in "${!reasons[@]}"; do
    line=$(grep '^xtl: ' "$log" 2>/dev/null | sed -n "$((i + 1))p")
    [[ "$line" =~ ${reasons[$i]} ]] && [[ "$line" == *" at pc 0x"* ]]
    check $? "-d guest_errors trap $((i + 1)) logs '${reasons[$i]}' with its pc: $line"
done

# The same static program with TL on and off.
expected="TTYPE             0x800 wrote 0x00000040 read 0x00000040
TSHAPE            0x801 wrote 0x00041010 read 0x00041010
TMASK_LS          0x802 wrote 0x000000cc read 0x000000cc
TMASK_CONCAT_1    0x803 wrote 0x0000000c read 0x0000000c
TMASK_CONCAT_2    0x804 wrote 0x00000003 read 0x00000003
TMASK_LOAD_STRIDE 0x805 wrote 0xffffff00 read 0xffffff00
TMASK_LOAD_WIDTH  0x806 wrote 0x00000040 read 0x00000040
TVALID            0x807 wrote 0x00020808 read 0x00020808"
for cpu in rv64,xtl=on max; do
    got=$(timeout 60 "$qemu" -cpu "$cpu" "$out/csr_roundtrip" 2>&1); rc=$?
    [ "$rc" -eq 0 ] && [ "$got" = "$expected" ]
    check $? "csr_roundtrip under -cpu $cpu writes and reads back all 8 TL CSRs (exit $rc)"
    [ "$got" = "$expected" ] || printf '%s\n' "# got:" "$got"
done
for cpu in rv64,xtl=off rv64; do
    got=$(timeout 60 "$qemu" -cpu "$cpu" "$out/csr_roundtrip" 2>/dev/null); rc=$?
    [ "$rc" -eq 132 ] && [ -z "$got" ]
    check $? "csr_roundtrip under -cpu $cpu dies of SIGILL at the first TL CSR access, printing nothing (exit $rc, want 132)"
done

# The tile API's riscv64 backend asks riscv_hwprobe once at start-up: without
# xtl the program stops with one message naming the fix instead of SIGILL.
# docs/examples/quickstart.cpp computes y = (x + 10) * 2 on a 5 x 20 window
# of x[r][c] = 32r + c; row 2 by hand: x[2][4] = 68 -> 156, 69 -> 158,
# x[2][23] = 87 -> 194, outside the window 0.
if riscv64-linux-gnu-g++ -std=c++17 -O2 -static -I"$TL_REPO/include" \
        "$TL_REPO/docs/examples/quickstart.cpp" -o "$out/quickstart" 2>"$out/quickstart.log"; then
    for cpu in max rv64,xtl=on; do
        got=$(timeout 60 "$qemu" -cpu "$cpu" "$out/quickstart" 2>&1); rc=$?
        [ "$rc" -eq 0 ] && [ "$got" = $'row 2 of y: 0 156 158 ... 194 0\nok' ]
        check $? "tile API quickstart under -cpu $cpu prints row 2 = 0 156 158 ... 194 0 and ok (exit $rc)"
    done
    for cpu in rv64 rv64,xtl=off; do
        got=$(timeout 60 "$qemu" -cpu "$cpu" "$out/quickstart" 2>&1 >/dev/null); rc=$?
        [ "$rc" -eq 1 ] && [ "$got" = "this CPU has no xtl: run with -cpu rv64,xtl=on" ]
        check $? "tile API quickstart under -cpu $cpu stops with exit 1 and 'this CPU has no xtl: run with -cpu rv64,xtl=on' (exit $rc, stderr '$got')"
    done
else
    cat "$out/quickstart.log"
    check 1 "docs/examples/quickstart.cpp compiles for riscv64"
fi

tap_end
