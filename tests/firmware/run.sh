#!/usr/bin/env bash
# Bare-metal firmware regression suite of TL-QEMU: builds the M-mode test
# programs in tests/firmware with riscv64-unknown-elf-gcc + picolibc, runs each
# under qemu-system-riscv64 -M virt -bios none, and reports TAP:
#   every "ok - ..." / "not ok - ..." line a program prints on the UART becomes
#   "ok N - <program>: ...", plus one line per program for its exit status
#   (the "sifive,test" finisher: 0x5555 = pass, (failed << 16) | 0x3333 = fail).
# Ends with "N passed, M failed, K skipped"; exits non-zero if anything failed.
# The programs and their logs go to $BUILD_DIR/tests/firmware, or to
# TL_FIRMWARE_OUT (the fwci and plugin groups run this suite in directories
# of their own).
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
[ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] ||
    die "picolibc for riscv64-unknown-elf is missing (apt-get install picolibc-riscv64-unknown-elf)"

src="$TL_REPO/tests/firmware"
out="${TL_FIRMWARE_OUT:-$BUILD_DIR/tests/firmware}"
qemu="$BUILD_DIR/qemu/qemu-system-riscv64"
mkdir -p "$out"

need_qemu "$qemu"

CC=riscv64-unknown-elf-gcc
CFLAGS=(--specs=picolibc.specs -march=rv64imac -misa-spec=2.2 -mabi=lp64 -mcmodel=medany
        -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -ffreestanding
        -nostartfiles -T "$src/link.ld" -I"$TL_REPO/include" -I"$TL_REPO" -I"$src")

. "$TL_REPO/tests/tap.sh"
tap_numbered
tap_can_skip

progs=(test_basic test_vm test_pmp test_mmio test_stateen test_off test_lmem test_pm test_trigger test_pair test_ool)
declare -A built
for p in "${progs[@]}"; do
    if $CC "${CFLAGS[@]}" "$src/crt0.S" "$src/rt.c" "$src/$p.c" -o "$out/$p.elf" 2>"$out/$p.build.log"; then
        built[$p]=1
    else
        built[$p]=0
        sed 's/^/# /' "$out/$p.build.log"
    fi
done

# The RV32 program: no C library, its own start-up and link script (rv32/).
if $CC -march=rv32imac -misa-spec=2.2 -mabi=ilp32 -mcmodel=medany -O2 -g -Wall -Wextra -Werror \
        -ffreestanding -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments -T "$src/rv32/link32.ld" \
        -I"$TL_REPO/include" -I"$TL_REPO" "$src/rv32/crt32.S" "$src/rv32/test_rv32.c" -lgcc \
        -o "$out/test_rv32.elf" 2>"$out/test_rv32.build.log"; then
    built[test_rv32]=1
else
    built[test_rv32]=0
    sed 's/^/# /' "$out/test_rv32.build.log"
fi

# run_fw <program> <description> <qemu args...>
run_fw() {
    local p=$1 desc=$2; shift 2
    local log="$out/$p.log" rc line got_ok=0 got_fail=0
    if [ "${built[$p]}" != 1 ]; then
        check 1 "$p: builds with riscv64-unknown-elf-gcc + picolibc (see $out/$p.build.log)"
        return
    fi
    echo "# $p: $desc"
    echo "# $(basename "$qemu") $* ${FW_QEMU_EXTRA:-}${FW_QEMU_EXTRA:+ }-kernel $p.elf"
    # (in a subshell, so that a crash report of the shell lands in the log too)
    # FW_QEMU_EXTRA: more QEMU arguments for every program (tests/plugin runs
    # the suite under the tlstat plugin with it).
    # shellcheck disable=SC2086
    (timeout "${FW_TIMEOUT:-60}" "$qemu" "$@" ${FW_QEMU_EXTRA:-} -nographic -bios none -monitor none \
        -kernel "$out/$p.elf" </dev/null; exit $?) >"$log" 2>&1
    rc=$?
    while IFS= read -r line; do
        line=${line%$'\r'}
        case "$line" in
            "ok - "*) got_ok=$((got_ok + 1)); check 0 "$p: ${line#ok - }" ;;
            "not ok - "*) got_fail=$((got_fail + 1)); check 1 "$p: ${line#not ok - }" ;;
            "#"*) echo "$line" ;;
            "") ;;
            *xtl_load_pair_xpose*|*xtl_mem_out_of_line*) ;;   # trace lines, checked below
            *) echo "# uart: $line" ;;
        esac
    done <"$log"
    local note="exit $rc"
    [ "$rc" -eq 124 ] && note="exit $rc: timed out"
    check $(( rc != 0 || got_ok + got_fail == 0 )) \
        "$p: QEMU ($*) exits 0 through the test finisher (PASS) after reporting checks ($((got_ok + got_fail)) reported, $note)"
}

M=(-M virt -m 128M)
run_fw test_basic "CSR reset/WARL, uninitialized CSRs, every instruction in M/S/U, illegal encodings and states" \
    "${M[@]}" -cpu rv64,xtl=on
run_fw test_vm "Sv39 page faults: all-or-nothing, stval = first faulting byte, fixup and retry" \
    "${M[@]}" -cpu rv64,xtl=on
run_fw test_pmp "PMP access faults (TOR/NAPOT, not page-aligned), PMA fault at the end of RAM" \
    "${M[@]}" -cpu rv64,xtl=on
run_fw test_mmio "TL accesses to the UART: byte by byte, slice order, all-or-nothing" \
    "${M[@]}" -cpu rv64,xtl=on
if [ "${built[test_mmio]}" = 1 ]; then
    tr -d '\r' <"$out/test_mmio.log" | grep -qxF 'TL-MMIO tl.store -> THR ok'
    check $? "test_mmio: the UART printed the line \"TL-MMIO tl.store -> THR ok\" written by one tl.store of 27 one-byte slices to THR (P = 0), in slice order"
fi
run_fw test_stateen "Smstateen C bit: S/U illegal-instruction, VS/VU virtual-instruction" \
    "${M[@]}" -cpu rv64,xtl=on,smstateen=true,h=true
run_fw test_pm "pointer masking (Smmpm): tagged TL loads and stores in M-mode" \
    "${M[@]}" -cpu rv64,xtl=on,smmpm=true,smepmp=true
run_fw test_trigger "Sdtrig load/store triggers on a TL access: taken before any change, skip and retry" \
    "${M[@]}" -cpu rv64,xtl=on
run_fw test_pair "tl.load, tl.load, tl.xpose in a row, and with tl.store A, tl.store B after them (each run as one): M/S/U results, each trap at its own instruction" \
    "${M[@]}" -cpu rv64,xtl=on,smstateen=true -trace xtl_load_pair_xpose
if [ "${built[test_pair]}" = 1 ]; then
    # Each check's runs took the path it tests (one pass, one pass with the two
    # stores, declined), from the trace in its log; under a plugin
    # (FW_QEMU_EXTRA) the words never run as one.
    paths=firmware
    case " ${FW_QEMU_EXTRA:-} " in *" -plugin "*) paths=plugin ;; esac
    relay "test_pair's paths: " < <(python3 "$TL_REPO/tests/check_pair_trace.py" "$paths" "$out/test_pair.log")
    check $(( relayed == 0 )) "test_pair: the fused helper's trace checked ($paths, $relayed checks)"
fi
run_fw test_rv32 "RV32: tl.muls reads x[rs2] as unsigned XLEN, Sv32 accesses wrap at 2^32" \
    "${M[@]}" -cpu rv32,xtl=on
run_fw test_off "xtl=off: CUSTOM-2 and TL CSRs illegal" \
    "${M[@]}" -cpu rv64,xtl=off
if "$qemu" -M virt,help 2>/dev/null | grep -q 'tl-l1m-size'; then
    run_fw test_lmem "L1M/L0M local memories" \
        -M virt,tl-l1m-size=256K,tl-l0m-size=256K -m 128M -cpu rv64,xtl=on
    run_fw test_ool "whole-register tl.load/tl.store translated with their other paths after the TB: L1M, illegal plan, end of RAM" \
        -M virt,tl-l1m-size=256K -m 128M -cpu rv64,xtl=on -trace xtl_mem_out_of_line
    if [ "${built[test_ool]}" = 1 ] && [[ " ${FW_QEMU_EXTRA:-} " != *" -plugin "* ]]; then
        # Its checks test those paths only if QEMU translated the block's words so.
        words=$(tr -d '\r' <"$out/test_ool.log" | sed -n 's/^# block words: //p')
        not_so=""
        for w in $words; do
            grep -q "tl.load/tl.store at $w translated with its whole-register path inline" "$out/test_ool.log" ||
                not_so="$not_so $w"
        done
        check $(( $(wc -w <<<"$words") != 3 || ${#not_so} != 0 )) \
            "test_ool: the block's three words translated with their other paths after the TB (words: ${words:-none}; not so:${not_so:- none})"
    fi
else
    skip_case "test_lmem: L1M/L0M local memories" "this qemu-system-riscv64 has no virt machine property tl-l1m-size"
    skip_case "test_ool: whole-register loads and stores with their other paths after the TB" "this qemu-system-riscv64 has no virt machine property tl-l1m-size"
fi

tap_end
