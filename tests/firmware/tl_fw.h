/*
 * Shared helpers of the TL firmware test programs (header-only, static).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_FW_TL_FW_H
#define TL_FW_TL_FW_H

#include "rt.h"

#define MODE_M (3UL << MSTATUS_MPP_SHIFT)   /* for mode_name(): not used with run_in */

/* TL CSR access by run-time number (0x800-0x807). */
static inline unsigned long tlcsr_read(int n)
{
    switch (n) {
    case 0x800: return tl_csr_read(0x800);
    case 0x801: return tl_csr_read(0x801);
    case 0x802: return tl_csr_read(0x802);
    case 0x803: return tl_csr_read(0x803);
    case 0x804: return tl_csr_read(0x804);
    case 0x805: return tl_csr_read(0x805);
    case 0x806: return tl_csr_read(0x806);
    default: return tl_csr_read(0x807);
    }
}

static inline void tlcsr_write(int n, unsigned long v)
{
    switch (n) {
    case 0x800: tl_csr_write(0x800, v); break;
    case 0x801: tl_csr_write(0x801, v); break;
    case 0x802: tl_csr_write(0x802, v); break;
    case 0x803: tl_csr_write(0x803, v); break;
    case 0x804: tl_csr_write(0x804, v); break;
    case 0x805: tl_csr_write(0x805, v); break;
    case 0x806: tl_csr_write(0x806, v); break;
    default: tl_csr_write(0x807, v); break;
    }
}

static const char *const tlcsr_names[8] = {
    "ttype", "tshape", "tmask_ls", "tmask_concat_1", "tmask_concat_2",
    "tmask_load_stride", "tmask_load_width", "tvalid",
};

/* csrrs rd=x0 / csrrw rd=x0 words for TL CSR n (for mtval checks): */
#define CSRR_WORD(csr, rd)   (((uint32_t)(csr) << 20) | (2u << 12) | ((uint32_t)(rd) << 7) | 0x73u)
#define CSRW_WORD(csr, rs1)  (((uint32_t)(csr) << 20) | ((uint32_t)(rs1) << 15) | (1u << 12) | 0x73u)

/* little-endian element helpers */
static inline void put16(uint8_t *b, size_t n, uint16_t v) { b[2 * n] = v; b[2 * n + 1] = v >> 8; }
static inline void put32(uint8_t *b, size_t n, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        b[4 * n + i] = v >> (8 * i);
    }
}
static inline uint8_t mem_pat(size_t k) { return (uint8_t)(k * 7 + 0x31); }

/* Fills tlr with 0xEE, leaving the eight TL CSRs as they were (all initialized). */
static inline void tl_poison(int tlr)
{
    unsigned long saved[8];

    for (int i = 0; i < 8; i++) saved[i] = tlcsr_read(0x800 + i);
    tl_fill_byte(tlr, 0xEE);
    for (int i = 0; i < 8; i++) tlcsr_write(0x800 + i, saved[i]);
}

/*
 * One instruction that must not trap, then tlr compared with want[1024].
 * Unless tlr is also a TL source of the word (aliasing cases), tlr is first
 * filled with 0xEE so that an instruction that does nothing cannot pass.
 */
static inline int run_cmp(uint32_t w, uint64_t t0, uint64_t t1, int tlr, const uint8_t *want,
                          const char *what)
{
    static uint8_t rb[1024] __attribute__((aligned(64)));
    unsigned f3 = XTL_EXTRACT(FUNCT3, w), b19 = XTL_EXTRACT(OPERAND_A, w);
    unsigned b24 = XTL_EXTRACT(OPERAND_B, w);
    int src = (f3 == XTL_FUNCT3_CONCAT && (b19 == (unsigned)tlr || b24 == (unsigned)tlr)) ||
              ((f3 == XTL_FUNCT3_ADDI || f3 == XTL_FUNCT3_MULS || f3 == XTL_FUNCT3_FILLPAD) &&
               b19 == (unsigned)tlr);
    int ok;

    if (!src && tlr != 0) {
        tl_poison(tlr);
    }
    ok = expect_no_trap(w, t0, t1);
    memset(rb, 0x5A, sizeof(rb));
    ok = !tl_dump(tlr, rb) && ok;
    return mem_equal(what, rb, want, 1024) && ok;
}

static inline int reg_is(int tlr, const uint8_t *want, const char *what)
{
    static uint8_t rb2[1024] __attribute__((aligned(64)));

    memset(rb2, 0x5A, sizeof(rb2));
    if (tl_dump(tlr, rb2)) {
        diag("%s: dump of tl%d trapped", what, tlr);
        return 0;
    }
    return mem_equal(what, rb2, want, 1024);
}

#endif
