#!/usr/bin/python3
"""Self-test of the xtl reference model (tlref.py).

Run: /usr/bin/python3 tests/reference/test_tlref.py
Prints one line per check and ends with 'N passed, M failed'; exits non-zero
on any failure.  Checks the worked examples of the seed document (with the
errata of the decisions file applied), hand-computed float cases, and random
cross-checks of the float rounding against numpy (binary16/binary32) and
against brute-force enumeration of every code (8-bit and 4-bit formats).
"""

import os
import random
import sys
import traceback
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tlref as T  # noqa: E402

PASSED = 0
FAILED = 0


def check(desc, cond, detail=""):
    global PASSED, FAILED
    if cond:
        PASSED += 1
        print("PASS: %s" % desc)
    else:
        FAILED += 1
        print("FAIL: %s%s" % (desc, (" -- " + str(detail)) if detail else ""))


def check_raises(desc, exc_type, fn, *args, **kw):
    """fn must raise exc_type; returns the exception (or None)."""
    try:
        fn(*args, **kw)
    except exc_type as e:
        check(desc, True)
        return e
    except Exception as e:  # wrong exception
        check(desc, False, "raised %r" % e)
        return None
    check(desc, False, "no exception")
    return None


def run_section(fn):
    try:
        fn()
    except Exception:
        check("section %s ran without an unexpected exception" % fn.__name__, False,
              traceback.format_exc())


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

RNG = np.random.default_rng(12345)
PRNG = random.Random(6789)


def new_state(ttype=None, shape=None, xlen=64):
    s = T.TLState(xlen)
    if ttype is not None:
        s.csr_write(T.CSR_TTYPE, T.ttype_for(ttype) if isinstance(ttype, str) else ttype)
    if shape is not None:
        s.csr_write(T.CSR_TSHAPE, T.tshape_value(*shape))
    return s


def rand_reg():
    return RNG.integers(0, 256, 1024, dtype=np.uint8)


def set_bytes(state, n, values):
    reg = np.zeros(1024, dtype=np.uint8)
    reg[:len(values)] = values
    state.write_reg(n, reg)


def unchanged(state, mem, fn):
    """Run fn expecting an exception; True if TLState and Memory are unchanged."""
    before_s = state.snapshot()
    before_m = mem.snapshot() if mem is not None else None
    try:
        fn()
    except T.TLException:
        pass
    return state.snapshot() == before_s and (mem is None or mem.snapshot() == before_m)


def f32_bits(x):
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


def indep_value(name, code):
    """Independent decoder of the small formats (finite codes only) -> Fraction."""
    eb, mb, bias = {"E5M2": (5, 2, 15), "E3M4": (3, 4, 3), "E4M3FN": (4, 3, 7),
                    "E2M1": (2, 1, 1), "binary16": (5, 10, 15)}[name]
    s = code >> (eb + mb)
    e = (code >> mb) & ((1 << eb) - 1)
    m = code & ((1 << mb) - 1)
    if e == 0:
        v = Fraction(m, 1 << mb) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(m, 1 << mb)) * Fraction(2) ** (e - bias)
    return -v if s else v


_CANDS = {}


def finite_positive_codes(fmt):
    """All non-negative finite codes of a small format, by the independent decoder."""
    if fmt.name in _CANDS:
        return _CANDS[fmt.name]
    out = _CANDS[fmt.name] = []
    for c in range(1 << (fmt.bits - 1)):
        e = (c >> fmt.mbits) & ((1 << fmt.ebits) - 1)
        m = c & ((1 << fmt.mbits) - 1)
        if fmt.special == "ieee" and e == (1 << fmt.ebits) - 1:
            continue
        if fmt.special == "fn" and e == (1 << fmt.ebits) - 1 and m == (1 << fmt.mbits) - 1:
            continue
        out.append((indep_value(fmt.name, c), c))
    return out


def brute_round(fmt, x, zero_sign_neg):
    """Brute force: nearest finite code to exact x, ties to the code with even
    mantissa LSB, magnitudes >= max finite saturate."""
    neg = x < 0
    a = abs(x)
    cands = finite_positive_codes(fmt)
    vmax = max(v for v, _ in cands)
    sbit = 1 << (fmt.bits - 1)
    if a >= vmax:
        code = [c for v, c in cands if v == vmax][0]
    else:
        best = min(abs(v - a) for v, _ in cands)
        near = [c for v, c in cands if abs(v - a) == best]
        if len(near) > 1:
            near = [c for c in near if c % 2 == 0]
        assert len(near) == 1
        code = near[0]
    if code == 0:
        return sbit if zero_sign_neg else 0
    return code | (sbit if neg else 0)


# ---------------------------------------------------------------------------
# state and CSRs
# ---------------------------------------------------------------------------


def test_state_csr():
    s = T.TLState()
    check("reset: ttype = 0x002 and initialized", s.csr_read(T.CSR_TTYPE) == 0x002
          and s.csr_initialized(T.CSR_TTYPE))
    check("reset: CSRs 0x801..0x807 uninitialized and read 0",
          all(not s.csr_initialized(a) and s.csr_read(a) == 0 for a in range(0x801, 0x808)))
    check("reset: all TLRegs zero", not s.regs.any())
    s.csr_write(T.CSR_TTYPE, 0xFFFFFFFF)
    check("WARL: ttype keeps bits [11:0] only", s.csr_read(T.CSR_TTYPE) == 0xFFF)
    s.csr_write(T.CSR_TSHAPE, 0xFFFFFFFFFF)
    check("WARL: tshape keeps bits [23:0] only", s.csr_read(T.CSR_TSHAPE) == 0xFFFFFF)
    s.csr_write(T.CSR_TVALID, 0x12345678)
    check("WARL: tvalid keeps bits [23:0] only", s.csr_read(T.CSR_TVALID) == 0x345678)
    s.csr_write(T.CSR_TMASK_LOAD_STRIDE, 0xFFFFFFFFFFFFFFF0)
    check("32-bit CSR truncates a 64-bit write (stride -16 reads 0xFFFFFFF0)",
          s.csr_read(T.CSR_TMASK_LOAD_STRIDE) == 0xFFFFFFF0)
    s.csr_write(T.CSR_TMASK_LS, 0)
    check("writing 0 initializes a CSR", s.csr_initialized(T.CSR_TMASK_LS))
    s.write_reg(0, np.full(1024, 7, dtype=np.uint8))
    check("writes to tl0 are discarded", not s.regs[0].any())
    # Zicsr layer
    s = T.TLState()
    w = T.encode_csr("csrrs", T.CSR_TMASK_CONCAT_1, 5, 0)
    r = T.execute_csr(s, w, {})
    check("csrrs with rs1=x0 reads 0 and does not initialize",
          r == (5, 0) and not s.csr_initialized(T.CSR_TMASK_CONCAT_1))
    T.execute_csr(s, T.encode_csr("csrrw", T.CSR_TMASK_CONCAT_1, 0, 3), {3: 0x1234})
    check("csrrw writes and initializes", s.csr_read(T.CSR_TMASK_CONCAT_1) == 0x1234
          and s.csr_initialized(T.CSR_TMASK_CONCAT_1))
    T.execute_csr(s, T.encode_csr("csrrci", T.CSR_TMASK_CONCAT_1, 0, 4), {})
    check("csrrci clears bits", s.csr_read(T.CSR_TMASK_CONCAT_1) == 0x1230)
    T.execute_csr(s, T.encode_csr("csrrs", T.CSR_TMASK_CONCAT_2, 0, 7), {7: 0})
    check("csrrs with a non-x0 register holding 0 initializes",
          s.csr_initialized(T.CSR_TMASK_CONCAT_2))
    check("execute_csr ignores non-TL CSRs", T.execute_csr(s, T.encode_csr("csrrw", 0x809, 1, 1), {1: 1}) is None)


def test_tinit():
    # Decisions 2.1: tinit (0x808) = the initialized flags, bit 0 read-only 1.
    s = T.TLState()
    check("tinit: reset value 0x01", s.csr_read(T.CSR_TINIT) == 0x01)
    s.csr_write(T.CSR_TSHAPE, 0x040404)
    s.csr_write(T.CSR_TVALID, 0x010101)
    check("tinit: flags of written CSRs (tshape, tvalid: 0x83)", s.csr_read(T.CSR_TINIT) == 0x83)
    s.csr_write(T.CSR_TINIT, 0x80)
    check("tinit: clearing tshape's flag makes it uninitialized and 0",
          not s.csr_initialized(T.CSR_TSHAPE) and s.csr_read(T.CSR_TSHAPE) == 0)
    check("tinit: tvalid keeps its value", s.csr_read(T.CSR_TVALID) == 0x010101)
    check("tinit: bit 0 stays 1 after writing 0x80", s.csr_read(T.CSR_TINIT) == 0x81)
    s.csr_write(T.CSR_TINIT, 0xFFFFFF00 | 0x04)
    check("tinit: bits 31:8 read 0; tmask_ls set by tinit is initialized with value 0",
          s.csr_read(T.CSR_TINIT) == 0x05 and s.csr_initialized(T.CSR_TMASK_LS)
          and s.csr_read(T.CSR_TMASK_LS) == 0)
    T.execute_csr(s, T.encode_csr("csrrsi", T.CSR_TINIT, 0, 2), {})
    check("tinit: csrrsi 2 sets tshape's flag (value 0)", s.csr_read(T.CSR_TINIT) == 0x07
          and s.csr_read(T.CSR_TSHAPE) == 0)
    r = T.execute_csr(s, T.encode_csr("csrrc", T.CSR_TINIT, 9, 3), {3: 0x04})
    check("tinit: csrrc returns the old flags and clears tmask_ls's", r == (9, 0x07)
          and s.csr_read(T.CSR_TINIT) == 0x03)
    # The exact save/restore sequence: a state with uninitialized CSRs round-trips.
    a = T.TLState()
    a.csr_write(T.CSR_TTYPE, 0x100)
    a.csr_write(T.CSR_TMASK_CONCAT_2, 0x33)
    a.write_reg(4, np.arange(1024) % 251)
    saved = [a.csr_read(0x800 + i) for i in range(9)]
    regs = a.regs.copy()
    b = T.TLState()
    b.csr_write(T.CSR_TSHAPE, 0x010101)
    b.csr_write(T.CSR_TMASK_LS, 0xFF)
    for i in range(1, 32):
        b.write_reg(i, regs[i])
    for i in range(8):
        b.csr_write(0x800 + i, saved[i])
    b.csr_write(T.CSR_TINIT, saved[8])
    check("tinit: save (read 0x800..0x808) and restore (write 0x800..0x807, tinit last) "
          "gives an equal state", b.snapshot() == a.snapshot())


def test_elem_types():
    expect = {0x001: ("int4", 4), 0x002: ("int8", 8), 0x004: ("int16", 16), 0x008: ("int32", 32),
              0x010: ("E2M1", 4), 0x040: ("E4M3FN", 8), 0x080: ("E5M2", 8), 0x0C0: ("E3M4", 8),
              0x100: ("binary16", 16), 0x200: ("bfloat16", 16), 0x400: ("binary32", 32)}
    ok = all((T.elem_type(c).name, T.elem_type(c).esz) == v for c, v in expect.items())
    check("ttype: the 11 valid codes map to the right type and size", ok)
    for bad, why in ((0x000, "no field"), (0x003, "two int fields"), (0x042, "int8 + E4M3"),
                     (0x020, "tfp4 = 10 reserved"), (0x030, "tfp4 = 11 reserved"),
                     (0x300, "tfp16 = 11 reserved"), (0x800, "tfp32 = 10 reserved"),
                     (0xC00, "tfp32 = 11 reserved"), (0x500, "fp16 + fp32")):
        check_raises("ttype 0x%03x (%s) is illegal" % (bad, why), T.IllegalInstruction,
                     T.elem_type, bad)
    s = new_state(0x000)
    check_raises("ADDI with ttype = 0 raises illegal", T.IllegalInstruction, T.tl_addi, s, 1, 2, 1)


# ---------------------------------------------------------------------------
# ADDI / MULS integers
# ---------------------------------------------------------------------------


def test_addi_int():
    for a, imm, r in ((200, 100, 255), (50, -100, 0), (128, 10, 138), (30, -20, 10)):
        s = new_state()  # ttype int8 at reset, tshape uninitialized: ADDI needs only ttype
        set_bytes(s, 4, [a])
        T.tl_addi(s, 5, 4, imm)
        check("seed 4.4.4: int8 %d %+d -> %d" % (a, imm, r), int(s.regs[5][0]) == r,
              int(s.regs[5][0]))
    s = new_state()
    set_bytes(s, 4, [250, 10, 128, 200])
    T.tl_addi(s, 5, 4, 100)
    T.tl_addi(s, 6, 4, -50)
    check("seed 5.4 ex.4: [250,10,128,200] + 100 -> [255,110,228,255]",
          list(s.regs[5][:4]) == [255, 110, 228, 255], list(s.regs[5][:4]))
    check("seed 5.4 ex.4: [250,10,128,200] - 50 -> [200,0,78,150]",
          list(s.regs[6][:4]) == [200, 0, 78, 150], list(s.regs[6][:4]))
    check("ADDI covers the whole register: 1020 zero bytes + 100 -> 100",
          (s.regs[5][4:] == 100).all())
    check("ADDI -50 of zero bytes saturates to 0", (s.regs[6][4:] == 0).all())
    # in place
    s = new_state()
    src = rand_reg()
    s.write_reg(3, src)
    T.tl_addi(s, 3, 3, -5)
    check("ADDI in place (tlrd == tlrs) int8 over 1024 random bytes",
          (s.regs[3] == np.clip(src.astype(int) - 5, 0, 255)).all())
    # int4 nibble order
    s = new_state("int4")
    set_bytes(s, 1, [0x21, 0xF0])
    T.tl_addi(s, 2, 1, 1)
    check("int4 ADDI: byte 0x21 (elements 1,2) + 1 -> 0x32; 0xF0 (0,15) + 1 -> 0xF1",
          list(s.regs[2][:2]) == [0x32, 0xF1], [hex(x) for x in s.regs[2][:2]])
    T.tl_addi(s, 2, 1, -2)
    check("int4 ADDI -2: 0x21 -> 0x00, 0xF0 -> 0xD0",
          list(s.regs[2][:2]) == [0x00, 0xD0], [hex(x) for x in s.regs[2][:2]])
    check("int4 ADDI -2 over zero nibbles gives 0", not s.regs[2][2:].any())
    s = new_state("int16")
    set_bytes(s, 1, np.array([65530, 5, 300], dtype="<u2").view(np.uint8))
    T.tl_addi(s, 2, 1, 10)
    v = s.regs[2][:6].view("<u2")
    check("int16 ADDI +10: [65530,5,300] -> [65535,15,310]", list(v) == [65535, 15, 310], list(v))
    s = new_state("int32")
    set_bytes(s, 1, np.array([0xFFFFFFFF, 100, 3], dtype="<u4").view(np.uint8))
    T.tl_addi(s, 2, 1, -4)
    v = s.regs[2][:12].view("<u4")
    check("int32 ADDI -4: [2^32-1,100,3] -> [2^32-5,96,0]", list(v) == [0xFFFFFFFB, 96, 0], list(v))


def test_muls_int():
    s = new_state()
    set_bytes(s, 1, [100, 10, 0, 1, 255])
    T.tl_muls(s, 2, 1, 3)
    check("int8 MULS by 3: [100,10,0,1,255] -> [255,30,0,3,255]",
          list(s.regs[2][:5]) == [255, 30, 0, 3, 255], list(s.regs[2][:5]))
    T.tl_muls(s, 2, 1, (1 << 64) - 1)
    check("int8 MULS by 2^64-1 (unsigned): non-zero -> 255, zero stays 0",
          list(s.regs[2][:5]) == [255, 255, 0, 255, 255], list(s.regs[2][:5]))
    s = new_state("int32")
    set_bytes(s, 1, np.array([0xFFFFFFFF, 2, 0, 0x10000], dtype="<u4").view(np.uint8))
    T.tl_muls(s, 2, 1, 0x10000)
    v = s.regs[2][:16].view("<u4")
    check("int32 MULS by 65536", list(v) == [0xFFFFFFFF, 0x20000, 0, 0xFFFFFFFF], list(v))
    s = new_state("int4")
    set_bytes(s, 1, [0x53])
    T.tl_muls(s, 2, 1, 3)
    check("int4 MULS by 3: nibbles (3,5) -> (9,15 saturated) = 0xF9", s.regs[2][0] == 0xF9,
          hex(s.regs[2][0]))
    s = new_state("int16")
    src = rand_reg()
    s.write_reg(1, src)
    T.tl_muls(s, 2, 1, 7)
    exp = np.minimum(src.view("<u2").astype(np.int64) * 7, 65535)
    check("int16 MULS by 7 over a random register", (s.regs[2].view("<u2") == exp).all())
    # the scalar comes from x[rs2] with full XLEN width (RV32: 32 bits)
    s = new_state(xlen=32)
    set_bytes(s, 1, [1])
    T.execute(s, T.Memory(), T.encode_muls(2, 1, 9), {9: (1 << 32) + 2})
    check("RV32: MULS scalar x[rs2] is taken modulo 2^32 (2^32+2 -> 2)", s.regs[2][0] == 2)


# ---------------------------------------------------------------------------
# Float arithmetic: hand cases
# ---------------------------------------------------------------------------


def float_addi(tname, code, imm):
    s = new_state(tname)
    et = T.elem_type(T.ttype_for(tname))
    elems = np.zeros(et.elems_per_reg, dtype={4: np.uint8, 8: np.uint8, 16: np.uint16,
                                              32: np.uint32}[et.esz])
    elems[0] = code
    s.write_reg(1, T.pack_elems(elems, et.esz))
    T.tl_addi(s, 2, 1, imm)
    return int(T.unpack_elems(s.regs[2], et.esz)[0])


def float_muls(tname, code, scalar_bits):
    s = new_state(tname)
    et = T.elem_type(T.ttype_for(tname))
    elems = np.zeros(et.elems_per_reg, dtype={4: np.uint8, 8: np.uint8, 16: np.uint16,
                                              32: np.uint32}[et.esz])
    elems[0] = code
    s.write_reg(1, T.pack_elems(elems, et.esz))
    T.tl_muls(s, 2, 1, scalar_bits)
    return int(T.unpack_elems(s.regs[2], et.esz)[0])


def test_float_hand():
    two = f32_bits(2.0)
    cases_addi = [
        # (type, code, imm, expected, description)
        ("bfloat16", 0x3F80, 1, 0x4000, "bf16 1.0 + 1 = 2.0"),
        ("binary16", 0x7BFF, 100, 0x7BFF, "fp16 65504 + 100 saturates to 65504"),
        ("binary16", 0xFBFF, -100, 0xFBFF, "fp16 -65504 - 100 saturates to -65504"),
        ("E4M3FN", 0x7E, 1, 0x7E, "E4M3FN 448 + 1 -> 448"),
        ("binary32", 0x7FC00000, 1, 0x7FC00000, "fp32 qNaN + 1 -> canonical NaN"),
        ("binary32", 0x7F800001, 0, 0x7FC00000, "fp32 sNaN + 0 -> canonical NaN"),
        ("binary32", 0xFFC12345, -3, 0x7FC00000, "fp32 negative NaN -> canonical (positive) NaN"),
        ("binary16", 0x7C01, 1, 0x7E00, "fp16 NaN -> 0x7E00"),
        ("bfloat16", 0xFFC1, 1, 0x7FC0, "bf16 NaN -> 0x7FC0"),
        ("E5M2", 0x7D, 1, 0x7E, "E5M2 NaN -> 0x7E"),
        ("E3M4", 0xF9, 1, 0x78, "E3M4 NaN -> 0x78"),
        ("E4M3FN", 0xFF, 1, 0x7F, "E4M3FN NaN (S.1111.111) -> 0x7F"),
        ("binary16", 0x7C00, -128, 0x7C00, "fp16 +inf - 128 stays +inf"),
        ("binary16", 0xFC00, 127, 0xFC00, "fp16 -inf + 127 stays -inf"),
        ("E5M2", 0x7C, -1, 0x7C, "E5M2 +inf - 1 stays +inf"),
        ("E3M4", 0xF0, 5, 0xF0, "E3M4 -inf + 5 stays -inf"),
        ("binary16", 0x8000, 0, 0x0000, "fp16 -0 + 0 = +0"),
        ("binary16", 0x3C00, -1, 0x0000, "fp16 1.0 - 1 = +0"),
        ("binary16", 0xBC00, 1, 0x0000, "fp16 -1.0 + 1 = +0"),
        ("E2M1", 0x9, 0, 0x9, "E2M1 -0.5 + 0 = -0.5 (0x9)"),
        ("E2M1", 0x8, 0, 0x0, "E2M1 -0 + 0 = +0"),
        # ties to even, derived by hand
        ("binary16", 0x6800, 1, 0x6800, "fp16 tie: 2048 + 1 = 2049 -> 2048 (even)"),
        ("binary16", 0x6801, 1, 0x6802, "fp16 tie: 2050 + 1 = 2051 -> 2052 (even)"),
        # 65472 (mantissa 0x3FE) + 16 = 65488, halfway to 65504 (mantissa 0x3FF): even wins
        ("binary16", 0x7BFE, 16, 0x7BFE, "fp16 tie: 65472 + 16 = 65488 -> 65472 (even), not 65504"),
        ("bfloat16", 0x4380, 1, 0x4380, "bf16 tie: 256 + 1 = 257 -> 256"),
        ("bfloat16", 0x4381, 1, 0x4382, "bf16 tie: 258 + 1 = 259 -> 260"),
        ("binary32", 0x4B800000, 1, 0x4B800000, "fp32 tie: 2^24 + 1 -> 2^24"),
        ("binary32", 0x4B800001, 1, 0x4B800002, "fp32 tie: 2^24+2 + 1 -> 2^24+4"),
        ("binary32", 0x4B800001, -1, 0x4B800000, "fp32 tie: 2^24+2 - 1 = 2^24+1 -> 2^24"),
        ("E5M2", 0x48, 1, 0x48, "E5M2 tie: 8 + 1 = 9 -> 8"),
        ("E5M2", 0x49, 1, 0x4A, "E5M2 tie: 10 + 1 = 11 -> 12"),
        ("E5M2", 0x7B, 127, 0x7B, "E5M2 57344 + 127 -> 57344 (no overflow to inf)"),
        ("E4M3FN", 0x58, 1, 0x58, "E4M3FN tie: 16 + 1 = 17 -> 16"),
        ("E4M3FN", 0x59, 1, 0x5A, "E4M3FN tie: 18 + 1 = 19 -> 20"),
        # -127 in [64,128) where the step is 8: nearest is -128 = -1.0*2^7 = S.1110.000
        ("E4M3FN", 0x00, -127, 0xF0, "E4M3FN 0 - 127 -> -128 (0xF0)"),
        ("E3M4", 0x6F, 1, 0x6F, "E3M4 15.5 + 1 saturates to 15.5 (not inf)"),
        ("E3M4", 0x30, 1, 0x40, "E3M4 1.0 + 1 = 2.0 (0x40)"),
        ("E2M1", 0x6, 1, 0x6, "E2M1 tie: 4 + 1 = 5 -> 4"),
        ("E2M1", 0x3, 1, 0x4, "E2M1 tie: 1.5 + 1 = 2.5 -> 2"),
        ("E2M1", 0x5, 1, 0x6, "E2M1 3 + 1 = 4"),
        ("E2M1", 0x7, 1, 0x7, "E2M1 6 + 1 saturates to 6"),
        ("E2M1", 0xF, -1, 0xF, "E2M1 -6 - 1 saturates to -6"),
        ("E2M1", 0x1, -1, 0x9, "E2M1 0.5 - 1 = -0.5"),
    ]
    for t, c, imm, e, d in cases_addi:
        got = float_addi(t, c, imm)
        check("ADDI %s: 0x%x %+d -> 0x%x" % (d, c, imm, e), got == e, "got 0x%x" % got)

    cases_muls = [
        ("binary16", 0x7BFF, two, 0x7BFF, "fp16 65504 * 2.0f saturates to 0x7BFF"),
        ("binary16", 0xFBFF, two, 0xFBFF, "fp16 -65504 * 2.0f saturates to 0xFBFF"),
        ("binary16", 0x7C00, f32_bits(0.0), 0x7E00, "fp16 inf * 0.0 -> NaN 0x7E00"),
        ("binary16", 0x0000, 0x7F800000, 0x7E00, "fp16 0 * inf -> NaN"),
        ("binary16", 0x3C00, 0x7F800000, 0x7C00, "fp16 1.0 * +inf -> +inf"),
        ("binary16", 0x3C00, 0xFF800000, 0xFC00, "fp16 1.0 * -inf -> -inf"),
        ("binary16", 0xBC00, 0xFF800000, 0x7C00, "fp16 -1.0 * -inf -> +inf"),
        ("binary16", 0x3C00, 0x7FC00001, 0x7E00, "fp16 1.0 * NaN scalar -> 0x7E00"),
        ("binary16", 0x8000, two, 0x8000, "fp16 -0 * 2 = -0"),
        ("binary16", 0x3C00, f32_bits(-0.0), 0x8000, "fp16 1.0 * -0.0 = -0"),
        ("binary16", 0x8000, f32_bits(-0.0), 0x0000, "fp16 -0 * -0.0 = +0"),
        ("binary16", 0x0001, f32_bits(0.5), 0x0000, "fp16 2^-24 * 0.5: tie 0 / 2^-24 -> +0"),
        ("binary16", 0x0001, f32_bits(-0.5), 0x8000, "fp16 2^-24 * -0.5 -> -0 (XOR sign)"),
        ("binary16", 0x0001, f32_bits(1.5), 0x0002, "fp16 2^-24 * 1.5 = 1.5 ulp -> 2 ulp"),
        ("binary16", 0x0003, f32_bits(0.5), 0x0002, "fp16 3*2^-24 * 0.5 = 1.5 ulp -> 2 ulp"),
        ("binary16", 0x0005, f32_bits(0.5), 0x0002, "fp16 5*2^-24 * 0.5 = 2.5 ulp -> 2 ulp"),
        ("binary16", 0x0400, f32_bits(0.5), 0x0200, "fp16 min normal * 0.5 -> subnormal 0x200"),
        ("binary16", 0x3C01, f32_bits(1.5), 0x3E02, "fp16 (1+2^-10)*1.5 = 1.5+1.5*2^-10 tie -> 1.5+2^-9"),
        ("bfloat16", 0x3F80, f32_bits(3.0), 0x4040, "bf16 1.0 * 3.0 = 3.0"),
        ("bfloat16", 0x3F81, f32_bits(1.5), 0x3FC2, "bf16 (1+2^-7)*1.5 tie -> 1.5+2^-6"),
        ("bfloat16", 0x7F7F, two, 0x7F7F, "bf16 max * 2 saturates"),
        ("binary32", 0x3F800001, f32_bits(1.5), 0x3FC00002,
         "fp32 (1+2^-23)*1.5 = 1.5+1.5*2^-23 tie -> 1.5+2^-22"),
        ("binary32", 0x7F7FFFFF, two, 0x7F7FFFFF, "fp32 max * 2 saturates (not inf)"),
        ("binary32", 0x00000001, f32_bits(0.5), 0x00000000, "fp32 min subnormal * 0.5 -> +0"),
        ("binary32", 0x00000003, f32_bits(0.5), 0x00000002, "fp32 3*2^-149 * 0.5 -> 2*2^-149"),
        ("E4M3FN", 0x38, 0x7F800000, 0x7E, "E4M3FN 1.0 * +inf -> 448 (no inf)"),
        ("E4M3FN", 0xB8, 0x7F800000, 0xFE, "E4M3FN -1.0 * +inf -> -448"),
        ("E4M3FN", 0x00, 0x7F800000, 0x7F, "E4M3FN 0 * inf -> NaN 0x7F"),
        ("E4M3FN", 0x7E, two, 0x7E, "E4M3FN 448 * 2 -> 448"),
        ("E4M3FN", 0x3F, f32_bits(1.0), 0x3F, "E4M3FN 1.875 * 1 = 1.875"),
        ("E4M3FN", 0x39, f32_bits(1.5), 0x3E, "E4M3FN 1.125*1.5 = 1.6875 tie -> 1.75 (0x3E)"),
        ("E4M3FN", 0x3B, f32_bits(1.5), 0x40, "E4M3FN 1.375*1.5 = 2.0625 (step .25 in [2,4)) -> 2.0"),
        ("E5M2", 0x7B, two, 0x7B, "E5M2 57344 * 2 -> 57344 (finite overflow saturates)"),
        ("E5M2", 0x3C, 0x7F800000, 0x7C, "E5M2 1.0 * inf -> +inf 0x7C"),
        ("E5M2", 0x7C, f32_bits(-2.0), 0xFC, "E5M2 +inf * -2 -> -inf"),
        ("E3M4", 0x31, f32_bits(1.5), 0x3A, "E3M4 1.0625*1.5 = 1.59375 tie -> 1.625 (0x3A)"),
        ("E3M4", 0x70, f32_bits(0.5), 0x70, "E3M4 +inf * 0.5 = +inf"),
        ("E3M4", 0x6F, two, 0x6F, "E3M4 15.5 * 2 -> 15.5"),
        ("E2M1", 0x2, 0x7F800000, 0x7, "E2M1 1.0 * inf -> 6"),
        ("E2M1", 0x0, 0x7F800000, 0x0, "E2M1 0 * inf -> NaN -> +0"),
        ("E2M1", 0x8, 0x7F800000, 0x0, "E2M1 -0 * inf -> NaN -> +0"),
        ("E2M1", 0x2, 0x7FC00000, 0x0, "E2M1 1.0 * NaN -> +0"),
        ("E2M1", 0x1, f32_bits(0.5), 0x0, "E2M1 0.5 * 0.5 = 0.25 tie -> +0"),
        ("E2M1", 0x1, f32_bits(-0.5), 0x8, "E2M1 0.5 * -0.5 -> -0 (0x8)"),
        ("E2M1", 0x5, f32_bits(2.5), 0x7, "E2M1 3 * 2.5 = 7.5 -> 6"),
        ("E2M1", 0x3, f32_bits(3.0), 0x6, "E2M1 1.5 * 3 = 4.5 -> 4"),
        ("E2M1", 0x3, f32_bits(-3.0), 0xE, "E2M1 1.5 * -3 = -4.5 -> -4 (0xE)"),
    ]
    for t, c, sc, e, d in cases_muls:
        got = float_muls(t, c, sc)
        check("MULS %s: 0x%x * f32 0x%08x -> 0x%x" % (d, c, sc, e), got == e, "got 0x%x" % got)
    # MULS float scalar uses only x[rs2][31:0]
    s = new_state("binary16")
    set_bytes(s, 1, [0x00, 0x3C])  # 1.0
    T.execute(s, T.Memory(), T.encode_muls(2, 1, 7), {7: (0xDEADBEEF << 32) | f32_bits(3.0)})
    check("MULS float scalar: upper bits of x[rs2] ignored (fp16 1.0 * 3.0 = 0x4200)",
          list(s.regs[2][:2]) == [0x00, 0x42], [hex(x) for x in s.regs[2][:2]])
    # whole register, E2M1 nibbles
    s = new_state("E2M1")
    set_bytes(s, 1, [0x21])  # elements 0.5 (0x1) then 1.0 (0x2)
    T.tl_addi(s, 2, 1, 1)
    check("E2M1 ADDI +1: byte 0x21 (0.5, 1.0) -> (1.5, 2.0) = 0x43 and zeros -> 1.0 (0x22)",
          s.regs[2][0] == 0x43 and (s.regs[2][1:] == 0x22).all(), hex(s.regs[2][0]))
    # pad codes
    want = {"int4": (0, 0xF), "int8": (0, 0xFF), "int16": (0, 0xFFFF), "int32": (0, 0xFFFFFFFF),
            "E2M1": (0xF, 0x7), "E4M3FN": (0xFE, 0x7E), "E5M2": (0xFC, 0x7C), "E3M4": (0xF0, 0x70),
            "binary16": (0xFC00, 0x7C00), "bfloat16": (0xFF80, 0x7F80),
            "binary32": (0xFF800000, 0x7F800000)}
    ok = all((T.elem_type(T.ttype_for(n)).pad_code(1), T.elem_type(T.ttype_for(n)).pad_code(2)) == v
             for n, v in want.items())
    check("FILLPAD min/max pad codes of all 11 types (+-inf or lowest/highest finite)", ok)


# ---------------------------------------------------------------------------
# Float arithmetic: random cross-checks
# ---------------------------------------------------------------------------


def _np_expected(np_dtype, maxcode, val64):
    """numpy's correctly rounded conversion, with overflow saturated."""
    r = np.array([val64], dtype=np.float64).astype(np_dtype)
    bits = int(r.view(np.uint16 if np_dtype == np.float16 else np.uint32)[0])
    if np.isinf(r[0]):
        sign = bits & (0x8000 if np_dtype == np.float16 else 0x80000000)
        return sign | maxcode
    return bits


def test_float_random_numpy():
    rnd = PRNG
    for tname, npt, bits, maxc in (("binary16", np.float16, 16, 0x7BFF),
                                   ("binary32", np.float32, 32, 0x7F7FFFFF)):
        fmt = T.elem_type(T.ttype_for(tname)).fmt
        uview = np.uint16 if bits == 16 else np.uint32
        bad = []
        n = 0
        for _ in range(3000):
            c = rnd.getrandbits(bits)
            kind, _, _ = fmt.decode(c)
            if kind != "fin":
                continue
            imm = rnd.randint(-128, 127)
            x = float(np.array([c], dtype=uview).view(npt)[0])
            exp = _np_expected(npt, maxc, x + imm)
            if x + imm == 0:
                exp = 0
            got = T.fp_add_int(fmt, c, imm)
            n += 1
            if got != exp:
                bad.append((hex(c), imm, hex(got), hex(exp)))
        check("ADDI %s: %d random finite cases agree with numpy (saturating)" % (tname, n),
              n > 0 and not bad, bad[:5])
        bad = []
        n = 0
        for _ in range(3000):
            c = rnd.getrandbits(bits)
            if rnd.random() < 0.5:  # scalars near 1 make many in-range products
                sc = f32_bits(rnd.uniform(-4, 4))
            else:
                sc = rnd.getrandbits(32)
            kind, _, _ = fmt.decode(c)
            sk, sn, sm = T.FP32.decode(sc)
            if kind != "fin" or sk != "fin":
                continue
            x = float(np.array([c], dtype=uview).view(npt)[0])
            y = float(np.array([sc], dtype=np.uint32).view(np.float32)[0])
            exp = _np_expected(npt, maxc, x * y)  # exact in float64, one rounding
            got = T.fp_mul(fmt, c, sk, sn, sm)
            n += 1
            if got != exp:
                bad.append((hex(c), hex(sc), hex(got), hex(exp)))
        check("MULS %s: %d random finite cases agree with numpy (saturating)" % (tname, n),
              n > 0 and not bad, bad[:5])
    # subnormal-heavy fp16 MULS
    fmt = T.FP16
    bad = []
    for c in range(0, 0x0800, 3):
        for y in (0.5, 0.25, 0.75, 1.5, -0.375, 3.0, 1.0 / 3):
            sc = f32_bits(y)
            sk, sn, sm = T.FP32.decode(sc)
            x = float(np.array([c], dtype=np.uint16).view(np.float16)[0])
            yy = float(np.array([sc], dtype=np.uint32).view(np.float32)[0])
            exp = _np_expected(np.float16, 0x7BFF, x * yy)
            got = T.fp_mul(fmt, c, sk, sn, sm)
            if got != exp:
                bad.append((hex(c), y, hex(got), hex(exp)))
    check("MULS binary16 subnormal/small-normal range vs numpy (4781 cases)", not bad, bad[:5])


def test_float_bruteforce_small():
    for tname in ("E2M1", "E4M3FN", "E5M2", "E3M4"):
        fmt = T.elem_type(T.ttype_for(tname)).fmt
        # decoder agrees with the independent decoder
        ok = all(fmt.decode(c)[0] == "fin"
                 and (-fmt.decode(c)[2] if fmt.decode(c)[1] else fmt.decode(c)[2])
                 == indep_value(tname, c)
                 for c in range(1 << fmt.bits)
                 if fmt.decode(c)[0] == "fin")
        check("%s: decoder agrees with an independent decoder on every finite code" % tname, ok)
        bad = []
        n = 0
        for c in range(1 << fmt.bits):
            kind, neg, mag = fmt.decode(c)
            if kind != "fin":
                continue
            for imm in (-128, -100, -17, -7, -3, -2, -1, 0, 1, 2, 3, 5, 9, 33, 127):
                x = (-mag if neg else mag) + imm
                exp = brute_round(fmt, x, False)
                got = T.fp_add_int(fmt, c, imm)
                n += 1
                if got != exp:
                    bad.append((hex(c), imm, hex(got), hex(exp)))
        check("ADDI %s: %d cases (every finite code x 15 imms) match brute-force nearest-even"
              % (tname, n), n > 0 and not bad, bad[:5])
        bad = []
        n = 0
        scalars = [0.5, 1.5, -1.5, 0.75, 1.0625, 1.25, -0.3, 3.0, 0.125, 2.0 ** -8, 1e-3, 7.0,
                   -0.0, 0.0, 100.0, 2.0 ** -20]
        for c in range(1 << fmt.bits):
            kind, neg, mag = fmt.decode(c)
            if kind != "fin":
                continue
            for y in scalars:
                sc = f32_bits(y)
                sk, sn, sm = T.FP32.decode(sc)
                x = (-mag if neg else mag) * (-sm if sn else sm)
                exp = brute_round(fmt, x, neg != sn)
                got = T.fp_mul(fmt, c, sk, sn, sm)
                n += 1
                if got != exp:
                    bad.append((hex(c), y, hex(got), hex(exp)))
        check("MULS %s: %d cases (every finite code x 16 scalars) match brute force"
              % (tname, n), n > 0 and not bad, bad[:5])


# ---------------------------------------------------------------------------
# Loads and stores
# ---------------------------------------------------------------------------


def fill_mem(mem, base, n, seed=1):
    data = np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()
    mem.write(base, data)
    return data


def test_load_store():
    # seed 5.5 example 1 with the erratum: [8,16,8] int8, mask 0xCC -> slices 2,3,6,7
    s = new_state("int8", (8, 16, 8))
    mem = T.Memory()
    data = fill_mem(mem, 0x1000, 1024)
    s.csr_write(T.CSR_TMASK_LS, 0xCC)
    s.write_reg(1, np.full(1024, 0xAA, dtype=np.uint8))
    T.tl_load(s, mem, 1, 0x1000, 0, masked=True)
    exp = np.zeros(1024, dtype=np.uint8)
    for i in (2, 3, 6, 7):
        exp[i * 128:(i + 1) * 128] = np.frombuffer(data[i * 128:(i + 1) * 128], dtype=np.uint8)
    check("MLOAD mask 0xCC selects slices 2,3,6,7 (others zero)", (s.regs[1] == exp).all())
    # seed 4.6.3: [4,32,8] mask 0b1010 stores slices 1,3
    s = new_state("int8", (4, 32, 8))
    s.csr_write(T.CSR_TMASK_LS, 0b1010)
    src = rand_reg()
    s.write_reg(3, src)
    mem = T.Memory()
    T.tl_store(s, mem, 3, 0x3000, 0, masked=True)
    got = np.frombuffer(mem.read(0x3000, 1024), dtype=np.uint8)
    exp = np.zeros(1024, dtype=np.uint8)
    exp[256:512] = src[256:512]
    exp[768:1024] = src[768:1024]
    check("MSTORE [4,32,8] mask 0b1010 writes slices 1,3 only", (got == exp).all())
    # plain load: all slices, no mask CSR needed; tail beyond D0*S zero
    s = new_state("int16", (3, 4, 5))  # S = 40 bytes
    mem = T.Memory()
    data = fill_mem(mem, 0x2000, 200)
    s.write_reg(2, np.full(1024, 0x55, dtype=np.uint8))
    T.tl_load(s, mem, 2, 0x2000, 0, masked=False)
    check("LOAD [3,4,5] int16: 120 bytes from memory, bytes 120..1023 zero",
          s.regs[2][:120].tobytes() == data[:120] and not s.regs[2][120:].any())
    # width and stride: W=6, P=-16, imm8=-2  -> addr_i = base - 12 - 16 i
    s = new_state("int8", (4, 2, 5))  # S = 10
    s.csr_write(T.CSR_TMASK_LOAD_WIDTH, 6)
    s.csr_write(T.CSR_TMASK_LOAD_STRIDE, (-16) & 0xFFFFFFFF)
    mem = T.Memory()
    data = fill_mem(mem, 0x4000, 256)
    base = 0x4080
    T.tl_load(s, mem, 4, base, -2, masked=False)
    exp = np.zeros(1024, dtype=np.uint8)
    for i in range(4):
        a = base - 12 - 16 * i - 0x4000
        exp[i * 10:i * 10 + 6] = np.frombuffer(data[a:a + 6], dtype=np.uint8)
    check("LOAD with W=6 < S=10, stride -16, imm -2: addr = rs1 + imm*W + i*P, zero padding",
          (s.regs[4] == exp).all())
    # store with the same plan writes exactly those bytes
    mem2 = T.Memory()
    T.tl_store(s, mem2, 4, base, -2, masked=False)
    ok = True
    for i in range(4):
        a = base - 12 - 16 * i
        ok &= mem2.read(a, 6) == exp[i * 10:i * 10 + 6].tobytes()
        ok &= mem2.read(a + 6, 10) == bytes(10)
    check("STORE with the same W/P/imm writes W bytes per slice to the same addresses", ok)
    # overlapping slices in a store: later slice wins
    s = new_state("int8", (2, 1, 4))
    s.csr_write(T.CSR_TMASK_LOAD_STRIDE, 2)
    set_bytes(s, 1, [1, 2, 3, 4, 5, 6, 7, 8])
    mem = T.Memory()
    T.tl_store(s, mem, 1, 0x100, 0, masked=False)
    check("STORE with overlapping slices (P=2 < W=4): slice 1 overwrites slice 0",
          list(mem.read(0x100, 6)) == [1, 2, 5, 6, 7, 8], list(mem.read(0x100, 6)))
    # checks
    s = new_state("int8", (8, 16, 8))
    mem = T.Memory()
    check_raises("MLOAD with tmask_ls uninitialized is illegal", T.IllegalInstruction,
                 T.tl_load, s, mem, 1, 0x1000, 0, True)
    check_raises("MSTORE with tmask_ls uninitialized is illegal", T.IllegalInstruction,
                 T.tl_store, s, mem, 1, 0x1000, 0, True)
    s2 = new_state("int8")
    check_raises("LOAD with tshape uninitialized is illegal", T.IllegalInstruction,
                 T.tl_load, s2, mem, 1, 0x1000, 0, False)
    s2 = new_state("int8", (33, 1, 8))
    check_raises("LOAD with D0 = 33 > 32 is illegal", T.IllegalInstruction,
                 T.tl_load, s2, mem, 1, 0x1000, 0, False)
    s2 = new_state("int8", (32, 1, 32))
    T.tl_load(s2, mem, 1, 0x1000, 0, False)
    check("LOAD with D0 = 32, S = 32 (1024 bytes) is legal", True)
    s2 = new_state("int8", (5, 16, 16))  # 1280 bytes
    check_raises("LOAD with D0*S = 1280 > 1024 is illegal", T.IllegalInstruction,
                 T.tl_load, s2, mem, 1, 0x1000, 0, False)
    s2 = new_state("int4", (2, 3, 3))  # 9 nibbles per slice
    check_raises("int4 slice of 9 elements (not whole bytes) is illegal", T.IllegalInstruction,
                 T.tl_load, s2, mem, 1, 0x1000, 0, False)
    s2 = new_state("int8", (2, 0, 3))
    check_raises("tshape with D1 = 0 is illegal", T.IllegalInstruction,
                 T.tl_load, s2, mem, 1, 0x1000, 0, False)
    s2 = new_state("int8", (2, 2, 3))
    s2.csr_write(T.CSR_TMASK_LOAD_WIDTH, 0)
    check_raises("W = 0 is illegal", T.IllegalInstruction, T.tl_load, s2, mem, 1, 0, 0, False)
    s2.csr_write(T.CSR_TMASK_LOAD_WIDTH, 7)
    check_raises("W = 7 > S = 6 is illegal", T.IllegalInstruction, T.tl_store, s2, mem, 1, 0, 0,
                 False)
    # faults: all-or-nothing and the reported address
    s = new_state("int8", (4, 1, 16))
    s.csr_write(T.CSR_TMASK_LOAD_STRIDE, (-64) & 0xFFFFFFFF)  # slices go down
    s.write_reg(1, rand_reg())
    mem = T.Memory()
    fill_mem(mem, 0x1000, 0x200)
    base = 0x1100
    # slice 0 at 0x1100..0x110F, slice 1 at 0x10C0.., slice 2 at 0x1080.., slice 3 at 0x1040..
    mem.add_fault(0x1048)          # in slice 3 (lower address, later slice)
    mem.add_fault(0x10C5, 0x10D0)  # in slice 1
    e = check_raises("LOAD faulting in slices 1 and 3 raises MemoryFault", T.MemoryFault,
                     T.tl_load, s, mem, 1, base, 0, False)
    check("fault address is the first faulting byte of the first faulting slice (0x10c5)",
          e is not None and e.address == 0x10C5 and not e.is_store, e and hex(e.address))
    check("faulting LOAD leaves the state unchanged",
          unchanged(s, mem, lambda: T.tl_load(s, mem, 1, base, 0, False)))
    check("faulting STORE leaves memory and state unchanged",
          unchanged(s, mem, lambda: T.tl_store(s, mem, 1, base, 0, False)))
    s.csr_write(T.CSR_TMASK_LS, 0b1101)  # skip slice 1
    e = check_raises("MLOAD skipping slice 1 faults in slice 3", T.MemoryFault,
                     T.tl_load, s, mem, 1, base, 0, True)
    check("... at 0x1048", e is not None and e.address == 0x1048)
    s.csr_write(T.CSR_TMASK_LS, 0b0101)
    T.tl_load(s, mem, 1, base, 0, True)
    check("MLOAD selecting only non-faulting slices succeeds", True)
    mem3 = T.Memory()
    mem3.add_fault(0x1100, 0x1110, on_load=False, on_store=True)
    T.tl_load(s, mem3, 2, base, 0, False)
    e = check_raises("store-only fault: LOAD succeeds, STORE faults", T.MemoryFault,
                     T.tl_store, s, mem3, 2, base, 0, False)
    check("store fault reports is_store and address 0x1100",
          e is not None and e.is_store and e.address == 0x1100)
    s = new_state("int8", (1, 1, 32))
    mem = T.Memory()
    mem.add_fault(0x71A)           # registered first, higher address
    mem.add_fault(0x705, 0x707)
    e = check_raises("LOAD with two faults inside one slice raises MemoryFault", T.MemoryFault,
                     T.tl_load, s, mem, 1, 0x700, 0, False)
    check("... reports the lower address 0x705 whatever the fault list order",
          e is not None and e.address == 0x705, e and hex(e.address))
    # tl0 destination still accesses memory
    s = new_state("int8", (1, 1, 8))
    mem = T.Memory()
    mem.add_fault(0x503)
    e = check_raises("LOAD to tl0 still faults", T.MemoryFault, T.tl_load, s, mem, 0, 0x500, 0,
                     False)
    mem = T.Memory()
    fill_mem(mem, 0x500, 8)
    T.tl_load(s, mem, 0, 0x500, 0, False)
    check("LOAD to tl0 is discarded (tl0 stays zero)", not s.regs[0].any())
    # address wrap
    s = new_state("int8", (2, 1, 16), xlen=32)
    mem = T.Memory()
    mem.write(0xFFFFFFF8, bytes(range(1, 9)))
    mem.write(0, bytes(range(9, 33)))
    T.tl_load(s, mem, 1, 0xFFFFFFF8, 0, False)
    check("RV32 LOAD wraps modulo 2^32 (0xFFFFFFF8 + 32 bytes)",
          list(s.regs[1][:32]) == list(range(1, 33)), list(s.regs[1][:32]))
    mem.add_fault(0x4)
    mem.add_fault(0xFFFFFFFC)
    e = check_raises("RV32 wrapped slice with faults on both sides of the wrap", T.MemoryFault,
                     T.tl_load, s, mem, 1, 0xFFFFFFF8, 0, False)
    check("... reports 0xFFFFFFFC (scan from the slice start, then past the wrap)",
          e is not None and e.address == 0xFFFFFFFC, e and hex(e.address))
    s = new_state("int8", (1, 1, 16), xlen=64)
    mem = T.Memory()
    mem.add_fault(0x2)
    e = check_raises("RV64 slice starting at 2^64-4 wraps to 0 and faults at 0x2", T.MemoryFault,
                     T.tl_load, s, mem, 1, (1 << 64) - 4, 0, False)
    check("... address 0x2", e is not None and e.address == 2)
    s = new_state("int8", (1, 1, 4), xlen=64)
    mem = T.Memory()
    mem.write(0x10, b"\x01\x02\x03\x04")
    T.tl_load(s, mem, 1, 0x10 + 4 * 128, -128, False)
    check("imm8 = -128 with W = 4 moves the base by -512", list(s.regs[1][:4]) == [1, 2, 3, 4])


# ---------------------------------------------------------------------------
# CONCAT / MERGE
# ---------------------------------------------------------------------------


def concat_ref(b1, b2, m1, m2, dim):
    dd = b1.shape[dim]
    s1 = [i for i in range(dd) if (m1 >> i) & 1]
    s2 = [i for i in range(dd) if (m2 >> i) & 1]
    parts = np.concatenate([np.take(b1, s1, axis=dim), np.take(b2, s2, axis=dim)], axis=dim)
    out = np.zeros_like(b1)
    idx = [slice(None)] * 3
    idx[dim] = slice(0, parts.shape[dim])
    out[tuple(idx)] = parts
    return out


def test_concat_merge():
    # seed 4.3.4 / 5.3 ex.1: dim 2, [8,8,4], rs1 [a,b,c,d] mask 0x0C, rs2 [e,f,g,h] mask 0x03
    s = new_state("int8", (8, 8, 4))
    r1, r2 = rand_reg(), rand_reg()
    s.write_reg(11, r1)
    s.write_reg(12, r2)
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0x0C)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0x03)
    T.tl_concat(s, 10, 11, 12, 2)
    b1, b2 = r1[:256].reshape(8, 8, 4), r2[:256].reshape(8, 8, 4)
    out = s.regs[10][:256].reshape(8, 8, 4)
    ok = all(list(out[i, j]) == [b1[i, j, 2], b1[i, j, 3], b2[i, j, 0], b2[i, j, 1]]
             for i in range(8) for j in range(8))
    check("CONCAT.2 [a,b,c,d] mask1 0x0C + [e,f,g,h] mask2 0x03 -> [c,d,e,f] in every row", ok)
    check("CONCAT: bytes past the block are zero", not s.regs[10][256:].any())
    # seed 5.3 ex.2: dim 0 [16,8,8] mask1 0xAAAA mask2 0x5555
    s = new_state("int8", (16, 8, 8))
    s.write_reg(14, r1)
    s.write_reg(15, r2)
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0xAAAA)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0x5555)
    T.tl_concat(s, 13, 14, 15, 0)
    b1, b2 = r1.reshape(16, 8, 8), r2.reshape(16, 8, 8)
    exp = np.concatenate([b1[1::2], b2[0::2]], axis=0)
    check("CONCAT.0 [16,8,8] odd slices of rs1 then even slices of rs2",
          (s.regs[13].reshape(16, 8, 8) == exp).all())
    # seed 5.3 ex.3: dim 1 [8,16,4] mask1 0x000F, mask2 0xF000
    s = new_state("int8", (8, 16, 4))
    s.write_reg(17, r1)
    s.write_reg(18, r2)
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0x000F)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0xF000)
    T.tl_concat(s, 16, 17, 18, 1)
    b1, b2 = r1[:512].reshape(8, 16, 4), r2[:512].reshape(8, 16, 4)
    out = s.regs[16][:512].reshape(8, 16, 4)
    check("CONCAT.1 [8,16,4] rs1 rows 0-3 then rs2 rows 12-15, rows 8-15 zero",
          (out[:, :4] == b1[:, :4]).all() and (out[:, 4:8] == b2[:, 12:16]).all()
          and not out[:, 8:].any() and not s.regs[16][512:].any())
    # random cross-check against an independent numpy formulation, several types
    bad = 0
    for trial in range(60):
        tname = PRNG.choice(["int4", "int8", "int16", "int32", "binary16", "E2M1"])
        et = T.elem_type(T.ttype_for(tname))
        while True:
            d = [PRNG.randint(1, 12), PRNG.randint(1, 12), PRNG.randint(1, 12)]
            if (d[1] * d[2] * et.esz) % 8 == 0 and d[0] * d[1] * d[2] * et.esz <= 8192:
                break
        dim = PRNG.randint(0, 2)
        dd = d[dim]
        m1 = PRNG.getrandbits(32)
        sel1 = bin(m1 & ((1 << dd) - 1)).count("1")
        keep = [i for i in range(dd)]
        PRNG.shuffle(keep)
        m2 = sum(1 << i for i in keep[:PRNG.randint(0, dd - sel1)]) | (PRNG.getrandbits(8) << dd)
        s = new_state(tname, d)
        s.write_reg(1, rand_reg())
        s.write_reg(2, rand_reg())
        s.csr_write(T.CSR_TMASK_CONCAT_1, m1)
        s.csr_write(T.CSR_TMASK_CONCAT_2, m2)
        e1 = T.unpack_elems(s.regs[1], et.esz)[:np.prod(d)].reshape(d)
        e2 = T.unpack_elems(s.regs[2], et.esz)[:np.prod(d)].reshape(d)
        T.tl_concat(s, 3, 1, 2, dim)
        got = T.unpack_elems(s.regs[3], et.esz)
        exp = concat_ref(e1, e2, m1, m2, dim)
        if not ((got[:exp.size].reshape(d) == exp).all() and not got[exp.size:].any()):
            bad += 1
    check("CONCAT: 60 random shapes/types/dims/masks match a numpy formulation", bad == 0, bad)
    # aliasing: tlrd == tlrs1
    s = new_state("int8", (4, 1, 4))
    set_bytes(s, 1, list(range(1, 17)))
    set_bytes(s, 2, list(range(101, 117)))
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0b1010)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0b0001)
    T.tl_concat(s, 1, 1, 2, 0)
    check("CONCAT with tlrd == tlrs1 reads sources first",
          list(s.regs[1][:16]) == [5, 6, 7, 8, 13, 14, 15, 16, 101, 102, 103, 104, 0, 0, 0, 0],
          list(s.regs[1][:16]))
    # errors
    s = new_state("int8", (4, 1, 4))
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0b0111)
    check_raises("CONCAT with tmask_concat_2 uninitialized is illegal", T.IllegalInstruction,
                 T.tl_concat, s, 3, 1, 2, 0)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0b0011)
    check("CONCAT with n = 5 > D0 = 4 is illegal and changes nothing",
          unchanged(s, None, lambda: T.tl_concat(s, 3, 1, 2, 0)))
    check_raises("CONCAT n = 5 > Dd = 4 raises illegal", T.IllegalInstruction,
                 T.tl_concat, s, 3, 1, 2, 0)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0xFFFFFFF1)
    T.tl_concat(s, 3, 1, 2, 0)
    check("CONCAT ignores mask bits >= Dd (mask2 0xFFFFFFF1 counts 1 slice)", True)
    s = new_state("int8", (1, 1, 33))
    s.csr_write(T.CSR_TMASK_CONCAT_1, 1)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 1)
    check_raises("CONCAT.2 with D2 = 33 > 32 is illegal", T.IllegalInstruction,
                 T.tl_concat, s, 3, 1, 2, 2)
    s.csr_write(T.CSR_TMASK_CONCAT_2, 0)
    T.tl_concat(s, 3, 1, 2, 0)
    check("CONCAT.0 of the same shape (D0 = 1) is legal", True)
    # MERGE polarity: bit 1 = from tlrs1
    s = new_state("int8", (4, 1, 2))
    set_bytes(s, 1, [1, 1, 2, 2, 3, 3, 4, 4])
    set_bytes(s, 2, [10, 10, 20, 20, 30, 30, 40, 40])
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0b0101)
    T.tl_merge(s, 3, 1, 2, 0)
    check("MERGE.0 mask1 0b0101: slices 0,2 from tlrs1, 1,3 from tlrs2 (bit 1 = tlrs1)",
          list(s.regs[3][:8]) == [1, 1, 20, 20, 3, 3, 40, 40], list(s.regs[3][:8]))
    s = new_state("int4", (1, 2, 4))
    set_bytes(s, 1, [0x21, 0x43, 0x65, 0x87])   # elements 1..8
    set_bytes(s, 2, [0xBA, 0xDC, 0xFE, 0x09])   # elements 10..15, 0, 9 ... (nibbles)
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0b1001)
    T.tl_merge(s, 3, 1, 2, 2)
    check("MERGE.2 on int4 nibbles, mask 0b1001 (k=0,3 from tlrs1)",
          list(s.regs[3][:4]) == [0xB1, 0x4C, 0xF5, 0x89], [hex(x) for x in s.regs[3][:4]])
    s = new_state("int8", (2, 2, 2))
    check_raises("MERGE with tmask_concat_1 uninitialized is illegal", T.IllegalInstruction,
                 T.tl_merge, s, 3, 1, 2, 1)
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0b10)
    set_bytes(s, 1, [1] * 8 + [77])
    set_bytes(s, 2, [2] * 8 + [88])
    T.tl_merge(s, 1, 1, 2, 1)
    check("MERGE.1 in place (tlrd == tlrs1), bytes past the block zero",
          list(s.regs[1][:9]) == [2, 2, 1, 1, 2, 2, 1, 1, 0], list(s.regs[1][:9]))
    s = new_state("int8", (1, 1, 40))
    s.csr_write(T.CSR_TMASK_CONCAT_1, 0xFFFFFFFF)
    set_bytes(s, 1, [1] * 40)
    set_bytes(s, 2, [2] * 40)
    before = s.snapshot()
    check_raises("MERGE.2 with D2 = 40 > 32 is illegal like concat (docs/isa.md A13)",
                 T.IllegalInstruction, T.tl_merge, s, 3, 1, 2, 2)
    check("... and changes nothing", s.snapshot() == before)


# ---------------------------------------------------------------------------
# XPOSE
# ---------------------------------------------------------------------------


def xpose_setup(tname, data2048):
    s = new_state(tname)
    s.write_reg(1, np.frombuffer(data2048[:1024], dtype=np.uint8))
    s.write_reg(2, np.frombuffer(data2048[1024:], dtype=np.uint8))
    return s


def test_xpose():
    data = RNG.integers(0, 256, 2048, dtype=np.uint8).tobytes()
    # seed 3.5 / 5.1 ex.1: [8,16,8,2] swap 0,1 -> [16,8,8,2]
    s = xpose_setup("int8", data)
    T.tl_xpose(s, 1, 2, 0x02081008, 0, 1)
    t = np.frombuffer(data, dtype=np.uint8).reshape(8, 16, 8, 2)
    out = np.concatenate([s.regs[1], s.regs[2]]).reshape(16, 8, 8, 2)
    ok = all(out[j, i, k, l] == t[i, j, k, l]
             for i in range(8) for j in range(16) for k in range(8) for l in range(2))
    check("XPOSE.01 [8,16,8,2] -> [16,8,8,2]: out[j,i,k,l] == in[i,j,k,l] for all 2048", ok)
    check("XPOSE.01 [8,16,8,2] equals numpy.transpose(axes 1,0,2,3)",
          (out == np.transpose(t, (1, 0, 2, 3))).all())
    # seed 5.1 ex.2: [16,8,8,2] swap 2,3 (x11 = 0x02080810)
    s = xpose_setup("int8", data)
    T.execute(s, T.Memory(), T.encode_xpose_ab("23", 1, 2, 11), {11: 0x02080810})
    t = np.frombuffer(data, dtype=np.uint8).reshape(16, 8, 8, 2)
    out = np.concatenate([s.regs[1], s.regs[2]])
    check("XPOSE.23 [16,8,8,2] -> [16,8,2,8] (encoded funct5 0x0B) equals numpy.transpose",
          (out == np.transpose(t, (0, 1, 3, 2)).reshape(-1)).all())
    # seed 5.2 matrix transpose [32,64,1,1]
    s = xpose_setup("int8", data)
    T.tl_xpose(s, 1, 2, 0x01014020, 0, 1)
    t = np.frombuffer(data, dtype=np.uint8).reshape(32, 64)
    out = np.concatenate([s.regs[1], s.regs[2]]).reshape(64, 32)
    check("XPOSE.01 matrix transpose [32,64,1,1] -> [64,32,1,1]", (out == t.T).all())
    # erratum: [4,8,8,4] has 1024 elements
    s = xpose_setup("int8", data)
    check_raises("XPOSE [4,8,8,4] (1024 bytes, seed erratum) is illegal", T.IllegalInstruction,
                 T.tl_xpose, s, 1, 2, 0x04080804, 2, 3)
    check("... and changes nothing", unchanged(s, None, lambda: T.tl_xpose(s, 1, 2, 0x04080804, 2, 3)))
    # int16 and int4 and fp32 element sizes
    s = xpose_setup("binary16", data)
    T.tl_xpose(s, 1, 2, T.xpose_dims_value(8, 4, 32, 1), 1, 2)
    t = np.frombuffer(data, dtype="<u2").reshape(8, 4, 32, 1)
    out = np.concatenate([s.regs[1], s.regs[2]]).view("<u2")
    check("XPOSE.12 binary16 [8,4,32,1] moves 2-byte elements",
          (out == np.swapaxes(t, 1, 2).reshape(-1)).all())
    s = xpose_setup("int32", data)
    T.tl_xpose(s, 1, 2, T.xpose_dims_value(2, 4, 8, 8), 3, 0)
    t = np.frombuffer(data, dtype="<u4").reshape(2, 4, 8, 8)
    out = np.concatenate([s.regs[1], s.regs[2]]).view("<u4")
    check("XPOSE dim0=3, dim1=0 int32 [2,4,8,8] (swap is symmetric)",
          (out == np.swapaxes(t, 0, 3).reshape(-1)).all())
    s = xpose_setup("int4", data)
    T.tl_xpose(s, 1, 2, T.xpose_dims_value(16, 16, 4, 4), 0, 2)
    raw = np.frombuffer(data, dtype=np.uint8)
    nib = np.stack([raw & 15, raw >> 4], axis=1).reshape(-1)  # element 2n = low nibble
    r = np.swapaxes(nib.reshape(16, 16, 4, 4), 0, 2).reshape(-1)
    exp = (r[0::2] | (r[1::2] << 4)).astype(np.uint8)
    out = np.concatenate([s.regs[1], s.regs[2]])
    check("XPOSE.02 int4 [16,16,4,4] moves nibbles", (out == exp).all())
    s = xpose_setup("int8", data)
    T.tl_xpose(s, 1, 2, 0x02081008, 2, 2)
    check("XPOSE dim0 == dim1 is a legal no-op",
          np.concatenate([s.regs[1], s.regs[2]]).tobytes() == data)
    check_raises("XPOSE tlrs1 == tlrs2 is illegal", T.IllegalInstruction,
                 T.tl_xpose, s, 3, 3, 0x02081008, 0, 1)
    check_raises("XPOSE with odd D0 ([1,32,32,2]) is illegal", T.IllegalInstruction,
                 T.tl_xpose, s, 1, 2, T.xpose_dims_value(1, 32, 32, 2), 0, 1)
    check_raises("XPOSE with a zero dimension is illegal", T.IllegalInstruction,
                 T.tl_xpose, s, 1, 2, 0x00081008, 0, 1)
    s = xpose_setup("int8", data)
    T.tl_xpose(s, 1, 2, (0xFFFFFFFF << 32) | 0x02081008, 0, 1)
    t = np.frombuffer(data, dtype=np.uint8).reshape(8, 16, 8, 2)
    check("XPOSE ignores x[rs] bits 63:32",
          (np.concatenate([s.regs[1], s.regs[2]]) ==
           np.transpose(t, (1, 0, 2, 3)).reshape(-1)).all())
    s = new_state("int8")
    s.write_reg(5, np.frombuffer(data[:1024], dtype=np.uint8))
    T.tl_xpose(s, 0, 5, T.xpose_dims_value(2, 4, 16, 16), 0, 3)
    t = np.concatenate([np.zeros(1024, np.uint8), np.frombuffer(data[:1024], np.uint8)])
    exp = np.swapaxes(t.reshape(2, 4, 16, 16), 0, 3).reshape(-1)
    check("XPOSE with tlrs1 = tl0: reads zeros, tl5 gets the second half, tl0 stays zero",
          (s.regs[5] == exp[1024:]).all() and not s.regs[0].any())


# ---------------------------------------------------------------------------
# FILLPAD
# ---------------------------------------------------------------------------


def test_fillpad():
    s = new_state("int8", (2, 3, 4))
    src = rand_reg()
    s.write_reg(1, src)
    s.csr_write(T.CSR_TVALID, T.tvalid_value(1, 2, 3))
    T.tl_fillpad(s, 2, 1, 2)
    b = src[:24].reshape(2, 3, 4)
    exp = np.full((2, 3, 4), 255, dtype=np.uint8)
    exp[:1, :2, :3] = b[:1, :2, :3]
    check("FILLPAD.max int8 [2,3,4] valid [1,2,3]: copy + 255 pad, zeros after block",
          (s.regs[2][:24].reshape(2, 3, 4) == exp).all() and not s.regs[2][24:].any())
    T.tl_fillpad(s, 2, 1, 0)
    exp[exp == 255] = 0
    exp[:1, :2, :3] = b[:1, :2, :3]
    check("FILLPAD.zero", (s.regs[2][:24].reshape(2, 3, 4) == exp).all())
    s = new_state("binary16", (1, 2, 2))
    set_bytes(s, 1, np.array([0x3C00, 0x4000, 0x4200, 0x4400], dtype="<u2").view(np.uint8))
    s.csr_write(T.CSR_TVALID, T.tvalid_value(1, 1, 1))
    T.tl_fillpad(s, 1, 1, 1)
    check("FILLPAD.min binary16 in place: pad -inf (0xFC00)",
          list(s.regs[1][:8].view("<u2")) == [0x3C00, 0xFC00, 0xFC00, 0xFC00])
    s = new_state("E4M3FN", (1, 1, 4))
    set_bytes(s, 1, [0x38, 0x38, 0x38, 0x38])
    s.csr_write(T.CSR_TVALID, T.tvalid_value(1, 1, 2))
    T.tl_fillpad(s, 2, 1, 2)
    check("FILLPAD.max E4M3FN pads with 448 (0x7E)", list(s.regs[2][:4]) == [0x38, 0x38, 0x7E, 0x7E])
    s = new_state("E2M1", (1, 1, 4))
    set_bytes(s, 1, [0x22, 0x22])
    s.csr_write(T.CSR_TVALID, T.tvalid_value(1, 1, 1))
    T.tl_fillpad(s, 2, 1, 1)
    check("FILLPAD.min E2M1 pads with -6 (0xF) nibbles", list(s.regs[2][:2]) == [0xF2, 0xFF])
    s.csr_write(T.CSR_TVALID, T.tvalid_value(0, 1, 1))
    T.tl_fillpad(s, 2, 1, 2)
    check("FILLPAD with V0 = 0 pads everything", list(s.regs[2][:2]) == [0x77, 0x77])
    s = new_state("int8", (2, 2, 2))
    check_raises("FILLPAD with tvalid uninitialized is illegal", T.IllegalInstruction,
                 T.tl_fillpad, s, 2, 1, 0)
    s.csr_write(T.CSR_TVALID, T.tvalid_value(2, 3, 2))
    check_raises("FILLPAD with V1 = 3 > D1 = 2 is illegal", T.IllegalInstruction,
                 T.tl_fillpad, s, 2, 1, 0)


# ---------------------------------------------------------------------------
# Instruction words
# ---------------------------------------------------------------------------


def test_encoding():
    d = T.decode(T.encode_load(5, -3, 10))
    check("encode/decode tl.load tl5, -3(x10)",
          (d.name, d.tlrd, d.imm, d.rs1, d.engine) == ("tl.load", 5, -3, 10, 0))
    d = T.decode(T.encode_mstore(31, 127, 1))
    check("encode/decode tl.mstore tl31, 127(x1) (engine 10)",
          (d.name, d.tlrs, d.imm, d.rs1, d.engine) == ("tl.mstore", 31, 127, 1, 2))
    w = T.encode_mload(1, 0, 2)
    check("tl.mload: bit 29 st = 0, bit 28 tm = 1, funct3 000, opcode 1011011",
          (w >> 29) & 1 == 0 and (w >> 28) & 1 == 1 and (w >> 12) & 7 == 0 and w & 0x7F == 0x5B)
    w = T.encode_load(0, -1, 0)
    check("imm8 lives in bits [27:20]", (w >> 20) & 0xFF == 0xFF and (w >> 28) & 3 == 0)
    d = T.decode(T.encode_concat(2, 10, 11, 12))
    check("encode/decode tl.concat.2 tl10, tl11, tl12 (funct5 00010)",
          (d.name, d.dim, d.tlrd, d.tlrs1, d.tlrs2) == ("tl.concat", 2, 10, 11, 12)
          and (T.encode_concat(2, 10, 11, 12) >> 25) & 0x1F == 0b00010)
    d = T.decode(T.encode_merge(1, 3, 4, 5))
    check("encode/decode tl.merge.1 (funct5 00101)",
          (d.name, d.dim) == ("tl.merge", 1) and (T.encode_merge(1, 3, 4, 5) >> 25) & 0x1F == 0b00101)
    d = T.decode(T.encode_addi(1, 2, -128))
    check("encode/decode tl.addi tl1, tl2, -128", (d.name, d.tlrd, d.tlrs, d.imm) == ("tl.addi", 1, 2, -128))
    want = {"01": (1, 0), "02": (2, 0), "03": (3, 0), "12": (1, 2), "13": (1, 3), "23": (3, 2)}
    ok = all((T.decode(T.encode_xpose_ab(ab, 1, 2, 3)).dim0,
              T.decode(T.encode_xpose_ab(ab, 1, 2, 3)).dim1) == v for ab, v in want.items())
    check("tl.xpose.AB funct5 table 0x01/0x02/0x03/0x09/0x0D/0x0B decodes to {A,B}", ok)
    d = T.decode(T.encode_xpose(7, 8, 9, 2, 2))
    check("xpose funct5 0x0A is dim0 = dim1 = 2 (not 'swap 1,3')", (d.dim0, d.dim1) == (2, 2))
    d = T.decode(T.encode_muls(4, 5, 6))
    check("encode/decode tl.muls tl4, tl5, x6", (d.name, d.tlrd, d.tlrs, d.rs2) == ("tl.muls", 4, 5, 6))
    d = T.decode(T.encode_fillpad("max", 4, 5))
    check("encode/decode tl.fillpad.max tl4, tl5", (d.name, d.pad, d.tlrd, d.tlrs) == ("tl.fillpad", 2, 4, 5))
    base = T.encode_addi(1, 2, 3)
    d = T.decode(base | (3 << 30))
    check("EngineID is decoded but does not change the instruction",
          d.name == "tl.addi" and d.engine == 3 and (d.tlrd, d.tlrs, d.imm) == (1, 2, 3))
    # reserved patterns
    illegal = [
        ((6 << 12) | 0x5B, 1, "funct3 110"),
        ((7 << 12) | 0x5B, 2, "funct3 111"),
        (T.encode_concat(0, 1, 2, 3) | (0b01000 << 25), 3, "data-move funct5[4:2] = 010"),
        (T.encode_concat(0, 1, 2, 3) | (0b10000 << 25), 3, "data-move funct5[4:2] = 100"),
        (T.encode_concat(0, 1, 2, 3) | (0b10011 << 25), 3, "data-move funct5[4:2] = 100, DD = 11"),
        (T.encode_concat(0, 1, 2, 3) | (0b00011 << 25), 4, "concat DD = 11"),
        (T.encode_merge(0, 1, 2, 3) | (0b00011 << 25), 4, "merge DD = 11"),
        (T.encode_addi(1, 2, 0) | (1 << 28), 5, "addi funct2 = 01"),
        (T.encode_addi(1, 2, 0) | (2 << 28), 5, "addi funct2 = 10"),
        (T.encode_addi(1, 2, -1, funct2=3), 5, "addi funct2 = 11 (encode_addi funct2=3)"),
        (T.encode_xpose(1, 2, 3, 0, 1) | (1 << 29), 6, "xpose funct5[4] = 1"),
        (T.encode_muls(1, 2, 3) | (1 << 25), 7, "muls funct5 = 00001"),
        (T.encode_muls(1, 2, 3) | (0x10 << 25), 7, "muls funct5 = 10000"),
        (T.encode_fillpad(0, 1, 2) | (3 << 25), 9, "fillpad PP = 11"),
        (T.encode_fillpad(0, 1, 2) | (4 << 25), 8, "fillpad funct5[4:2] = 001"),
        (T.encode_fillpad(0, 1, 2) | (7 << 25), 8, "fillpad funct5[4:2] = 001, PP = 11"),
        (T.encode_fillpad(0, 1, 2) | (1 << 20), 10, "fillpad [24:20] != 0"),
        (T.encode_fillpad(0, 1, 2) | (3 << 25) | (1 << 20), 9, "fillpad PP = 11, [24:20] != 0"),
    ]
    for w, rule, why in illegal:
        d = T.decode(w)
        check("decode: %s is illegal, rule R%d" % (why, rule),
              d is not None and d.name == "illegal" and d.rule == rule, d)
    # encode_fields: the common layout of docs/isa.md 4.1, worked examples of 4.7
    examples = [
        (T.encode_fields(T.FUNCT3_MEM, 0b01000, 0, 1, 10), 0x1000855B, "tl.mload tl1, 0(a0)"),
        (T.encode_fields(T.FUNCT3_XPOSE, 0x01, 2, 1, 10, engine=3), 0xC220B55B,
         "tl.xpose.01 tl1, tl2, a0"),
        (T.encode_fields(T.FUNCT3_MOVE, 0b00010, 2, 1, 3, engine=3), 0xC42091DB,
         "tl.concat.2 tl3, tl1, tl2"),
        (T.encode_fields(T.FUNCT3_ADDI, 0x07, 0x1B, 2, 1, engine=1), 0x4FB120DB,
         "tl.addi tl1, tl2, -5"),
        (T.encode_fields(T.FUNCT3_MULS, 0, 11, 2, 1, engine=1), 0x40B140DB, "tl.muls tl1, tl2, a1"),
        (T.encode_fields(T.FUNCT3_FILLPAD, 0b00010, 0, 2, 1, engine=3), 0xC40150DB,
         "tl.fillpad.max tl1, tl2"),
        (T.encode_fields(0b110), 0x0000605B, "funct3 110 (R1)"),
    ]
    for w, want, what in examples:
        check("encode_fields: %s is 0x%08X" % (what, want), w == want, hex(w))
    check("decode: non-CUSTOM-2 opcode returns None", T.decode(0x00000013) is None)
    # random words: every legal decode re-encodes to the same word
    encs = {
        "tl.load": lambda d: T.encode_load(d.tlrd, d.imm, d.rs1, d.engine),
        "tl.mload": lambda d: T.encode_mload(d.tlrd, d.imm, d.rs1, d.engine),
        "tl.store": lambda d: T.encode_store(d.tlrs, d.imm, d.rs1, d.engine),
        "tl.mstore": lambda d: T.encode_mstore(d.tlrs, d.imm, d.rs1, d.engine),
        "tl.concat": lambda d: T.encode_concat(d.dim, d.tlrd, d.tlrs1, d.tlrs2, d.engine),
        "tl.merge": lambda d: T.encode_merge(d.dim, d.tlrd, d.tlrs1, d.tlrs2, d.engine),
        "tl.addi": lambda d: T.encode_addi(d.tlrd, d.tlrs, d.imm, d.engine),
        "tl.xpose": lambda d: T.encode_xpose(d.tlrs1, d.tlrs2, d.rs, d.dim0, d.dim1, d.engine),
        "tl.muls": lambda d: T.encode_muls(d.tlrd, d.tlrs, d.rs2, d.engine),
        "tl.fillpad": lambda d: T.encode_fillpad(d.pad, d.tlrd, d.tlrs, d.engine),
    }
    bad = []
    counts = {}
    for _ in range(20000):
        w = (PRNG.getrandbits(25) << 7) | 0x5B
        d = T.decode(w)
        counts[d.name] = counts.get(d.name, 0) + 1
        if d.name != "illegal" and encs[d.name](d) != w:
            bad.append(hex(w))
        T.disasm(w)
    check("20000 random CUSTOM-2 words: legal decodes re-encode exactly, disasm never fails",
          not bad, bad[:5])
    # expected fraction of legal words: funct3 000 all, 001 6/32, 010 1/4, 011 1/2,
    # 100 1/32, 101 3/32*1/32; 110/111 none.
    frac = 1 - counts.get("illegal", 0) / 20000.0
    expect = (1 + 6 / 32 + 1 / 4 + 1 / 2 + 1 / 32 + 3 / 32 / 32) / 8
    check("fraction of legal random words %.3f ~ %.3f" % (frac, expect), abs(frac - expect) < 0.02)
    # execute through words
    s = new_state("int8", (2, 1, 4))
    mem = T.Memory()
    mem.write(0x8000, bytes([10, 20, 30, 40, 50, 60, 70, 80]))
    gpr = {5: 0x8000, 6: 0x9000}
    T.execute(s, mem, T.encode_load(1, 0, 5), gpr)
    T.execute(s, mem, T.encode_addi(2, 1, 100), gpr)
    T.execute(s, mem, T.encode_store(2, 0, 6), gpr)
    check("execute: load / addi / store program",
          list(mem.read(0x9000, 8)) == [110, 120, 130, 140, 150, 160, 170, 180])
    e = check_raises("execute: illegal word raises IllegalInstruction", T.IllegalInstruction,
                     T.execute, s, mem, (6 << 12) | 0x5B, gpr)
    check("IllegalInstruction carries a reason", e is not None and "funct3" in e.reason)
    gpr0 = {0: 0x8000}
    s2 = new_state("int8", (1, 1, 8))
    mem2 = T.Memory()
    mem2.add_fault(0x8000)
    T.execute(s2, mem2, T.encode_load(1, 0, 0), gpr0)
    check("execute: x0 reads as 0 even if the GPR array says otherwise", True)
    check("disasm of tl.mload", T.disasm(T.encode_mload(3, -4, 10)) == "tl.mload tl3, -4(x10)",
          T.disasm(T.encode_mload(3, -4, 10)))


def test_unchanged_on_illegal():
    """Every illegal path leaves the state as it was."""
    s = new_state("int8", (4, 4, 4))
    for r in range(1, 32):
        s.write_reg(r, rand_reg())
    mem = T.Memory()
    words = [
        T.encode_mload(1, 0, 1),                     # tmask_ls uninitialized
        T.encode_concat(0, 1, 2, 3),                 # masks uninitialized
        T.encode_merge(0, 1, 2, 3),
        T.encode_fillpad(0, 1, 2),                   # tvalid uninitialized
        T.encode_xpose(1, 1, 1, 0, 1),               # tlrs1 == tlrs2
        (7 << 12) | 0x5B,
    ]
    ok = all(unchanged(s, mem, lambda w=w: T.execute(s, mem, w, {1: 0x1000})) for w in words)
    check("illegal loads/concat/merge/fillpad/xpose/reserved words leave state unchanged", ok)
    s.csr_write(T.CSR_TTYPE, 0x003)
    ok = all(unchanged(s, mem, lambda w=w: T.execute(s, mem, w, {1: 0x1000}))
             for w in (T.encode_addi(1, 2, 3), T.encode_muls(1, 2, 3), T.encode_load(1, 0, 1)))
    check("invalid ttype makes addi/muls/load illegal without changing state", ok)


def main():
    np.seterr(over="ignore")
    for fn in (test_state_csr, test_tinit, test_elem_types, test_addi_int, test_muls_int, test_float_hand,
               test_float_random_numpy, test_float_bruteforce_small, test_load_store,
               test_concat_merge, test_xpose, test_fillpad, test_encoding,
               test_unchanged_on_illegal):
        run_section(fn)
    print("%d passed, %d failed" % (PASSED, FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
