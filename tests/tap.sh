# Shared by the test scripts: sourced after scripts/lib.sh.  A script counts
# its checks in pass/fail and ends with the line "N passed, M failed" that
# scripts/check.sh adds up.
pass=0 fail=0

check() {   # check <0 if ok> <description>
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "ok - $2"
    else fail=$((fail + 1)); echo "not ok - $2"; fi
}

show() {    # show <file>: indented, for a failing check
    sed 's/^/#   /' "$1" | head -n 20
}

relay() {   # relay [prefix]: the ok/not ok lines of stdin become checks, the rest comments
    local line prefix=${1:-}
    while IFS= read -r line; do
        case "$line" in
            "ok - "*) check 0 "$prefix${line#ok - }" ;;
            "not ok - "*) check 1 "$prefix${line#not ok - }" ;;
            *) echo "# $line" ;;
        esac
    done
}
