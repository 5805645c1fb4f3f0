# Shared by the test scripts: sourced after scripts/lib.sh.  A script counts
# its checks with check, skip_case, relay, relay_cmd and add_counts (in
# pass/fail/skip) and ends with tap_end, whose line "N passed, M failed"
# (", K skipped" when it can skip) scripts/check.sh adds up.
# shellcheck shell=bash
pass=0 fail=0 skip=0
tap_n=0 tap_number_lines=0 tap_show_skips=0

# tap_numbered: from now on the ok/not ok lines carry their number
# ("ok 3 - ..."), and tap_end prints the plan "1..N" before the counts.
tap_numbered() { tap_number_lines=1; }

# tap_can_skip: the script can skip checks, so its last line always names
# the skipped count (", 0 skipped" too).
tap_can_skip() { tap_show_skips=1; }

tap_line() {   # tap_line <ok|not ok> <description>
    tap_n=$((tap_n + 1))
    if [ "$tap_number_lines" = 1 ]; then echo "$1 $tap_n - $2"
    else echo "$1 - $2"; fi
}

check() {   # check <0 if ok> <description>
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); tap_line ok "$2"
    else fail=$((fail + 1)); tap_line "not ok" "$2"; fi
}

skip_case() {   # skip_case <description> <reason>: counted as skipped, never as passed
    skip=$((skip + 1))
    tap_line ok "$1 # SKIP $2"
}

# add_counts <passed> <failed> [<skipped>]: adds checks that a program ran
# and reported itself (its own "N passed, M failed" line), one line each
# elsewhere, to this script's counts.
add_counts() {
    pass=$((pass + ${1:-0})) fail=$((fail + ${2:-0})) skip=$((skip + ${3:-0}))
}

# counts_of <file>: "N M" from the last "N passed, M failed" line of FILE
# (a program's own summary); nothing when it has none.
counts_of() {
    grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1 | awk '{print $1, $3}'
}

# tap_end: the script's last line, "N passed, M failed", with ", K skipped"
# when something was skipped or after tap_can_skip; after tap_numbered the
# plan "1..N" comes first.  Returns 1 when a check failed, so that as the
# script's last command it is its exit status.
tap_end() {
    if [ "$tap_number_lines" = 1 ]; then echo "1..$tap_n"; fi
    if [ "$skip" -gt 0 ] || [ "$tap_show_skips" = 1 ]; then
        echo "$pass passed, $fail failed, $skip skipped"
    else
        echo "$pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
}

show() {    # show <file>: indented, for a failing check
    sed 's/^/#   /' "$1" | head -n 20
}

# relay [prefix]: the ok/not ok lines of stdin become checks ("ok - ... # SKIP
# ..." a skip), the rest comments.  Sets relayed and relay_failed to the
# number of ok/not ok lines and of not ok lines it read.
relay() {
    local line prefix=${1:-}
    relayed=0 relay_failed=0
    while IFS= read -r line; do
        case "$line" in
            "ok - "*" # SKIP"*) relayed=$((relayed + 1)); skip=$((skip + 1)); tap_line ok "$prefix${line#ok - }" ;;
            "ok - "*) relayed=$((relayed + 1)); check 0 "$prefix${line#ok - }" ;;
            "not ok - "*) relayed=$((relayed + 1)) relay_failed=$((relay_failed + 1))
                          check 1 "$prefix${line#not ok - }" ;;
            *) echo "# $line" ;;
        esac
    done
}

# relay_cmd [--prefix P] -- CMD [ARGS...]: runs CMD (stdin is the caller's)
# and relays its stdout and stderr as relay does.  Then one failed check
# names CMD if it was killed by a signal, exited non-zero without a not ok
# line, or printed no ok/not ok line at all.  (A non-zero exit after a not ok
# line is already a failure.)  Not in a pipeline: the counts would be lost.
relay_cmd() {
    local prefix="" rc a words=()
    if [ "${1:-}" = --prefix ]; then prefix=$2; shift 2; fi
    [ "${1:-}" = -- ] && shift
    for a in "$@"; do words+=("${a##*/}"); done
    relay "$prefix" < <("$@" 2>&1)
    wait $!; rc=$?     # the process substitution's exit status (bash >= 4.4)
    if [ "$rc" -gt 128 ]; then
        check 1 "$prefix${words[*]} was killed by signal $((rc - 128))"
    elif [ "$rc" -ne 0 ] && [ "$relay_failed" -eq 0 ]; then
        check 1 "$prefix${words[*]} exited with status $rc without reporting a failed check"
    elif [ "$relayed" -eq 0 ]; then
        check 1 "$prefix${words[*]} reported no check (exit $rc)"
    elif [ "$rc" -ne 0 ]; then
        echo "# ${words[*]} exited with status $rc after $relay_failed failed check(s)"
    fi
}
