/*
 * Minimal runtime of the example firmware: see fw.h.
 */
#include "fw.h"

#define UART_THR 0
#define UART_LSR 5
#define UART_LSR_THRE 0x20

void fw_putc(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)FW_UART0;

    while (!(uart[UART_LSR] & UART_LSR_THRE)) {
    }
    uart[UART_THR] = (uint8_t)c;
}

void fw_puts(const char *s)
{
    while (*s) {
        fw_putc(*s++);
    }
}

void fw_put_dec(unsigned long v)
{
    char buf[24];
    int n = 0;

    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) {
        fw_putc(buf[--n]);
    }
}

void fw_put_hex(unsigned long v)
{
    int shift = 60;

    fw_puts("0x");
    while (shift > 0 && !(v >> shift)) {
        shift -= 4;
    }
    for (; shift >= 0; shift -= 4) {
        fw_putc("0123456789abcdef"[(v >> shift) & 15]);
    }
}

static int tap_count, tap_failures;

void tap_plan(int count)
{
    fw_puts("1..");
    fw_put_dec((unsigned long)count);
    fw_putc('\n');
}

int tap_check(int ok, const char *description)
{
    tap_count++;
    if (!ok) {
        tap_failures++;
        fw_puts("not ");
    }
    fw_puts("ok ");
    fw_put_dec((unsigned long)tap_count);
    fw_puts(" - ");
    fw_puts(description);
    fw_putc('\n');
    return ok;
}

void tap_diag(const char *text)
{
    fw_puts("# ");
    fw_puts(text);
    fw_putc('\n');
}

int tap_failed(void)
{
    return tap_failures;
}

void fw_exit(int failed)
{
    volatile uint32_t *finisher = (volatile uint32_t *)FW_FINISHER;
    uint32_t code = failed > 255 ? 255 : (uint32_t)failed;

    *finisher = failed ? (code << 16) | 0x3333 : 0x5555;
    /* wfi rather than a busy loop: in record mode (-icount rr=record) QEMU
     * may let a spinning hart run on for up to 2^31 instructions before it
     * acts on the finisher's exit request */
    for (;;) {
        __asm__ volatile("wfi");
    }
}

void fw_trap(unsigned long cause, unsigned long epc, unsigned long tval)
{
    fw_puts("Bail out! unexpected trap: mcause ");
    fw_put_hex(cause);
    fw_puts(" mepc ");
    fw_put_hex(epc);
    fw_puts(" mtval ");
    fw_put_hex(tval);
    fw_putc('\n');
    fw_exit(100);
}

__attribute__((weak)) void hart_main(unsigned long hartid)
{
    (void)hartid;
    for (;;) {
        __asm__ volatile("wfi");
    }
}

void *memset(void *dst, int c, size_t n)
{
    volatile uint8_t *d = dst;

    while (n--) {
        *d++ = (uint8_t)c;
    }
    return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    volatile uint8_t *d = dst;
    const uint8_t *s = src;

    while (n--) {
        *d++ = *s++;
    }
    return dst;
}
