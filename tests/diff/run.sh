#!/usr/bin/env bash
# Differential test of xtl: QEMU (qemu-riscv64 -cpu rv64,xtl=on) against the
# reference model tests/reference/tlref.py.  Builds the guest program into
# $BUILD_DIR/tests/diff, runs the directed set, then DIFF_COUNT random cases
# (default 20000) with seed DIFF_SEED (default: random, printed).
# Ends with one line "N passed, M failed" summing both runs.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

qemu="$BUILD_DIR/qemu/qemu-riscv64"
need_qemu "$qemu"
[ -x /usr/bin/python3 ] || die "/usr/bin/python3 is missing (apt-get install python3 python3-numpy)"
out="$BUILD_DIR/tests/diff"
mkdir -p "$out"
src="$TL_REPO/tests/diff"
guest="$out/tl_diff_guest"
if [ ! -x "$guest" ] || [ "$src/tl_diff_guest.c" -nt "$guest" ] ||
   [ "$TL_REPO/include/tl/tl_insn.h" -nt "$guest" ] || [ "$TL_REPO/include/tl/xtl-opc.h" -nt "$guest" ]; then
    riscv64-linux-gnu-gcc -O2 -Wall -Werror -static -I"$TL_REPO/include" \
        -I"$TL_REPO/tests/user" "$src/tl_diff_guest.c" -o "$guest" ||
        die "cannot compile $src/tl_diff_guest.c"
fi

count=${DIFF_COUNT:-20000}
seed=${DIFF_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
jobs=${DIFF_JOBS:-2}

. "$TL_REPO/tests/tap.sh"

# run_diff <label> <tl_diff.py arguments...>: adds the run's counts to the totals
run_diff() {
    local label=$1 log rc p f
    shift
    log=$(mktemp)
    echo "# $label: tl_diff.py $*"
    /usr/bin/python3 "$src/tl_diff.py" --qemu "$qemu" --guest "$guest" --jobs "$jobs" "$@" \
        >"$log" 2>&1
    rc=$?
    # the run's own summary line is renamed so that only the total below matches
    sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/# \1 passed, \2 failed ('"$label"')/' "$log"
    read -r p f < <(counts_of "$log")
    p=${p:-0} f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1    # the runner failed without reporting a mismatch: never a pass
    fi
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        f=1
    fi
    add_counts "$p" "$f"
    rm -f "$log"
}

start=$(date +%s)
run_diff directed --directed
run_diff random --seed "$seed" --count "$count"
echo "# seed $seed, $count random cases, $(( $(date +%s) - start )) s"
tap_end
