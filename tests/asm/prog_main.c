/*
 * Runs the assembly kernels of prog_kernel.S (written with the tl.* macros of
 * include/tl/tl_asm.S) under qemu-riscv64 -cpu rv64,xtl=on and checks their
 * results against plain C.  Prints "ok/not ok" lines and "N passed, M failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void tl_asm_addi(const uint8_t *src, uint8_t *dst);
void tl_asm_addi_eng(const uint8_t *src, uint8_t *dst);
void tl_asm_muls(const uint8_t *src, uint8_t *dst, unsigned long k);
void tl_asm_mload(const uint8_t *src, uint8_t *dst);
void tl_asm_concat_merge(const uint8_t *src, uint8_t *dst);
void tl_asm_fillpad(const uint8_t *src, uint8_t *dst);
void tl_asm_xpose(const uint8_t *src, uint8_t *dst);

/* The macros also serve GCC inline assembly (build with -Wa,-I<repo>/include):
 * operands such as %0 expand to GPR names the macros accept. */
__asm__(".include \"tl/tl_asm.S\"");

static void inline_addi(const uint8_t *src, uint8_t *dst)
{
    __asm__ volatile("csrw 0x800, %0\n\tcsrw 0x801, %1\n\tcsrw 0x806, %2\n\tcsrw 0x805, %2"
                     : : "r"(0x002), "r"(0x00041010), "r"(256));
    __asm__ volatile("tl.load  tl9, 0(%0)\n\t"
                     "tl.addi  tl10, tl9, %2\n\t"
                     "tl.store tl10, 0(%1)"
                     : : "r"(src), "r"(dst), "i"(100) : "memory");
}

static int passed, failed;
static uint8_t src[2048], dst[2048], want[2048];

static void check(const char *what, size_t n)
{
    size_t i;

    for (i = 0; i < n && dst[i] == want[i]; i++) {
    }
    if (i == n) {
        passed++;
        printf("ok - %s (%zu bytes)\n", what, n);
    } else {
        failed++;
        printf("not ok - %s: byte %zu is 0x%02x, want 0x%02x\n", what, i, dst[i], want[i]);
    }
}

static void reset(void)
{
    memset(dst, 0xA5, sizeof(dst));
    memset(want, 0xA5, sizeof(want));
}

int main(void)
{
    int i, r, k, i0, i1, i2, i3;

    for (i = 0; i < 2048; i++) {
        src[i] = (uint8_t)(i * 37 + (i >> 8) * 11 + 3);   /* also used at the end */
    }

    reset();
    tl_asm_addi(src, dst);
    for (i = 0; i < 1024; i++) {
        want[i] = src[i] < 5 ? 0 : src[i] - 5;
    }
    check("tl.load; tl.addi -5; tl.store (int8, saturating at 0)", 1040);

    reset();
    tl_asm_addi_eng(src, dst);
    for (i = 0; i < 1024; i++) {
        want[i] = src[i] < 5 ? 0 : src[i] - 5;
    }
    check("same with eng=3/2/0 overrides, s1/x9 and 0x0/-0x00 offsets", 1040);

    reset();
    tl_asm_muls(src, dst, 3);
    for (i = 0; i < 1024; i++) {
        want[i] = src[i] * 3 > 255 ? 255 : src[i] * 3;
    }
    check("tl.load (a0); tl.muls by a2 = 3; tl.store (int8, saturating at 255)", 1040);

    reset();
    tl_asm_mload(src, dst);
    memset(want, 0, 64);
    memcpy(want + 0, src + 12, 12);     /* slice 0 from a0 + 1*12 */
    memcpy(want + 16, src + 112, 12);   /* slice 1 from a0 + 12 + 100 */
    memcpy(want + 48, src + 312, 12);   /* slice 3 from a0 + 12 + 300 */
    check("tl.mload tl5, 1(a0) with width 12, stride 100, mask 0b1011; tl.mstore", 80);

    reset();
    tl_asm_concat_merge(src, dst);
    for (r = 0; r < 4; r++) {           /* [2,2,4]: 4 rows of 4 bytes */
        want[r * 4 + 0] = src[r * 4 + 2];
        want[r * 4 + 1] = src[r * 4 + 3];
        want[r * 4 + 2] = src[16 + r * 4 + 0];
        want[r * 4 + 3] = src[16 + r * 4 + 1];
    }
    memcpy(want + 16, src, 8);          /* merge.0 mask 1: slice 0 of tl1 */
    memcpy(want + 24, src + 24, 8);     /*                 slice 1 of tl2 */
    check("tl.concat.2 (masks 0x0C, 0x03) and tl.merge.0 (mask 0x1)", 40);

    reset();
    tl_asm_fillpad(src, dst);
    for (i = 0; i < 1024; i++) {        /* [4,16,16], valid [2,8,8] */
        int a = i / 256, b = (i / 16) % 16, c = i % 16;
        want[i] = (a < 2 && b < 8 && c < 8) ? src[i] : 0xFF;
    }
    check("tl.fillpad.max with tvalid [2,8,8]", 1040);

    reset();
    tl_asm_xpose(src, dst);
    for (i0 = 0; i0 < 8; i0++) {        /* [8,16,8,2] -> [16,8,8,2] */
        for (i1 = 0; i1 < 16; i1++) {
            for (i2 = 0; i2 < 8; i2++) {
                for (i3 = 0; i3 < 2; i3++) {
                    k = ((i0 * 16 + i1) * 8 + i2) * 2 + i3;
                    want[((i1 * 8 + i0) * 8 + i2) * 2 + i3] = src[k];
                }
            }
        }
    }
    check("tl.xpose.01 tl1, tl2, a2 with dims 0x02081008", 2048);

    reset();
    inline_addi(src, dst);
    for (i = 0; i < 1024; i++) {
        want[i] = src[i] > 155 ? 255 : src[i] + 100;
    }
    check("inline asm: tl.load tl9, 0(%0); tl.addi tl10, tl9, %2 (= 100); tl.store", 1040);

    reset();
    memcpy(dst, src, 2048);             /* the kernels must not have written their source */
    for (i = 0; i < 2048; i++) {
        want[i] = (uint8_t)(i * 37 + (i >> 8) * 11 + 3);
    }
    check("no kernel wrote into its source buffer", 2048);

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
