# The results part of tests/linux/kselftests.sh, sourced by it and by
# tests/host/test_kselftest_report.sh (made-up result files): the table of
# every selftest's status on each boot and the check of the rule, from the
# lines "TEST EXIT_STATUS SECONDS" of DIR/CONFIG.res, one per run (two when
# the first run failed).  Uses tests/tap.sh's check and skip_case, and the
# arrays tests (the selftests, in order) and configs (the boots).
# shellcheck shell=bash

# name_status <exit status>: pass, skip, fail N or timeout
name_status() {
    case "$1" in
        0) echo pass ;;
        4) echo skip ;;
        137|124) echo timeout ;;
        *) echo "fail $1" ;;
    esac
}

# status <config> <test>: its last run's status, or "not run"
status() {
    local s
    s=$(awk -v t="$2" '$1 == t { print $2 }' "$ksft_results/$1.res" | tail -n 1)
    if [ -n "$s" ]; then name_status "$s"; else echo "not run"; fi
}

# first_failure <config> <test>: its first run's status if the selftest was
# run again (the first run failed), else nothing
first_failure() {
    local s
    s=$(awk -v t="$2" '$1 == t { if (++n == 1) first = $2 } END { if (n > 1) print first }' "$ksft_results/$1.res")
    [ -z "$s" ] || name_status "$s"
}

# ksft_report <dir>: the table, then one check (or skip) per selftest, CPU
# and TL kernel mode
ksft_report() {
    local t c cpu line mark base base_how what got first
    ksft_results=$1
    echo "# selftest                                 stock/max   stock/rv64v tl/max      tl/rv64v    tl/max TL   tl/rv64v TL"
    echo "# (* = it failed its first run and ran again; the status shown is the second run's)"
    for t in "${tests[@]}"; do
        line=$(printf '%-42s' "$t")
        for c in "${configs[@]}"; do
            mark=
            [ -z "$(first_failure "$c" "$t")" ] || mark='*'
            line+=$(printf ' %-11s' "$(status "$c" "$t")$mark")
        done
        echo "# $line"
    done
    for t in "${tests[@]}"; do
        for cpu in max rv64v; do
            base=$(status "stock-$cpu" "$t")
            base_how="passes on the kernel without TL support"
            [ -z "$(first_failure "stock-$cpu" "$t")" ] || base_how+=", on its second run there"
            for c in "tl-$cpu" "tl-$cpu-tlproc"; do
                what="selftest $t on the TL kernel, -cpu ${cpu/rv64v/rv64,v=true,xtl=on}, $([ "$c" = "tl-$cpu" ] && echo "plain process" || echo "TL-using process")"
                got=$(status "$c" "$t")
                first=$(first_failure "$c" "$t")
                [ -z "$first" ] || got="$got on its second run ($first on the first)"
                if [ "$base" != pass ]; then
                    skip_case "$what" "it does not pass on the kernel without TL support either ($base there, $got here)"
                else
                    [ "${got%% *}" = pass ]
                    check $? "$what: $got ($base_how)"
                fi
            done
        done
    done
}
