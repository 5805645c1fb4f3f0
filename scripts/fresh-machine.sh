#!/usr/bin/env bash
# Runs the README's commands as a new user would: in a fresh Debian 12
# minbase system (debootstrap --variant=minbase bookworm, then only git,
# make and ca-certificates), a clone of this repository's HEAD, then
# `make demo` and/or `make check` inside it, with their wall times.
# Needs root (debootstrap, chroot, bind mounts).  Nothing of the machine's
# own caches is shared with the chroot: its downloads and builds start empty.
#
#   scripts/fresh-machine.sh DIR [demo] [check] [-- shell command]
#     DIR      where the chroot goes (created; reused when it exists, with
#              its caches and the clone's build/: delete DIR for a fresh run)
#     demo, check   the make targets to run, in order (default: demo check)
#     -- CMD   instead, run CMD in the chroot's clone (e.g. '-- make check-parity')
# Logs: DIR/root/fresh-<target>.log; the summary is printed at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: scripts/fresh-machine.sh DIR [demo] [check] [-- CMD]"
[ "$(id -u)" -eq 0 ] || die "scripts/fresh-machine.sh needs root (debootstrap and chroot)"
dir=$1; shift
targets=() cmd=
while [ $# -gt 0 ]; do
    case "$1" in
        demo|check) targets+=("$1") ;;
        --) shift; cmd="$*"; break ;;
        *) die "unknown argument '$1' (demo, check, or -- CMD)" ;;
    esac
    shift
done
[ ${#targets[@]} -gt 0 ] || [ -n "$cmd" ] || targets=(demo check)
need_tool debootstrap debootstrap
mirror=$(debian_mirror)

if [ ! -f "$dir/.tl-fresh" ]; then
    log "debootstrap --variant=minbase bookworm into $dir"
    rm -rf "$dir" && mkdir -p "$dir"
    debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 ||
        die "debootstrap failed (see $dir.debootstrap.log)"
    touch "$dir/.tl-fresh"
fi

mounts=()
cleanup() {
    local m
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc sys dev dev/pts; do
    mkdir -p "$dir/$m"
    mount --bind "/$m" "$dir/$m"
    mounts+=("$dir/$m")
done
cp /etc/resolv.conf "$dir/etc/resolv.conf"

in_chroot() { chroot "$dir" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "$1"; }

if [ ! -x "$dir/usr/bin/git" ] || [ ! -x "$dir/usr/bin/make" ]; then
    log "installing git, make and ca-certificates in the chroot"
    in_chroot 'apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends git make ca-certificates' \
        >"$dir.apt.log" 2>&1 || die "apt-get in the chroot failed (see $dir.apt.log)"
fi
# A clone made by an earlier run is moved to this HEAD, keeping its build/
# (delete DIR/root/tl-qemu for a build from nothing; the caches are in DIR/root/.cache).
if [ -d "$dir/root/tl-qemu/.git" ]; then
    git -C "$dir/root/tl-qemu" fetch -q "$TL_REPO" HEAD
    git -C "$dir/root/tl-qemu" reset -q --hard FETCH_HEAD
    log "moved $dir/root/tl-qemu to $(git -C "$TL_REPO" rev-parse --short HEAD) (its build/ kept)"
else
    git clone -q "$TL_REPO" "$dir/root/tl-qemu"
    log "cloned $(git -C "$TL_REPO" rev-parse --short HEAD) into $dir/root/tl-qemu"
fi

if [ -n "$cmd" ]; then
    in_chroot "cd /root/tl-qemu && $cmd"
    exit
fi
results=()
rc=0
for t in "${targets[@]}"; do
    log "make $t in the chroot (log: $dir/root/fresh-$t.log)"
    start=$(date +%s)
    r=0
    in_chroot "cd /root/tl-qemu && make $t" >"$dir/root/fresh-$t.log" 2>&1 || r=$?
    secs=$(($(date +%s) - start))
    results+=("$(printf 'make %-6s exit %d, %dm%02ds: %s' "$t" "$r" $((secs / 60)) $((secs % 60)) \
        "$(grep -E '^(check|demo): ' "$dir/root/fresh-$t.log" | tail -n 1)")")
    [ "$r" -eq 0 ] || rc=1
done
printf '%s\n' "${results[@]}"
exit "$rc"
