#!/usr/bin/env bash
# Long crash fuzz of the TL instructions: test_fuzz with 1,000,000 words in
# total under qemu-riscv64 -cpu rv64,xtl=on, split over parallel processes with
# different seeds.  Checks that every QEMU process exited normally (exit 0, not
# killed by a signal, not timed out), that its stderr holds no QEMU fatal error
# or assertion, and that the fuzzer's own checks passed.  Ends with
# "N passed, M failed".
#
#   tests/user/fuzz-long.sh [total-words [processes [first-seed]]]
#   environment: FUZZ_TIMEOUT (seconds per process, default 3600),
#                QEMU (the qemu-riscv64 to run, default build/qemu/qemu-riscv64)
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu

total=${1:-1000000}
procs=${2:-2}
seed0=${3:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
limit=${FUZZ_TIMEOUT:-3600}

qemu=${QEMU:-$BUILD_DIR/qemu/qemu-riscv64}
need_qemu "$qemu"
out="$BUILD_DIR/tests/user"
mkdir -p "$out"
src="$TL_REPO/tests/user"
prog="$out/test_fuzz"
if [ ! -x "$prog" ] || [ "$src/test_fuzz.c" -nt "$prog" ] || [ "$src/tl_test.h" -nt "$prog" ] ||
   [ "$TL_REPO/include/tl/tl_insn.h" -nt "$prog" ] || [ "$TL_REPO/include/tl/xtl-opc.h" -nt "$prog" ]; then
    riscv64-linux-gnu-gcc -O2 -Wall -Werror -static -I"$TL_REPO/include" -I"$src" \
        "$src/test_fuzz.c" -o "$prog" || die "cannot compile test_fuzz.c"
fi

. "$TL_REPO/tests/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
per=$(( (total + procs - 1) / procs ))
echo "# fuzz-long: $total words over $procs processes ($per each), seeds $seed0.., timeout ${limit}s each"
start=$(date +%s)
pids=()
for ((k = 0; k < procs; k++)); do
    seed=$((seed0 + k))
    echo "$seed" >"$tmp/seed.$k"
    ( timeout "$limit" "$qemu" -cpu rv64,xtl=on "$prog" "$per" "$seed" >"$tmp/out.$k" 2>"$tmp/err.$k"
      echo $? >"$tmp/rc.$k" ) &
    pids+=($!)
done
for p in "${pids[@]}"; do
    wait "$p"
done
elapsed=$(( $(date +%s) - start ))

for ((k = 0; k < procs; k++)); do
    seed=$(cat "$tmp/seed.$k")
    rc=$(cat "$tmp/rc.$k" 2>/dev/null || echo 255)
    echo "# --- process $k: $per words, seed $seed, exit $rc"
    cat "$tmp/out.$k"
    if [ -s "$tmp/err.$k" ]; then
        echo "# stderr:"
        sed 's/^/#   /' "$tmp/err.$k"
    fi
    what="test_fuzz $per $seed"
    if [ "$rc" -eq 124 ]; then
        check 1 "$what: finished within ${limit}s (timed out)"
    elif [ "$rc" -gt 128 ]; then
        check 1 "$what: qemu-riscv64 exited normally (killed by signal $((rc - 128)))"
    else
        check 0 "$what: qemu-riscv64 exited normally within ${limit}s (exit $rc)"
    fi
    ! grep -qiE 'qemu: fatal|qemu: uncaught target signal|assert|ERROR:|core dumped|Aborted|Segmentation fault|tcg fatal|hw_error|abort' "$tmp/err.$k"
    check $? "$what: no QEMU fatal error, assertion or crash text on stderr"
    read -r p f < <(counts_of "$tmp/out.$k")
    [ "$rc" -eq 0 ] && [ "${p:-0}" -gt 0 ] && [ "${f:-1}" -eq 0 ]
    check $? "$what: the fuzzer's own checks passed (${p:-0} passed, ${f:-?} failed)"
done
echo "# total time ${elapsed}s"
tap_end
