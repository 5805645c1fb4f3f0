#!/usr/bin/env bash
# Installs the Debian 12 packages TL-QEMU needs to build and test.  Only
# missing packages are installed; nothing is installed from outside Debian.
#   install-deps.sh          build and test (make deps, make check, make demo)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

packages=(
    # QEMU build
    build-essential git python3 python3-venv ninja-build pkg-config
    libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev libslirp-dev
    flex bison ccache dpkg-dev xz-utils debian-archive-keyring curl
    # host unit tests and the reference model
    googletest libgtest-dev python3-numpy
    # riscv64 Linux user-mode test programs
    gcc-riscv64-linux-gnu g++-riscv64-linux-gnu libc6-dev-riscv64-cross
    # qemu-system-riscv64 checks: device trees, bare-metal firmware, OpenSBI,
    # gdb against the gdbstub, initramfs for the Linux demo
    device-tree-compiler gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
    opensbi gdb-multiarch cpio ipxe-qemu
    # the TL Linux kernel
    bc
    # the firmware regression kit's tests: CI configurations, JUnit schema
    yamllint python3-lxml python3-yaml
    # tlstat's JSON reports checked against plugins/tlstat/tlstat.schema.json
    python3-jsonschema
    # the parity group: Debian's riscv64 glibc run as programs and as the
    # sysroot of its C programs; dash and GNU tools give the expected output
    libc6-riscv64-cross dash
    # process tools the runner's tests use (pgrep), and gpg for the signed
    # test mirror of the scripts group (tests/host/fake_mirror.py)
    procps gnupg
    # Linux's selftests (rsync in their install), the Debian system of the
    # distro group (debootstrap, mke2fs and debugfs, ssh into the guest)
    rsync debootstrap e2fsprogs openssh-client
    # make deb and the install group: lintian checks the packages
    lintian
    # gdb with xtl: target descriptions (expat), GMP and MPFR, Python commands
    libexpat1-dev libgmp-dev libmpfr-dev python3-dev
    # binutils' own test suites (asm group)
    dejagnu
    # QEMU's cdrom-test (qtest group) makes its ISO image with xorrisofs
    xorriso
    # the TL headers built by clang (api group); make bench's RVV baselines
    clang-16
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    log "all ${#packages[@]} build and test packages are installed"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}); run 'make deps' as root or: sudo apt-get install ${missing[*]}"
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >/dev/null || die "apt-get update failed; check the machine's network and /etc/apt sources"
apt-get -q install -y --no-install-recommends "${missing[@]}" ||
    die "apt-get install failed for: ${missing[*]}"
