#!/usr/bin/env bash
# Cost of the tlstat plugin on the ML kernels under qemu-riscv64, for
# make bench (scripts/bench.sh calls it; figures are printed, never asserted).
#   plugin_overhead.sh QEMU_USER LIBTLSTAT KERNELS_RV OUTDIR RUNS [TL_INSN]
# In each of RUNS rounds, every kernel's TL version runs once without and once
# with -plugin libtlstat.so, back to back (`kernels_rv NAME tl`, which order
# first alternates), so that the two runs of a pair see the same host.  Per
# kernel it prints the median in-guest time (kernels_rv's own median of 7
# samples) over the rounds, the median of the per-pair ratios with their
# spread and, against its target, the largest ratio over the kernels.
# (The program's wall time is not a figure: it sizes its repetitions to
# fill a fixed time per sample.)
# With TL_INSN (bench/tl_insn.c, whose loops write the
# TL CSRs once), also the time per TL instruction with and without the plugin.
# The plugin's reports go to OUTDIR.
set -euo pipefail
[ $# -eq 5 ] || [ $# -eq 6 ] ||
    { echo "error: usage: plugin_overhead.sh QEMU_USER LIBTLSTAT KERNELS_RV OUTDIR RUNS [TL_INSN]" >&2; exit 2; }
qemu=$1 plugin=$2 prog=$3 out=$4 runs=$5 insn=${6:-}
for f in "$qemu" "$plugin" "$prog"; do
    [ -e "$f" ] || { echo "error: $f is missing; run make qemu / make bench" >&2; exit 1; }
done
mkdir -p "$out"
mapfile -t kernels < <("$qemu" -cpu rv64,xtl=on "$prog" list)
[ ${#kernels[@]} -gt 0 ] || { echo "error: $prog list printed no kernels; run make bench" >&2; exit 1; }
run() {   # run MODE ROUND OUTFILE PROGRAM [ARGS]: one run, appended to OUTFILE
    local mode=$1 n=$2 to=$3 args=()
    shift 3
    [ "$mode" = plugin ] && args=(-plugin "$plugin,outfile=$out/tlstat.$n.$(basename "$1")${2:+.$2}.txt")
    "$qemu" -cpu rv64,xtl=on "${args[@]}" "$@" >>"$to"
}
for n in $(seq 1 "$runs"); do
    rm -f "$out"/kernels_rv.*."$n".txt "$out"/tl_insn.*."$n".txt
    for i in "${!kernels[@]}"; do
        order=(plain plugin)
        [ $(((n + i) % 2)) -eq 1 ] && order=(plugin plain)
        for mode in "${order[@]}"; do
            run "$mode" "$n" "$out/kernels_rv.$mode.$n.txt" "$prog" "${kernels[$i]}" tl
        done
    done
    if [ -n "$insn" ]; then
        for mode in plain plugin; do
            run "$mode" "$n" "$out/tl_insn.$mode.$n.txt" "$insn"
        done
    fi
done
python3 - "$out" "$runs" <<'PY'
import statistics, sys
d, runs = sys.argv[1], int(sys.argv[2])
def read(mode):
    """kernel -> its time in each run (None where a run lacks it)"""
    tl = {}
    for n in range(1, runs + 1):
        for line in open(f"{d}/kernels_rv.{mode}.{n}.txt"):
            p = line.split()
            if len(p) == 6 and p[0] == "kernel":
                tl.setdefault(p[1], [None] * runs)[n - 1] = float(p[3])
    return tl
base = read("plain")
plug = read("plugin")
print("== tlstat plugin overhead under qemu-riscv64 (TL version of each kernel, in-guest ns) ==")
print(f"   {runs} pairs per kernel, its two runs back to back; ratio = median of the per-pair ratios, as")
print("   the parity table's, so that the host's speed drifting between pairs cancels out of each one")
print(f"{'kernel':<38} {'no plugin':>12} {'tlstat':>12} {'ratio':>7}  {'pairs min-max':>13}")
ratios = []
for k in base:
    if k not in plug:
        continue
    pairs = [q / b for b, q in zip(base[k], plug[k]) if b and q]
    if not pairs:
        continue
    ratios.append(statistics.median(pairs))
    b = statistics.median(v for v in base[k] if v)
    q = statistics.median(v for v in plug[k] if v)
    print(f"{k:<38} {b:12.1f} {q:12.1f} {ratios[-1]:6.2f}x  {min(pairs):6.2f}-{max(pairs):.2f}")
if ratios:
    # the worst kernel, not a mean: a user profiling that kernel pays its ratio
    worst = max(ratios)
    print(f"   target: tlstat / no plugin, every kernel (max)  {worst:6.2f}x   <= 1.5x   "
          f"{'met' if worst <= 1.5 else 'NOT MET'}")
def insn(mode):
    acc = {}
    for n in range(1, runs + 1):
        try:
            lines = open(f"{d}/tl_insn.{mode}.{n}.txt").read().splitlines()
        except OSError:
            return {}
        for line in lines:
            p = line.split()
            if len(p) == 3 and p[0].startswith("tl."):
                acc.setdefault(p[0], []).append(float(p[2]))
    return {k: statistics.median(v) for k, v in acc.items()}
ib, ip = insn("plain"), insn("plugin")
if ib:
    print()
    print("== per TL instruction, TL CSRs written once before the loop (bench/tl_insn.c, ns) ==")
    print(f"{'instruction':<38} {'no plugin':>12} {'tlstat':>12} {'added':>7}")
    for k in ib:
        if k in ip:
            print(f"{k:<38} {ib[k]:12.1f} {ip[k]:12.1f} {ip[k] - ib[k]:7.1f}")
PY
