/*
 * TL kernels written with the tl.* mnemonics of include/tl/tl_asm.S, called
 * from prog_main.c, which checks their results.  Built by gcc, so the macros
 * come in through the C preprocessor (#include) rather than .include.
 * Each function takes its source in a0, its destination in a1 (a scalar in a2).
 */
#include "tl/tl_asm.S"

#define CSR_TTYPE      0x800
#define CSR_TSHAPE     0x801
#define CSR_TMASK_LS   0x802
#define CSR_TMASK_C1   0x803
#define CSR_TMASK_C2   0x804
#define CSR_TSTRIDE    0x805
#define CSR_TWIDTH     0x806
#define CSR_TVALID     0x807

        .text

/* int8, block [4,16,16] = 1024 bytes, width = stride = 256 (one whole slice) */
        .type   tl_set_int8_1k, @function
tl_set_int8_1k:
        li      t0, 0x002
        csrw    CSR_TTYPE, t0
        li      t0, 0x00041010
        csrw    CSR_TSHAPE, t0
        li      t0, 256
        csrw    CSR_TWIDTH, t0
        csrw    CSR_TSTRIDE, t0
        ret
        .size   tl_set_int8_1k, . - tl_set_int8_1k

/* void tl_asm_addi(const uint8_t *src, uint8_t *dst): dst = sat(src - 5) */
        .globl  tl_asm_addi
        .type   tl_asm_addi, @function
tl_asm_addi:
        mv      t2, ra
        call    tl_set_int8_1k
        mv      ra, t2
        tl.load  tl1, 0(a0)
        tl.addi  tl2, tl1, -5
        tl.store tl2, 0(a1)
        ret
        .size   tl_asm_addi, . - tl_asm_addi

/* void tl_asm_addi_eng(const uint8_t *src, uint8_t *dst): the same with EngineID overrides;
 * the load/store go through s1/x9 and an explicit hex offset of 0x0 */
        .globl  tl_asm_addi_eng
        .type   tl_asm_addi_eng, @function
tl_asm_addi_eng:
        mv      t2, ra
        call    tl_set_int8_1k
        mv      ra, t2
        addi    sp, sp, -16
        sd      s1, 0(sp)
        mv      s1, a0
        tl.load  tl30, 0x0(s1), eng=3
        tl.addi  tl31, tl30, -5, eng=2
        mv      x9, a1
        tl.store tl31, -0x00(x9), eng=0
        ld      s1, 0(sp)
        addi    sp, sp, 16
        ret
        .size   tl_asm_addi_eng, . - tl_asm_addi_eng

/* void tl_asm_muls(const uint8_t *src, uint8_t *dst, unsigned long k): dst = sat(src * k) */
        .globl  tl_asm_muls
        .type   tl_asm_muls, @function
tl_asm_muls:
        mv      t2, ra
        call    tl_set_int8_1k
        mv      ra, t2
        tl.load  tl3, (a0)
        tl.muls  tl4, tl3, a2
        tl.store tl4, 0(a1)
        ret
        .size   tl_asm_muls, . - tl_asm_muls

/* void tl_asm_mload(const uint8_t *src, uint8_t *dst64): docs/isa.md 5.2 worked example:
 * [4,2,8] (S = 16), width 12, stride 100, tmask_ls 0b1011, tl.mload tl5, 1(a0);
 * then the 64-byte block is stored densely (width 16, stride 16). */
        .globl  tl_asm_mload
        .type   tl_asm_mload, @function
tl_asm_mload:
        li      t0, 0x002
        csrw    CSR_TTYPE, t0
        li      t0, 0x00040208
        csrw    CSR_TSHAPE, t0
        li      t0, 12
        csrw    CSR_TWIDTH, t0
        li      t0, 100
        csrw    CSR_TSTRIDE, t0
        li      t0, 0b1011
        csrw    CSR_TMASK_LS, t0
        tl.mload tl5, 1(a0)
        li      t0, 16
        csrw    CSR_TWIDTH, t0
        csrw    CSR_TSTRIDE, t0
        li      t0, 0xf
        csrw    CSR_TMASK_LS, t0
        tl.mstore tl5, 0(a1)
        ret
        .size   tl_asm_mload, . - tl_asm_mload

/* void tl_asm_concat_merge(const uint8_t *src, uint8_t *dst):
 * int8 [2,2,4] (S = 8, 16 bytes): tl1 = src[0..15], tl2 = src[16..31];
 * dst[0..15]  = tl.concat.2 with masks 0x0C / 0x03 (rows [c,d,e,f]),
 * dst[16..31] = tl.merge.0 with mask 0x1 (slice 0 of tl1, slice 1 of tl2). */
        .globl  tl_asm_concat_merge
        .type   tl_asm_concat_merge, @function
tl_asm_concat_merge:
        li      t0, 0x002
        csrw    CSR_TTYPE, t0
        li      t0, 0x00020204
        csrw    CSR_TSHAPE, t0
        li      t0, 8
        csrw    CSR_TWIDTH, t0
        csrw    CSR_TSTRIDE, t0
        tl.load  tl1, 0(a0)
        tl.load  tl2, 2(a0)                /* imm counts slice widths: +16 bytes */
        li      t0, 0x0C
        csrw    CSR_TMASK_C1, t0
        li      t0, 0x03
        csrw    CSR_TMASK_C2, t0
        tl.concat.2 tl3, tl1, tl2
        tl.store tl3, 0(a1)
        li      t0, 0x1
        csrw    CSR_TMASK_C1, t0
        tl.merge.0 tl4, tl1, tl2
        tl.store tl4, 2(a1)
        ret
        .size   tl_asm_concat_merge, . - tl_asm_concat_merge

/* void tl_asm_fillpad(const uint8_t *src, uint8_t *dst): int8 [4,16,16], tvalid [2,8,8],
 * dst = tl.fillpad.max of src (0xFF outside the valid region) */
        .globl  tl_asm_fillpad
        .type   tl_asm_fillpad, @function
tl_asm_fillpad:
        mv      t2, ra
        call    tl_set_int8_1k
        mv      ra, t2
        li      t0, 0x00020808
        csrw    CSR_TVALID, t0
        tl.load  tl6, 0(a0)
        tl.fillpad.max tl7, tl6
        tl.store tl7, 0(a1)
        ret
        .size   tl_asm_fillpad, . - tl_asm_fillpad

/* void tl_asm_xpose(const uint8_t *src2048, uint8_t *dst2048): int8 [8,16,8,2] ->
 * tl.xpose.01 -> [16,8,8,2]; tl1 = first 1024 bytes, tl2 = the rest */
        .globl  tl_asm_xpose
        .type   tl_asm_xpose, @function
tl_asm_xpose:
        mv      t2, ra
        call    tl_set_int8_1k
        mv      ra, t2
        tl.load  tl1, 0(a0)
        addi    a0, a0, 1024
        tl.load  tl2, 0(a0)
        li      a2, 0x02081008
        tl.xpose.01 tl1, tl2, a2
        tl.store tl1, 0(a1)
        addi    a1, a1, 1024
        tl.store tl2, 0(a1)
        ret
        .size   tl_asm_xpose, . - tl_asm_xpose

        .section .note.GNU-stack, "", @progbits
