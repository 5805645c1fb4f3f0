#!/usr/bin/env bash
# make bench: builds QEMU (incrementally) and the benchmark programs of bench/,
# runs them BENCH_RUNS times (default 3) and prints the table of figures:
#  1. per-instruction throughput under qemu-riscv64 vs host memcpy of 1 KiB;
#  2. ML kernels: TL under TL-QEMU vs what a user would pick instead: the
#     plain C++ kernels native (g++ -O3 -march=native; -O2 beside), scalar
#     riscv64 under stock qemu-riscv64, and vectorized for RVV 1.0 (clang-16
#     -O3 -march=rv64gcv) under stock qemu-riscv64 at VLEN 128 and 256;
#     and each TL kernel against its floor: the bytes one call moves (counted
#     by the tlstat plugin over `kernels_rv once NAME`) at host memcpy speed,
#     and, for the pure-copy kernels, against their "staged" time: the TL
#     kernel's own copies run natively (`kernels_host_o3 staged`);
#  3. tl.load / tl.store under qemu-system-riscv64 (bare metal) vs user mode;
#  4. scaling: kernels from 16 KiB to 16 MiB (TL under QEMU vs native), and
#     qemu-system-riscv64 throughput with 1 and 2 harts running TL (MTTCG);
#  5. Linux context switches (scripts/bench-linux.sh);
#  6. the cost of the tlstat plugin on the ML kernels (bench/plugin_overhead.sh).
#  7. parity: programs that never use TL (scalar loops, the plain C++
#     kernels, BusyBox and glibc start-up) under an unpatched qemu-riscv64
#     (scripts/build-stock-qemu.sh) and under TL-QEMU's default CPU, in
#     BENCH_PARITY_PAIRS (default 5) pairs, each program under the two back
#     to back in alternating order; the ratio is the median of the per-pair
#     ratios.
# BENCH_ONLY=parity runs and prints section 7 only.
# Every figure is the median of 7 samples (median over the runs as well).
# Figures are printed, never asserted; this is not part of make check.
# Raw outputs stay in $BUILD_DIR/bench/raw.  docs/performance.md explains them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tl_load_config
need_tool gcc build-essential
need_tool g++ build-essential
need_tool python3 python3
need_tool riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need_tool riscv64-linux-gnu-g++ g++-riscv64-linux-gnu
need_tool riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
need_tool clang++-16 clang-16

runs=${BENCH_RUNS:-3}
only=${BENCH_ONLY:-}     # "parity": only the parity table (section 7)
case "$only" in
    ''|parity) ;;
    *) die "BENCH_ONLY must be unset or 'parity' (got '$only')" ;;
esac
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive integer (got '$runs')"

"$TL_REPO/scripts/build-qemu.sh"
qemu_stock=$("$TL_REPO/scripts/build-stock-qemu.sh")
qemu_user="$BUILD_DIR/qemu/qemu-riscv64"
qemu_system="$BUILD_DIR/qemu/qemu-system-riscv64"
tlstat="$BUILD_DIR/qemu/contrib/plugins/tlstat/libtlstat.so"

src="$TL_REPO/bench"
out="$BUILD_DIR/bench"
raw="$out/raw"
mkdir -p "$out"
rm -rf "$raw" && mkdir -p "$raw"

# build <output> <compiler and flags...> <sources...>: rebuilt when a bench/,
# include/tl/, baremetal/ or kernels/ file is newer than the output.
deps=("$src"/*.h "$src"/*.c "$src"/*.cpp "$src"/baremetal/* "$TL_REPO"/include/tl/* "$TL_REPO"/baremetal/*
      "$TL_REPO"/kernels/*.hpp)
build() {
    local bin=$1 f; shift
    if [ -x "$bin" ]; then
        local stale=0
        for f in "${deps[@]}"; do [ "$f" -nt "$bin" ] && stale=1 && break; done
        [ "$stale" -eq 1 ] || return 0
    fi
    "$@" -o "$bin.tmp" >"$bin.log" 2>&1 || { cat "$bin.log" >&2; die "cannot build $bin (log: $bin.log)"; }
    mv "$bin.tmp" "$bin"
}
log "building the benchmark programs in $out"
build "$out/host_memcpy" gcc -O2 -I"$src" "$src/host_memcpy.c"
build "$out/kernels_host" g++ -std=c++17 -O2 -I"$src" "$src/kernels.cpp"
# what a performance engineer builds for the host
build "$out/kernels_host_o3" g++ -std=c++17 -O3 -march=native -I"$src" "$src/kernels.cpp"
build "$out/tl_insn" riscv64-linux-gnu-gcc -O2 -static -I"$TL_REPO/include" -I"$src" "$src/tl_insn.c"
build "$out/kernels_rv" riscv64-linux-gnu-g++ -std=c++17 -O2 -static \
    -I"$TL_REPO/include" -I"$TL_REPO/kernels" -I"$src" "$src/kernels.cpp"
build "$out/baremetal.elf" riscv64-unknown-elf-gcc -O2 -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany \
    -ffreestanding -nostdlib -Wl,--no-warn-rwx-segments -I"$TL_REPO/include" -I"$TL_REPO" -I"$src" \
    -T "$src/baremetal/link.ld" "$src/baremetal/start.S" "$src/baremetal/baremetal.c"
# the plain kernels vectorized for RVV 1.0 by clang (GCC 12 does not auto-vectorize for V)
build "$out/kernels_rvv" clang++-16 --target=riscv64-linux-gnu -march=rv64gcv -O3 -static -std=c++17 \
    -DBENCH_PLAIN_ONLY -I"$TL_REPO/include" -I"$TL_REPO/kernels" -I"$src" "$src/kernels.cpp"
build "$out/kernels_rv_plain" riscv64-linux-gnu-g++ -std=c++17 -O2 -static -DBENCH_PLAIN_ONLY \
    -I"$TL_REPO/include" -I"$TL_REPO/kernels" -I"$src" "$src/kernels.cpp"
build "$out/kernels_rv_o3" riscv64-linux-gnu-g++ -std=c++17 -O3 -static -DBENCH_PLAIN_ONLY \
    -I"$TL_REPO/include" -I"$TL_REPO/kernels" -I"$src" "$src/kernels.cpp"
for w in 1 2; do
    build "$out/smp$w.elf" riscv64-unknown-elf-gcc -O2 -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany \
        -ffreestanding -nostdlib -Wl,--no-warn-rwx-segments -I"$TL_REPO/include" -I"$TL_REPO" -I"$src" -DWORKERS=$w \
        -T "$src/baremetal/link.ld" "$src/baremetal/smp_start.S" "$src/baremetal/smp.c"
done

# From here on every program runs on one host CPU (bench_pin_cpu in lib.sh);
# unpinned <command...> runs one with all of them (two harts, builds), or
# pinned as well when the CPUs cannot be widened again.
all_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//') || all_cpus=
ncpus=$(nproc)
bench_cpu=$(bench_pin_cpu)
unpinned() {
    if [ "$bench_cpu" = none ] || [ -z "$all_cpus" ]; then
        "$@"
    else
        (taskset -pc "$all_cpus" "$BASHPID" >/dev/null 2>&1 || true; "$@")
    fi
}

# run <name> <n> <command...>: the program's output into $raw/<name>.<n>.txt
run() {
    local name=$1 n=$2; shift 2
    if ! timeout 600 "$@" >"$raw/$name.$n.txt" 2>"$raw/$name.$n.err"; then
        cat "$raw/$name.$n.err" >&2
        die "benchmark $name failed (run $n): $*"
    fi
}
# append <name> <n> <command...>: the program's output added to $raw/<name>.<n>.txt
append() {
    local name=$1 n=$2; shift 2
    if ! timeout 600 "$@" >>"$raw/$name.$n.txt" 2>"$raw/$name.$n.err"; then
        cat "$raw/$name.$n.err" >&2
        die "benchmark $name failed (run $n): $*"
    fi
}
if [ -z "$only" ]; then
    kernels=$("$qemu_user" -cpu rv64,xtl=on "$out/kernels_rv" list) && [ -n "$kernels" ] ||
        die "cannot list the kernels ($qemu_user -cpu rv64,xtl=on $out/kernels_rv list)"
    mapfile -t kernel_list <<<"$kernels"
    for n in $(seq 1 "$runs"); do
        log "run $n of $runs"
        run host_memcpy "$n" "$out/host_memcpy"
        run tl_insn "$n" "$qemu_user" -cpu rv64,xtl=on "$out/tl_insn"
        # right after tl_insn: the system/user ratio compares the two in each run
        run baremetal "$n" "$qemu_system" -M virt -m 64M -cpu rv64,xtl=on -bios none \
            -nographic -monitor none -serial stdio -display none -kernel "$out/baremetal.elf"
        grep -q '^done' "$raw/baremetal.$n.txt" || die "the bare-metal benchmark did not finish (see $raw/baremetal.$n.txt)"
        # Some hosts run each process at one of two speeds (11-12 or about 20 ns
        # per tl.load, user and system mode alike): the system / user target
        # compares the fastest of five alternating runs of each program.
        for k in 1 2 3 4 5; do
            run "sysuser_user.$n" "$k" "$qemu_user" -cpu rv64,xtl=on "$out/tl_insn"
            run "sysuser_system.$n" "$k" "$qemu_system" -M virt -m 64M -cpu rv64,xtl=on -bios none \
                -nographic -monitor none -serial stdio -display none -kernel "$out/baremetal.elf"
        done
        run kernels_host "$n" "$out/kernels_host"
        # native -O3 and TL kernel by kernel, back to back in alternating order,
        # three pairs a run: O3/TL is the median of the pairs' ratios, so the
        # host's speed drifting between programs cancels out of each one
        : >"$raw/kernels_host_o3.$n.txt"; : >"$raw/kernels_rv.$n.txt"
        i=0
        for k in "${kernel_list[@]}"; do
            for j in 1 2 3; do
                if [ $(((n + i + j) % 2)) -eq 1 ]; then
                    append kernels_host_o3 "$n" "$out/kernels_host_o3" "$k"
                    append kernels_rv "$n" "$qemu_user" -cpu rv64,xtl=on "$out/kernels_rv" "$k" tl
                else
                    append kernels_rv "$n" "$qemu_user" -cpu rv64,xtl=on "$out/kernels_rv" "$k" tl
                    append kernels_host_o3 "$n" "$out/kernels_host_o3" "$k"
                fi
            done
            i=$((i + 1))
        done
        run kernels_host_staged "$n" "$out/kernels_host_o3" staged
        run kernels_stock_scalar "$n" "$qemu_stock" -cpu rv64 "$out/kernels_rv_o3"
        for vlen in 128 256; do
            run "kernels_rvv$vlen" "$n" "$qemu_stock" -cpu "rv64,v=true,vlen=$vlen" "$out/kernels_rvv"
        done
        for cfg in 1x1 2x1 2x2; do
            pin=unpinned; [ "$cfg" = 1x1 ] && pin=
            $pin run "smp$cfg" "$n" "$qemu_system" -M virt -m 64M -cpu rv64,xtl=on -smp "${cfg%x*}" -bios none \
                -nographic -monitor none -serial stdio -display none -kernel "$out/smp${cfg#*x}.elf"
        done
    done
    # Not timed, so one run is enough: the byte count does not vary.  The
    # file name is report.py's bytes_file(): kernel names hold "(" and "+".
    log "counting the bytes one call of each TL kernel moves (tlstat)"
    for k in "${kernel_list[@]}"; do
        safe=${k//[^A-Za-z0-9_.-]/_}
        run "once_$safe" 1 "$qemu_user" -cpu rv64,xtl=on \
            -plugin "$tlstat,outfile=$raw/bytes_$safe.txt,format=json" "$out/kernels_rv" once "$k"
    done
fi
# ---- parity: the same non-TL programs under an unpatched QEMU and TL-QEMU ----
pairs=${BENCH_PARITY_PAIRS:-5}
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || die "BENCH_PARITY_PAIRS must be a positive integer (got '$pairs')"
busybox=$(unpinned "$TL_REPO/scripts/build-busybox.sh")
build "$out/parity_scalar" riscv64-linux-gnu-gcc -O2 -static -I"$TL_REPO/include" -I"$src" "$src/scalar.c"
build "$out/hello_dyn" riscv64-linux-gnu-gcc -O2 "$src/hello.c"
python_rv="$CACHE_DIR/parity-sysroot/usr/bin/python3.13"   # unpacked by tests/parity/run.sh
# The parity programs: each of parity_scalar's loops, each plain kernel, and start-ups.
scalar_list=$("$qemu_user" "$out/parity_scalar" list) && [ -n "$scalar_list" ] ||
    die "cannot list the parity programs ($qemu_user $out/parity_scalar list)"
plain_list=$("$qemu_user" "$out/kernels_rv_plain" list) && [ -n "$plain_list" ] ||
    die "cannot list the plain kernels ($qemu_user $out/kernels_rv_plain list)"
mapfile -t parity_programs < <(
    sed 's/^/scalar /' <<<"$scalar_list"
    sed 's/^/plain /' <<<"$plain_list"
    echo busybox; echo hello
    if [ -x "$python_rv" ]; then echo python; fi
)
# parity_one <qemu-riscv64> <program>: one program's "NAME NS" or "kernel ..." line
parity_one() {
    local q=$1 p=$2
    case "$p" in
        scalar\ *) "$q" "$out/parity_scalar" "${p#scalar }" ;;
        plain\ *) "$q" "$out/kernels_rv_plain" "${p#plain }" ;;
        busybox) python3 "$src/startup.py" busybox_true_startup 20 "$q" "$busybox" true ;;
        hello) python3 "$src/startup.py" glibc_hello_startup 20 "$q" -L /usr/riscv64-linux-gnu "$out/hello_dyn" ;;
        python) python3 "$src/startup.py" python3_startup 10 "$q" -L "$CACHE_DIR/parity-sysroot" "$python_rv" -I -S -c pass ;;
        *) echo "bench.sh: unknown parity program '$p'" >&2; return 1 ;;
    esac
}
# Pair n runs each program under both QEMUs back to back, so that the host's
# speed drifting over the minutes of the section cancels out of each ratio;
# which QEMU goes first alternates between pairs and between programs.
for n in $(seq 1 "$pairs"); do
    log "parity pair $n of $pairs (unpatched QEMU and TL-QEMU, each program back to back, alternating order)"
    : >"$raw/parity_stock.$n.txt"; : >"$raw/parity_tl.$n.txt"
    i=0
    for p in "${parity_programs[@]}"; do
        order="stock tl"; [ $(((n + i) % 2)) -eq 1 ] || order="tl stock"
        for tag in $order; do
            q=$qemu_user; [ "$tag" = stock ] && q=$qemu_stock
            parity_one "$q" "$p" >>"$raw/parity_$tag.$n.txt" 2>"$raw/parity_$tag.$n.err" ||
                { cat "$raw/parity_$tag.$n.err" >&2; die "parity benchmark '$p' under $q failed (pair $n)"; }
        done
        i=$((i + 1))
    done
done
[ -x "$python_rv" ] || echo "python startup not measured: Debian's riscv64 python3.13 is not unpacked (make check-parity unpacks it once Debian's riscv64 index verifies)" > "$raw/parity_note.txt"

if [ -z "$only" ]; then
    log "scaling run (16 KiB to 16 MiB)"
    run kernels_host_scale 1 "$out/kernels_host_o3" scale
    run kernels_rv_scale 1 "$qemu_user" -cpu rv64,xtl=on "$out/kernels_rv" scale
fi

mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
# The semantic core's fast paths depend on these (target-riscv-tl/core/tl_host_simd.cc).
simd=$(grep -m 1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -x -E 'avx2|avx512f|avx512bw' | tr '\n' ' ' | sed 's/ $//' || true)
echo "TL-QEMU benchmark: $ncpus CPUs, ${cpu:-unknown CPU}, $mem RAM, host SIMD: ${simd:-none of avx2, avx512f, avx512bw}; QEMU $(sed -n 1p "$BUILD_DIR/patched-qemu/VERSION" 2>/dev/null)"
if [ "$bench_cpu" = none ]; then
    echo "timed programs unpinned (BENCH_CPU=none)"
else
    echo "timed programs pinned to host CPU $bench_cpu (BENCH_CPU=N picks another, none unpins); the 2-hart runs use all CPUs"
fi
python3 "$src/report.py" "$raw" ${only:+"$only"}
[ -n "$only" ] && exit 0
echo
# builds what it boots with all CPUs, then pins itself to the same CPU
BENCH_CPU=$bench_cpu unpinned "$TL_REPO/scripts/bench-linux.sh"
echo
"$src/plugin_overhead.sh" "$qemu_user" "$tlstat" \
    "$out/kernels_rv" "$out/plugin" "$((runs * 3))" "$out/tl_insn"
