# Shared by the test scripts: sourced after scripts/lib.sh.  A script counts
# its checks in pass/fail, its skips in skip, and ends with the line
# "N passed, M failed" (", K skipped" when it can skip) that scripts/check.sh
# adds up.
# shellcheck shell=bash
pass=0 fail=0 skip=0

check() {   # check <0 if ok> <description>
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "ok - $2"
    else fail=$((fail + 1)); echo "not ok - $2"; fi
}

skip_case() {   # skip_case <description> <reason>: counted as skipped, never as passed
    skip=$((skip + 1))
    echo "ok - $1 # SKIP $2"
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
            "ok - "*" # SKIP"*) relayed=$((relayed + 1)); skip=$((skip + 1)); echo "ok - $prefix${line#ok - }" ;;
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
    local prefix="" rc a what=()
    if [ "${1:-}" = --prefix ]; then prefix=$2; shift 2; fi
    [ "${1:-}" = -- ] && shift
    for a in "$@"; do what+=("${a##*/}"); done
    relay "$prefix" < <("$@" 2>&1)
    wait $!; rc=$?     # the process substitution's exit status (bash >= 4.4)
    if [ "$rc" -gt 128 ]; then
        check 1 "$prefix${what[*]} was killed by signal $((rc - 128))"
    elif [ "$rc" -ne 0 ] && [ "$relay_failed" -eq 0 ]; then
        check 1 "$prefix${what[*]} exited with status $rc without reporting a failed check"
    elif [ "$relayed" -eq 0 ]; then
        check 1 "$prefix${what[*]} reported no check (exit $rc)"
    elif [ "$rc" -ne 0 ]; then
        echo "# ${what[*]} exited with status $rc after $relay_failed failed check(s)"
    fi
}
