#!/usr/bin/env bash
# Runs QEMU's own riscv64 qtests (make check-qtest-riscv64) against the
# patched qemu-system-riscv64, with the firmware blobs Debian's source lacks
# supplied from Debian's packages (scripts/fetch-qtest-blobs.sh).  Ends with
# "N passed, M failed"; a skipped test is reported as skipped, not passed.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
tl_load_config
obj="$BUILD_DIR/qemu"
[ -f "$obj/build.ninja" ] || die "QEMU is not built in $obj; run 'make qemu'"
"$TL_REPO/scripts/fetch-qtest-blobs.sh" || exit 1
log=$(mktemp)
make -C "$obj" check-qtest-riscv64 >"$log" 2>&1
rc=$?
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
echo "${ok:-0} passed, $failed failed, ${skipped:-0} skipped"
[ "$failed" -eq 0 ] && [ "${ok:-0}" -gt 0 ]
