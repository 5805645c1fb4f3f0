#!/usr/bin/env bash
# The linux test group: TL-QEMU's Linux kernel (scripts/build-linux.sh) with
# its OpenSBI on qemu-system-riscv64, booted with /init running the test
# programs (tests/linux/guest/init, tlrun=tests) on
#   -cpu max          (Smstateen: the kernel's lazy mode)   -smp 1 and -smp 4
#   -cpu rv64,xtl=on  (no Smstateen: the eager mode)         -smp 1 and -smp 4
# and once on -cpu max with Debian 12's OpenSBI 1.1, which leaves
# mstateen0.C clear: the kernel must refuse TL and user TL gets SIGILL.
# Every TAP line of a guest program counts as one check ("ok - ... # SKIP
# reason" as one skip, e.g. a program that needs 2 harts on -smp 1), plus
# one check per program that it exited 0 (and that the console shows as many
# TAP lines as its own "N passed, M failed[, K skipped]" line counts) and per
# boot that the kernel booted on the requested harts in the expected mode,
# survived without oops or warning, and powered off.
# Ends with "N passed, M failed, K skipped".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"
. "$TL_REPO/tests/tap.sh"

setup_done=0
trap 'if [ "$setup_done" = 0 ]; then check 1 "setup: kernel, OpenSBI, busybox and initramfs ready"; tap_end; fi' EXIT
tl_linux_prepare tl
tl_build_initramfs
setup_done=1

logdir="$BUILD_DIR/test-logs/linux"
mkdir -p "$logdir"
seed=${TL_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}

# Counts the TAP lines of each program section of console log $1 (label $2):
# "ok - ... # SKIP reason" is a skip (never a pass), any other ok/not ok line
# a check. A program that ends with "N passed, M failed[, K skipped]" must
# have shown N + M + K of them.
count_sections() {
    local log=$1 label=$2 name status line ntap=0 summary="" sections=0 desc
    name=""
    while IFS= read -r line; do
        case "$line" in
            "tl-run: begin "*) name=${line#tl-run: begin } ntap=0 summary="" sections=$((sections + 1)) ;;
            "tl-run: end "*)
                status=${line##* }
                [ "$status" = 0 ] && { [ -z "$summary" ] || [ "$summary" -eq "$ntap" ]; }
                check $? "$label: $name ran to completion (exit status $status${summary:+; $ntap TAP lines, its summary counts $summary})"
                name="" ;;
            [0-9]*" passed, "[0-9]*" failed"|[0-9]*" passed, "[0-9]*" failed, "[0-9]*" skipped")
                [ -n "$name" ] && [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]] &&
                    summary=$((BASH_REMATCH[1] + BASH_REMATCH[2] + ${BASH_REMATCH[4]:-0})) ;;
            "ok "*" # SKIP"*)
                [ -n "$name" ] || continue
                ntap=$((ntap + 1))
                desc=${line#ok* - }
                skip_case "$label: $name: ${desc%% # SKIP*}" "${line##* # SKIP }" ;;
            "ok "*|"not ok "*)
                [ -n "$name" ] || continue
                ntap=$((ntap + 1))
                case "$line" in
                    ok*) check 0 "$label: $name: ${line#ok* - }" ;;
                    *) check 1 "$label: $name: ${line#not ok* - }" ;;
                esac ;;
            "tl-init: '"*"as expected")
                check 0 "$label: ${line#tl-init: }" ;;
            "tl-init: '"*"FAIL")
                check 1 "$label: ${line#tl-init: }" ;;
        esac
    done < "$log"
    if [ -n "$name" ]; then
        check 1 "$label: $name ran to completion (no end marker: it hung or the kernel died)"
    fi
    if [ "$sections" -eq 0 ]; then
        check 1 "$label: /init ran the test programs (no 'tl-run: begin' on the console)"
    fi
}

boot_checks() {   # boot_checks <log> <rc> <label> <expected kernel line> <harts>
    local log=$1 rc=$2 label=$3 want=$4 harts=$5
    grep -q "^tl-init: Linux .* booted in .* s, $harts hart(s)" "$log"
    check $? "$label: the kernel booted on $harts hart(s) and ran /init"
    grep -q "^tl-init: kernel: xtl: $want" "$log"
    check $? "$label: the kernel's boot log says 'xtl: $want'"
    ! grep -qE 'Kernel panic|Oops|BUG:|Unable to handle kernel|WARNING:|hung_task|soft lockup' "$log"
    check $? "$label: no kernel oops, warning or panic"
    [ "$rc" -eq 0 ] && grep -q '^tl-init: done, powering off' "$log"
    check $? "$label: clean poweroff (QEMU exit status $rc$([ "$rc" -eq 124 ] && echo ": timed out after ${TL_BOOT_TIMEOUT} s"))"
}

run_boot() {   # run_boot <cpu> <smp> <expected kernel line>
    local cpu=$1 smp=$2 want=$3 label log rc
    label="-cpu $cpu -smp $smp"
    log="$logdir/console-${cpu//[,=]/_}-smp$smp.log"
    echo "# $label: booting with tlrun=tests (console in $log)"
    TL_BOOT_QUIET=1 tl_linux_boot "$cpu" "$log" "quiet tlrun=tests tlseed=$seed" "$smp"
    rc=$?
    echo "# $label: boot + tests + poweroff took $TL_BOOT_SECONDS s (exit status $rc)"
    grep -E '^# tl-isolation|ctxswitch|^tl-probe:' "$log" | sed "s/^/# $label: /"
    count_sections "$log" "$label"
    boot_checks "$log" "$rc" "$label" "$want" "$smp"
    if [ "$rc" -ne 0 ] || ! grep -q 'reboot: Power down' "$log"; then
        echo "# last console lines:"; tail -n 25 "$log" | sed 's/^/#   /'
    fi
}

echo "# random TL words under Linux use seed $seed (TL_FUZZ_SEED=N repeats it)"
lazy="TensorLoad state per task, lazy"
eager="TensorLoad state per task, eager"
run_boot max 1 "$lazy"
run_boot max 4 "$lazy"
run_boot rv64,xtl=on 1 "$eager"
run_boot rv64,xtl=on 4 "$eager"

# Firmware that leaves mstateen0.C clear: the kernel refuses TL, user TL traps.
TL_OPENSBI=$TL_DEBIAN_OPENSBI
cpu=max,zk=off,zkr=off
log="$logdir/console-debian-opensbi.log"
echo "# -cpu $cpu with Debian 12's OpenSBI 1.1 (no mstateen0.C): booting the demo"
TL_BOOT_QUIET=1 tl_linux_boot "$cpu" "$log" "quiet" 1
rc=$?
label="-cpu $cpu, OpenSBI 1.1"
grep -q '^tl-init: kernel: xtl: disabled: S-mode cannot access TL' "$log"
check $? "$label: the kernel sees that the firmware keeps TL from S-mode and says so"
grep -q '^tl-probe: riscv_hwprobe(key 0x58544c30) = 0x0: no xtl' "$log"
check $? "$label: riscv_hwprobe reports no usable xtl"
# (its checks, made in a subshell, become this script's with the label)
relay "$label: " < <(tl_console_checks "$log" "$rc" traps)

tap_end
