#!/usr/bin/env bash
# Parity of TL-QEMU with stock QEMU for programs that never use TL: each
# program below runs under an unpatched qemu-riscv64 built from the same
# source with the same options (scripts/build-stock-qemu.sh) and under
# TL-QEMU's qemu-riscv64, side by side, with the default CPU (TL-QEMU's has
# xtl on), -cpu max (xtl on) and -cpu rv64 (xtl off); for each CPU TL-QEMU's
# stdout, stderr and exit status must equal stock QEMU's.  As a second,
# independent check, the output under TL-QEMU's default CPU must equal the
# expected transcript of tests/parity/expected/ (or one made at run time
# from an independent source) where the program's output is fixed.
# One unit = one program run (with its arguments) under the six QEMU/CPU
# combinations.
#
# The programs were written by others:
#  - BusyBox 1.37 built from Debian's source with Debian's busybox-static
#    configuration (scripts/build-busybox.sh): its ash, text tools and
#    timeout, running tests/parity/scripts/*.sh.  Their expected transcripts
#    are the output of the same scripts under the host's dash and GNU tools.
#  - Debian's riscv64 glibc (libc6-riscv64-cross: ld.so and libc.so.6 run
#    as programs, and the dynamic loader and libc of the C programs below).
#    The expected version line comes from the host's package database.
#  - Debian 13's riscv64 binary packages from the private riscv64 apt
#    configuration (scripts/lib.sh): python3.13 (its own test modules),
#    perl, coreutils, grep, sed, gzip, xz, sqlite3.  Their expected output
#    comes from the host's own tools on the same input where one exists.
#    When no verified riscv64 index (and no copy unpacked before) is
#    available these cases print "# SKIP" with the reason and are counted
#    as skipped, never passed.
# and signal-heavy C programs (tests/parity/progs/*.c: sigaltstack of
# SIGSTKSZ and MINSIGSTKSZ bytes, nested signals, signals in threads, kill
# and alarm of children, stack-overflow handlers, signals interrupting
# floating-point code and system calls), compiled with Debian's cross gcc
# against Debian's riscv64 glibc; their expected output is what the
# programs print on Linux (POSIX semantics, written by hand).
#
# PARITY_QEMU=PATH runs another build in TL-QEMU's place (to show that the
# group fails when a build behaves differently).
# Ends with "N passed, M failed, K skipped".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool dash dash

qemu=${PARITY_QEMU:-$BUILD_DIR/qemu/qemu-riscv64}
need_qemu "$qemu"
stock=$("$TL_REPO/scripts/build-stock-qemu.sh") || die "cannot build the unpatched qemu-riscv64 (see above)"
sysroot=/usr/riscv64-linux-gnu
[ -f "$sysroot/lib/libc.so.6" ] || die "Debian's riscv64 glibc is missing; run: apt-get install libc6-riscv64-cross libc6-dev-riscv64-cross"
src="$TL_REPO/tests/parity"
out="$BUILD_DIR/tests/parity"
work="$out/runs"
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work"

. "$TL_REPO/tests/tap.sh"
tap_can_skip
export LC_ALL=C     # the guest has no locales; the host's expected output is made in C too

busybox=$("$TL_REPO/scripts/build-busybox.sh") || die "cannot build busybox (see above)"
echo "# TL-QEMU:    $qemu ($("$qemu" --version | head -n 1))"
echo "# stock QEMU: $stock ($("$stock" --version | head -n 1))"

# ---- the C programs ----
for c in "$src"/progs/*.c; do
    prog="$out/$(basename "$c" .c)"
    if [ ! -x "$prog" ] || [ "$c" -nt "$prog" ]; then
        riscv64-linux-gnu-gcc -O2 -Wall -Wextra -Werror "$c" -o "$prog.tmp" -pthread -lm ||
            die "cannot compile $c"
        mv "$prog.tmp" "$prog"
    fi
done

# transcript <dir>: stdout, stderr and exit status of one run, as one text
# (passed through the case's CASE_NORMALIZE sed script, if any)
transcript() {
    {
        cat "$1/stdout"
        echo "--- stderr"
        cat "$1/stderr"
        echo "--- exit status $(cat "$1/status")"
    } | if [ -n "${CASE_NORMALIZE:-}" ]; then LC_ALL=C sed -E "$CASE_NORMALIZE"; else cat; fi
}

# summary <dir>: exit status, sizes and a digest of one run, for the side-by-side lines
summary() {
    printf 'exit %s, %s B out, %s B err, %s' "$(cat "$1/status")" "$(wc -c < "$1/stdout")" \
        "$(wc -c < "$1/stderr")" "$(cut -c1-12 < "$1/digest")"
}

cpus=(default max rv64)
# [CASE_STDIN=FILE] [CASE_NORMALIZE=SED] run_case <name> <expected> <qemu arguments...>
#   Runs the program under stock QEMU and TL-QEMU with each CPU of $cpus
#   (stdin: /dev/null or CASE_STDIN) and compares the transcripts per CPU
#   (after CASE_NORMALIZE, a sed -E script for output that varies from run
#   to run, such as elapsed times).
#   expected: a file of tests/parity/expected/ (a transcript), "-" when the
#   output is not fixed (then only stock QEMU and TL-QEMU are compared),
#   "file:PATH" for a transcript made at run time from an independent source,
#   or "head:PATH" for the first lines of stdout, made at run time.
# run_one <dir> <emulator> <cpu> <qemu arguments...>: one run into <dir>
run_one() {
    local dir=$1 emu=$2 cpu=$3 args=()
    shift 3
    mkdir -p "$dir/cwd"
    rm -f "$dir/reruns"
    [ "$cpu" = default ] || args=(-cpu "$cpu")
    (cd "$dir/cwd" && TMPDIR="$dir/cwd" timeout -k 5 "${PARITY_TIMEOUT:-120}" \
        "$emu" "${args[@]}" "$@" <"${CASE_STDIN:-/dev/null}" >"$dir/stdout" 2>"$dir/stderr")
    echo "$?" > "$dir/status"
    transcript "$dir" > "$dir/transcript"
    sha256sum < "$dir/transcript" > "$dir/digest"
}

run_case() {
    local name=$1 expected=$2 cpu dir ok=0 why=() which
    shift 2
    echo "# $name: qemu-riscv64 [-cpu max|rv64] ${*#"$TL_REPO/"}"
    for cpu in "${cpus[@]}"; do
        # the two emulators side by side, each in its own directory
        run_one "$work/$name/stock-$cpu" "$stock" "$cpu" "$@" &
        run_one "$work/$name/tl-$cpu" "$qemu" "$cpu" "$@" &
        wait
        for which in stock tl; do
            dir="$work/$name/$which-$cpu"
            [ -s "$dir/digest" ] || die "the $which run of $name with -cpu $cpu left no transcript"
            # tests the program ran a second time after a failure (pytests.py)
            [ ! -s "$dir/reruns" ] ||
                sed "s/^/#   -cpu $cpu, $([ "$which" = tl ] && echo TL-QEMU || echo "stock QEMU"): ran twice: /" "$dir/reruns"
            if [ "$(cat "$dir/status")" -eq 124 ]; then
                why+=("hung under $([ "$which" = tl ] && echo TL-QEMU || echo "stock QEMU") -cpu $cpu (killed after ${PARITY_TIMEOUT:-120} s)")
            fi
        done
        if cmp -s "$work/$name/stock-$cpu/transcript" "$work/$name/tl-$cpu/transcript"; then
            echo "#   -cpu $cpu: stock $(summary "$work/$name/stock-$cpu") | TL-QEMU $(summary "$work/$name/tl-$cpu"): identical"
        else
            ok=1
            echo "#   -cpu $cpu: stock $(summary "$work/$name/stock-$cpu") | TL-QEMU $(summary "$work/$name/tl-$cpu"): DIFFERENT"
            why+=("TL-QEMU differs from stock QEMU with -cpu $cpu")
            diff -u --label "stock -cpu $cpu" --label "TL-QEMU -cpu $cpu" "$work/$name/stock-$cpu/transcript" \
                "$work/$name/tl-$cpu/transcript" | head -n 20 | sed 's/^/#   /'
        fi
    done
    local head=0 tl_default="$work/$name/tl-default"
    case "$expected" in
        -) ;;
        file:*) expected=${expected#file:} ;;
        head:*) expected=${expected#head:} head=1 ;;
        *) expected="$src/expected/$expected" ;;
    esac
    if [ "$head" -eq 1 ]; then
        if ! head -n "$(wc -l < "$expected")" "$tl_default/stdout" | cmp -s - "$expected"; then
            ok=1
            why+=("the first lines differ from ${expected#"$TL_REPO/"}")
            diff -u --label expected --label default "$expected" \
                <(head -n "$(wc -l < "$expected")" "$tl_default/stdout") | sed 's/^/#   /'
        fi
    elif [ "$expected" != - ]; then
        if ! cmp -s "$expected" "$tl_default/transcript"; then
            ok=1
            why+=("output differs from ${expected#"$TL_REPO/"}")
            diff -u --label expected --label default "$expected" \
                "$tl_default/transcript" | head -n 20 | sed 's/^/#   /'
        fi
    fi
    [ ${#why[@]} -eq 0 ] || ok=1
    if [ "$ok" -eq 0 ]; then
        local as=""
        [ "$expected" = - ] || as=", and as expected"
        [ "$head" -eq 0 ] || as=", first lines as expected"
        check 0 "$name: stdout, stderr, exit status $(cat "$tl_default/status") under TL-QEMU identical to stock QEMU with the default CPU, max and rv64$as"
    else
        check 1 "$name: $(IFS=';'; echo "${why[*]}")"
    fi
}

# ---- BusyBox ----
run_case busybox-signals busybox-signals.txt "$busybox" sh "$src/scripts/signals.sh"
run_case busybox-text busybox-text.txt "$busybox" sh "$src/scripts/text.sh"

# ---- Debian's riscv64 glibc run as programs ----
glibc_version=$(dpkg-query -W -f '${Version}' libc6-riscv64-cross 2>/dev/null)
glibc_version=${glibc_version%cross*}           # 2.36-8cross1 -> 2.36-8
upstream=${glibc_version%%-*}
# the version lines name the package version that dpkg-query reports
echo "ld.so (Debian GLIBC $glibc_version) stable release version $upstream." > "$out/ldso-expected-head"
echo "GNU C Library (Debian GLIBC $glibc_version) stable release version $upstream." > "$out/libc-expected-head"
run_case glibc-ld.so-version "head:$out/ldso-expected-head" "$sysroot/lib/ld-linux-riscv64-lp64d.so.1" --version
run_case glibc-libc.so.6 "head:$out/libc-expected-head" -L "$sysroot" "$sysroot/lib/libc.so.6"

# ---- signal-heavy C programs on Debian's glibc ----
for mode in SIGSTKSZ MINSIGSTKSZ sysconf-SIGSTKSZ sysconf-MINSIGSTKSZ; do
    run_case "sigaltstack-$mode" "sigaltstack-$mode.txt" -L "$sysroot" "$out/sigaltstack" "$mode"
done
for p in nested thread_signal child_kill stack_overflow fpu_signal faults restart; do
    run_case "$p" "$p.txt" -L "$sysroot" "$out/$p"
done

# ---- Debian 13 riscv64 binary packages ----
deb_pkgs=(libc6 libcrypt1 zlib1g libexpat1 libpython3.13-minimal python3.13-minimal perl-base
          coreutils libacl1 libattr1 libcap2 libgmp10 libselinux1 libpcre2-8-0 libssl3t64 libzstd1
          libpython3.13-stdlib libpython3.13-testsuite python3.13 libbz2-1.0 libdb5.3t64 libffi8
          liblzma5 libncursesw6 libreadline8t64 libsqlite3-0 libtinfo6 libuuid1 libmpdec4
          grep sed gzip xz-utils sqlite3)
debroot="$CACHE_DIR/parity-sysroot"
debian_sysroot() {   # unpacks deb_pkgs into $debroot once; fails with the reason on stderr
    local stamp want deb p
    want=$(printf '%s\n' "${deb_pkgs[@]}" | sha256sum | cut -d' ' -f1)
    stamp="$debroot/.tl-unpacked"
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
    (
        rv_apt_update
        rm -rf "$debroot.new" && mkdir -p "$debroot.new"
        for p in "${deb_pkgs[@]}"; do
            deb=$(rv_download "$p" "$CACHE_DIR/parity-debs")
            dpkg-deb -x "$deb" "$debroot.new" || die "cannot unpack $deb; delete it and rerun"
        done
        for d in bin lib sbin; do
            [ -e "$debroot.new/$d" ] || ln -s "usr/$d" "$debroot.new/$d"
        done
        echo "$want" > "$debroot.new/.tl-unpacked"
        rm -rf "$debroot" && mv "$debroot.new" "$debroot"
    )
}
# expect_from <file> <command...>: the transcript of a host command (an
# independent implementation of the same tool) as an expected transcript
expect_from() {
    local f=$1 r
    shift
    "$@" > "$f.out" 2> "$f.err"
    r=$?
    { cat "$f.out"; echo "--- stderr"; cat "$f.err"; echo "--- exit status $r"; } > "$f"
}
# Python test modules of CPython's own suite: floating point, threads, signals
# (StressTest of test_signal is left out: it crashes stock QEMU 10.0 and
# TL-QEMU alike, at random).
py_modules=(test.test_float test.test_cmath test.test_fractions test.test_thread
            test.test_threading_local test.test_threading.ThreadTests test.test_threading.LockTests
            test.test_signal.GenericTests test.test_signal.ItimerTest test.test_signal.PosixTests
            test.test_signal.WakeupSignalTests test.test_signal.SiginterruptTest
            test.test_signal.PendingSignalsTests test.test_signal.RaiseSignalTest)
debian_cases=(python3-signal-alarm python3-test-modules perl-signals coreutils-sha256sum coreutils-sort
              coreutils-factor coreutils-wc grep-extended grep-pcre-jit sed-script
              gzip-compress gzip-round-trip xz-compress-2-threads xz-round-trip sqlite3-script)
if reason=$(debian_sysroot 2>&1 >/dev/null); then
    run_case python3-signal-alarm python3-signal-alarm.txt -L "$debroot" \
        "$debroot/usr/bin/python3.13" -I -S "$src/scripts/alarm.py"
    CASE_NORMALIZE='s/^(detected median itimer\(\) resolution:).*/\1 .../' PYTESTS_RERUN_LOG=../reruns \
        run_case python3-test-modules - -L "$debroot" \
        "$debroot/usr/bin/python3.13" -I "$src/scripts/pytests.py" "${py_modules[@]}"
    run_case perl-signals perl-signals.txt -L "$debroot" "$debroot/usr/bin/perl" "$src/scripts/signals.pl"
    { sha256sum "$src/scripts/text.sh" "$src/scripts/signals.sh"; echo "--- stderr"; echo "--- exit status 0"; } \
        > "$out/sha256sum-expected"
    run_case coreutils-sha256sum "file:$out/sha256sum-expected" -L "$debroot" \
        "$debroot/usr/bin/sha256sum" "$src/scripts/text.sh" "$src/scripts/signals.sh"
    # input: 20000 rows of numbers and words, made on the host
    awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "%d %s %d %.3f\n", (i * 7919) % 2003, \
        (i % 5 ? "tile" : "vector"), i, i / 7 }' > "$out/rows.txt"
    expect_from "$out/sort-expected" sort -t' ' -k2,2 -k1,1n -k3,3nr "$out/rows.txt"
    run_case coreutils-sort "file:$out/sort-expected" -L "$debroot" "$debroot/usr/bin/sort" \
        -t' ' -k2,2 -k1,1n -k3,3nr "$out/rows.txt"
    expect_from "$out/factor-expected" factor 1234567890123456789 18446744073709551557 600851475143 4294967297
    run_case coreutils-factor "file:$out/factor-expected" -L "$debroot" "$debroot/usr/bin/factor" \
        1234567890123456789 18446744073709551557 600851475143 4294967297
    expect_from "$out/wc-expected" wc -l -w -c "$out/rows.txt" "$src/scripts/text.sh" "$src/scripts/signals.sh"
    run_case coreutils-wc "file:$out/wc-expected" -L "$debroot" "$debroot/usr/bin/wc" \
        -l -w -c "$out/rows.txt" "$src/scripts/text.sh" "$src/scripts/signals.sh"
    expect_from "$out/grep-expected" grep -n -E 'tl\.(m?load|m?store)[^a-z]' "$TL_REPO/docs/isa.md"
    run_case grep-extended "file:$out/grep-expected" -L "$debroot" "$debroot/usr/bin/grep" \
        -n -E 'tl\.(m?load|m?store)[^a-z]' "$TL_REPO/docs/isa.md"
    expect_from "$out/grep-pcre-expected" grep -c -P '(?i)\btl\.x\w+|\b0x[0-9a-f]{3,}\b' "$TL_REPO/docs/isa.md"
    run_case grep-pcre-jit "file:$out/grep-pcre-expected" -L "$debroot" "$debroot/usr/bin/grep" \
        -c -P '(?i)\btl\.x\w+|\b0x[0-9a-f]{3,}\b' "$TL_REPO/docs/isa.md"
    sed_script='s/^#+ ([0-9.]+) (.*)$/\2 <- section \1/p; /^\| `tl\./{ s/\|.*(tl\.[a-z.0-9]+).*/\1/; y/abc/ABC/; p }'
    expect_from "$out/sed-expected" sed -E -n "$sed_script" "$TL_REPO/docs/isa.md"
    run_case sed-script "file:$out/sed-expected" -L "$debroot" "$debroot/usr/bin/sed" -E -n "$sed_script" \
        "$TL_REPO/docs/isa.md"
    { cat "$out/rows.txt"; echo "--- stderr"; echo "--- exit status 0"; } > "$out/rows-expected"
    run_case gzip-compress - -L "$debroot" "$debroot/usr/bin/gzip" -9 -n -c "$out/rows.txt"
    cp "$work/gzip-compress/tl-default/stdout" "$out/rows.txt.gz"
    CASE_STDIN=$out/rows.txt.gz run_case gzip-round-trip "file:$out/rows-expected" -L "$debroot" \
        "$debroot/usr/bin/gzip" -d -c
    run_case xz-compress-2-threads - -L "$debroot" "$debroot/usr/bin/xz" -6 -T2 --block-size=65536 -c "$out/rows.txt"
    cp "$work/xz-compress-2-threads/tl-default/stdout" "$out/rows.txt.xz"
    CASE_STDIN=$out/rows.txt.xz run_case xz-round-trip "file:$out/rows-expected" -L "$debroot" \
        "$debroot/usr/bin/xz" -d -c
    CASE_STDIN=$src/scripts/sqlite.sql run_case sqlite3-script sqlite3-script.txt -L "$debroot" \
        "$debroot/usr/bin/sqlite3" -batch :memory:
else
    reason=$(printf '%s\n' "$reason" | grep -E '^error:' | tail -n 1)
    for c in "${debian_cases[@]}"; do
        skip_case "$c" "Debian 13 riscv64 packages unavailable: ${reason#error: }"
    done
fi

tap_end
