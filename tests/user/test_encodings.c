/*
 * Encoding-level checks under qemu-riscv64.
 *   test-encodings off : with -cpu rv64,xtl=off every TL CSR access and every
 *                        TL instruction raises SIGILL.
 *   test-encodings on  : with xtl=on each reserved encoding of docs/isa.md
 *                        raises SIGILL, while its nearest legal sibling
 *                        (same state, same operands) executes.
 */
#include "tl_test.h"
#include "tl/tl_insn.h"

static uint8_t buf[4096] __attribute__((aligned(64)));

#define CSR_CASES(X) X(0x800) X(0x801) X(0x802) X(0x803) X(0x804) X(0x805) X(0x806) X(0x807)

static int csr_read_traps(unsigned num)
{
#define READ_CASE(n) case n: return TL_TRAPS(tl_csr_read(n));
    switch (num) { CSR_CASES(READ_CASE) }
    abort();
}

static int csr_write_traps(unsigned num)
{
#define WRITE_CASE(n) case n: return TL_TRAPS(tl_csr_write(n, 1));
    switch (num) { CSR_CASES(WRITE_CASE) }
    abort();
}

/* One legal word of every instruction (default EngineIDs), GPR operands t0/t1. */
static const struct { const char *name; uint32_t word; } legal[] = {
    { "tl.load tl1, 0(t0)", TL_ENC_MEM(0, 0, 0, 1, 0, 5) },
    { "tl.mload tl1, 0(t0)", TL_ENC_MEM(0, 0, 1, 1, 0, 5) },
    { "tl.store tl1, 0(t0)", TL_ENC_MEM(2, 1, 0, 1, 0, 5) },
    { "tl.mstore tl1, 0(t0)", TL_ENC_MEM(2, 1, 1, 1, 0, 5) },
    { "tl.concat.0 tl3, tl1, tl2", TL_ENC_MOVE(3, 0, 0, 3, 1, 2) },
    { "tl.concat.1 tl3, tl1, tl2", TL_ENC_MOVE(3, 0, 1, 3, 1, 2) },
    { "tl.concat.2 tl3, tl1, tl2", TL_ENC_MOVE(3, 0, 2, 3, 1, 2) },
    { "tl.merge.0 tl3, tl1, tl2", TL_ENC_MOVE(3, 1, 0, 3, 1, 2) },
    { "tl.merge.1 tl3, tl1, tl2", TL_ENC_MOVE(3, 1, 1, 3, 1, 2) },
    { "tl.merge.2 tl3, tl1, tl2", TL_ENC_MOVE(3, 1, 2, 3, 1, 2) },
    { "tl.xpose.01 tl1, tl2, t1", TL_ENC_XPOSE(3, 0, 1, 1, 2, 6) },
    { "tl.xpose.23 tl1, tl2, t1", TL_ENC_XPOSE(3, 2, 3, 1, 2, 6) },
    { "tl.addi tl1, tl2, -5", TL_ENC_ADDI(1, 1, 2, -5) },
    { "tl.muls tl1, tl2, t1", TL_ENC_MULS(1, 1, 2, 6) },
    { "tl.fillpad.zero tl1, tl2", TL_ENC_FILLPAD(3, 0, 1, 2) },
    { "tl.fillpad.min tl1, tl2", TL_ENC_FILLPAD(3, 1, 1, 2) },
    { "tl.fillpad.max tl1, tl2", TL_ENC_FILLPAD(3, 2, 1, 2) },
};
#define N_LEGAL (sizeof(legal) / sizeof(legal[0]))

/* t1 for xpose: [D0,D1,D2,D3] = [2,4,16,16] int8 = 2048 bytes; for muls: scalar 1. */
static const unsigned long xpose_dims = TL_DIMS4(2, 4, 16, 16);

static int run(uint32_t word)
{
    unsigned funct3 = XTL_EXTRACT(FUNCT3, word);
    return tl_exec_word(word, (unsigned long)buf, funct3 == XTL_FUNCT3_XPOSE ? xpose_dims : 1);
}

static void check_disabled(void)
{
    for (unsigned csr = 0x800; csr <= 0x807; csr++) {
        int sig = csr_read_traps(csr);
        tl_check(sig == SIGILL, "xtl=off: csrr 0x%03x raises SIGILL (got %d)", csr, sig);
        sig = csr_write_traps(csr);
        tl_check(sig == SIGILL, "xtl=off: csrw 0x%03x raises SIGILL (got %d)", csr, sig);
    }
    for (size_t i = 0; i < N_LEGAL; i++) {
        for (unsigned eng = 0; eng < 4; eng++) {
            uint32_t w = (legal[i].word & ~XTL_ENG_MASK) | XTL_INSERT(ENG, eng);
            int sig = run(w);
            tl_check(sig == SIGILL, "xtl=off: %s with EngineID %u (0x%08x) raises SIGILL (got %d)",
                     legal[i].name, eng, w, sig);
        }
    }
}

/* A state in which every legal sibling below executes. */
static void set_valid_state(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 4, 4));
    tl_csr_write(TL_CSR_TMASK_LS, 0xf);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x3);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x1);
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(2, 2, 2));
}

static void check_pair(const char *what, uint32_t reserved, uint32_t sibling)
{
    int sig_sibling = run(sibling);
    int sig_reserved = run(reserved);
    tl_check(sig_sibling == 0 && sig_reserved == SIGILL,
             "xtl=on: %s: 0x%08x raises SIGILL (got %d) while legal 0x%08x runs (got %d)",
             what, reserved, sig_reserved, sibling, sig_sibling);
}

static void check_reserved(void)
{
    set_valid_state();
    for (size_t i = 0; i < N_LEGAL; i++) {
        for (unsigned eng = 0; eng < 4; eng++) {
            uint32_t w = (legal[i].word & ~XTL_ENG_MASK) | XTL_INSERT(ENG, eng);
            int sig = run(w);
            tl_check(sig == 0, "xtl=on: %s with EngineID %u (0x%08x) executes (signal %d)",
                     legal[i].name, eng, w, sig);
        }
    }
    uint32_t addi = TL_ENC_ADDI(1, 1, 2, 7);
    for (unsigned f3 = 6; f3 <= 7; f3++) {
        for (unsigned hi = 0; hi < 4; hi++) {
            uint32_t w = (addi & ~XTL_FUNCT3_MASK) | XTL_INSERT(FUNCT3, f3) |
                         XTL_INSERT(ADDI_FUNCT2, hi);
            check_pair("funct3 110/111 is reserved", w, addi);
        }
    }
    for (unsigned merge = 0; merge < 2; merge++) {
        uint32_t ok = TL_ENC_MOVE(3, merge, 0, 3, 1, 2);
        check_pair(merge ? "tl.merge dim 3 is reserved" : "tl.concat dim 3 is reserved",
                   TL_ENC_MOVE(3, merge, 3, 3, 1, 2), ok);
    }
    for (unsigned f5hi = 2; f5hi < 8; f5hi++) {
        uint32_t ok = TL_ENC_MOVE(3, 0, 1, 3, 1, 2);
        uint32_t w = (ok & ~XTL_MOVE_OP_MASK) | XTL_INSERT(MOVE_OP, f5hi);
        check_pair("data-move funct5[4:2] other than 000/001 is reserved", w, ok);
    }
    for (unsigned f2 = 1; f2 < 4; f2++) {
        check_pair("tl.addi funct2 != 00 is reserved", addi | XTL_INSERT(ADDI_FUNCT2, f2), addi);
    }
    uint32_t xpose = TL_ENC_XPOSE(3, 0, 1, 1, 2, 6);
    check_pair("tl.xpose funct5[4] = 1 is reserved", xpose | XTL_INSERT(XPOSE_F5HI, 1), xpose);
    uint32_t muls = TL_ENC_MULS(1, 1, 2, 6);
    for (unsigned bit = 0; bit < XTL_MULS_FUNCT5_WIDTH; bit++) {
        check_pair("tl.muls funct5 != 0 is reserved", muls | XTL_INSERT(MULS_FUNCT5, 1u << bit),
                   muls);
    }
    uint32_t pad = TL_ENC_FILLPAD(3, 0, 1, 2);
    check_pair("tl.fillpad pad kind 3 is reserved", TL_ENC_FILLPAD(3, 3, 1, 2), pad);
    for (unsigned bit = 0; bit < XTL_FILLPAD_F5HI_WIDTH; bit++) {
        check_pair("tl.fillpad funct5[4:2] != 000 is reserved",
                   pad | XTL_INSERT(FILLPAD_F5HI, 1u << bit), pad);
    }
    for (unsigned bit = 0; bit < XTL_FILLPAD_ZERO_WIDTH; bit++) {
        check_pair("tl.fillpad bits [24:20] != 0 are reserved",
                   pad | XTL_INSERT(FILLPAD_ZERO, 1u << bit), pad);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "on") && strcmp(argv[1], "off"))) {
        fprintf(stderr, "usage: %s on|off (the xtl setting QEMU runs with)\n", argv[0]);
        return 2;
    }
    tl_trap_install();
    if (strcmp(argv[1], "off") == 0) {
        check_disabled();
    } else {
        check_reserved();
    }
    return tl_test_finish();
}
