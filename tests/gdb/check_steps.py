#!/usr/bin/python3
"""Replays the instructions gdb stepped (tests/gdb/step.py's JSON lines) on
the reference model (tests/reference/tlref.py) and compares, after every
TL instruction and TL CSR access, the whole TL state gdb read from
qemu-system-riscv64 (9 CSRs, 32 registers) with the model's; at the end dst[]
with the model's memory.  Prints ok/not ok lines and "N passed, M failed".

  check_steps.py STEPS.jsonl [OBJDUMP-D-OUTPUT]

With objdump -d's output of the same ELF, gdb's x/i text of every TL
instruction must be objdump's.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import tlref  # noqa: E402

CSR_FIRST = 0x800


def model_state(st):
    return {"csr": [st.csr_read(CSR_FIRST + i) & 0xFFFFFFFF for i in range(9)],
            "tl": [bytes(st.read_reg(i)).hex() for i in range(32)]}


def diff(want, got):
    out = []
    for i in range(9):
        if want["csr"][i] != got["csr"][i]:
            out.append("CSR 0x%03x: gdb 0x%x, model 0x%x" % (CSR_FIRST + i, got["csr"][i], want["csr"][i]))
    for i in range(32):
        if want["tl"][i] != got["tl"][i]:
            b = next(k for k in range(0, 2048, 2) if want["tl"][i][k:k + 2] != got["tl"][i][k:k + 2]) // 2
            out.append("tl%d byte %d: gdb 0x%s, model 0x%s" % (i, b, got["tl"][i][2 * b:2 * b + 2],
                                                             want["tl"][i][2 * b:2 * b + 2]))
    return out


def main():
    recs = [json.loads(line) for line in open(sys.argv[1])]
    passed = failed = 0
    objdump = {}
    if len(sys.argv) > 2:
        for line in open(sys.argv[2]):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3 and parts[0].strip().endswith(":"):
                try:
                    objdump[int(parts[0].strip()[:-1], 16)] = " ".join(p.strip() for p in parts[2:])
                except ValueError:
                    pass

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("ok - " + what)
        else:
            failed += 1
            print("not ok - " + what)

    start = recs[0]
    st = tlref.TLState()
    mem = tlref.Memory()
    mem.write(start["src_addr"], bytes.fromhex(start["src"]))
    d = diff(model_state(st), start["state"])
    check(not d, "before the sequence gdb reads the reset TL state (%s)" % ("; ".join(d) or "equal"))
    n_tl = n_csr = 0
    for r in recs[1:]:
        if r["kind"] != "step":
            continue
        w = r["word"]
        what = None
        if w & 0x7F == 0x5B:
            tlref.execute(st, mem, w, r["gpr"])
            what = "tl"
            n_tl += 1
            if objdump:
                got_text = " ".join(r["text"].split(":", 1)[-1].split())
                want_text = " ".join(objdump.get(r["pc"], "(no objdump line)").split())
                check(got_text == want_text, "gdb x/i at 0x%x: '%s', objdump -d: '%s'" % (r["pc"], got_text, want_text))
        elif w & 0x7F == 0x73 and CSR_FIRST <= (w >> 20) <= CSR_FIRST + 8 and (w >> 12) & 7:
            tlref.execute_csr(st, w, r["gpr"])
            what = "csr"
            n_csr += 1
        if what is None:
            # Any other instruction leaves the TL state alone.
            d = diff(model_state(st), r["state"])
            if d:
                check(False, "0x%x %s changed the TL state: %s" % (r["pc"], r["text"], "; ".join(d)))
            continue
        d = diff(model_state(st), r["state"])
        check(not d, "after %s (0x%08x at 0x%x) gdb's TL state = the model's%s"
              % (r["text"].split(":", 1)[-1].strip(), w, r["pc"], (": " + "; ".join(d[:3])) if d else ""))
    end = recs[-1]
    got = bytes.fromhex(end["dst"])
    want = bytes(mem.read(end["dst_addr"], 1024))
    check(got == want, "dst[] after the sequence = the model's memory")
    # step_guest.c's tl_sequence(): 10 TL instructions, 8 TL CSR writes.
    check(n_tl == 10 and n_csr == 8, "%d TL instructions (want 10) and %d TL CSR writes (want 8) stepped" % (n_tl, n_csr))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
