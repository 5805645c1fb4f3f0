#!/usr/bin/env bash
# The firmware regression kit (scripts/tl-fw-run, examples/firmware-ci,
# docs/firmware-ci.md): the runner on images that pass, fail, hang, flood the
# UART, print every byte value, speak TAP without the finisher, skip, run
# short or bail out; raw images; a QEMU that refuses its options; host-side
# mistakes; our own firmware suite (same verdicts as tests/firmware/run.sh);
# JUnit against tests/fwci/junit.xsd; reproduce and replay lines rerun to the
# same UART bytes; determinism under -icount; sharding and merging; the
# example project outside the repository; the CI configurations (yamllint,
# and the GitLab job lines run here).  Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
need_tool yamllint yamllint
need_tool gdb-multiarch gdb-multiarch
/usr/bin/python3 -c 'import lxml, yaml' 2>/dev/null ||
    die "python3-lxml or python3-yaml is missing; run 'make deps' (or: apt-get install python3-lxml python3-yaml)"

qemu="$BUILD_DIR/qemu/qemu-system-riscv64"
need_qemu "$qemu"
src="$TL_REPO/tests/fwci"
example="$TL_REPO/examples/firmware-ci"
runner="$TL_REPO/scripts/tl-fw-run"
jt() { /usr/bin/python3 "$src/junit_tool.py" "$@"; }
same_junit() {   # same_junit <a.xml> <b.xml>: both read, and equal but for times
    local a b
    a=$(jt canon "$1") && b=$(jt canon "$2") && [ -n "$a" ] && [ "$a" = "$b" ]
}
out="$BUILD_DIR/tests/fwci"
rm -rf "$out" && mkdir -p "$out"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1

. "$TL_REPO/tests/tap.sh"
run() { "$runner" --qemu "$qemu" "$@"; }

# ---- images: the probes with the example project's runtime
CC=riscv64-unknown-elf-gcc
CFLAGS=(-march=rv64imac -misa-spec=2.2 -mabi=lp64 -mcmodel=medany -O2 -g -Wall -Wextra -Werror
        -ffreestanding -nostdlib -nostartfiles -I"$TL_REPO/include" -I"$example/src")
probes=(PASS FAIL FINISHER_ONLY TAP_OK_FINISHER_FAIL HANG FLOOD BYTES TAP_NO_FINISHER
        TAP_NO_PLAN SKIP_TODO SHORT_PLAN BAIL_OUT SKIP_ALL TIME)
built=0
for p in "${probes[@]}"; do
    name=$(echo "$p" | tr 'A-Z' 'a-z')
    $CC "${CFLAGS[@]}" -DPROBE_"$p" -T "$example/link.ld" "$example/src/start.S" "$example/src/fw.c" \
        "$src/probe.c" -lgcc -o "$out/$name.elf" 2>"$out/build.log" && built=$((built + 1)) ||
        sed 's/^/# /' "$out/build.log"
done
# the pass probe linked at 0x80200000, and both as raw binaries
sed 's/ORIGIN = 0x80000000/ORIGIN = 0x80200000/' "$example/link.ld" >"$out/link-80200000.ld"
$CC "${CFLAGS[@]}" -DPROBE_PASS -T "$out/link-80200000.ld" "$example/src/start.S" "$example/src/fw.c" \
    "$src/probe.c" -lgcc -o "$out/pass_high.elf" && built=$((built + 1))
$CC "${CFLAGS[@]}" -T "$example/link.ld" "$example/src/start.S" "$example/src/fw.c" \
    "$example/tests/two_harts.c" -lgcc -o "$out/two_harts.elf" && built=$((built + 1))
riscv64-unknown-elf-objcopy -O binary "$out/pass.elf" "$out/pass.bin"
riscv64-unknown-elf-objcopy -O binary "$out/pass_high.elf" "$out/pass_high.bin"
[ "$built" -eq $((${#probes[@]} + 2)) ]
check $? "the ${#probes[@]} probe images, a pass image linked at 0x80200000 and the example's two_harts build with riscv64-unknown-elf-gcc, no libc"
P=$out  # shorter below

# ---- --help
help=$("$runner" --help); r=$?
[ $r -eq 0 ] && for word in finisher 0x5555 tap both icount shard merge --junit --record FILE@ADDR; do
    [[ "$help" == *"$word"* ]] || { r=1; echo "# --help does not mention $word"; }
done
check $r "tl-fw-run --help exits 0 and documents finisher (0x5555), tap, both, icount, --shard, merge, --junit, --record, FILE@ADDR"

# ---- verdicts, one image at a time
# verdict_case <description> <expected exit> <expected TAP line regex> <runner args...>
verdict_case() {
    local desc=$1 want_rc=$2 want_re=$3; shift 3
    local got rc
    got=$(run --out-dir "$w/runs" "$@" 2>"$w/stderr"); rc=$?
    if [ $rc -eq "$want_rc" ] && grep -Eq "$want_re" <<<"$got" && [ ! -s "$w/stderr" ]; then
        check 0 "$desc (exit $rc; $(grep -E '^(not )?ok 1' <<<"$got" | head -n 1 | cut -c1-150))"
    else
        check 1 "$desc: want exit $want_rc and /$want_re/, got exit $rc"
        { echo "$got"; cat "$w/stderr"; } | sed 's/^/#   /' | head -n 20
    fi
}
verdict_case "pass: finisher 0x5555 and 2 TAP ok" 0 '^ok 1 - pass \(finisher PASS, 2 TAP results \(2 ok' "$P/pass.elf"
verdict_case "fail: 3 not ok, finisher code 3 -> QEMU exit status 3" 1 \
    '^not ok 1 - fail: finisher reported failure: QEMU exit status 3$' "$P/fail.elf"
verdict_case "fail: the TAP failures are listed under the result" 1 '^#   not ok - third fails$' "$P/fail.elf"
verdict_case "finisher PASS without TAP passes with --verdict finisher" 0 '^ok 1 - finisher_only \(finisher PASS' \
    --verdict finisher "$P/finisher_only.elf"
verdict_case "finisher PASS without TAP fails with --verdict both (the default)" 1 \
    '^not ok 1 - finisher_only: no TAP result' "$P/finisher_only.elf"
verdict_case "TAP all ok but finisher code 5 fails with --verdict both" 1 \
    'finisher reported failure: QEMU exit status 5' "$P/tap_ok_finisher_fail.elf"
verdict_case "TAP all ok but finisher code 5 passes with --verdict tap (the finisher is not consulted)" 0 \
    '^ok 1 - tap_ok_finisher_fail \(TAP complete' --verdict tap "$P/tap_ok_finisher_fail.elf"
verdict_case "hang: stopped at --timeout 2 and failed" 1 '^not ok 1 - hang: no verdict within 2s \(timeout\)' \
    --timeout 2 "$P/hang.elf"
verdict_case "TAP without the finisher: --verdict tap ends the run when the plan is complete" 0 \
    '^ok 1 - tap_no_finisher \(TAP complete, 2 TAP results \(2 ok' --verdict tap --timeout 30 "$P/tap_no_finisher.elf"
verdict_case "TAP without plan and without finisher: --verdict tap times out" 1 \
    '^not ok 1 - tap_no_plan: no verdict within 2s' --verdict tap --timeout 2 "$P/tap_no_plan.elf"
verdict_case "SKIP and TODO results: the run passes, and they are counted apart" 0 \
    '^ok 1 - skip_todo \(finisher PASS, 3 TAP results \(1 ok, 0 not ok, 1 skip, 1 todo\), plan 1..3\)' "$P/skip_todo.elf"
verdict_case "short plan: 1..5 with 3 results fails" 1 '^not ok 1 - short_plan: plan 1..5 but 3 results$' "$P/short_plan.elf"
verdict_case "Bail out! fails the run" 1 '^not ok 1 - bail_out: Bail out! the board is on fire$' "$P/bail_out.elf"
verdict_case "1..0 # SKIP: the test is reported as skipped" 0 \
    '^ok 1 - skip_all # SKIP firmware skipped itself: needs a board with L0M$' "$P/skip_all.elf"
verdict_case "UART flood: stopped after 4 MiB and failed" 1 '^not ok 1 - flood: UART output exceeded 4 MiB' \
    --timeout 60 "$P/flood.elf"
sz=$(stat -c %s "$w/runs/flood.uart")
[ "$sz" -eq $((4 << 20)) ]; check $? "UART flood: the kept log is cut to exactly 4 MiB (got $sz bytes)"
verdict_case "raw image pass.bin@0x80000000 (started by the reset ROM)" 0 '^ok 1 - pass \(finisher PASS, 2 TAP' \
    "$P/pass.bin@0x80000000"
verdict_case "raw image pass_high.bin@0x80200000 (hart 0 started at the load address)" 0 \
    '^ok 1 - pass_high \(finisher PASS, 2 TAP' "$P/pass_high.bin@0x80200000"
verdict_case "xtl off (--cpu rv64): the TL instruction traps, the firmware bails out" 1 \
    '^not ok 1 - pass: finisher reported failure: QEMU exit status 100' --cpu rv64 "$P/pass.elf"
verdict_case "a QEMU that refuses an option is a QEMU error, not a test failure" 1 \
    "^not ok 1 - pass: QEMU error: QEMU failed \(exit status 1\): .*-no-such-option: invalid option" \
    --qemu-arg=-no-such-option "$P/pass.elf"
verdict_case "QEMU debug output on stderr (-d cpu_reset) is not mistaken for a QEMU error" 1 \
    '^not ok 1 - fail: finisher reported failure: QEMU exit status 3$' --qemu-arg=-d --qemu-arg=cpu_reset "$P/fail.elf"
grep -q 'CPU Reset' "$w/runs/fail.stderr"; check $? "(that run's stderr holds QEMU's CPU reset log)"
verdict_case "a size QEMU refuses (--l1m 3000) is reported with QEMU's own message" 1 \
    'QEMU error: QEMU failed \(exit status 1\): .*tl-l1m-size must be 0 or a multiple of 4 KiB' --l1m 3000 "$P/pass.elf"

# ---- one suite with every kind of outcome: JUnit
cat >"$w/mixed.toml" <<EOF
[defaults]
timeout = 30
[[test]]
image = "$P/pass.elf"
[[test]]
image = "$P/fail.elf"
record = true
[[test]]
image = "$P/hang.elf"
timeout = 3
[[test]]
image = "$P/bytes.elf"
[[test]]
image = "$P/skip_todo.elf"
[[test]]
name = "not_today"
image = "$P/pass.elf"
skip = "the board is in the lab"
[[test]]
name = "refused"
image = "$P/pass.elf"
qemu_args = ["-no-such-option"]
[[test]]
image = "$P/skip_all.elf"
EOF
run --suite "$w/mixed.toml" -j 2 --out-dir "$w/mixed" --junit "$out/mixed.xml" --tap "$w/mixed.tap" >"$w/mixed.out"; r=$?
[ $r -eq 1 ] && cmp -s "$w/mixed.out" "$w/mixed.tap"
check $? "a mixed suite exits 1, and --tap FILE holds the TAP printed on stdout"
cases=$(jt cases "$out/mixed.xml" | tr '\n' ' ')
[ "$cases" = "bytes fail fail fail hang fail not_today skip pass pass refused error skip_all skip skip_todo pass " ]
check $? "JUnit: one testcase per test, sorted by name, with the expected outcome ($cases)"
jt consistent "$out/mixed.xml" >"$w/cons" 2>&1; check $? "JUnit: tests/failures/errors/skipped counts agree with the testcases ($(jt counts "$out/mixed.xml"))"
jt validate "$src/junit.xsd" "$out/mixed.xml" >"$w/val" 2>&1; check $? "JUnit of the mixed suite is valid against tests/fwci/junit.xsd: $(cat "$w/val")"
sed 's/<testcase name="pass" /<testcase /' "$out/mixed.xml" >"$w/broken1.xml"
sed 's/type="timeout"/type="timeout" severity="high"/' "$out/mixed.xml" >"$w/broken2.xml"
head -c 2000 "$out/mixed.xml" >"$w/broken3.xml"
for b in broken1 broken2 broken3; do
    jt validate "$src/junit.xsd" "$w/$b.xml" >"$w/val" 2>&1
    [ $? -ne 0 ]; check $? "the schema check rejects a broken JUnit file ($b): $(head -c 160 "$w/val")"
done
jt text "$out/mixed.xml" bytes system-out >"$w/bytes.txt"
/usr/bin/python3 - "$w/bytes.txt" "$w/mixed/bytes.uart" <<'EOF'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
raw = open(sys.argv[2], "rb").read()
want = []
for v in range(256):
    c = bytes([v])
    if v == 0x5c:
        want.append("\\\\")
    elif v in (9, 10) or 0x20 <= v < 0x7f:
        want.append(c.decode())
    else:
        want.append("\\x%02x" % v)
line = "".join(want)
assert raw.count(bytes(range(256))) == 1, "the UART log does not hold the 256 bytes"
assert line in text, "escaped line not found"
EOF
check $? "a UART log with all 256 byte values is attached XML-safely: control bytes, 0x7f and invalid UTF-8 as \\xNN, backslash as \\\\, the rest as is"
grep -q '^reproduce: ' <<<"$(jt text "$out/mixed.xml" hang failure)" &&
    [ "$(jt text "$out/mixed.xml" hang system-out)" = "1..1" ]
check $? "a timed-out test carries its UART log and reproduce line in JUnit"
msg=$(jt text "$out/mixed.xml" refused error | tail -n 1)
[[ "$msg" == "message: QEMU failed (exit status 1): "*"-no-such-option: invalid option" ]] &&
    grep -q 'invalid option' <<<"$(jt text "$out/mixed.xml" refused system-err)"
check $? "QEMU refusing its options is a JUnit <error> with QEMU's message and stderr ($msg)"
[ "$(jt text "$out/mixed.xml" not_today skipped)" = "message: the board is in the lab" ]
check $? "skip = \"reason\" in a suite gives <skipped message=\"reason\"> and 'ok N - name # SKIP reason' ($(grep not_today "$w/mixed.tap"))"

# ---- reproduce, replay, gdb lines of a failure
ftext=$(jt text "$out/mixed.xml" fail failure)
repro=$(sed -n 's/^reproduce: //p' <<<"$ftext")
replay=$(sed -n 's/^replay: //p' <<<"$ftext")
gdb=$(sed -n 's/^gdb: //p' <<<"$ftext")
echo "# reproduce: $repro"
echo "# replay: $replay"
(eval "$repro") </dev/null >"$w/repro.uart" 2>"$w/repro.err"; rc=$?
[ -s "$w/repro.uart" ] && cmp -s "$w/repro.uart" "$w/mixed/fail.uart" && [ $rc -eq 3 ]
check $? "the reproduce line of a failed test, rerun, prints the same UART bytes ($(wc -c <"$w/repro.uart") bytes) and exits 3 again (got $rc)"
(eval "$replay") </dev/null >"$w/replay.uart" 2>"$w/replay.err"; rc=$?
cmp -s "$w/replay.uart" "$w/mixed/fail.uart" && [ $rc -ne 0 ] && [[ "$replay" == *"rr=replay"* ]]
check $? "its replay line (-icount rr=replay of the recorded run) prints the same UART bytes and exits non-zero (got $rc)"
[[ "$gdb" == *" -s -S  # then, in another terminal: gdb-multiarch $P/fail.elf -ex 'target remote :1234'" ]] &&
    [[ "$repro" != *" -s -S"* ]]
check $? "its gdb line adds -s -S to the command and names gdb-multiarch with the ELF"
# The gdb line at work, on a free port instead of -s's 1234 (which another
# program on this machine may hold): gdb stops in fw_exit with failed = 3.
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
gdbq=${gdb%%  # then*}
gdbq=${gdbq/ -s -S/ -gdb tcp:127.0.0.1:$port -S}
(eval "exec $gdbq") </dev/null >"$w/gdb.uart" 2>&1 &
gq=$!
for _ in $(seq 50); do    # until QEMU listens
    timeout 30 gdb-multiarch -q -batch -nx "$P/fail.elf" -ex "target remote 127.0.0.1:$port" -ex 'break fw_exit' \
        -ex continue -ex 'print failed' -ex kill >"$w/gdb.log" 2>&1
    grep -q '^Breakpoint 1' "$w/gdb.log" && break
    sleep 0.1
done
kill "$gq" 2>/dev/null; wait "$gq" 2>/dev/null
grep -Eq '^\$1 = 3$' "$w/gdb.log"
check $? "its gdb line works: QEMU waits for gdb-multiarch, which stops at fw_exit and reads failed = 3 ($(grep -E '^(Breakpoint 1[.0-9]*,|\$1)' "$w/gdb.log" | tr '\n' ' '))"
[ -e "$w/mixed/fail.rr" ]; stale=$?
run --out-dir "$w/mixed" --timeout 3 "$P/fail.elf" >/dev/null
[ "$stale" -eq 0 ] && [ ! -e "$w/mixed/fail.rr" ]
check $? "a run without --record removes a stale recording of the same test"

run --out-dir "$w/rec-hang" --record --timeout 2 "$P/hang.elf" >"$w/rec-hang.out"
grep -q '^#   no replay: the recording of a run the runner had to stop is incomplete$' "$w/rec-hang.out" &&
    ! grep -q '^#   replay:' "$w/rec-hang.out"
check $? "a recorded run stopped at its timeout offers no replay line (its recording is incomplete) and says so"

# record/replay for smp > 1 is refused by QEMU: such a test runs unrecorded and says so
run --out-dir "$w/smp" --record --smp 2 --timeout 10 "$P/fail.elf" >"$w/smp.out"
grep -q '^#   not recorded: QEMU.s record/replay supports one hart only (smp = 2)$' "$w/smp.out" &&
    ! grep -q '^#   replay:' "$w/smp.out" && [ ! -e "$w/smp/fail.rr" ]
check $? "--record with smp = 2 runs unrecorded and the report says so, without a replay line"

# ---- determinism
for i in 1 2; do
    run --out-dir "$w/det$i" --verdict tap "$P/time.elf" >/dev/null
    run --out-dir "$w/det$i" --smp 2 "$P/two_harts.elf" >/dev/null
    run --out-dir "$w/nodet$i" --no-icount --verdict tap "$P/time.elf" >/dev/null
done
cmp -s "$w/det1/time.uart" "$w/det2/time.uart" && grep -q '^# mtime [0-9]' "$w/det1/time.uart"
check $? "with icount (the default) two runs of a probe printing mtime 8 times give identical UART logs"
cmp -s "$w/det1/two_harts.uart" "$w/det2/two_harts.uart" && grep -q '^ok 4 ' "$w/det1/two_harts.uart"
check $? "with icount two runs of the 2-hart example test give identical UART logs"
[ -s "$w/nodet1/time.uart" ] && [ -s "$w/nodet2/time.uart" ] && ! cmp -s "$w/nodet1/time.uart" "$w/nodet2/time.uart"
check $? "without icount (--no-icount) the same probe's logs differ, so the check above can fail ($(sed -n 2p "$w/nodet1/time.uart") vs $(sed -n 2p "$w/nodet2/time.uart"))"

# ---- reruns: the same suite twice gives the same JUnit, times aside (and the
# same TAP); QEMU's timing-dependent icount warning is not in the reports
r=0
for i in 1 2 3; do
    run --suite "$w/mixed.toml" --out-dir "$w/rerun" --junit "$w/rerun$i.xml" >"$w/rerun$i.tap"
    [ $? -eq 1 ] || r=1
done
same_junit "$w/rerun1.xml" "$w/rerun2.xml" && same_junit "$w/rerun1.xml" "$w/rerun3.xml" &&
    [ $r -eq 0 ] && ! grep -q 'icount sleep disabled' "$w"/rerun?.xml &&
    cmp -s "$w/rerun1.tap" "$w/rerun2.tap" && cmp -s "$w/rerun1.tap" "$w/rerun3.tap"
check $? "three runs of a suite with every outcome into one output directory: JUnit files identical but for time=, TAP files identical"

# ---- paths with commas and spaces, in every value the runner puts into a QEMU option
mkdir -p "$w/a,b c/out,d e"
cp "$P/pass.bin" "$w/a,b c/fw,1 x.bin"
cp "$P/pass.elf" "$w/a,b c/fw,2 y.elf"
cp "$P/fail.elf" "$w/a,b c/fw,3 z.elf"
verdict_case "a raw image whose path has commas and spaces ('a,b c/fw,1 x.bin@0x80000000')" 0 \
    '^ok 1 - fw_1_x \(finisher PASS' "$w/a,b c/fw,1 x.bin@0x80000000"
got=$(run --out-dir "$w/a,b c/out,d e" "$w/a,b c/fw,2 y.elf"); rc=$?
[ $rc -eq 0 ] && grep -q '^ok 1 - ' <<<"$got" && [ -s "$w/a,b c/out,d e/fw_2_y.uart" ]
check $? "an ELF image and an output directory with commas and spaces (exit $rc)"
got=$(run --record --out-dir "$w/a,b c/out,d e" "$w/a,b c/fw,3 z.elf"); rc=$?
replay=$(sed -n 's/^#   replay: //p' <<<"$got")
[ $rc -eq 1 ] && [ -s "$w/a,b c/out,d e/fw_3_z.rr" ] && [ -n "$replay" ]
check $? "--record with commas and spaces in the output directory writes the recording (exit $rc)"
(cd "$w" && eval "$replay" >"$w/replay-comma.uart" 2>/dev/null); rc=$?
cmp -s "$w/replay-comma.uart" "$w/a,b c/out,d e/fw_3_z.uart" && [ $rc -ne 0 ]
check $? "its replay line, run by a shell, replays from that file to the same UART bytes (exit $rc)"
got=$(run --out-dir "$w/runs" --l1m '4K,tl-l0m-size=8K' "$P/pass.elf" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "^error: .*l1m size '4K,tl-l0m-size=8K' is not a size" <<<"$got"
check $? "an --l1m value with a comma is refused as a size, not passed on as a second option (exit $rc: $got)"

# ---- the tlstat plugin through the runner, on 2 and 4 harts (-icount: one TCG
# thread): the example's 2-hart test, and tests/plugin/smp.c on 4 harts (each
# hart h runs 3000 + 1000*h tl.load: 18000 in all)
plugin="$BUILD_DIR/qemu/contrib/plugins/tlstat/libtlstat.so"
$CC -O2 -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -ffreestanding -nostdlib -Wl,--no-warn-rwx-segments \
    -I"$TL_REPO/include" -I"$TL_REPO" -DHARTS=4 -T "$TL_REPO/bench/baremetal/link.ld" \
    "$TL_REPO/bench/baremetal/smp_start.S" "$TL_REPO/tests/plugin/smp.c" -o "$w/smp4.elf"
for n in 2 4; do
    img=$P/two_harts.elf want=0 verdict=both
    [ "$n" = 2 ] || { img=$w/smp4.elf want=18000 verdict=finisher; }
    got=$(run --out-dir "$w/plug$n" --smp "$n" --verdict "$verdict" --qemu-arg=-plugin \
        --qemu-arg="$plugin,format=json,outfile=$w/plug$n.json" "$img" 2>&1); rc=$?
    [ $rc -eq 0 ] && grep -q '^ok 1 - ' <<<"$got" &&
        /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); w=int(sys.argv[2]); sys.exit(not (r["tl_insns"] == w if w else r["tl_insns"] > 0))' "$w/plug$n.json" "$want"
    check $? "tlstat under tl-fw-run --smp $n (icount, one TCG thread): $(basename "$img") passes and the report counts its TL instructions$([ "$want" = 0 ] || echo " ($want)") (exit $rc)"
    [ $rc -eq 0 ] || sed 's/^/#   /' <<<"$got" | tail -n 5
done

# ---- sharding
names=(zeta alpha mid_1 mid_10 mid_2 Beta omega)
for i in 0 1 2 3 4 5 6; do
    printf '[[test]]\nname = "%s"\nimage = "%s"\n' "${names[$i]}" "$P/pass.elf"
done >"$w/seven.toml"
# the same suite in another order
for i in 6 4 2 0 1 3 5; do
    printf '[[test]]\nname = "%s"\nimage = "%s"\n' "${names[$i]}" "$P/pass.elf"
done >"$w/seven-shuffled.toml"
mapfile -t sorted < <(printf '%s\n' "${names[@]}" | LC_ALL=C sort)
r=0
for n in 1 2 3 4 5; do
    all=()
    for k in $(seq 1 "$n"); do
        mapfile -t shard_got < <(run --suite "$w/seven.toml" --shard "$k/$n" --list | cut -d: -f1)
        mapfile -t shard_got2 < <(run --suite "$w/seven-shuffled.toml" --shard "$k/$n" --list | cut -d: -f1)
        shard_want=()
        for i in "${!sorted[@]}"; do [ $((i % n)) -eq $((k - 1)) ] && shard_want+=("${sorted[$i]}"); done
        [ "${shard_got[*]}" = "${shard_want[*]}" ] && [ "${shard_got2[*]}" = "${shard_want[*]}" ] ||
            { r=1; echo "# shard $k/$n: got '${shard_got[*]}' / '${shard_got2[*]}', want '${shard_want[*]}'"; }
        all+=("${shard_got[@]}")
    done
    [ "$(printf '%s\n' "${all[@]}" | LC_ALL=C sort)" = "$(printf '%s\n' "${sorted[@]}")" ] ||
        { r=1; echo "# N=$n: shards hold '${all[*]}'"; }
done
check $r "--shard K/N for N = 1..5: tests sorted by name dealt round-robin, every test in exactly one shard, independent of the suite's order"

run --suite "$w/mixed.toml" --shard 1/2 --out-dir "$w/mixed" --junit "$out/mixed-1.xml" >/dev/null
run --suite "$w/mixed.toml" --shard 2/2 --out-dir "$w/mixed" --junit "$out/mixed-2.xml" >/dev/null
"$runner" merge "$out/mixed-merged.xml" "$out/mixed-2.xml" "$out/mixed-1.xml" >"$w/merge.out"; r=$?
[ $r -eq 1 ] && same_junit "$out/mixed-merged.xml" "$out/mixed.xml"
check $? "merge of shards 2/2 + 1/2 equals the unsharded JUnit (times aside) and exits 1 for its failures: $(cat "$w/merge.out")"
jt validate "$src/junit.xsd" "$out/mixed-1.xml" "$out/mixed-2.xml" "$out/mixed-merged.xml" >"$w/val" 2>&1
check $? "the shard and merged JUnit files are valid against the schema"
run --suite "$w/seven.toml" --shard 1/3 --out-dir "$w/o13" --junit "$w/seven-1-3.xml" >/dev/null
run --suite "$w/seven.toml" -j 3 --out-dir "$w/j3" --junit "$w/j3.xml" >/dev/null
run --suite "$w/seven.toml" -j 1 --out-dir "$w/j1" --junit "$w/j1.xml" >/dev/null
same_junit "$w/j3.xml" "$w/j1.xml" && [ "$(jt counts "$w/j3.xml")" = "7 0 0 0" ]
check $? "-j 3 (parallel QEMUs) gives the same JUnit as -j 1 (7 tests passed)"

# ---- host-side mistakes: one "error: ..." line, exit 2, nothing on stdout
printf '[[test]]\nimage = "%s"\nsmp = "two"\n' "$P/pass.elf" >"$w/badtype.toml"
printf '[[test]]\nimage = "%s"\nhart = 2\n' "$P/pass.elf" >"$w/badkey.toml"
printf '[defaults]\nspeed = 2\n' >"$w/baddef.toml"
printf '[[test]]\nname = "x"\n' >"$w/noimage.toml"
printf '[[test]\nimage = 1\n' >"$w/syntax.toml"
printf '[[test]]\nname = "a"\nimage = "%s"\n[[test]]\nname = "a"\nimage = "%s"\n' "$P/pass.elf" "$P/fail.elf" >"$w/dup.toml"
printf 'not an ELF\n' >"$w/text.bin"
echo '<testsuites/>' >"$w/notours.xml"
bad() {   # bad <what the error must say> <args...>
    local want=$1; shift
    local so se rc
    so=$("$@" 2>"$w/err"); rc=$?
    se=$(cat "$w/err")
    if [ $rc -eq 2 ] && [ -z "$so" ] && [ "$(wc -l <"$w/err")" -eq 1 ] && [[ "$se" == "error: "*"$want"* ]]; then
        check 0 "host-side mistake, exit 2 with one line: $se"
    else
        check 1 "host-side mistake '${*:2}': want exit 2 and one line 'error: ...$want...', got exit $rc: $se"
    fi
}
bad "no firmware images given" run
bad "image '$w/missing.elf' does not exist" run "$w/missing.elf"
bad "unrecognized arguments: --frobnicate" run --frobnicate "$P/pass.elf"
bad "is not an ELF file; give a raw binary as FILE@ADDR" run "$w/text.bin"
bad "load address 'zz' is not a number" run "$P/pass.bin@zz"
bad "image '$w/none.bin' does not exist" run "$w/none.bin@0x80000000"
bad "--shard wants K/N with 1 <= K <= N" run --shard 3/2 "$P/pass.elf"
bad "--shard wants K/N" run --shard 0/2 "$P/pass.elf"
bad "-j wants a whole number >= 1" run -j 0 "$P/pass.elf"
bad "--timeout wants seconds > 0" run --timeout -5 "$P/pass.elf"
bad "invalid choice: 'maybe'" run --verdict maybe "$P/pass.elf"
bad "--smp wants a whole number >= 1" run --smp 0 "$P/pass.elf"
bad "l1m size '12Q' is not a size like 256K" run --l1m 12Q "$P/pass.elf"
bad "l1m needs the virt machine" run --machine sifive_u --l1m 64K "$P/pass.elf"
bad "QEMU '$w/no-qemu' is not an executable file" "$runner" --qemu "$w/no-qemu" "$P/pass.elf"
bad "suite file '$w/none.toml' does not exist" run --suite "$w/none.toml"
bad "is not valid TOML" run --suite "$w/syntax.toml"
bad "'smp' must be an integer (got 'two')" run --suite "$w/badtype.toml"
bad "unknown key 'hart'" run --suite "$w/badkey.toml"
bad "unknown key 'speed' in [defaults]" run --suite "$w/baddef.toml"
bad "test 1 has no 'image' key" run --suite "$w/noimage.toml"
bad "two tests are named 'a'" run --suite "$w/dup.toml"
bad "the directory of '$w/nodir/x.xml' does not exist" run --junit "$w/nodir/x.xml" "$P/pass.elf"
bad "merge: shard 2 of 2 missing" "$runner" merge "$w/m.xml" "$out/mixed-1.xml"
bad "merge: shard 1/2 given twice" "$runner" merge "$w/m.xml" "$out/mixed-1.xml" "$out/mixed-1.xml" "$out/mixed-2.xml"
bad "comes from another suite or sharding" "$runner" merge "$w/m.xml" "$out/mixed-1.xml" "$w/seven-1-3.xml"
bad "is not a JUnit file written by tl-fw-run --junit" "$runner" merge "$w/m.xml" "$w/notours.xml"
bad "merge: shard file '$w/gone.xml' does not exist" "$runner" merge "$w/m.xml" "$w/gone.xml"

# ---- SIGTERM stops the QEMUs the runner started
cp "$P/hang.elf" "$w/sigterm_probe.elf"
"$runner" --qemu "$qemu" --out-dir "$w/sig" -j 2 --timeout 60 "$w/sigterm_probe.elf" "$P/hang.elf" >/dev/null 2>"$w/sig.err" &
rpid=$!
for _ in $(seq 100); do
    [ "$(pgrep -f -c -- "-kernel $w/sigterm_probe.elf")" -ge 1 ] && break
    sleep 0.1
done
started=$(pgrep -f -c -- "-kernel $w/sigterm_probe.elf")
kill -TERM "$rpid"; wait "$rpid"; rc=$?
sleep 0.2
left=$(pgrep -f -c -- "-kernel $w/sigterm_probe.elf")
[ "$started" -eq 1 ] && [ "$left" -eq 0 ] && [ $rc -eq 143 ]
check $? "SIGTERM to the runner kills the QEMUs it started (running before: $started, after: $left; exit $rc)"

# ---- results are printed as they come in, not at the end
cp "$P/hang.elf" "$w/zz_stream_hang.elf"
"$runner" --qemu "$qemu" --out-dir "$w/stream" --timeout 60 "$P/pass.elf" "$w/zz_stream_hang.elf" >"$w/stream.out" 2>&1 &
rpid=$!
for _ in $(seq 100); do
    [ "$(pgrep -f -c -- "-kernel $w/zz_stream_hang.elf")" -ge 1 ] && break
    sleep 0.1
done
for _ in $(seq 20); do grep -q '^ok 1 - pass ' "$w/stream.out" && break; sleep 0.1; done
grep -q '^ok 1 - pass ' "$w/stream.out" && [ "$(pgrep -f -c -- "-kernel $w/zz_stream_hang.elf")" -eq 1 ]
check $? "the result of the first test is on stdout while the second still runs (streamed TAP)"
kill -TERM "$rpid"; wait "$rpid"

# ---- our own firmware suite: the same verdicts as tests/firmware/run.sh
fwdir="$w/firmware"
TL_FIRMWARE_OUT="$fwdir" "$TL_REPO/tests/firmware/run.sh" >"$w/fw-run.log" 2>&1
{
    for p in test_basic test_vm test_pmp test_mmio; do
        printf '[[test]]\nimage = "%s/%s.elf"\ncpu = "rv64,xtl=on"\n' "$fwdir" "$p"
    done
    printf '[[test]]\nimage = "%s/test_stateen.elf"\ncpu = "rv64,xtl=on,smstateen=true,h=true"\n' "$fwdir"
    printf '[[test]]\nimage = "%s/test_off.elf"\ncpu = "rv64,xtl=off"\n' "$fwdir"
    printf '[[test]]\nimage = "%s/test_lmem.elf"\ncpu = "rv64,xtl=on"\nl1m = "256K"\nl0m = "256K"\n' "$fwdir"
} >"$w/fw.toml"
run --suite "$w/fw.toml" -j 2 --out-dir "$w/fw" --junit "$out/firmware.xml" >"$w/fw-runner.log"
r=0 n=0
for p in test_basic test_vm test_pmp test_mmio test_stateen test_off test_lmem; do
    want=fail
    grep -Eq "^ok [0-9]+ - $p: QEMU \(.*exits 0 through the test finisher" "$w/fw-run.log" && want=pass
    got=$(jt cases "$out/firmware.xml" | awk -v p="$p" '$1 == p {print $2}')
    # the number of checks each reported: run.sh's TAP lines vs the runner's count
    want_n=$(grep -Ec "^(not )?ok [0-9]+ - $p: " "$w/fw-run.log")
    want_n=$((want_n - 1 - $([ $p = test_mmio ] && echo 1 || echo 0)))
    got_n=$(grep -E "^(not )?ok [0-9]+ - ${p}[ :]" "$w/fw-runner.log" | sed -n 's/.*[(:,] *\([0-9]*\) TAP results.*/\1/p')
    got_n=${got_n:-$(grep -A1 -E "^not ok [0-9]+ - $p:" "$w/fw-runner.log" | sed -n 's/^#   \([0-9]*\) TAP results.*/\1/p')}
    [ "$got" = "$want" ] && [ "$got_n" = "$want_n" ] || { r=1; echo "# $p: run.sh $want ($want_n checks), tl-fw-run $got ($got_n checks)"; }
    n=$((n + want_n))
done
run --cpu rv64,xtl=on --out-dir "$w/fw-wrong" "$fwdir/test_off.elf" >"$w/fw-wrong.log"
[ $? -eq 1 ] && grep -q '^not ok 1 - test_off: finisher reported failure' "$w/fw-wrong.log"
check $? "test_off (which expects xtl=off) fails under the runner with xtl=on, so the verdict comparison below can tell pass from fail"
check $r "tests/firmware under tl-fw-run (-icount, TAP + finisher): the same verdict for each of its 7 programs as tests/firmware/run.sh and the same number of checks ($n)"

# ---- the example project, copied outside the repository, against a TL-QEMU
# tree holding only what the project may use: include/tl/tl_insn.h (with the
# generated xtl-opc.h it includes) and the runner
mkdir -p "$w/tl-min/include/tl" "$w/tl-min/scripts"
cp "$TL_REPO/include/tl/tl_insn.h" "$TL_REPO/include/tl/xtl-opc.h" "$w/tl-min/include/tl/"
cp "$runner" "$w/tl-min/scripts/"
cp -r "$example" "$w/fwci-copy"
rm -rf "$w/fwci-copy/build"
(cd "$w/fwci-copy" && make -s all TL_QEMU="$w/tl-min" >"$w/ex-build.log" 2>&1 &&
    TL_FW_QEMU="$qemu" make -s check TL_QEMU="$w/tl-min" >"$w/ex-check.log" 2>&1); r=$?
[ $r -eq 0 ] && [ "$(jt cases "$w/fwci-copy/build/junit-1-of-1.xml" | tr '\n' ' ')" = "saturation pass strided_load pass two_harts pass " ]
check $? "examples/firmware-ci copied outside the repository builds and passes its 3 tests with TL_QEMU = a tree of only include/tl/tl_insn.h, xtl-opc.h and scripts/tl-fw-run: $(tail -n 1 "$w/ex-check.log")"
[ $r -eq 0 ] || sed 's/^/#   /' "$w/ex-build.log" "$w/ex-check.log" | tail -n 20
cp "$w/fwci-copy/build/junit-1-of-1.xml" "$out/example.xml"
(cd "$w/fwci-copy" && TL_FW_QEMU="$qemu" make -s demo-failure TL_QEMU="$w/tl-min" >"$w/demo.log" 2>&1); r=$?
[ $r -eq 0 ] && grep -q '^not ok 1 - demo_failure: finisher reported failure: QEMU exit status 1$' "$w/demo.log" &&
    grep -q '^#   replay: .*rr=replay' "$w/demo.log" && grep -q '^#   gdb: .* -s -S ' "$w/demo.log"
check $? "make demo-failure shows a failing test with its reproduce, replay and gdb lines"

# ---- CI configurations
yamllint -s "$example/ci/github-actions.yml" "$example/ci/gitlab-ci.yml" >"$w/yl" 2>&1
check $? "yamllint --strict (default rules) accepts examples/firmware-ci/ci/github-actions.yml and gitlab-ci.yml$(sed 's/^/ | /' "$w/yl" | head -n 5 | tr '\n' ' ')"
printf 'a:\n  - b\n   - c\n' >"$w/bad.yml"
! yamllint -s "$w/bad.yml" >/dev/null 2>&1; check $? "yamllint rejects a malformed YAML file (so the check above can fail)"
# The GitLab test and merge jobs' script lines, run here in a copy of the
# project laid out as in CI (TL-QEMU checked out into tl-qemu/, built).
# tl-qemu/ holds what the tl-qemu job passes on as artifacts; the runner finds
# QEMU there by itself (TL_FW_QEMU unset).
mkdir -p "$w/gl" && cp -r "$example/." "$w/gl/" && rm -rf "$w/gl/build"
mkdir -p "$w/gl/tl-qemu/build/qemu" "$w/gl/tl-qemu/scripts"
cp -r "$w/tl-min/include" "$w/gl/tl-qemu/" && cp "$runner" "$w/gl/tl-qemu/scripts/"
ln -s "$qemu" "$w/gl/tl-qemu/build/qemu/qemu-system-riscv64"
env -u TL_FW_QEMU /usr/bin/python3 - "$example/ci/gitlab-ci.yml" "$w/gl" <<'EOF' >"$w/gl.log" 2>&1
import os, subprocess, sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
jobs = {k: v for k, v in cfg.items() if isinstance(v, dict) and "script" in v}
test = [j for j in jobs.values() if "parallel" in j]
merge = [j for j in jobs.values() if j.get("stage") == "report"]
assert len(test) == 1 and len(merge) == 1, "want one parallel test job and one report job"
n = test[0]["parallel"]
env = dict(os.environ, **{k: str(v) for k, v in cfg.get("variables", {}).items()})
env.update({k: str(v) for k, v in test[0].get("variables", {}).items()})
env["CI_NODE_TOTAL"] = str(n)
env["CI_PROJECT_DIR"] = sys.argv[2]
for k in range(1, n + 1):
    env["CI_NODE_INDEX"] = str(k)
    for line in test[0]["script"]:
        print("$ " + line, flush=True)
        subprocess.run(["bash", "-ec", line], cwd=sys.argv[2], env=env, check=True)
for line in merge[0]["script"]:
    print("$ " + line, flush=True)
    r = subprocess.run(["bash", "-ec", line], cwd=sys.argv[2], env=env)
    assert r.returncode == 0, "report line failed"
print("gitlab lines ok, %d shards" % n)
EOF
r=$?
[ $r -eq 0 ] && same_junit "$w/gl/build/junit.xml" "$out/example.xml"
check $? "the GitLab CI test job's script lines for each parallel index and the report job's merge, run here, give the example's full JUnit ($(tail -n 1 "$w/gl.log"))"
[ $r -eq 0 ] || sed 's/^/#   /' "$w/gl.log" | tail -n 15

# The GitHub workflow's own shell steps (all but the apt-get ones) with its
# ${{ matrix.shard }} / ${{ env.SHARDS }} expressions filled in, for every
# shard of the matrix, then the report job's merge step; the actions
# (checkout, cache, artifacts) are not run: tl-qemu/ is laid out as above.
mkdir -p "$w/gh" && cp -r "$example/." "$w/gh/" && rm -rf "$w/gh/build" && cp -a "$w/gl/tl-qemu" "$w/gh/"
env -u TL_FW_QEMU /usr/bin/python3 - "$example/ci/github-actions.yml" "$w/gh" <<'EOF' >"$w/gh.log" 2>&1
import re, subprocess, sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
jobs = cfg["jobs"]
shards = jobs["test"]["strategy"]["matrix"]["shard"]
assert shards == list(range(1, int(cfg["env"]["SHARDS"]) + 1)), "matrix and SHARDS disagree"
def steps(job, ctx):
    for st in jobs[job]["steps"]:
        if "run" in st and "apt-get" not in st["run"]:
            text = re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: str(ctx[m.group(1)]), st["run"])
            print("$ " + text.strip().replace("\n", "\n$ "), flush=True)
            subprocess.run(["bash", "-ec", text], cwd=sys.argv[2], check=True)
for k in shards:
    steps("test", {"matrix.shard": k, "env.SHARDS": cfg["env"]["SHARDS"]})
steps("report", {})
print("github steps ok, %d shards" % len(shards))
EOF
r=$?
[ $r -eq 0 ] && same_junit "$w/gh/build/junit.xml" "$out/example.xml"
check $? "the GitHub workflow's shell steps for each matrix shard and the report job's merge, run here, give the example's full JUnit ($(tail -n 1 "$w/gh.log"))"
[ $r -eq 0 ] || sed 's/^/#   /' "$w/gh.log" | tail -n 15

jt validate "$src/junit.xsd" "$out/example.xml" "$w/gl/build/junit.xml" "$out/firmware.xml" >"$w/val" 2>&1
check $? "the JUnit files of the example project, its GitLab merge and our firmware suite are valid against the schema"

tap_end
