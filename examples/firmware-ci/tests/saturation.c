/*
 * Unsigned saturation of tl.addi and tl.muls on int8 (docs/isa.md 5.7, 5.8):
 * the document's examples 200 + 100 -> 255, 50 - 100 -> 0, 128 + 10 -> 138,
 * tl.addi tl1, tl0, 50 fills tl1 with 50; tl.muls clamps the exact product
 * to [0, 255] and reads the scalar as an unsigned 64-bit value.
 *
 * Built with -DDEMO_FAILURE (make demo-failure), the first check expects
 * 200 + 100 to wrap around to 44, as plain uint8_t arithmetic would: the
 * example of a failing firmware test.
 */
#include "fw.h"
#include "tl/tl_insn.h"

static uint8_t buf[1024] __attribute__((aligned(64)));

static void whole_register(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
}

/* every element of buf[] equal to v */
static int all_are(uint8_t v)
{
    for (unsigned i = 0; i < sizeof(buf); i++) {
        if (buf[i] != v) {
            return 0;
        }
    }
    return 1;
}

/* tl2 := all bytes v */
static void fill_tl2(uint8_t v)
{
    memset(buf, v, sizeof(buf));
    tl_load(2, 0, buf);
}

int main(void)
{
#ifdef DEMO_FAILURE
    const uint8_t want_200_plus_100 = 44;
#else
    const uint8_t want_200_plus_100 = 255;
#endif

    tap_plan(7);
    whole_register();

    fill_tl2(200);
    tl_addi(1, 2, 100);
    tl_store(1, 0, buf);
    tap_check(all_are(want_200_plus_100), "tl.addi: 200 + 100 saturates to 255");

    fill_tl2(50);
    tl_addi(1, 2, -100);
    tl_store(1, 0, buf);
    tap_check(all_are(0), "tl.addi: 50 - 100 saturates to 0");

    fill_tl2(128);
    tl_addi(1, 2, 10);
    tl_store(1, 0, buf);
    tap_check(all_are(138), "tl.addi: 128 + 10 = 138 (unsigned, no wrap to negative)");

    memset(buf, 0xEE, sizeof(buf));
    tl_addi(1, 0, 50);
    tl_store(1, 0, buf);
    tap_check(all_are(50), "tl.addi tl1, tl0, 50 fills tl1 with 50 (tl0 reads as zero)");

    fill_tl2(100);
    tl_muls(1, 2, 3);
    tl_store(1, 0, buf);
    tap_check(all_are(255), "tl.muls: 100 * 3 = 300 saturates to 255");

    fill_tl2(10);
    tl_muls(1, 2, 3);
    tl_store(1, 0, buf);
    tap_check(all_are(30), "tl.muls: 10 * 3 = 30");

    fill_tl2(1);
    tl_muls(1, 2, 1UL << 40);
    tl_store(1, 0, buf);
    tap_check(all_are(255), "tl.muls: 1 * 2^40 saturates to 255 (scalar taken as unsigned XLEN)");

    return tap_failed();
}
