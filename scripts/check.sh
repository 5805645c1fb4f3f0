#!/usr/bin/env bash
# Runs TL-QEMU's test groups (all by default, or those named) and ends with
# a table of each group's passes, failures and skips (in the group's own
# unit) and one line "check: all N groups passed" or "check: K of N groups
# FAILED: ...", naming the groups with skips.  Every group prints what it
# checks; a group that runs nothing or whose runner fails counts as failed.
# The summary names each group's unit (what one pass counts) and its skips,
# which are never counted as passed.
# With more than one group, CHECK_JOBS groups (default: the host's CPUs, at
# most 4) run at once, the longest of the last run first, then linux and
# distro alone (runs_alone), whose builds run first beside the other groups;
# each group's output is printed whole when it ends.
# Steps that build or download run one at a time (tl_build_lock in lib.sh).
# CHECK_JOBS=1 runs the groups one after another with their output as it comes.
#   scripts/check.sh [GROUP...]
#   scripts/check.sh --list-groups   the groups, in the order make check runs
#                                    them (the Makefile's list of check-GROUP)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# Every test group, in the order they run: the one list (the Makefile asks
# for it with --list-groups).
all_groups=(scripts unit reference user diff asm api firmware fwci system linux distro install gdb plugin parity tcg qtest)
if [ "${1:-}" = --list-groups ]; then
    echo "${all_groups[*]}"
    exit 0
fi
tl_load_config

# The test scripts of each group (paths relative to the repository).
group_scripts() {
    case "$1" in
        scripts) echo tests/host/test_bad_input.sh tests/host/test_progress.sh tests/host/test_mirror.sh tests/host/test_encodings.sh tests/host/test_kselftest_report.sh tests/host/test_build_lock.sh ;;
        reference) echo tests/reference/test_tlref.py ;;
        user) echo tests/user/run.sh ;;
        diff) echo tests/diff/run.sh ;;
        asm) echo tests/asm/run.sh tests/asm/binutils.sh ;;
        api) echo tests/api/run.sh ;;
        firmware) echo tests/firmware/run.sh ;;
        fwci) echo tests/fwci/run.sh ;;
        plugin) echo tests/plugin/run.sh ;;
        system) echo tests/system/test_dtb.sh tests/system/test_local_mem.sh \
                     tests/system/test_gdb.sh tests/system/test_migration.sh \
                     tests/system/test_glue_warnings.sh ;;
        linux) echo tests/linux/run.sh tests/linux/kselftests.sh ;;
        distro) echo tests/distro/run.sh ;;
        install) echo tests/install/run.sh ;;
        gdb) echo tests/gdb/run.sh ;;
        parity) echo tests/parity/run.sh ;;
        tcg) echo tests/run-qemu-tcg-tests.sh ;;
        qtest) echo tests/run-qemu-qtests.sh ;;
        *) return 1 ;;
    esac
}

# What one counted pass of each group is.
group_unit() {
    case "$1" in
        unit) echo "test" ;;
        diff) echo "case" ;;
        parity) echo "program" ;;
        tcg|qtest) echo "test" ;;
        *) echo "assertion" ;;
    esac
}

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=("${all_groups[@]}")
for g in "${groups[@]}"; do
    [ "$g" = unit ] || group_scripts "$g" >/dev/null ||
        die "unknown test group '$g' (groups: ${all_groups[*]})"
done

logdir="$BUILD_DIR/test-logs"
mkdir -p "$logdir"
TL_BUILT_THIS_RUN="$logdir/built-this-run"
rm -rf "$TL_BUILT_THIS_RUN"
export TL_BUILT_THIS_RUN
tl_steps_begin
if [ $# -eq 0 ]; then
    tl_timed "Debian packages the build and tests need (make deps)" "$TL_REPO/scripts/install-deps.sh" ||
        die "the Debian packages TL-QEMU needs could not be installed (see above)"
fi
summary=() failed_groups=() skipped_groups=()

# Counts from the last "N passed, M failed[, K skipped]" line of a file: "N M K".
counts_from_log() {
    grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1 |
        sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/' |
        awk '{print $1, $2, ($3 == "" ? 0 : $3)}'
}

# Runs one test script, appending to the group log and adding to pass/fail.
run_script() {
    local log=$1 script=$2 part r p f k
    part="$log.part"
    echo "# $script"
    case "$script" in
        *.py) /usr/bin/python3 "$TL_REPO/$script" 2>&1 | tee "$part"; r=${PIPESTATUS[0]} ;;
        *) "$TL_REPO/$script" 2>&1 | tee "$part"; r=${PIPESTATUS[0]} ;;
    esac
    cat "$part" >> "$log"
    read -r p f k < <(counts_from_log "$part")
    rm -f "$part"
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0})); skip=$((skip + ${k:-0}))
    if [ "$r" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
        fail=$((fail + 1))
        echo "check: $script exited with status $r without reporting a failed test"
    fi
    if [ "${p:-0}" -eq 0 ] && [ "${f:-0}" -eq 0 ]; then
        fail=$((fail + 1))
        echo "check: $script ran no test"
    fi
}

# QEMU is built (or found up to date) once per run: the sources do not
# change while the groups run, and each up-to-date check costs seconds.
qemu_built=0
build_qemu() {
    [ "$qemu_built" = 0 ] || return 0
    "$TL_REPO/scripts/build-qemu.sh" && qemu_built=1
}

# run_group GROUP: runs one group; its counts and time go to $logdir/GROUP.result
# ("passed failed skipped seconds").
run_group() {
    local group=$1 log="$logdir/$1.log" pass=0 fail=0 skip=0 t0=$SECONDS
    rm -f "$logdir/$group.result"
    echo "=== $group ==="
    : > "$log"
    case "$group" in
        scripts|reference) ;;
        unit) "$TL_REPO/scripts/build-host.sh" || fail=$((fail + 1)) ;;
        asm) build_qemu || fail=$((fail + 1))
             "$TL_REPO/scripts/build-binutils.sh" || fail=$((fail + 1)) ;;
        *) build_qemu || fail=$((fail + 1)) ;;
    esac
    if [ "$group" = unit ]; then
        # Once per host SIMD set (tests/unit/test_host_simd.cc), so that the
        # paths of hosts without AVX-512 or AVX2 are tested here too; a set
        # the host makes identical to an earlier one is not run again (the
        # HostSimdTest run names the set first).
        local simd part="$logdir/unit.part" r p f paths seen=""
        for simd in all avx2 baseline; do
            paths=$(TL_TEST_HOST_SIMD=$simd "$BUILD_DIR/host/tests/unit/tl-core-unit-tests" \
                        --gtest_filter='HostSimdTest.*' 2>&1 |
                    sed -n 's/^host SIMD paths under test: \([^;]*\);.*/\1/p')
            if [ -n "$paths" ] && [[ "$seen" == *"[$paths]"* ]]; then
                echo "unit: TL_TEST_HOST_SIMD=$simd selects the same paths as an earlier run on this host ($paths), not run again" | tee -a "$log"
                continue
            fi
            seen+="[$paths]"
            echo "--- TL_TEST_HOST_SIMD=$simd" | tee -a "$log"
            TL_TEST_HOST_SIMD=$simd "$BUILD_DIR/host/tests/unit/tl-core-unit-tests" 2>&1 | tee "$part" | tee -a "$log"
            r=${PIPESTATUS[0]}
            [ -n "$paths" ] || paths=$(sed -n 's/^host SIMD paths under test: \([^;]*\);.*/\1/p' "$part")
            p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$part" | tail -n 1)
            f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$part" | tail -n 1)
            pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
            if { [ "$r" -ne 0 ] && [ "${f:-0}" -eq 0 ]; } || [ "${p:-0}" -eq 0 ] || [ -z "$paths" ]; then
                fail=$((fail + 1))
                echo "check: the unit tests with TL_TEST_HOST_SIMD=$simd exited with status $r, passed ${p:-0}, named no SIMD set, or failed"
            fi
        done
        rm -f "$part"
    else
        for script in $(group_scripts "$group"); do
            run_script "$log" "$script"
        done
    fi
    tl_step_done "test group $group (with what it built)" $((SECONDS - t0))
    echo "$pass $fail $skip $((SECONDS - t0))" > "$logdir/$group.result"
}

# The groups' table rows, in the order of $groups, from their result files;
# a group without one (its runner died) counts as failed.
summarize() {
    local g pass fail skip secs
    for g in "${groups[@]}"; do
        if ! read -r pass fail skip secs < "$logdir/$g.result" 2>/dev/null; then
            echo "check: the group $g ended without a result" >&2
            pass=0 fail=1 skip=0 secs=0
        fi
        summary+=("$(printf '%-10s %8d %7d %8d %8s  %s' "$g" "$pass" "$fail" "$skip" "$(tl_duration "$secs")" "$(group_unit "$g")")")
        [ "$fail" -eq 0 ] || failed_groups+=("$g ($fail failed)")
        [ "$skip" -eq 0 ] || skipped_groups+=("$g $skip")
    done
}

# Groups that run with no other group beside them: they boot multi-hart
# guests (-smp 2 and 4) and compare Linux's selftests on two kernels, whose
# timing-sensitive cases (futex_requeue) fail when another group takes CPUs.
runs_alone() {
    case "$1" in linux|distro) return 0 ;; *) return 1 ;; esac
}

# What the groups that run alone build (their kernels, firmware, selftests
# and Debian system; each step is up to date in seconds once built), done
# first beside the other groups, so that on a machine where nothing is built
# yet the other lanes run tests meanwhile and what runs alone is the tests.
# A step that fails here is not counted: its group runs it again and reports it.
build_for_alone_groups() {
    local distro=$1 step t0 rc failed=0
    local steps=("build-binutils.sh" "build-linux.sh" "build-linux.sh --stock" "build-opensbi.sh"
                 "build-busybox.sh" "build-kselftests.sh")
    [ "$distro" = 0 ] || { steps+=("build-distro.sh"); mkdir -p "$logdir/distro"; }
    for step in "${steps[@]}"; do
        t0=$SECONDS rc=0
        # shellcheck disable=SC2086  # the step's arguments
        TL_DISTRO_IMAGE="$logdir/distro/tl-debian.ext4" "$TL_REPO"/scripts/$step >/dev/null || rc=$?
        echo "check: scripts/$step: exit status $rc, $(tl_duration $((SECONDS - t0)))"
        [ "$rc" -eq 0 ] || failed=1
    done
    [ "$failed" = 0 ] || echo "check: a step above did not succeed; the group that needs it runs it again and reports it"
}

# Groups at once: a pool of $jobs.  The builds of the groups that run alone
# (build_for_alone_groups) start first, then the other groups, those that
# took longest in the last run (their .result files) first, unknown ones in
# list order before them; the groups that run alone come last, one by one.
run_groups_at_once() {
    local jobs=$1 g secs alone order=() running=0 done_n=0 alone_distro=0 alone_any=0
    local -A group_of=()
    for g in "${groups[@]}"; do
        secs=$(awk '{print $4; exit}' "$logdir/$g.result" 2>/dev/null)
        alone=0
        if runs_alone "$g"; then
            alone=1 alone_any=1
            [ "$g" != distro ] || alone_distro=1
        fi
        order+=("$alone ${secs:-999999} $g")
    done
    mapfile -t order < <(printf '%s\n' "${order[@]}" | sort -s -k1,1n -k2,2nr | awk '{print $3}')
    # wait_until N: prints the groups that end until at most N run.
    wait_until() {
        local pid name
        while [ "$running" -gt "$1" ]; do
            wait -n -p pid
            running=$((running - 1))
            name=${group_of[$pid]}
            unset "group_of[$pid]"
            cat "$logdir/$name.console"
            if [ "$name" = alone-builds ]; then
                log "the builds of the groups that run alone ended"
                continue
            fi
            done_n=$((done_n + 1))
            log "test group $name ended ($done_n of ${#groups[@]})$( (read -r p f k t; printf ': %s passed, %s failed, %s skipped, %s' "$p" "$f" "$k" "$(tl_duration "$t")") < "$logdir/$name.result" 2>/dev/null)"
        done
    }
    # The QEMU build every group but three uses, once before they start.
    for g in "${groups[@]}"; do
        case "$g" in scripts|reference|unit) ;; *) build_qemu; break ;; esac
    done
    local alone_list=""
    for g in "${groups[@]}"; do runs_alone "$g" && alone_list+=" $g"; done
    log "running ${#groups[@]} test groups, $jobs at a time (CHECK_JOBS)${alone_list:+, alone:$alone_list}; each group's output follows when it ends"
    # Interrupted: the groups' whole process trees go too (their QEMUs, builds).
    kill_tree() {
        local c
        for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
        kill "$1" 2>/dev/null
    }
    trap 'trap - INT TERM; for pid in "${!group_of[@]}"; do kill_tree "$pid"; done; exit 130' INT
    trap 'trap - INT TERM; for pid in "${!group_of[@]}"; do kill_tree "$pid"; done; exit 143' TERM
    if [ "$alone_any" = 1 ]; then
        { echo "=== builds of the groups that run alone ==="; build_for_alone_groups "$alone_distro"; } \
            >"$logdir/alone-builds.console" 2>&1 </dev/null &
        group_of[$!]=alone-builds
        running=$((running + 1))
        log "the builds of the groups that run alone started"
    fi
    for g in "${order[@]}"; do
        if runs_alone "$g"; then wait_until 0; else wait_until $((jobs - 1)); fi
        run_group "$g" >"$logdir/$g.console" 2>&1 </dev/null &
        group_of[$!]=$g
        running=$((running + 1))
        log "test group $g started"
        ! runs_alone "$g" || wait_until 0
    done
    wait_until 0
    trap - INT TERM
}

jobs=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "CHECK_JOBS=$jobs: give the number of test groups to run at once (1 or more)"
[ -n "${CHECK_JOBS:-}" ] || [ "$jobs" -le 4 ] || jobs=4
if [ "$jobs" -gt 1 ] && [ ${#groups[@]} -gt 1 ]; then
    run_groups_at_once "$jobs"
else
    for g in "${groups[@]}"; do
        run_group "$g"
    done
fi
summarize
tl_steps_table "make check"
echo "=== summary ==="
printf '%-10s %8s %7s %8s %8s  %s\n' group passed failed skipped time "unit (what one pass counts)"
printf '%s\n' "${summary[@]}"
skipped=""
[ ${#skipped_groups[@]} -eq 0 ] || skipped="; skipped (not passed): $(IFS=,; echo "${skipped_groups[*]}" | sed 's/,/, /g')"
if [ ${#failed_groups[@]} -eq 0 ]; then
    if [ ${#groups[@]} -eq 1 ]; then echo "check: the ${groups[0]} group passed$skipped"
    else echo "check: all ${#groups[@]} groups passed$skipped"; fi
else
    echo "check: ${#failed_groups[@]} of ${#groups[@]} groups FAILED: $(IFS=,; echo "${failed_groups[*]}" | sed 's/,/, /g')$skipped"
fi
[ ${#failed_groups[@]} -eq 0 ]
