/*
 * References of TL instructions for the test programs (bare-metal,
 * linux-user and the unit tests), written out from docs/isa.md and
 * independent of the code they check: the register an unmasked load of
 * whole bytes gives and the memory an unmasked store leaves (5.2), and
 * tl.xpose's element loop (5.5) for 4-, 8-, 16- and 32-bit elements.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TESTS_TL_REF_H
#define TL_TESTS_TL_REF_H

#include <stdint.h>
#include <string.h>

static inline unsigned xpose_ref_get(const uint8_t *buf, unsigned n, unsigned e)
{
    unsigned v = 0;

    if (e == 4) {
        return (buf[n / 2] >> (4 * (n % 2))) & 0xF;
    }
    for (unsigned k = 0; k < e / 8; k++) {
        v |= (unsigned)buf[n * (e / 8) + k] << (8 * k);
    }
    return v;
}

static inline void xpose_ref_set(uint8_t *buf, unsigned n, unsigned e, unsigned v)
{
    if (e == 4) {
        unsigned sh = 4 * (n % 2);
        buf[n / 2] = (uint8_t)((buf[n / 2] & ~(0xFu << sh)) | ((v & 0xF) << sh));
        return;
    }
    for (unsigned k = 0; k < e / 8; k++) {
        buf[n * (e / 8) + k] = (uint8_t)(v >> (8 * k));
    }
}

/* out (2048 bytes) = the tensor in of shape D, e-bit elements, with dimensions a and b swapped. */
static inline void xpose_ref(const uint8_t *in, uint8_t *out, const unsigned D[4], unsigned a,
                             unsigned b, unsigned e)
{
    unsigned Do[4] = {D[0], D[1], D[2], D[3]};
    unsigned idx[4], o[4];

    Do[a] = D[b];
    Do[b] = D[a];
    memset(out, 0, 2048);
    for (idx[0] = 0; idx[0] < D[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < D[1]; idx[1]++)
            for (idx[2] = 0; idx[2] < D[2]; idx[2]++)
                for (idx[3] = 0; idx[3] < D[3]; idx[3]++) {
                    unsigned ni = ((idx[0] * D[1] + idx[1]) * D[2] + idx[2]) * D[3] + idx[3];
                    memcpy(o, idx, sizeof(o));
                    o[a] = idx[b];
                    o[b] = idx[a];
                    unsigned no = ((o[0] * Do[1] + o[1]) * Do[2] + o[2]) * Do[3] + o[3];
                    xpose_ref_set(out, no, e, xpose_ref_get(in, ni, e));
                }
}

/* reg (1024 bytes) = d0 slices of w bytes from base + i * p, at i * s, zero elsewhere. */
static inline void load_ref(uint8_t *reg, const uint8_t *base, unsigned d0, unsigned s, unsigned w,
                            long p)
{
    memset(reg, 0, 1024);
    for (unsigned i = 0; i < d0; i++) {
        memcpy(reg + i * s, base + (long)i * p, w);
    }
}

/*
 * An unmasked store of reg to base (5.2): d0 slices, the w bytes of slice i
 * from reg + i * s to base + i * p, in increasing i, so that where slices
 * overlap in memory the highest-numbered one stays.
 */
static inline void store_ref(uint8_t *base, const uint8_t *reg, unsigned d0, unsigned s, unsigned w,
                             long p)
{
    for (unsigned i = 0; i < d0; i++) {
        memmove(base + (long)i * p, reg + i * s, w);
    }
}

/* The two registers pair[0], pair[1] as the tensor of shape D, swapped along a and b. */
static inline void xpose_ref_pair(uint8_t (*pair)[1024], const unsigned D[4], unsigned a, unsigned b,
                                  unsigned e)
{
    static uint8_t in[2048], out[2048];

    memcpy(in, pair[0], 1024);
    memcpy(in + 1024, pair[1], 1024);
    xpose_ref(in, out, D, a, b, e);
    memcpy(pair[0], out, 1024);
    memcpy(pair[1], out + 1024, 1024);
}

#endif /* TL_TESTS_TL_REF_H */
