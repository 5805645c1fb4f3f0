/*
 * Two harts (suite.toml: smp = 2), each with its own TL registers and CSRs:
 * hart 1 loads 7s into tl3 and adds 1; hart 0 then loads 100s into its own
 * tl3, subtracts 50 and sets its own tshape; afterwards hart 1 still sees
 * its 8s and its tshape.  The harts hand over through flags in memory.
 */
#include "fw.h"
#include "tl/tl_insn.h"

static uint8_t in0[1024] __attribute__((aligned(64)));
static uint8_t in1[1024] __attribute__((aligned(64)));
static uint8_t out0[1024] __attribute__((aligned(64)));
static uint8_t out1[1024] __attribute__((aligned(64)));
static volatile unsigned long hart1_id;
static volatile unsigned long hart1_tshape;
/* 1: inputs ready; 2: hart 1 has its tl3; 3: hart 0 is done; 4: hart 1 stored */
static volatile int stage;

static void whole_register(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
}

static int all_are(const uint8_t *p, uint8_t v)
{
    for (unsigned i = 0; i < 1024; i++) {
        if (p[i] != v) {
            return 0;
        }
    }
    return 1;
}

void hart_main(unsigned long hartid)
{
    hart1_id = hartid;
    while (stage != 1) {
    }
    whole_register();
    tl_load(3, 0, in1);
    tl_addi(3, 3, 1);
    __asm__ volatile("fence rw, rw" ::: "memory");
    stage = 2;
    while (stage != 3) {
    }
    hart1_tshape = tl_csr_read(TL_CSR_TSHAPE);
    tl_store(3, 0, out1);
    __asm__ volatile("fence rw, rw" ::: "memory");
    stage = 4;
    for (;;) {
        __asm__ volatile("wfi");
    }
}

int main(void)
{
    tap_plan(4);
    memset(in0, 100, sizeof(in0));
    memset(in1, 7, sizeof(in1));
    __asm__ volatile("fence rw, rw" ::: "memory");
    stage = 1;
    while (stage != 2) {
    }
    tap_check(hart1_id == 1, "hart 1 runs its own code (mhartid 1)");
    whole_register();
    tl_load(3, 0, in0);
    tl_addi(3, 3, -50);
    tl_store(3, 0, out0);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(8, 1, 128));
    __asm__ volatile("fence rw, rw" ::: "memory");
    stage = 3;
    while (stage != 4) {
    }
    __asm__ volatile("fence rw, rw" ::: "memory");
    tap_check(all_are(out0, 50), "hart 0: tl3 = 100 - 50 = 50 in every byte");
    tap_check(all_are(out1, 8), "hart 1: its tl3 = 7 + 1 = 8 in every byte after hart 0 used its own tl3");
    tap_check(hart1_tshape == TL_SHAPE(4, 2, 128),
              "hart 1: tshape keeps [4, 2, 128] after hart 0 wrote [8, 1, 128]");
    return tap_failed();
}
