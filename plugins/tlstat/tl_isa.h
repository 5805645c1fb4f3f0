/*
 * The TL (xtl) instruction set as tlstat sees it: decoding of CUSTOM-2 words,
 * element types, the bytes a memory instruction moves, the operand checks that
 * decide between an illegal-instruction trap and a memory fault, and the
 * fixed coverage matrix.  Everything here follows docs/isa.md (section numbers
 * in the comments); nothing depends on QEMU.  The encodings (legal forms,
 * reserved rules, fields, CSR numbers) are the rows of xtl-opc.h, generated
 * from the opcode table of scripts/xtl-encodings.py.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TLSTAT_TL_ISA_H
#define TLSTAT_TL_ISA_H

#include <cstdint>
#include <string>
#include <vector>

/* TL-QEMU's include/tl/, linked into QEMU's include/ as include/tl. */
#include "tl/xtl-opc.h"

namespace tl {

constexpr uint32_t kCustom2 = XTL_OPCODE;
constexpr int kNumCsrs = XTL_NUM_CSRS;      /* 0x800 .. 0x808 */
constexpr uint32_t kCsrBase = XTL_CSR_TTYPE;
#define TL_ISA_CSR_NAME(sym, name, number, wmask, reset) name,
constexpr const char *kCsrNames[kNumCsrs] = { XTL_CSRS(TL_ISA_CSR_NAME) };
#undef TL_ISA_CSR_NAME
/* The bits a write stores (the rest read as zero). */
#define TL_ISA_CSR_WMASK(sym, name, number, wmask, reset) wmask,
constexpr uint32_t kCsrWritable[kNumCsrs] = { XTL_CSRS(TL_ISA_CSR_WMASK) };
#undef TL_ISA_CSR_WMASK
enum Csr { TTYPE, TSHAPE, TMASK_LS, TMASK_C1, TMASK_C2, TSTRIDE, TWIDTH, TVALID, TINIT };
static_assert(XTL_CSR_TSHAPE - kCsrBase == TSHAPE && XTL_CSR_TMASK_LS - kCsrBase == TMASK_LS &&
              XTL_CSR_TMASK_CONCAT_1 - kCsrBase == TMASK_C1 &&
              XTL_CSR_TMASK_CONCAT_2 - kCsrBase == TMASK_C2 &&
              XTL_CSR_TMASK_LOAD_STRIDE - kCsrBase == TSTRIDE &&
              XTL_CSR_TMASK_LOAD_WIDTH - kCsrBase == TWIDTH &&
              XTL_CSR_TVALID - kCsrBase == TVALID && XTL_CSR_TINIT - kCsrBase == TINIT,
              "enum Csr is CSR number - 0x800");

/* Element types of section 3.1, in table order; kInvalidType for any other ttype. */
constexpr int kNumTypes = 11;
constexpr int kInvalidType = kNumTypes;
constexpr uint32_t kTypeCodes[kNumTypes] = {
    XTL_TTYPE_INT4, XTL_TTYPE_INT8, XTL_TTYPE_INT16, XTL_TTYPE_INT32, XTL_TTYPE_E2M1, XTL_TTYPE_E4M3,
    XTL_TTYPE_E5M2, XTL_TTYPE_E3M4, XTL_TTYPE_FP16,  XTL_TTYPE_BF16, XTL_TTYPE_FP32,
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
 * xpose by its sorted dimension pair (all no-op pairs are tl.xpose.nop),
 * plus one form per reserved encoding rule R1..R10 of section 4.6.
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
    F_NUM = F_RESERVED + XTL_NUM_RESERVED_RULES,
};

constexpr const char *kFormNames[F_NUM] = {
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

inline const char *form_name(int f)
{
    return f >= 0 && f < F_NUM ? kFormNames[f] : "?";
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

/* The rows of xtl-opc.h: each legal form with its Form, each reserved row with its rule. */
struct FormRow {
    uint32_t match, mask;
    unsigned kind;
    int form;
};
struct ReservedRow {
    uint32_t match, mask;
    int rule;
};

constexpr bool same_name(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* The Form of a row of XTL_FORMS: by mnemonic; the xpose rows not named are no-ops. */
constexpr int row_form(const char *name, unsigned kind)
{
    for (int f = 0; f < F_NUM_VALID; f++) {
        if (same_name(name, kFormNames[f])) {
            return f;
        }
    }
    return kind == XTL_KIND_XPOSE ? F_XPOSE_NOP : -1;
}

#define TL_ISA_FORM_ROW(sym, name, match, mask, kind, eng) \
    FormRow{match, mask, kind, row_form(name, kind)},
constexpr FormRow kFormRows[] = { XTL_FORMS(TL_ISA_FORM_ROW) };
#undef TL_ISA_FORM_ROW
#define TL_ISA_RESERVED_ROW(rule, match, mask) ReservedRow{match, mask, rule},
constexpr ReservedRow kReservedRows[] = { XTL_RESERVED(TL_ISA_RESERVED_ROW) };
#undef TL_ISA_RESERVED_ROW

constexpr bool every_row_has_a_form()
{
    for (const FormRow &r : kFormRows) {
        if (r.form < 0) {
            return false;
        }
    }
    return true;
}
static_assert(every_row_has_a_form(), "a form of xtl-opc.h that tlstat does not know");

/*
 * Section 4.5, with the reserved encodings of section 4.6 as forms: the row
 * of XTL_FORMS that w matches, or else the first row of XTL_RESERVED (every
 * CUSTOM-2 word matches one; scripts/xtl-encodings.py --verify checks it).
 * Callers pass CUSTOM-2 words; the opcode bits are not looked at.
 */
inline Insn decode(uint32_t w)
{
    Insn d{};
    w = (w & ~XTL_OPCODE_MASK) | XTL_OPCODE;
    d.engine = XTL_EXTRACT(ENG, w);
    d.form = F_RESERVED;
    for (const FormRow &r : kFormRows) {
        if ((w & r.mask) == r.match) {
            d.form = r.form;
            if (r.kind == XTL_KIND_XPOSE) {
                d.rs = XTL_EXTRACT(XPOSE_RS, w);
                d.tl_a = XTL_EXTRACT(XPOSE_TLRS1, w);
                d.tl_b = XTL_EXTRACT(XPOSE_TLRS2, w);
            } else if (r.kind == XTL_KIND_MULS) {
                d.rs = XTL_EXTRACT(MULS_RS2, w);
            }
            return d;
        }
    }
    for (const ReservedRow &r : kReservedRows) {
        if ((w & r.mask) == r.match) {
            d.form = F_RESERVED + r.rule - 1;
            break;
        }
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
constexpr int kCellCsr = kCellReserved + XTL_NUM_RESERVED_RULES;
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
    const unsigned f3 = (w >> 12) & 7, rs1 = (w >> 15) & 0x1F, csr = w >> 20;   /* Zicsr fields */
    if (f3 == 0 || f3 == 4 || csr < kCsrBase || csr >= kCsrBase + kNumCsrs) {
        return -1;
    }
    const bool always = (f3 & 3) == 1;               /* csrrw, csrrwi */
    return always || rs1 != 0 ? int(csr - kCsrBase) : -1;
}

} // namespace tl

#endif
