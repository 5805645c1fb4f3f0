# Booting TL-QEMU's Debian system (scripts/build-distro.sh): used by
# scripts/distro.sh (make distro) and tests/distro/run.sh.  Sourced after
# scripts/lib.sh and scripts/linux-lib.sh.
# shellcheck shell=bash

TL_DISTRO_KEY="$CACHE_DIR/distro/ssh/id_ed25519"

# tl_distro_qemu_cmd <tl|stock> <kernel> <image> <ssh port> [extra QEMU args...]:
# the command line (TL_DISTRO_CMD) of a distribution machine: 4 harts,
# 2 GiB, virtio-blk root disk, user-mode network with the guest's port 22 on
# the host's 127.0.0.1:<ssh port>, virtio-rng, the TL OpenSBI.  On the
# kernel without TL support (stock) the TL service is masked: its programs
# need a TL kernel.
tl_distro_qemu_cmd() {
    local kind=$1 kernel=$2 image=$3 port=$4 append="root=/dev/vda rw console=ttyS0"
    shift 4
    [ "$kind" = tl ] || append+=" systemd.mask=tl-demo.service"
    TL_DISTRO_CMD=("$BUILD_DIR/qemu/qemu-system-riscv64"
        -M virt -cpu max -smp 4 -m 2G
        -bios "$TL_OPENSBI" -kernel "$kernel" -append "$append"
        -drive "file=$image,format=raw,if=none,id=disk0" -device virtio-blk-pci,drive=disk0
        -netdev "user,id=net0,hostfwd=tcp:127.0.0.1:$port-:22" -device virtio-net-pci,netdev=net0,romfile=
        -device virtio-rng-pci "$@")
}

# tl_distro_ssh <port> <command...>: runs a shell command line as root in
# the guest; its status is the command's (255: ssh itself failed).
tl_distro_ssh() {
    local port=$1
    shift
    ssh -q -p "$port" -i "$TL_DISTRO_KEY" -o BatchMode=yes -o StrictHostKeyChecking=no \
        -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=20 \
        -o ServerAliveInterval=15 -o ServerAliveCountMax=8 root@127.0.0.1 "$*"
}

# tl_distro_start <tl|stock> <kernel> <image> <console log> <port> [extra QEMU args...]:
# starts the machine in the background (TL_DISTRO_PID), the serial console
# as it comes (CRs too: the login prompt ends no line) into <console log>,
# QEMU's own messages into <console log>.qemu; TL_DISTRO_T0 is the start time.
tl_distro_start() {
    local kind=$1 kernel=$2 image=$3 log=$4 port=$5
    shift 5
    tl_distro_qemu_cmd "$kind" "$kernel" "$image" "$port" -display none -monitor none -serial "file:$log" "$@"
    : >"$log"
    TL_DISTRO_T0=$(date +%s.%N)
    "${TL_DISTRO_CMD[@]}" </dev/null >"$log.qemu" 2>&1 &
    TL_DISTRO_PID=$!
}

# tl_distro_wait_login <console log> <timeout s>: waits for the console's
# login prompt; TL_DISTRO_LOGIN_SECONDS is the time from QEMU's start.
# Returns 1 when QEMU ended first, 124 on timeout.
tl_distro_wait_login() {
    local log=$1 limit=$2 now
    while :; do
        if grep -aq " login: " "$log" 2>/dev/null; then
            now=$(date +%s.%N)
            TL_DISTRO_LOGIN_SECONDS=$(awk -v a="$TL_DISTRO_T0" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
            return 0
        fi
        kill -0 "$TL_DISTRO_PID" 2>/dev/null || return 1
        now=$(date +%s.%N)
        if awk -v a="$TL_DISTRO_T0" -v b="$now" -v l="$limit" 'BEGIN { exit !(b - a > l) }'; then
            return 124
        fi
        sleep 1
    done
}

# tl_distro_wait_ssh <port> <timeout s>: until sshd answers.
tl_distro_wait_ssh() {
    local port=$1 limit=$2 t0=$SECONDS
    until tl_distro_ssh "$port" true 2>/dev/null; do
        kill -0 "$TL_DISTRO_PID" 2>/dev/null || return 1
        [ $((SECONDS - t0)) -lt "$limit" ] || return 124
        sleep 2
    done
}

# tl_distro_poweroff <port> <timeout s>: systemctl poweroff in the guest and
# waits for QEMU to end; returns QEMU's exit status (124: it did not end;
# then it is killed).
tl_distro_poweroff() {
    local port=$1 limit=$2 t0=$SECONDS
    tl_distro_ssh "$port" 'systemctl poweroff' >/dev/null 2>&1 || true
    while kill -0 "$TL_DISTRO_PID" 2>/dev/null; do
        if [ $((SECONDS - t0)) -ge "$limit" ]; then
            tl_distro_kill
            return 124
        fi
        sleep 1
    done
    wait "$TL_DISTRO_PID"
}

# tl_distro_kill: ends the machine (after a failure).
tl_distro_kill() {
    [ -n "${TL_DISTRO_PID:-}" ] || return 0
    kill "$TL_DISTRO_PID" 2>/dev/null || true
    wait "$TL_DISTRO_PID" 2>/dev/null || true
    TL_DISTRO_PID=
}
