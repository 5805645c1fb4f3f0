#!/usr/bin/env bash
# make demo: boots TL-QEMU's riscv64 Linux (Debian's linux 6.12 source with
# the TL patches, OpenSBI 1.6 with mstateen0.C) on qemu-system-riscv64 -M virt
# -cpu max, runs the TL pipeline alone and in concurrent processes and
# threads, and two deliberately faulting TL programs in Linux user space,
# powers off, and checks the console.  Exit 0 only if everything passed.
# See docs/linux.md.
#
#   scripts/demo.sh [--cpu CPU] [--smp N] [--stock-kernel] [--add FILE]...
#                   [--shell] [--quiet-kernel] [--no-build]
#
#   --cpu CPU        QEMU -cpu options (default max: Smstateen, the kernel's
#                    lazy mode; rv64,xtl=on: no Smstateen, eager mode)
#   --smp N          harts (default 2)
#   --stock-kernel   Debian 13's stock kernel package and Debian 12's OpenSBI
#                    instead (no TL support in the kernel: all tasks of a hart
#                    share one TL state; default CPU rv64,xtl=on)
#   --add FILE       also put FILE (a riscv64 C file, compiled static with
#                    -I include, or a static riscv64 binary) into the initramfs
#                    and run it after the demo; repeatable; also TL_DEMO_ADD="F1 F2"
#   --shell          interactive: after the demo, a busybox shell on the
#                    console ('poweroff -f' or Ctrl-A X ends QEMU)
#   --quiet-kernel   pass 'quiet' to the kernel (shorter console output)
#   --no-build       do not run scripts/build-qemu.sh first
#
# Environment: TL_BOOT_TIMEOUT (seconds, default 300), TL_LINUX_KERNEL,
# TL_OPENSBI, TL_BUSYBOX (your own files), DEBIAN_MIRROR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"

cpu="" smp=2 kind=tl shell=0 build=1 append=""
while [ $# -gt 0 ]; do
    case "$1" in
        --cpu) [ $# -ge 2 ] || die "--cpu needs a value, e.g. --cpu max"
               cpu=$2; shift ;;
        --cpu=*) cpu=${1#--cpu=} ;;
        --smp) [ $# -ge 2 ] || die "--smp needs a number of harts, e.g. --smp 4"
               smp=$2; shift ;;
        --smp=*) smp=${1#--smp=} ;;
        --stock-kernel) kind=debian ;;
        --add) [ $# -ge 2 ] || die "--add needs a file, e.g. --add myprog.c"
               TL_DEMO_ADD="${TL_DEMO_ADD:-} $2"; shift ;;
        --add=*) TL_DEMO_ADD="${TL_DEMO_ADD:-} ${1#--add=}" ;;
        --shell) shell=1 ;;
        --quiet-kernel) append="$append quiet" ;;
        --no-build) build=0 ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) die "unknown option '$1' (options: --cpu CPU, --smp N, --stock-kernel, --add FILE, --shell, --quiet-kernel, --no-build)" ;;
    esac
    shift
done
case "$smp" in
    [1-8]) ;;
    *) die "--smp $smp: give 1 to 8 harts" ;;
esac
if [ -z "$cpu" ]; then
    if [ "$kind" = tl ]; then cpu=max; else cpu=rv64,xtl=on; fi
fi
export TL_DEMO_ADD="${TL_DEMO_ADD:-}"

tl_steps_begin
[ "$shell" = 1 ] || trap 'tl_steps_table "make demo"' EXIT
if [ "$build" = 1 ]; then
    tl_timed "Debian packages the build needs (make deps)" "$TL_REPO/scripts/install-deps.sh"
    "$TL_REPO/scripts/build-qemu.sh"
fi
tl_linux_prepare "$kind"
tl_timed "the initramfs (guest programs, busybox)" tl_build_initramfs

if [ "$kind" = tl ]; then
    mode=pertask
    kernel_note="TL-QEMU's Linux 6.12 (TL state per task), OpenSBI 1.6 with mstateen0.C"
else
    mode=shared
    kernel_note="Debian's stock kernel: no TL support, all tasks of a hart share one TL state"
    case "$cpu" in
        max|max,*) mode=traps
            kernel_note="$kernel_note; with Smstateen (max) TL traps in user space (OpenSBI 1.1 leaves mstateen0.C clear)" ;;
    esac
fi

tl_qemu_cmd "$cpu" "${append# }" "$smp"
echo "=== TL-QEMU demo: Linux in qemu-system-riscv64 with the xtl extension ==="
echo "kernel:    $TL_KERNEL"
echo "           ($kernel_note)"
echo "firmware:  $TL_OPENSBI"
echo "userspace: $TL_BUSYBOX (static, built from Debian's busybox source) + TL programs${TL_DEMO_ADD:+ +$TL_DEMO_ADD}"
echo "CPU:       -cpu $cpu, $smp hart(s)"
printf 'command:  '
for a in "${TL_QEMU_CMD[@]}"; do
    case "$a" in *[[:space:]]*) printf " '%s'" "$a" ;; *) printf ' %s' "$a" ;; esac
done
echo
echo "=== console ==="

if [ "$shell" = 1 ]; then
    tl_qemu_cmd "$cpu" "${append# } tldemo=shell" "$smp"
    log "interactive: the demo runs, then a shell; 'poweroff -f' or Ctrl-A X ends QEMU"
    exec "${TL_QEMU_CMD[@]}"
fi

logf="$TL_DEMO_DIR/console.log"
set +e
tl_linux_boot "$cpu" "$logf" "${append# }" "$smp"
rc=$?
tl_step_done "booting Linux, the demo, poweroff" "${TL_BOOT_SECONDS%.*}"

. "$TL_REPO/tests/tap.sh"
echo "=== checks (console saved in $logf) ==="
tl_console_checks "$logf" "$rc" "$mode"
if [ "$mode" = traps ]; then
    check 1 "the TL workload ran (it cannot with -cpu $cpu and this kernel: TL traps in user space)"
fi
while read -r name; do
    [ -n "$name" ] || continue
    grep -qx "tl-init: $name: exit 0" "$logf"
    check $? "added program $name ran and exited with status 0"
done < "$TL_DEMO_DIR/tl-extra"
echo "wall time of boot + run + poweroff: ${TL_BOOT_SECONDS} s (-cpu $cpu, $smp harts, timeout ${TL_BOOT_TIMEOUT} s)"
if [ "$fail" -eq 0 ]; then
    echo "demo: PASS ($pass checks)"
else
    echo "demo: FAIL ($fail of $((pass + fail)) checks failed)"
    exit 1
fi
