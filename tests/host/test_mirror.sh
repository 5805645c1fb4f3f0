#!/usr/bin/env bash
# The private apt trees (scripts/lib.sh) against a Debian mirror this test
# makes itself (tests/host/fake_mirror.py: signed with a throw-away key,
# served over HTTP on 127.0.0.1), so that no case depends on the real
# mirror: packages and source versions that do not exist, a mirror caught
# in the middle of a sync with and without verified lists in the cache, an
# unreachable mirror, cached .debs reused only when their SHA-256 matches.
# Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
repo=$TL_REPO
. "$repo/tests/tap.sh"
need_tool gpg gnupg
need_tool dpkg-deb dpkg
tmp=$(mktemp -d)
server=
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# The steps under test take the build lock of BUILD_DIR (tl_build_lock): a
# scratch one, so that they never wait for a build of the real tree beside them.
export BUILD_DIR="$tmp/build"

/usr/bin/python3 "$repo/tests/host/fake_mirror.py" build "$tmp/www" "$tmp/gnupg" ||
    die "tests/host/fake_mirror.py could not build the test mirror"
/usr/bin/python3 "$repo/tests/host/fake_mirror.py" serve "$tmp/www" "$tmp/port" &
server=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || die "the test mirror's HTTP server did not start"
mirror="http://127.0.0.1:$(cat "$tmp/port")/debian"
# no waiting: no pause between sync retries, no apt retries of a refused connection
export DEBIAN_MIRROR=$mirror DEBIAN_KEYRING=$tmp/www/keyring.gpg RV_SUITES=trixie TL_APT_RETRY_DELAY=0 TL_APT_RETRIES=0

# expect_error <description> <regex> <command...>: exit status non-zero and
# exactly one "error:" line, matching the regex.
expect_error() {
    local what=$1 pattern=$2 err rc errors
    shift 2
    err=$("$@" 2>&1 >/dev/null); rc=$?
    errors=$(printf '%s\n' "$err" | grep -c '^error: ')
    if [ "$rc" -ne 0 ] && [ "$errors" -eq 1 ] && printf '%s\n' "$err" | grep -Eq "^error: .*($pattern)"; then
        check 0 "$what: $(printf '%s\n' "$err" | grep '^error: ')"
    else
        check 1 "$what (exit $rc, $errors error lines)"
        printf '%s\n' "$err" | sed 's/^/#   /' | head -n 20
    fi
}
# expect_output <description> <regex the stdout must match> <command...>: exit 0.
expect_output() {
    local what=$1 pattern=$2 out rc
    shift 2
    out=$("$@" 2>"$tmp/stderr"); rc=$?
    if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -Eq "$pattern"; then
        check 0 "$what: $(printf '%s\n' "$out" | tail -n 1)"
    else
        check 1 "$what (exit $rc): $out"
        show "$tmp/stderr"
    fi
}
# in_cache <cache> <shell code>: runs the code with scripts/lib.sh loaded and CACHE_DIR=<cache>.
in_cache() {
    CACHE_DIR=$1 bash -c '. "$1/scripts/lib.sh"; eval "$2"' _ "$repo" "$2"
}
# age <cache>: the lists of every state of its trees were verified two days ago.
age() {
    local v
    for v in "$1"/apt*/state/*/verified; do touch -d '2 days ago' "$v"; done
}

c1=$tmp/cache1
expect_error "a kernel package that does not exist" \
    "the kernel package 'linux-image-0.0.0-none-riscv64' is not in Debian trixie \(riscv64\)" \
    env CACHE_DIR="$c1" TL_KERNEL_PACKAGE=linux-image-0.0.0-none-riscv64 "$repo/scripts/fetch-linux.sh"
expect_output "the kernel of the mirror's linux-image-riscv64, downloaded and checked against the signed index" \
    'linux-riscv64/kernel/boot/vmlinux-6.0.0-fake$' \
    env CACHE_DIR="$c1" "$repo/scripts/fetch-linux.sh"
expect_error "a Linux source package version that does not exist" "Sources index has no linux 0.0.0-1" \
    env CACHE_DIR="$c1" TL_LINUX_SOURCE_VERSION=0.0.0-1 "$repo/scripts/build-linux.sh"
expect_output "a .deb is downloaded into the cache" 'linux-image-6.0.0-fake-riscv64_6.0.0-1_riscv64.deb$' \
    in_cache "$c1" 'rv_apt_update && rv_download linux-image-6.0.0-fake-riscv64 "$CACHE_DIR/debs"'

# The mirror in the middle of a sync: its riscv64 index no longer matches
# the signed Release file.
/usr/bin/python3 "$repo/tests/host/fake_mirror.py" break "$tmp/www" trixie "$tmp/gnupg"
expect_error "mirror mid-sync, nothing verified in the cache" \
    "mirror sync in progress.*no verified copy is cached" \
    env CACHE_DIR="$tmp/cache2" TL_KERNEL_PACKAGE=linux-image-6.0.0-fake-riscv64 "$repo/scripts/fetch-linux.sh"
age "$c1"
expect_output "mirror mid-sync, lists verified two days ago in the cache: they are used" \
    '^trixie$' in_cache "$c1" 'rv_apt_update 2>'"$tmp/fallback.log"' && rv_suite'
grep -q 'mirror sync in progress.*using the package lists verified on' "$tmp/fallback.log"
check $? "... and the fallback is said in one line: $(grep 'using the package lists' "$tmp/fallback.log")"
expect_error "mirror mid-sync, cached lists: a package that does not exist is still named as such" \
    "the riscv64 package 'linux-image-0.0.0-none-riscv64' is not in Debian trixie" \
    in_cache "$c1" 'rv_apt_update && rv_download linux-image-0.0.0-none-riscv64 "$CACHE_DIR/debs"'
[ -d "$c1/apt-riscv64/current/lists" ] && ! grep -rqs '^Package: newer' "$c1/apt-riscv64/current/lists"
check $? "the failed update left the verified lists as they were"

# The mirror unreachable.
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=
age "$c1"
expect_output "mirror unreachable, .deb in the cache with the index's SHA-256: used without a download" \
    'linux-image-6.0.0-fake-riscv64_6.0.0-1_riscv64.deb$' \
    in_cache "$c1" 'rv_apt_update && rv_download linux-image-6.0.0-fake-riscv64 "$CACHE_DIR/debs"'
deb=$(ls "$c1"/debs/*.deb)
printf 'x' >> "$deb"
expect_error "mirror unreachable, cached .deb damaged: not used, the download fails in one line" \
    "could not download the riscv64 package 'linux-image-6.0.0-fake-riscv64'" \
    in_cache "$c1" 'rv_apt_update && rv_download linux-image-6.0.0-fake-riscv64 "$CACHE_DIR/debs"'
expect_error "mirror unreachable, nothing in the cache" \
    "apt-get update of Debian trixie riscv64 from .* failed.*no verified copy is cached; check network access" \
    in_cache "$tmp/cache3" 'rv_apt_update'
expect_error "DEBIAN_KEYRING that does not exist" "DEBIAN_KEYRING=$tmp/none.gpg does not exist" \
    env DEBIAN_KEYRING="$tmp/none.gpg" CACHE_DIR="$tmp/cache3" "$repo/scripts/fetch-linux.sh"

tap_end
