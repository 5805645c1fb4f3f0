/*
 * The two devices of qemu-system-riscv64 -M virt that this repository's
 * bare-metal programs (bench/baremetal, tests/firmware, tests/plugin,
 * tests/system) talk to: the ns16550a UART at 0x10000000 (register shift 0)
 * for output, and the "sifive,test" finisher at 0x100000 that ends the run
 * with an exit status.  Header only, no C library, any hart, M-mode (or with
 * both devices identity-mapped).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_BAREMETAL_VIRT_H
#define TL_BAREMETAL_VIRT_H

#include <stdint.h>

#define VIRT_UART0          0x10000000UL
#define VIRT_UART_THR       0       /* transmit holding register (write) */
#define VIRT_UART_LSR       5       /* line status register */
#define VIRT_UART_LSR_THRE  0x20    /* THR empty: the next byte may be written */
#define VIRT_FINISHER       0x100000UL

/* One byte to the UART, once it can take it. */
static inline void virt_putc(char c)
{
    volatile uint8_t *u = (volatile uint8_t *)VIRT_UART0;

    while (!(u[VIRT_UART_LSR] & VIRT_UART_LSR_THRE)) {
    }
    u[VIRT_UART_THR] = (uint8_t)c;
}

static inline void virt_puts(const char *s)
{
    while (*s) {
        virt_putc(*s++);
    }
}

/* V in decimal. */
static inline void virt_putu(uint64_t v)
{
    char b[24];
    int n = 0;

    do {
        b[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) {
        virt_putc(b[--n]);
    }
}

/*
 * Ends the run: QEMU exits with status 0 when CODE is 0 ("pass", 0x5555),
 * else with status CODE (1..65535, "fail", (CODE << 16) | 0x3333).
 */
static inline __attribute__((noreturn)) void virt_exit(uint32_t code)
{
    volatile uint32_t *t = (volatile uint32_t *)VIRT_FINISHER;

    *t = code ? (code << 16) | 0x3333 : 0x5555;
    for (;;) {
    }
}

#endif
