/*
 * A C program with TL inline assembly written with the tl.* mnemonics and TL
 * CSR names of the xtl-aware GNU assembler (built with scripts/tl-gcc
 * -march=rv64gc_xtl, no macro header).  Runs under qemu-riscv64 -cpu
 * rv64,xtl=on and checks each result against plain C (docs/isa.md section 5).
 * Prints "ok/not ok" lines and "N passed, M failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef __riscv_xtl
#error "build with -march=..._xtl (scripts/tl-gcc -march=rv64gc_xtl)"
#endif

#define SLICE 256                         /* tshape [4, 16, 16], int8: 256-byte slices */
static uint8_t src[2048], src2[1024], dst[1024], want[1024];
static int passed, failed;

static void check(const char *what)
{
    size_t i;

    for (i = 0; i < sizeof(dst) && dst[i] == want[i]; i++) {
    }
    if (i == sizeof(dst)) {
        passed++;
        printf("ok - %s\n", what);
    } else {
        failed++;
        printf("not ok - %s (byte %zu: got %u, want %u)\n", what, i, dst[i], want[i]);
    }
}

static void setup_block(void)
{
    __asm__ volatile("csrw ttype, %0\n\t"
                     "csrw tshape, %1\n\t"
                     "csrw tmask_load_width, %2\n\t"
                     "csrw tmask_load_stride, %2"
                     : : "r"(0x002), "r"(0x00041010), "r"(SLICE));
}

static unsigned sat8(unsigned v)
{
    return v > 255 ? 255 : v;
}

int main(void)
{
    unsigned long tinit;
    size_t i;

    for (i = 0; i < sizeof(src); i++) {
        src[i] = (uint8_t)(i * 7 + 3);
    }
    for (i = 0; i < sizeof(src2); i++) {
        src2[i] = (uint8_t)(200 - i);
    }
    setup_block();

    /* tl.load (offset omitted), tl.addi, tl.muls, tl.store */
    __asm__ volatile("tl.load  tl1, (%0)\n\t"
                     "tl.addi  tl2, tl1, 100\n\t"
                     "tl.muls  tl3, tl2, %2\n\t"
                     "tl.store tl3, 0(%1)"
                     : : "r"(src), "r"(dst), "r"(3UL) : "memory");
    for (i = 0; i < 1024; i++) {
        want[i] = (uint8_t)sat8(sat8(src[i] + 100u) * 3u);
    }
    check("tl.load / tl.addi 100 / tl.muls 3 / tl.store: saturating int8 results");

    /* imm8 offsets count widths: 1(a0) is src + 256 */
    __asm__ volatile("tl.load  tl4, 1(%0)\n\t"
                     "tl.store tl4, -1(%1)"
                     : : "r"(src), "r"(dst + SLICE) : "memory");
    memcpy(want, src + SLICE, 1024);
    check("tl.load tl4, 1(a0) / tl.store tl4, -1(a1): offsets in units of the width");

    /* masked load: slices 0 and 2 */
    __asm__ volatile("csrw tmask_ls, %1\n\t"
                     "tl.mload tl5, 0(%0), eng=3\n\t"
                     "tl.store tl5, 0(%2)"
                     : : "r"(src), "r"(0x5), "r"(dst) : "memory");
    memset(want, 0, sizeof(want));
    memcpy(want, src, SLICE);
    memcpy(want + 2 * SLICE, src + 2 * SLICE, SLICE);
    check("tmask_ls = 0x5, tl.mload (eng=3): slices 0 and 2, the others zero");

    /* concat along dimension 0: slices 0, 1 of tl1 then slice 0 of tl6 */
    __asm__ volatile("csrw tmask_concat_1, %2\n\t"
                     "csrw tmask_concat_2, %3\n\t"
                     "tl.load tl6, 0(%0)\n\t"
                     "tl.concat.0 tl7, tl1, tl6\n\t"
                     "tl.store tl7, 0(%1)"
                     : : "r"(src2), "r"(dst), "r"(0x3), "r"(0x1) : "memory");
    memcpy(want, src, 2 * SLICE);
    memcpy(want + 2 * SLICE, src2, SLICE);
    memset(want + 3 * SLICE, 0, SLICE);
    check("tl.concat.0 tl7, tl1, tl6 with masks 0x3 / 0x1");

    /* fillpad.max with valid region (2, 16, 16): slices 2 and 3 become 255 */
    __asm__ volatile("csrw tvalid, %2\n\t"
                     "tl.fillpad.max tl8, tl1\n\t"
                     "tl.store tl8, 0(%1)"
                     : : "r"(src), "r"(dst), "r"(0x00021010) : "memory");
    memcpy(want, src, 2 * SLICE);
    memset(want + 2 * SLICE, 255, 2 * SLICE);
    check("tvalid = (2, 16, 16), tl.fillpad.max tl8, tl1");

    /* CSR names read back: every CSR 0x800..0x807 now initialized */
    __asm__ volatile("csrr %0, tinit" : "=r"(tinit));
    if (tinit == 0xFF) {
        passed++;
        printf("ok - csrr tinit reads 0xff after writes of every CSR 0x800..0x807 by name\n");
    } else {
        failed++;
        printf("not ok - csrr tinit reads 0x%lx, want 0xff\n", tinit);
    }

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
