#!/usr/bin/python3
"""Random differential test of the TensorLoad (xtl) extension: QEMU vs tlref.

    /usr/bin/python3 tests/diff/tl_diff.py [--seed S] [--count N] [--jobs J]
    /usr/bin/python3 tests/diff/tl_diff.py --directed
    /usr/bin/python3 tests/diff/tl_diff.py --seed S --case K     (replay one case)
    /usr/bin/python3 tests/diff/tl_diff.py --directed --case K

Cases are generated here (deterministically from the seed: case K depends only
on the seed and K), written to a binary case file and executed by the guest
program tl_diff_guest under qemu-riscv64 -cpu rv64,xtl=on.  The same cases run
through the independent reference model tests/reference/tlref.py.  Every case
starts from a whole TL state it defines (the registers it names from the data
pool, every other register a background pattern of its own, the eight CSRs, and
for some cases a tinit value that leaves CSRs uninitialized) and compares the
whole state after the instruction: the signal and fault address, all nine CSRs
0x800-0x808 (tinit's initialized flags included), a hash of each of the 32
registers and, for memory instructions, the hash of the touched memory span.
A core bug that writes a register or CSR the case did not name is seen.

Besides single instructions, "seq.load.load.xpose" cases run the three-word
sequence tl.load; tl.load; tl.xpose (the second source relative to the first or
independent, overlapping or not, masked, strided, faulting in any of the three
words), which QEMU translates into one fused pass; the trapping word's index is
compared too.  "seq.load.load.xpose.store.store" cases add tl.store A; tl.store B
(t3, t4: over the sources, each other, or memory of their own; faulting or not),
which QEMU runs in the same pass; the memory each store may write is compared
(two spans) besides the whole TL state.  Warm cases first access their memory
(and the first store's) from the same translation block address, so QEMU's
TLB-hit inline paths and the fused paths run, not only the first-touch helper
path; the run counts the xtl_load_pair_xpose trace events ("one pass", "one pass
with the two stores") and fails when the directed cases that qualify for a fused
path did not all take it (and no other did), or when no random warm sequence of
either kind did.

Every case stays in the mapped window or far from it (below 0x10000, at or above 2^56),
memory the model knows; a case whose model run faults anywhere else fails as a generator
error, named so, whatever QEMU did.

Prints the seed, counts per
instruction kind and outcome, details of at most 20 mismatches (with a replay
command, and a byte-level diff from a dump-mode re-run), and ends with the line
'N passed, M failed'.  Exit status 0 only when every case matched.

File formats (little-endian; must match tl_diff_guest.c):
  header  HDR_FMT, then nprot PROT_FMT entries, the arena image (arena_len
          bytes), the data pool (npool x 1024 bytes), then ncases CASE_FMT.
  result  RES_FMT per case; in dump mode followed by 32 x 1024 register
          bytes, a u32 length and that many span bytes.
"""

import argparse
import multiprocessing
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "reference"))
import tlref as T  # noqa: E402

# ---------------------------------------------------------------------------
# Binary formats and memory layout
# ---------------------------------------------------------------------------

HDR_FMT = "<8sIIIIQIIII"
PROT_FMT = "<IIII"
CASE_FMT = "<IIQQ8QB7B8HQQIIQIIQQQQ"
RES_FMT = "<iIQ9Q32QQIiii"
assert struct.calcsize(HDR_FMT) == 48
assert struct.calcsize(CASE_FMT) == 184
assert struct.calcsize(RES_FMT) == 368
MAGIC = b"TLDIFF04"
FORMAT_VERSION = 4
NUM_TL_REGS = 32
MAX_REGS = 7
NO_POOL = 0xFFFF
CF_T0_REL, CF_MEMCHK, CF_TINIT, CF_T2_REL, CF_WARM, CF_T3_REL, CF_T4_REL = 1, 2, 4, 8, 16, 32, 64
CF_TINIT_SHIFT = 16                     # tinit value written after the CSRs (8 bits)
CF_FRM_SHIFT, CF_NOPS_SHIFT = 8, 12     # frm (3 bits), nops before the word (2 bits)
RF_STRAY, RF_BAD_PC, RF_GPR, RF_FRM = 1, 2, 4, 8
RF_INSN_SHIFT = 8                        # which word of a sequence trapped (3 bits)
SEQ_KIND = "seq.load.load.xpose"
SEQ5_KIND = "seq.load.load.xpose.store.store"
HF_DUMP = 1

SIGILL, SIGBUS, SIGSEGV = 4, 7, 11
SIGNAME = {0: "ok", SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS"}

PAGE = 4096
MASK64 = (1 << 64) - 1
PROT_NONE, PROT_READ, PROT_RW = 0, 1, 3

MAP_BASE = 0x20000000            # lower guard page
ARENA_OFF = PAGE
ARENA_LEN = 16 * PAGE            # 64 KiB
MAP_LEN = ARENA_OFF + ARENA_LEN + PAGE
ARENA = MAP_BASE + ARENA_OFF     # absolute arena address
HOLE = ARENA + 8 * PAGE          # PROT_NONE page inside the arena
RO = ARENA + 12 * PAGE           # read-only page inside the arena
GUARD_LO = MAP_BASE
GUARD_HI = ARENA + ARENA_LEN
MAP_END = MAP_BASE + MAP_LEN
PROTS = [(0, PAGE, PROT_NONE),
         (HOLE - MAP_BASE, PAGE, PROT_NONE),
         (RO - MAP_BASE, PAGE, PROT_READ),
         (GUARD_HI - MAP_BASE, PAGE, PROT_NONE)]
# never mapped in a qemu-riscv64 process: used for wrap-around / far addresses
FAR_LO_END = 0x10000
FAR_HI = 1 << 56
# the rest: the guest program, its stack and QEMU's own mappings may lie there, so no case
# may reach it; the model faults there, and such a fault marks a generator error
UNMODELLED = [(FAR_LO_END, MAP_BASE), (MAP_END, FAR_HI)]

READABLE = [(ARENA, HOLE), (HOLE + PAGE, GUARD_HI)]
WRITABLE = [(ARENA, HOLE), (HOLE + PAGE, RO), (RO + PAGE, GUARD_HI)]


def page_prot(addr):
    if not MAP_BASE <= addr < MAP_END:
        return PROT_NONE
    off = addr - MAP_BASE
    prot = PROT_RW
    for o, n, p in PROTS:
        if o <= off < o + n:
            prot = p
    return prot


def readable_segments(lo, hi):
    """[lo, hi) cut at pages, readable parts only, in address order."""
    out = []
    a = lo
    while a < hi:
        nxt = min((a // PAGE + 1) * PAGE, hi)
        if page_prot(a) & PROT_READ:
            out.append((a, nxt - a))
        a = nxt
    return out


# ---------------------------------------------------------------------------
# Hash (same as tl_diff_guest.c: hash_bytes)
# ---------------------------------------------------------------------------

H_GOLD = np.uint64(0x9E3779B97F4A7C15)
H_KEY = np.uint64(0x243F6A8885A308D3)
M1 = np.uint64(0xff51afd7ed558ccd)
M2 = np.uint64(0xc4ceb9fe1a85ec53)
S33 = np.uint64(33)


def _fmix_np(z):
    z = z ^ (z >> S33)
    z = z * M1
    z = z ^ (z >> S33)
    z = z * M2
    return z ^ (z >> S33)


def _fmix_int(z):
    z ^= z >> 33
    z = (z * 0xff51afd7ed558ccd) & MASK64
    z ^= z >> 33
    z = (z * 0xc4ceb9fe1a85ec53) & MASK64
    return z ^ (z >> 33)


_JIDX = np.arange(16384, dtype=np.uint64) * H_GOLD + H_KEY


def hash_bytes(b):
    b = bytes(b)
    n = len(b)
    nw = (n + 7) // 8
    if nw:
        w = np.frombuffer(b + bytes(nw * 8 - n), dtype="<u8")
        h = int(_fmix_np(w + _JIDX[:nw]).sum(dtype=np.uint64))
    else:
        h = 0
    return _fmix_int(h ^ ((n * 0xD6E8FEB86659FD93) & MASK64))


def background(r):
    """Contents of tl<r> that the case does not name (tl_diff_guest.c: background)."""
    if r == 0:
        return np.zeros(1024, np.uint8)
    i = np.arange(1024, dtype=np.int64)
    return (((r + 1) * 37 + i * 11 + (i >> 7)) & 0xFF).astype(np.uint8)


BACKGROUND = [background(r) for r in range(NUM_TL_REGS)]
BACKGROUND_BYTES = [b.tobytes() for b in BACKGROUND]
BACKGROUND_HASH = [hash_bytes(b) for b in BACKGROUND_BYTES]


def reg_hash(r, b):
    """hash_bytes of tl<r>'s 1024 bytes b (the background's is precomputed)."""
    if b == BACKGROUND_BYTES[r]:
        return BACKGROUND_HASH[r]
    return hash_bytes(b)


# ---------------------------------------------------------------------------
# Element types and data pool
# ---------------------------------------------------------------------------

TYPES = sorted(T.TTYPE_CODES.items())          # [(ttype, ElemType)]
TTYPE_LIST = [c for c, _ in TYPES]
ET = dict(TYPES)
INVALID_TTYPES = [0x000, 0x003, 0x005, 0x020, 0x030, 0x011, 0x041, 0x0C2, 0x300, 0x800,
                  0xC00, 0x500, 0x0FFF, 0x006, 0x00C, 0x110]

DEFAULT_ENGINE = {"tl.load": 0, "tl.mload": 0, "tl.store": 2, "tl.mstore": 2,
                  "tl.addi": 1, "tl.muls": 1}


def esz_of(ttype):
    """Element size the generator plans with (bits above 11 of ttype are WARL 0)."""
    et = ET.get(ttype & 0xFFF)
    return et.esz if et else 8


def float_specials(fmt):
    """Interesting codes of a float format."""
    b, m, e = fmt.bits, fmt.mbits, fmt.ebits
    sgn = 1 << (b - 1)
    if b == 4:
        return list(range(16))
    c = {0, 1, (1 << m) - 1, 1 << m, (1 << m) | 1, fmt.max_code, fmt.max_code - 1,
         (fmt.bias << m), (fmt.bias << m) | 1, ((fmt.bias - 1) << m) | ((1 << m) - 1)}
    eall = ((1 << e) - 1) << m
    if fmt.special == "ieee":
        c |= {eall, eall | 1, eall | (1 << (m - 1)), eall | ((1 << m) - 1),
              eall | (1 << (m - 1)) | 1}
    elif fmt.special == "fn":
        c |= {0x7F, 0x7E, 0x78, 0x79}
    for k in (2, 3, 5, 7, 100, 127, 128, 255, 1000):
        try:
            c.add(fmt.encode_magnitude(False, k))
        except AssertionError:
            pass
    out = set()
    for x in c:
        x &= sgn - 1
        out.add(x)
        out.add(x | sgn)
    return sorted(out)


def tie_codes(fmt, rnd, n):
    """Codes whose ulp is 0.5 .. 8 (ADDI with integer immediates ties / rounds),
    plus codes close to max finite."""
    b, m = fmt.bits, fmt.mbits
    emax_field = (1 << fmt.ebits) - (2 if fmt.special == "ieee" else 1)
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        q = rnd.integers(-1, 4)
        ef = fmt.bias + m + int(q)
        if not 1 <= ef <= emax_field or rnd.random() < 0.2:
            ef = emax_field - int(rnd.integers(0, 2))
        code = (ef << m) | int(rnd.integers(0, 1 << m))
        if code > fmt.max_code:
            code = fmt.max_code
        if rnd.random() < 0.5:
            code |= 1 << (b - 1)
        out[i] = code
    return out


def int_edges(esz):
    top = (1 << esz) - 1
    c = {0, 1, 2, 3, top, top - 1, top - 2, top // 2, top // 2 + 1}
    for v in (7, 8, 15, 16, 127, 128, 129, 200, 255, 256, 32767, 32768, 65535, 65536,
              (1 << 31) - 1, 1 << 31):
        if v <= top:
            c.add(v)
    return sorted(c)


def pack(elems, esz):
    e = np.asarray(elems, dtype=np.uint64)
    if esz == 4:
        e = e.astype(np.uint8) & 0xF
        return (e[0::2] | (e[1::2] << 4)).astype(np.uint8).tobytes()
    dt = {8: "<u1", 16: "<u2", 32: "<u4"}[esz]
    return e.astype(dt).tobytes()


POOL_STYLES = ("random", "special", "mixed", "ties", "ramp")


def pool_entry(rnd, ttype, style):
    et = ET[ttype]
    esz = et.esz
    n = 8192 // esz
    top = (1 << esz) - 1
    if style == "random":
        return rnd.integers(0, 256, 1024, dtype=np.uint8).tobytes()
    if style == "ramp":
        start = int(rnd.integers(0, top + 1))
        return pack((np.arange(n, dtype=np.uint64) + start) & top, esz)
    rand = rnd.integers(0, top + 1, n, dtype=np.uint64)
    if et.fmt is not None:
        special = np.array(float_specials(et.fmt), dtype=np.uint64)
        ties = tie_codes(et.fmt, rnd, n)
    else:
        edges = np.array(int_edges(esz), dtype=np.uint64)
        special = edges
        near = np.concatenate([np.arange(0, min(141, top + 1)),
                               np.arange(max(0, top - 140), top + 1)]).astype(np.uint64)
        ties = near[rnd.integers(0, len(near), n)]
    pick_s = special[rnd.integers(0, len(special), n)]
    if style == "special":
        choose = rnd.random(n)
        out = np.where(choose < 0.8, pick_s, rand)
    elif style == "ties":
        choose = rnd.random(n)
        out = np.where(choose < 0.7, ties, np.where(choose < 0.9, pick_s, rand))
    else:  # mixed
        choose = rnd.random(n)
        out = np.where(choose < 0.34, ties, np.where(choose < 0.67, pick_s, rand))
    return pack(out, esz)


def make_pool(seed, per_type=24, generic=48):
    """Returns (list of 1024-byte entries, dict ttype -> list of indices)."""
    rnd = np.random.default_rng([seed & MASK64, 0x7001])
    entries, by_type = [], {}
    for ttype in TTYPE_LIST:
        idx = []
        for k in range(per_type):
            style = POOL_STYLES[k % len(POOL_STYLES)]
            idx.append(len(entries))
            entries.append(pool_entry(rnd, ttype, style))
        by_type[ttype] = idx
    by_type[None] = []
    for k in range(generic):
        by_type[None].append(len(entries))
        entries.append(rnd.integers(0, 256, 1024, dtype=np.uint8).tobytes())
    return entries, by_type


def make_arena(seed):
    rnd = np.random.default_rng([seed & MASK64, 0xA7E4A])
    return rnd.integers(0, 256, ARENA_LEN, dtype=np.uint8).tobytes()


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


class Case:
    __slots__ = ("word", "flags", "t0", "t1", "csr", "regs", "span", "note", "tinit", "more", "t2",
                 "fuses", "more2", "t3", "t4", "span2", "fuses5")

    def __init__(self, word, csr, regs, t0=0, t1=0, flags=0, span=(0, 0), note="", more=(), t2=0,
                 more2=(), t3=0, t4=0, span2=(0, 0)):
        self.word = word & 0xFFFFFFFF
        # a sequence: the two words run after word (tl.load, tl.xpose), t2 its third address register
        self.more = tuple(w & 0xFFFFFFFF for w in more)
        self.t2 = t2 & MASK64
        # a five-word sequence: the two tl.store after those, t3 and t4 their usual bases, span2
        # the second store's memory (span the first's)
        self.more2 = tuple(w & 0xFFFFFFFF for w in more2)
        self.t3 = t3 & MASK64
        self.t4 = t4 & MASK64
        self.span2 = span2
        self.fuses = False          # directed: QEMU is to run the three words in one pass
        self.fuses5 = False         # directed: QEMU is to run the five words in one pass
        self.csr = [v & MASK64 for v in csr]
        self.regs = regs            # [(tlreg, pool index or NO_POOL)]
        self.t0 = t0 & MASK64
        self.t1 = t1 & MASK64
        self.flags = flags
        self.span = span
        self.note = note
        self.tinit = None           # or the value written to tinit after the CSRs

    def pack(self):
        regs = list(self.regs)[:MAX_REGS]
        rn = [r for r, _ in regs] + [0] * (7 - len(regs))
        pl = [p for _, p in regs] + [NO_POOL] * (8 - len(regs))
        flags = self.flags
        if self.tinit is not None:
            flags |= CF_TINIT | (self.tinit & 0xFF) << CF_TINIT_SHIFT
        more = list(self.more) + [0] * (2 - len(self.more))
        more2 = list(self.more2) + [0] * (2 - len(self.more2))
        return struct.pack(CASE_FMT, self.word, flags, self.t0, self.t1, *self.csr,
                           len(regs), *rn, *pl, self.span[0], self.span[1], *more, self.t2,
                           *more2, self.t3, self.t4, self.span2[0], self.span2[1])

    def copy(self, flags):
        """The same case with other flags (the sequences' warm twins, the tinit variants)."""
        return Case(self.word, self.csr, self.regs, t0=self.t0, t1=self.t1, flags=flags,
                    span=self.span, more=self.more, t2=self.t2, more2=self.more2, t3=self.t3,
                    t4=self.t4, span2=self.span2)

    def t0_abs(self):
        return (self.t0 + ARENA) & MASK64 if self.flags & CF_T0_REL else self.t0

    def t2_abs(self):
        return (self.t2 + ARENA) & MASK64 if self.flags & CF_T2_REL else self.t2

    def t3_abs(self):
        return (self.t3 + ARENA) & MASK64 if self.flags & CF_T3_REL else self.t3

    def t4_abs(self):
        return (self.t4 + ARENA) & MASK64 if self.flags & CF_T4_REL else self.t4

    def gprs(self):
        return {5: self.t0_abs(), 6: self.t1, 7: self.t2_abs(), 28: self.t3_abs(),
                29: self.t4_abs()}

    def spans(self):
        return [sp for sp in (self.span, self.span2) if sp[1] > sp[0]]

    def words(self):
        return (self.word,) + self.more + self.more2


def case_kind(case):
    return SEQ5_KIND if case.more2 else SEQ_KIND if case.more else kind_of(case.word)


def case_disasm(case):
    return "; ".join(T.disasm(w) for w in case.words())


def tm_of(kind):
    return kind in ("tl.mload", "tl.mstore")


def kind_of(word):
    i = T.decode(word)
    if i is None or i.name == "illegal":
        return "reserved"
    if i.name in ("tl.concat", "tl.merge"):
        return "%s.%d" % (i.name, i.dim)
    if i.name == "tl.fillpad":
        return "tl.fillpad.%s" % T.PAD_NAMES[i.pad]
    return i.name


KIND_ORDER = ["tl.load", "tl.mload", "tl.store", "tl.mstore",
              "tl.concat.0", "tl.concat.1", "tl.concat.2",
              "tl.merge.0", "tl.merge.1", "tl.merge.2", "tl.xpose", "tl.addi", "tl.muls",
              "tl.fillpad.zero", "tl.fillpad.min", "tl.fillpad.max", "reserved", SEQ_KIND, SEQ5_KIND]


class Gen:
    """Case builders shared by the random and the directed generators."""

    def __init__(self, rnd, pool_by_type):
        self.r = rnd
        self.by_type = pool_by_type
        self.all_pool = sorted(i for v in pool_by_type.values() for i in v)

    # -- small helpers ----------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pool_for(self, ttype, style=None):
        lst = self.by_type.get(ttype & 0xFFF)
        if not lst or self.chance(0.15):
            lst = self.all_pool
        if style is not None and (ttype & 0xFFF) in self.by_type and not self.chance(0.2):
            k = POOL_STYLES.index(style)
            sub = [p for j, p in enumerate(self.by_type[ttype & 0xFFF])
                   if j % len(POOL_STYLES) == k]
            if sub:
                lst = sub
        return self.r.choice(lst)

    def engine(self, name):
        default = DEFAULT_ENGINE.get(name, 3)
        return default if self.chance(0.5) else self.r.randrange(4)

    def junk32(self):
        c = self.r.random()
        if c < 0.3:
            return self.r.getrandbits(32)
        if c < 0.5:
            return 0
        if c < 0.6:
            return 0xFFFFFFFF
        if c < 0.7:
            return self.r.getrandbits(64)
        return self.r.getrandbits(self.r.randrange(1, 12))

    def maybe_upper(self, v, p=0.05):
        """Sometimes set CSR bits 63:32 (ignored by a 32-bit CSR)."""
        if self.chance(p):
            v |= self.r.getrandbits(32) << 32
        return v

    def csrs(self, **kw):
        """8 CSR values: given ones, junk for the rest."""
        names = ["ttype", "tshape", "mask", "m1", "m2", "stride", "width", "tvalid"]
        out = []
        for n in names:
            if n in kw and kw[n] is not None:
                out.append(self.maybe_upper(kw[n], 0.03))
            else:
                out.append(self.junk32())
        return out

    def regs_with_witnesses(self, used, ttype, styles=None, nwit=None):
        """[(reg, pool)] for the used TL registers plus witnesses."""
        seen = []
        for r in used:
            if r not in seen:
                seen.append(r)
        if nwit is None:
            nwit = self.r.choice((1, 2, 2))
        cands = [(max(seen) + 1) & 31, (min(seen) - 1) & 31]
        for _ in range(nwit):
            w = cands.pop(0) if cands and self.chance(0.7) else self.r.randrange(32)
            if w not in seen and len(seen) < MAX_REGS:
                seen.append(w)
        out = []
        for k, r in enumerate(seen):
            style = styles[k] if styles and k < len(styles) else None
            out.append((r, NO_POOL if self.chance(0.03) else self.pool_for(ttype, style)))
        return out

    def pick_ttype(self):
        c = self.r.random()
        if c < 0.93:
            return self.r.choice(TTYPE_LIST)
        if c < 0.975:
            return self.r.choice(INVALID_TTYPES + [self.r.getrandbits(12)])
        # WARL: bits above 11 are dropped
        return self.r.choice(TTYPE_LIST) | (self.r.getrandbits(20) << 12)

    def tl_reg(self, p0=0.08):
        return 0 if self.chance(p0) else self.r.randrange(1, 32)

    # -- shapes -----------------------------------------------------------
    def shape(self, esz, maxd0=255):
        """A valid (D0, D1, D2) for element size esz, with D0 <= maxd0."""
        cap = 8192 // esz
        r = self.r
        for _ in range(100):
            mode = r.random()
            if mode < 0.25:                       # fills the register exactly
                d0 = 1 << r.randrange(0, min(maxd0, 255).bit_length())
                if d0 > min(maxd0, 255) or cap % d0:
                    continue
                e = cap // d0
                d1s = [1 << k for k in range(0, 9) if (1 << k) <= 255 and e % (1 << k) == 0
                       and e // (1 << k) <= 255]
                if not d1s:
                    continue
                d1 = r.choice(d1s)
                d2 = e // d1
            else:
                c = r.random()
                hi0 = min(maxd0, 255, cap)
                if c < 0.15:
                    d0 = 1
                elif c < 0.25:
                    d0 = hi0
                elif c < 0.8:
                    d0 = r.randrange(1, min(hi0, 32) + 1)
                else:
                    d0 = r.randrange(1, hi0 + 1)
                e = cap // d0
                if e < 1:
                    continue
                d1 = min(255, e, int(2 ** (r.random() * 8)))
                d1 = r.randrange(1, d1 + 1)
                if r.random() < 0.15:
                    d1 = 1
                d2max = min(255, e // d1)
                d2 = r.randrange(1, d2max + 1)
                if r.random() < 0.15:
                    d2 = 1
                elif r.random() < 0.2:
                    d2 = d2max
            if esz == 4 and (d1 * d2) % 2:
                if d2 > 1 and r.random() < 0.5:
                    d2 -= 1
                elif (d2 + 1) <= 255 and d0 * d1 * (d2 + 1) <= cap:
                    d2 += 1
                elif d1 > 1:
                    d1 -= 1
                if (d1 * d2) % 2:
                    continue
            if d0 * d1 * d2 * esz <= 8192 and d0 <= maxd0:
                return d0, d1, d2
        return 1, 2, 2

    def shape_odd4(self, maxd0=32):
        """4-bit shape with an odd D2 and an even D1."""
        for _ in range(100):
            d1 = 2 * self.r.randrange(1, 16)
            d2 = 2 * self.r.randrange(0, 20) + 1
            d0 = self.r.randrange(1, maxd0 + 1)
            if d0 * d1 * d2 <= 2048:
                return d0, d1, d2
        return 1, 2, 3

    def bad_shape(self, esz, maxd0=255):
        """An invalid shape (zero dimension, oversize, or fractional slice)."""
        r = self.r
        c = r.random()
        d0, d1, d2 = self.shape(esz, maxd0)
        if c < 0.3:
            dims = [d0, d1, d2]
            dims[r.randrange(3)] = 0
            return tuple(dims)
        if c < 0.45 and esz == 4:
            d1 = 2 * r.randrange(0, 10) + 1
            d2 = 2 * r.randrange(0, 10) + 1
            return r.randrange(1, maxd0 + 1), d1, d2
        cap = 8192 // esz
        for _ in range(50):   # oversize: d0*d1*d2 > cap
            dims = [d0, d1, d2]
            k = r.randrange(3)
            if k == 0 and maxd0 < 255:
                k = r.randrange(1, 3)
            need = cap // (dims[0] * dims[1] * dims[2] // dims[k]) + 1
            if need <= 255:
                dims[k] = r.randrange(need, min(255, need + 4) + 1) if r.random() < 0.7 \
                    else r.randrange(need, 256)
                if esz == 4 and (dims[1] * dims[2]) % 2:
                    continue
                return tuple(dims)
        return (255, 255, 255)

    @staticmethod
    def shape_val(d):
        return ((d[0] & 0xFF) << 16) | ((d[1] & 0xFF) << 8) | (d[2] & 0xFF)

    # -- memory instructions ---------------------------------------------
    def mem_case(self, kind, ttype, shape, width, stride, mask, imm, tlr, placement,
                 eng=None, note=""):
        """kind in tl.load/mload/store/mstore; shape a tuple or raw tshape
        value; width/stride raw CSR values; placement a mode name or
        ('abs', address) / ('rel', offset)."""
        st = kind in ("tl.store", "tl.mstore")
        tm = kind in ("tl.mload", "tl.mstore")
        if eng is None:
            eng = self.engine(kind)
        imm8 = imm & 0xFF
        word = getattr(T, "encode_" + kind[3:])(tlr, imm8, 5, engine=eng)
        tshape = shape if isinstance(shape, int) else self.shape_val(shape)
        csr = self.csrs(ttype=ttype, tshape=tshape, mask=mask, stride=stride, width=width)
        # the geometry the model will use (when legal)
        d0 = (tshape >> 16) & 0xFF
        w = width & 0xFFFFFFFF
        p = T.sext(stride & 0xFFFFFFFF, 32)
        m = (mask & 0xFFFFFFFF) if tm else 0xFFFFFFFF
        simm = T.sext(imm8, 8)
        sane = 1 <= w <= 1024 and d0 >= 1
        sel = [i for i in range(min(d0, 32)) if (m >> i) & 1] if sane else []
        flags = CF_MEMCHK | CF_T0_REL
        span = (0, 0)
        if isinstance(placement, tuple):
            if placement[0] == "abs":
                t0 = placement[1]
                flags &= ~CF_T0_REL
            else:
                t0 = placement[1]
            base = (t0 + ARENA) & MASK64 if flags & CF_T0_REL else t0
        else:
            if sel:
                offs = [simm * w + i * p for i in sel]
                lo, hi = min(offs), max(offs) + w
            else:
                lo, hi = 0, max(w, 1) if sane else 1
            base = self.place(placement, lo, hi, w, st)
            if base is None:
                base = self.place("random", lo, hi, w, st)
            if base is None:
                raise ValueError("memory case extent %d does not fit the arena window" % (hi - lo))
            if placement == "far":
                t0 = base
                flags &= ~CF_T0_REL
            else:
                t0 = (base - ARENA) & MASK64
        if st:
            if sel:
                addrs = [(base + simm * w + i * p) & MASK64 for i in sel]
                lo = min(addrs) - 64
                hi = max(addrs) + w + 64
            else:
                lo, hi = base - 64, base + 64 + min(w, 4096)
            lo, hi = max(lo, ARENA), min(hi, GUARD_HI)
            if lo < hi:
                span = (lo, hi)
        regs = self.regs_with_witnesses([tlr], ttype)
        return Case(word, csr, regs, t0=t0, t1=self.r.getrandbits(64), flags=flags,
                    span=span, note=note)

    def place(self, mode, lo, hi, w, is_store):
        """Absolute base address so that [base+lo, base+hi) suits mode."""
        r = self.r
        ext = hi - lo
        if mode == "far":
            if r.random() < 0.7:
                start = (1 << 64) - r.randrange(1, 0x8000)
            elif r.random() < 0.5:
                start = r.randrange(FAR_HI, 1 << 64)
            else:
                start = 1 << 63
            if ext > 0x8000:
                return None
            return (start - lo) & MASK64
        if ext > MAP_LEN:
            return None
        if mode == "clean":
            regions = WRITABLE if is_store else [(ARENA, HOLE), (HOLE + PAGE, GUARD_HI)]
            fits = [(a, b) for a, b in regions if b - a >= ext]
            if not fits:
                return None
            a, b = r.choice(fits)
            start = a + r.randrange(0, b - a - ext + 1)
            if r.random() < 0.3:  # against an edge of the region
                start = a if r.random() < 0.5 else b - ext
            return start - lo
        if mode == "lastfault":
            # the top of the extent crosses into the upper guard page, or the
            # bottom into the lower one
            k = r.randrange(1, max(w, 1) + 1)
            if r.random() < 0.6:
                start = GUARD_HI + k - ext
            else:
                start = ARENA - k
            if start < MAP_BASE or start + ext > MAP_END:
                return None
            return start - lo
        if mode in ("hole", "ro"):
            page = HOLE if mode == "hole" else RO
            edge = page if r.random() < 0.5 else page + PAGE
            start = edge - r.randrange(0, ext + 1) if ext else edge
            start = max(MAP_BASE, min(start, MAP_END - ext))
            return start - lo
        # random
        return MAP_BASE + r.randrange(0, MAP_LEN - ext + 1) - lo

    def random_mem(self, kind):
        ttype, tshape, w, p, mask, imm, placement = self.random_mem_params(kind)
        return self.mem_case(kind, ttype, tshape, w, p, mask, imm, self.tl_reg(), placement)

    def random_mem_params(self, kind):
        """(ttype, tshape, width, stride, mask, imm, placement) of a random memory case."""
        r = self.r
        ttype = self.pick_ttype()
        esz = esz_of(ttype)
        c = r.random()
        if c < 0.84:
            shape = self.shape_odd4() if esz == 4 and r.random() < 0.15 else self.shape(esz, 32)
        elif c < 0.92:
            d = list(self.shape(esz, 255))
            if d[0] <= 32:
                d[0] = r.randrange(33, 65)
                while d[0] * d[1] * d[2] * esz > 8192 and (d[1] > 1 or d[2] > 1):
                    if d[1] > 1:
                        d[1] //= 2
                    else:
                        d[2] //= 2
                if esz == 4 and (d[1] * d[2]) % 2:
                    d[2] += 1
            shape = tuple(d)
        else:
            shape = self.bad_shape(esz, 32)
        tshape = self.shape_val(shape)
        if r.random() < 0.03:
            tshape |= r.getrandbits(8) << 24         # WARL bits
        d0, d1, d2 = shape
        s = max(1, d1 * d2 * esz // 8)
        c = r.random()
        if c < 0.5:
            w = s
        elif c < 0.8:
            w = r.randrange(1, s + 1)
        elif c < 0.86:
            w = 1 if r.random() < 0.5 else max(1, s - 1)
        elif c < 0.9:
            w = (1 << 32) + s if r.random() < 0.5 else s | (r.getrandbits(32) << 32)
        else:
            w = r.choice([0, s + 1, s + r.randrange(1, 64), 0xFFFFFFFF, 1025, 0x80000000])
        wv = w & 0xFFFFFFFF
        wv = wv if 1 <= wv <= 1024 else s
        c = r.random()
        if c < 0.35:
            p = wv
        elif c < 0.45:
            p = s
        elif c < 0.53:
            p = 0
        elif c < 0.68:
            p = -r.choice([wv, s, r.randrange(1, 2 * s + 1), r.randrange(1, 4096)])
        elif c < 0.83:
            p = wv + r.randrange(1, s + 64)
        elif c < 0.93:
            p = r.randrange(1, wv + 1)
        else:
            p = r.choice([r.randrange(1, 4096), -r.randrange(1, 4096), 2048, -2048])
        p &= 0xFFFFFFFF
        if r.random() < 0.03:
            p |= r.getrandbits(32) << 32
        c = r.random()
        if c < 0.55:
            imm = 0
        elif c < 0.85:
            imm = r.randrange(-4, 5)
        else:
            imm = r.randrange(-128, 128)
        # keep the extent in the mapped window most of the time
        if abs(imm) * wv > 40000 and r.random() < 0.9:
            imm = r.randrange(-4, 5)
        c = r.random()
        if c < 0.25:
            mask = 0xFFFFFFFF
        elif c < 0.55:
            mask = r.getrandbits(32)
        elif c < 0.65:
            mask = 1 << r.randrange(min(d0, 32) or 1)
        elif c < 0.75:
            mask = (1 << r.randrange(0, 33)) - 1
        elif c < 0.82:
            mask = 0
        elif c < 0.9:
            mask = r.getrandbits(32) & ~((1 << min(d0, 32)) - 1)   # only bits >= D0
        else:
            mask = r.getrandbits(32) | (r.getrandbits(32) << 32)
        # the selected slices must stay inside the mapped window (or the far band)
        sel = [i for i in range(min(d0, 32)) if (mask >> i) & 1] if tm_of(kind) else \
            list(range(min(d0, 32)))
        ps = T.sext(p & 0xFFFFFFFF, 32)
        if sel and 1 <= (w & 0xFFFFFFFF) <= 1024:
            offs = [imm * wv + i * ps for i in sel]
            if max(offs) - min(offs) + wv > 0x8000:
                p, imm = wv, 0
        c = r.random()
        placement = ("clean" if c < 0.55 else "lastfault" if c < 0.72 else
                     "hole" if c < 0.79 else "ro" if c < 0.86 else
                     "far" if c < 0.89 else "random")
        return ttype, tshape, w, p, mask, imm, placement

    # -- tl.load; tl.load; tl.xpose (the tile API's transpose and interleave) --
    def seq_case(self, ttype, tshape, width, stride, imm1, imm2, tlr1, tlr2, placement1,
                 second, dims_val, f5, xr1, xr2, canonical=False, note=""):
        """tl.load tlr1, imm1(t0); tl.load tlr2, imm2(t2); tl.xpose xr1, xr2, t1 (funct5 f5),
        unmasked, one set of CSRs.  placement1 places the first load's slices (mem_case);
        second is "adjacent" (t2 right after them), "same" (t2 = t0), ("delta", d)
        (t2 = t0 + d) or a placement of the second load's own.  canonical: each word in its
        own engine (else any, as the other cases)."""
        eng = (lambda name: DEFAULT_ENGINE.get(name, 3)) if canonical else self.engine
        first = self.mem_case("tl.load", ttype, tshape, width, stride, 0xFFFFFFFF, imm1, tlr1,
                              placement1, eng=eng("tl.load"))
        flags = first.flags
        base_rel = flags & CF_T0_REL
        # the second load's slices from t2, [lo, hi), when its geometry is legal
        d0 = (tshape >> 16) & 0xFF
        w, p = width & 0xFFFFFFFF, T.sext(stride & 0xFFFFFFFF, 32)
        offs = [T.sext(imm2 & 0xFF, 8) * w + i * p for i in range(min(d0, 32))] \
            if 1 <= w <= 1024 and d0 >= 1 else [0]
        lo, hi = min(offs), max(offs) + max(w, 1)
        relative = second in ("adjacent", "same") or (isinstance(second, tuple) and
                                                       second[0] == "delta")
        if relative:
            d = 0 if second == "same" else max(d0, 1) * p if second == "adjacent" else second[1]
            t2 = (first.t0 + d) & MASK64
            t2_abs = (t2 + ARENA) & MASK64 if base_rel else t2
            if base_rel and MAP_BASE <= t2_abs + lo and t2_abs + hi <= MAP_END:
                flags |= CF_T2_REL
            elif base_rel or not (t2_abs + lo >= FAR_HI and t2_abs + hi <= 1 << 64):
                # outside the window the model knows (its mapped pages and the far band)
                relative, second = False, "clean"
        if not relative:
            other = self.mem_case("tl.load", ttype, tshape, width, stride, 0xFFFFFFFF, imm2, tlr2,
                                  second)
            t2 = other.t0
            if other.flags & CF_T0_REL:
                flags |= CF_T2_REL
        w2 = T.encode_load(tlr2, imm2 & 0xFF, 7, engine=eng("tl.load"))
        w3 = T.encode_xpose(xr1, xr2, 6, f5 & 3, f5 >> 2, engine=eng("tl.xpose"))
        regs = self.regs_with_witnesses(sorted({tlr1, tlr2, xr1, xr2}), ttype)
        return Case(first.word, first.csr, regs, t0=first.t0, t1=dims_val, flags=flags,
                    note=note, more=(w2, w3), t2=t2)

    def random_seq(self):
        return self.seq_case(*self.random_seq_params())

    def random_seq_params(self):
        """The arguments of seq_case for a random sequence, mostly as the tile API issues it."""
        r = self.r
        if r.random() < 0.6:
            # as the tile API issues it: D0 <= 32 slices of W bytes that make one register
            ttype = self.pick_ttype()
            esz = esz_of(ttype)
            w = r.choice([32, 64, 128, 256, 512, 1024])
            d0 = 1024 // w
            epr = w * 8 // esz                       # elements per slice
            d1 = r.choice([k for k in (1, 2, 4, 8) if epr % k == 0 and epr // k <= 255] or [1])
            d2 = epr // d1
            if d2 > 255:
                d1, d2 = epr // 128, 128
            tshape = self.shape_val((d0, d1, d2))
            c = r.random()
            stride = w if c < 0.6 else w * r.choice([2, 3, 8]) if c < 0.85 else \
                r.choice([w + 8, -w, 0, 2048])
            imm1 = 0 if r.random() < 0.7 else r.randrange(-3, 4)
            imm2 = 0 if r.random() < 0.7 else r.randrange(-3, 4)
            placement1 = "clean" if r.random() < 0.85 else r.choice(["lastfault", "hole", "ro"])
        else:
            ttype, tshape, w, stride, _, imm1, placement1 = self.random_mem_params("tl.load")
            imm2 = imm1 if r.random() < 0.5 else r.randrange(-4, 5)
            esz = esz_of(ttype)
        c = r.random()
        second = ("adjacent" if c < 0.3 else "same" if c < 0.36 else
                  ("delta", r.choice([1, 8, 64, -64, 512, -1024, 4096])) if c < 0.46 else
                  "clean" if c < 0.8 else r.choice(["lastfault", "hole", "ro", "far", "random"]))
        d = self.xpose_dims(esz)
        c = r.random()
        if c < 0.08:
            d[r.randrange(4)] *= 2                   # product wrong
        elif c < 0.11:
            d = [r.randrange(256) for _ in range(4)]
        dims_val = self.dims_val(d)
        c = r.random()
        if c < 0.82:
            tlr1, tlr2 = r.sample(range(1, 32), 2)
        elif c < 0.88:
            tlr1 = tlr2 = r.randrange(1, 32)
        else:
            tlr1, tlr2 = (0, r.randrange(1, 32)) if r.random() < 0.5 else (r.randrange(1, 32), 0)
        c = r.random()
        xr1, xr2 = ((tlr1, tlr2) if c < 0.85 else (tlr2, tlr1) if c < 0.92 else
                    tuple(r.sample(range(32), 2)))
        f5 = r.randrange(16) if r.random() < 0.95 else r.randrange(16, 32)
        return (ttype, tshape, w, stride, imm1, imm2, tlr1, tlr2, placement1, second, dims_val, f5,
                xr1, xr2)

    # -- ... and tl.store A; tl.store B after them --------------------------
    def seq5_case(self, seq_args, st1, st2, sregs=None, imms=(0, 0), bases=(28, 29),
                  canonical=False, note=""):
        """seq_case(*seq_args, canonical), then tl.store sregs[0], imms[0](x[bases[0]]);
        tl.store sregs[1], imms[1](x[bases[1]]) (sregs: the xpose's registers unless given;
        bases: t3, t4 or the loads' t0, t2).  st1, st2 place t3 and t4: a placement of mem_case
        for a store, ("from1", d) (t0 + d), ("from2", d) (t2 + d) or, for t4, ("from3", d)
        (t3 + d).  A relative placement whose store would leave the mapped window becomes
        "clean"; a store through t0, t2 or t3 (not its own register) that would leave it takes
        its own register."""
        c = self.seq_case(*seq_args, canonical=canonical, note=note)
        ttype, tshape, width, stride = seq_args[0], seq_args[1], seq_args[2], seq_args[3]
        xr1, xr2 = seq_args[12], seq_args[13]
        eng = (lambda name: DEFAULT_ENGINE.get(name, 3)) if canonical else self.engine
        sr = sregs or (xr1, xr2)
        d0 = (tshape >> 16) & 0xFF
        w, p = width & 0xFFFFFFFF, T.sext(stride & 0xFFFFFFFF, 32)
        sane = 1 <= w <= 1024 and d0 >= 1
        flags = c.flags
        vals = {5: c.t0, 7: c.t2}
        rel = {5: bool(flags & CF_T0_REL), 7: bool(flags & CF_T2_REL)}

        def reach(k):
            """[lo, hi): the bytes store k may write, as offsets from its base register."""
            simm = T.sext(imms[k] & 0xFF, 8)
            offs = [simm * w + i * p for i in range(min(d0, 32))] if sane else [0]
            return min(offs), max(offs) + (w if sane else 1)

        def absolute(gpr):
            return (vals[gpr] + ARENA) & MASK64 if rel[gpr] else vals[gpr]

        def in_window(base, k):
            """Store k through base writes only inside the mapped window."""
            lo, hi = reach(k)
            return MAP_BASE <= base + lo and base + hi <= MAP_END

        for k, (st, gpr, relflag) in enumerate(((st1, 28, CF_T3_REL), (st2, 29, CF_T4_REL))):
            if isinstance(st, tuple) and st[0] in ("from1", "from2", "from3"):
                src = {"from1": 5, "from2": 7, "from3": 28}[st[0]]
                v = (vals[src] + st[1]) & MASK64
                a = (v + ARENA) & MASK64 if rel[src] else v
                if rel[src] and in_window(a, k):
                    vals[gpr], rel[gpr] = v, True
                    continue
                st = "clean"
            other = self.mem_case("tl.store", ttype, tshape, width, stride, 0xFFFFFFFF, imms[k],
                                  sr[k], st)
            vals[gpr], rel[gpr] = other.t0, bool(other.flags & CF_T0_REL)
        for gpr, relflag in ((28, CF_T3_REL), (29, CF_T4_REL)):
            flags = flags | relflag if rel[gpr] else flags & ~relflag
        # A store through a register placed for another access (a load's t0 or t2, or t3 with
        # the second store's offset) may reach past the mapped window, where the process may
        # or may not have memory: such a store takes its own register t3 or t4 instead.
        bases = list(bases)
        for k, own in enumerate((28, 29)):
            if bases[k] != own and not in_window(absolute(bases[k]), k):
                bases[k] = own
        words = tuple(T.encode_store(sr[k], imms[k] & 0xFF, bases[k], engine=eng("tl.store"))
                      for k in range(2))
        spans = []
        for k in range(2):
            b = absolute(bases[k])
            simm = T.sext(imms[k] & 0xFF, 8)
            if sane:
                addrs = [(b + simm * w + i * p) & MASK64 for i in range(min(d0, 32))]
                lo, hi = min(addrs) - 64, max(addrs) + w + 64
            else:
                lo, hi = b - 64, b + 64 + min(w, 4096)
            lo, hi = max(lo, ARENA), min(hi, GUARD_HI)
            spans.append((lo, hi) if lo < hi else (0, 0))
        regs = self.regs_with_witnesses(sorted({seq_args[6], seq_args[7], xr1, xr2} | set(sr)),
                                        ttype)
        return Case(c.word, c.csr, regs, t0=c.t0, t1=c.t1, flags=flags, span=spans[0],
                    note=note, more=c.more, t2=c.t2, more2=words, t3=vals[28], t4=vals[29],
                    span2=spans[1])

    def random_seq5(self):
        r = self.r
        if r.random() < 0.5:
            return self.random_seq5_tile()
        args = self.random_seq_params()
        xr1, xr2 = args[12], args[13]
        c = r.random()
        st1 = (("from1", 0) if c < 0.12 else ("from2", 0) if c < 0.2 else
               ("from1", r.choice([32, 64, -512, 1024, 2048, 4096])) if c < 0.35 else
               "clean" if c < 0.88 else r.choice(["lastfault", "hole", "ro", "far", "random"]))
        c = r.random()
        st2 = (("from3", r.choice([0, 32, 512, 1024, 2048, -1024])) if c < 0.45 else
               ("from2", 0) if c < 0.53 else ("from1", 0) if c < 0.58 else
               "clean" if c < 0.88 else r.choice(["lastfault", "hole", "ro", "far", "random"]))
        c = r.random()
        sregs = ((xr1, xr2) if c < 0.85 else (xr2, xr1) if c < 0.9 else (xr1, xr1) if c < 0.93
                 else (r.randrange(32), r.randrange(32)))
        imms = tuple(0 if r.random() < 0.7 else r.randrange(-4, 5) for _ in range(2))
        bases = (28 if r.random() < 0.92 else r.choice([5, 7]),
                 29 if r.random() < 0.92 else r.choice([28, 7]))
        return self.seq5_case(args, st1, st2, sregs=sregs, imms=imms, bases=bases)

    def random_seq5_tile(self):
        """Five words as the tile API issues them: a valid type, D0 slices of W bytes that make
        a register, a legal xpose, the sources and outputs in the arena's first run of
        read-write pages (below HOLE), the stores of the xpose's registers at outputs of their
        own or over the sources."""
        r = self.r
        ttype = r.choice(TTYPE_LIST)
        esz = esz_of(ttype)
        w = r.choice([32, 64, 128, 256, 512, 1024])
        d0 = 1024 // w
        epr = w * 8 // esz
        d1 = r.choice([k for k in (1, 2, 4, 8) if epr % k == 0 and epr // k <= 255] or [1])
        d2 = epr // d1
        if d2 > 255:
            d1, d2 = epr // 128, 128
        stride = w if r.random() < 0.7 else 2 * w
        tlr1, tlr2 = r.sample(range(1, 32), 2)
        second = "adjacent" if r.random() < 0.3 else ("rel", r.randrange(0x2000, 0x3800))
        args = (ttype, self.shape_val((d0, d1, d2)), w, stride, 0, 0, tlr1, tlr2,
                ("rel", r.randrange(0, 0x1800)), second, self.dims_val(self.xpose_dims(esz)),
                r.randrange(16), tlr1, tlr2)
        c = r.random()
        st1 = ("from1", 0) if c < 0.15 else ("from2", 0) if c < 0.25 else \
            ("from1", r.randrange(0x4000, 0x4800))
        st2 = ("from2", 0) if st1 == ("from1", 0) else \
            ("from3", r.choice([1024, 2048, 0, 512, -1024, 3 * w]))
        imms = tuple(0 if r.random() < 0.8 else r.choice([-1, 1]) for _ in range(2))
        return self.seq5_case(args, st1, st2, imms=imms)

    # -- concat / merge -----------------------------------------------------
    def move_case(self, merge, dim, ttype, shape, m1, m2, rd, rs1, rs2, eng=None,
                  styles=None, note=""):
        name = "tl.merge" if merge else "tl.concat"
        if eng is None:
            eng = self.engine(name)
        word = (T.encode_merge if merge else T.encode_concat)(dim, rd, rs1, rs2, engine=eng)
        tshape = shape if isinstance(shape, int) else self.shape_val(shape)
        csr = self.csrs(ttype=ttype, tshape=tshape, m1=m1, m2=m2)
        regs = self.regs_with_witnesses([rd, rs1, rs2], ttype, styles or ("ramp", "ramp", "ramp"))
        return Case(word, csr, regs, t0=self.r.getrandbits(64), t1=self.r.getrandbits(64),
                    note=note)

    def mask_subset(self, dd, k):
        bits = self.r.sample(range(dd), k) if k else []
        m = 0
        for b in bits:
            m |= 1 << b
        return m

    def junk_above(self, m, dd):
        if dd < 32 and self.chance(0.3):
            m |= self.r.getrandbits(32) & ~((1 << dd) - 1) & 0xFFFFFFFF
        return m

    def three_regs(self):
        r = self.r
        c = r.random()
        a, b, d = r.sample(range(1, 32), 3)
        if c < 0.45:
            return d, a, b
        if c < 0.55:
            return a, a, b
        if c < 0.65:
            return b, a, b
        if c < 0.72:
            return d, a, a
        if c < 0.8:
            return a, a, a
        regs = [d, a, b]
        regs[r.randrange(3)] = 0
        if r.random() < 0.2:
            regs[r.randrange(3)] = 0
        return tuple(regs)

    def random_move(self, merge, dim):
        r = self.r
        ttype = self.pick_ttype()
        esz = esz_of(ttype)
        c = r.random()
        shape = None
        if c < 0.85:
            for _ in range(30):
                shape = self.shape_odd4() if esz == 4 and r.random() < 0.1 else self.shape(esz)
                if shape[dim] <= 32:
                    break
        elif c < 0.93:
            shape = self.shape(esz)
        else:
            shape = self.bad_shape(esz)
        dd = max(1, min(shape[dim], 32))
        if merge:
            c = r.random()
            m1 = (r.getrandbits(32) if c < 0.6 else 0 if c < 0.7 else 0xFFFFFFFF if c < 0.8
                  else self.mask_subset(dd, r.randrange(dd + 1)))
            m2 = self.junk32()
        else:
            if r.random() < 0.9:
                k1 = r.randrange(dd + 1)
                k2 = r.randrange(dd - k1 + 1)
                if r.random() < 0.2:
                    k2 = dd - k1
            else:
                k1 = r.randrange(dd + 1)
                k2 = r.randrange(max(0, dd - k1 + 1), dd + 1) if dd - k1 + 1 <= dd else dd
            m1 = self.junk_above(self.mask_subset(dd, k1), dd)
            m2 = self.junk_above(self.mask_subset(dd, k2), dd)
        tshape = self.shape_val(shape)
        if r.random() < 0.03:
            tshape |= r.getrandbits(8) << 24
        rd, rs1, rs2 = self.three_regs()
        styles = [r.choice(POOL_STYLES) for _ in range(3)]
        return self.move_case(merge, dim, ttype, tshape, m1, m2, rd, rs1, rs2, styles=styles)

    # -- xpose --------------------------------------------------------------
    def xpose_case(self, f5, ttype, dims_val, rs1, rs2, eng=None, note=""):
        if eng is None:
            eng = self.engine("tl.xpose")
        word = T.encode_xpose(rs1, rs2, 6, f5 & 3, f5 >> 2, engine=eng)
        csr = self.csrs(ttype=ttype)
        regs = self.regs_with_witnesses([rs1, rs2], ttype, ("ramp", "ramp"))
        return Case(word, csr, regs, t0=self.r.getrandbits(64), t1=dims_val, note=note)

    def xpose_dims(self, esz):
        """Valid [D0..D3] (powers of two, D0 even) for 2048 bytes."""
        total = {4: 12, 8: 11, 16: 10, 32: 9}[esz]
        r = self.r
        while True:
            e0 = r.randrange(1, 8)
            e1 = r.randrange(0, 8)
            e2 = r.randrange(0, 8)
            e3 = total - e0 - e1 - e2
            if 0 <= e3 <= 7:
                ex = [e0, e1, e2, e3]
                return [1 << x for x in ex]

    @staticmethod
    def dims_val(d):
        return ((d[3] & 0xFF) << 24) | ((d[2] & 0xFF) << 16) | ((d[1] & 0xFF) << 8) | (d[0] & 0xFF)

    def random_xpose(self):
        r = self.r
        ttype = self.pick_ttype()
        esz = esz_of(ttype)
        d = self.xpose_dims(esz)
        c = r.random()
        if c < 0.05:                       # D0 odd (the product still fits)
            d[1] *= d[0]
            d[0] = 1
            if d[1] > 255:
                d[1] //= 2
                d[2] *= 2
        elif c < 0.1:                      # product wrong
            k = r.randrange(4)
            d[k] = d[k] * 2 if d[k] < 128 else d[k] // 2
            if r.random() < 0.3:
                d[k] = 3 * d[k] // 2 or 3
        elif c < 0.13:
            d[r.randrange(4)] = 0
        elif c < 0.15:
            d = [r.randrange(256) for _ in range(4)]
        v = self.dims_val(d)
        if r.random() < 0.2:
            v |= r.getrandbits(32) << 32    # bits 63:32 are ignored
        c = r.random()
        if c < 0.86:
            rs1, rs2 = r.sample(range(1, 32), 2)
        elif c < 0.92:
            rs1 = rs2 = r.randrange(32)
        else:
            rs1, rs2 = (0, r.randrange(1, 32)) if r.random() < 0.5 else (r.randrange(1, 32), 0)
        f5 = r.randrange(16)
        return self.xpose_case(f5, ttype, v, rs1, rs2)

    # -- arithmetic ---------------------------------------------------------
    def addi_case(self, ttype, imm, rd, rs, eng=None, style=None, funct2=0, note=""):
        if eng is None:
            eng = self.engine("tl.addi")
        word = T.encode_addi(rd, rs, imm, engine=eng, funct2=funct2)
        csr = self.csrs(ttype=ttype)
        regs = self.regs_with_witnesses([rd, rs], ttype, (style, style))
        return Case(word, csr, regs, t0=self.r.getrandbits(64), t1=self.r.getrandbits(64),
                    note=note)

    def two_regs(self):
        r = self.r
        c = r.random()
        if c < 0.6:
            a, b = r.sample(range(1, 32), 2)
            return a, b
        if c < 0.85:
            a = r.randrange(1, 32)
            return a, a
        if c < 0.93:
            return r.randrange(1, 32), 0
        return 0, r.randrange(32)

    def random_addi(self):
        r = self.r
        ttype = self.pick_ttype()
        imm = r.choice([0, 1, -1, 127, -128, 5, -5, 64, -64, 2, 3, -3]) if r.random() < 0.5 \
            else r.randrange(-128, 128)
        rd, rs = self.two_regs()
        return self.addi_case(ttype, imm, rd, rs, style=r.choice(POOL_STYLES))

    def muls_case(self, ttype, scalar, rd, rs, eng=None, style=None, note=""):
        if eng is None:
            eng = self.engine("tl.muls")
        word = T.encode_muls(rd, rs, 6, engine=eng)
        csr = self.csrs(ttype=ttype)
        regs = self.regs_with_witnesses([rd, rs], ttype, (style, style))
        return Case(word, csr, regs, t0=self.r.getrandbits(64), t1=scalar, note=note)

    F32_SPECIAL = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000,
                   0x40000000, 0x40400000, 0x3FC00000, 0xC0400000, 0x7F800000, 0xFF800000,
                   0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x00000001, 0x80000001,
                   0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3EAAAAAB, 0x3F7FFFFF,
                   0x3F800001, 0x4B000000, 0x33800000, 0x34000000, 0x2F800000, 0x5F800000,
                   0x47800000, 0x43E00000, 0x3DCCCCCD, 0x41200000, 0xC1200000, 0x3E800000,
                   0x3F400000, 0x3FA00000, 0x3F900000, 0x42C80000]

    def muls_scalar(self, ttype):
        r = self.r
        et = ET.get(ttype & 0xFFF)
        if et is not None and et.fmt is not None:
            c = r.random()
            if c < 0.6:
                v = r.choice(self.F32_SPECIAL)
            elif c < 0.75:
                v = r.getrandbits(32)
            else:   # 2^k with k around the format's range, random sign/mantissa bits
                v = ((127 + r.randrange(-30, 31)) << 23) | (r.getrandbits(23) if r.random() < 0.5
                                                           else 0)
                v |= r.getrandbits(1) << 31
            if r.random() < 0.2:
                v |= r.getrandbits(32) << 32
            return v
        esz = et.esz if et else 8
        top = (1 << esz) - 1
        return r.choice([0, 1, 2, 3, r.randrange(0, 17), top, top + 1, top + 2, top // 2,
                         1 << 63, MASK64, r.getrandbits(64), r.getrandbits(r.randrange(1, 64)),
                         255, 256, 65535, 65536, 1 << 32])

    def random_muls(self):
        r = self.r
        ttype = self.pick_ttype()
        rd, rs = self.two_regs()
        return self.muls_case(ttype, self.muls_scalar(ttype), rd, rs,
                              style=r.choice(POOL_STYLES))

    # -- fillpad ------------------------------------------------------------
    def fillpad_case(self, pp, ttype, shape, tvalid, rd, rs, eng=None, b24=0, note=""):
        if eng is None:
            eng = self.engine("tl.fillpad")
        word = T.encode_fields(T.FUNCT3_FILLPAD, pp, b24, rs, rd, engine=eng)
        tshape = shape if isinstance(shape, int) else self.shape_val(shape)
        tv = tvalid if isinstance(tvalid, int) else self.shape_val(tvalid)
        csr = self.csrs(ttype=ttype, tshape=tshape, tvalid=tv)
        regs = self.regs_with_witnesses([rd, rs], ttype, ("special", "special"))
        return Case(word, csr, regs, t0=self.r.getrandbits(64), t1=self.r.getrandbits(64),
                    note=note)

    def random_fillpad(self, pp):
        r = self.r
        ttype = self.pick_ttype()
        esz = esz_of(ttype)
        c = r.random()
        if c < 0.9:
            shape = self.shape_odd4() if esz == 4 and r.random() < 0.1 else self.shape(esz)
        else:
            shape = self.bad_shape(esz)
        v = []
        for di in shape:
            c = r.random()
            v.append(0 if c < 0.15 else di if c < 0.45 else r.randrange(0, di + 1))
        if r.random() < 0.08:
            k = r.randrange(3)
            v[k] = min(255, shape[k] + r.randrange(1, 4))
        tv = self.shape_val(v)
        if r.random() < 0.05:
            tv |= r.getrandbits(8) << 24
        rd, rs = self.two_regs()
        return self.fillpad_case(pp, ttype, shape, tv, rd, rs)

    # -- reserved encodings ---------------------------------------------------
    def random_reserved(self):
        r = self.r
        eng = r.randrange(4)
        a, b, c5 = r.randrange(32), r.randrange(32), r.randrange(32)
        k = r.randrange(10)
        F = T.encode_fields
        if k < 2:        # funct3 110 / 111
            f7 = r.getrandbits(7)
            f3 = 6 + k
            word = F(f3, f7 & 0x1F, b, a, c5, engine=f7 >> 5)
        elif k == 2:     # concat/merge funct5[4:2] not 000/001
            f5 = (r.randrange(2, 8) << 2) | r.randrange(4)
            word = F(T.FUNCT3_MOVE, f5, b, a, c5, engine=eng)
        elif k == 3:     # DD = 11
            f5 = (r.randrange(2) << 2) | 3
            word = F(T.FUNCT3_MOVE, f5, b, a, c5, engine=eng)
        elif k == 4:     # addi funct2 != 00
            funct2 = r.randrange(1, 4)
            word = T.encode_addi(c5, a, r.getrandbits(8), engine=eng, funct2=funct2)
        elif k == 5:     # xpose funct5[4] = 1
            f5 = 0x10 | r.randrange(16)
            word = F(T.FUNCT3_XPOSE, f5, b, a, 6, engine=eng)
        elif k == 6:     # muls funct5 != 0
            f5 = r.randrange(1, 32)
            word = F(T.FUNCT3_MULS, f5, 6, a, c5, engine=eng)
        elif k == 7:     # fillpad funct5[4:2] != 000
            f5 = (r.randrange(1, 8) << 2) | r.randrange(3)
            word = F(T.FUNCT3_FILLPAD, f5, 0, a, c5, engine=eng)
        elif k == 8:     # fillpad PP = 11
            word = F(T.FUNCT3_FILLPAD, 3, 0, a, c5, engine=eng)
        else:            # fillpad [24:20] != 0
            pp = r.randrange(3)
            word = F(T.FUNCT3_FILLPAD, pp, r.randrange(1, 32), a, c5, engine=eng)
        return self.reserved_case(word)

    def reserved_case(self, word, ttype=None, note=""):
        r = self.r
        if ttype is None:
            ttype = r.choice(TTYPE_LIST)
        esz = ET[ttype].esz
        shape = self.shape(esz)
        # a state in which the nearest legal sibling could run
        csr = self.csrs(ttype=ttype, tshape=self.shape_val(shape), tvalid=self.shape_val(shape),
                        width=None, stride=None)
        used = [(word >> 7) & 31, (word >> 15) & 31, (word >> 20) & 31]
        regs = self.regs_with_witnesses(used, ttype)
        return Case(word, csr, regs, t0=r.randrange(0, ARENA_LEN), t1=r.getrandbits(64),
                    flags=CF_T0_REL | CF_MEMCHK, note=note)


RANDOM_KINDS = [("tl.load", 8), ("tl.mload", 8), ("tl.store", 8), ("tl.mstore", 8),
                ("tl.concat.0", 4), ("tl.concat.1", 4), ("tl.concat.2", 4),
                ("tl.merge.0", 4), ("tl.merge.1", 4), ("tl.merge.2", 4),
                ("tl.xpose", 10), ("tl.addi", 8), ("tl.muls", 8),
                ("tl.fillpad.zero", 4), ("tl.fillpad.min", 4), ("tl.fillpad.max", 4),
                ("reserved", 3), (SEQ_KIND, 6), (SEQ5_KIND, 6)]
_KIND_CUM = []
_acc = 0
for _k, _w in RANDOM_KINDS:
    _acc += _w
    _KIND_CUM.append((_acc, _k))


def set_env_flags(case, frm, nops):
    """frm value set before the instruction and nops in front of it."""
    case.flags = (case.flags & 0xFF) | (frm << CF_FRM_SHIFT) | (nops << CF_NOPS_SHIFT)
    return case


def random_case(seed, index, pool_by_type):
    rnd = random.Random("tl-diff:%d:%d" % (seed, index))
    c = random_case_body(rnd, pool_by_type)
    set_env_flags(c, rnd.choice((0, 0, 0, 1, 2, 3, 4, 5, 7)), rnd.randrange(4))
    # half of the memory instructions (most sequences) after an access to their
    # memory, as in a program: QEMU's inline and fused paths then apply
    kind = case_kind(c)
    if kind in ("tl.load", "tl.mload", "tl.store", "tl.mstore", SEQ_KIND, SEQ5_KIND) and \
            rnd.random() < (0.8 if kind in (SEQ_KIND, SEQ5_KIND) else 0.5):
        c.flags |= CF_WARM
    if rnd.random() < 0.1:
        # some CSRs uninitialized (or cleared to 0) through tinit; memory
        # instructions keep the width and stride the case was placed with
        # (their defaults would move the access off the checked span)
        c.tinit = rnd.getrandbits(8)
        if case_kind(c) in ("tl.load", "tl.mload", "tl.store", "tl.mstore", SEQ_KIND, SEQ5_KIND):
            c.tinit |= 0x60
    return c


def random_case_body(rnd, pool_by_type):
    g = Gen(rnd, pool_by_type)
    x = rnd.randrange(_acc)
    kind = next(k for c, k in _KIND_CUM if x < c)
    if kind in ("tl.load", "tl.mload", "tl.store", "tl.mstore"):
        return g.random_mem(kind)
    if kind.startswith("tl.concat") or kind.startswith("tl.merge"):
        return g.random_move(kind.startswith("tl.merge"), int(kind[-1]))
    if kind == "tl.xpose":
        return g.random_xpose()
    if kind == SEQ_KIND:
        return g.random_seq()
    if kind == SEQ5_KIND:
        return g.random_seq5()
    if kind == "tl.addi":
        return g.random_addi()
    if kind == "tl.muls":
        return g.random_muls()
    if kind.startswith("tl.fillpad"):
        return g.random_fillpad(T.PAD_NAMES.index(kind.split(".")[2]))
    return g.random_reserved()


# ---------------------------------------------------------------------------
# Directed cases
# ---------------------------------------------------------------------------

DIRECTED_SEED = 0x7D1EC7ED


def full_shapes(esz, maxd0):
    """Shapes that fill exactly 1024 bytes, one per D0 power of two."""
    cap = 8192 // esz
    out = []
    d0 = 1
    while d0 <= maxd0 and d0 <= cap:
        e = cap // d0
        d1 = 1
        while e // d1 > 255:
            d1 *= 2
        if d1 <= 255:
            out.append((d0, d1, e // d1))
        d0 *= 4 if d0 >= 2 else 2
    return out


def directed_cases(pool_by_type):
    """The deterministic directed set (list of Case)."""
    rnd = random.Random("tl-diff-directed")
    g = Gen(rnd, pool_by_type)
    cases = []

    def add(c, note):
        c.note = note
        n = len(cases)
        set_env_flags(c, (n * 3) % 8, (n // 7) % 4)
        cases.append(c)

    for ttype in TTYPE_LIST:
        et = ET[ttype]
        esz = et.esz
        tn = et.name
        small = (1, 1, 2) if esz == 4 else (1, 1, 1)
        odd = (3, 2, 5) if esz == 4 else (3, 5, 7)
        # ---------------- memory ----------------
        for kind in ("tl.load", "tl.mload", "tl.store", "tl.mstore"):
            shapes = [small, odd, (32, 1, 1 if esz > 4 else 2)] + full_shapes(esz, 32)
            for sh in shapes:
                s = sh[1] * sh[2] * esz // 8
                for (w, p, what) in ((s, s, "W=S P=W"), (max(1, s // 2), s, "partial W"),
                                     (1, s + 3, "W=1 P>W"), (s, 0, "P=0"),
                                     (s, -s & 0xFFFFFFFF, "P=-S"), (max(1, s - 1), 2 * s + 5,
                                                                    "P>S")):
                    for mask, mw in ((0xFFFFFFFF, "all"), (0xA5A5A5A5, "0xA5A5A5A5"),
                                     (((1 << 32) - 1) ^ ((1 << sh[0]) - 1) if sh[0] < 32 else 0,
                                      "bits>=D0 only")):
                        if kind in ("tl.load", "tl.store") and mw != "all":
                            continue
                        add(g.mem_case(kind, ttype, sh, w, p, mask, 0, 1 + len(cases) % 31,
                                       "clean", eng=DEFAULT_ENGINE[kind]),
                            "%s %s shape %s %s mask %s" % (kind, tn, sh, what, mw))
            sh = full_shapes(esz, 32)[-1]
            s = sh[1] * sh[2] * esz // 8
            for imm in (1, -1, 3, -2, 127, -128):
                add(g.mem_case(kind, ttype, sh if abs(imm) < 8 else small,
                               s if abs(imm) < 8 else 1, s, 0xFFFFFFFF, imm, 7, "clean"),
                    "%s %s imm8 %d" % (kind, tn, imm))
            add(g.mem_case(kind, ttype, sh, s, s, 0xFFFFFFFF, 0, 0, "clean"),
                "%s %s tl0" % (kind, tn))
            for pl in ("lastfault", "lastfault", "hole", "ro", "far"):
                add(g.mem_case(kind, ttype, (8, sh[1], sh[2]) if sh[0] >= 8 else sh, s,
                               s + 16, 0xFFFFFFFF, 0, 9, pl), "%s %s fault %s" % (kind, tn, pl))
            add(g.mem_case(kind, ttype, (4, 2, 8), 16 if esz == 8 else 8, 100,
                           0xFFFFFFFF if kind in ("tl.load", "tl.store") else 0, 0, 2,
                           ("abs", GUARD_LO + 8)),
                "%s %s base in guard page (mask 0 for the masked form)" % (kind, tn))
            for sh2, w, why in (((33, 1, 2), 2 * esz // 8 or 1, "D0=33"),
                                ((0, 4, 4), 4, "D0=0"), ((2, 0, 4), 4, "D1=0"),
                                ((4, 4, 4), 0, "W=0"),
                                ((4, 4, 4), 4 * 4 * esz // 8 + 1, "W=S+1"),
                                ((2, 255, 255), 1, "oversize"),
                                ((2, 1, 3), 1, "[2,1,3] (odd nibbles if 4-bit)")):
                add(g.mem_case(kind, ttype, sh2, w, w, 0xFFFFFFFF, 0, 3, "clean"),
                    "%s %s illegal %s" % (kind, tn, why))
        # dense rows of every width of 16-byte columns (W = S = P - 64), the
        # slices of a tile read from or written to a wider matrix
        if esz == 8:
            for kind in ("tl.load", "tl.store"):
                for w in range(16, 1025, 16):
                    add(g.mem_case(kind, ttype, (min(32, 1024 // w), w // 16, 16), w, w + 64,
                                   0xFFFFFFFF, 0, 1 + w // 16 % 31, "clean",
                                   eng=DEFAULT_ENGINE[kind]),
                        "%s %s dense rows W=S=%d P=W+64" % (kind, tn, w))
        # ---------------- concat / merge ----------------
        for merge in (0, 1):
            name = "tl.merge" if merge else "tl.concat"
            for dim in (0, 1, 2):
                shapes = []
                for sh in ([small, odd] + full_shapes(esz, 255)):
                    if sh[dim] <= 32:
                        shapes.append(sh)
                big = [1, 1, 1]
                big[dim] = 32
                rest = (8192 // esz) // 32
                other = [k for k in (0, 1, 2) if k != dim]
                big[other[0]] = min(rest, 16)
                big[other[1]] = rest // big[other[0]]
                shapes.append(tuple(big))
                for sh in shapes:
                    dd = sh[dim]
                    masks = [(0, 0), ((1 << dd) - 1, 0), (0, (1 << dd) - 1),
                             (0b1100 & ((1 << dd) - 1), 0b0011 & ((1 << dd) - 1)),
                             (0xAAAAAAAA & ((1 << dd) - 1), 0x55555555 & ((1 << dd) - 1)),
                             ((0xFFFFFFFF << dd) & 0xFFFFFFFF | 1, (0xFFFFFFFF << dd) & 0xFFFFFFFF)]
                    if not merge:
                        masks.append(((1 << dd) - 1, 1))          # n = Dd + 1: illegal
                    for m1, m2 in masks:
                        add(g.move_case(merge, dim, ttype, sh, m1, m2, 3, 1, 2,
                                        styles=("ramp", "ramp", "ramp")),
                            "%s.%d %s shape %s masks 0x%x 0x%x" % (name, dim, tn, sh, m1, m2))
                sh = shapes[-1]
                dd = sh[dim]
                m1, m2 = 0xAAAAAAAA & ((1 << dd) - 1), 0x5 & ((1 << dd) - 1)
                for rd, r1, r2, why in ((1, 1, 1, "rd=rs1=rs2"), (1, 1, 2, "rd=rs1"),
                                        (2, 1, 2, "rd=rs2"), (0, 1, 2, "rd=tl0"),
                                        (3, 0, 2, "rs1=tl0"), (3, 1, 0, "rs2=tl0")):
                    add(g.move_case(merge, dim, ttype, sh, m1, m2, rd, r1, r2),
                        "%s.%d %s %s" % (name, dim, tn, why))
                bad = [4, 4, 4] if esz > 4 else [4, 4, 4]
                bad[dim] = 33
                if 33 * 16 * esz > 8192:
                    bad = [1, 1, 1]
                    bad[dim] = 33
                    if esz == 4:
                        bad[2 if dim != 2 else 1] = 2
                add(g.move_case(merge, dim, ttype, tuple(bad), 1, 1, 3, 1, 2),
                    "%s.%d %s illegal Dd=33" % (name, dim, tn))
                add(g.move_case(merge, dim, ttype, (0, 4, 4), 1, 1, 3, 1, 2),
                    "%s.%d %s illegal D0=0" % (name, dim, tn))
        # ---------------- xpose ----------------
        total = 16384 // esz
        shapes4 = {4: [[2, 16, 16, 8], [64, 4, 4, 4], [8, 8, 8, 8]],
                   8: [[2, 8, 16, 8], [16, 2, 8, 8], [8, 4, 8, 8]],
                   16: [[2, 8, 8, 8], [4, 4, 8, 8], [16, 4, 4, 4]],
                   32: [[2, 4, 8, 8], [8, 8, 2, 4], [4, 4, 4, 8]]}[esz]
        for f5 in range(16):
            for d in shapes4:
                assert d[0] * d[1] * d[2] * d[3] == total
                add(g.xpose_case(f5, ttype, Gen.dims_val(d), 4, 5),
                    "tl.xpose f5=0x%02x %s dims %s" % (f5, tn, d))
        d = shapes4[0]
        add(g.xpose_case(0x01, ttype, Gen.dims_val(d) | (0xDEADBEEF << 32), 4, 5),
            "tl.xpose %s dims with junk in bits 63:32" % tn)
        add(g.xpose_case(0x09, ttype, Gen.dims_val(d), 0, 5), "tl.xpose %s tlrs1=tl0" % tn)
        add(g.xpose_case(0x0B, ttype, Gen.dims_val(d), 5, 0), "tl.xpose %s tlrs2=tl0" % tn)
        add(g.xpose_case(0x01, ttype, Gen.dims_val(d), 5, 5), "tl.xpose %s illegal tlrs1=tlrs2" % tn)
        add(g.xpose_case(0x00, ttype, Gen.dims_val(d), 0, 0), "tl.xpose %s illegal tl0,tl0" % tn)
        add(g.xpose_case(0x01, ttype, Gen.dims_val([1, d[0] * d[1], d[2], d[3]]), 4, 5),
            "tl.xpose %s illegal D0=1" % tn)
        add(g.xpose_case(0x01, ttype, Gen.dims_val([d[0], d[1], d[2], d[3] * 2]), 4, 5),
            "tl.xpose %s illegal 4096 bytes" % tn)
        add(g.xpose_case(0x01, ttype, Gen.dims_val([d[0], d[1], d[2], d[3] // 2]), 4, 5),
            "tl.xpose %s illegal 1024 bytes" % tn)
        add(g.xpose_case(0x0D, ttype, Gen.dims_val([d[0], 0, d[2], d[3]]), 4, 5),
            "tl.xpose %s illegal zero dim" % tn)
        add(g.xpose_case(0x02, ttype, Gen.dims_val([6, 3, 8, 1]), 4, 5),
            "tl.xpose %s dims [6,3,8,1] (144 elements)" % tn)
        # ---------------- addi ----------------
        for imm in (0, 1, -1, 2, -2, 3, 5, -5, 64, -64, 127, -128):
            for style in ("ties", "special", "mixed", "random"):
                add(g.addi_case(ttype, imm, 6, 7, style=style),
                    "tl.addi %s imm %d data %s" % (tn, imm, style))
        add(g.addi_case(ttype, 50, 6, 0), "tl.addi %s from tl0" % tn)
        add(g.addi_case(ttype, -50, 6, 0), "tl.addi %s from tl0 negative" % tn)
        add(g.addi_case(ttype, 7, 0, 6), "tl.addi %s to tl0" % tn)
        add(g.addi_case(ttype, -7, 6, 6, style="ties"), "tl.addi %s rd=rs" % tn)
        # ---------------- muls ----------------
        if et.fmt is not None:
            scalars = g.F32_SPECIAL + [0x3F000000 | (1 << 32), 0xFFFFFFFF3F800000]
        else:
            top = (1 << esz) - 1
            scalars = [0, 1, 2, 3, 7, top, top + 1, top + 2, 1 << 63, MASK64, 1 << 32,
                       (1 << 32) + 1]
        for sc in scalars:
            for style in ("ties", "special"):
                add(g.muls_case(ttype, sc, 8, 9, style=style),
                    "tl.muls %s scalar 0x%x data %s" % (tn, sc, style))
        add(g.muls_case(ttype, scalars[2], 8, 8, style="special"), "tl.muls %s rd=rs" % tn)
        add(g.muls_case(ttype, scalars[2], 0, 8), "tl.muls %s to tl0" % tn)
        add(g.muls_case(ttype, scalars[2], 8, 0), "tl.muls %s from tl0" % tn)
        # ---------------- fillpad ----------------
        for pp in (0, 1, 2):
            pn = T.PAD_NAMES[pp]
            for sh in [small, odd] + full_shapes(esz, 255):
                vs = [(0, 0, 0), sh, (sh[0], sh[1], 0), (0, sh[1], sh[2]),
                      ((sh[0] + 1) // 2, sh[1], (sh[2] + 1) // 2), (sh[0], (sh[1] + 1) // 2, sh[2])]
                for v in vs:
                    add(g.fillpad_case(pp, ttype, sh, v, 10, 11),
                        "tl.fillpad.%s %s shape %s tvalid %s" % (pn, tn, sh, v))
                add(g.fillpad_case(pp, ttype, sh, (sh[0], sh[1], sh[2] + 1), 10, 11),
                    "tl.fillpad.%s %s illegal V2=D2+1" % (pn, tn))
                add(g.fillpad_case(pp, ttype, sh, (sh[0] + 1, 0, 0), 10, 11),
                    "tl.fillpad.%s %s illegal V0=D0+1" % (pn, tn))
            sh = odd
            v = (2, 1, 3)
            for rd, rs, why in ((10, 10, "rd=rs"), (0, 10, "rd=tl0"), (10, 0, "rs=tl0")):
                add(g.fillpad_case(pp, ttype, sh, v, rd, rs), "tl.fillpad.%s %s %s" % (pn, tn, why))
            add(g.fillpad_case(pp, ttype, sh, g.shape_val(v) | 0xFF000000, 10, 11),
                "tl.fillpad.%s %s tvalid bits 31:24 set (WARL)" % (pn, tn))
            add(g.fillpad_case(pp, ttype, (0, 2, 2), (0, 0, 0), 10, 11),
                "tl.fillpad.%s %s illegal D0=0" % (pn, tn))
    # ---------------- invalid ttype, per instruction ----------------
    for bad in INVALID_TTYPES:
        add(g.mem_case("tl.load", bad, (4, 4, 4), 16, 16, 0xF, 0, 1, "clean"),
            "tl.load ttype 0x%x" % bad)
        add(g.mem_case("tl.mstore", bad, (4, 4, 4), 16, 16, 0xF, 0, 1, "clean"),
            "tl.mstore ttype 0x%x" % bad)
        add(g.move_case(0, 1, bad, (4, 4, 4), 1, 2, 3, 1, 2), "tl.concat.1 ttype 0x%x" % bad)
        add(g.move_case(1, 2, bad, (4, 4, 4), 1, 2, 3, 1, 2), "tl.merge.2 ttype 0x%x" % bad)
        add(g.xpose_case(1, bad, Gen.dims_val([2, 8, 16, 8]), 1, 2), "tl.xpose ttype 0x%x" % bad)
        add(g.addi_case(bad, 1, 1, 2), "tl.addi ttype 0x%x" % bad)
        add(g.muls_case(bad, 1, 1, 2), "tl.muls ttype 0x%x" % bad)
        add(g.fillpad_case(2, bad, (4, 4, 4), (2, 2, 2), 1, 2), "tl.fillpad.max ttype 0x%x" % bad)
    for warl in (0x1002, 0xFFFFF400, 0x80000001):
        add(g.addi_case(warl, 1, 1, 2, style="special"), "tl.addi ttype 0x%x (WARL)" % warl)
    # ---------------- EngineID ----------------
    for eng in range(4):
        add(g.mem_case("tl.mload", 0x002, (4, 2, 8), 12, 100, 0b1011, 1, 1, ("rel", 0x1000),
                       eng=eng), "tl.mload decisions 5.2 worked example, EngineID %d" % eng)
        add(g.move_case(0, 2, 0x002, (2, 3, 4), 0x0C, 0x03, 3, 1, 2, eng=eng),
            "tl.concat.2 seed example, EngineID %d" % eng)
        add(g.move_case(1, 0, 0x002, (8, 16, 8), 0xAA, 0, 13, 14, 15, eng=eng),
            "tl.merge.0 seed example, EngineID %d" % eng)
        add(g.xpose_case(1, 0x002, 0x02081008, 1, 2, eng=eng),
            "tl.xpose.01 worked example, EngineID %d" % eng)
        add(g.addi_case(0x002, -5, 1, 2, eng=eng, style="special"), "tl.addi EngineID %d" % eng)
        add(g.muls_case(0x100, 0x3FC00000, 1, 2, eng=eng, style="special"),
            "tl.muls EngineID %d" % eng)
        add(g.fillpad_case(1, 0x080, (4, 4, 8), (2, 3, 5), 1, 2, eng=eng),
            "tl.fillpad.min EngineID %d" % eng)
    # ---------------- reserved encodings ----------------
    F = T.encode_fields
    for eng in range(4):
        for f7 in (0, 0x7F, 0x15):
            for f3 in (6, 7):
                add(g.reserved_case(F(f3, f7 & 0x1F, 2, 1, 3, engine=f7 >> 5)),
                    "reserved funct3 %d" % f3)
        for f5 in [(k << 2) | dd for k in range(2, 8) for dd in range(4)] + [3, 7]:
            add(g.reserved_case(F(T.FUNCT3_MOVE, f5, 2, 1, 3, engine=eng)),
                "reserved concat/merge funct5 0x%x" % f5)
        for f2 in (1, 2, 3):
            add(g.reserved_case(T.encode_addi(1, 2, 0, engine=eng, funct2=f2)),
                "reserved addi funct2 %d" % f2)
        for f5 in range(16, 32):
            add(g.reserved_case(F(T.FUNCT3_XPOSE, f5, 2, 1, 6, engine=eng)),
                "reserved xpose funct5 0x%x" % f5)
        for f5 in (1, 2, 4, 8, 16, 31):
            add(g.reserved_case(F(T.FUNCT3_MULS, f5, 6, 1, 2, engine=eng)),
                "reserved muls funct5 0x%x" % f5)
        for f5 in [(k << 2) | pp for k in range(1, 8) for pp in range(4)] + [3]:
            add(g.reserved_case(F(T.FUNCT3_FILLPAD, f5, 0, 1, 2, engine=eng)),
                "reserved fillpad funct5 0x%x" % f5)
        for b24 in (1, 16, 31):
            add(g.reserved_case(F(T.FUNCT3_FILLPAD, 1, b24, 1, 2, engine=eng)),
                "reserved fillpad [24:20]=%d" % b24)

    # ---------------- tl.load; tl.load; tl.xpose ----------------
    # What the tile API's interleave and transposes issue (TileRows::load_xpose),
    # and the ways such a sequence can differ from it.
    i8 = next(t for t in TTYPE_LIST if esz_of(t) == 8)
    i16 = next(t for t in TTYPE_LIST if esz_of(t) == 16)
    X = T.XPOSE_FUNCT5

    def seq(ttype, rb, second, f5, dims, regs=(3, 4), xregs=None, stride=None, p1=("rel", 0x1000),
            fuses=False, note=""):
        """Loads of 32 slices of 32 bytes (a register) at a pitch of 32 bytes or stride; the
        case as the program's first access to that memory, and after an access to it, which
        QEMU runs in one pass when fuses (its other conditions hold: docs/performance.md)."""
        tshape = g.shape_val((32, 1, 256 // esz_of(ttype)))
        c = g.seq_case(ttype, tshape, 32, 32 if stride is None else stride, 0, 0, regs[0],
                       regs[1], p1, second, Gen.dims_val(dims), f5, *(xregs or regs),
                       canonical=True)
        add(c, note)
        w = c.copy((c.flags & 0xFF) | CF_WARM)
        w.fuses = fuses
        add(w, note + ", after an access to the first source")

    SRC2 = ("rel", 0x5000)          # in the same mapping as the first source, apart from it
    for rb in (8, 16, 32, 64, 128):
        n = 1024 // rb
        seq(i8, rb, SRC2, X["01"], [2, n, rb, 1], fuses=True,
            note="interleave of rows of %d bytes, separate sources" % rb)
        seq(i8, rb, "adjacent", X["01"], [2, n, rb, 1], fuses=True,
            note="interleave of rows of %d bytes, the second source after the first" % rb)
    for ab in ("01", "02", "03", "12", "13", "23"):
        seq(i16, 64, SRC2, X[ab], [4, 8, 4, 8], fuses=True, note="tl.xpose.%s after two loads" % ab)
    seq(i8, 16, "hole", X["01"], [2, 64, 16, 1], note="the second load faults")
    seq(i8, 16, SRC2, X["01"], [2, 64, 16, 1], p1="lastfault", note="the first load faults")
    seq(i8, 16, "ro", X["01"], [2, 64, 16, 1], note="the second load reads a read-only page")
    seq(i8, 16, SRC2, X["01"], [2, 64, 32, 1], note="the xpose's dimensions do not make 2 KiB")
    seq(i8, 16, SRC2, X["01"], [3, 64, 16, 1], note="the xpose's D0 is odd")
    seq(i8, 16, "clean", 0x11, [2, 64, 16, 1], note="a reserved xpose funct5 after two loads")
    seq(i8, 16, SRC2, X["01"], [2, 64, 16, 1], regs=(5, 5), note="both loads to one register")
    seq(i8, 16, SRC2, X["01"], [2, 64, 16, 1], regs=(0, 5), note="the first load to tl0")
    seq(i8, 16, SRC2, X["01"], [2, 64, 16, 1], regs=(5, 0), note="the second load to tl0")
    seq(i8, 16, SRC2, X["01"], [2, 64, 16, 1], xregs=(4, 3), note="the xpose's registers swapped")
    seq(i8, 16, SRC2, X["01"], [2, 64, 16, 1], xregs=(3, 9), note="the xpose of another pair")
    seq(i8, 16, ("delta", 64), X["01"], [2, 64, 16, 1], note="the second source overlaps the first")
    seq(i8, 16, "same", X["01"], [2, 64, 16, 1], note="both loads from one address")
    seq(i8, 64, ("rel", 0x4000), X["01"], [2, 16, 64, 1], stride=512, p1=("rel", 0), fuses=True,
        note="slices 512 bytes apart")
    seq(i8, 64, SRC2, X["01"], [2, 16, 64, 1], stride=-32, note="slices in decreasing addresses")

    # ---------------- the same, then tl.store A; tl.store B ----------------
    # What the tile API's tl_load_load_xpose_store_store issues, and the ways it
    # can differ from it.  The sources at 0x1000 and 0x5000 and the stores at
    # 0x2400 and 0x6400 lie in one run of read-write pages (below HOLE), the
    # memory QEMU finds accessible after the warm-up's access.
    def seq5(ttype, rb, second, f5, dims, st1=("rel", 0x2400), st2=("rel", 0x6400), regs=(3, 4),
             xregs=None, sregs=None, imms=(0, 0), bases=(28, 29), stride=None,
             p1=("rel", 0x1000), fuses5=False, fuses=False, note=""):
        """As seq, with the stores; QEMU runs the warm case's five words in one pass when
        fuses5, its first three when fuses."""
        tshape = g.shape_val((32, 1, 256 // esz_of(ttype)))
        args = (ttype, tshape, 32, 32 if stride is None else stride, 0, 0, regs[0], regs[1], p1,
                second, Gen.dims_val(dims), f5, *(xregs or regs))
        c = g.seq5_case(args, st1, st2, sregs=sregs, imms=imms, bases=bases, canonical=True)
        add(c, note)
        w = c.copy((c.flags & 0xFF) | CF_WARM)
        w.fuses5, w.fuses = fuses5, fuses
        add(w, note + ", after an access to the first source and the first store's memory")

    for rb in (8, 16, 32, 128):
        n = 1024 // rb
        seq5(i8, rb, SRC2, X["01"], [2, n, rb, 1], fuses5=True,
             note="five words: interleave of rows of %d bytes, stored apart" % rb)
    seq5(i8, 16, "adjacent", X["01"], [2, 64, 16, 1], st2=("from3", 1024), fuses5=True,
         note="five words: adjacent sources, adjacent outputs")
    for ab in ("01", "02", "03", "12", "13", "23"):
        seq5(i16, 64, SRC2, X[ab], [4, 8, 4, 8], fuses5=True,
             note="five words: tl.xpose.%s, stored apart" % ab)
    seq5(i8, 64, SRC2, X["01"], [32, 64, 1, 1], fuses5=True, note="five words: a 32 x 64 transpose")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("from3", 512), fuses5=True,
         note="five words: the second store over the upper half of the first")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("from3", -512), fuses5=True,
         note="five words: the second store over the lower half of the first")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("from3", 0), fuses5=True,
         note="five words: both stores to one address")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st1=("from1", 0), st2=("from2", 0), fuses5=False,
         note="five words: each store over its own load's source (in place)")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st1=("from2", 0), st2=("from1", 0), fuses5=False,
         note="five words: each store over the other load's source")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st1=("from2", 200), st2=("from1", -300),
         fuses5=False, note="five words: the stores over parts of both sources")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], imms=(3, -2), fuses5=True,
         note="five words: tl.store A, 3(t3); tl.store B, -2(t4)")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("from3", 2048), bases=(29, 28), fuses5=True,
         note="five words: tl.store A, 0(t4); tl.store B, 0(t3)")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], imms=(64, 64), bases=(5, 7), fuses5=True,
         note="five words: tl.store A, 64(t0); tl.store B, 64(t2)")
    seq5(i8, 64, ("rel", 0x4000), X["01"], [2, 16, 64, 1], stride=512, p1=("rel", 0),
         st1=("from1", 32), st2=("from2", 64), fuses5=False,
         note="five words: slices 512 bytes apart, stored between the sources' slices")
    hole, ro, guard = HOLE - ARENA, RO - ARENA, GUARD_HI - ARENA
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st1=("rel", hole - 512),
         note="five words: the first store half-way into an inaccessible page")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st1=("rel", ro + 16),
         note="five words: the first store to a read-only page")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("rel", hole + 100),
         note="five words: the second store to an inaccessible page")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("rel", guard - 256),
         note="five words: the second store reaches the upper guard page")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], st2=("abs", 1 << 62),
         note="five words: the second store to an address never mapped")
    seq5(i8, 16, ("rel", hole - 100), X["01"], [2, 64, 16, 1],
         note="five words: the second load faults")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 32, 1], note="five words: the xpose's dimensions do not make 2 KiB")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], sregs=(4, 4), fuses=True,
         note="five words: the first store of B (three words run as one, the stores apart)")
    seq5(i8, 16, SRC2, X["01"], [2, 64, 16, 1], sregs=(3, 9), fuses=True,
         note="five words: the second store of another register")
    seq5(i8, 16, ("delta", 64), X["01"], [2, 64, 16, 1],
         note="five words: the second source overlaps the first")

    # The first case of each kind again with CSRs left uninitialized through
    # tinit: all of them, and each of 0x801-0x807 alone.
    first = {}
    for c in list(cases):
        first.setdefault(case_kind(c), c)
    for k in KIND_ORDER:
        if k not in first:
            continue
        c = first[k]
        for tinit in [0x01] + [0xFF & ~(1 << i) for i in range(1, 8)]:
            v = c.copy(c.flags & 0xFF)
            v.tinit = tinit
            add(v, "%s with tinit=0x%02x" % (c.note, tinit))
    return cases


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------


class Env:
    """Pool, arena and model memory of one run."""

    def __init__(self, pool, by_type, arena):
        self.pool = pool
        self.by_type = by_type
        self.arena = arena
        self.pool_np = [np.frombuffer(p, dtype=np.uint8) for p in pool]
        mem = T.Memory()
        for a, b in READABLE:
            mem.write(a, arena[a - ARENA:b - ARENA])
        mem.add_fault(GUARD_LO, GUARD_LO + PAGE)
        mem.add_fault(HOLE, HOLE + PAGE)
        mem.add_fault(RO, RO + PAGE, on_load=False, on_store=True)
        mem.add_fault(GUARD_HI, GUARD_HI + PAGE)
        mem.add_fault(0, FAR_LO_END)
        mem.add_fault(FAR_HI, 1 << 64)
        for lo, hi in UNMODELLED:
            mem.add_fault(lo, hi)
        self.mem = mem


def model_run(env, case, want_bytes=False):
    """Expected (sig, addr, csrs, reg_hashes, mem_hash[, reg_bytes, span_bytes, reason])."""
    st = T.TLState()
    for r in range(NUM_TL_REGS):
        st.write_reg(r, BACKGROUND[r])
    for r, p in case.regs[:MAX_REGS]:
        st.write_reg(r, env.pool_np[p] if p != NO_POOL else np.zeros(1024, np.uint8))
    for i, v in enumerate(case.csr):
        st.csr_write(0x800 + i, v)
    if case.tinit is not None:
        st.csr_write(T.CSR_TINIT, case.tinit)
    mem = env.mem
    for w in case.words():
        ins = T.decode(w)
        if ins is not None and ins.name in ("tl.store", "tl.mstore"):
            mem = env.mem.copy()
    sig, addr, reason, at = 0, 0, "", 0
    gpr = case.gprs()
    try:
        for at, w in enumerate(case.words()):
            T.execute(st, mem, w, gpr)
    except T.IllegalInstruction as e:
        sig, reason = SIGILL, e.reason
    except T.MemoryFault as e:
        sig, addr, reason = SIGSEGV, e.address, str(e)
    if sig and case.more:
        reason = "word %d: %s" % (at, reason)
    csrs = [st.csr_read(0x800 + i) for i in range(9)]
    regs = [st.regs[r].tobytes() for r in range(NUM_TL_REGS)]
    hashes = [reg_hash(r, b) for r, b in enumerate(regs)]
    span = b""
    mhash = 0
    if case.spans():
        span = b"".join(mem.read(a, n) for sp in case.spans() for a, n in readable_segments(*sp))
        mhash = hash_bytes(span)
    out = (sig, addr, csrs, hashes, mhash, at if sig else 0)
    if want_bytes:
        return out + (regs, span, reason)
    return out


# ---------------------------------------------------------------------------
# Running QEMU
# ---------------------------------------------------------------------------


def write_case_file(path, env, cases, dump=False):
    with open(path, "wb") as f:
        f.write(struct.pack(HDR_FMT, MAGIC, FORMAT_VERSION, HF_DUMP if dump else 0, len(cases),
                            len(env.pool), MAP_BASE, MAP_LEN, len(PROTS), ARENA_OFF, ARENA_LEN))
        for off, n, prot in PROTS:
            f.write(struct.pack(PROT_FMT, off, n, prot, 0))
        f.write(env.arena)
        for p in env.pool:
            f.write(p)
        for c in cases:
            f.write(c.pack())


FUSED_TRACE = "xtl_load_pair_xpose"
FUSED_OUTCOMES = (": one pass", ": one pass with the two stores")


def run_guest(qemu, guest, case_path, res_path, timeout):
    """Returns (ok, message, [the number of three-word, five-word sequences QEMU's trace says
    it ran in one pass])."""
    try:
        p = subprocess.run([qemu, "-trace", FUSED_TRACE, "-cpu", "rv64,xtl=on", guest, case_path,
                            res_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "qemu timed out after %d s" % timeout, [0, 0]
    except OSError as e:
        return False, "cannot run %s: %s" % (qemu, e), [0, 0]
    err = p.stderr.decode(errors="replace")
    fused = [sum(1 for line in err.splitlines()
                 if line.startswith(FUSED_TRACE + " ") and line.endswith(outcome))
             for outcome in FUSED_OUTCOMES]
    if p.returncode != 0:
        return False, "guest exited with status %d: %s" % (
            p.returncode, (err + p.stdout.decode(errors="replace")).strip()[-2000:]), fused
    return True, "", fused


def read_results(path, cases, dump=False):
    out = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    rs = struct.calcsize(RES_FMT)
    for c in cases:
        if pos + rs > len(data):
            break
        v = struct.unpack_from(RES_FMT, data, pos)
        pos += rs
        res = {"sig": v[0], "flags": v[1], "addr": v[2], "csr": list(v[3:12]),
               "hash": list(v[12:44]), "mhash": v[44], "fflags": v[45], "si_code": v[46],
               "probe_sig": v[47], "probe_code": v[48]}
        if dump:
            n = NUM_TL_REGS
            res["regs"] = [data[pos + 1024 * k:pos + 1024 * (k + 1)] for k in range(n)]
            pos += 1024 * n
            (sl,) = struct.unpack_from("<I", data, pos)
            pos += 4
            res["span"] = data[pos:pos + sl]
            pos += sl
        out.append(res)
    return out


def compare(case, exp, got):
    """List of mismatch descriptions (empty: match)."""
    sig, addr, csrs, hashes, mhash, at = exp[:6]
    if sig == SIGSEGV and any(lo <= addr < hi for lo, hi in UNMODELLED):
        return ["the case reaches 0x%x, outside the memory the model knows (a generator error: "
                "its accesses must stay in [0x%x, 0x%x) or far away)" % (addr, MAP_BASE, MAP_END)]
    errs = []
    if got["sig"] != sig:
        errs.append("signal: model %s, qemu %s" % (SIGNAME.get(sig, sig),
                                                    SIGNAME.get(got["sig"], got["sig"])))
    elif sig == SIGSEGV and got["addr"] != addr:
        errs.append("fault address: model 0x%x, qemu 0x%x" % (addr, got["addr"]))
    elif sig == SIGSEGV and (got["probe_sig"] != SIGSEGV or got["probe_code"] != got["si_code"]):
        errs.append("si_code %d of the fault differs from a scalar access to the same byte "
                    "(signal %d, si_code %d)" % (got["si_code"], got["probe_sig"],
                                                 got["probe_code"]))
    if got["fflags"] != 0:
        errs.append("fflags changed to 0x%x (TL instructions raise no flags)" % got["fflags"])
    if got["flags"] & RF_GPR:
        errs.append("t0, t1 or t2 changed")
    if got["flags"] & RF_FRM:
        errs.append("frm changed")
    if got["flags"] & RF_STRAY:
        errs.append("arena bytes outside the expected span changed")
    if got["flags"] & RF_BAD_PC:
        errs.append("signal raised at a pc other than the tested instruction")
    elif sig and got["sig"] == sig and (got["flags"] >> RF_INSN_SHIFT) & 7 != at:
        errs.append("signal raised by word %d, the model's is word %d" % (
            (got["flags"] >> RF_INSN_SHIFT) & 7, at))
    for i in range(9):
        if got["csr"][i] != csrs[i]:
            errs.append("csr %s read back: model 0x%x, qemu 0x%x" % (
                CSR_SHORT[i], csrs[i], got["csr"][i]))
    named = {r for r, _ in case.regs[:MAX_REGS]}
    for r in range(NUM_TL_REGS):
        if got["hash"][r] != hashes[r]:
            errs.append("tl%d contents differ%s" % (r, "" if r in named else
                                                     " (a register the case did not name)"))
    if case.spans() and got["mhash"] != mhash:
        errs.append("memory span%s %s differ%s" % (
            "s" if len(case.spans()) > 1 else "",
            " and ".join("[0x%x, 0x%x)" % sp for sp in case.spans()),
            "" if len(case.spans()) > 1 else "s"))
    return errs


def process_chunk(args):
    """Worker: model + QEMU for cases[lo:hi].  Returns (results, timing, error)."""
    (cases, base_index, opts, env_seed, directed) = args
    env = make_env(env_seed, directed)
    t0 = time.time()
    exps = [model_run(env, c) for c in cases]
    t1 = time.time()
    tmpdir = opts["tmpdir"]
    cpath = os.path.join(tmpdir, "cases-%d.bin" % base_index)
    rpath = os.path.join(tmpdir, "results-%d.bin" % base_index)
    write_case_file(cpath, env, cases)
    ok, msg, fused = run_guest(opts["qemu"], opts["guest"], cpath, rpath,
                               timeout=max(300, len(cases) // 50))
    t2 = time.time()
    got = read_results(rpath, cases) if os.path.exists(rpath) else []
    if ok and len(got) != len(cases):
        ok, msg = False, "result file has %d of %d records" % (len(got), len(cases))
    out = []
    for k, c in enumerate(cases):
        exp = exps[k]
        if k < len(got):
            errs = compare(c, exp, got[k])
        else:
            errs = ["no result (guest did not run the case)"]
        out.append((base_index + k, exp[0], errs))
    if not opts["keep"]:
        for p in (cpath, rpath):
            if os.path.exists(p):
                os.unlink(p)
    return out, (t1 - t0, t2 - t1), (None if ok else msg), fused


_ENV_CACHE = {}


def make_env(seed, directed):
    key = (seed, directed)
    if key not in _ENV_CACHE:
        pool, by_type = make_pool(seed)
        _ENV_CACHE[key] = Env(pool, by_type, make_arena(seed))
    return _ENV_CACHE[key]


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------

CSR_SHORT = ["ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
             "tmask_load_stride", "tmask_load_width", "tvalid", "tinit"]


def describe_case(case, env):
    lines = []
    for w in case.words():
        lines.append("  insn: 0x%08x  %s" % (w, T.disasm(w)))
    if case.note:
        lines.append("  what: %s" % case.note)
    lines.append("  csrs: " + " ".join("%s=0x%x" % (n, v) for n, v in zip(CSR_SHORT, case.csr))
                 + ("" if case.tinit is None else ", then tinit=0x%02x" % case.tinit))
    lines.append("  t0=0x%x%s t1=0x%x%s%s frm=%d nops=%d" % (
        case.t0_abs(), " (arena+0x%x)" % case.t0 if case.flags & CF_T0_REL else "", case.t1,
        "" if not case.more else " t2=0x%x%s" % (
            case.t2_abs(), " (arena+0x%x)" % case.t2 if case.flags & CF_T2_REL else ""),
        "" if not case.more2 else " t3=0x%x%s t4=0x%x%s" % (
            case.t3_abs(), " (arena+0x%x)" % case.t3 if case.flags & CF_T3_REL else "",
            case.t4_abs(), " (arena+0x%x)" % case.t4 if case.flags & CF_T4_REL else ""),
        (case.flags >> CF_FRM_SHIFT) & 7, (case.flags >> CF_NOPS_SHIFT) & 3))
    lines.append("  regs: " + ", ".join("tl%d<-%s" % (r, "zero" if p == NO_POOL else "pool[%d]" % p)
                                        for r, p in case.regs) + ", the others background")
    for sp in case.spans():
        lines.append("  checked memory span: [0x%x, 0x%x)" % sp)
    return "\n".join(lines)


def byte_diff(exp, got, base=0, limit=8):
    diffs = [i for i in range(min(len(exp), len(got))) if exp[i] != got[i]]
    if len(exp) != len(got):
        return ["length model %d, qemu %d" % (len(exp), len(got))]
    if not diffs:
        return []
    out = ["%d bytes differ, first at offset 0x%x" % (len(diffs), diffs[0])]
    for i in diffs[:limit]:
        out.append("byte 0x%x: model %02x qemu %02x" % (base + i, exp[i], got[i]))
    return out


def detail_report(cases_idx, cases, env, opts, label):
    """Re-runs cases in dump mode and prints byte-level differences."""
    if not cases:
        return
    cpath = os.path.join(opts["tmpdir"], "detail-cases.bin")
    rpath = os.path.join(opts["tmpdir"], "detail-results.bin")
    write_case_file(cpath, env, cases, dump=True)
    ok, msg, _ = run_guest(opts["qemu"], opts["guest"], cpath, rpath, timeout=300)
    got = read_results(rpath, cases, dump=True) if ok and os.path.exists(rpath) else []
    all_errs = []
    for k, (idx, c) in enumerate(zip(cases_idx, cases)):
        exp = model_run(env, c, want_bytes=True)
        print("--- case %d %s" % (idx, label(idx)))
        print(describe_case(c, env))
        print("  model: %s%s%s" % (SIGNAME.get(exp[0], exp[0]),
                                   " at 0x%x" % exp[1] if exp[0] == SIGSEGV else "",
                                   " (%s)" % exp[8] if exp[8] else ""))
        if k >= len(got):
            print("  qemu: no result (%s)" % (msg or "?"))
            all_errs.append(["harness: " + (msg or "no result")])
            continue
        g = got[k]
        print("  qemu:  %s%s%s" % (SIGNAME.get(g["sig"], g["sig"]),
                                   " at 0x%x" % g["addr"] if g["sig"] in (SIGSEGV, SIGBUS) else "",
                                   " flags 0x%x" % g["flags"] if g["flags"] else ""))
        errs = compare(c, exp, g)
        all_errs.append(errs)
        for e in errs:
            print("  mismatch: " + e)
        if not errs:
            print("  (qemu and model agree)")
        for r in range(NUM_TL_REGS):
            d = byte_diff(exp[6][r], g["regs"][r])
            if d:
                print("  tl%d: %s" % (r, "; ".join(d)))
        if c.spans():
            d = byte_diff(exp[7], g["span"])
            if d:
                print("  memory span%s (readable bytes from 0x%x, in order): %s" % (
                    "s" if len(c.spans()) > 1 else "", c.spans()[0][0], "; ".join(d)))
    for p in (cpath, rpath):
        if os.path.exists(p) and not opts["keep"]:
            os.unlink(p)
    return all_errs


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def ensure_guest(path):
    src = os.path.join(HERE, "tl_diff_guest.c")
    hdrs = [os.path.join(REPO, "include", "tl", h) for h in ("tl_insn.h", "xtl-opc.h")]
    if os.path.exists(path) and all(os.path.getmtime(path) >= os.path.getmtime(s)
                                    for s in [src] + hdrs):
        return None
    os.makedirs(os.path.dirname(path), exist_ok=True)
    p = subprocess.run(["riscv64-linux-gnu-gcc", "-O2", "-Wall", "-Werror", "-static",
                        "-I" + os.path.join(REPO, "include"),
                        "-I" + os.path.join(REPO, "tests", "user"), src, "-o", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        return "cannot compile %s:\n%s" % (src, p.stdout.decode(errors="replace"))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    ap.add_argument("--count", type=int, default=2000, help="number of random cases")
    ap.add_argument("--directed", action="store_true", help="run the directed set instead")
    ap.add_argument("--case", type=int, default=None,
                    help="replay only case K (with its seed) and print its details")
    ap.add_argument("--qemu", default=None, help="qemu-riscv64 (default build/qemu/qemu-riscv64)")
    ap.add_argument("--guest", default=None,
                    help="guest program (default BUILD_DIR/tests/diff/tl_diff_guest; "
                         "compiled when missing or stale)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel QEMU processes (default 2)")
    ap.add_argument("--keep", action="store_true", help="keep the case and result files")
    ap.add_argument("--max-details", type=int, default=20)
    a = ap.parse_args()

    build = os.environ.get("BUILD_DIR", os.path.join(REPO, "build"))
    qemu = a.qemu or os.path.join(build, "qemu", "qemu-riscv64")
    guest = a.guest or os.path.join(build, "tests", "diff", "tl_diff_guest")
    if not os.access(qemu, os.X_OK):
        print("error: %s is missing; build QEMU first (make qemu)" % qemu)
        print("0 passed, 1 failed")
        return 2
    err = ensure_guest(guest) if a.guest is None else None
    if err:
        print("error: " + err)
        print("0 passed, 1 failed")
        return 2

    if a.directed:
        seed = DIRECTED_SEED
        print("directed set (pool seed 0x%x)" % seed)
    else:
        seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 32)
        print("seed: %d" % seed)
    me = "/usr/bin/python3 %s" % os.path.relpath(os.path.abspath(__file__))

    def replay_cmd(idx):
        if a.directed:
            return "%s --directed --case %d" % (me, idx)
        return "%s --seed %d --case %d" % (me, seed, idx)

    env = make_env(seed, a.directed)
    t_start = time.time()
    if a.directed:
        all_cases = directed_cases(env.by_type)
        indices = list(range(len(all_cases)))
        if a.case is not None:
            if not 0 <= a.case < len(all_cases):
                print("error: the directed set has %d cases" % len(all_cases))
                return 2
            indices = [a.case]
        cases = [all_cases[i] for i in indices]
    else:
        indices = [a.case] if a.case is not None else list(range(a.count))
        cases = [random_case(seed, i, env.by_type) for i in indices]
    t_gen = time.time() - t_start

    tmpdir = tempfile.mkdtemp(prefix="tl-diff-")
    opts = {"qemu": qemu, "guest": guest, "keep": a.keep, "tmpdir": tmpdir}
    if a.keep:
        print("files kept in %s" % tmpdir)

    if a.case is not None:
        errs = detail_report(indices, cases, env, opts,
                             lambda i: "(replay: %s)" % replay_cmd(i))[0]
        if not a.keep:
            try:
                os.rmdir(tmpdir)
            except OSError:
                pass
        print("%d passed, %d failed" % (0 if errs else 1, 1 if errs else 0))
        return 1 if errs else 0

    # split into chunks: at most `jobs` parallel workers, chunks of <= 25000
    jobs = max(1, a.jobs)
    nchunks = max(jobs, (len(cases) + 24999) // 25000)
    size = (len(cases) + nchunks - 1) // nchunks
    chunks = []
    for lo in range(0, len(cases), size):
        chunks.append((cases[lo:lo + size], lo, opts, seed, a.directed))
    results = [None] * len(cases)
    harness_errors = []
    tm_model = tm_qemu = 0.0
    if jobs > 1 and len(chunks) > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as mp:
            outs = mp.map(process_chunk, chunks, chunksize=1)
    else:
        outs = [process_chunk(ch) for ch in chunks]
    fused = fused5 = 0
    for out, (tm, tq), herr, (nf, nf5) in outs:
        fused += nf
        fused5 += nf5
        tm_model += tm
        tm_qemu += tq
        if herr:
            harness_errors.append(herr)
        for pos, sig, errs in out:
            results[pos] = (sig, errs)

    # counts per kind and outcome
    counts = {}
    for c, (sig, errs) in zip(cases, results):
        k = case_kind(c)
        d = counts.setdefault(k, {"ok": 0, "SIGILL": 0, "SIGSEGV": 0, "mismatch": 0})
        d[SIGNAME.get(sig, "ok")] += 1
        if errs:
            d["mismatch"] += 1
    print("%-31s %7s %7s %7s %7s %9s" % ("kind", "total", "ok", "SIGILL", "SIGSEGV", "mismatch"))
    for k in KIND_ORDER:
        if k in counts:
            d = counts[k]
            print("%-31s %7d %7d %7d %7d %9d" % (k, d["ok"] + d["SIGILL"] + d["SIGSEGV"], d["ok"],
                                                 d["SIGILL"], d["SIGSEGV"], d["mismatch"]))
    tot = {x: sum(d[x] for d in counts.values()) for x in ("ok", "SIGILL", "SIGSEGV", "mismatch")}
    print("%-31s %7d %7d %7d %7d %9d" % ("all", len(cases), tot["ok"], tot["SIGILL"],
                                         tot["SIGSEGV"], tot["mismatch"]))
    print("# generation %.1f s, model %.1f s, qemu %.1f s (cpu-seconds over %d chunk(s)), "
          "wall %.1f s" % (t_gen, tm_model, tm_qemu, len(chunks), time.time() - t_start))

    # The sequences must have run QEMU's fused path (-trace xtl_load_pair_xpose), or
    # their agreement with the model says nothing of it.
    nseq = sum(1 for c in cases if case_kind(c) == SEQ_KIND)
    warm = sum(1 for c in cases if case_kind(c) == SEQ_KIND and c.flags & CF_WARM)
    nseq5 = sum(1 for c in cases if case_kind(c) == SEQ5_KIND)
    warm5 = sum(1 for c in cases if case_kind(c) == SEQ5_KIND and c.flags & CF_WARM)
    print("# %s: %d case(s), %d after an access to their memory; QEMU ran %d three-word "
          "sequence(s) in one pass (of these and of the five-word ones)" % (SEQ_KIND, nseq, warm, fused))
    print("# %s: %d case(s), %d after an access to their memory; QEMU ran %d in one pass with "
          "the two stores" % (SEQ5_KIND, nseq5, warm5, fused5))
    if a.directed and a.case is None:
        want = sum(1 for c in cases if c.fuses)
        want5 = sum(1 for c in cases if c.fuses5)
        if fused != want:
            harness_errors.append("QEMU ran %d sequence(s) in one pass, the directed set has %d "
                                  "that it runs so (-trace %s)" % (fused, want, FUSED_TRACE))
        if fused5 != want5:
            harness_errors.append("QEMU ran %d sequence(s) in one pass with the two stores, the "
                                  "directed set has %d that it runs so (-trace %s)" % (
                                      fused5, want5, FUSED_TRACE))
    else:
        if warm >= 100 and fused == 0:
            harness_errors.append("QEMU ran none of %d sequences in one pass (-trace %s)" % (
                warm, FUSED_TRACE))
        if warm5 >= 40 and fused5 == 0:
            harness_errors.append("QEMU ran none of %d five-word sequences in one pass with the "
                                  "two stores (-trace %s)" % (warm5, FUSED_TRACE))
    for e in harness_errors:
        print("harness failure: %s" % e)
    bad = [(indices[i], cases[i], results[i][1]) for i in range(len(cases)) if results[i][1]]
    for idx, c, errs in bad[:1000]:
        print("MISMATCH case %d: 0x%08x %s: %s  [replay: %s]" % (
            idx, c.word, case_disasm(c), "; ".join(errs[:4]), replay_cmd(idx)))
    if len(bad) > 1000:
        print("... and %d more mismatches" % (len(bad) - 1000))
    if bad and not harness_errors:
        print("=== details of the first %d mismatches (dump-mode re-run) ===" %
              min(len(bad), a.max_details))
        sel = bad[:a.max_details]
        detail_report([i for i, _, _ in sel], [c for _, c, _ in sel], env, opts,
                      lambda i: "(replay: %s)" % replay_cmd(i))
    if not a.keep:
        try:
            os.rmdir(tmpdir)
        except OSError:
            pass
    if not a.directed:
        print("seed: %d (rerun: %s --seed %d --count %d)" % (seed, me, seed, a.count))
    npass = len(cases) - len(bad)
    nfail = len(bad)
    if harness_errors and nfail == 0:
        nfail = 1
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if (bad or harness_errors) else 0


if __name__ == "__main__":
    sys.exit(main())
