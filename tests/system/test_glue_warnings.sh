#!/usr/bin/env bash
# The C code TL-QEMU puts into QEMU compiles without a warning of the
# compiler's front end: every object of QEMU's build whose sources include a
# file of ours (target/riscv/xtl, hw/riscv/tl, contrib/plugins/tlstat) or a
# .c / .c.inc file our patches change is compiled again with its own command
# from QEMU's build plus -Werror -fsyntax-only.  QEMU's release builds do not
# use -Werror, and some warnings are bugs: an implicitly declared function
# gets its arguments the way the caller guesses.  -fsyntax-only keeps this to
# seconds; the warnings only the optimiser gives (-Wmaybe-uninitialized,
# -Warray-bounds) are not checked here.  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool ninja ninja-build
obj="$BUILD_DIR/qemu"
need_qemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"

# The files: ours by directory, QEMU's from the patches' "+++ b/" lines.
grep -h '^+++ b/' "$TL_REPO"/patches/qemu-10.0/*.patch | sed 's#^+++ b/##' |
    grep -E '\.c(\.inc)?$' | sort -u >"$tmp/patched"
[ -s "$tmp/patched" ] || die "no patched C files found in patches/qemu-10.0"

# Objects whose recorded dependencies (the compiler's own, ninja -t deps)
# include one of them.
tl_with_build_lock ninja -C "$obj" -t deps 2>/dev/null | awk -v list="$tmp/patched" '
    BEGIN { while ((getline f < list) > 0) patched[f] = 1 }
    /^[^ ].*: #deps/ { o = $1; sub(/:$/, "", o); next }
    /^    / {
        d = $1; sub(/^(\.\.\/)*patched-qemu\//, "", d)
        if (d ~ /^(target\/riscv\/xtl|hw\/riscv\/tl|contrib\/plugins\/tlstat)\/.*\.(c|cc|cpp)(\.inc)?$/ || (d in patched))
            hit[o] = 1
    }
    END { for (o in hit) print o }' | sort >"$tmp/objects"
count=$(wc -l <"$tmp/objects")
echo "# $count objects include TL-QEMU's C files or files its patches change"
check $(( count < 10 )) "the build records at least 10 such objects (found $count; is QEMU built?)"

while read -r o; do
    cmd=$(ninja -C "$obj" -t commands "$o" | tail -n 1)
    # the object and its dependency file stay as the build left them
    cmd=$(sed -E 's/ -MD -MQ [^ ]+ -MF [^ ]+//; s/ -o [^ ]+/ -o \/dev\/null/' <<<"$cmd")
    if (cd "$obj" && eval "$cmd -Werror -fsyntax-only") >"$tmp/out" 2>&1; then
        check 0 "$o compiles without a front-end warning"
    else
        check 1 "$o compiles without a front-end warning:"
        sed -n '1,12s/^/    /p' "$tmp/out"
    fi
done <"$tmp/objects"
tap_end
