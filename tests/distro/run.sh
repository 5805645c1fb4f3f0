#!/usr/bin/env bash
# The distro group: TL-QEMU's Debian 13 riscv64 system (scripts/build-distro.sh)
# booted twice, each time from the same disk image (-snapshot: the image is
# not changed), -M virt -cpu max -smp 4 -m 2G, with
#   TL-QEMU's kernel                   every check below
#   the same kernel without TL support the system checks, Linux's selftests
#                                      and the figures (tl-demo.service masked:
#                                      TL programs need a TL kernel)
# Checks: the login prompt; systemctl is-system-running is "running" (or
# "degraded" with only failed units that tests/distro/known-failed-units
# names and explains, none of TL-QEMU's); the TL service's result and journal;
# the TL workload from a login shell, 4 processes x 2 threads, against its C
# reference; the tile API's ML kernels against their scalar references; a
# Python program and a pipeline of Debian's tools against the same ones on
# the host; CPU hotplug while TL processes run (tl-hotplug);
# io_uring SQPOLL with TL (tl-iouring); Linux's selftests that need this
# configuration (cpu-hotplug, cgroup): each one that passes on the kernel
# without TL passes on the TL kernel (a failing run is repeated, up to six
# runs, on both kernels alike); the kernel log has no oops, WARN or
# BUG; a clean poweroff.  Prints boot-to-login and context-switch figures
# of both kernels (figures, not pass/fail).
#
# Without Debian's riscv64 packages verified now and no system built before,
# every check is skipped with the reason.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"
. "$TL_REPO/scripts/distro-lib.sh"
. "$TL_REPO/tests/tap.sh"
tap_can_skip

logdir="$BUILD_DIR/test-logs/distro"
mkdir -p "$logdir"
known="$TL_REPO/tests/distro/known-failed-units"
ksft_list=(cpu-hotplug:cpu-on-off-test:"bash ./cpu-on-off-test.sh"
           cgroup:test_core:./test_core cgroup:test_freezer:./test_freezer
           cgroup:test_kill:./test_kill cgroup:test_pids:./test_pids)
ksft_attempts=6
tl_checks=("TL kernel: login prompt" "TL kernel: ssh" "TL kernel: multi-user.target"
           "TL kernel: isa line names xtl" "TL kernel: tl-demo.service" "TL kernel: TL workload from a login shell"
           "TL kernel: ML kernels from a login shell"
           "TL kernel: Python program" "TL kernel: shell pipeline" "TL kernel: tl-hotplug" "TL kernel: tl-iouring"
           "TL kernel: kernel log clean" "TL kernel: poweroff")

rc=0
# its own copy: what make distro's users changed in theirs stays; the
# build's progress (the second stage takes minutes) shows as it runs
TL_DISTRO_IMAGE="$logdir/tl-debian.ext4" tl_keep_stderr "$logdir/build.err" \
    "$TL_REPO/scripts/build-distro.sh" >"$logdir/build.out" || rc=$?
if [ "$rc" -eq 3 ]; then
    reason=$(grep '^error: ' "$logdir/build.err" | tail -n 1)
    for c in "${tl_checks[@]}" "stock kernel: the same system"; do
        skip_case "$c" "no Debian 13 riscv64 system: ${reason#error: }"
    done
    tap_end
    exit
fi
if [ "$rc" -ne 0 ]; then
    sed 's/^/# /' "$logdir/build.err" | tail -n 20
    check 1 "the Debian system builds (scripts/build-distro.sh, exit status $rc)"
    tap_end
    exit
fi
image=$(tail -n 1 "$logdir/build.out")
tl_linux_prepare tl
tl_kernel=$TL_KERNEL
stock_kernel=$("$TL_REPO/scripts/build-linux.sh" --stock) || die "cannot build the kernel without TL support"
rc=0
ksft=$(tl_keep_stderr "$logdir/ksft-build.err" "$TL_REPO/scripts/build-kselftests.sh") || rc=$?
ksft_skip=""
if [ "$rc" -eq 3 ]; then
    ksft_skip="Linux's selftests are not built: $(grep '^error: ' "$logdir/ksft-build.err" | tail -n 1)"
elif [ "$rc" -ne 0 ]; then
    die "the selftests did not build (its errors are above)"
fi

declare -A login_s ctx_plain ctx_tl ksft_rc
trap tl_distro_kill EXIT

# guest <command line>: runs it in the guest; output in $out, status in $grc.
guest() {
    out=$(tl_distro_ssh "$port" "$*" 2>&1)
    grc=$?
}

# The failed units, each named; returns 1 when one of them is not in the
# list of explained ones or is TL-QEMU's.
failed_units_explained() {
    local label=$1 unit why ok=0
    guest 'systemctl list-units --failed --plain --no-legend | cut -d" " -f1'
    for unit in $out; do
        why=$(awk -v u="$unit" '$1 == u { $1 = ""; print substr($0, 2) }' "$known")
        if [[ "$unit" == tl-* ]] || [ -z "$why" ]; then
            echo "# $label: failed unit $unit: not explained"
            ok=1
        else
            echo "# $label: failed unit $unit: $why"
        fi
    done
    return "$ok"
}

run_selftests() {   # run_selftests <label> <kind>
    local label=$1 kind=$2 entry col name cmd st
    [ -z "$ksft_skip" ] || return 0
    tar -C "$ksft/root/kselftest" -cf - cpu-hotplug cgroup |
        tl_distro_ssh "$port" 'rm -rf /root/kselftest && mkdir -p /root/kselftest && tar -C /root/kselftest -xf -'
    check $? "$label: Linux's cpu-hotplug and cgroup selftests copied into the guest (tar over ssh)"
    # A selftest that fails is run again, up to ksft_attempts times, on
    # both kernels alike: under emulation test_freezer's ptrace case fails
    # in one run of three or four on the kernel without TL as on the TL kernel.
    # A failure that every attempt repeats is the kernel's, not timing's.
    for entry in "${ksft_list[@]}"; do
        IFS=: read -r col name cmd <<<"$entry"
        local attempt
        for ((attempt = 1; attempt <= ksft_attempts; attempt++)); do
            guest "cd /root/kselftest/$col && timeout 600 $cmd >/root/kselftest/$name.log 2>&1; echo \"exit status \$?\""
            st=$(sed -n 's/^exit status \([0-9]*\)$/\1/p' <<<"$out" | tail -n 1)
            ksft_rc[$kind:$col:$name]=${st:-"not run ($(head -n 1 <<<"$out"))"}
            echo "# $label: selftest $col:$name, attempt $attempt: exit status ${ksft_rc[$kind:$col:$name]}"
            if [ "${st:-x}" != 0 ]; then
                tl_distro_ssh "$port" "grep -E '^(not ok|ok .*SKIP|# )' /root/kselftest/$name.log | tail -n 8" | sed "s/^/#   /"
            fi
            [ "${st:-x}" != 0 ] && [ "${st:-x}" != 4 ] && [ -n "$st" ] || break
        done
    done
}

boot() {   # boot <tl|stock>
    local kind=$1 label kernel console rc
    if [ "$kind" = tl ]; then label="TL kernel" kernel=$tl_kernel
    else label="stock kernel" kernel=$stock_kernel; fi
    console="$logdir/console-$kind.log"
    port=$(tl_free_port)
    echo "# $label: booting $image (-snapshot; console in $console, ssh port $port)"
    tl_distro_start "$kind" "$kernel" "$image" "$console" "$port" -snapshot
    rc=0
    tl_distro_wait_login "$console" "${TL_DISTRO_TIMEOUT:-900}" || rc=$?
    check "$rc" "$label: the system boots to the login prompt$([ "$rc" -eq 0 ] && echo " in $TL_DISTRO_LOGIN_SECONDS s")"
    if [ "$rc" -ne 0 ]; then tail -n 20 "$console" "$console.qemu" | tr -d '\r' | sed 's/^/#   /'; tl_distro_kill; return; fi
    login_s[$kind]=$TL_DISTRO_LOGIN_SECONDS
    rc=0
    tl_distro_wait_ssh "$port" 300 || rc=$?
    check "$rc" "$label: root logs in over ssh (virtio-net, user-mode network)"
    if [ "$rc" -ne 0 ]; then tl_distro_kill; return; fi

    guest 'systemctl is-system-running --wait'
    local state=$out
    echo "# $label: systemctl is-system-running: $state"
    if [ "$state" = running ]; then check 0 "$label: multi-user.target reached, system running"
    elif [ "$state" = degraded ] && failed_units_explained "$label"; then
        check 0 "$label: multi-user.target reached, degraded only by explained units"
    else
        check 1 "$label: multi-user.target reached (is-system-running: $state)"
    fi
    guest 'uname -a; grep -m1 "^isa" /proc/cpuinfo'
    sed "s/^/# $label: /" <<<"$out"

    if [ "$kind" = tl ]; then
        grep -q '^isa.*_xtl' <<<"$out"
        check $? "$label: /proc/cpuinfo's isa line names xtl"
        guest 'systemctl show -p Result --value tl-demo.service; journalctl -b --no-pager -o cat -u tl-demo.service'
        sed "s/^/# tl-demo.service: /" <<<"$out" | tail -n 6
        [ "$(head -n 1 <<<"$out")" = success ] && grep -qx 'TL demo: PASS' <<<"$out" &&
            grep -qx 'TL demo (concurrent): PASS' <<<"$out" && grep -qE '^[1-9][0-9]* passed, 0 failed$' <<<"$out"
        check $? "$label: tl-demo.service ran at boot and its journal says PASS, alone and 4 processes x 2 threads, and the ML kernels' checks passed"
        guest 'bash -lc "/opt/tl/tl-demo --concurrent 4 2 10"'
        grep -qx 'TL demo (concurrent): PASS' <<<"$out" && [ "$grc" -eq 0 ]
        check $? "$label: the TL workload from a login shell, 4 processes x 2 threads, matches its C reference"

        guest '/opt/tl/tl-kernels-check'
        local kc
        kc=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' <<<"$out" | tail -n 1)
        [ "$grc" -eq 0 ] && [[ "$kc" == *" passed, 0 failed" ]] && [ "${kc%% *}" -gt 0 ]
        check $? "$label: the tile API's ML kernels from a login shell, each against its scalar reference ($kc)"
        local py='import hashlib, json, fractions
primes = [n for n in range(2, 20000) if all(n % d for d in range(2, int(n ** 0.5) + 1))]
h = fractions.Fraction(0)
for k in range(1, 60): h += fractions.Fraction(1, k)
doc = json.dumps({"primes": len(primes), "last": primes[-1], "h": str(h)}, sort_keys=True)
print(doc, hashlib.sha256(doc.encode()).hexdigest())'
        guest "python3 -c '$py'"
        local want
        want=$(python3 -c "$py")
        [ "$grc" -eq 0 ] && [ "$out" = "$want" ]
        check $? "$label: a Python program prints what the host's Python prints"
        [ "$out" = "$want" ] || { echo "#   guest: $out"; echo "#   host:  $want"; }
        local pipe='seq 1 200000 | awk "\$1 % 7 == 3" | sort -r | head -n 5000 | gzip -9 | xz -c | xz -dc | gzip -dc | sha256sum | cut -c1-64'
        guest "$pipe"
        want=$(bash -c "$pipe")
        [ "$grc" -eq 0 ] && [ "$out" = "$want" ] && [ ${#want} -eq 64 ]
        check $? "$label: a pipeline of Debian's tools (seq, awk, sort, head, gzip, xz, sha256sum) prints what the host's prints"

        guest '/opt/tl/tl-hotplug'
        relay "$label: tl-hotplug: " <<<"$out"
        [ "$grc" -eq 0 ] && [ "$relayed" -gt 0 ]
        check $? "$label: CPU hotplug while TL processes run: every process kept its exact TL state (exit status $grc)"
        guest '/opt/tl/tl-iouring'
        relay "$label: tl-iouring: " <<<"$out"
        [ "$grc" -eq 0 ] && [ "$relayed" -gt 0 ]
        check $? "$label: io_uring (SQPOLL) with TL state (exit status $grc)"
    fi

    run_selftests "$label" "$kind"
    # the median of 5 runs: systemd's own activity shows in single runs
    guest 'for i in 1 2 3 4 5; do /opt/tl/ctxswitch-bench 2000; done'
    ctx_plain[$kind]=$(sed -n 's/^ctxswitch plain: *\([0-9.]*\) ns.*/\1/p' <<<"$out" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
    ctx_tl[$kind]=$(sed -n 's/^ctxswitch tl: *\([0-9.]*\) ns.*/\1/p' <<<"$out" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
    guest 'dmesg'
    printf '%s\n' "$out" >"$logdir/dmesg-$kind.log"
    ! grep -qE 'Kernel panic|Oops|BUG:|Unable to handle kernel|WARNING:|hung_task|soft lockup|Call Trace' <<<"$out"
    check $? "$label: the kernel log has no oops, WARN or BUG (dmesg in $logdir/dmesg-$kind.log)"
    rc=0
    tl_distro_poweroff "$port" 300 || rc=$?
    [ "$rc" -eq 0 ] && grep -aq 'reboot: Power down' "$console"
    check $? "$label: systemctl poweroff ends QEMU cleanly (exit status $rc)"
}

boot tl
boot stock

if [ -z "$ksft_skip" ]; then
    for entry in "${ksft_list[@]}"; do
        IFS=: read -r col name _ <<<"$entry"
        s=${ksft_rc[stock:$col:$name]:-not run} t=${ksft_rc[tl:$col:$name]:-not run}
        if [ "$s" = 0 ]; then
            [ "$t" = 0 ]
            check $? "selftest $col:$name passes on the TL kernel as on the kernel without TL (exit status $t)"
        elif [[ "$s" != [0-9]* ]] || [[ "$t" != [0-9]* ]]; then
            check 1 "selftest $col:$name ran on both kernels (without TL: $s; TL: $t)"
        else
            skip_case "selftest $col:$name" "does not pass on the kernel without TL either (exit status $s there$([ "$s" = 4 ] && echo ": kselftest's skip"), $t on the TL kernel)"
        fi
    done
else
    for entry in "${ksft_list[@]}"; do
        IFS=: read -r col name _ <<<"$entry"
        skip_case "selftest $col:$name" "$ksft_skip"
    done
fi

echo "# figures (not pass/fail), -smp 4 -m 2G, this machine; context switch: ctxswitch-bench, median of 5 runs:"
printf '#   %-28s %14s %14s\n' "" "TL kernel" "without TL"
printf '#   %-28s %14s %14s\n' "boot to login prompt (s)" "${login_s[tl]:-?}" "${login_s[stock]:-?}"
printf '#   %-28s %14s %14s\n' "context switch, plain (ns)" "${ctx_plain[tl]:-?}" "${ctx_plain[stock]:-?}"
printf '#   %-28s %14s %14s\n' "context switch, TL live (ns)" "${ctx_tl[tl]:-?}" "${ctx_tl[stock]:--}"
tap_end
