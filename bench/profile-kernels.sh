#!/usr/bin/env bash
# Where the time of each ML kernel's TL version goes under qemu-riscv64:
# runs `kernels_rv NAME tl` under `perf record` (QEMU's -perfmap names the
# translated guest code) and prints, per kernel, the share of samples in
#   guest    translated guest code (the tile API's own instructions and the loops)
#   dispatch TB lookup and the execution loop (helper_lookup_tb_ptr, cpu_exec, ...)
#   translate TCG translating guest code
#   tl       the TL helpers and the semantic core apart from the copies
#            (helper_xtl_*, xtl_*, tl_*: plans, checks, register operations)
#   copy     the byte copies of the TL memory instructions (slice copies, memcpy)
#   lookup   page lookups of the memory probes (page_get_flags, interval tree, probe_access)
#   other    everything else (QEMU start-up, the kernel, libc outside copies)
# Needs `make bench` to have built build/bench/kernels_rv, and perf.
#   bench/profile-kernels.sh [KERNEL...]     (default: every kernel)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
tl_load_config
need_tool perf linux-perf
qemu="$BUILD_DIR/qemu/qemu-riscv64"
bin="$BUILD_DIR/bench/kernels_rv"
need_qemu "$qemu"
[ -x "$bin" ] || die "$bin is missing; run 'make bench' once"
out="$BUILD_DIR/bench/profile"
mkdir -p "$out"

kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
    mapfile -t kernels < <(sed -n '/^const Case kCases\[\] = {/,/^};/s/^ *{"\([^"]*\)".*/\1/p' "$TL_REPO/bench/kernels.cpp")
fi
[ ${#kernels[@]} -gt 0 ] || die "no kernel names found in bench/kernels.cpp"

printf '%-36s %7s %8s %9s %7s %7s %7s %7s   %s\n' kernel guest dispatch translate tl copy lookup other "top symbols"
for k in "${kernels[@]}"; do
    data="$out/${k//[^A-Za-z0-9_]/_}.data"
    perf record -q -F 4999 -o "$data" -- "$qemu" -perfmap -cpu rv64,xtl=on "$bin" "$k" tl >/dev/null 2>"$data.log" ||
        die "perf record of kernel '$k' failed (see $data.log); perf may need: sysctl kernel.perf_event_paranoid=1"
    perf report -q -i "$data" --sort dso,sym --stdio 2>/dev/null | awk -v k="$k" '
        /%/ {
            p = $1; sub(/%/, "", p); dso = $2; s = $0; sub(/^[^]]*\] /, "", s)
            if (dso ~ /^perf-[0-9]+\.map$|^\[JIT\]/) c = "guest"
            else if (s ~ /helper_lookup_tb_ptr|cpu_exec|tb_lookup|cpu_loop|tb_htable|qht_lookup|cpu_tb_exec|get_tb_cpu_state/) c = "dispatch"
            else if (s ~ /tcg_|liveness_|tb_gen_code|translator_|gen_intermediate_code|decode_insn/) c = "translate"
            else if (s ~ /memcpy|memmove|memset|LoadSlices|StoreSlices|LoadDenseRows|CopySlice|CopyRows|CopyDenseRows|CopyWholeReg|copy_whole_reg|copy_bytes|bulk_copy/) c = "copy"
            else if (s ~ /page_get_flags|interval_tree|probe_access|page_check_range|tlb_|get_page_addr/) c = "lookup"
            else if (s ~ /xtl|^tl_|^_ZN2tl|Plan|^helper_|anonymous namespace/) c = "tl"
            else c = "other"
            sum[c] += p; total += p
            if (n_top < 3) { top = top (n_top ? ", " : "") sprintf("%s %.0f%%", (c == "guest" ? "guest code" : s), p); n_top++ }
        }
        END {
            printf "%-36s", k
            n = split("guest dispatch translate tl copy lookup other", cs, " ")
            for (i = 1; i <= n; i++) printf " %*.1f%%", (cs[i] == "dispatch" ? 7 : cs[i] == "translate" ? 8 : 6), (total > 0 ? 100 * sum[cs[i]] / total : 0)
            printf "   %s\n", top
        }'
done
echo "(raw profiles: $out/*.data; perf report -i FILE --sort dso,sym for every symbol)"
