#!/usr/bin/env bash
# Linux figures of make bench: context-switch cost (a pipe ping-pong between
# two processes on one hart, tests/linux/guest/ctxswitch_bench.c) and boot
# time, for the same kernel source and configuration without TL support
# (scripts/build-linux.sh --stock) and with it, on -cpu max (Smstateen: the
# lazy mode) and -cpu rv64,xtl=on (the eager mode).  Medians of RUNS boots
# (default 5) of each, every boot next to its counterpart's.  Figures only,
# no pass/fail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"

runs=${TL_BENCH_LINUX_RUNS:-5}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "TL_BENCH_LINUX_RUNS must be a positive integer (got '$runs')"
tl_linux_prepare tl
tl_build_initramfs
tl_kernel=$TL_KERNEL
stock_kernel=$("$TL_REPO/scripts/build-linux.sh" --stock)
bench_cpu=$(bench_pin_cpu)   # the boots on one host CPU, after the builds above
logdir="$BUILD_DIR/bench/linux"
mkdir -p "$logdir"

# boot_one <label> <kernel> <cpu> <i>: one boot; "LABEL PLAIN TL BOOT" added to $figures
# ("-" for a figure the boot did not print)
boot_one() {
    local label=$1 kernel=$2 cpu=$3 i=$4 log plain tl boot
    log="$logdir/$label-$i.log"
    TL_KERNEL=$kernel TL_BOOT_QUIET=1 tl_linux_boot "$cpu" "$log" "quiet tlrun=bench" 1 ||
        die "the $label boot failed (see $log)"
    plain=$(sed -n 's/^ctxswitch plain: *\([0-9.]*\) ns.*/\1/p' "$log")
    tl=$(sed -n 's/^ctxswitch tl: *\([0-9.]*\) ns.*/\1/p' "$log")
    boot=$(sed -n 's/^tl-init: Linux .* booted in \([0-9.]*\) s.*/\1/p' "$log")
    [ -n "$plain" ] && [ -n "$boot" ] || die "the $label boot printed no figures (see $log)"
    echo "$label $plain ${tl:--} $boot" >>"$figures"
}

# The kernel without TL and the TL kernel boot back to back, in alternating
# order, so that the ratios (medians of the per-pair ratios) compare boots
# seconds apart: this host's speed drifts over minutes.
figures="$logdir/figures.txt"
: >"$figures"
for i in $(seq 1 "$runs"); do
    log "Linux boots, pair $i of $runs (kernel without TL and TL kernel, -cpu max and rv64,xtl=on)"
    if [ $((i % 2)) -eq 1 ]; then
        boot_one stock-max "$stock_kernel" max "$i"; boot_one tl-max "$tl_kernel" max "$i"
        boot_one stock-rv64 "$stock_kernel" rv64,xtl=on "$i"; boot_one tl-eager "$tl_kernel" rv64,xtl=on "$i"
    else
        boot_one tl-max "$tl_kernel" max "$i"; boot_one stock-max "$stock_kernel" max "$i"
        boot_one tl-eager "$tl_kernel" rv64,xtl=on "$i"; boot_one stock-rv64 "$stock_kernel" rv64,xtl=on "$i"
    fi
done
python3 - "$figures" "$runs" <<'PY'
import statistics, sys

rows = {}
for line in open(sys.argv[1]):
    label, plain, tl, boot = line.split()
    rows.setdefault(label, []).append((float(plain), None if tl == "-" else float(tl), float(boot)))

def med(label, col):
    v = [r[col] for r in rows[label] if r[col] is not None]
    return statistics.median(v) if v else None

def ratio(num, den, col):
    """median and min-max of num/den over the pairs (the i-th boot of each)."""
    r = [a[col] / b[col] for a, b in zip(rows[num], rows[den])]
    return statistics.median(r), min(r), max(r)

print(f"Linux context switches (pipe ping-pong, 2 processes on one hart; ns per switch; median of {sys.argv[2]} boots,")
print("each with its counterpart back to back; ratios: median of the per-pair ratios, pairs min-max)")
print(f"{'kernel, CPU':<38} {'non-TL':>12} {'two TL tasks':>12} {'boot to /init':>14}")
for label, name in [("stock-max", "without TL support, -cpu max"), ("tl-max", "TL kernel, -cpu max (lazy)"),
                    ("stock-rv64", "without TL support, -cpu rv64,xtl=on"),
                    ("tl-eager", "TL kernel, -cpu rv64,xtl=on (eager)")]:
    tl = med(label, 1)
    print(f"{name:<38} {med(label, 0):12.0f} {f'{tl:.0f}' if tl else '-':>12} {med(label, 2):12.2f} s")
r, lo, hi = ratio("tl-max", "stock-max", 0)
print(f"non-TL switch, TL kernel (lazy) / kernel without TL: {r:.3f} ({lo:.3f}-{hi:.3f})   "
      f"(target <= 1.05: {'met' if r <= 1.05 else 'NOT MET'})")
t = [a[1] / a[0] for a in rows["tl-max"] if a[1] is not None]
if t:
    m = statistics.median(t)
    print(f"two TL tasks / non-TL switch, TL kernel (lazy):      {m:.2f}    (target <= 3: {'met' if m <= 3 else 'NOT MET'})")
r, lo, hi = ratio("tl-eager", "stock-rv64", 0)
print(f"non-TL switch in eager mode / without TL (rv64):     {r:.2f} ({lo:.2f}-{hi:.2f})   (eager mode saves every user task)")
r, lo, hi = ratio("tl-max", "stock-max", 2)
print(f"boot to /init, TL kernel / without TL:               {r:.3f} ({lo:.3f}-{hi:.3f})")
PY
