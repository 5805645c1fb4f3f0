# Run inside TL-QEMU's gdb (tests/gdb/run.sh): the element decoding of
# "info tl" (gdb/xtl.py, loaded from gdb's data directory) against the
# reference model's formats (tests/reference/tlref.py, docs/isa.md 3.3) for
# every code of the 4-, 8- and 16-bit types and a spread of binary32 codes,
# and the int4 nibble order.  Prints ok/not ok lines and "N passed, M failed".
import math
import os
import sys

import gdb

sys.path.insert(0, os.path.join(os.environ["TL_REPO"], "tests", "reference"))
import tlref  # noqa: E402
from gdb.command import xtl  # noqa: E402

REF = {"e2m1": tlref.E2M1, "e4m3": tlref.E4M3FN, "e5m2": tlref.E5M2, "e3m4": tlref.E3M4,
       "fp16": tlref.FP16, "bf16": tlref.BF16, "fp32": tlref.FP32}
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        gdb.write("ok - %s\n" % what)
    else:
        failed += 1
        gdb.write("not ok - %s\n" % what)


for name, fmt in REF.items():
    bits = {"e2m1": 4, "e4m3": 8, "e5m2": 8, "e3m4": 8, "fp16": 16, "bf16": 16, "fp32": 32}[name]
    codes = range(1 << bits) if bits <= 16 else [
        c for c in range(0, 1 << 32, 0x10001)] + [0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x80000001, 0x7F7FFFFF]
    bad = []
    for c in codes:
        kind, neg, mag = fmt.decode(c)
        got = xtl.decode_float(c, name)
        if kind == "nan":
            ok = math.isnan(got)
        elif kind == "inf":
            ok = math.isinf(got) and (got < 0) == neg
        else:
            want = float(mag) * (-1 if neg else 1)
            ok = got == want and (math.copysign(1, got) < 0) == neg
        if not ok:
            bad.append("0x%x: %r" % (c, got))
    check(not bad, "info tl decodes all %d %s codes as the reference model does%s"
          % (len(codes), name, (": " + ", ".join(bad[:4])) if bad else ""))
data = bytes((37 * i + 11) % 256 for i in range(64))
for name, esz in (("int4", 4), ("int8", 8), ("int16", 16), ("int32", 32)):
    want = [int(x) for x in tlref.unpack_elems(list(data), esz)]
    check(xtl.elements(data, name) == want, "%s: elements in the reference model's order and values" % name)
gdb.write("%d passed, %d failed\n" % (passed, failed))
