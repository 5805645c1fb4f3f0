#!/usr/bin/env bash
# Tests of the C++ tile API (include/tl/tile.hpp) and the kernels (kernels/):
#  - builds the tests and the programming guide's examples (docs/examples/)
#    for the host backend (Meson, in $BUILD_DIR/host, linking the semantic
#    core) and for riscv64 (riscv64-linux-gnu-g++ -O2 -static, in
#    $BUILD_DIR/tests/api), run under qemu-riscv64 -cpu rv64,xtl=on;
#  - runs both; the assertions of test_ops and test_kernels count once, from
#    the riscv64 run under QEMU; the host run of the same assertions is one
#    check (it exits 0 and passes as many as the riscv64 run); and the two
#    backends must produce byte-identical outputs (--dump files, example output);
#  - checks that API misuse is a compile error (compile_fail/*.cpp, each with
#    an "// expect: MESSAGE" line) or a run-time check failure (test_misuse).
# Ends with "N passed, M failed".  TL_API_SEED=N changes the random inputs.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool g++ g++
need_tool python3 python3
need_tool riscv64-linux-gnu-g++ g++-riscv64-linux-gnu

src="$TL_REPO/tests/api"
qemu="$BUILD_DIR/qemu/qemu-riscv64"
need_qemu "$qemu"
out="$BUILD_DIR/tests/api"
host="$BUILD_DIR/host"
mkdir -p "$out"
seed=${TL_API_SEED:-12345}
examples=()   # every docs/examples/*.cpp (each needs a tl-example-NAME target in tests/api/meson.build)
for f in "$TL_REPO"/docs/examples/*.cpp; do examples+=("$(basename "$f" .cpp)"); done

. "$TL_REPO/tests/tap.sh"

# ---- host build (Meson) ----
# scripts/build-host.sh: the whole host build (the unit group's too), the
# API tests and examples included.
"$TL_REPO/scripts/build-host.sh" >"$out/host-build.out" 2>&1
rc=$?
check $rc "host backend: meson builds the API tests and the examples (log: $BUILD_DIR/host-build.log)"
[ "$rc" -eq 0 ] || tail -n 5 "$out/host-build.out" | sed 's/^/# /'
grep -E 'warning|error' "$BUILD_DIR/host-build.log" | head -n 20

# ---- riscv64 build ----
RVFLAGS=(-std=c++17 -O2 -static -Wall -Wextra -Werror -I"$TL_REPO/include" -I"$TL_REPO/kernels" -I"$src")
deps=("$TL_REPO"/include/tl/* "$TL_REPO"/kernels/*.hpp "$src"/*.hpp)
stale() {   # stale <binary> <sources...>: true when the binary is older than a source or header
    local bin=$1 f; shift
    [ -x "$bin" ] || return 0
    for f in "$@" "${deps[@]}"; do [ "$f" -nt "$bin" ] && return 0; done
    return 1
}
rv_build() {   # rv_build <name> <source> [flags...]
    local name=$1 cpp=$2; shift 2
    if stale "$out/$name" "$cpp"; then
        rm -f "$out/$name"
        riscv64-linux-gnu-g++ "${RVFLAGS[@]}" "$@" "$cpp" -o "$out/$name.tmp" >"$out/$name.log" 2>&1 &&
            mv "$out/$name.tmp" "$out/$name"
    fi
}
rv_jobs=()
rv_build test_ops "$src/test_ops.cpp" & rv_jobs+=("$!:test_ops")
rv_build test_kernels "$src/test_kernels.cpp" & rv_jobs+=("$!:test_kernels")
rv_build test_misuse "$src/test_misuse.cpp" & rv_jobs+=("$!:test_misuse")
rv_build test_misuse_nocheck "$src/test_misuse.cpp" -DTL_API_NO_CHECKS & rv_jobs+=("$!:test_misuse_nocheck")
for e in "${examples[@]}"; do
    rv_build "example_$e" "$TL_REPO/docs/examples/$e.cpp" & rv_jobs+=("$!:example_$e")
done
for j in "${rv_jobs[@]}"; do
    wait "${j%%:*}"
    check $? "riscv64: riscv64-linux-gnu-g++ -O2 -static builds ${j#*:}"
    [ -s "$out/${j#*:}.log" ] && head -n 20 "$out/${j#*:}.log"
done

# ---- compile-time checks ----
for f in "$src"/compile_fail/*.cpp; do
    expect=$(sed -n 's#^// expect: ##p' "$f" | head -n 1)
    for cxx in g++ riscv64-linux-gnu-g++; do
        msg=$("$cxx" -std=c++17 -fsyntax-only -I"$TL_REPO/include" -I"$TL_REPO/target-riscv-tl/core" "$f" 2>&1)
        rc=$?
        [ "$rc" -ne 0 ] && [ -n "$expect" ] && grep -qF -- "$expect" <<<"$msg"
        check $? "compile error with $cxx: $(basename "$f" .cpp) says '$expect'"
    done
done

# ---- run the tests on both backends ----
# run_counted <label> <command...>: runs a test program; sets run_rc, run_pass
# and run_fail from its exit status and its own "N passed, M failed" line.
run_counted() {
    local label=$1; shift
    local log
    log=$(mktemp)
    echo "# $label: $*"
    timeout "${RUN_TIMEOUT:-600}" "$@" >"$log" 2>&1
    run_rc=$?
    grep -v '^ok ' "$log"   # failures and comments; passing lines are in the dump logs
    read -r run_pass run_fail < <(counts_of "$log")
    run_pass=${run_pass:-0} run_fail=${run_fail:-0}
    cp "$log" "$out/$(tr ' /' '__' <<<"$label").log"
    rm -f "$log"
}
declare -A gcc_pass gcc_fail
for t in ops kernels; do
    run_counted "test_$t host" "$host/tests/api/tl-api-$t" --seed "$seed" --dump "$out/test_$t.host.bin"
    host_rc=$run_rc host_pass=$run_pass host_fail=$run_fail
    run_counted "test_$t riscv64" "$qemu" -cpu rv64,xtl=on "$out/test_$t" --seed "$seed" --dump "$out/test_$t.riscv64.bin"
    # the riscv64 run's assertions count; the host run of the same assertions is one check
    add_counts "$run_pass" "$run_fail"
    gcc_pass[$t]=$run_pass gcc_fail[$t]=$run_fail
    check $(( run_rc != 0 || run_pass == 0 )) "test_$t riscv64 exits 0 and ran its assertions (exit $run_rc, $run_pass passed, counted above)"
    check $(( host_rc != 0 || host_fail != 0 || host_pass != run_pass + run_fail )) \
        "test_$t host: the same $host_pass assertions all pass on the host backend (exit $host_rc, $host_fail failed; not counted again)"
    [ -s "$out/test_$t.host.bin" ] && cmp -s "$out/test_$t.host.bin" "$out/test_$t.riscv64.bin"
    check $? "test_$t: host and riscv64 outputs are byte-identical ($(stat -c %s "$out/test_$t.host.bin" 2>/dev/null || echo 0) bytes)"
done

# ---- riscv64 built by clang (LLVM's assembler: tl_insn.h's .insn form) ----
# The same tests built by clang++-16 run the same assertions and produce the
# same bytes as the host backend.
tap_can_skip
if command -v clang++-16 >/dev/null; then
    for t in ops kernels; do
        bin="$out/test_${t}_clang"
        if stale "$bin" "$src/test_$t.cpp"; then
            rm -f "$bin"
            clang++-16 --target=riscv64-linux-gnu -march=rv64gc "${RVFLAGS[@]}" "$src/test_$t.cpp" \
                -o "$bin.tmp" >"$bin.log" 2>&1 && mv "$bin.tmp" "$bin"
        fi
        [ -x "$bin" ]
        check $? "riscv64: clang++-16 --target=riscv64-linux-gnu -O2 -static builds test_$t (log: $bin.log)"
        [ -s "$bin.log" ] && head -n 20 "$bin.log"
        rm -f "$bin.bin"
        run_counted "test_$t riscv64 clang" "$qemu" -cpu rv64,xtl=on "$bin" --seed "$seed" --dump "$bin.bin"
        check $(( run_rc != 0 || run_fail != 0 || run_pass != ${gcc_pass[$t]:-0} + ${gcc_fail[$t]:-0} )) \
            "test_$t built by clang: the same assertions all pass under QEMU (exit $run_rc, $run_pass passed, $run_fail failed; not counted again)"
        [ -s "$out/test_$t.host.bin" ] && cmp -s "$out/test_$t.host.bin" "$bin.bin"
        check $? "test_$t built by clang: output byte-identical to the host backend's"
    done
else
    for t in ops kernels; do
        skip_case "test_$t built by clang++-16" "clang++-16 is not installed (make deps installs it)"
    done
fi

# ---- the guide's examples ----
for e in "${examples[@]}"; do
    h=$("$host/tests/api/tl-example-$e" 2>&1); hrc=$?
    r=$(timeout 120 "$qemu" -cpu rv64,xtl=on "$out/example_$e" 2>&1); rrc=$?
    check $(( hrc != 0 )) "example $e runs on the host backend (exit $hrc)"
    check $(( rrc != 0 )) "example $e runs on riscv64 (exit $rrc)"
    [ "$h" = "$r" ]
    check $? "example $e prints the same on both backends"
    [ "$h" = "$r" ] || diff <(printf '%s\n' "$h") <(printf '%s\n' "$r") | head -n 10
done

# The guide's listings are the example files, and every example is in the guide.
listed=$(python3 "$src/sync_guide.py" --check)
check $? "docs/programming-guide.md: every example listing equals its file"
for e in "${examples[@]}"; do
    grep -qx "docs/examples/$e.cpp" <<<"$listed"
    check $? "docs/programming-guide.md lists docs/examples/$e.cpp"
done

# ---- run-time misuse ----
misuse_checked=(store_not_prefix load_too_wide load_odd_int4 load_huge_stride valid_too_big trap_concat_overflow)
for c in "${misuse_checked[@]}"; do
    msg=$("$host/tests/api/tl-api-misuse" "$c" 2>&1); rc=$?
    [ "$rc" -eq 134 ] && grep -q 'tl::' <<<"$msg" && ! grep -q 'no error' <<<"$msg"
    check $? "misuse $c: host stops in the API check (exit $rc: $(head -n 1 <<<"$msg" | sed 's#.*: tl::#tl::#'))"
    msg=$(timeout 60 "$qemu" -cpu rv64,xtl=on "$out/test_misuse" "$c" 2>&1); rc=$?
    [ "$rc" -eq 134 ] && grep -q 'tl::' <<<"$msg"
    check $? "misuse $c: riscv64 stops in the API check (exit $rc)"
done
# Without the API checks the hardware (or the core) rejects it.
msg=$("$host/tests/api/tl-api-misuse-nocheck" trap_concat_overflow 2>&1); rc=$?
[ "$rc" -eq 134 ] && grep -q 'tl.concat raised illegal-instruction' <<<"$msg"
check $? "TL_API_NO_CHECKS: host backend reports the core's illegal-instruction for tl.concat (exit $rc)"
msg=$(timeout 60 "$qemu" -cpu rv64,xtl=on "$out/test_misuse_nocheck" trap_concat_overflow 2>&1); rc=$?
[ "$rc" -eq 132 ]
check $? "TL_API_NO_CHECKS: riscv64 dies of SIGILL for tl.concat (exit $rc, want 132)"

tap_end
