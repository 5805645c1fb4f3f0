# TensorLoad (xtl) commands for gdb: TL registers as blocks of the current
# element type and shape.  Loaded at start-up by TL-QEMU's gdb (it lives in
# the data directory's python/gdb/command/); any other gdb with Python can
# load it with "source xtl.py".  See docs/toolchain.md.
#
#   info tl              the TL CSRs, decoded (ttype, tshape [D0, D1, D2], masks ...)
#   info tl tlN [TYPE]   tlN as a [D0][D1][D2] block of ttype (or TYPE) elements;
#                        without a valid tshape, its 1024 bytes as TYPE elements
#   info registers xtl   the TL registers and CSRs (a register group)
#
# SPDX-License-Identifier: GPL-2.0-or-later

import math

import gdb

CSRS = ("ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
        "tmask_load_stride", "tmask_load_width", "tvalid", "tinit")
REG_BYTES = 1024

# ttype value -> (name, element size in bits, decoder kind)
TYPES = {
    0x001: ("int4", 4, "u"), 0x002: ("int8", 8, "u"), 0x004: ("int16", 16, "u"),
    0x008: ("int32", 32, "u"), 0x010: ("e2m1", 4, "f"), 0x040: ("e4m3", 8, "f"),
    0x080: ("e5m2", 8, "f"), 0x0C0: ("e3m4", 8, "f"), 0x100: ("fp16", 16, "f"),
    0x200: ("bf16", 16, "f"), 0x400: ("fp32", 32, "f"),
}
BY_NAME = {v[0]: k for k, v in TYPES.items()}

# Floating-point formats of docs/isa.md 3.3: (exponent bits, mantissa bits,
# bias, special): "ieee" all-ones exponent is inf/NaN, "fn" only S.1111.111
# is NaN (E4M3FN), "none" no inf and no NaN (E2M1).
FORMATS = {
    "e2m1": (2, 1, 1, "none"), "e4m3": (4, 3, 7, "fn"), "e5m2": (5, 2, 15, "ieee"),
    "e3m4": (3, 4, 3, "ieee"), "fp16": (5, 10, 15, "ieee"), "bf16": (8, 7, 127, "ieee"),
    "fp32": (8, 23, 127, "ieee"),
}


def decode_float(bits, fmt):
    e_bits, m_bits, bias, special = FORMATS[fmt]
    sign = -1.0 if (bits >> (e_bits + m_bits)) & 1 else 1.0
    exp = (bits >> m_bits) & ((1 << e_bits) - 1)
    man = bits & ((1 << m_bits) - 1)
    all_ones = (1 << e_bits) - 1
    if special == "ieee" and exp == all_ones:
        return sign * math.inf if man == 0 else math.nan
    if special == "fn" and exp == all_ones and man == (1 << m_bits) - 1:
        return math.nan
    if exp == 0:
        return sign * man * 2.0 ** (1 - bias - m_bits)
    return sign * (1 + man / float(1 << m_bits)) * 2.0 ** (exp - bias)


def elements(data, name):
    """The elements of bytes DATA as type NAME, in memory order."""
    size = TYPES[BY_NAME[name]][1]
    if size == 4:                      # two elements per byte, low nibble first
        raw = []
        for b in data:
            raw += [b & 0xF, b >> 4]
    else:
        n = size // 8
        raw = [int.from_bytes(data[i:i + n], "little") for i in range(0, len(data), n)]
    if TYPES[BY_NAME[name]][2] == "u":
        return raw
    return [decode_float(r, name) for r in raw]


def fmt_elem(v):
    if isinstance(v, int):
        return str(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%.6g" % v


def read_reg(name):
    frame = gdb.selected_frame()
    try:
        return frame.read_register(name)
    except (gdb.error, ValueError) as e:
        raise gdb.GdbError("this target has no register %s (%s): is xtl on "
                           "(-cpu max or rv64,xtl=on), and is this TL-QEMU's gdb?" % (name, e))


def unavailable(e):
    return gdb.GdbError("this thread has no TL state (it has not used TL): %s" % e)


def csr(name):
    try:
        return int(read_reg(name)) & 0xFFFFFFFF
    except gdb.error as e:
        raise unavailable(e)


def reg_bytes(n):
    v = read_reg("tl%d" % n)
    try:
        try:
            return bytes(v.bytes)      # gdb >= 14
        except AttributeError:
            b = v["b"]
            return bytes(int(b[i]) for i in range(REG_BYTES))
    except gdb.error as e:
        raise unavailable(e)


def shape():
    """(D0, D1, D2) of tshape, or None when tshape is not initialized."""
    if not csr("tinit") & 0x2:
        return None
    t = csr("tshape")
    return (t >> 16) & 0xFF, (t >> 8) & 0xFF, t & 0xFF


def type_name(value):
    return TYPES[value][0] if value in TYPES else "invalid (0x%x)" % value


class InfoTL(gdb.Command):
    """TensorLoad (xtl) state.
Usage: info tl               the TL CSRs, decoded
       info tl tlN [TYPE]    TL register N as a [D0][D1][D2] block of the current
                             ttype (or TYPE: int4 int8 int16 int32 e2m1 e4m3 e5m2
                             e3m4 fp16 bf16 fp32), as tshape gives it; without a
                             valid tshape, its 1024 bytes as TYPE elements"""

    def __init__(self):
        super().__init__("info tl", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not args:
            self.show_csrs()
            return
        name = args[0]
        if not (name.startswith("tl") and name[2:].isdigit() and 0 <= int(name[2:]) < 32):
            raise gdb.GdbError("info tl: '%s' is not a TL register (tl0 .. tl31)" % name)
        want = args[1] if len(args) > 1 else None
        if want is not None and want not in BY_NAME:
            raise gdb.GdbError("info tl: unknown element type '%s' (one of: %s)"
                               % (want, " ".join(sorted(BY_NAME))))
        if len(args) > 2:
            raise gdb.GdbError("usage: info tl [tlN [TYPE]]")
        self.show_reg(int(name[2:]), want)

    def show_csrs(self):
        init = csr("tinit")
        for i, name in enumerate(CSRS):
            value = csr(name)
            note = ""
            if name == "ttype":
                note = type_name(value)
            elif name == "tshape":
                note = ("[%d, %d, %d]" % ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
                        if init & 0x2 else "not initialized")
            elif name == "tvalid":
                note = ("[%d, %d, %d]" % ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
                        if init & (1 << 7) else "not initialized")
            elif name == "tinit":
                note = "initialized: " + (", ".join(CSRS[j] for j in range(8) if value >> j & 1) or "none")
            elif not init & (1 << i):
                note = "not initialized"
            gdb.write("%-18s 0x%08x  %s\n" % (name, value, note))

    def show_reg(self, n, want):
        t = csr("ttype")
        name = want or (TYPES[t][0] if t in TYPES else None)
        if name is None:
            raise gdb.GdbError("ttype = 0x%x is not a valid element type; name one: info tl tl%d int8" % (t, n))
        esz = TYPES[BY_NAME[name]][1]
        data = reg_bytes(n)
        shp = shape()
        if shp is not None:
            d0, d1, d2 = shp
            s = d1 * d2 * esz // 8
            if d0 < 1 or d1 < 1 or d2 < 1 or (d1 * d2 * esz) % 8 or d0 * s > REG_BYTES:
                shp = None
        if shp is None:
            vals = elements(data, name)
            gdb.write("tl%d: %d x %s (tshape not valid: the whole register)\n" % (n, len(vals), name))
            for i in range(0, len(vals), 16):
                gdb.write("  [%4d] %s\n" % (i, " ".join(fmt_elem(v) for v in vals[i:i + 16])))
            return
        vals = elements(data[:d0 * s], name)
        gdb.write("tl%d: [%d][%d][%d] %s\n" % (n, d0, d1, d2, name))
        for i in range(d0):
            for j in range(d1):
                row = vals[(i * d1 + j) * d2:(i * d1 + j + 1) * d2]
                gdb.write("  [%d][%d] %s\n" % (i, j, " ".join(fmt_elem(v) for v in row)))


InfoTL()
