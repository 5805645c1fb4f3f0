#!/usr/bin/env bash
# Runs TL-QEMU's test groups (all by default, or those named) and ends with
# one summary line "N passed, M failed".  Each group prints what it checks.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config

all_groups=(scripts unit reference user system tcg)
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=("${all_groups[@]}")

logdir="$BUILD_DIR/test-logs"
mkdir -p "$logdir"
total_pass=0 total_fail=0
summary=()

# Adds a group's counts; a group that ran nothing or crashed counts as a failure.
record() {
    local group=$1 pass=$2 fail=$3 rc=$4
    if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
        fail=1   # the runner itself failed: never report that as a pass
    fi
    if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
        fail=1
        echo "check: group '$group' ran no test" >&2
    fi
    total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail))
    summary+=("$(printf '%-10s %5d passed, %d failed' "$group" "$pass" "$fail")")
}

# Counts from the last "N passed, M failed" line of a log.
counts_from_log() {
    grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1 | awk '{print $1, $3}'
}

run_group() {
    local group=$1 log="$logdir/$1.log" rc pass=0 fail=0
    echo "=== $group ==="
    case "$group" in
    scripts)
        "$TL_REPO/tests/host/test_bad_input.sh" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        read -r pass fail < <(counts_from_log "$log")
        ;;
    unit)
        "$TL_REPO/scripts/build-host.sh" && \
        "$BUILD_DIR/host/tests/unit/tl-core-unit-tests" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        pass=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
        fail=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
        ;;
    reference)
        /usr/bin/python3 "$TL_REPO/tests/reference/test_tlref.py" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        read -r pass fail < <(counts_from_log "$log")
        ;;
    user)
        "$TL_REPO/scripts/build-qemu.sh" && \
        "$TL_REPO/tests/user/run.sh" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        read -r pass fail < <(counts_from_log "$log")
        ;;
    system)
        "$TL_REPO/scripts/build-qemu.sh" && \
        "$TL_REPO/tests/system/test_dtb.sh" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        read -r pass fail < <(counts_from_log "$log")
        ;;
    tcg)
        "$TL_REPO/scripts/build-qemu.sh" && \
        "$TL_REPO/tests/run-qemu-tcg-tests.sh" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        read -r pass fail < <(counts_from_log "$log")
        ;;
    *) die "unknown test group '$group' (groups: ${all_groups[*]})" ;;
    esac
    record "$group" "${pass:-0}" "${fail:-0}" "$rc"
}

for g in "${groups[@]}"; do
    run_group "$g"
done
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
echo "check: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
