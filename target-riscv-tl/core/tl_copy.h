/*
 * Copies used by the semantic core and by its QEMU glue for the bytes TL
 * moves between guest memory and TL registers.  Header-only, C and C++; not
 * part of the C ABI of tl_core.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_COPY_H
#define TL_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * memcpy of up to a register or a page through the C library.  GCC expands
 * a copy whose size it knows to be bounded inline as `rep movs`, several
 * times slower on current x86 hosts than the library's vector code; hiding
 * the size keeps the library call.
 */
static inline void tl_bulk_copy(void *dst, const void *src, size_t n)
{
#if defined(__GNUC__)
    __asm__("" : "+r"(n));
#endif
    memcpy(dst, src, n);
}

/*
 * A copy of a short, run-time size between distinct buffers: two
 * overlapping fixed-size moves, which compile to plain loads and stores (a
 * loop would be recognised as memcpy and expanded as `rep movs`).
 */
static inline __attribute__((always_inline)) void tl_copy_bytes(void *dst_, const void *src_, size_t n)
{
    uint8_t *dst = (uint8_t *)dst_;
    const uint8_t *src = (const uint8_t *)src_;

    if (n > 64) {
        tl_bulk_copy(dst, src, n);
    } else if (n >= 32) {
        uint8_t a[32], b[32];
        memcpy(a, src, 32);
        memcpy(b, src + n - 32, 32);
        memcpy(dst, a, 32);
        memcpy(dst + n - 32, b, 32);
    } else if (n >= 16) {
        uint8_t a[16], b[16];
        memcpy(a, src, 16);
        memcpy(b, src + n - 16, 16);
        memcpy(dst, a, 16);
        memcpy(dst + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &b, 4);
    } else if (n != 0) {
        const uint8_t first = src[0], mid = src[n / 2], last = src[n - 1];
        dst[0] = first;
        dst[n / 2] = mid;
        dst[n - 1] = last;
    }
}

#endif /* TL_COPY_H */
