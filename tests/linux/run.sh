#!/usr/bin/env bash
# The Linux demo as a test: boots Debian's riscv64 kernel + busybox under
# qemu-system-riscv64 (assumes 'make qemu'), non-interactively, and checks the
# console:
#   -cpu rv64,xtl=on (TL usable): kernel booted, TL usable in U-mode, workload
#     PASS, SIGSEGV and SIGILL for the faulting programs with the kernel still
#     running, no oops, clean poweroff;
#   -cpu max,zk=off,zkr=off (Smstateen on, C bit left clear by OpenSBI and
#     Linux): TL traps in U-mode with SIGILL and the kernel survives (the
#     finding of docs/linux.md).  TL_LINUX_SKIP_SMSTATEEN=1 skips this boot.
# Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"

pass=0 fail=0
# A setup error (die) still ends with the summary line.
setup_done=0
trap 'if [ "$setup_done" = 0 ]; then echo "not ok - setup: QEMU, OpenSBI, kernel, busybox and initramfs ready"; echo "0 passed, 1 failed"; fi' EXIT
tl_check_boot_tools
tl_linux_fetch
TL_DEMO_ADD="" tl_build_initramfs
setup_done=1

check() {   # check <0 if ok> <description>
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "ok - $2"
    else fail=$((fail + 1)); echo "not ok - $2"; fi
}

logdir="$BUILD_DIR/test-logs/linux"
mkdir -p "$logdir"

boot_and_check() {   # boot_and_check <cpu> <usable|traps>
    local cpu=$1 mode=$2 log rc
    log="$logdir/console-${cpu//[,=]/_}.log"
    echo "# -cpu $cpu: booting (console in $log)"
    TL_BOOT_QUIET=1 tl_linux_boot "$cpu" "$log"
    rc=$?
    echo "# -cpu $cpu: boot + run + poweroff took $TL_BOOT_SECONDS s (exit status $rc)"
    if [ "$rc" -ne 0 ] || ! grep -q 'reboot: Power down' "$log"; then
        echo "# last console lines:"; tail -n 25 "$log" | sed 's/^/#   /'
    fi
    tl_console_checks "$log" "$rc" "$mode" | sed "s/^\(\(not \)\{0,1\}ok - \)/\1-cpu $cpu: /" > "$log.checks"
    cat "$log.checks"
    pass=$((pass + $(grep -c '^ok - ' "$log.checks")))
    fail=$((fail + $(grep -c '^not ok - ' "$log.checks")))
}

boot_and_check "$TL_DEMO_CPU_DEFAULT" usable
if [ "${TL_LINUX_SKIP_SMSTATEEN:-0}" != 1 ]; then
    smstateen=$(tl_cpu_smstateen max,zk=off,zkr=off)
    [ "$smstateen" = yes ]
    check $? "-cpu max,zk=off,zkr=off: the device tree lists smstateen ($smstateen)"
    boot_and_check max,zk=off,zkr=off traps
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
