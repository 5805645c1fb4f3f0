/*
 * The TL (xtl) instruction set as tlstat sees it: decoding of CUSTOM-2 words,
 * element types, the bytes a memory instruction moves, the operand checks that
 * decide between an illegal-instruction trap and a memory fault, and the
 * fixed coverage matrix.  Everything here follows docs/isa.md (section numbers
 * in the comments); nothing depends on QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TLSTAT_TL_ISA_H
#define TLSTAT_TL_ISA_H

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

constexpr uint32_t kCustom2 = 0x5B;
constexpr int kNumCsrs = 9;                 /* 0x800 .. 0x808 */
constexpr uint32_t kCsrBase = 0x800;
constexpr const char *kCsrNames[kNumCsrs] = {
    "ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
    "tmask_load_stride", "tmask_load_width", "tvalid", "tinit",
};
enum Csr { TTYPE, TSHAPE, TMASK_LS, TMASK_C1, TMASK_C2, TSTRIDE, TWIDTH, TVALID, TINIT };

/* Element types of section 3.1, in table order; kInvalidType for any other ttype. */
constexpr int kNumTypes = 11;
constexpr int kInvalidType = kNumTypes;
constexpr uint32_t kTypeCodes[kNumTypes] = {
    0x001, 0x002, 0x004, 0x008, 0x010, 0x040, 0x080, 0x0C0, 0x100, 0x200, 0x400,
};
constexpr const char *kTypeNames[kNumTypes + 1] = {
    "int4", "int8", "int16", "int32", "e2m1", "e4m3", "e5m2", "e3m4", "fp16", "bf16", "fp32",
    "none",   /* ttype invalid, or the extension is off */
};
constexpr int kTypeBits[kNumTypes] = {4, 8, 16, 32, 4, 8, 8, 8, 16, 16, 32};

inline int type_index(uint32_t ttype)
{
    for (int i = 0; i < kNumTypes; i++) {
        if (kTypeCodes[i] == ttype) {
            return i;
        }
    }
    return kInvalidType;
}

/*
 * Instruction forms: one per mnemonic the disassembler prints (section 4),
 * xpose by its canonical dimension pair, plus one form per reserved
 * encoding rule R1..R10 of section 4.6.
 */
enum Form {
    F_LOAD, F_MLOAD, F_STORE, F_MSTORE,
    F_CONCAT0, F_CONCAT1, F_CONCAT2,
    F_MERGE0, F_MERGE1, F_MERGE2,
    F_ADDI,
    F_XPOSE01, F_XPOSE02, F_XPOSE03, F_XPOSE12, F_XPOSE13, F_XPOSE23, F_XPOSE_NOP,
    F_MULS,
    F_FILLPAD_ZERO, F_FILLPAD_MIN, F_FILLPAD_MAX,
    F_NUM_VALID,
    F_RESERVED = F_NUM_VALID,                /* + rule number - 1 */
    F_NUM = F_RESERVED + 10,
};

inline const char *form_name(int f)
{
    static const char *const names[F_NUM] = {
        "tl.load", "tl.mload", "tl.store", "tl.mstore",
        "tl.concat.0", "tl.concat.1", "tl.concat.2",
        "tl.merge.0", "tl.merge.1", "tl.merge.2",
        "tl.addi",
        "tl.xpose.01", "tl.xpose.02", "tl.xpose.03", "tl.xpose.12", "tl.xpose.13",
        "tl.xpose.23", "tl.xpose.nop",
        "tl.muls",
        "tl.fillpad.zero", "tl.fillpad.min", "tl.fillpad.max",
        "reserved.R1", "reserved.R2", "reserved.R3", "reserved.R4", "reserved.R5",
        "reserved.R6", "reserved.R7", "reserved.R8", "reserved.R9", "reserved.R10",
    };
    return f >= 0 && f < F_NUM ? names[f] : "?";
}

inline bool is_memory(int f) { return f <= F_MSTORE; }
inline bool is_masked_memory(int f) { return f == F_MLOAD || f == F_MSTORE; }
inline bool is_store(int f) { return f == F_STORE || f == F_MSTORE; }
inline bool is_reserved(int f) { return f >= F_RESERVED; }
/* Forms that take the block shape from tshape (section 3.4). */
inline bool uses_tshape(int f)
{
    return f <= F_MERGE2 || (f >= F_FILLPAD_ZERO && f <= F_FILLPAD_MAX);
}

struct Insn {
    int form;
    unsigned engine;        /* [31:30], never changes what the instruction does */
    unsigned rs;            /* GPR of xpose's shape (x[rs]) or of muls's scalar */
    unsigned tl_a, tl_b;    /* xpose's two TL registers, to check tlrs1 != tlrs2 */
};

/* Section 4.5, with the reserved encodings of section 4.6 as forms. */
inline Insn decode(uint32_t w)
{
    Insn d{};
    const unsigned f5 = (w >> 25) & 0x1F, b24 = (w >> 20) & 0x1F, b19 = (w >> 15) & 0x1F;
    const unsigned f3 = (w >> 12) & 7, b11 = (w >> 7) & 0x1F;
    d.engine = (w >> 30) & 3;
    switch (f3) {
    case 0: {
        const unsigned st = (w >> 29) & 1, tm = (w >> 28) & 1;
        d.form = st ? (tm ? F_MSTORE : F_STORE) : (tm ? F_MLOAD : F_LOAD);
        break;
    }
    case 1: {
        const unsigned op = f5 >> 2, dd = f5 & 3;
        if (op > 1) {
            d.form = F_RESERVED + 2;             /* R3 */
        } else if (dd == 3) {
            d.form = F_RESERVED + 3;             /* R4 */
        } else {
            d.form = (op == 0 ? F_CONCAT0 : F_MERGE0) + dd;
        }
        break;
    }
    case 2:
        d.form = ((w >> 28) & 3) ? F_RESERVED + 4 : F_ADDI;   /* R5 */
        break;
    case 3: {
        if (f5 & 0x10) {
            d.form = F_RESERVED + 5;             /* R6 */
            break;
        }
        unsigned a = f5 & 3, b = (f5 >> 2) & 3;
        if (a > b) {
            unsigned t = a; a = b; b = t;
        }
        static const int pair[4][4] = {
            {F_XPOSE_NOP, F_XPOSE01, F_XPOSE02, F_XPOSE03},
            {0, F_XPOSE_NOP, F_XPOSE12, F_XPOSE13},
            {0, 0, F_XPOSE_NOP, F_XPOSE23},
            {0, 0, 0, F_XPOSE_NOP},
        };
        d.form = pair[a][b];
        d.rs = b11;
        d.tl_a = b19;
        d.tl_b = b24;
        break;
    }
    case 4:
        d.form = f5 ? F_RESERVED + 6 : F_MULS;    /* R7 */
        d.rs = b24;
        break;
    case 5:
        if (f5 >> 2) {
            d.form = F_RESERVED + 7;             /* R8 */
        } else if ((f5 & 3) == 3) {
            d.form = F_RESERVED + 8;             /* R9 */
        } else if (b24) {
            d.form = F_RESERVED + 9;             /* R10 */
        } else {
            d.form = F_FILLPAD_ZERO + (f5 & 3);
        }
        break;
    default:
        d.form = F_RESERVED + (f3 == 6 ? 0 : 1); /* R1, R2 */
        break;
    }
    return d;
}

/* The TL CSRs as one instruction sees them; init = tinit (section 2.6). */
struct CsrState {
    uint32_t v[kNumCsrs];
    bool initialized(int csr) const { return csr == TTYPE || ((v[TINIT] >> csr) & 1); }
};

inline int popcount32(uint32_t x) { return __builtin_popcount(x); }

/*
 * What one execution of a memory instruction does: bytes moved (selected
 * slices times W, section 5.2), whether its operand checks pass (section 6.1;
 * if not, it raises illegal-instruction before touching memory), and the
 * parameters of its coverage cell.
 */
struct MemoryAccess {
    bool legal = false;
    uint64_t bytes = 0;
    bool strided = false;   /* P != W: slices not back to back in memory */
    bool partial = false;   /* W < S: only part of each slice moves */
};

inline MemoryAccess memory_access(int form, const CsrState &c)
{
    MemoryAccess m;
    const int t = type_index(c.v[TTYPE]);
    if (t == kInvalidType || !c.initialized(TSHAPE)) {
        return m;
    }
    const uint32_t e = kTypeBits[t];
    const uint32_t d0 = (c.v[TSHAPE] >> 16) & 0xFF, d1 = (c.v[TSHAPE] >> 8) & 0xFF,
                   d2 = c.v[TSHAPE] & 0xFF;
    if (!d0 || !d1 || !d2 || (d1 * d2 * e) % 8 || d0 > 32) {
        return m;
    }
    const uint64_t s = uint64_t(d1) * d2 * e / 8;
    if (d0 * s > 1024) {
        return m;
    }
    const uint64_t w = c.initialized(TWIDTH) ? c.v[TWIDTH] : s;
    if (w < 1 || w > s) {
        return m;
    }
    uint32_t mask = 0xFFFFFFFFu;
    if (is_masked_memory(form)) {
        if (!c.initialized(TMASK_LS)) {
            return m;
        }
        mask = c.v[TMASK_LS];
    }
    if (d0 < 32) {
        mask &= (1u << d0) - 1;
    }
    const int64_t p = c.initialized(TSTRIDE) ? int64_t(int32_t(c.v[TSTRIDE])) : int64_t(w);
    m.legal = true;
    m.bytes = uint64_t(popcount32(mask)) * w;
    m.strided = p != int64_t(w);
    m.partial = w < s;
    return m;
}

/*
 * The coverage matrix: what the ISA offers, in a fixed order.
 *  - memory forms x element type x contiguous/strided x full/partial width
 *    (masked/unmasked is the form itself);
 *  - other valid forms x element type;
 *  - each reserved encoding rule R1..R10;
 *  - each TL CSR written;
 *  - each trap cause a TL instruction can raise.
 */
enum Trap {
    T_ILLEGAL_OPERAND,      /* operand/state checks of section 6.1 */
    T_ILLEGAL_RESERVED,     /* reserved encoding, section 4.6 */
    T_ILLEGAL_STATEEN,      /* Smstateen C bit, section 1.2 */
    T_ILLEGAL_XTL_OFF,      /* the extension is disabled */
    T_VIRTUAL_INSTRUCTION,  /* cause 22 */
    T_LOAD_ACCESS,          /* cause 5 */
    T_LOAD_PAGE,            /* cause 13 */
    T_LOAD_GUEST_PAGE,      /* cause 21 */
    T_STORE_ACCESS,         /* cause 7 */
    T_STORE_PAGE,           /* cause 15 */
    T_STORE_GUEST_PAGE,     /* cause 23 */
    T_NUM,
};
constexpr const char *kTrapNames[T_NUM] = {
    "illegal-instruction.operand", "illegal-instruction.reserved",
    "illegal-instruction.smstateen", "illegal-instruction.xtl-off",
    "virtual-instruction", "load-access-fault", "load-page-fault", "load-guest-page-fault",
    "store-access-fault", "store-page-fault", "store-guest-page-fault",
};

constexpr int kMemCells = 4 * kNumTypes * 4;
constexpr int kOtherForms = F_NUM_VALID - 4;
constexpr int kOtherCells = kOtherForms * kNumTypes;
constexpr int kCellReserved = kMemCells + kOtherCells;
constexpr int kCellCsr = kCellReserved + 10;
constexpr int kCellTrap = kCellCsr + kNumCsrs;
constexpr int kNumCells = kCellTrap + T_NUM;

inline int memory_cell(int form, int type, bool strided, bool partial)
{
    return ((form * kNumTypes + type) * 2 + strided) * 2 + partial;
}
inline int other_cell(int form, int type) { return kMemCells + (form - 4) * kNumTypes + type; }

/* The cell an executed instruction hits, or -1 (invalid ttype: it traps). */
inline int instruction_cell(int form, int type, const MemoryAccess &m)
{
    if (is_reserved(form)) {
        return kCellReserved + (form - F_RESERVED);
    }
    if (type == kInvalidType) {
        return -1;
    }
    return is_memory(form) ? memory_cell(form, type, m.strided, m.partial) : other_cell(form, type);
}

/* Cell names: "tl.mload int8 strided partial", "csr tinit written", "trap load-page-fault". */
inline std::string cell_name(int cell)
{
    if (cell < kMemCells) {
        const int partial = cell & 1, strided = (cell >> 1) & 1, rest = cell >> 2;
        return std::string(form_name(rest / kNumTypes)) + " " + kTypeNames[rest % kNumTypes] +
               (strided ? " strided" : " contiguous") + (partial ? " partial-width" : " full-width");
    }
    if (cell < kCellReserved) {
        const int rest = cell - kMemCells;
        return std::string(form_name(4 + rest / kNumTypes)) + " " + kTypeNames[rest % kNumTypes];
    }
    if (cell < kCellCsr) {
        return form_name(F_RESERVED + cell - kCellReserved);
    }
    if (cell < kCellTrap) {
        return std::string("csr ") + kCsrNames[cell - kCellCsr] + " written";
    }
    return std::string("trap ") + kTrapNames[cell - kCellTrap];
}

/* Is word a TL CSR instruction that writes its CSR (section 2.5)? Returns the CSR index or -1. */
inline int csr_write_index(uint32_t w)
{
    if ((w & 0x7F) != 0x73) {
        return -1;
    }
    const unsigned f3 = (w >> 12) & 7, rs1 = (w >> 15) & 0x1F, csr = w >> 20;
    if (f3 == 0 || f3 == 4 || csr < kCsrBase || csr >= kCsrBase + kNumCsrs) {
        return -1;
    }
    const bool always = (f3 & 3) == 1;               /* csrrw, csrrwi */
    return always || rs1 != 0 ? int(csr - kCsrBase) : -1;
}

} // namespace tl

#endif
