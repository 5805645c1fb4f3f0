#!/usr/bin/env bash
# make demo: boots Debian's riscv64 Linux kernel with busybox on
# qemu-system-riscv64 -M virt with the TL extension, runs a TL workload and
# two deliberately faulting TL programs in Linux user space, powers off, and
# checks the console.  Exit 0 only if everything passed.  See docs/linux.md.
#
#   scripts/demo.sh [--cpu CPU] [--add FILE]... [--shell] [--quiet-kernel] [--no-build]
#
#   --cpu CPU        QEMU -cpu options (default rv64,xtl=on; see docs/linux.md
#                    for why not plain 'max')
#   --add FILE       also put FILE (a riscv64 C file, compiled static with
#                    -I include, or a static riscv64 binary) into the initramfs
#                    and run it after the demo; repeatable; also TL_DEMO_ADD="F1 F2"
#   --shell          interactive: after the demo, a busybox shell on the
#                    console ('poweroff -f' or Ctrl-A X ends QEMU)
#   --quiet-kernel   pass 'quiet' to the kernel (shorter console output)
#   --no-build       do not run scripts/build-qemu.sh first
#
# Environment: TL_BOOT_TIMEOUT (seconds, default 120), TL_LINUX_KERNEL,
# TL_BUSYBOX, TL_KERNEL_PACKAGE, DEBIAN_MIRROR (scripts/fetch-linux.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"

cpu=$TL_DEMO_CPU_DEFAULT shell=0 build=1 append=""
while [ $# -gt 0 ]; do
    case "$1" in
        --cpu) [ $# -ge 2 ] || die "--cpu needs a value, e.g. --cpu rv64,xtl=on"
               cpu=$2; shift ;;
        --cpu=*) cpu=${1#--cpu=} ;;
        --add) [ $# -ge 2 ] || die "--add needs a file, e.g. --add myprog.c"
               TL_DEMO_ADD="${TL_DEMO_ADD:-} $2"; shift ;;
        --add=*) TL_DEMO_ADD="${TL_DEMO_ADD:-} ${1#--add=}" ;;
        --shell) shell=1 ;;
        --quiet-kernel) append="$append quiet" ;;
        --no-build) build=0 ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) die "unknown option '$1' (options: --cpu CPU, --add FILE, --shell, --quiet-kernel, --no-build)" ;;
    esac
    shift
done
export TL_DEMO_ADD="${TL_DEMO_ADD:-}"

if [ "$build" = 1 ]; then
    "$TL_REPO/scripts/build-qemu.sh"
fi
tl_check_boot_tools
tl_linux_fetch
tl_build_initramfs

smstateen=$(tl_cpu_smstateen "$cpu")
case "$smstateen" in
    yes) mode=traps
         cpu_note="Smstateen on: OpenSBI leaves mstateen0.C = 0 and Linux sstateen0.C = 0, so TL traps in user space (SIGILL)" ;;
    no)  mode=usable
         cpu_note="no Smstateen: TL is usable in every privilege mode, no firmware or kernel support needed" ;;
    *)   mode=usable
         cpu_note="could not read QEMU's device tree for this CPU; assuming TL is usable" ;;
esac

tl_qemu_cmd "$cpu" "${append# }"
echo "=== TL-QEMU demo: Linux in qemu-system-riscv64 with the xtl extension ==="
echo "kernel:    $TL_KERNEL (Debian trixie riscv64)"
echo "userspace: $TL_BUSYBOX (static) + tl-probe, tl-demo, tl-fault${TL_DEMO_ADD:+ +$TL_DEMO_ADD}"
echo "CPU:       -cpu $cpu ($cpu_note)"
echo "note:      plain '-cpu max' does not work here: it enables Smstateen, whose C bit gates TL"
echo "           below M-mode, and neither Debian's OpenSBI (mstateen0.C) nor Linux 6.12"
echo "           (sstateen0.C) sets it; -cpu max also needs zk=off,zkr=off with OpenSBI 1.1."
echo "           Use rv64,xtl=on or max,smstateen=off,zk=off,zkr=off (docs/linux.md)."
printf 'command:  '
for a in "${TL_QEMU_CMD[@]}"; do
    case "$a" in *[[:space:]]*) printf " '%s'" "$a" ;; *) printf ' %s' "$a" ;; esac
done
echo
echo "=== console ==="

if [ "$shell" = 1 ]; then
    tl_qemu_cmd "$cpu" "${append# } tldemo=shell"
    log "interactive: the demo runs, then a shell; 'poweroff -f' or Ctrl-A X ends QEMU"
    exec "${TL_QEMU_CMD[@]}"
fi

logf="$TL_DEMO_DIR/console.log"
set +e
tl_linux_boot "$cpu" "$logf" "${append# }"
rc=$?

pass=0 fail=0
check() {
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "ok - $2"
    else fail=$((fail + 1)); echo "not ok - $2"; fi
}
echo "=== checks (console saved in $logf) ==="
tl_console_checks "$logf" "$rc" "$mode"
if [ "$mode" = traps ]; then
    check 1 "the TL workload ran (it cannot with -cpu $cpu: TL traps in user space)"
fi
while read -r name; do
    [ -n "$name" ] || continue
    grep -qx "tl-init: $name: exit 0" "$logf"
    check $? "added program $name ran and exited with status 0"
done < "$TL_DEMO_DIR/tl-extra"
if grep -q 'epc : random_init_early' "$logf"; then
    echo "hint: the kernel trapped on the Zkr 'seed' CSR while booting: this OpenSBI does not"
    echo "      set mseccfg.SSEED; add zk=off,zkr=off to -cpu (docs/linux.md)"
fi
echo "wall time of boot + run + poweroff: ${TL_BOOT_SECONDS} s (-cpu $cpu, timeout ${TL_BOOT_TIMEOUT} s)"
if [ "$fail" -eq 0 ]; then
    echo "demo: PASS ($pass checks)"
else
    echo "demo: FAIL ($fail of $((pass + fail)) checks failed)"
    exit 1
fi
