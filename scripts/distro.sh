#!/usr/bin/env bash
# make distro: boots TL-QEMU's Debian 13 riscv64 system (built by
# scripts/build-distro.sh on first use) on qemu-system-riscv64 -M virt
# -cpu max -smp 4 -m 2G with TL-QEMU's kernel and OpenSBI, virtio disk,
# user-mode network with ssh on 127.0.0.1:$TL_DISTRO_SSH_PORT (10022).
#
#   scripts/distro.sh            on a terminal: the guest's console (log in
#                                as root, password tl); without a terminal:
#                                boots to the login prompt, shows the system
#                                over ssh, powers it off
#   scripts/distro.sh --stock    the same system on the kernel built from the
#                                same configuration without TL support (the
#                                TL service masked: it needs a TL kernel)
#
# The disk is build/distro/tl-debian.ext4: what is changed in the guest
# stays (make distro again rebuilds it only when it is missing).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
. "$TL_REPO/scripts/linux-lib.sh"
. "$TL_REPO/scripts/distro-lib.sh"

flavour=tl
case "${1:-}" in
    --stock) flavour=stock ;;
    "") ;;
    *) die "usage: scripts/distro.sh [--stock]" ;;
esac
tl_steps_begin
tl_timed "Debian packages the build needs (make deps)" "$TL_REPO/scripts/install-deps.sh"
need_tool ssh openssh-client
"$TL_REPO/scripts/build-qemu.sh"

t0=$SECONDS
rc=0
image="$BUILD_DIR/distro/tl-debian.ext4"
if [ ! -f "$image" ]; then
    "$TL_REPO/scripts/build-distro.sh" >/dev/null || rc=$?
    [ "$rc" -ne 3 ] || die "no Debian system to boot: its packages cannot be had verified now and none was built before; try again when the mirror is in sync (DEBIAN_MIRROR picks another)"
    [ "$rc" -eq 0 ] || exit "$rc"
fi
tl_linux_prepare tl
kernel=$TL_KERNEL
if [ "$flavour" = stock ]; then
    kernel=$("$TL_REPO/scripts/build-linux.sh" --stock)
fi
log "ready in $((SECONDS - t0)) s: $image"

port=${TL_DISTRO_SSH_PORT:-10022}
if ! python3 -c 'import socket,sys; s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1])))' "$port" 2>/dev/null; then
    die "port $port on 127.0.0.1 is in use (another make distro?); choose another with TL_DISTRO_SSH_PORT=N"
fi

cat <<EOF
[tl-qemu] Debian 13 riscv64 on TL-QEMU ($([ "$flavour" = tl ] && echo "TL kernel" || echo "kernel without TL support")), -smp 4 -m 2G
[tl-qemu]   console login: root, password tl
[tl-qemu]   ssh:           ssh -p $port -i $TL_DISTRO_KEY root@127.0.0.1   (password tl works too)
[tl-qemu]   try:           systemctl status tl-demo; /opt/tl/tl-demo --concurrent 4 2 10;
[tl-qemu]                  grep -m1 isa /proc/cpuinfo; /opt/tl/tl-hotplug; apt list --installed
[tl-qemu]   leave:         poweroff (or Ctrl-A x, which loses unsynced writes)
EOF

if [ -t 0 ] && [ -t 1 ]; then
    tl_distro_qemu_cmd "$flavour" "$kernel" "$image" "$port" -nographic
    tl_steps_table "make distro (until the console)"
    exec "${TL_DISTRO_CMD[@]}"
fi

# Without a terminal: boot to the login prompt, look around, power off.
console="$BUILD_DIR/distro/console-$flavour.log"
trap tl_distro_kill EXIT
tl_distro_start "$flavour" "$kernel" "$image" "$console" "$port"
log "booting (console in $console)"
rc=0
tl_distro_wait_login "$console" "${TL_DISTRO_TIMEOUT:-900}" || rc=$?
if [ "$rc" -ne 0 ]; then
    tail -n 20 "$console" "$console.qemu" | tr -d '\r' >&2
    die "no login prompt ($([ "$rc" -eq 124 ] && echo "timed out" || echo "QEMU ended")); console in $console"
fi
grep -a -m1 ' login: ' "$console" | tr -d '\r' || true
log "login prompt after $TL_DISTRO_LOGIN_SECONDS s"
tl_distro_wait_ssh "$port" 300 || die "sshd in the guest does not answer on port $port"
tl_distro_ssh "$port" 'set -x; uname -a; grep -m1 "^isa" /proc/cpuinfo; systemctl is-system-running --wait;
    systemctl --no-pager status tl-demo.service | head -n 4; journalctl -b --no-pager -u tl-demo.service | tail -n 4' 2>&1 |
    sed 's/^/[guest] /'
log "powering off"
rc=0
tl_distro_poweroff "$port" 300 || rc=$?
trap - EXIT
[ "$rc" -eq 0 ] || die "QEMU's exit status after poweroff was $rc"
tl_step_done "booting to the login prompt" "${TL_DISTRO_LOGIN_SECONDS%.*}"
tl_steps_table "make distro"
log "done: boot to login $TL_DISTRO_LOGIN_SECONDS s; make distro on a terminal gives the console"
