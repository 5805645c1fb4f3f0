#!/usr/bin/env bash
# The tlstat plugin (plugins/tlstat) under qemu-riscv64 and qemu-system-riscv64.
# Every expectation comes from outside the plugin: hand-computed counts and
# bytes (known_expected.py, the comments of threads.c and smp.c), the
# reference model (gen_cases.py, fresh seed each run, PLUGIN_CASES_SEED=N
# repeats one), the firmware suite's own claims (firmware_claims.txt) and the
# JSON schema.  Ends with "N passed, M failed, K skipped".
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool riscv64-linux-gnu-g++ g++-riscv64-linux-gnu
need_tool riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf

src="$TL_REPO/tests/plugin"
out="$BUILD_DIR/tests/plugin"
user="$BUILD_DIR/qemu/qemu-riscv64"
system="$BUILD_DIR/qemu/qemu-system-riscv64"
plugin="$BUILD_DIR/qemu/contrib/plugins/tlstat/libtlstat.so"
report=("/usr/bin/python3" "$TL_REPO/plugins/tlstat/tlstat-report.py")
py=/usr/bin/python3
need_qemu "$user" "$system" "$plugin"
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
    die "python3-jsonschema is missing (apt-get install python3-jsonschema, or make deps)"
rm -rf "$out" && mkdir -p "$out"

. "$TL_REPO/tests/tap.sh"
tap_can_skip
# compare <report.json> <expected.json> <label>: compare.py's lines are checks
compare() {
    relay_cmd -- "$py" "$src/compare.py" "$@"
}
build() {   # build <output> <compiler and flags...>
    local bin=$1; shift
    "$@" -o "$bin" 2>"$bin.log" || { sed 's/^/# /' "$bin.log"; die "cannot build $bin (log: $bin.log)"; }
}
UFLAGS=(-O2 -Wall -Werror -static -I"$TL_REPO/include")
build "$out/known" riscv64-linux-gnu-gcc "${UFLAGS[@]}" "$src/known.c"
build "$out/threads" riscv64-linux-gnu-gcc "${UFLAGS[@]}" "$src/threads.c" -lpthread
build "$out/thread_reuse" riscv64-linux-gnu-gcc "${UFLAGS[@]}" "$src/thread_reuse.c" -lpthread
build "$out/names" riscv64-linux-gnu-g++ -std=c++17 "${UFLAGS[@]}" "$src/names.cpp"
build "$out/fork" riscv64-linux-gnu-gcc "${UFLAGS[@]}" "$src/fork.c"
build "$out/mem_watch" riscv64-linux-gnu-gcc "${UFLAGS[@]}" "$src/mem_watch.c"
for n in 1 2 4; do
    build "$out/smp$n.elf" riscv64-unknown-elf-gcc -O2 -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany \
        -ffreestanding -nostdlib -Wl,--no-warn-rwx-segments -I"$TL_REPO/include" -I"$TL_REPO" -DHARTS=$n \
        -T "$TL_REPO/bench/baremetal/link.ld" "$TL_REPO/bench/baremetal/smp_start.S" "$src/smp.c"
done

# run_user <name> <cpu> <plugin options> <program> [args]: report in $out/<name>.json
run_user() {
    local name=$1 cpu=$2 opts=$3; shift 3
    echo "# qemu-riscv64 -cpu $cpu -plugin libtlstat.so${opts:+,$opts} $(basename "$1") ${*:2}"
    timeout 120 "$user" -cpu "$cpu" -plugin "$plugin${opts:+,$opts}" "$@" >"$out/$name.out" 2>&1
    echo $? >"$out/$name.rc"
}

# 1. Known counts, bytes, traps, EngineIDs and coverage cells (hand-computed).
run_user known rv64,xtl=on "format=json,outfile=$out/known.json" "$out/known"
check "$(cat "$out/known.rc")" "known.c runs to the end under the plugin (exit $(cat "$out/known.rc"))"
grep -q '^known: done, 1 restart(s), ttype after the handler 0x4$' "$out/known.out"
check $? "known.c: the faulting store was restarted once and sigreturn restored ttype = int16"
"$py" "$src/known_expected.py" mix >"$out/known.expected.json"
compare "$out/known.json" "$out/known.expected.json" known

# 2. Guests killed by a TL trap, and a CPU without xtl: the trap still counts.
for m in segv:rv64,xtl=on:139 sigill:rv64,xtl=on:132 off:rv64:132; do
    IFS=: read -r mode cpu want <<<"$m"
    run_user "fatal-$mode" "$cpu" "format=json,outfile=$out/fatal-$mode.json" "$out/known" "$mode"
    rc=$(cat "$out/fatal-$mode.rc")
    written=$([ -s "$out/fatal-$mode.json" ]; echo $?)
    check $((rc != want || written != 0)) "known $mode (-cpu $cpu) dies of its signal (exit $rc, expected $want) and the report is written"
    "$py" "$src/known_expected.py" "$mode" >"$out/fatal-$mode.expected.json"
    [ -s "$out/fatal-$mode.json" ] && compare "$out/fatal-$mode.json" "$out/fatal-$mode.expected.json" "killed ($mode)"
done

# 3. Threads: one vCPU per thread, totals are sums (threads.c's comment);
#    36 threads outgrow the 16 and then 32 vCPU slots QEMU allocates for a plugin.
for nt in 4 36; do
    run_user "threads$nt" rv64,xtl=on "format=json,outfile=$out/threads$nt.json" "$out/threads" "$nt"
    check "$(cat "$out/threads$nt.rc")" "threads.c with $nt threads runs to the end under the plugin (exit $(cat "$out/threads$nt.rc"))"
    n=0 b=0
    for t in $(seq 0 $((nt - 1))); do
        r=$((500 + 50 * t)) w=$((64 + 4 * t))
        n=$((n + 2 * r)) b=$((b + r * 2 * w + r * 2 * (w / 2)))
    done
    printf '{"mix": {"tl.load int8": [%d, %d, 0]}, "cells": ["tl.load int8 contiguous partial-width", "csr tshape written", "csr tmask_load_width written"]}\n' \
        "$n" "$b" >"$out/threads$nt.expected.json"
    compare "$out/threads$nt.json" "$out/threads$nt.expected.json" "$nt threads"
done
# A thread created after another exited takes its vCPU index, with its parent's
# CSRs (thread_reuse.c's comment): 300 loads of 2 * 32 bytes, 700 of 2 * 64.
run_user thread_reuse rv64,xtl=on "format=json,outfile=$out/thread_reuse.json" "$out/thread_reuse"
check "$(cat "$out/thread_reuse.rc")" "thread_reuse.c runs to the end under the plugin (exit $(cat "$out/thread_reuse.rc"))"
printf '{"mix": {"tl.load int8": [%d, %d, 0]}, "cells": ["tl.load int8 contiguous partial-width", "csr tshape written", "csr tmask_load_width written"]}\n' \
    $((300 + 700)) $((300 * 2 * 32 + 700 * 2 * 64)) >"$out/thread_reuse.expected.json"
compare "$out/thread_reuse.json" "$out/thread_reuse.expected.json" "a thread on an exited thread's vCPU index"

# 4. Random cases, expectations from the reference model.
seed=${PLUGIN_CASES_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
count=${PLUGIN_CASES_COUNT:-400}
echo "# random cases: seed $seed, $count cases (PLUGIN_CASES_SEED=$seed repeats them)"
if "$py" "$src/gen_cases.py" "$seed" "$count" "$out" &&
   riscv64-linux-gnu-gcc -O2 -static "$src/cases_main.c" "$out/cases.S" -o "$out/cases" 2>"$out/cases.log"; then
    run_user cases rv64,xtl=on "format=json,outfile=$out/cases.json" "$out/cases"
    check "$(cat "$out/cases.rc")" "random cases (seed $seed) run to the end (exit $(cat "$out/cases.rc"))"
    compare "$out/cases.json" "$out/cases_expected.json" "random cases seed $seed"
else
    check 1 "random cases (seed $seed) generated and built (log: $out/cases.log)"
fi

# 5. Text output, hot spots with demangled C++ names, outfile %p, top=N.
run_user names rv64,xtl=on "outfile=$out/names.%p.txt,top=2" "$out/names"
txt=$(ls "$out"/names.[0-9]*.txt 2>/dev/null | head -n 1)
[ "$(cat "$out/names.rc")" -eq 0 ] && [ -n "$txt" ]
check $? "names.cpp runs to the end (exit $(cat "$out/names.rc")) and outfile=names.%p.txt wrote names.<pid>.txt ($(basename "${txt:-none}"))"
if [ -n "$txt" ]; then
    grep -qE '^ +300 +307200 +0  void tlstat_test::copy_blocks<3>\(unsigned char\*\)$' "$txt"
    check $? "text report: function 'void tlstat_test::copy_blocks<3>(unsigned char*)' with 300 tl.load and 300*4*256 bytes"
    grep -qE '^ +50 +0 +0  tlstat_test::Scaler::scale\(int\) const$' "$txt"
    check $? "text report: function 'tlstat_test::Scaler::scale(int) const' with 50 tl.addi"
    k=$(sed -n '/^hot spots: top 2 PCs/,/^$/p' "$txt" | grep -c '^  0x')
    check $((k != 2)) "top=2 lists 2 PCs ($k)"
    for section in '^mix ' '^hot spots: top 2 PCs' '^coverage: [0-9]+ of [0-9]+ cells hit' '^never hit'; do
        grep -qE "$section" "$txt"
        check $? "text report has the section /$section/"
    done
fi
run_user stderr rv64,xtl=on "" "$out/names"
! grep -q '^tlstat: user mode' "$out/stderr.out" && [ "$(cat "$out/stderr.rc")" -eq 0 ]
check $? "without outfile= and without -d plugin the report is not printed, as for QEMU's contrib plugins (exit $(cat "$out/stderr.rc"))"
echo "# qemu-riscv64 -cpu rv64,xtl=on -d plugin -D log.txt -plugin libtlstat.so names"
timeout 120 "$user" -cpu rv64,xtl=on -d plugin -D "$out/qemu-log.txt" -plugin "$plugin" "$out/names" >"$out/qemulog.out" 2>&1
r=$?
grep -q '^tlstat: user mode' "$out/qemu-log.txt" && [ "$r" -eq 0 ]
check $? "without outfile= the report goes to QEMU's log (-d plugin -D FILE; exit $r)"
n=$(grep -cE '^ +7 +0 +0  void tlstat_test::long_named<tlstat_test::TypeList<.{600,}> >\(tlstat_test::TypeList<.*> const&\)$' "$out/qemu-log.txt")
check $((n != 1)) "text report: a function name of over 1000 characters is printed whole on its own line ($n)"

# 6. Several harts, exact totals (smp.c's comment), in every TCG mode: MTTCG,
# one TCG thread (round robin), -icount (also one thread), and record then
# replay (one hart: QEMU's record/replay refuses more).  -cpu max has
# Smstateen with mstateen0 = 0 at reset: the TL CSRs must still be visible to
# the register API (gdbstub lists the CSRs before reset), or every row would
# have type "none".
smp_expected() {   # smp_expected <harts>: the expected report of smp<harts>.elf
    local h n=0 bytes=0
    for ((h = 0; h < $1; h++)); do
        n=$((n + 3000 + 1000 * h)); bytes=$((bytes + (3000 + 1000 * h) * 4 * 32 * (h + 1)))
    done
    printf '{"mix": {"tl.load int8": [%d, %d, 0]}, "cells": ["tl.load int8 contiguous partial-width", "csr tshape written", "csr tmask_load_width written"]}\n' "$n" "$bytes"
}
# run_smp <name> <harts> <cpu> <plugin> <qemu options...>: exit status in $out/<name>.rc
run_smp() {
    local name=$1 n=$2 cpu=$3 plug=$4
    shift 4
    echo "# qemu-system-riscv64 -cpu $cpu -smp $n $* -plugin $(basename "${plug%%,*}") smp$n.elf"
    timeout 120 "$system" -M virt -m 64M -cpu "$cpu" -smp "$n" "$@" -bios none \
        -nographic -monitor none -serial stdio -display none \
        -plugin "$plug" -kernel "$out/smp$n.elf" >"$out/$name.out" 2>&1
    echo $? >"$out/$name.rc"
}
for n in 2 4; do
    smp_expected "$n" >"$out/smp$n.expected.json"
    for mode in "MTTCG:-accel tcg,thread=multi" "one TCG thread:-accel tcg,thread=single" \
                "icount:-icount shift=0,sleep=off"; do
        for cpu in rv64,xtl=on max; do
            [ "${mode%%:*}" = MTTCG ] || [ "$cpu" = max ] || continue
            name="smp$n-${cpu%%,*}-$(echo "${mode%%:*}" | tr ' ' '-')"
            # shellcheck disable=SC2086
            run_smp "$name" "$n" "$cpu" "$plugin,format=json,outfile=$out/$name.json" ${mode#*:}
            rc=$(cat "$out/$name.rc")
            written=$([ -s "$out/$name.json" ]; echo $?)
            check $((rc != 0 || written != 0)) "smp$n.elf on $n harts, ${mode%%:*} (-cpu $cpu) finishes (exit $rc) and the report is written"
            [ -s "$out/$name.json" ] && compare "$out/$name.json" "$out/smp$n.expected.json" "$n harts, ${mode%%:*}, -cpu $cpu"
        done
    done
done
smp_expected 1 >"$out/smp1.expected.json"
rm -f "$out/smp1.rr"
run_smp smp1-record 1 max "$plugin,format=json,outfile=$out/smp1-record.json" -icount "shift=0,rr=record,rrfile=$out/smp1.rr"
check "$(cat "$out/smp1-record.rc")" "smp1.elf recorded under the plugin (-icount rr=record; exit $(cat "$out/smp1-record.rc"))"
[ -s "$out/smp1-record.json" ] && compare "$out/smp1-record.json" "$out/smp1.expected.json" "record"
run_smp smp1-replay 1 max "$plugin,format=json,outfile=$out/smp1-replay.json" -icount "shift=0,rr=replay,rrfile=$out/smp1.rr"
grep -q '^smp done' "$out/smp1-replay.out"
check $? "smp1.elf replayed under the plugin prints what it printed when recorded"
[ -s "$out/smp1-replay.json" ] && compare "$out/smp1-replay.json" "$out/smp1.expected.json" "replay"

# QEMU's own plugins, with inline scoreboard operations and conditional
# callbacks, on 2 and 4 harts in one TCG thread (QEMU 10.0 passed them a
# wrong vCPU index there; patch 0015).  libinline checks its own counts.
qemu_plugins=(tests/tcg/plugins/libinline.so tests/tcg/plugins/libbb.so contrib/plugins/libhotblocks.so)
if tl_with_build_lock ninja -C "$BUILD_DIR/qemu" "${qemu_plugins[@]}" >"$out/qemu-plugins.log" 2>&1; then
    for n in 2 4; do
        for mode in "one TCG thread:-accel tcg,thread=single" "icount:-icount shift=0,sleep=off"; do
            for p in "${qemu_plugins[@]}"; do
                name="qemu-$(basename "$p" .so)-$n-$(echo "${mode%%:*}" | tr ' ' '-')"
                opts=
                [ "$p" = tests/tcg/plugins/libinline.so ] || opts=,inline=on
                # shellcheck disable=SC2086
                run_smp "$name" "$n" max "$BUILD_DIR/qemu/$p$opts" ${mode#*:}
                rc=$(cat "$out/$name.rc")
                grep -q '^smp done' "$out/$name.out"
                check $((rc != 0 || $? != 0)) "QEMU's $(basename "$p")$opts on $n harts, ${mode%%:*}: the guest finishes (exit $rc)"
                [ "$rc" -eq 0 ] || sed 's/^/#   /' "$out/$name.out" | tail -n 5
            done
        done
    done
else
    check 1 "QEMU's test plugins build (see $out/qemu-plugins.log)"
fi

# QEMU's mem plugin with a callback on every memory access sees every byte
# of 100 tl.load and 100 tl.store of 1 KiB (whole registers, which TL-QEMU
# otherwise moves inline): at least 204800 accesses.
if tl_with_build_lock ninja -C "$BUILD_DIR/qemu" tests/tcg/plugins/libmem.so >"$out/libmem.log" 2>&1; then
    echo "# qemu-riscv64 -cpu rv64,xtl=on -plugin libmem.so,callback=on -d plugin mem_watch"
    timeout 120 "$user" -cpu rv64,xtl=on -plugin "$BUILD_DIR/qemu/tests/tcg/plugins/libmem.so,callback=on" \
        -d plugin "$out/mem_watch" >"$out/mem_watch.out" 2>&1
    rc=$?
    n=$(sed -n 's/^mem accesses: \([0-9]*\)$/\1/p' "$out/mem_watch.out")
    check $((rc != 0 || ${n:-0} < 204800)) "QEMU's libmem.so (callback=on) sees the bytes of 100 tl.load and 100 tl.store of 1 KiB: ${n:-no} accesses (want >= 204800; exit $rc)"
else
    check 1 "QEMU's libmem.so builds (see $out/libmem.log)"
fi

# fork: each process's report counts what that process executed.
rm -f "$out"/fork.*.json
run_user fork rv64,xtl=on "format=json,outfile=$out/fork.%p.json" "$out/fork"
read -r parent child < <(sed -n 's/^fork: parent \([0-9]*\) child \([0-9]*\)$/\1 \2/p' "$out/fork.out")
check $(( $(cat "$out/fork.rc") != 0 || ${parent:-0} == 0 )) "fork.c runs to the end under the plugin (exit $(cat "$out/fork.rc"))"
printf '{"mix": {"tl.load int8": [%d, %d, 0]}, "cells": ["tl.load int8 contiguous full-width", "csr tshape written"]}\n' \
    105 $((105 * 1024)) >"$out/fork-parent.expected.json"
printf '{"mix": {"tl.load int8": [%d, %d, 0]}, "cells": ["tl.load int8 contiguous full-width"]}\n' \
    10 $((10 * 1024)) >"$out/fork-child.expected.json"
printf '{"mix": {"tl.load int8": [%d, %d, 0]}, "cells": ["tl.load int8 contiguous full-width", "csr tshape written"]}\n' \
    115 $((115 * 1024)) >"$out/fork-merged.expected.json"
if [ -s "$out/fork.${parent:-none}.json" ] && [ -s "$out/fork.${child:-none}.json" ]; then
    compare "$out/fork.$parent.json" "$out/fork-parent.expected.json" "fork, parent (100 before, 5 after)"
    compare "$out/fork.$child.json" "$out/fork-child.expected.json" "fork, child (10)"
    "${report[@]}" merge "$out/fork-merged.json" "$out/fork.$parent.json" "$out/fork.$child.json"
    compare "$out/fork-merged.json" "$out/fork-merged.expected.json" "fork, both reports merged"
else
    check 1 "fork: one report per process (fork.<pid>.json for parent ${parent:-?} and child ${child:-?})"
fi

# 7. The firmware suite under the plugin: its claims are hit.
mkdir -p "$out/fw"
echo "# tests/firmware/run.sh with FW_QEMU_EXTRA=-plugin libtlstat.so,format=json,outfile=fw/%p.json"
FW_QEMU_EXTRA="-plugin $plugin,format=json,outfile=$out/fw/%p.json" TL_FIRMWARE_OUT="$out/fw/suite" \
    "$TL_REPO/tests/firmware/run.sh" >"$out/fw/suite.log" 2>&1
rc=$?
check $rc "the firmware suite passes under the plugin ($(tail -n 1 "$out/fw/suite.log"))"
nfw=$(ls "$out"/fw/*.json 2>/dev/null | wc -l)
check $((nfw < 6)) "the firmware suite wrote one report per QEMU run ($nfw)"
if [ "$nfw" -gt 0 ]; then
    "${report[@]}" merge "$out/fw/merged.json" "$out"/fw/[0-9]*.json
    "${report[@]}" summary "$out/fw/merged.json" >"$out/fw/summary.txt"
    sed -n '1,6p' "$out/fw/summary.txt" | sed 's/^/# /'
    relay_cmd --prefix "firmware claim: " -- "${report[@]}" check --claims "$src/firmware_claims.txt" "$out/fw/merged.json"
fi

# 8. JSON reports against the schema; a broken report must fail.
for j in known threads4 threads36 thread_reuse cases smp2-rv64-MTTCG smp4-max-icount smp1-replay fork-merged fw/merged; do
    [ -f "$out/$j.json" ] || continue
    "${report[@]}" validate "$out/$j.json" >"$out/validate.log" 2>&1
    check $? "$j.json is valid against tlstat.schema.json"
done
"$py" - "$out/known.json" "$out/broken" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
bad = {
    "no-coverage": {k: v for k, v in r.items() if k != "coverage"},
    "string-count": dict(r, mix=[dict(r["mix"][0], count="100")] + r["mix"][1:]),
    "bad-mnemonic": dict(r, mix=[dict(r["mix"][0], mnemonic="tl.bogus")] + r["mix"][1:]),
    "hit-mismatch": dict(r, coverage=dict(r["coverage"], hit=r["coverage"]["hit"] + 1)),
}
for name, doc in bad.items():
    json.dump(doc, open("%s-%s.json" % (sys.argv[2], name), "w"))
EOF
for b in no-coverage string-count bad-mnemonic hit-mismatch; do
    if [ ! -s "$out/broken-$b.json" ]; then
        check 1 "a broken report ($b) was made from known.json"
        continue
    fi
    "${report[@]}" validate "$out/broken-$b.json" >"$out/validate.log" 2>&1
    r=$?
    check $((r != 1)) "a broken report ($b) is rejected by the schema check (exit $r): $(head -n 1 "$out/validate.log")"
done

# 9. Bad options: qemu_plugin_install() fails, so QEMU exits 1 after one
# line of tlstat's, "error: tlstat: ...", and its own "Could not load plugin".
for o in "format=xml" "top=0" "top=abc" "colour=red" "outfile="; do
    "$user" -cpu rv64,xtl=on -plugin "$plugin,$o" "$out/names" >"$out/badopt.out" 2>&1
    r=$?
    g=$(grep -cE '^error: tlstat: ' "$out/badopt.out")
    grep -q 'Could not load plugin .*libtlstat.so' "$out/badopt.out"
    q=$?
    check $((r != 1 || g != 1 || q != 0)) "bad option '$o': exit $r, $(head -n 1 "$out/badopt.out")"
done

# 10. Linux under the plugin: the kernel, OpenSBI and busybox of the linux
# group (built here when they are not), with an initramfs of its own.  The demo
# (tlrun=demo on -cpu max, TL usable) runs "tl-fault segv" and "tl-fault
# sigill" once each (tests/linux/guest/init, section 3); each faults twice
# (tl_fault.c: the handler returns, the instruction runs again and the
# process dies): 2 load page faults and 2 illegal-instruction traps of
# tl.load, nothing else traps.  The kernel's TL restores end with a tinit write.
TL_DEMO_DIR="$out/linux-guest"
. "$TL_REPO/scripts/linux-lib.sh"
guest=$(tl_linux_prepare tl && printf '%s\n' "$TL_KERNEL" "$TL_OPENSBI" "$TL_BUSYBOX")
check $? "the TL kernel, OpenSBI and busybox build (scripts/build-linux.sh, build-opensbi.sh, build-busybox.sh)"
if [ "$(printf '%s\n' "$guest" | grep -c .)" = 3 ]; then
    { read -r TL_KERNEL; read -r TL_OPENSBI; read -r TL_BUSYBOX; } <<<"$guest"
    tl_build_initramfs
    tl_qemu_cmd max "quiet tlrun=demo" 1
    echo "# ${TL_QEMU_CMD[*]##*/} -plugin libtlstat.so,format=json (tlrun=demo)"
    timeout -k 5 "$TL_BOOT_TIMEOUT" "${TL_QEMU_CMD[@]}" -plugin "$plugin,format=json,outfile=$out/linux.json" \
        </dev/null >"$out/linux.console" 2>&1
    rc=$?
    grep -q 'tl-init: done, powering off' "$out/linux.console" && [ "$rc" -eq 0 ]
    check $? "Linux (-cpu max, tlrun=demo) boots, runs the demo and powers off under the plugin (exit $rc)"
    if [ -s "$out/linux.json" ]; then
        relay_cmd -- "$py" - "$out/linux.json" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))
hits = {c["cell"]: c["hits"] for c in r["coverage"]["cells"]}
traps = {c: n for c, n in hits.items() if c.startswith("trap ") and n}
checks = [
    (r["tl_insns"] > 0 and r["tl_bytes"] > 0, "TL instructions (%d) and bytes (%d) counted" % (r["tl_insns"], r["tl_bytes"])),
    (traps == {"trap load-page-fault": 2, "trap illegal-instruction.operand": 2},
     "the demo's two faulting programs: 2 load page faults, 2 illegal-instruction traps, no other trap (%s)" % traps),
    (sum(m["traps"] for m in r["mix"] if m["mnemonic"] == "tl.load") == 4 == r["traps"], "the 4 traps are tl.load"),
    (hits["csr tinit written"] > 0, "the kernel's TL restores wrote tinit (%d)" % hits["csr tinit written"]),
]
for ok, what in checks:
    print(("ok - " if ok else "not ok - ") + "Linux under the plugin: " + what)
EOF2
    else
        check 1 "Linux under the plugin: the report was written"
    fi
fi

tap_end
