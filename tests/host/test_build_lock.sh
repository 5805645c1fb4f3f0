#!/usr/bin/env bash
# One build step at a time (scripts/lib.sh: tl_build_lock, tl_with_build_lock),
# with made-up build steps in a build directory of its own: two holders never
# overlap and the second says it waits; a script run again under the lock
# keeps its arguments, output and exit status; a step started while holding
# the lock takes it again without waiting; a program a step leaves running
# does not keep the lock, nor one a function holding it starts.  Ends with
# "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tmp=$(mktemp -d)
trap 'pkill -f "$tmp/lingering" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"
export BUILD_DIR="$tmp/build"
unset TL_BUILD_LOCK_HELD

# A build script of the kind scripts/build-*.sh are.
cat >"$tmp/step.sh" <<EOF
#!/usr/bin/env bash
set -euo pipefail
. "$TL_REPO/scripts/lib.sh"
tl_build_lock "\$0" "\$@"
echo "step \$* start \$(date +%s.%N)" >>"$tmp/trace"
sleep "\${STEP_SLEEP:-1}"
[ -z "\${STEP_LEAVE:-}" ] || { setsid "$tmp/lingering" 30 >/dev/null 2>&1 </dev/null & }
echo "step \$* end \$(date +%s.%N)" >>"$tmp/trace"
echo "args: \$*"
exit "\${STEP_EXIT:-0}"
EOF
chmod +x "$tmp/step.sh"
# started WHO: waits (10 s at most) until WHO has written its start line, holding the lock.
started() {
    local i
    for i in $(seq 200); do
        grep -q "^$1 .*start\|^step $1 start" "$tmp/trace" 2>/dev/null && return 0
        sleep 0.05
    done
}
cp "$(command -v sleep)" "$tmp/lingering"

# Two steps started together: the trace is start, end, start, end.
"$tmp/step.sh" a 2>"$tmp/a.err" >"$tmp/a.out" &
started a
"$tmp/step.sh" b 2>"$tmp/b.err" >"$tmp/b.out" &
wait
awk '{print $3}' "$tmp/trace" | tr '\n' ' ' | grep -qx 'start end start end '
check $? "two build scripts started together run one after the other ($(awk '{printf "%s %s, ", $2, $3}' "$tmp/trace"))"
grep -q 'step.sh: waiting for another build or download in .*/build to finish' "$tmp/b.err"
check $? "the second says that it waits for the first ($(head -n 1 "$tmp/b.err"))"

# Arguments, standard output and exit status survive the run under flock.
STEP_SLEEP=0 STEP_EXIT=3 "$tmp/step.sh" 'two words' x >"$tmp/c.out" 2>&1
rc=$?
[ "$rc" -eq 3 ] && [ "$(cat "$tmp/c.out")" = "args: two words x" ]
check $? "a script under the lock keeps its arguments, output and exit status (exit $rc, '$(cat "$tmp/c.out")')"

# A function holding the lock against a script: no overlap either way, and a
# script started while the lock is held (a nested step) does not wait for it.
: >"$tmp/trace"
holder() { echo "fn - start $(date +%s.%N)" >>"$tmp/trace"; sleep 1; echo "fn - end $(date +%s.%N)" >>"$tmp/trace"; }
tl_with_build_lock holder 2>/dev/null &
started fn
"$tmp/step.sh" c >/dev/null 2>&1
wait
awk '{print $1 $3}' "$tmp/trace" | tr '\n' ' ' | grep -qx 'fnstart fnend stepstart stepend '
check $? "a script waits for a function holding the lock ($(awk '{printf "%s %s, ", $1, $3}' "$tmp/trace"))"
out=$(STEP_SLEEP=0 timeout 10 bash -c '. "$1/scripts/lib.sh"; tl_with_build_lock "$2/step.sh" nested' - "$TL_REPO" "$tmp" 2>&1)
rc=$?
[ "$rc" -eq 0 ] && [ "$out" = "args: nested" ]
check $? "a build script started while the lock is held runs at once (exit $rc, '$out')"
tl_with_build_lock false
check $(( $? == 1 ? 0 : 1 )) "tl_with_build_lock returns its command's status"

# A program a step leaves running does not hold the lock after the step.
STEP_SLEEP=0 STEP_LEAVE=1 "$tmp/step.sh" leave >/dev/null 2>&1
pgrep -f "$tmp/lingering" >/dev/null
check $? "the made-up step left a program running"
t0=$SECONDS
STEP_SLEEP=0 timeout 10 "$tmp/step.sh" after >/dev/null 2>"$tmp/after.err"
rc=$?
[ "$rc" -eq 0 ] && ! grep -q waiting "$tmp/after.err"
check $? "the next step takes the lock at once (exit $rc in $((SECONDS - t0)) s)"

pkill -f "$tmp/lingering"
tl_with_build_lock bash -c 'setsid "$0" 30 >/dev/null 2>&1 </dev/null &' "$tmp/lingering"
t0=$SECONDS
STEP_SLEEP=0 timeout 10 "$tmp/step.sh" after-fn >/dev/null 2>"$tmp/after-fn.err"
rc=$?
[ "$rc" -eq 0 ] && ! grep -q waiting "$tmp/after-fn.err" && pgrep -f "$tmp/lingering" >/dev/null
check $? "a program started under tl_with_build_lock and left running does not keep the lock either (exit $rc in $((SECONDS - t0)) s)"

tap_end
