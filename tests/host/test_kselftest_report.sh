#!/usr/bin/env bash
# The selftest table and checks of tests/linux/kselftests.sh
# (tests/linux/kselftest-report.sh) on made-up result files whose outcome is
# known: a selftest that passes everywhere, one that passes only on its
# second run on the TL kernel, one that fails both runs there, one that
# times out twice, one never run on the TL kernel, one the kernel without TL
# skips, one that kernel passes only on its second run.  Ends with "N
# passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$TL_REPO/tests/tap.sh"

# res <config> <lines>: DIR/<config>.res, "TEST EXIT_STATUS SECONDS" per run
res() { printf '%s\n' "${@:2}" >"$tmp/$1.res"; }
everywhere="pass:all 0 1.0"
res stock-max   "$everywhere" "retry:tl 0 1.0" "twice:tl 0 1.0" "timeout:tl 0 1.0" "lost:tl 0 1.0" \
                "skip:stock 4 0.1" "retry:stock 1 2.0" "retry:stock 0 1.0"
res stock-rv64v "$everywhere" "retry:tl 0 1.0" "twice:tl 0 1.0" "timeout:tl 0 1.0" "lost:tl 0 1.0" \
                "skip:stock 4 0.1" "retry:stock 0 1.0"
res tl-max      "$everywhere" "retry:tl 1 2.0" "retry:tl 0 1.0" "twice:tl 0 1.0" "timeout:tl 0 1.0" \
                "skip:stock 0 1.0" "retry:stock 0 1.0"
res tl-rv64v    "$everywhere" "retry:tl 0 1.0" "twice:tl 0 1.0" "timeout:tl 137 30" "timeout:tl 124 30" \
                "lost:tl 0 1.0" "skip:stock 0 1.0" "retry:stock 0 1.0"
res tl-max-tlproc   "$everywhere" "retry:tl 0 1.0" "twice:tl 1 2.0" "twice:tl 1 2.0" "timeout:tl 0 1.0" \
                    "lost:tl 0 1.0" "skip:stock 0 1.0" "retry:stock 0 1.0"
res tl-rv64v-tlproc "$everywhere" "retry:tl 0 1.0" "twice:tl 0 1.0" "timeout:tl 0 1.0" "lost:tl 0 1.0" \
                    "skip:stock 0 1.0" "retry:stock 0 1.0"

(
    . "$TL_REPO/tests/tap.sh"
    . "$TL_REPO/tests/linux/kselftest-report.sh"
    tests=(pass:all retry:tl twice:tl timeout:tl lost:tl skip:stock retry:stock)
    configs=(stock-max stock-rv64v tl-max tl-rv64v tl-max-tlproc tl-rv64v-tlproc)
    ksft_report "$tmp"
    tap_end
) >"$tmp/out" 2>"$tmp/err"
rc=$?

# has <fixed line>: the report printed exactly this line
has() { grep -qxF -- "$1" "$tmp/out"; }
has "# pass:all                                   pass        pass        pass        pass        pass        pass       " &&
    has "# retry:tl                                   pass        pass        pass*       pass        pass        pass       " &&
    has "# timeout:tl                                 pass        pass        pass        timeout*    pass        pass       " &&
    has "# lost:tl                                    pass        pass        not run     pass        pass        pass       " &&
    has "# retry:stock                                pass*       pass        pass        pass        pass        pass       "
check $? "the table: each boot's last status, '*' after a second run, 'not run' for a missing selftest"
has "ok - selftest pass:all on the TL kernel, -cpu max, plain process: pass (passes on the kernel without TL support)"
check $? "a selftest passing everywhere: its check passes"
has "ok - selftest retry:tl on the TL kernel, -cpu max, plain process: pass on its second run (fail 1 on the first) (passes on the kernel without TL support)"
check $? "passing on its second run: the check passes and names the first run's failure"
has "not ok - selftest twice:tl on the TL kernel, -cpu max, TL-using process: fail 1 on its second run (fail 1 on the first) (passes on the kernel without TL support)"
check $? "failing both runs: the check fails"
has "not ok - selftest timeout:tl on the TL kernel, -cpu rv64,v=true,xtl=on, plain process: timeout on its second run (timeout on the first) (passes on the kernel without TL support)"
check $? "timing out both runs (exit status 137, then 124): the check fails as a timeout"
has "not ok - selftest lost:tl on the TL kernel, -cpu max, plain process: not run (passes on the kernel without TL support)"
check $? "a selftest the TL kernel's boot never ran: the check fails"
has "ok - selftest skip:stock on the TL kernel, -cpu max, plain process # SKIP it does not pass on the kernel without TL support either (skip there, pass here)"
check $? "skipped on the kernel without TL support: skipped, not passed, on the TL kernel"
has "ok - selftest retry:stock on the TL kernel, -cpu max, TL-using process: pass (passes on the kernel without TL support, on its second run there)" &&
    has "ok - selftest retry:stock on the TL kernel, -cpu rv64,v=true,xtl=on, TL-using process: pass (passes on the kernel without TL support)"
check $? "passing on the kernel without TL only on its second run: said in the TL checks of that CPU only"
[ "$rc" -ne 0 ] && [ "$(tail -n 1 "$tmp/out")" = "21 passed, 3 failed, 4 skipped" ] && [ ! -s "$tmp/err" ]
check $? "the counts: 28 checks, 3 failed (fail, timeout, not run), 4 skipped, and the report exits non-zero"
[ "$fail" -eq 0 ] || { echo "# the report:"; sed 's/^/#   /' "$tmp/out"; }
tap_end
