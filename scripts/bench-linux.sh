#!/usr/bin/env bash
# Linux figures of make bench: context-switch cost (a pipe ping-pong between
# two processes on one hart, tests/linux/guest/ctxswitch_bench.c) and boot
# time, for the same kernel source and configuration without TL support
# (scripts/build-linux.sh --stock) and with it, on -cpu max (Smstateen: the
# lazy mode) and -cpu rv64,xtl=on (the eager mode).  Medians of RUNS boots
# (default 3).  Figures only, no pass/fail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"

runs=${TL_BENCH_LINUX_RUNS:-3}
tl_linux_prepare tl
tl_build_initramfs
tl_kernel=$TL_KERNEL
stock_kernel=$("$TL_REPO/scripts/build-linux.sh" --stock)
logdir="$BUILD_DIR/bench/linux"
mkdir -p "$logdir"

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# measure <label> <kernel> <cpu>: sets PLAIN TL BOOT (medians)
measure() {
    local label=$1 kernel=$2 cpu=$3 i log plain=() tl=() boot=()
    for i in $(seq 1 "$runs"); do
        log="$logdir/$label-$i.log"
        TL_KERNEL=$kernel TL_BOOT_QUIET=1 tl_linux_boot "$cpu" "$log" "quiet tlrun=bench" 1 ||
            die "the $label boot failed (see $log)"
        plain+=("$(sed -n 's/^ctxswitch plain: *\([0-9.]*\) ns.*/\1/p' "$log")")
        tl+=("$(sed -n 's/^ctxswitch tl: *\([0-9.]*\) ns.*/\1/p' "$log")")
        boot+=("$(sed -n 's/^tl-init: Linux .* booted in \([0-9.]*\) s.*/\1/p' "$log")")
    done
    PLAIN=$(printf '%s\n' "${plain[@]}" | grep . | median)
    TL=$(printf '%s\n' "${tl[@]}" | grep . | median || true)
    BOOT=$(printf '%s\n' "${boot[@]}" | grep . | median)
}

echo "Linux context switches (pipe ping-pong, 2 processes on one hart; ns per switch; median of $runs boots)"
printf '%-38s %12s %12s %14s\n' "kernel, CPU" "non-TL" "two TL tasks" "boot to /init"
measure stock-max "$stock_kernel" max
s_plain=$PLAIN s_boot=$BOOT
printf '%-38s %12s %12s %12s s\n' "without TL support, -cpu max" "$PLAIN" "-" "$BOOT"
measure tl-max "$tl_kernel" max
printf '%-38s %12s %12s %12s s\n' "TL kernel, -cpu max (lazy)" "$PLAIN" "${TL:--}" "$BOOT"
l_plain=$PLAIN l_tl=$TL l_boot=$BOOT
measure stock-rv64 "$stock_kernel" rv64,xtl=on
printf '%-38s %12s %12s %12s s\n' "without TL support, -cpu rv64,xtl=on" "$PLAIN" "-" "$BOOT"
r_plain=$PLAIN
measure tl-eager "$tl_kernel" rv64,xtl=on
printf '%-38s %12s %12s %12s s\n' "TL kernel, -cpu rv64,xtl=on (eager)" "$PLAIN" "${TL:--}" "$BOOT"
e_plain=$PLAIN
awk -v s="$s_plain" -v l="$l_plain" -v t="$l_tl" -v e="$e_plain" -v r="$r_plain" -v sb="$s_boot" -v lb="$l_boot" 'BEGIN {
    printf "non-TL switch, TL kernel (lazy) / kernel without TL: %.3f   (target <= 1.05: %s)\n", l / s, (l / s <= 1.05) ? "met" : "NOT MET"
    printf "two TL tasks / non-TL switch, TL kernel (lazy):      %.2f    (target <= 3: %s)\n", t / l, (t / l <= 3) ? "met" : "NOT MET"
    printf "non-TL switch in eager mode / without TL (rv64):     %.2f    (eager mode saves every user task)\n", e / r
    printf "boot to /init, TL kernel / without TL:               %.3f\n", lb / sb
}'
