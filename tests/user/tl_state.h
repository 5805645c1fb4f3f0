/*
 * The whole TL state of a thread as a value, for riscv64 guest tests:
 * read and written with the exact save and restore sequences of
 * docs/isa.md 2.6 (CSRs 0x800..0x808, then the registers as contiguous
 * 1024-byte blocks), so that uninitialized CSRs survive a round trip.
 * Reading leaves the state as it was.
 */
#ifndef TL_TESTS_TL_STATE_H
#define TL_TESTS_TL_STATE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tl/tl_insn.h"

struct tl_full_state {
    unsigned long csr[9];        /* csrr of 0x800 + i; csr[8] is tinit */
    uint8_t reg[32][1024];       /* reg[0] is tl0, always zero */
};

static inline unsigned long tl_state_csr_read(unsigned i)
{
    switch (i) {
    case 0: return tl_csr_read(0x800);
    case 1: return tl_csr_read(0x801);
    case 2: return tl_csr_read(0x802);
    case 3: return tl_csr_read(0x803);
    case 4: return tl_csr_read(0x804);
    case 5: return tl_csr_read(0x805);
    case 6: return tl_csr_read(0x806);
    case 7: return tl_csr_read(0x807);
    case 8: return tl_csr_read(0x808);
    }
    abort();
}

static inline void tl_state_csr_write(unsigned i, unsigned long v)
{
    switch (i) {
    case 0: tl_csr_write(0x800, v); return;
    case 1: tl_csr_write(0x801, v); return;
    case 2: tl_csr_write(0x802, v); return;
    case 3: tl_csr_write(0x803, v); return;
    case 4: tl_csr_write(0x804, v); return;
    case 5: tl_csr_write(0x805, v); return;
    case 6: tl_csr_write(0x806, v); return;
    case 7: tl_csr_write(0x807, v); return;
    case 8: tl_csr_write(0x808, v); return;
    }
    abort();
}

/* tl.load/tl.store name their register in the instruction: one case each. */
#define TL_STATE_REGS(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27)     \
    X(28) X(29) X(30) X(31)

static inline void tl_state_load_reg(unsigned r, const void *p)
{
#define TL_STATE_LOAD(n) case n: tl_load(n, 0, p); return;
    switch (r) { TL_STATE_REGS(TL_STATE_LOAD) }
#undef TL_STATE_LOAD
    abort();
}

static inline void tl_state_store_reg(unsigned r, void *p)
{
#define TL_STATE_STORE(n) case n: tl_store(n, 0, p); return;
    switch (r) { TL_STATE_REGS(TL_STATE_STORE) }
#undef TL_STATE_STORE
    abort();
}

/* One contiguous int8 block [4,16,16] of 1024 bytes, width = pitch = 256. */
static inline void tl_state_whole_register_view(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
}

/* The CSRs a tl.load/tl.store plan reads: type, shape, width and pitch. */
static inline void tl_state_set_plan(uint32_t ttype, uint32_t shape, uint32_t width, int32_t pitch)
{
    tl_csr_write(TL_CSR_TTYPE, ttype);
    tl_csr_write(TL_CSR_TSHAPE, shape);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, width);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)pitch);
}

/* Registers a and b set to p[0], p[1] (the whole-register view changes the CSRs). */
static inline void tl_state_load_pair(unsigned a, unsigned b, const uint8_t (*p)[1024])
{
    tl_state_whole_register_view();
    tl_state_load_reg(a, p[0]);
    tl_state_load_reg(b, p[1]);
}

/* Registers a and b into p[0], p[1] (the whole-register view changes the CSRs). */
static inline void tl_state_store_pair(unsigned a, unsigned b, uint8_t (*p)[1024])
{
    tl_state_whole_register_view();
    tl_state_store_reg(a, p[0]);
    tl_state_store_reg(b, p[1]);
}

/* CSRs 0x800..0x807 with the saved values, tinit last. */
static inline void tl_state_write_csrs(const struct tl_full_state *s)
{
    for (unsigned i = 0; i < 9; i++) {
        tl_state_csr_write(i, s->csr[i]);
    }
}

/* The exact save sequence; the CSRs are written back, so nothing changes. */
static inline void tl_state_read(struct tl_full_state *s)
{
    for (unsigned i = 0; i < 9; i++) {
        s->csr[i] = tl_state_csr_read(i);
    }
    tl_state_whole_register_view();
    memset(s->reg[0], 0, sizeof(s->reg[0]));
    for (unsigned r = 1; r < 32; r++) {
        tl_state_store_reg(r, s->reg[r]);
    }
    tl_state_write_csrs(s);
}

/* The exact restore sequence. */
static inline void tl_state_write(const struct tl_full_state *s)
{
    tl_state_whole_register_view();
    for (unsigned r = 1; r < 32; r++) {
        tl_state_load_reg(r, s->reg[r]);
    }
    tl_state_write_csrs(s);
}

/*
 * A state that belongs to `id` only: every register byte, every CSR value
 * and the initialized flags depend on it (the value a csrr returns: an
 * uninitialized CSR reads 0).
 */
static inline void tl_state_pattern(struct tl_full_state *s, unsigned id)
{
    static const unsigned long types[] = { 0x001, 0x002, 0x004, 0x008, 0x010, 0x040,
                                           0x080, 0x0c0, 0x100, 0x200, 0x400 };
    unsigned long init = 0x01 | ((id * 0x35u) & 0xfe);

    memset(s->reg[0], 0, sizeof(s->reg[0]));
    for (unsigned r = 1; r < 32; r++) {
        for (unsigned b = 0; b < 1024; b++) {
            s->reg[r][b] = (uint8_t)(id * 131 + r * 29 + b * 7 + (b >> 8));
        }
    }
    s->csr[0] = types[id % 11];
    s->csr[1] = TL_SHAPE(1 + id % 7, 1 + id % 5, 1 + id % 3);
    s->csr[2] = 0x9e3779b9u * (id + 1);
    s->csr[3] = 0x85ebca6bu ^ id;
    s->csr[4] = 0xc2b2ae35u + id;
    s->csr[5] = (unsigned long)(uint32_t)(-(int32_t)(16 * (id + 1)));
    s->csr[6] = 64 + id;
    s->csr[7] = TL_SHAPE(id % 2, id % 3, id % 4);
    for (unsigned i = 1; i < 8; i++) {
        if (!(init & (1u << i))) {
            s->csr[i] = 0;
        }
    }
    s->csr[8] = init;
}

/* 0 when equal, else 1 + the index of the first difference (CSR i, or 9 + register). */
static inline int tl_state_compare(const struct tl_full_state *a, const struct tl_full_state *b)
{
    for (unsigned i = 0; i < 9; i++) {
        if (a->csr[i] != b->csr[i]) {
            return 1 + (int)i;
        }
    }
    for (unsigned r = 0; r < 32; r++) {
        if (memcmp(a->reg[r], b->reg[r], 1024) != 0) {
            return 10 + (int)r;
        }
    }
    return 0;
}

#endif /* TL_TESTS_TL_STATE_H */
