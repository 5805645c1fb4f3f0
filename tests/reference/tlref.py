"""Independent reference model (test oracle) of the TensorLoad (xtl) RISC-V extension.

Written from the normative ruling (shared/spec/TL-ISA-decisions.md) and the seed
documents only; it deliberately shares no code with the C++ implementation.
The aim is "obviously correct" rather than fast: every instruction is written as
the rule text reads, with numpy used only to move bytes/elements around, and all
floating-point arithmetic done exactly with fractions.Fraction and rounded once.

Run with Debian's /usr/bin/python3 (needs numpy).

Layers
------
* TLState           architectural state: 32 TLRegs of 1024 bytes, 8 CSRs with an
                    "initialized" bit each.
* Memory            sparse byte memory plus faulting address ranges.
* ElemType / FloatFormat   element types selected by ttype, exact float codecs.
* tl_load ... tl_fillpad   one function per instruction (semantic layer; they take
                    already-decoded operand values).
* decode / encode_* / disasm / execute / execute_csr   instruction-word layer.

Every instruction either returns normally or raises IllegalInstruction(reason) or
MemoryFault(address); on an exception neither the TLState nor the Memory changes.
"""

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

# ---------------------------------------------------------------------------
# Exceptions
# ---------------------------------------------------------------------------


class TLException(Exception):
    """Base class of the architectural exceptions the model can raise."""


class IllegalInstruction(TLException):
    """Illegal-instruction exception; .reason says why (free text)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class MemoryFault(TLException):
    """Load or store access/page fault; .address is xtval (first faulting byte)."""

    def __init__(self, address, is_store):
        super().__init__("%s fault at 0x%x" % ("store" if is_store else "load", address))
        self.address = address
        self.is_store = is_store


# ---------------------------------------------------------------------------
# CSRs
# ---------------------------------------------------------------------------

CSR_TTYPE = 0x800
CSR_TSHAPE = 0x801
CSR_TMASK_LS = 0x802
CSR_TMASK_CONCAT_1 = 0x803
CSR_TMASK_CONCAT_2 = 0x804
CSR_TMASK_LOAD_STRIDE = 0x805
CSR_TMASK_LOAD_WIDTH = 0x806
CSR_TVALID = 0x807
CSR_TINIT = 0x808  # the initialized flags of 0x800..0x807 (decisions 2.1)

# CSRs with a value and an initialized flag (tinit has neither).
CSR_NAMES = {
    CSR_TTYPE: "ttype",
    CSR_TSHAPE: "tshape",
    CSR_TMASK_LS: "tmask_ls",
    CSR_TMASK_CONCAT_1: "tmask_concat_1",
    CSR_TMASK_CONCAT_2: "tmask_concat_2",
    CSR_TMASK_LOAD_STRIDE: "tmask_load_stride",
    CSR_TMASK_LOAD_WIDTH: "tmask_load_width",
    CSR_TVALID: "tvalid",
}

# WARL: bits outside these masks are dropped on write and read as zero.
CSR_WRITE_MASK = {
    CSR_TTYPE: 0x00000FFF,
    CSR_TSHAPE: 0x00FFFFFF,
    CSR_TMASK_LS: 0xFFFFFFFF,
    CSR_TMASK_CONCAT_1: 0xFFFFFFFF,
    CSR_TMASK_CONCAT_2: 0xFFFFFFFF,
    CSR_TMASK_LOAD_STRIDE: 0xFFFFFFFF,
    CSR_TMASK_LOAD_WIDTH: 0xFFFFFFFF,
    CSR_TVALID: 0x00FFFFFF,
}

TTYPE_RESET = 0x002  # int8, and the only CSR that is initialized at reset
TINIT_WRITE_MASK = 0xFE  # bit 0 (ttype) reads 1 always; bits 31:8 read 0

ALL_CSR_NAMES = dict(CSR_NAMES)
ALL_CSR_NAMES[CSR_TINIT] = "tinit"

REG_BYTES = 1024
NUM_REGS = 32


def _csr_index(addr):
    if addr not in CSR_NAMES:
        raise KeyError("not a TL CSR: 0x%x" % addr)
    return addr - CSR_TTYPE


def sext(value, bits):
    """Sign-extend the low `bits` bits of value."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


class TLState:
    """Per-hart TL state.

    regs   numpy uint8 array (32, 1024); row 0 is always zero.
    csr    list of 8 ints (CSR 0x800 + n), uninitialized ones hold 0.
    init   list of 8 bools: written since reset.
    xlen   64 or 32 (address wrap, GPR width).
    """

    def __init__(self, xlen=64):
        assert xlen in (32, 64)
        self.xlen = xlen
        self.reset()

    def reset(self):
        self.regs = np.zeros((NUM_REGS, REG_BYTES), dtype=np.uint8)
        self.csr = [0] * 8
        self.init = [False] * 8
        self.csr[0] = TTYPE_RESET
        self.init[0] = True

    # -- CSR access -------------------------------------------------------
    def csr_read(self, addr):
        """Value a csrr returns (0 when uninitialized; 32-bit zero-extended)."""
        if addr == CSR_TINIT:
            return sum(1 << i for i in range(8) if self.init[i]) | 1
        return self.csr[_csr_index(addr)]

    def csr_initialized(self, addr):
        return self.init[_csr_index(addr)]

    def csr_write(self, addr, value):
        """Any write (csrw/csrs/csrc that writes) sets the CSR and initializes it.

        tinit: bits 7:1 become the flags of 0x801..0x807; a flag going from 1
        to 0 also sets that CSR to 0; one going from 0 to 1 keeps the value."""
        if addr == CSR_TINIT:
            flags = (value & TINIT_WRITE_MASK) | 1
            for i in range(1, 8):
                now = bool(flags >> i & 1)
                if self.init[i] and not now:
                    self.csr[i] = 0
                self.init[i] = now
            return
        i = _csr_index(addr)
        self.csr[i] = value & CSR_WRITE_MASK[addr]
        self.init[i] = True

    def csr_set(self, addr, bits):
        self.csr_write(addr, self.csr_read(addr) | bits)

    def csr_clear(self, addr, bits):
        self.csr_write(addr, self.csr_read(addr) & ~bits)

    # -- register access --------------------------------------------------
    def read_reg(self, n):
        """The 1024 bytes of tl<n> as a (copied) numpy uint8 array."""
        return self.regs[n].copy()

    def write_reg(self, n, data):
        """Write 1024 bytes to tl<n>; writes to tl0 are discarded."""
        data = np.asarray(data, dtype=np.uint8).reshape(REG_BYTES)
        if n != 0:
            self.regs[n] = data

    # -- helpers for tests / differential runs ------------------------------
    def copy(self):
        other = TLState.__new__(TLState)
        other.xlen = self.xlen
        other.regs = self.regs.copy()
        other.csr = list(self.csr)
        other.init = list(self.init)
        return other

    def snapshot(self):
        """Hashable, comparable image of the whole state."""
        return (self.regs.tobytes(), tuple(self.csr), tuple(self.init))

    def __eq__(self, other):
        return isinstance(other, TLState) and self.snapshot() == other.snapshot()

    # -- decoded CSR fields -------------------------------------------------
    def shape(self):
        """(D0, D1, D2) from tshape."""
        v = self.csr_read(CSR_TSHAPE)
        return ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)

    def valid(self):
        """(V0, V1, V2) from tvalid."""
        v = self.csr_read(CSR_TVALID)
        return ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)


# ---------------------------------------------------------------------------
# Memory
# ---------------------------------------------------------------------------

PAGE = 4096


class Memory:
    """Sparse byte-addressed memory.  Unwritten bytes read as 0.

    Faults are a list of half-open address ranges [lo, hi) with flags saying
    whether loads and/or stores to them fault.  Addresses are plain
    non-negative integers; the instruction code does the modulo-2^XLEN wrap
    and hands Memory only non-wrapping pieces.
    """

    def __init__(self):
        self.pages = {}
        self.faults = []  # (lo, hi, on_load, on_store)

    def add_fault(self, lo, hi=None, on_load=True, on_store=True):
        """Make [lo, hi) (a single byte when hi is None) fault."""
        if hi is None:
            hi = lo + 1
        self.faults.append((lo, hi, on_load, on_store))

    def first_fault(self, addr, length, is_store):
        """Lowest faulting address in [addr, addr+length), or None."""
        best = None
        end = addr + length
        for lo, hi, on_load, on_store in self.faults:
            if not (on_store if is_store else on_load):
                continue
            start = max(lo, addr)
            if start < min(hi, end) and (best is None or start < best):
                best = start
        return best

    def read(self, addr, length):
        """bytes at [addr, addr+length) (no fault check)."""
        out = bytearray()
        while length > 0:
            page, off = divmod(addr, PAGE)
            n = min(length, PAGE - off)
            p = self.pages.get(page)
            out += p[off:off + n] if p is not None else bytes(n)
            addr += n
            length -= n
        return bytes(out)

    def write(self, addr, data):
        """Store bytes at addr (no fault check)."""
        data = bytes(data)
        pos = 0
        while pos < len(data):
            page, off = divmod(addr + pos, PAGE)
            n = min(len(data) - pos, PAGE - off)
            p = self.pages.get(page)
            if p is None:
                p = self.pages[page] = bytearray(PAGE)
            p[off:off + n] = data[pos:pos + n]
            pos += n

    def copy(self):
        other = Memory()
        other.pages = {k: bytearray(v) for k, v in self.pages.items()}
        other.faults = list(self.faults)
        return other

    def snapshot(self):
        """Comparable image: the non-zero pages only."""
        return {k: bytes(v) for k, v in self.pages.items() if any(v)}


# ---------------------------------------------------------------------------
# Floating-point formats, exact
# ---------------------------------------------------------------------------


class FloatFormat:
    """A binary floating-point format with sign, ebits exponent, mbits mantissa.

    special: 'ieee' -> exponent all ones is inf (mantissa 0) or NaN;
             'fn'   -> OCP E4M3FN: only S.1111.111 is NaN, no infinity;
             'none' -> OCP E2M1: every encoding is a finite number.
    """

    def __init__(self, name, ebits, mbits, bias, special, canonical_nan):
        self.name = name
        self.ebits = ebits
        self.mbits = mbits
        self.bias = bias
        self.special = special
        self.bits = 1 + ebits + mbits
        self.has_inf = special == "ieee"
        self.has_nan = special != "none"
        # E2M1 has no NaN; a NaN result is +0 (decisions sec. 6).
        self.canonical_nan = canonical_nan
        self.emin = 1 - bias  # exponent of the smallest normal number
        emax_field = (1 << ebits) - 1
        if special == "ieee":
            emax_field -= 1
            max_mant = (1 << mbits) - 1
        elif special == "fn":
            max_mant = (1 << mbits) - 2
        else:
            max_mant = (1 << mbits) - 1
        self.max_code = (emax_field << mbits) | max_mant
        self.max_finite = self._value_of_fields(emax_field, max_mant)

    def _value_of_fields(self, e, m):
        if e == 0:
            return Fraction(m) * Fraction(2) ** (self.emin - self.mbits)
        return Fraction((1 << self.mbits) + m) * Fraction(2) ** (e - self.bias - self.mbits)

    @property
    def sign_bit(self):
        return 1 << (self.bits - 1)

    def inf_code(self, negative):
        assert self.has_inf
        return (self.sign_bit if negative else 0) | (((1 << self.ebits) - 1) << self.mbits)

    def max_finite_code(self, negative):
        return (self.sign_bit if negative else 0) | self.max_code

    def decode(self, code):
        """code -> ('nan', None, None) | ('inf', neg, None) | ('fin', neg, Fraction magnitude)."""
        neg = bool(code & self.sign_bit)
        e = (code >> self.mbits) & ((1 << self.ebits) - 1)
        m = code & ((1 << self.mbits) - 1)
        if self.special == "ieee" and e == (1 << self.ebits) - 1:
            return ("inf", neg, None) if m == 0 else ("nan", None, None)
        if self.special == "fn" and e == (1 << self.ebits) - 1 and m == (1 << self.mbits) - 1:
            return ("nan", None, None)
        return ("fin", neg, self._value_of_fields(e, m))

    def round_magnitude(self, x):
        """Round a Fraction x >= 0 to nearest-even on this format's grid with an
        unbounded exponent (subnormal spacing kept below 2^emin); no clamping."""
        if x == 0:
            return Fraction(0)
        e = floor_log2(x)
        q = max(e, self.emin) - self.mbits  # the grid step is 2^q
        step = Fraction(2) ** q
        return round_half_even(x / step) * step

    def encode_magnitude(self, neg, mag):
        """Encode an exactly representable finite magnitude (<= max_finite)."""
        s = self.sign_bit if neg else 0
        if mag == 0:
            return s
        assert mag <= self.max_finite, (self.name, mag)
        if mag < Fraction(2) ** self.emin:
            m = mag / Fraction(2) ** (self.emin - self.mbits)
            assert m.denominator == 1 and 0 < m < (1 << self.mbits)
            return s | int(m)
        e = floor_log2(mag)
        sig = mag / Fraction(2) ** (e - self.mbits)
        assert sig.denominator == 1 and (1 << self.mbits) <= sig < (2 << self.mbits)
        return s | ((e + self.bias) << self.mbits) | (int(sig) - (1 << self.mbits))

    def from_exact(self, neg, mag):
        """Round an exact finite value once, then clamp to +/-max finite."""
        r = self.round_magnitude(mag)
        if r > self.max_finite:
            return self.max_finite_code(neg)
        return self.encode_magnitude(neg, r)

    def from_inf(self, neg):
        """An exact infinity: stays infinite if the format has one, else saturates."""
        return self.inf_code(neg) if self.has_inf else self.max_finite_code(neg)


def floor_log2(x):
    """floor(log2(x)) for a Fraction x > 0, exactly."""
    n, d = x.numerator, x.denominator
    e = n.bit_length() - d.bit_length()
    # 2^(e-1) < x < 2^(e+1); decide whether x >= 2^e
    if e >= 0:
        ge = n >= d << e
    else:
        ge = n << -e >= d
    return e if ge else e - 1


def round_half_even(x):
    """Nearest integer to Fraction x >= 0, ties to even."""
    n = x.numerator // x.denominator  # floor
    rem = x - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return n


FP32 = FloatFormat("binary32", 8, 23, 127, "ieee", 0x7FC00000)
FP16 = FloatFormat("binary16", 5, 10, 15, "ieee", 0x7E00)
BF16 = FloatFormat("bfloat16", 8, 7, 127, "ieee", 0x7FC0)
E5M2 = FloatFormat("E5M2", 5, 2, 15, "ieee", 0x7E)
E3M4 = FloatFormat("E3M4", 3, 4, 3, "ieee", 0x78)
E4M3FN = FloatFormat("E4M3FN", 4, 3, 7, "fn", 0x7F)
E2M1 = FloatFormat("E2M1", 2, 1, 1, "none", 0x0)


def fp_add_int(fmt, code, imm):
    """ADDI on one float element: code + integer imm, one rounding, saturating."""
    kind, neg, mag = fmt.decode(code)
    if kind == "nan":
        return fmt.canonical_nan
    if kind == "inf":
        return fmt.from_inf(neg)  # inf + finite = same inf
    exact = (-mag if neg else mag) + imm
    if exact == 0:
        # IEEE x + y exact zero under round-to-nearest is +0 unless both are -0;
        # the immediate is an integer (+0 when 0), so the zero is always +0.
        return 0
    # (a non-zero sum never rounds to zero: both operands are multiples of the
    # smallest subnormal, and the sign of the exact sum is kept if it did)
    return fmt.from_exact(exact < 0, abs(exact))


def fp_mul(fmt, code, scal_kind, scal_neg, scal_mag):
    """MULS on one float element times a decoded binary32 scalar."""
    kind, neg, mag = fmt.decode(code)
    if kind == "nan" or scal_kind == "nan":
        return fmt.canonical_nan
    sign = neg != scal_neg  # XOR of the operand signs
    if kind == "inf" or scal_kind == "inf":
        other_zero = (kind == "fin" and mag == 0) or (scal_kind == "fin" and scal_mag == 0)
        if other_zero:
            return fmt.canonical_nan  # inf * 0
        return fmt.from_inf(sign)
    return fmt.from_exact(sign, mag * scal_mag)  # a zero keeps the XOR sign


# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ElemType:
    name: str
    esz: int  # bits per element
    fmt: object = None  # FloatFormat for float types, None for unsigned integers

    @property
    def is_float(self):
        return self.fmt is not None

    @property
    def elems_per_reg(self):
        return REG_BYTES * 8 // self.esz

    def pad_code(self, pp):
        """FILLPAD pad value code: pp 0 zero, 1 min, 2 max."""
        if pp == 0:
            return 0
        if self.fmt is None:
            return 0 if pp == 1 else (1 << self.esz) - 1
        if self.fmt.has_inf:
            return self.fmt.inf_code(pp == 1)
        return self.fmt.max_finite_code(pp == 1)


INT4 = ElemType("int4", 4)
INT8 = ElemType("int8", 8)
INT16 = ElemType("int16", 16)
INT32 = ElemType("int32", 32)
T_E2M1 = ElemType("E2M1", 4, E2M1)
T_E4M3FN = ElemType("E4M3FN", 8, E4M3FN)
T_E5M2 = ElemType("E5M2", 8, E5M2)
T_E3M4 = ElemType("E3M4", 8, E3M4)
T_FP16 = ElemType("binary16", 16, FP16)
T_BF16 = ElemType("bfloat16", 16, BF16)
T_FP32 = ElemType("binary32", 32, FP32)

# ttype value of each type (exactly one field non-zero)
TTYPE_CODES = {
    0x001: INT4,
    0x002: INT8,
    0x004: INT16,
    0x008: INT32,
    0x010: T_E2M1,   # tfp4[5:4]   = 01
    0x040: T_E4M3FN,  # tfp8[7:6]   = 01
    0x080: T_E5M2,   # tfp8        = 10
    0x0C0: T_E3M4,   # tfp8        = 11
    0x100: T_FP16,   # tfp16[9:8]  = 01
    0x200: T_BF16,   # tfp16       = 10
    0x400: T_FP32,   # tfp32[11:10] = 01
}
TTYPE_OF = {t.name: c for c, t in TTYPE_CODES.items()}


def elem_type(ttype):
    """ElemType selected by a ttype value, or raise IllegalInstruction."""
    fields = [ttype & 1, (ttype >> 1) & 1, (ttype >> 2) & 1, (ttype >> 3) & 1,
              (ttype >> 4) & 3, (ttype >> 6) & 3, (ttype >> 8) & 3, (ttype >> 10) & 3]
    nonzero = sum(1 for f in fields if f)
    if ttype >> 12:
        raise IllegalInstruction("ttype 0x%x has bits above 11" % ttype)
    if nonzero != 1:
        raise IllegalInstruction("ttype 0x%x: %d fields non-zero (need exactly 1)" % (ttype, nonzero))
    t = TTYPE_CODES.get(ttype)
    if t is None:
        raise IllegalInstruction("ttype 0x%x: reserved type code" % ttype)
    return t


def _state_elem_type(state):
    return elem_type(state.csr_read(CSR_TTYPE))


# -- element packing ---------------------------------------------------------


def unpack_elems(data, esz):
    """uint8 bytes -> 1-D array of element codes (little-endian; int4: element 2n
    is the low nibble of byte n)."""
    data = np.asarray(data, dtype=np.uint8)
    if esz == 4:
        out = np.empty(data.size * 2, dtype=np.uint8)
        out[0::2] = data & 0x0F
        out[1::2] = data >> 4
        return out
    if esz == 8:
        return data.copy()
    if esz == 16:
        return data.view("<u2").astype(np.uint16)
    if esz == 32:
        return data.view("<u4").astype(np.uint32)
    raise ValueError(esz)


def pack_elems(elems, esz):
    """Inverse of unpack_elems."""
    if esz == 4:
        e = np.asarray(elems, dtype=np.uint8)
        return (e[0::2] & 0x0F) | ((e[1::2] & 0x0F) << 4)
    if esz == 8:
        return np.asarray(elems, dtype=np.uint8).copy()
    if esz == 16:
        return np.asarray(elems).astype("<u2").view(np.uint8).copy()
    if esz == 32:
        return np.asarray(elems).astype("<u4").view(np.uint8).copy()
    raise ValueError(esz)


def _elem_dtype(esz):
    return {4: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32}[esz]


# ---------------------------------------------------------------------------
# Common checks
# ---------------------------------------------------------------------------


def _need_init(state, addr, what):
    if not state.csr_initialized(addr):
        raise IllegalInstruction("%s needs %s, which is uninitialized" % (what, CSR_NAMES[addr]))


def _valid_shape(state, et, what):
    """Check tshape initialized and valid; return (D0, D1, D2, S bytes)."""
    _need_init(state, CSR_TSHAPE, what)
    d0, d1, d2 = state.shape()
    if d0 < 1 or d1 < 1 or d2 < 1:
        raise IllegalInstruction("%s: tshape [%d,%d,%d] has a zero dimension" % (what, d0, d1, d2))
    slice_bits = d1 * d2 * et.esz
    if slice_bits % 8:
        raise IllegalInstruction("%s: slice of %d bits is not whole bytes" % (what, slice_bits))
    s = slice_bits // 8
    if d0 * s > REG_BYTES:
        raise IllegalInstruction("%s: block [%d,%d,%d] of %s is %d bytes > 1024"
                                 % (what, d0, d1, d2, et.name, d0 * s))
    return d0, d1, d2, s


def _block(state, reg, et, d0, d1, d2):
    """The [D0,D1,D2] block of element codes held in tl<reg>."""
    elems = unpack_elems(state.regs[reg], et.esz)
    return elems[:d0 * d1 * d2].reshape(d0, d1, d2).copy()


def _reg_from_block(block, et):
    """1024 register bytes: the block, then zeros."""
    elems = np.zeros(et.elems_per_reg, dtype=_elem_dtype(et.esz))
    flat = np.asarray(block).reshape(-1)
    elems[:flat.size] = flat
    return pack_elems(elems, et.esz)


def _mask_bits(mask, n):
    """[bit 0 .. bit n-1] of a 32-bit mask value (bits >= 32 read as 0)."""
    return [bool((mask >> i) & 1) if i < 32 else False for i in range(n)]


# ---------------------------------------------------------------------------
# Memory instructions
# ---------------------------------------------------------------------------


def _mem_plan(state, masked, rs1_val, imm8, what):
    """Common checks of LOAD/MLOAD/STORE/MSTORE.

    Returns (S, W, list of (i, addr_i) for selected slices, D0)."""
    et = _state_elem_type(state)
    d0, d1, d2, s = _valid_shape(state, et, what)
    if d0 > 32:
        raise IllegalInstruction("%s: D0 = %d > 32" % (what, d0))
    if state.csr_initialized(CSR_TMASK_LOAD_WIDTH):
        w = state.csr_read(CSR_TMASK_LOAD_WIDTH)
    else:
        w = s
    if not 1 <= w <= s:
        raise IllegalInstruction("%s: width W = %d not in [1, S = %d]" % (what, w, s))
    if state.csr_initialized(CSR_TMASK_LOAD_STRIDE):
        p = sext(state.csr_read(CSR_TMASK_LOAD_STRIDE), 32)
    else:
        p = w
    if masked:
        _need_init(state, CSR_TMASK_LS, what)
        mask = state.csr_read(CSR_TMASK_LS)
    else:
        mask = 0xFFFFFFFF
    wrap = (1 << state.xlen) - 1
    sel = []
    for i in range(d0):
        if (mask >> i) & 1:
            sel.append((i, (rs1_val + imm8 * w + i * p) & wrap))
    return s, w, sel, d0


def _pieces(addr, length, xlen):
    """Split [addr, addr+length) modulo 2^xlen into non-wrapping pieces, in
    access order (the part up to 2^xlen - 1 first, then the part from 0)."""
    top = 1 << xlen
    if addr + length <= top:
        return [(addr, length)]
    first = top - addr
    return [(addr, first), (0, length - first)]


def _check_faults(mem, sel, w, xlen, is_store):
    for _i, a in sel:
        for pa, pl in _pieces(a, w, xlen):
            f = mem.first_fault(pa, pl, is_store)
            if f is not None:
                raise MemoryFault(f, is_store)


def tl_load(state, mem, tlrd, rs1_val, imm8, masked):
    """TL.LOAD (masked=False) / TL.MLOAD (masked=True).  imm8 is signed."""
    what = "tl.mload" if masked else "tl.load"
    s, w, sel, d0 = _mem_plan(state, masked, rs1_val, imm8, what)
    _check_faults(mem, sel, w, state.xlen, is_store=False)
    reg = np.zeros(REG_BYTES, dtype=np.uint8)  # unselected slices and tail are zero
    for i, a in sel:
        data = b"".join(mem.read(pa, pl) for pa, pl in _pieces(a, w, state.xlen))
        reg[i * s:i * s + w] = np.frombuffer(data, dtype=np.uint8)
        # bytes [i*S+W, (i+1)*S) stay zero
    state.write_reg(tlrd, reg)


def tl_store(state, mem, tlrs, rs1_val, imm8, masked):
    """TL.STORE / TL.MSTORE.  Slices are written in order i = 0, 1, ..., so when
    slices overlap in memory the later slice's bytes are the ones left."""
    what = "tl.mstore" if masked else "tl.store"
    s, w, sel, d0 = _mem_plan(state, masked, rs1_val, imm8, what)
    _check_faults(mem, sel, w, state.xlen, is_store=True)
    src = state.regs[tlrs].tobytes()
    for i, a in sel:
        data = src[i * s:i * s + w]
        pos = 0
        for pa, pl in _pieces(a, w, state.xlen):
            mem.write(pa, data[pos:pos + pl])
            pos += pl


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------


def tl_concat(state, tlrd, tlrs1, tlrs2, dim):
    """TL.CONCAT.dim: selected slices of tlrs1 then of tlrs2, packed at index 0."""
    what = "tl.concat.%d" % dim
    assert dim in (0, 1, 2)
    et = _state_elem_type(state)
    d0, d1, d2, _s = _valid_shape(state, et, what)
    dd = (d0, d1, d2)[dim]
    if dd > 32:
        raise IllegalInstruction("%s: D%d = %d > 32" % (what, dim, dd))
    _need_init(state, CSR_TMASK_CONCAT_1, what)
    _need_init(state, CSR_TMASK_CONCAT_2, what)
    sel1 = [i for i, b in enumerate(_mask_bits(state.csr_read(CSR_TMASK_CONCAT_1), dd)) if b]
    sel2 = [i for i, b in enumerate(_mask_bits(state.csr_read(CSR_TMASK_CONCAT_2), dd)) if b]
    n = len(sel1) + len(sel2)
    if n > dd:
        raise IllegalInstruction("%s: %d selected slices > D%d = %d" % (what, n, dim, dd))
    b1 = _block(state, tlrs1, et, d0, d1, d2)
    b2 = _block(state, tlrs2, et, d0, d1, d2)
    out = np.zeros_like(b1)
    for pos, i in enumerate(sel1):
        _set_index(out, dim, pos, _get_index(b1, dim, i))
    for pos, i in enumerate(sel2, start=len(sel1)):
        _set_index(out, dim, pos, _get_index(b2, dim, i))
    state.write_reg(tlrd, _reg_from_block(out, et))


def _get_index(block, dim, i):
    return np.take(block, i, axis=dim)


def _set_index(block, dim, i, value):
    idx = [slice(None)] * 3
    idx[dim] = i
    block[tuple(idx)] = value


def tl_merge(state, tlrd, tlrs1, tlrs2, dim):
    """TL.MERGE.dim: index i along dim from tlrs1 when tmask_concat_1 bit i is 1,
    else from tlrs2.  Like concat, the chosen dim must be at most 32 long (the
    mask has 32 bits): docs/isa.md A13."""
    what = "tl.merge.%d" % dim
    assert dim in (0, 1, 2)
    et = _state_elem_type(state)
    d0, d1, d2, _s = _valid_shape(state, et, what)
    _need_init(state, CSR_TMASK_CONCAT_1, what)
    dd = (d0, d1, d2)[dim]
    if dd > 32:
        raise IllegalInstruction("%s: merge dim size %d > 32" % (what, dd))
    bits = _mask_bits(state.csr_read(CSR_TMASK_CONCAT_1), dd)
    b1 = _block(state, tlrs1, et, d0, d1, d2)
    b2 = _block(state, tlrs2, et, d0, d1, d2)
    out = np.zeros_like(b1)
    for i in range(dd):
        _set_index(out, dim, i, _get_index(b1 if bits[i] else b2, dim, i))
    state.write_reg(tlrd, _reg_from_block(out, et))


def tl_xpose(state, tlrs1, tlrs2, dims_val, dim0, dim1):
    """TL.XPOSE: swap dims dim0/dim1 of the [D0,D1,D2,D3] tensor held in
    tlrs1 (first 1024 bytes) and tlrs2 (next 1024 bytes); dims_val = x[rs]."""
    what = "tl.xpose"
    et = _state_elem_type(state)
    v = dims_val & 0xFFFFFFFF
    dims = (v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF)
    if min(dims) < 1:
        raise IllegalInstruction("%s: dims %s has a zero dimension" % (what, list(dims)))
    total_bits = dims[0] * dims[1] * dims[2] * dims[3] * et.esz
    if total_bits != 2048 * 8:
        raise IllegalInstruction("%s: dims %s of %s is %s bytes, not 2048"
                                 % (what, list(dims), et.name, total_bits / 8))
    if dims[0] % 2:
        raise IllegalInstruction("%s: D0 = %d is odd" % (what, dims[0]))
    if tlrs1 == tlrs2:
        raise IllegalInstruction("%s: tlrs1 == tlrs2 (tl%d)" % (what, tlrs1))
    data = np.concatenate([state.regs[tlrs1], state.regs[tlrs2]])
    t = unpack_elems(data, et.esz).reshape(dims)
    r = np.swapaxes(t, dim0, dim1).reshape(-1)  # row-major order of the result
    out = pack_elems(r, et.esz)
    state.write_reg(tlrs1, out[:REG_BYTES])
    state.write_reg(tlrs2, out[REG_BYTES:])


def tl_fillpad(state, tlrd, tlrs, pp):
    """TL.FILLPAD.{zero,min,max} (pp = 0, 1, 2)."""
    what = "tl.fillpad.%s" % ("zero", "min", "max")[pp]
    et = _state_elem_type(state)
    d0, d1, d2, _s = _valid_shape(state, et, what)
    _need_init(state, CSR_TVALID, what)
    v0, v1, v2 = state.valid()
    if v0 > d0 or v1 > d1 or v2 > d2:
        raise IllegalInstruction("%s: tvalid [%d,%d,%d] exceeds tshape [%d,%d,%d]"
                                 % (what, v0, v1, v2, d0, d1, d2))
    src = _block(state, tlrs, et, d0, d1, d2)
    out = np.full_like(src, et.pad_code(pp))
    out[:v0, :v1, :v2] = src[:v0, :v1, :v2]
    state.write_reg(tlrd, _reg_from_block(out, et))


# ---------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------


def _map_codes(elems, fn):
    """Apply fn(code) -> code to every element (computed once per distinct code)."""
    uniq, inv = np.unique(elems, return_inverse=True)
    table = np.array([fn(int(c)) for c in uniq], dtype=elems.dtype)
    return table[inv].reshape(elems.shape)


def tl_addi(state, tlrd, tlrs, imm8):
    """TL.ADDI: every element of the whole register, dst = sat(src + imm8)."""
    et = _state_elem_type(state)
    elems = unpack_elems(state.regs[tlrs], et.esz)
    if et.is_float:
        res = _map_codes(elems, lambda c: fp_add_int(et.fmt, c, imm8))
    else:
        top = (1 << et.esz) - 1
        wide = elems.astype(np.int64) + imm8
        res = np.clip(wide, 0, top).astype(elems.dtype)
    state.write_reg(tlrd, pack_elems(res, et.esz))


def tl_muls(state, tlrd, tlrs, scalar):
    """TL.MULS: every element of the whole register, dst = sat(src * s).

    scalar is x[rs2] (already reduced to XLEN bits): integer types use it as an
    unsigned integer; float types use bits [31:0] as a binary32 value."""
    et = _state_elem_type(state)
    elems = unpack_elems(state.regs[tlrs], et.esz)
    if et.is_float:
        sk, sn, sm = FP32.decode(scalar & 0xFFFFFFFF)
        res = _map_codes(elems, lambda c: fp_mul(et.fmt, c, sk, sn, sm))
    else:
        res = _int_muls(elems, scalar, (1 << et.esz) - 1)
    state.write_reg(tlrd, pack_elems(res, et.esz))


def _int_muls(elems, scalar, top):
    # exact: any non-zero element times a scalar >= 2^esz saturates, so the
    # scalar can be capped at 2^esz; the product then fits in 64 bits.
    s = min(scalar, top + 1)
    prod = elems.astype(np.uint64) * np.uint64(s)
    return np.minimum(prod, np.uint64(top)).astype(elems.dtype)


# ---------------------------------------------------------------------------
# Instruction words
# ---------------------------------------------------------------------------

OPCODE_CUSTOM2 = 0b1011011
OPCODE_SYSTEM = 0b1110011

ENGINE_TENSORLOAD, ENGINE_TENSORCOMP, ENGINE_TENSORSTORE, ENGINE_RESHAPE = 0, 1, 2, 3

PAD_NAMES = ("zero", "min", "max")


@dataclass
class Insn:
    """A decoded instruction word.

    name: 'tl.load', 'tl.mload', 'tl.store', 'tl.mstore', 'tl.concat', 'tl.merge',
          'tl.addi', 'tl.xpose', 'tl.muls', 'tl.fillpad', or 'illegal' (reason set).
    Register fields hold indices; imm is the sign-extended imm8.
    """
    name: str
    word: int
    engine: int = 0
    tlrd: int = None    # TL destination (load, concat, merge, addi, muls, fillpad)
    tlrs: int = None    # TL source (store, addi, muls, fillpad)
    tlrs1: int = None   # concat, merge, xpose
    tlrs2: int = None   # concat, merge, xpose
    rs1: int = None     # GPR base address (memory ops)
    rs2: int = None     # GPR scalar (muls)
    rs: int = None      # GPR dims (xpose)
    imm: int = None     # imm8, signed (memory ops, addi)
    dim: int = None     # concat/merge dimension
    dim0: int = None    # xpose funct5[1:0]
    dim1: int = None    # xpose funct5[3:2]
    pad: int = None     # fillpad PP (0 zero, 1 min, 2 max)
    reason: str = None  # for 'illegal'
    rule: int = None    # for 'illegal': the reserved encoding R1..R10 of docs/isa.md 4.6


def _bits(word, hi, lo):
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)


def decode(word):
    """Decode a 32-bit word.  Returns None when the opcode is not CUSTOM-2,
    an Insn named 'illegal' (with .reason) for reserved CUSTOM-2 patterns,
    otherwise the decoded Insn."""
    word &= 0xFFFFFFFF
    if word & 0x7F != OPCODE_CUSTOM2:
        return None
    eng = _bits(word, 31, 30)
    f5 = _bits(word, 29, 25)
    r20 = _bits(word, 24, 20)
    r15 = _bits(word, 19, 15)
    f3 = _bits(word, 14, 12)
    r7 = _bits(word, 11, 7)

    def illegal(rule, reason):
        return Insn("illegal", word, eng, reason=reason, rule=rule)

    if f3 == 0b000:
        st, tm = _bits(word, 29, 29), _bits(word, 28, 28)
        imm = sext(_bits(word, 27, 20), 8)
        if st == 0:
            return Insn("tl.mload" if tm else "tl.load", word, eng, tlrd=r15, rs1=r7, imm=imm)
        return Insn("tl.mstore" if tm else "tl.store", word, eng, tlrs=r15, rs1=r7, imm=imm)
    if f3 == 0b001:
        kind, dd = f5 >> 2, f5 & 3
        if kind not in (0b000, 0b001):
            return illegal(3, "data-move funct5[4:2] = %s is reserved" % format(kind, "03b"))
        if dd == 3:
            return illegal(4, "concat/merge dimension 3 is reserved")
        return Insn("tl.concat" if kind == 0 else "tl.merge", word, eng,
                    tlrd=r7, tlrs1=r15, tlrs2=r20, dim=dd)
    if f3 == 0b010:
        if _bits(word, 29, 28) != 0:
            return illegal(5, "addi funct2 != 00")
        return Insn("tl.addi", word, eng, tlrd=r7, tlrs=r15, imm=sext(_bits(word, 27, 20), 8))
    if f3 == 0b011:
        if f5 >> 4:
            return illegal(6, "xpose funct5[4] = 1")
        return Insn("tl.xpose", word, eng, tlrs1=r15, tlrs2=r20, rs=r7,
                    dim0=f5 & 3, dim1=(f5 >> 2) & 3)
    if f3 == 0b100:
        if f5 != 0:
            return illegal(7, "muls funct5 != 0")
        return Insn("tl.muls", word, eng, tlrd=r7, tlrs=r15, rs2=r20)
    if f3 == 0b101:
        if f5 >> 2:
            return illegal(8, "fillpad funct5[4:2] != 000")
        if f5 & 3 == 3:
            return illegal(9, "fillpad PP = 11 is reserved")
        if r20 != 0:
            return illegal(10, "fillpad bits [24:20] != 0")
        return Insn("tl.fillpad", word, eng, tlrd=r7, tlrs=r15, pad=f5 & 3)
    return illegal(1 if f3 == 0b110 else 2, "funct3 = %s is reserved" % format(f3, "03b"))


# -- encoders ------------------------------------------------------------------


def _word(engine, f5, r20, r15, f3, r7):
    for v, n in ((engine, 2), (f5, 5), (r20, 5), (r15, 5), (f3, 3), (r7, 5)):
        assert 0 <= v < (1 << n), (v, n)
    return (engine << 30) | (f5 << 25) | (r20 << 20) | (r15 << 15) | (f3 << 12) | (r7 << 7) \
        | OPCODE_CUSTOM2


# funct3 of each group of instructions (docs/isa.md 4.1); 110 and 111 are reserved
FUNCT3_MEM, FUNCT3_MOVE, FUNCT3_ADDI, FUNCT3_XPOSE, FUNCT3_MULS, FUNCT3_FILLPAD = range(6)


def encode_fields(funct3, funct5=0, b24=0, b19=0, b11=0, engine=0):
    """A CUSTOM-2 word from the fields of the common layout of docs/isa.md 4.1:
    EngineID [31:30], funct5 [29:25], operand B [24:20], operand A [19:15],
    funct3 [14:12], operand C [11:7].  For words the encode_* functions do
    not give: reserved encodings, every value of a field."""
    return _word(engine, funct5, b24, b19, funct3, b11)


def _mem_word(st, tm, tlr, rs1, imm, engine):
    assert -128 <= imm <= 255
    imm &= 0xFF
    return _word(engine, (st << 4) | (tm << 3) | (imm >> 5), imm & 0x1F, tlr, 0b000, rs1)


def encode_load(tlrd, imm, rs1, engine=ENGINE_TENSORLOAD):
    return _mem_word(0, 0, tlrd, rs1, imm, engine)


def encode_mload(tlrd, imm, rs1, engine=ENGINE_TENSORLOAD):
    return _mem_word(0, 1, tlrd, rs1, imm, engine)


def encode_store(tlrs, imm, rs1, engine=ENGINE_TENSORSTORE):
    return _mem_word(1, 0, tlrs, rs1, imm, engine)


def encode_mstore(tlrs, imm, rs1, engine=ENGINE_TENSORSTORE):
    return _mem_word(1, 1, tlrs, rs1, imm, engine)


def encode_concat(dim, tlrd, tlrs1, tlrs2, engine=ENGINE_RESHAPE):
    return _word(engine, 0b00000 | dim, tlrs2, tlrs1, 0b001, tlrd)


def encode_merge(dim, tlrd, tlrs1, tlrs2, engine=ENGINE_RESHAPE):
    return _word(engine, 0b00100 | dim, tlrs2, tlrs1, 0b001, tlrd)


def encode_addi(tlrd, tlrs, imm, engine=ENGINE_TENSORCOMP, funct2=0):
    """funct2 is bits [29:28]; any value but 0 makes the word reserved (R5)."""
    assert -128 <= imm <= 255 and 0 <= funct2 <= 3
    imm &= 0xFF
    return _word(engine, (funct2 << 3) | (imm >> 5), imm & 0x1F, tlrs, 0b010, tlrd)


# assembler funct5 of tl.xpose.AB (decisions sec. 4)
XPOSE_FUNCT5 = {"01": 0x01, "02": 0x02, "03": 0x03, "12": 0x09, "13": 0x0D, "23": 0x0B}


def encode_xpose(tlrs1, tlrs2, rs, dim0, dim1, engine=ENGINE_RESHAPE):
    """Encode with explicit fields: funct5 = 0 dim1[1:0] dim0[1:0]."""
    return _word(engine, (dim1 << 2) | dim0, tlrs2, tlrs1, 0b011, rs)


def encode_xpose_ab(ab, tlrs1, tlrs2, rs, engine=ENGINE_RESHAPE):
    """Encode the assembler form tl.xpose.AB, ab in '01','02','03','12','13','23'."""
    return _word(engine, XPOSE_FUNCT5[ab], tlrs2, tlrs1, 0b011, rs)


def encode_muls(tlrd, tlrs, rs2, engine=ENGINE_TENSORCOMP):
    return _word(engine, 0, rs2, tlrs, 0b100, tlrd)


def encode_fillpad(pad, tlrd, tlrs, engine=ENGINE_RESHAPE):
    if isinstance(pad, str):
        pad = PAD_NAMES.index(pad)
    return _word(engine, pad, 0, tlrs, 0b101, tlrd)


_DEFAULT_ENGINE = {"tl.load": 0, "tl.mload": 0, "tl.store": 2, "tl.mstore": 2,
                   "tl.addi": 1, "tl.muls": 1}


def disasm(word):
    """Assembly text of a word (for logs), e.g. 'tl.mload tl3, -4(x10)'."""
    i = decode(word)
    if i is None:
        return ".word 0x%08x  # not CUSTOM-2" % (word & 0xFFFFFFFF)
    if i.name == "illegal":
        return ".word 0x%08x  # illegal: %s" % (i.word, i.reason)
    n = i.name
    if n in ("tl.load", "tl.mload"):
        text = "%s tl%d, %d(x%d)" % (n, i.tlrd, i.imm, i.rs1)
    elif n in ("tl.store", "tl.mstore"):
        text = "%s tl%d, %d(x%d)" % (n, i.tlrs, i.imm, i.rs1)
    elif n in ("tl.concat", "tl.merge"):
        text = "%s.%d tl%d, tl%d, tl%d" % (n, i.dim, i.tlrd, i.tlrs1, i.tlrs2)
    elif n == "tl.addi":
        text = "tl.addi tl%d, tl%d, %d" % (i.tlrd, i.tlrs, i.imm)
    elif n == "tl.xpose":
        text = "tl.xpose.%d%d tl%d, tl%d, x%d" % (i.dim0, i.dim1, i.tlrs1, i.tlrs2, i.rs)
    elif n == "tl.muls":
        text = "tl.muls tl%d, tl%d, x%d" % (i.tlrd, i.tlrs, i.rs2)
    else:
        text = "tl.fillpad.%s tl%d, tl%d" % (PAD_NAMES[i.pad], i.tlrd, i.tlrs)
    if i.engine != _DEFAULT_ENGINE.get(n, ENGINE_RESHAPE):
        text += "  # engine %d" % i.engine
    return text


# -- execution -------------------------------------------------------------------


def _gpr(gpr, n, xlen):
    """x[n] reduced to XLEN bits; x0 is 0; a dict may omit registers (they read 0)."""
    if n == 0:
        return 0
    v = gpr.get(n, 0) if hasattr(gpr, "get") else gpr[n]
    return int(v) & ((1 << xlen) - 1)


def execute(state, mem, word, gpr):
    """Execute one CUSTOM-2 word.  gpr: list/dict indexed 0..31 (x0 taken as 0).

    Returns the decoded Insn; raises IllegalInstruction / MemoryFault (state and
    memory unchanged) or ValueError for a word that is not CUSTOM-2."""
    i = decode(word)
    if i is None:
        raise ValueError("0x%08x is not a CUSTOM-2 instruction" % (word & 0xFFFFFFFF))
    if i.name == "illegal":
        raise IllegalInstruction(i.reason)
    xl = state.xlen
    n = i.name
    if n in ("tl.load", "tl.mload"):
        tl_load(state, mem, i.tlrd, _gpr(gpr, i.rs1, xl), i.imm, masked=(n == "tl.mload"))
    elif n in ("tl.store", "tl.mstore"):
        tl_store(state, mem, i.tlrs, _gpr(gpr, i.rs1, xl), i.imm, masked=(n == "tl.mstore"))
    elif n == "tl.concat":
        tl_concat(state, i.tlrd, i.tlrs1, i.tlrs2, i.dim)
    elif n == "tl.merge":
        tl_merge(state, i.tlrd, i.tlrs1, i.tlrs2, i.dim)
    elif n == "tl.addi":
        tl_addi(state, i.tlrd, i.tlrs, i.imm)
    elif n == "tl.xpose":
        tl_xpose(state, i.tlrs1, i.tlrs2, _gpr(gpr, i.rs, xl), i.dim0, i.dim1)
    elif n == "tl.muls":
        tl_muls(state, i.tlrd, i.tlrs, _gpr(gpr, i.rs2, xl))
    elif n == "tl.fillpad":
        tl_fillpad(state, i.tlrd, i.tlrs, i.pad)
    else:  # pragma: no cover
        raise AssertionError(n)
    return i


def execute_csr(state, word, gpr):
    """Execute a Zicsr instruction (csrrw/s/c[i]) aimed at a TL CSR 0x800..0x808.

    Returns (rd, value_for_rd) -- the caller writes the GPR unless rd == 0 -- or
    None when the word is not such an instruction.  Standard Zicsr rules:
    csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with uimm = 0 do not write (so
    they do not initialize the CSR); every other form writes and initializes."""
    word &= 0xFFFFFFFF
    if word & 0x7F != OPCODE_SYSTEM:
        return None
    f3 = _bits(word, 14, 12)
    addr = _bits(word, 31, 20)
    if f3 in (0, 4) or addr not in ALL_CSR_NAMES:
        return None
    rd, rs1 = _bits(word, 11, 7), _bits(word, 19, 15)
    src = rs1 if f3 & 4 else _gpr(gpr, rs1, state.xlen)
    old = state.csr_read(addr)
    op = f3 & 3
    if op == 1:  # csrrw / csrrwi
        state.csr_write(addr, src)
    elif rs1 != 0:  # csrrs / csrrc (register x0 or uimm 0: no write)
        if op == 2:
            state.csr_write(addr, old | src)
        else:
            state.csr_write(addr, old & ~src)
    return rd, old


def encode_csr(op, csr, rd, rs1_or_uimm):
    """op in 'csrrw','csrrs','csrrc','csrrwi','csrrsi','csrrci'."""
    f3 = {"csrrw": 1, "csrrs": 2, "csrrc": 3, "csrrwi": 5, "csrrsi": 6, "csrrci": 7}[op]
    return (csr << 20) | (rs1_or_uimm << 15) | (f3 << 12) | (rd << 7) | OPCODE_SYSTEM


def ttype_for(name):
    """ttype value of a type name ('int8', 'binary16', 'E4M3FN', ...)."""
    return TTYPE_OF[name]


def tshape_value(d0, d1, d2):
    return (d0 << 16) | (d1 << 8) | d2


tvalid_value = tshape_value


def xpose_dims_value(d0, d1, d2, d3):
    """x[rs] value for TL.XPOSE: D3[31:24] D2[23:16] D1[15:8] D0[7:0]."""
    return (d3 << 24) | (d2 << 16) | (d1 << 8) | d0
