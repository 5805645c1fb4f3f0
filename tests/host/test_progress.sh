#!/usr/bin/env bash
# The progress lines of long build steps and the table of step times
# (scripts/lib.sh: tl_progress, tl_timed, tl_steps_table), with made-up
# build commands whose output and duration are known.  Ends with "N passed,
# M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"
BUILD_DIR="$tmp/build"
# Not the step table of a make check around this test: one of its own.
unset TL_STEP_TIMES TL_STEPS_OWNER
export TL_PROGRESS_INTERVAL=1

# A ninja-like build: 4 of 8 steps after about 2 s, then the rest.
fake_ninja() {
    echo "[1/8] Compiling C object a.o"; echo "[2/8] Compiling C object b.o"
    echo "[3/8] Compiling C object c.o"; echo "[4/8] Compiling C object d.o"
    sleep 3
    echo "[8/8] Linking target q"
}
(
    tl_steps_begin
    tl_progress "building fake" "$tmp/ninja.log" fake_ninja
    echo "status $?"
    tl_progress "failing step" "$tmp/fail.log" bash -c 'echo "  CC  x.o"; echo "  CC  y.o"; sleep 2; exit 7'
    echo "status $?"
    tl_timed "a timed step" sleep 1
    tl_timed "a timed step" true
    tl_steps_table "fake run"
) >"$tmp/out" 2>"$tmp/err"
grep -qE '^\[tl-qemu\] building fake: 4/8 \(50%\), [0-9]+s, about [0-9]+s left$' "$tmp/err"
check $? "ninja's [n/m] becomes 'building fake: 4/8 (50%), Ns, about Ns left' while the step runs"
grep -qE '^\[tl-qemu\] building fake: done in [0-9]+s$' "$tmp/err"
check $? "the step ends with 'building fake: done in Ns'"
grep -qx '\[8/8\] Linking target q' "$tmp/ninja.log" && ! grep -q 'Compiling' "$tmp/err"
check $? "the build's own output goes to its log, not to the terminal"
grep -qE '^\[tl-qemu\] failing step: 2 files compiled, [0-9]+s$' "$tmp/err"
check $? "a make-style log gives 'N files compiled'"
grep -qx 'status 0' "$tmp/out" && grep -qx 'status 7' "$tmp/out"
check $? "tl_progress returns the command's exit status (0, then 7)"
grep -qx '=== fake run: time of each step ===' "$tmp/out" &&
    grep -qE '^  building fake +[3-9]s$' "$tmp/out" &&
    grep -qE '^  failing step +[2-9]s$' "$tmp/out" &&
    grep -qE '^  a timed step \(2 times\) +[1-3]s$' "$tmp/out" &&
    grep -qE '^  total +[6-9]s$|^  total +1[0-9]s$' "$tmp/out"
check $? "the table: each step once with its time, a repeated step summed with its count, the total"
[ -d "$BUILD_DIR" ] && [ -z "$(ls -A "$BUILD_DIR")" ]
check $? "the table's file is removed after the table"

# A tree built once in a make check run (tl_mark_built, tl_built_this_run).
: >"$tmp/Image"
(
    unset TL_BUILT_THIS_RUN
    tl_mark_built "$tmp/Image" 6.12 && ! tl_built_this_run "$tmp/Image" 6.12
) 2>>"$tmp/err"
check $? "outside make check (TL_BUILT_THIS_RUN unset) nothing counts as built: every call builds"
(
    export TL_BUILT_THIS_RUN="$tmp/built"
    ! tl_built_this_run "$tmp/Image" 6.12 || exit 1
    tl_mark_built "$tmp/Image" 6.12 && tl_built_this_run "$tmp/Image" 6.12 || exit 1
    ! tl_built_this_run "$tmp/Image" 0.0.0-1 || exit 1
    rm "$tmp/Image"
    ! tl_built_this_run "$tmp/Image" 6.12
) 2>>"$tmp/err"
check $? "in make check: built once, the same output and inputs are not checked again; other inputs or a missing output are"
tap_end
