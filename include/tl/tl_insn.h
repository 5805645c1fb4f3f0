/*
 * TensorLoad (xtl) for riscv64 guest programs in C and C++: CSR numbers,
 * instruction encodings and one macro per instruction.
 *
 *   tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
 *   tl_load(1, 0, src);          // tl.load  tl1, 0(src)
 *   tl_addi(2, 1, -5);           // tl.addi  tl2, tl1, -5
 *   tl_store(2, 0, dst);         // tl.store tl2, 0(dst)
 *
 * TLReg numbers, immediates, dims and pad kinds are compile-time constants
 * (they are instruction fields).  Pointers and scalars are run-time values,
 * passed in fixed GPRs (t0, t1) so that the whole instruction word is a
 * compile-time constant.  The encodings follow docs/isa.md; the fields, forms,
 * EngineIDs and CSR numbers are those of the generated tl/xtl-opc.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TL_INSN_H
#define TL_TL_INSN_H

#include <stdint.h>

#include "xtl-opc.h"

/* ---- CSRs (numbers from tl/xtl-opc.h) ---- */
#define TL_CSR_TTYPE             XTL_CSR_TTYPE
#define TL_CSR_TSHAPE            XTL_CSR_TSHAPE
#define TL_CSR_TMASK_LS          XTL_CSR_TMASK_LS
#define TL_CSR_TMASK_CONCAT_1    XTL_CSR_TMASK_CONCAT_1
#define TL_CSR_TMASK_CONCAT_2    XTL_CSR_TMASK_CONCAT_2
#define TL_CSR_TMASK_LOAD_STRIDE XTL_CSR_TMASK_LOAD_STRIDE
#define TL_CSR_TMASK_LOAD_WIDTH  XTL_CSR_TMASK_LOAD_WIDTH
#define TL_CSR_TVALID            XTL_CSR_TVALID
#define TL_CSR_TINIT             XTL_CSR_TINIT  /* bit i: CSR 0x800 + i initialized (docs/isa.md 2.6) */

/* ttype values (tl/xtl-opc.h) */
#define TL_TYPE_INT4  XTL_TTYPE_INT4
#define TL_TYPE_INT8  XTL_TTYPE_INT8
#define TL_TYPE_INT16 XTL_TTYPE_INT16
#define TL_TYPE_INT32 XTL_TTYPE_INT32
#define TL_TYPE_E2M1  XTL_TTYPE_E2M1
#define TL_TYPE_E4M3  XTL_TTYPE_E4M3
#define TL_TYPE_E5M2  XTL_TTYPE_E5M2
#define TL_TYPE_E3M4  XTL_TTYPE_E3M4
#define TL_TYPE_FP16  XTL_TTYPE_FP16
#define TL_TYPE_BF16  XTL_TTYPE_BF16
#define TL_TYPE_FP32  XTL_TTYPE_FP32

/* tshape / tvalid: [23:16] D0, [15:8] D1, [7:0] D2 */
#define TL_SHAPE(d0, d1, d2) \
    ((((uint32_t)(d0) & 0xffu) << 16) | (((uint32_t)(d1) & 0xffu) << 8) | ((uint32_t)(d2) & 0xffu))
/* tl.xpose dims GPR: D3[31:24] D2[23:16] D1[15:8] D0[7:0] */
#define TL_DIMS4(d0, d1, d2, d3) \
    (TL_SHAPE(d2, d1, d0) | (((uint32_t)(d3) & 0xffu) << 24))

#define tl_csr_write(csr, value) \
    __asm__ volatile("csrw " TL__STR(csr) ", %0" : : "r"((unsigned long)(value)) : "memory")
#define tl_csr_read(csr) __extension__({ \
    unsigned long tl__v; \
    __asm__ volatile("csrr %0, " TL__STR(csr) : "=r"(tl__v) : : "memory"); \
    tl__v; })
#define TL__STR2(x) #x
#define TL__STR(x) TL__STR2(x)

/*
 * ---- encodings ----
 * Every field, MATCH_ value and EngineID comes from tl/xtl-opc.h, generated
 * from the opcode table of scripts/xtl-encodings.py.  Each TL_ENC_* macro
 * takes its arguments modulo the width of their fields.
 */
#define TL_OPCODE      XTL_OPCODE
#define TL_ENG_LOAD    XTL_ENG_LOAD     /* EngineID the assembler emits for loads */
#define TL_ENG_COMP    XTL_ENG_COMP     /* addi, muls */
#define TL_ENG_STORE   XTL_ENG_STORE    /* stores */
#define TL_ENG_RESHAPE XTL_ENG_RESHAPE  /* concat, merge, xpose, fillpad */

#define TL_ENC_MEM(eng, st, tm, tlr, imm8, gpr)                                   \
    ((uint32_t)(XTL_OPCODE | XTL_INSERT(FUNCT3, XTL_FUNCT3_MEM) | XTL_INSERT(ENG, eng) | \
                XTL_INSERT(MEM_ST, st) | XTL_INSERT(MEM_TM, tm) |                  \
                XTL_INSERT(MEM_IMM8, imm8) | XTL_INSERT(MEM_TLR, tlr) |            \
                XTL_INSERT(MEM_RS1, gpr)))
/* merge 0: tl.concat.dim, 1: tl.merge.dim */
#define TL_ENC_MOVE(eng, merge, dim, rd, rs1, rs2)                                 \
    ((uint32_t)(((merge) & 1u ? MATCH_TL_MERGE_0 : MATCH_TL_CONCAT_0) |           \
                XTL_INSERT(ENG, eng) | XTL_INSERT(MOVE_DIM, dim) |                 \
                XTL_INSERT(MOVE_TLRS2, rs2) | XTL_INSERT(MOVE_TLRS1, rs1) |        \
                XTL_INSERT(MOVE_TLRD, rd)))
#define TL_ENC_ADDI(eng, rd, rs, imm8)                                             \
    ((uint32_t)(MATCH_TL_ADDI | XTL_INSERT(ENG, eng) | XTL_INSERT(ADDI_IMM8, imm8) | \
                XTL_INSERT(ADDI_TLRS, rs) | XTL_INSERT(ADDI_TLRD, rd)))
/*
 * tl.xpose.AB swaps dims A and B; funct5[3:2] and [1:0] name them in either
 * order.  TL_XPOSE_FUNCT5 gives the value the assembler emits (docs/isa.md 4.4,
 * the MATCH_TL_XPOSE_AB rows): .01 0x01, .02 0x02, .03 0x03, .12 0x09,
 * .13 0x0D, .23 0x0B; .AA has both dimension fields A.
 */
#define TL__MIN(a, b) ((a) < (b) ? (a) : (b))
#define TL__MAX(a, b) ((a) < (b) ? (b) : (a))
#define TL__XPOSE_F5(match) ((uint32_t)XTL_EXTRACT(FUNCT5, match))
#define TL__XPOSE_PAIR(lo, hi)                                                     \
    ((lo) == 0 && (hi) == 1 ? TL__XPOSE_F5(MATCH_TL_XPOSE_01) :                    \
     (lo) == 0 && (hi) == 2 ? TL__XPOSE_F5(MATCH_TL_XPOSE_02) :                    \
     (lo) == 0 && (hi) == 3 ? TL__XPOSE_F5(MATCH_TL_XPOSE_03) :                    \
     (lo) == 1 && (hi) == 2 ? TL__XPOSE_F5(MATCH_TL_XPOSE_12) :                    \
     (lo) == 1 && (hi) == 3 ? TL__XPOSE_F5(MATCH_TL_XPOSE_13) :                    \
     (lo) == 2 && (hi) == 3 ? TL__XPOSE_F5(MATCH_TL_XPOSE_23) :                    \
     (uint32_t)((XTL_INSERT(XPOSE_DIM1, hi) | XTL_INSERT(XPOSE_DIM0, lo)) >> XTL_FUNCT5_SHIFT))
#define TL_XPOSE_FUNCT5(a, b) TL__XPOSE_PAIR(TL__MIN(a, b), TL__MAX(a, b))
#define TL_ENC_XPOSE_F5(eng, funct5, rs1, rs2, gpr)                                \
    ((uint32_t)(XTL_OPCODE | XTL_INSERT(FUNCT3, XTL_FUNCT3_XPOSE) | XTL_INSERT(ENG, eng) | \
                XTL_INSERT(FUNCT5, funct5) | XTL_INSERT(XPOSE_TLRS2, rs2) |        \
                XTL_INSERT(XPOSE_TLRS1, rs1) | XTL_INSERT(XPOSE_RS, gpr)))
#define TL_ENC_XPOSE(eng, a, b, rs1, rs2, gpr) \
    TL_ENC_XPOSE_F5(eng, TL_XPOSE_FUNCT5(a, b), rs1, rs2, gpr)
#define TL_ENC_MULS(eng, rd, rs, gpr)                                              \
    ((uint32_t)(MATCH_TL_MULS | XTL_INSERT(ENG, eng) | XTL_INSERT(MULS_RS2, gpr) | \
                XTL_INSERT(MULS_TLRS, rs) | XTL_INSERT(MULS_TLRD, rd)))
/* pad: TL_PAD_*; 3 gives the reserved PP = 11 */
#define TL_ENC_FILLPAD(eng, pad, rd, rs)                                           \
    ((uint32_t)(MATCH_TL_FILLPAD_ZERO | XTL_INSERT(ENG, eng) | XTL_INSERT(FILLPAD_PP, pad) | \
                XTL_INSERT(FILLPAD_TLRS, rs) | XTL_INSERT(FILLPAD_TLRD, rd)))

#define TL_PAD_ZERO XTL_PAD_ZERO
#define TL_PAD_MIN  XTL_PAD_MIN
#define TL_PAD_MAX  XTL_PAD_MAX

/*
 * GPRs that carry run-time operands: t0 = x5 (address), t1 = x6 (dims,
 * scalar), t2 = x7 (the second address of tl_load_load_xpose).
 */
#define TL__GPR_ADDR  5
#define TL__GPR_ARG   6
#define TL__GPR_ADDR2 7
/* t3 = x28, t4 = x29: the two store addresses of tl_load_load_xpose_store_store. */
#define TL__GPR_ADDR3 28
#define TL__GPR_ADDR4 29

/*
 * The word is emitted as the fields of `.insn r` (opcode, funct3, funct7, and
 * the 5-bit fields at [11:7], [19:15] and [24:20] written as x registers),
 * which GNU as and LLVM's assembler both accept; clang 16 has no `.insn 4,
 * word`.  Every TL word has opcode bits [1:0] = 11, so the fields hold it all.
 */
#define TL__INSN_R ".insn r %0, %1, %2, x%3, x%4, x%5"
#define TL__INSN_FIELDS(word)                                                      \
    "n"((word) & 0x7fu), "n"(((word) >> 12) & 7u), "n"(((word) >> 25) & 0x7fu),   \
    "n"(((word) >> 7) & 31u), "n"(((word) >> 15) & 31u), "n"(((word) >> 20) & 31u)

#define TL__INSN_ADDR(word, ptr) do {                                              \
    register const void *tl__addr __asm__("t0") = (const void *)(ptr);            \
    __asm__ volatile(TL__INSN_R : : TL__INSN_FIELDS(word), "r"(tl__addr) : "memory"); \
} while (0)
#define TL__INSN_ARG(word, value) do {                                             \
    register unsigned long tl__arg __asm__("t1") = (unsigned long)(value);        \
    __asm__ volatile(TL__INSN_R : : TL__INSN_FIELDS(word), "r"(tl__arg) : "memory"); \
} while (0)
#define TL__INSN(word) __asm__ volatile(TL__INSN_R : : TL__INSN_FIELDS(word) : "memory")
/* TL__INSN_R of the second and third word of one asm statement (operands 6-11, 12-17). */
#define TL__INSN_R_2ND ".insn r %6, %7, %8, x%9, x%10, x%11"
#define TL__INSN_R_3RD ".insn r %12, %13, %14, x%15, x%16, x%17"

/* ---- one macro per instruction ---- */
#define tl_load(tlrd, imm8, ptr)   TL__INSN_ADDR(TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlrd, imm8, TL__GPR_ADDR), ptr)
#define tl_mload(tlrd, imm8, ptr)  TL__INSN_ADDR(TL_ENC_MEM(TL_ENG_LOAD, 0, 1, tlrd, imm8, TL__GPR_ADDR), ptr)
#define tl_store(tlrs, imm8, ptr)  TL__INSN_ADDR(TL_ENC_MEM(TL_ENG_STORE, 1, 0, tlrs, imm8, TL__GPR_ADDR), ptr)
#define tl_mstore(tlrs, imm8, ptr) TL__INSN_ADDR(TL_ENC_MEM(TL_ENG_STORE, 1, 1, tlrs, imm8, TL__GPR_ADDR), ptr)
#define tl_concat(dim, tlrd, tlrs1, tlrs2) TL__INSN(TL_ENC_MOVE(TL_ENG_RESHAPE, 0, dim, tlrd, tlrs1, tlrs2))
#define tl_merge(dim, tlrd, tlrs1, tlrs2)  TL__INSN(TL_ENC_MOVE(TL_ENG_RESHAPE, 1, dim, tlrd, tlrs1, tlrs2))
/* tl_xpose(0, 1, ...) is tl.xpose.01 */
#define tl_xpose(a, b, tlrs1, tlrs2, dims) \
    TL__INSN_ARG(TL_ENC_XPOSE(TL_ENG_RESHAPE, a, b, tlrs1, tlrs2, TL__GPR_ARG), dims)
/*
 * tl.load tlrs1, 0(ptr1); tl.load tlrs2, 0(ptr2); tl.xpose.ab tlrs1, tlrs2,
 * dims: three words in a row, which TL-QEMU runs in one pass, writing each
 * register once (docs/performance.md).
 */
#define tl_load_load_xpose(a, b, tlrs1, tlrs2, ptr1, ptr2, dims) do {               \
    register const void *tl__addr __asm__("t0") = (const void *)(ptr1);            \
    register const void *tl__addr2 __asm__("t2") = (const void *)(ptr2);           \
    register unsigned long tl__arg __asm__("t1") = (unsigned long)(dims);          \
    __asm__ volatile(TL__INSN_R "\n\t" TL__INSN_R_2ND "\n\t" TL__INSN_R_3RD          \
                     : : TL__INSN_FIELDS(TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlrs1, 0, TL__GPR_ADDR)), \
                         TL__INSN_FIELDS(TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlrs2, 0, TL__GPR_ADDR2)), \
                         TL__INSN_FIELDS(TL_ENC_XPOSE(TL_ENG_RESHAPE, a, b, tlrs1, tlrs2, TL__GPR_ARG)), \
                         "r"(tl__addr), "r"(tl__addr2), "r"(tl__arg)                 \
                     : "memory");                                                  \
} while (0)
/*
 * tl_load_load_xpose, then tl.store tlrs1, 0(out1); tl.store tlrs2,
 * 0(out2): five words in a row, which TL-QEMU runs in one pass (a 2 KiB
 * interleave or transpose from memory to memory that leaves the result in
 * the two registers as well).  Operands %0 (the opcode) and %1, %2 (the
 * funct3 of the memory words and of the xpose) are shared, as an asm
 * statement takes at most 30.
 */
#define TL__INSN_R_FIELDS4(word)                                                    \
    "n"(((word) >> 25) & 0x7fu), "n"(((word) >> 7) & 31u), "n"(((word) >> 15) & 31u), \
    "n"(((word) >> 20) & 31u)
#define tl_load_load_xpose_store_store(a, b, tlrs1, tlrs2, ptr1, ptr2, dims, out1, out2) do { \
    register const void *tl__addr __asm__("t0") = (const void *)(ptr1);            \
    register const void *tl__addr2 __asm__("t2") = (const void *)(ptr2);           \
    register unsigned long tl__arg __asm__("t1") = (unsigned long)(dims);          \
    register void *tl__addr3 __asm__("t3") = (void *)(out1);                       \
    register void *tl__addr4 __asm__("t4") = (void *)(out2);                       \
    __asm__ volatile(".insn r %0, %1, %3, x%4, x%5, x%6\n\t"                        \
                     ".insn r %0, %1, %7, x%8, x%9, x%10\n\t"                       \
                     ".insn r %0, %2, %11, x%12, x%13, x%14\n\t"                    \
                     ".insn r %0, %1, %15, x%16, x%17, x%18\n\t"                    \
                     ".insn r %0, %1, %19, x%20, x%21, x%22"                        \
                     : : "n"(TL_OPCODE & 0x7fu),                                    \
                         "n"((TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlrs1, 0, TL__GPR_ADDR) >> 12) & 7u), \
                         "n"((TL_ENC_XPOSE(TL_ENG_RESHAPE, a, b, tlrs1, tlrs2, TL__GPR_ARG) >> 12) & 7u), \
                         TL__INSN_R_FIELDS4(TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlrs1, 0, TL__GPR_ADDR)), \
                         TL__INSN_R_FIELDS4(TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlrs2, 0, TL__GPR_ADDR2)), \
                         TL__INSN_R_FIELDS4(TL_ENC_XPOSE(TL_ENG_RESHAPE, a, b, tlrs1, tlrs2, TL__GPR_ARG)), \
                         TL__INSN_R_FIELDS4(TL_ENC_MEM(TL_ENG_STORE, 1, 0, tlrs1, 0, TL__GPR_ADDR3)), \
                         TL__INSN_R_FIELDS4(TL_ENC_MEM(TL_ENG_STORE, 1, 0, tlrs2, 0, TL__GPR_ADDR4)), \
                         "r"(tl__addr), "r"(tl__addr2), "r"(tl__arg), "r"(tl__addr3), "r"(tl__addr4) \
                     : "memory");                                                   \
} while (0)
#define tl_addi(tlrd, tlrs, imm8)  TL__INSN(TL_ENC_ADDI(TL_ENG_COMP, tlrd, tlrs, imm8))
#define tl_muls(tlrd, tlrs, scalar) TL__INSN_ARG(TL_ENC_MULS(TL_ENG_COMP, tlrd, tlrs, TL__GPR_ARG), scalar)
#define tl_fillpad(pad, tlrd, tlrs) TL__INSN(TL_ENC_FILLPAD(TL_ENG_RESHAPE, pad, tlrd, tlrs))

#endif /* TL_TL_INSN_H */
