#!/usr/bin/env python3
"""Prints the `make bench` table from the raw outputs of the benchmark programs.

Usage: report.py DIR [parity]   (parity: only the parity table; DIR holds host_memcpy.N.txt, tl_insn.N.txt,
kernels_rv.N.txt, kernels_host.N.txt, baremetal.N.txt for runs N = 1, 2, ..., and
bytes_KERNEL.txt, tlstat's JSON report of one call of each TL kernel)

Every program already reports the median of 7 samples; with several runs the
median over runs is taken for each figure.  Ratios compare figures of the
same `make bench` invocation.  Targets are printed next to the ratios, never
asserted.
"""
import glob
import json
import os
import re
import statistics
import sys


def runs(d, prog):
    return sorted(glob.glob(os.path.join(d, f"{prog}.*.txt")))


def per_insn_run(f):
    """name -> (bytes_per_s, ns) of one run, from 'name bps ns' lines."""
    out = {}
    for line in open(f):
        p = line.split()
        if len(p) == 3:
            out[p[0]] = (float(p[1]), float(p[2]))
    return out


def baremetal_run(f):
    """name -> (bytes_per_s, ns) of one run, from 'name bytes ops ticks' lines and the timebase."""
    rows, hz = [], None
    for line in open(f):
        p = line.split()
        if len(p) == 2 and p[0] == "timebase":
            hz = int(p[1])
        elif len(p) == 4 and p[1].isdigit():
            rows.append((p[0], int(p[1]), int(p[2]), int(p[3])))
    out = {}
    for name, nbytes, ops, ticks in rows if hz else []:
        ns = ticks * 1e9 / hz / ops
        out[name] = (nbytes * 1e9 / ns, ns)
    return out


def medians(per_run):
    """name -> (bytes_per_s, ns) medians over the runs' dicts."""
    acc = {}
    for r in per_run:
        for k, v in r.items():
            acc.setdefault(k, []).append(v)
    return {k: (statistics.median(x for x, _ in v), statistics.median(y for _, y in v))
            for k, v in acc.items()}


def per_insn(d, prog):
    return medians(per_insn_run(f) for f in runs(d, prog))


def baremetal(d):
    return medians(baremetal_run(f) for f in runs(d, "baremetal"))


def system_user_ratios(d, key):
    """system / user bytes per second of `key` in each run (the two programs run back to back)."""
    out = []
    for f in runs(d, "baremetal"):
        u = os.path.join(d, "tl_insn." + f.rsplit(".", 2)[1] + ".txt")
        if not os.path.exists(u):
            continue
        sysr, user = baremetal_run(f), per_insn_run(u)
        if key in sysr and key in user:
            out.append(sysr[key][0] / user[key][0])
    return out


def system_user_best(d, key):
    """per run: system / user bytes per second of `key`, each the fastest of that run's
    alternating runs of the two programs (sysuser_system.N.K.txt, sysuser_user.N.K.txt)"""
    out = []
    n = 1
    while True:
        sysr = [baremetal_run(f) for f in runs(d, f"sysuser_system.{n}")]
        user = [per_insn_run(f) for f in runs(d, f"sysuser_user.{n}")]
        if not sysr or not user:
            return out
        s = [r[key][0] for r in sysr if key in r]
        u = [r[key][0] for r in user if key in r]
        if s and u:
            out.append(max(s) / max(u))
        n += 1


def kernels(d, prog):
    """name -> (bytes, tl_ns or None, plain_ns, check)."""
    acc = {}
    for f in runs(d, prog):
        for line in open(f):
            p = line.split()
            if len(p) == 6 and p[0] == "kernel":
                tl = None if p[3] == "-" else float(p[3])
                acc.setdefault(p[1], []).append((int(p[2]), tl, float(p[4]), p[5]))
    out = {}
    for k, v in acc.items():
        tls = [x[1] for x in v if x[1] is not None]
        checks = {x[3] for x in v}
        out[k] = (v[0][0], statistics.median(tls) if tls else None,
                  statistics.median(x[2] for x in v),
                  "MISMATCH" if "MISMATCH" in checks else ("ok" if "ok" in checks else "-"))
    return out


def gbs(bps):
    return f"{bps / 1e9:8.2f}"


def verdict(ok):
    return "met" if ok else "NOT MET"


def main():
    d = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "parity":
        print_parity(d)
        return
    host = per_insn(d, "host_memcpy")
    user = per_insn(d, "tl_insn")
    system = baremetal(d)
    krv = kernels(d, "kernels_rv")
    khost = kernels(d, "kernels_host")
    nruns = len(runs(d, "tl_insn"))
    print(f"Figures: median of 7 samples per program run, median over {nruns} run(s).")
    print()

    print("== 1. Per-instruction throughput under qemu-riscv64 vs host memcpy (in-cache) ==")
    print(f"{'figure':<26} {'GB/s':>8} {'ns/insn':>9}  {'ratio':>22}  {'target':>8}  result")
    m1 = host.get("host_memcpy_1024")
    m2 = host.get("host_memcpy_2048")
    if m1:
        print(f"{'host memcpy 1 KiB':<26} {gbs(m1[0])} {m1[1]:9.1f}  {'(reference)':>22}")
    if m2:
        print(f"{'host memcpy 2 KiB':<26} {gbs(m2[0])} {m2[1]:9.1f}  {'(reference)':>22}")
    each_run = [r["host_memcpy_1024"][1] for r in map(per_insn_run, runs(d, "host_memcpy"))
                if "host_memcpy_1024" in r]
    if len(each_run) > 1:
        print(f"   (host memcpy 1 KiB in each run: {', '.join(f'{ns:.1f}' for ns in each_run)} ns", end="")
        if max(each_run) > 1.15 * min(each_run):
            print(f"; the host's speed moved {max(each_run) / min(each_run):.2f}x between runs,")
            print("   and with it the rows below that compare with memcpy: run make bench again for one speed)")
        else:
            print(")")
    mv = host.get("host_moves32_1024")
    if mv:
        print(f"{'host 32-byte moves 1 KiB':<26} {gbs(mv[0])} {mv[1]:9.1f}  {'(reference)':>22}")
        print("   (the same copy in unrolled 32-byte loads and stores, the widest vector moves TCG emits,")
        print("   of which the inline tl.load / tl.store copy is made; memcpy may use wider ones)")
    rows = [
        ("tl.load 1 KiB", "tl.load_1k", m1, 0.8),
        ("tl.store 1 KiB", "tl.store_1k", m1, 0.8),
        ("tl.load+store 1 KiB", "tl.load+store_1k", m1, None),
        ("tl.load 1 KiB, .rodata", "tl.load_1k_rodata", m1, None),
        ("tl.store 1 KiB, .data", "tl.store_1k_data", m1, None),
        ("tl.load 1 KiB, file|anon", "tl.load_1k_file_anon", m1, None),
        ("tl.load 1 KiB pitch 256", "tl.load_1k_pitch256", m1, 0.25),
        ("tl.xpose 2 KiB", "tl.xpose_2k", m2, None),
        ("tl.concat.2 1 KiB", "tl.concat.2_1k", m1, None),
        ("tl.concat.0 1 KiB", "tl.concat.0_1k", m1, None),
    ]
    for label, key, ref, target in rows:
        if key not in user or not ref:
            continue
        r = user[key][0] / ref[0]
        t = f">= {target:g}" if target else ""
        res = verdict(r >= target) if target else ""
        print(f"{label:<26} {gbs(user[key][0])} {user[key][1]:9.1f}  {r:8.3f} of host memcpy  {t:>8}  {res}")
    if mv:
        for label, key in [("tl.load 1 KiB", "tl.load_1k"), ("tl.store 1 KiB", "tl.store_1k")]:
            if key in user:
                r = user[key][0] / mv[0]
                print(f"{label:<26} {gbs(user[key][0])} {user[key][1]:9.1f}  {r:8.3f} of 32-byte moves")
    print()
    print("   TL vs the same work in scalar riscv64 code under the same qemu-riscv64:")
    pairs = [
        ("tl.xpose 2 KiB", "tl.xpose_2k", "scalar permute 2 KiB", "scalar_xpose_2k", 10.0),
        ("tl.concat.2 1 KiB", "tl.concat.2_1k", "scalar concat 1 KiB", "scalar_concat2_1k", None),
        ("tl.load+store 1 KiB", "tl.load+store_1k", "scalar copy loop 1 KiB", "scalar_copy_1k", None),
        ("tl.load+store 1 KiB", "tl.load+store_1k", "glibc memcpy 1 KiB", "scalar_memcpy_1k", None),
    ]
    print(f"{'TL':<22} {'ns':>8}   {'scalar':<24} {'ns':>9}  {'speed-up':>8}  {'target':>7}  result")
    for tl_label, tk, sc_label, sk, target in pairs:
        if tk not in user or sk not in user:
            continue
        tn, sn = user[tk][1], user[sk][1]
        # per byte: the scalar op may move a different number of bytes per op
        sp = (user[tk][0]) / (user[sk][0])
        t = f">= {target:.0f}x" if target else ""
        res = verdict(sp >= target) if target else ""
        print(f"{tl_label:<22} {tn:8.1f}   {sc_label:<24} {sn:9.1f}  {sp:7.2f}x  {t:>7}  {res}")
    print()

    print_kernels(d, krv, m1)

    print("== 3. qemu-system-riscv64 (bare metal, M-mode) vs qemu-riscv64 (user mode) ==")
    print("   system/user: the two programs back to back in each run, median of the per-run ratios;")
    print("   best of 5: in each run the fastest of five alternating runs of each program, median over runs")
    print("   (the target's figure: on some hosts each process runs at one of two speeds, in either mode)")
    print(f"{'figure':<26} {'user GB/s':>10} {'system GB/s':>12}  {'system/user':>11}  {'runs min-max':>12}"
          f"  {'best of 5':>9}  {'runs min-max':>12}  {'target':>7}  result")
    for label, key, target in [("tl.load 1 KiB", "tl.load_1k", 0.9), ("tl.store 1 KiB", "tl.store_1k", 0.9),
                               ("tl.load+store 1 KiB", "tl.load+store_1k", None),
                               ("tl.load 1 KiB pitch 256", "tl.load_1k_pitch256", None),
                               ("scalar copy loop 1 KiB", "scalar_copy_1k", None)]:
        ratios = system_user_ratios(d, key)
        if key not in user or key not in system or not ratios:
            continue
        r = statistics.median(ratios)
        spread = f"{min(ratios):.3f}-{max(ratios):.3f}"
        best = system_user_best(d, key)
        if best:
            b = statistics.median(best)
            best_cols = f"{b:9.3f}  {min(best):.3f}-{max(best):.3f}"
        else:
            b, best_cols = None, f"{'-':>9}  {'-':>12}"
        t = f">= {target:g}" if target else ""
        res = verdict(b >= target) if target and b is not None else ""
        print(f"{label:<26} {gbs(user[key][0]):>10} {gbs(system[key][0]):>12}  {r:11.3f}  {spread:>12}"
              f"  {best_cols}  {t:>7}  {res}")
    print()

    print("== 4. Scaling ==")
    srv, shost = scale(d, "kernels_rv_scale"), scale(d, "kernels_host_scale")
    if srv:
        print("   kernels from 16 KiB to 16 MiB of output: time per KiB, TL under qemu-riscv64 vs plain C++ native (g++ -O3 -march=native)")
        print(f"{'kernel':<22} {'out':>8} {'TL ns/KiB':>10} {'native ns/KiB':>14} {'native/TL':>10}  check")
        for (k, nbytes), (tl, chk) in srv.items():
            nat = shost.get((k, nbytes), (None, None))[0]
            kib = nbytes / 1024
            size = f"{kib / 1024:.0f} MiB" if kib >= 1024 else f"{kib:.0f} KiB"
            print(f"{k:<22} {size:>8} {tl / kib:10.1f} {nat / kib if nat else float('nan'):14.1f} "
                  f"{nat / tl if nat else float('nan'):10.2f}  {chk}")
        print()
    smp = smp_runs(d)
    if smp:
        print("   qemu-system-riscv64 (MTTCG): tl.load + tl.store of 1 KiB blocks, each worker hart on its own buffers")
        print(f"{'configuration':<32} {'GB/s':>8} {'vs 1 worker, 1 hart':>20}")
        base = smp.get("1x1")
        for cfg, label in [("1x1", "-smp 1, 1 worker"), ("2x1", "-smp 2, 1 worker"),
                           ("2x2", "-smp 2, 2 workers")]:
            if cfg in smp:
                r = smp[cfg] / base if base else float("nan")
                print(f"{label:<32} {gbs(smp[cfg])} {r:20.2f}")
        print()
    print_parity(d)


def geomean(xs):
    xs = [x for x in xs if x == x and x > 0]
    return statistics.geometric_mean(xs) if xs else float("nan")


def bytes_file(d, kernel):
    """Where scripts/bench.sh puts tlstat's report of `kernels_rv once KERNEL` (the name made file-safe)."""
    return os.path.join(d, "bytes_" + re.sub(r"[^A-Za-z0-9_.-]", "_", kernel) + ".txt")


def kernel_bytes(d, kernel):
    """Memory bytes one call of the TL kernel moves, or None without a readable report.

    tl_bytes counts only tl.load/tl.mload/tl.store/tl.mstore (register-to-register
    instructions move no memory bytes), and the `once` run makes one call and
    nothing else through TL, so the program's total is the call's."""
    try:
        with open(bytes_file(d, kernel)) as f:
            return int(json.load(f)["tl_bytes"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def kernel_pairs(d):
    """name -> [native -O3 ns / TL ns] per back-to-back pair: scripts/bench.sh runs
    kernels_host_o3 NAME and kernels_rv NAME tl next to each other, so the k-th line of
    a kernel in kernels_host_o3.N.txt and in kernels_rv.N.txt are one pair."""
    def lines(f, col):
        out = {}
        if os.path.exists(f):
            for line in open(f):
                p = line.split()
                if len(p) == 6 and p[0] == "kernel" and p[col] != "-":
                    out.setdefault(p[1], []).append(float(p[col]))
        return out
    pairs = {}
    for fr in runs(d, "kernels_rv"):
        n = fr.rsplit(".", 2)[-2]
        tl, nat = lines(fr, 3), lines(os.path.join(d, f"kernels_host_o3.{n}.txt"), 4)
        for k, v in tl.items():
            if len(nat.get(k, [])) != len(v):
                sys.exit(f"report.py: run {n} has {len(v)} TL and {len(nat.get(k, []))} native lines "
                         f"of {k}: not pairs (see {d})")
            pairs.setdefault(k, []).extend(a / b for a, b in zip(nat[k], v) if a and b)
    return pairs


def print_kernels(d, krv, memcpy):
    """Section 2: TL under TL-QEMU against each baseline a user would pick instead.

    memcpy: the host memcpy 1 KiB figure (bytes/s, ns) for the floor columns."""
    cols = [("native -O3", kernels(d, "kernels_host_o3")), ("native -O2", kernels(d, "kernels_host")),
            ("rv64 scalar", kernels(d, "kernels_stock_scalar")),
            ("RVV VLEN128", kernels(d, "kernels_rvv128")), ("RVV VLEN256", kernels(d, "kernels_rvv256"))]
    print("== 2. ML kernels (int8): TL under TL-QEMU vs what a user would pick instead (us per call) ==")
    print("   native: the plain C++ kernels on the host, g++ -O3 -march=native (and -O2 beside, for reference);")
    print("   rv64 scalar: the same, riscv64-linux-gnu-g++ -O3, under stock qemu-riscv64 -cpu rv64;")
    print("   RVV: the same, clang-16 -O3 -march=rv64gcv (auto-vectorized), under stock qemu-riscv64 -cpu rv64,v=true,vlen=N;")
    print("   TL: kernels/ on the tile API, qemu-riscv64 -cpu rv64,xtl=on, output checked against the plain kernel")
    print("   floor: the bytes one TL call moves through tl.load/tl.mload/tl.store/tl.mstore (tlstat, kernels_rv once)")
    print("   at host memcpy 1 KiB speed; TL/floor: how many times the TL time is above it")
    print("   O3/TL: the median over the pairs (native -O3 and TL of one kernel run back to back, in alternating")
    print("   order), pairs: their min-max; the time columns are medians over every run")
    pairs = kernel_pairs(d)
    head = f"{'kernel':<36} {'TL':>8}" + "".join(f" {c:>11}" for c, _ in cols)
    print(head + f"  {'O3/TL':>6} {'pairs':>9} {'RVV/TL':>7} {'floor':>7} {'TL/floor':>8}  check")
    r_native, r_rvv, r_floor = [], [], []
    for k, (nbytes, tl, _pl, chk) in krv.items():
        vals = [c.get(k, (0, None, None, "-"))[2] for _, c in cols]
        nat = vals[0]
        rvv = [v for v in vals[3:] if v]
        best_rvv = min(rvv) if rvv else None
        pk = pairs.get(k)
        rn = statistics.median(pk) if pk else (nat / tl if (tl and nat) else float("nan"))
        spread = f"{min(pk):.2f}-{max(pk):.2f}" if pk else "-"
        rr = best_rvv / tl if (tl and best_rvv) else float("nan")
        r_native.append(rn)
        r_rvv.append(rr)
        moved = kernel_bytes(d, k)
        if moved is not None and memcpy:
            floor_ns = moved / memcpy[0] * 1e9
            rf = tl / floor_ns if (tl and floor_ns) else float("nan")
            r_floor.append(rf)
            fcells = f"{floor_ns / 1e3:7.2f} {rf:8.1f}"
        else:
            fcells = f"{'-':>7} {'-':>8}"
        cells = "".join(f" {v / 1e3:11.1f}" if v else f" {'-':>11}" for v in vals)
        print(f"{k:<36} {tl / 1e3 if tl else float('nan'):8.1f}{cells}  {rn:6.2f} {spread:>9} {rr:7.2f} {fcells}  {chk}")
    gn, gr = geomean(r_native), geomean(r_rvv)
    gf = f"{geomean(r_floor):8.1f}" if r_floor else f"{'':>8}"
    print(f"{'geometric mean':<36} {'':>8}" + " " * 12 * len(cols) + f"  {gn:6.2f} {'':>9} {gr:7.2f} {'':>7} {gf}")
    worst_n = min((x for x in r_native if x == x), default=float("nan"))
    worst_r = min((x for x in r_rvv if x == x), default=float("nan"))
    print("   targets (ratios > 1: TL is faster):")
    print(f"   native -O3 / TL, geometric mean      {gn:6.2f}   >= 1.0   {verdict(gn >= 1.0)}")
    print(f"   native -O3 / TL, every kernel (min)  {worst_n:6.2f}   >= 0.5   {verdict(worst_n >= 0.5)}")
    print(f"   best RVV / TL, every kernel (min)    {worst_r:6.2f}   >  1.0   {verdict(worst_r > 1.0)}")
    print_staged(d, krv, cols[0][1], pairs)
    print()


def print_staged(d, krv, native, pairs):
    """native / staged for the pure-copy kernels, from 'staged NAME BYTES NS CHECK' lines."""
    acc = {}
    for f in runs(d, "kernels_host_staged"):
        for line in open(f):
            p = line.split()
            if len(p) == 5 and p[0] == "staged":
                acc.setdefault(p[1], []).append((float(p[3]), p[4]))
    if not acc:
        return
    print("   staged: the TL kernel's own copies in plain C++ on the host (g++ -O3 -march=native; 1 KiB buffers")
    print("   for the TL registers, the copies TL-QEMU makes: one per tl.load / tl.store, one interleave of memory")
    print("   into two buffers per tl.load, tl.load, tl.xpose): what its instructions cost with no emulation at all;")
    print("   native -O3 / staged is about the best native -O3 / TL any implementation of them reaches")
    print(f"   {'kernel':<36} {'native -O3':>10} {'staged':>8} {'TL':>8}  {'O3/staged':>9} {'O3/TL':>6} {'TL/staged':>9}  check")
    for k, v in acc.items():
        st = statistics.median(x[0] for x in v)
        chk = "MISMATCH" if any(x[1] != "ok" for x in v) else "ok"
        nat = native.get(k, (0, None, None, "-"))[2]
        tl = krv.get(k, (0, None, None, "-"))[1]
        cell = lambda x: f"{x / 1e3:.2f}" if x else "-"
        ratio = lambda a, b: f"{a / b:.2f}" if (a and b) else "-"
        o3_tl = f"{statistics.median(pairs[k]):.2f}" if pairs.get(k) else ratio(nat, tl)
        print(f"   {k:<36} {cell(nat):>10} {cell(st):>8} {cell(tl):>8}  {ratio(nat, st):>9} {o3_tl:>6} "
              f"{ratio(tl, st):>9}  {chk}")


def parity(d):
    """name -> [(stock_ns, tl_ns)] per pair, from parity_stock.N.txt / parity_tl.N.txt.

    Lines are "NAME NS" (scalar.c, startup.py) or "kernel NAME BYTES - NS -"
    (kernels.cpp built with BENCH_PLAIN_ONLY)."""
    def read(f):
        out = {}
        for line in open(f):
            p = line.split()
            if len(p) == 2:
                out[p[0]] = float(p[1])
            elif len(p) == 6 and p[0] == "kernel":
                out["kernel " + p[1]] = float(p[4])
        return out
    pairs = {}
    for fs in runs(d, "parity_stock"):
        n = fs.rsplit(".", 2)[-2]
        ft = os.path.join(d, f"parity_tl.{n}.txt")
        if not os.path.exists(ft):
            continue
        a, b = read(fs), read(ft)
        for k in a:
            if k in b:
                pairs.setdefault(k, []).append((a[k], b[k]))
    return pairs


def print_parity(d):
    pairs = parity(d)
    if not pairs:
        return
    npairs = max(len(v) for v in pairs.values())
    print("== 7. Programs without TL: unpatched qemu-riscv64 vs TL-QEMU (default CPU, xtl on) ==")
    print(f"   same build options and source; {npairs} pairs, each program under the two back to back in "
          "alternating order;")
    print("   ratio = median of the per-pair TL/stock ratios")
    print(f"{'program':<44} {'stock':>12} {'TL-QEMU':>12}  {'TL/stock':>8}  {'pairs min-max':>13}  {'target':>7}  result")
    ratios = []
    for k, v in pairs.items():
        st = statistics.median(x for x, _ in v)
        tl = statistics.median(y for _, y in v)
        r = statistics.median(y / x for x, y in v)
        ratios.append(r)
        unit = "ms" if st >= 1e6 else "us" if st >= 1e3 else "ns"
        div = {"ms": 1e6, "us": 1e3, "ns": 1.0}[unit]
        lo, hi = min(y / x for x, y in v), max(y / x for x, y in v)
        print(f"{k:<44} {st / div:9.1f} {unit} {tl / div:9.1f} {unit}  {r:8.3f}  {lo:6.3f}-{hi:<6.3f}  "
              f"{'<= 1.02':>7}  {verdict(r <= 1.02)}")
    gm = statistics.geometric_mean(ratios)
    per_pair = [statistics.geometric_mean(v[i][1] / v[i][0] for v in pairs.values() if i < len(v))
                for i in range(npairs)]
    lo, hi = min(per_pair), max(per_pair)
    print(f"{'geometric mean':<44} {'':>12} {'':>12}  {gm:8.3f}  {lo:6.3f}-{hi:<6.3f}  {'<= 1.02':>7}  {verdict(gm <= 1.02)}")
    print("   (the min-max of the geometric-mean row is over the geometric means of the individual pairs)")
    print("   per-pair geometric means: " + " ".join(f"{g:.3f}" for g in per_pair))
    note = os.path.join(d, "parity_note.txt")
    if os.path.exists(note):
        print("   " + open(note).read().strip())
    print()


def scale(d, prog):
    """(name, bytes) -> (ns, check) from 'scale NAME BYTES TL_NS PLAIN_NS CHECK' lines."""
    out = {}
    for f in runs(d, prog):
        for line in open(f):
            p = line.split()
            if len(p) == 6 and p[0] == "scale":
                ns = float(p[3]) if p[3] != "-" else float(p[4])
                out[(p[1], int(p[2]))] = (ns, p[5])
    return out


def smp_runs(d):
    """'HxW' -> bytes per second (median over runs) from 'smp workers W bytes B ticks T timebase HZ'."""
    out = {}
    for cfg in ("1x1", "2x1", "2x2"):
        vals = []
        for f in runs(d, f"smp{cfg}"):
            for line in open(f):
                p = line.split()
                if len(p) == 9 and p[0] == "smp":
                    vals.append(int(p[4]) / (int(p[6]) / int(p[8])))
        if vals:
            out[cfg] = statistics.median(vals)
    return out


if __name__ == "__main__":
    main()
