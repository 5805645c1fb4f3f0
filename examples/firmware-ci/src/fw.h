/*
 * Minimal runtime of the example firmware (no C library): UART output on the
 * virt machine's ns16550, TAP results, the sifive,test finisher.
 *
 * A test program defines main(), prints a TAP plan and one result per check,
 * and returns the number of failed checks; start.S hands it to fw_exit().
 */
#ifndef FW_H
#define FW_H

#include <stddef.h>
#include <stdint.h>

#define FW_UART0   0x10000000UL    /* -M virt: ns16550 UART */
#define FW_FINISHER 0x100000UL     /* -M virt: sifive,test finisher */

void fw_putc(char c);
void fw_puts(const char *s);            /* no newline added */
void fw_put_dec(unsigned long v);
void fw_put_hex(unsigned long v);       /* 0x... */

void tap_plan(int count);                        /* "1..count" */
int tap_check(int ok, const char *description);  /* "ok N - ..." / "not ok N - ..."; returns ok */
void tap_diag(const char *text);                 /* "# text" */
int tap_failed(void);                            /* number of "not ok" so far */

/* Ends the run: finisher PASS (0x5555) if failed == 0, else FAIL with code
 * failed (at most 255): QEMU exits with that status. */
void fw_exit(int failed) __attribute__((noreturn));

/* Called by start.S on any trap: prints "Bail out! ..." and fails the run. */
void fw_trap(unsigned long cause, unsigned long epc, unsigned long tval) __attribute__((noreturn));

/* Optional entry of harts other than hart 0 (start.S); the default parks. */
void hart_main(unsigned long hartid);

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);

#endif
