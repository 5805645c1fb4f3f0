#!/usr/bin/env bash
# Builds a Debian 13 (trixie) riscv64 system with TL-QEMU itself and prints
# the path of its disk image (raw ext4, $BUILD_DIR/distro/tl-debian.ext4, or
# TL_DISTRO_IMAGE).
#
#  1. debootstrap --foreign on the host: Debian's riscv64 packages, verified
#     against the signed Release file with the keyring of the private apt
#     configuration (DEBIAN_MIRROR, DEBIAN_KEYRING; scripts/lib.sh), cached
#     in $CACHE_DIR/distro-debs.
#  2. The second stage inside qemu-system-riscv64 -M virt -cpu max -smp 4
#     running TL-QEMU's kernel and OpenSBI: every package's maintainer
#     scripts run on TL-QEMU.  The root filesystem is an ext4 image made
#     without mounting anything (mke2fs -d).
#  3. The finished system is cached ($CACHE_DIR/distro/base-*.ext4); each
#     build copies it and writes TL-QEMU's programs, their systemd unit and
#     the test key into the copy with debugfs (no mount either).
#
# The system: systemd with udev, dbus, systemd-networkd (DHCP on the
# virtio NIC), openssh-server, python3 and the usual tools; root's password
# is "tl" and the ssh key of $CACHE_DIR/distro/ssh/id_ed25519 may log in.
# /opt/tl holds the TL programs; tl-demo.service runs the TL pipeline and the
# tile API's ML kernels at boot.
#
# Exit status 3, with one "error:" line, when Debian's riscv64 packages
# cannot be had verified (mirror mid-sync or unreachable) and no system
# was built before: callers skip what needs it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
tl_build_lock "$0" "$@"
. "$TL_REPO/scripts/linux-lib.sh"
need_tool debootstrap debootstrap
need_tool mke2fs e2fsprogs
need_tool debugfs e2fsprogs
need_tool ssh-keygen openssh-client

packages=(systemd systemd-sysv udev dbus libpam-systemd openssh-server python3 iproute2 procps
          less kmod xz-utils)
suite=trixie
size=4G
out="$BUILD_DIR/distro"
cache="$CACHE_DIR/distro"
mkdir -p "$out" "$cache" "$CACHE_DIR/distro-debs"

# The test key: made once, kept with the cached system.
if [ ! -f "$cache/ssh/id_ed25519" ]; then
    mkdir -p "$cache/ssh"
    ssh-keygen -q -t ed25519 -N '' -C tl-qemu-distro -f "$cache/ssh/id_ed25519"
fi

want=$( { echo "$suite $size"; printf '%s\n' "${packages[@]}"; cat "$TL_REPO/tests/distro/second-stage"; } |
        sha256sum | cut -c1-16)
base="$cache/base-$want.ext4"

build_base() {
    local root="$out/rootfs" mirror keyring log="$out/second-stage.log" t0 rc
    mirror=$(debian_mirror)
    keyring=$(debian_keyring)
    local s0=$SECONDS t_kernel t_first t_image t_second
    tl_linux_prepare tl
    t_kernel=$((SECONDS - s0))
    log "debootstrap (first stage) of Debian $suite riscv64 into $root"
    rm -rf "$root" && mkdir -p "$root"
    t0=$(date +%s)
    if ! debootstrap --foreign --arch=riscv64 --variant=minbase --keyring="$keyring" \
            --cache-dir="$CACHE_DIR/distro-debs" --include="$(IFS=,; echo "${packages[*]}")" \
            "$suite" "$root" "$mirror" >"$out/debootstrap.log" 2>&1; then
        grep -E '^(E|W):' "$out/debootstrap.log" | tail -n 3 >&2
        echo "error: debootstrap of Debian $suite riscv64 from $mirror failed (see $out/debootstrap.log); the mirror may be mid-sync or unreachable" >&2
        exit 3
    fi
    t_first=$(( $(date +%s) - t0 ))
    log "first stage done in $t_first s"
    tl_step_done "debootstrap of Debian $suite riscv64 (first stage)" "$t_first"
    # debootstrap's first stage may leave /proc and /sys as links to the
    # host's (its chroot-less setup); the guest needs mount points.
    local d
    for d in proc sys; do
        if [ -L "$root/$d" ] || [ ! -d "$root/$d" ]; then
            rm -f "$root/$d" && mkdir -m 0555 "$root/$d"
        fi
    done
    # The second stage resolves pre-dependencies with several perl passes
    # over the suite's whole Packages index (54 MB), under emulation: more
    # than half of its time.  It only ever installs what the first stage
    # downloaded (debootstrap/debpaths), so it gets an index of just those
    # packages; the full index goes back into the finished system.
    local index full_index="$out/Packages.full"
    index=$(find "$root/var/lib/apt/lists" -maxdepth 1 -name '*_Packages' -print -quit)
    [ -n "$index" ] || die "debootstrap left no Packages index in $root/var/lib/apt/lists (see $out/debootstrap.log)"
    mv "$index" "$full_index"
    if ! python3 - "$full_index" "$root/debootstrap/debpaths" "$index" <<'PY'
import sys
full, debpaths, cut = sys.argv[1:]
wanted = {line.split()[0] for line in open(debpaths) if line.strip()}
with open(full, encoding="utf-8", errors="surrogateescape") as f:
    stanzas = f.read().split("\n\n")
kept = [s for s in stanzas if s.startswith("Package: ") and s.split("\n", 1)[0][9:].strip() in wanted]
if sorted(s.split("\n", 1)[0][9:].strip() for s in kept) != sorted(wanted):
    sys.exit("the index does not hold each downloaded package once")
with open(cut, "w", encoding="utf-8", errors="surrogateescape") as f:
    f.write("\n\n".join(kept) + "\n\n")
PY
    then
        log "keeping the whole Packages index for the second stage (it could not be cut down): slower"
        mv "$full_index" "$index"
        full_index=""
    fi
    install -m 0755 "$TL_REPO/tests/distro/second-stage" "$root/tl-second-stage"
    mkdir -p "$root/tl-tools" && install -m 0755 "$TL_BUSYBOX" "$root/tl-tools/busybox"
    mkdir -p "$root/root/.ssh" && chmod 700 "$root/root/.ssh"
    install -m 0600 "$cache/ssh/id_ed25519.pub" "$root/root/.ssh/authorized_keys"
    log "making the ext4 image ($size, sparse) with mke2fs -d"
    t0=$SECONDS
    rm -f "$out/base.ext4"
    mke2fs -q -t ext4 -L tl-debian -d "$root" "$out/base.ext4" "$size" >"$out/mke2fs.log" 2>&1 ||
        die "mke2fs failed (see $out/mke2fs.log)"
    rm -rf "$root"
    t_image=$((SECONDS - t0))
    log "second stage inside qemu-system-riscv64 -cpu max -smp 4 on TL-QEMU's kernel (the packages' own scripts run on TL-QEMU)"
    t0=$(date +%s)
    ( "$BUILD_DIR/qemu/qemu-system-riscv64" -M virt -cpu max -smp 4 -m 2G -nographic -no-reboot -nic none \
        -bios "$TL_OPENSBI" -kernel "$TL_KERNEL" \
        -append "root=/dev/vda rw console=ttyS0 panic=-1 init=/tl-second-stage" \
        -drive "file=$out/base.ext4,format=raw,if=none,id=hd0" -device virtio-blk-device,drive=hd0 \
        -device virtio-rng-device </dev/null 2>&1 | sed -u 's/\r//g' >"$log" ) &
    local qpid=$! last=""
    # shellcheck disable=SC2064
    trap "pkill -P $qpid 2>/dev/null; kill $qpid 2>/dev/null" EXIT
    while kill -0 "$qpid" 2>/dev/null; do
        sleep 10
        last=$(grep -E '^(I: |tl-second-stage: )' "$log" | tail -n 1 || true)
        log "second stage: $(( $(date +%s) - t0 )) s, ${last:-booting}"
        if [ $(( $(date +%s) - t0 )) -gt "${TL_DISTRO_TIMEOUT:-5400}" ]; then
            pkill -P "$qpid" 2>/dev/null || true
            die "the second stage did not finish within ${TL_DISTRO_TIMEOUT:-5400} s (see $log)"
        fi
    done
    wait "$qpid" || true
    trap - EXIT
    grep -q '^tl-second-stage: done' "$log" ||
        die "the second stage failed (see $log: $(grep -E '^(E:|tl-second-stage:)' "$log" | tail -n 1))"
    t_second=$(( $(date +%s) - t0 ))
    log "second stage done in $t_second s"
    tl_step_done "Debian's second stage on TL-QEMU" "$t_second"
    # A clean file system in the cache: e2fsck replays what the journal
    # still holds (exit status 1: it corrected something, fine).
    rc=0
    e2fsck -fp "$out/base.ext4" >"$out/e2fsck.log" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || die "the finished system's file system has errors (e2fsck exit status $rc, see $out/e2fsck.log)"
    if [ -n "$full_index" ]; then
        index=${index#"$root"}
        printf 'rm %s\ncd %s\nwrite %s %s\n' "$index" "${index%/*}" "$full_index" "${index##*/}" |
            debugfs -w -f - "$out/base.ext4" >"$out/debugfs-index.log" 2>&1 ||
            die "debugfs could not put the full Packages index back (see $out/debugfs-index.log)"
        ! grep -qiE 'error|not found|could not' "$out/debugfs-index.log" ||
            die "debugfs reported an error putting the full Packages index back (see $out/debugfs-index.log)"
        rm -f "$full_index"
    fi
    mv "$out/base.ext4" "$base"
    log "the system is built: kernel and OpenSBI ${t_kernel} s, first stage ${t_first} s, ext4 image ${t_image} s, second stage ${t_second} s (cached as $base)"
}

if [ ! -f "$base" ]; then
    build_base
fi

# This build's copy, with TL-QEMU's programs: the guest programs of the
# initramfs and the tile API's ML kernels with their checks against scalar
# references (tests/api/test_kernels.cpp).
tl_linux_prepare tl
tl_build_initramfs >/dev/null
need_tool riscv64-linux-gnu-g++ g++-riscv64-linux-gnu
if [ -n "$(find "$TL_REPO/include/tl" "$TL_REPO/kernels" "$TL_REPO/tests/api" -newer "$out/tl-kernels-check" \
           -print -quit 2>/dev/null)" ] || [ ! -x "$out/tl-kernels-check" ]; then
    riscv64-linux-gnu-g++ -std=c++17 -O2 -static -Wall -Wextra -Werror -I"$TL_REPO/include" \
        -I"$TL_REPO/kernels" -I"$TL_REPO/tests/api" "$TL_REPO/tests/api/test_kernels.cpp" \
        -o "$out/tl-kernels-check" >"$out/tl-kernels-check.log" 2>&1 ||
        die "cannot build tests/api/test_kernels.cpp for riscv64 (see $out/tl-kernels-check.log)"
fi
img=${TL_DISTRO_IMAGE:-$out/tl-debian.ext4}
cp --sparse=always "$base" "$img.tmp"
{
    echo "rm /tl-second-stage"
    echo "rm /tl-tools/busybox"
    echo "rmdir /tl-tools"
    echo "mkdir /opt/tl"
    # debugfs's write names a file of the current directory
    echo "cd /opt/tl"
    for entry in "${TL_GUEST_PROGS[@]}"; do
        echo "write $TL_DEMO_DIR/bin/${entry%%=*} ${entry%%=*}"
        echo "sif /opt/tl/${entry%%=*} mode 0100755"
    done
    echo "write $out/tl-kernels-check tl-kernels-check"
    echo "sif /opt/tl/tl-kernels-check mode 0100755"
    echo "cd /etc/systemd/system"
    echo "write $TL_REPO/tests/distro/tl-demo.service tl-demo.service"
    echo "sif /etc/systemd/system/tl-demo.service mode 0100644"
    echo "cd /etc/systemd/system/multi-user.target.wants"
    echo "symlink tl-demo.service /etc/systemd/system/tl-demo.service"
} >"$out/debugfs.cmds"
debugfs -w -f "$out/debugfs.cmds" "$img.tmp" >"$out/debugfs.log" 2>&1 ||
    die "debugfs could not write TL-QEMU's programs into the image (see $out/debugfs.log)"
! grep -qiE 'error|not found|could not' "$out/debugfs.log" ||
    die "debugfs reported an error writing into the image (see $out/debugfs.log)"
mv "$img.tmp" "$img"
printf '%s\n' "$img"
