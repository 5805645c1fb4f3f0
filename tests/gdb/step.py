# Run inside gdb (tests/gdb/run.sh): steps tl_sequence() of step_guest.c one
# instruction at a time and writes, as JSON lines to $TL_STEP_OUT, the
# instruction word and GPRs before each step and the TL state (CSRs 0x800 ..
# 0x808 as gdb reads them by name, tl0 .. tl31) after it, plus src[] at the
# start and dst[] at the end.  tests/gdb/check_steps.py replays the words on
# the reference model.
import json
import os

import gdb

CSRS = ("ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
        "tmask_load_stride", "tmask_load_width", "tvalid", "tinit")


def reg_bytes(v):
    try:
        return bytes(v.bytes)
    except AttributeError:          # gdb < 14
        b = v["b"]
        return bytes(int(b[i]) for i in range(1024))


def tl_state(frame):
    csr = [int(frame.read_register(n)) & 0xFFFFFFFF for n in CSRS]
    regs = [reg_bytes(frame.read_register("tl%d" % i)).hex() for i in range(32)]
    return {"csr": csr, "tl": regs}


def addr_of(sym):
    return int(gdb.parse_and_eval("(unsigned long)&%s" % sym))


out = open(os.environ["TL_STEP_OUT"], "w")
inf = gdb.selected_inferior()
frame = gdb.selected_frame()
block = gdb.block_for_pc(frame.pc())
while block.function is None:
    block = block.superblock
start, end = block.start, block.end
src = addr_of("src")
out.write(json.dumps({"kind": "start", "src_addr": src,
                      "src": bytes(inf.read_memory(src, 1024)).hex(),
                      "state": tl_state(frame)}) + "\n")
steps = 0
while start <= frame.pc() < end and steps < 500:
    pc = frame.pc()
    word = int.from_bytes(bytes(inf.read_memory(pc, 4)), "little")
    gpr = [0] + [int(frame.read_register("x%d" % i)) & (2**64 - 1) for i in range(1, 32)]
    text = gdb.execute("x/i $pc", to_string=True).strip()
    gdb.execute("stepi", to_string=True)
    frame = gdb.selected_frame()
    out.write(json.dumps({"kind": "step", "pc": pc, "word": word, "gpr": gpr, "text": text,
                          "state": tl_state(frame)}) + "\n")
    steps += 1
dst = addr_of("dst")
out.write(json.dumps({"kind": "end", "dst_addr": dst,
                      "dst": bytes(inf.read_memory(dst, 1024)).hex()}) + "\n")
out.close()
gdb.write("step.py: %d instructions stepped\n" % steps)
