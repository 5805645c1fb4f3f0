#!/usr/bin/env bash
# Runs QEMU's own riscv64 qtests (make check-qtest-riscv64) against the
# patched qemu-system-riscv64, with the firmware blobs Debian's source lacks
# supplied from Debian's packages (scripts/fetch-qtest-blobs.sh).  Ends with
# "N passed, M failed"; a skipped test is reported as skipped, not passed.
# QEMU's per-test timeouts are multiplied by QTEST_TIMEOUT_MULTIPLIER (3 by
# default; QEMU's own TIMEOUT_MULTIPLIER): qos-test, 120 s upstream, took
# 88-142 s on a 2-core machine, and a hang still fails.  As many tests run
# at once as the host has CPUs.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
tl_load_config
obj="$BUILD_DIR/qemu"
need_qemu
. "$TL_REPO/tests/tap.sh"
tap_can_skip
blobs_rc=0
blobs_err=$("$TL_REPO/scripts/fetch-qtest-blobs.sh" 2>&1 >/dev/null) || blobs_rc=$?
log=$(mktemp)
mult=${QTEST_TIMEOUT_MULTIPLIER:-3}
jobs=$(nproc 2>/dev/null || echo 1)   # tests at once, as meson test and make -j
[[ "$mult" =~ ^[1-9][0-9]*$ ]] || die "QTEST_TIMEOUT_MULTIPLIER=$mult: give a positive whole number"
# The qtests' programs are built holding the build lock (other test groups
# use QEMU's build directory too); the run below finds them up to date.
# shellcheck disable=SC2046
tl_with_build_lock make -C "$obj" -j"$jobs" $(sed -n 's/^\.check-qtest-riscv64\.deps = //p' "$obj/Makefile.mtest") >"$log.build" 2>&1 ||
    { tail -n 20 "$log.build"; check 1 "QEMU's qtest programs build (make -C $obj the deps of check-qtest-riscv64)"; }
rm -f "$log.build"
case $blobs_rc in
    0) # what make check-qtest-riscv64 runs, without its build step (done above)
        (cd "$obj" && ./pyvenv/bin/meson test --no-rebuild --num-processes "$jobs" -t "$mult" --print-errorlogs \
            --suite qtest-riscv64) >"$log" 2>&1
        rc=$? ;;
    3)  # no verified edk2: every qtest but the one that boots it
        reason=$(printf '%s\n' "$blobs_err" | grep '^error: ' | tail -n 1)
        skip_case "qtest-riscv64/bios-tables-test" "Debian's edk2 for riscv64 is unavailable: ${reason#error: }"
        tests=$(cd "$obj" && ./pyvenv/bin/meson test --list --suite qtest-riscv64 2>/dev/null |
                sed -n 's|.* / \(qtest-riscv64/.*\)$|\1|p' | grep -v '/bios-tables-test$')
        # shellcheck disable=SC2086
        (cd "$obj" && ./pyvenv/bin/meson test --no-rebuild --num-processes "$jobs" -t "$mult" --print-errorlogs $tests) >"$log" 2>&1
        rc=$? ;;
    *) printf '%s\n' "$blobs_err" >&2; exit 1 ;;
esac
grep -E '^ *[0-9]+/[0-9]+ .*qtest-riscv64/' "$log"
ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
timeouts=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
skipped=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(( ${failed:-0} + ${timeouts:-0} ))
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    tail -n 30 "$log"
    failed=1
fi
[ "${skipped:-0}" -eq 0 ] || echo "note: ${skipped} qtest(s) skipped by QEMU itself (not counted as passed): $(grep -E 'SKIP' "$log" | sed 's/.*qtest-riscv64\///; s/ .*//' | tr '\n' ' ')"
rm -f "$log"
# QEMU's own tests, counted from meson's summary
add_counts "${ok:-0}" "$failed" "${skipped:-0}"
tap_end && [ "${ok:-0}" -gt 0 ]
