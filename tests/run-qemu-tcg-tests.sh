#!/usr/bin/env bash
# Runs QEMU's own riscv64 linux-user TCG tests (tests/tcg, "make check-tcg"
# for riscv64-linux-user) against the patched QEMU, so the TL patch set is
# shown not to break upstream behaviour, as many at once as the host has
# CPUs.  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
tl_load_config
obj="$BUILD_DIR/qemu"
need_qemu
. "$TL_REPO/tests/tap.sh"

# The multiarch tests also run under each TCG plugin when plugins are enabled.
targets=$(ninja -C "$obj" -t targets all 2>/dev/null)
if grep -q '^test-plugins:' <<<"$targets"; then
    tl_with_build_lock ninja -C "$obj" test-plugins >/dev/null || die "building QEMU's test plugins failed"
fi
log=$(mktemp)
make -C "$obj" -k -j"$(nproc)" run-tcg-tests-riscv64-linux-user 2>&1 | tee "$log" | grep -E '^ +(TEST|RUN|BUILD)|Error|FAIL' 
rc=${PIPESTATUS[0]}
ran=$(grep -cE '^ +TEST ' "$log")
failed=$(grep -cE '^make.*\*\*\* \[.*run-' "$log")
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    tail -n 30 "$log"
    failed=1    # make failed (a test that did not build, say) without a failed run
fi
echo "QEMU riscv64-linux-user TCG tests: $ran run, $failed failed"
rm -f "$log"
# QEMU's own tests, counted from make's output
add_counts "$((ran - failed))" "$failed"
tap_end && [ "$ran" -gt 0 ]
