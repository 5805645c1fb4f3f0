/*
 * Bare-metal TL tests, run with -cpu rv64,xtl=on (no Smstateen):
 *
 *  1. CSR reset values, read right after reset (ttype = 0x002, others 0);
 *  2. uninitialized-CSR traps right after reset, what initializes a CSR, the
 *     defaults W = S and P = W, TL registers zero after reset;
 *  3. WARL masks of the eight TL CSRs;
 *  4. every TL instruction with hand-computed results, in M-, S- and U-mode
 *     (no privilege restriction without Smstateen);
 *  5. reserved encodings (docs/isa.md 4.6) and illegal states (6.1): mcause 2,
 *     mtval = the instruction word, in M-, S- and U-mode.
 *
 * All expected values are written from docs/isa.md by hand (literal tables)
 * or by the document's index rule in a few lines of C next to the case.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_fw.h"
#include "../tl_ref.h"

static uint8_t src[4096] __attribute__((aligned(4096)));
static uint8_t dst[4096] __attribute__((aligned(4096)));
static uint8_t want[2048] __attribute__((aligned(64)));
static uint8_t pa[1024], pb[1024];      /* operand A: 0x10 + n, operand B: 0x80 + n */
static uint8_t tensor[2048];

static const char *MN;                  /* current mode name, prefix of every description */

#define T0 GPR_T0
#define T1 GPR_T1
#define A(p) ((uint64_t)(uintptr_t)(p))

/* ------------------------------------------------------------------ */
/* 1-3: reset values, uninitialized CSRs, WARL                          */
/* ------------------------------------------------------------------ */

static void test_reset_values(void)
{
    check(tl_csr_read(TL_CSR_TTYPE) == 0x002,
          "reset: ttype (0x800) reads 0x002 (int8) right after reset (got %#lx)",
          tl_csr_read(TL_CSR_TTYPE));
    for (int n = 0x801; n <= 0x807; n++) {
        unsigned long v = tlcsr_read(n);
        check(v == 0, "reset: %s (%#x) reads 0 right after reset (uninitialized; got %#lx)",
              tlcsr_names[n - 0x800], n, v);
    }
    check(tl_csr_read(TL_CSR_TINIT) == 0x01,
          "reset: tinit (0x808) reads 0x01 right after reset: only ttype initialized (got %#lx)",
          tl_csr_read(TL_CSR_TINIT));
}

/* Right after reset, before anything writes a TL CSR: S/U see the same traps. */
static long uninit_probe(long mode)
{
    static const struct { uint32_t w; const char *what; } ws[] = {
        { W_LOAD(1, 0, T0), "tl.load tl1, 0(t0)" },
        { W_MSTORE(1, 0, T0), "tl.mstore tl1, 0(t0)" },
        { TL_ENC_MOVE(3, 0, 1, 3, 1, 2), "tl.concat.1 tl3, tl1, tl2" },
        { TL_ENC_MOVE(3, 1, 0, 3, 1, 2), "tl.merge.0 tl3, tl1, tl2" },
        { TL_ENC_FILLPAD(3, TL_PAD_MIN, 3, 1), "tl.fillpad.min tl3, tl1" },
    };
    const char *mn = mode_name((unsigned long)mode);
    int zero = 1;

    for (unsigned i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
        check(expect_trap(ws[i].w, A(dst), 0, CAUSE_ILLEGAL, ws[i].w),
              "after reset, %s: %s traps (tshape uninitialized), mcause 2, mtval = %#010x", mn,
              ws[i].what, ws[i].w);
    }
    for (int n = 0x801; n <= 0x807; n++) {
        zero = zero && tlcsr_read(n) == 0;
    }
    check(zero && tlcsr_read(0x800) == 2, "after reset, %s: ttype reads 0x002 and 0x801-0x807 read 0", mn);
    check(tl_csr_read(TL_CSR_TINIT) == 0x01, "after reset, %s: tinit reads 0x01 (got %#lx)", mn,
          tl_csr_read(TL_CSR_TINIT));
    return 0;
}

/*
 * tinit in a mode (docs/isa.md 2.6): clearing a flag makes the CSR
 * uninitialized (value 0, instructions needing it trap), setting it keeps
 * the value, and the ttype bit reads 1.  Leaves every flag set.
 */
static long tinit_probe(long mode)
{
    const char *mn = mode_name((unsigned long)mode);
    uint32_t w = W_LOAD(1, 0, T0);

    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(1, 1, 4));
    tl_csr_write(TL_CSR_TMASK_LS, 0x5);
    tl_csr_write(TL_CSR_TINIT, 0x04);
    check(tl_csr_read(TL_CSR_TINIT) == 0x05 && tl_csr_read(TL_CSR_TSHAPE) == 0 &&
          tl_csr_read(TL_CSR_TMASK_LS) == 0x5,
          "%s: csrw tinit 0x04 reads 0x05, tshape (flag cleared) reads 0, tmask_ls keeps 0x5", mn);
    check(expect_trap(w, A(dst), 0, CAUSE_ILLEGAL, w),
          "%s: tl.load after tinit cleared tshape's flag traps, mcause 2, mtval = %#010x", mn, w);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(1, 1, 4));
    check(expect_no_trap(w, A(dst), 0), "%s: after csrw tshape, tl.load runs again", mn);
    tl_csr_write(TL_CSR_TINIT, 0xff);
    check(tl_csr_read(TL_CSR_TINIT) == 0xff && tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(1, 1, 4),
          "%s: csrw tinit 0xff sets every flag and keeps tshape (%#lx)", mn,
          tl_csr_read(TL_CSR_TSHAPE));
    return 0;
}

static void test_uninitialized(void)
{
    uint32_t w;

    /* Nothing but ttype is usable: every instruction that needs tshape traps. */
    static const struct { uint32_t w; const char *what; } need_shape[] = {
        { W_LOAD(1, 0, T0), "tl.load tl1, 0(t0)" },
        { W_STORE(1, 0, T0), "tl.store tl1, 0(t0)" },
        { W_MLOAD(1, 0, T0), "tl.mload tl1, 0(t0)" },
        { W_MSTORE(1, 0, T0), "tl.mstore tl1, 0(t0)" },
        { TL_ENC_MOVE(3, 0, 0, 3, 1, 2), "tl.concat.0 tl3, tl1, tl2" },
        { TL_ENC_MOVE(3, 1, 2, 3, 1, 2), "tl.merge.2 tl3, tl1, tl2" },
        { TL_ENC_FILLPAD(3, TL_PAD_ZERO, 3, 1), "tl.fillpad.zero tl3, tl1" },
    };
    for (unsigned i = 0; i < sizeof(need_shape) / sizeof(need_shape[0]); i++) {
        check(expect_trap(need_shape[i].w, A(dst), 0, CAUSE_ILLEGAL, need_shape[i].w),
              "after reset (tshape uninitialized, only read with csrr): %s traps, mcause 2, "
              "mtval = %#010x", need_shape[i].what, need_shape[i].w);
    }
    check(tl_csr_read(TL_CSR_TSHAPE) == 0, "after reset: the trapping instructions left tshape "
          "uninitialized (reads 0)");

    /* addi, muls and xpose need no CSR but ttype. */
    w = TL_ENC_ADDI(1, 1, 0, 5);
    check(expect_no_trap(w, 0, 0), "after reset: tl.addi tl1, tl0, 5 (needs only ttype) does not trap");
    w = TL_ENC_MULS(1, 2, 1, T1);
    check(expect_no_trap(w, 0, 3), "after reset: tl.muls tl2, tl1, t1=3 does not trap");
    w = TL_ENC_XPOSE(3, 0, 1, 4, 5, T1);
    check(expect_no_trap(w, 0, TL_DIMS4(2, 4, 16, 16)),
          "after reset: tl.xpose.01 tl4, tl5, t1=[2,4,16,16] (int8, 2048 B) does not trap");

    /* csrw tshape alone: load/store usable with W = S, P = W. */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 8));     /* int8, S = 16, block 64 B */
    w = W_LOAD(6, 0, T0);
    check(expect_no_trap(w, A(src), 0), "after csrw tshape only: tl.load tl6, 0(t0) does not trap "
          "(tmask_load_width/stride uninitialized are not needed)");
    memset(dst, 0xEE, 256);
    w = W_STORE(6, 1, T0);
    check(expect_no_trap(w, A(dst), 0), "after csrw tshape only: tl.store tl6, 1(t0) does not trap");
    memset(want, 0xEE, 256);
    memcpy(want + 16, src, 64);             /* imm 1 * W(=S=16) = +16; slices at P = W = 16 */
    check(mem_equal("default W/P", dst, want, 256),
          "uninitialized width/stride: tl.load [4,2,8] int8 then tl.store 1(t0) move 64 "
          "contiguous bytes (W = S = 16, P = W, imm scaled by W: dst+16..dst+79)");
    check(tl_csr_read(TL_CSR_TMASK_LOAD_WIDTH) == 0 && tl_csr_read(TL_CSR_TMASK_LOAD_STRIDE) == 0,
          "tmask_load_width/stride still read 0 after being used by default");

    static const struct { uint32_t w; const char *what; } need_more[] = {
        { W_MLOAD(1, 0, T0), "tl.mload tl1, 0(t0) (tmask_ls uninitialized)" },
        { W_MSTORE(1, 0, T0), "tl.mstore tl1, 0(t0) (tmask_ls uninitialized)" },
        { TL_ENC_MOVE(3, 0, 1, 3, 1, 2), "tl.concat.1 tl3, tl1, tl2 (both concat masks uninitialized)" },
        { TL_ENC_MOVE(3, 1, 0, 3, 1, 2), "tl.merge.0 tl3, tl1, tl2 (tmask_concat_1 uninitialized)" },
        { TL_ENC_FILLPAD(3, TL_PAD_MAX, 3, 1), "tl.fillpad.max tl3, tl1 (tvalid uninitialized)" },
    };
    for (unsigned i = 0; i < sizeof(need_more) / sizeof(need_more[0]); i++) {
        check(expect_trap(need_more[i].w, A(dst), 0, CAUSE_ILLEGAL, need_more[i].w),
              "tshape initialized: %s traps, mcause 2, mtval = %#010x", need_more[i].what,
              need_more[i].w);
    }

    /* csrrsi / csrrci with uimm 0 and csrrs with rs1 = x0 do not write. */
    __asm__ volatile("csrrsi zero, 0x803, 0\n\tcsrrci zero, 0x803, 0\n\tcsrrs zero, 0x803, zero" ::: "memory");
    w = TL_ENC_MOVE(3, 1, 0, 7, 1, 2);
    check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
          "csrrsi/csrrci uimm=0 and csrrs rs1=x0 on tmask_concat_1 do not initialize it: "
          "tl.merge.0 still traps");
    /* csrrs with rs1 != x0 holding 0 writes (initializes to 0). */
    {
        register unsigned long z __asm__("t2") = 0;
        __asm__ volatile("csrrs zero, 0x803, %0" : : "r"(z) : "memory");
    }
    check(expect_no_trap(w, 0, 0),
          "csrrs tmask_concat_1, t2 (t2 = 0) initializes it: tl.merge.0 tl7, tl1, tl2 runs "
          "(tmask_concat_2 still uninitialized, merge does not need it)");
    w = TL_ENC_MOVE(3, 0, 0, 8, 1, 2);
    check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
          "tmask_concat_2 uninitialized: tl.concat.0 tl8, tl1, tl2 traps");
    {
        register unsigned long z __asm__("t2") = 0;
        __asm__ volatile("csrrc zero, 0x804, %0" : : "r"(z) : "memory");
    }
    check(expect_no_trap(w, 0, 0), "csrrc tmask_concat_2, t2 (t2 = 0) initializes it: "
          "tl.concat.0 runs (n = 0)");

    __asm__ volatile("csrrwi zero, 0x807, 0" ::: "memory");
    w = TL_ENC_FILLPAD(3, TL_PAD_MAX, 9, 1);
    check(expect_no_trap(w, 0, 0), "csrrwi tvalid, 0 initializes tvalid: tl.fillpad.max tl9, tl1 runs");

    __asm__ volatile("csrw 0x802, zero" ::: "memory");
    w = W_MLOAD(10, 0, T0);
    check(expect_no_trap(w, A(src), 0), "csrw tmask_ls, zero initializes it: tl.mload tl10 runs "
          "(mask 0)");
    memset(dst, 0xEE, 256);
    w = W_MSTORE(6, 0, T0);
    check(expect_no_trap(w, A(dst), 0), "tl.mstore tl6 with tmask_ls = 0 runs");
    memset(want, 0xEE, 256);
    check(mem_equal("mstore mask 0", dst, want, 256), "tl.mstore with tmask_ls = 0 writes no byte");

    /* Now the results (tl_dump initializes width and stride, so it comes last). */
    memset(want, 5, 1024);
    check(reg_is(1, want, "tl1"), "after reset: tl.addi tl1, tl0, 5 filled all 1024 bytes of tl1 with 5");
    memset(want, 15, 1024);
    check(reg_is(2, want, "tl2"), "after reset: tl.muls tl2, tl1, 3 gave 15 in all 1024 bytes");
    memset(want, 0, 1024);
    memcpy(want, src, 64);
    check(reg_is(6, want, "tl6"), "uninitialized width/stride: tl.load [4,2,8] gave src[0..63] "
          "in bytes 0..63 of tl6, zero in 64..1023");
    /* merge with mask 0 takes tl2 (all 15) for the block [4,2,8] = 64 bytes, rest 0. */
    memset(want, 15, 64);
    memset(want + 64, 0, 1024 - 64);
    check(reg_is(7, want, "tl7"), "tl.merge.0 tl7, tl1, tl2 with tmask_concat_1 = 0 took tl2 (15) "
          "for the 64-byte block, zero after");
    memset(want, 0, 1024);
    check(reg_is(8, want, "tl8"), "tl.concat.0 tl8 with both masks 0 gave an all-zero register");
    memset(want, 0xFF, 64);
    memset(want + 64, 0, 1024 - 64);
    check(reg_is(9, want, "tl9"), "tl.fillpad.max tl9 with tvalid = 0 (V0=V1=V2=0): all 64 block "
          "bytes are pad 0xFF (int8 max), rest zero");
    memset(want, 0, 1024);
    check(reg_is(10, want, "tl10"), "tl.mload tl10 with tmask_ls = 0: all-zero register");
    int zero_ok = 1;
    for (int r = 11; r < 32; r++) {
        if (!reg_is(r, want, "reset register")) {
            diag("tl%d is not zero after reset", r);
            zero_ok = 0;
        }
    }
    zero_ok = reg_is(3, want, "tl3") && reg_is(4, want, "tl4") && reg_is(5, want, "tl5") && zero_ok;
    check(zero_ok, "TL registers never written (tl3, tl11..tl31) and the xpose of zeros "
          "(tl4, tl5) read as zero after reset (TL-QEMU choice A4)");
}

static void test_warl(void)
{
    static const unsigned long mask[8] = {
        0xFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFF,
    };
    for (int i = 0; i < 8; i++) {
        int n = 0x800 + i;
        unsigned long a, b, c;
        tlcsr_write(n, ~0UL);
        a = tlcsr_read(n);
        tlcsr_write(n, 0xFFFFFFFF00000000UL);
        b = tlcsr_read(n);
        tlcsr_write(n, 0xA5A5A5A5C3C3C3C3UL);
        c = tlcsr_read(n);
        check(a == mask[i] && b == 0 && c == (0xC3C3C3C3UL & mask[i]),
              "WARL: %s (%#x) keeps bits %#lx: wrote ~0 read %#lx, wrote 0xffffffff00000000 "
              "read %#lx, wrote 0xa5a5a5a5c3c3c3c3 read %#lx", tlcsr_names[i], n, mask[i], a, b, c);
    }
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 0x80000000UL);
    check(tl_csr_read(TL_CSR_TMASK_LOAD_STRIDE) == 0x80000000UL,
          "WARL: tmask_load_stride 0x80000000 reads back zero-extended (%#lx)",
          tl_csr_read(TL_CSR_TMASK_LOAD_STRIDE));
    tl_csr_write(TL_CSR_TTYPE, 0x002);
    __asm__ volatile("csrs 0x800, %0" : : "r"(0x1400UL) : "memory");
    unsigned long s = tl_csr_read(TL_CSR_TTYPE);
    __asm__ volatile("csrc 0x800, %0" : : "r"(0x2UL) : "memory");
    unsigned long c = tl_csr_read(TL_CSR_TTYPE);
    check(s == 0x402 && c == 0x400, "WARL: csrs ttype 0x1400 on 0x002 gives 0x402 (bit 12 dropped), "
          "csrc 0x2 then 0x400 (got %#lx, %#lx)", s, c);
}

/* ------------------------------------------------------------------ */
/* 4: every instruction, hand-computed results                          */
/* ------------------------------------------------------------------ */

static void fill_regpat(uint8_t *b) { for (int n = 0; n < 1024; n++) b[n] = (uint8_t)(n * 13 + 5); }

static void test_load(void)
{
    uint32_t w;

    /* docs/isa.md 5.2 worked example */
    tl_fill_byte(1, 0xEE);
    tl_setup(TL_TYPE_INT8, 4, 2, 8, 12, 100);
    tl_csr_write(TL_CSR_TMASK_LS, 0xB);
    memset(want, 0, 1024);
    memcpy(want + 0, src + 12, 12);
    memcpy(want + 16, src + 112, 12);
    memcpy(want + 48, src + 312, 12);
    w = W_MLOAD(1, 1, T0);
    check(run_cmp(w, A(src), 0, 1, want, "mload example"),
          "%s: tl.mload tl1, 1(t0) int8 [4,2,8] W=12 P=100 mask=0b1011 (docs/isa.md 5.2 example): "
          "slices 0,1,3 from +12,+112,+312 at bytes 0,16,48; zero elsewhere", MN);

    /* negative imm and negative stride, int16 */
    tl_fill_byte(2, 0xEE);
    tl_setup(TL_TYPE_INT16, 3, 1, 4, 6, -20);          /* S = 8 */
    memset(want, 0, 1024);
    memcpy(want + 0, src + 506, 6);                    /* 512 - 6 - 0*20 */
    memcpy(want + 8, src + 486, 6);                    /* 512 - 6 - 1*20 */
    memcpy(want + 16, src + 466, 6);                   /* 512 - 6 - 2*20 */
    w = W_LOAD(2, -1, T0);
    check(run_cmp(w, A(src + 512), 0, 2, want, "load neg"),
          "%s: tl.load tl2, -1(t0=src+512) int16 [3,1,4] W=6 P=-20: slices from src+506, +486, "
          "+466 at bytes 0, 8, 16; bytes 6-7, 14-15, 22-1023 zero", MN);

    /* int4 slice size: [2,1,4] int4 -> S = 2 bytes */
    tl_fill_byte(3, 0xEE);
    tl_setup(TL_TYPE_INT4, 2, 1, 4, 2, 5);
    memset(want, 0, 1024);
    memcpy(want + 0, src + 0, 2);
    memcpy(want + 2, src + 5, 2);
    w = W_LOAD(3, 0, T0);
    check(run_cmp(w, A(src), 0, 3, want, "load int4"),
          "%s: tl.load tl3 int4 [2,1,4] (S = 2 bytes) W=2 P=5: bytes 0-1 = src[0..1], 2-3 = src[5..6]", MN);

    /* int32, imm scaled by W */
    tl_fill_byte(3, 0xEE);
    tl_setup(TL_TYPE_INT32, 2, 2, 2, 16, 16);          /* S = 16 */
    memset(want, 0, 1024);
    memcpy(want, src + 48, 32);                        /* imm 3 * W 16 = 48 */
    w = W_LOAD(3, 3, T0);
    check(run_cmp(w, A(src), 0, 3, want, "load int32"),
          "%s: tl.load tl3, 3(t0) int32 [2,2,2] W=P=16: src[48..79] into bytes 0..31", MN);

    /* mask bits >= D0 ignored */
    tl_fill_byte(4, 0xEE);
    tl_setup(TL_TYPE_INT8, 2, 1, 4, 4, 4);
    tl_csr_write(TL_CSR_TMASK_LS, 0xFFFFFFFD);
    memset(want, 0, 1024);
    memcpy(want, src, 4);
    w = W_MLOAD(4, 0, T0);
    check(run_cmp(w, A(src), 0, 4, want, "mload mask high"),
          "%s: tl.mload int8 [2,1,4] mask=0xfffffffd: only slice 0 (bits >= D0 ignored), slice 1 zero", MN);

    /* load into tl0 */
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    memset(want, 0, 1024);
    w = W_LOAD(0, 0, T0);
    check(run_cmp(w, A(src), 0, 0, want, "tl0"),
          "%s: tl.load tl0 does not trap and tl0 still reads as zero", MN);

    /* 32 slices (D0 = 32 is the maximum) */
    tl_fill_byte(5, 0xEE);
    tl_setup(TL_TYPE_INT8, 32, 1, 2, 2, 3);
    memset(want, 0, 1024);
    for (int i = 0; i < 32; i++) {
        memcpy(want + 2 * i, src + 3 * i, 2);
    }
    w = W_LOAD(5, 0, T0);
    check(run_cmp(w, A(src), 0, 5, want, "load 32"),
          "%s: tl.load tl5 int8 [32,1,2] W=2 P=3: 32 slices (D0 = 32 allowed)", MN);
}

static void test_store(void)
{
    static uint8_t regpat[1024];
    uint32_t w;

    fill_regpat(regpat);
    tl_fill(2, regpat);

    tl_setup(TL_TYPE_INT8, 4, 2, 8, 10, 32);           /* S = 16 */
    memset(dst, 0xEE, 512);
    memset(want, 0xEE, 512);
    for (int i = 0; i < 4; i++) {
        memcpy(want + 20 + 32 * i, regpat + 16 * i, 10);
    }
    w = W_STORE(2, 2, T0);
    check(expect_no_trap(w, A(dst), 0) && mem_equal("store", dst, want, 512),
          "%s: tl.store tl2, 2(t0) int8 [4,2,8] W=10 P=32: register bytes [16i, 16i+10) at "
          "dst+20+32i, nothing else written", MN);

    tl_csr_write(TL_CSR_TMASK_LS, 0xFFFFFFFA);         /* D0 = 4: slices 1, 3 */
    memset(dst, 0xEE, 512);
    memset(want, 0xEE, 512);
    memcpy(want + 20 + 32, regpat + 16, 10);
    memcpy(want + 20 + 96, regpat + 48, 10);
    w = W_MSTORE(2, 2, T0);
    check(expect_no_trap(w, A(dst), 0) && mem_equal("mstore", dst, want, 512),
          "%s: tl.mstore tl2, 2(t0) mask=0xfffffffa (D0=4): only slices 1 and 3 written", MN);

    tl_setup(TL_TYPE_INT16, 2, 1, 2, 4, -8);           /* S = 4 */
    memset(dst, 0xEE, 512);
    memset(want, 0xEE, 512);
    memcpy(want + 60, regpat + 0, 4);                  /* 64 - 4 - 0 */
    memcpy(want + 52, regpat + 4, 4);                  /* 64 - 4 - 8 */
    w = W_STORE(2, -1, T0);
    check(expect_no_trap(w, A(dst + 64), 0) && mem_equal("store neg", dst, want, 512),
          "%s: tl.store tl2, -1(t0=dst+64) int16 [2,1,2] W=4 P=-8: slice 0 at dst+60, slice 1 at dst+52", MN);

    tl_setup(TL_TYPE_INT8, 2, 1, 8, 8, 8);
    memset(dst, 0xEE, 512);
    memset(want, 0xEE, 512);
    memset(want, 0, 16);
    w = W_STORE(0, 0, T0);
    check(expect_no_trap(w, A(dst), 0) && mem_equal("store tl0", dst, want, 512),
          "%s: tl.store tl0 int8 [2,1,8] writes 16 zero bytes", MN);

    /* overlapping slices (P = 0): the highest-numbered slice's bytes remain (A12) */
    tl_setup(TL_TYPE_INT8, 3, 1, 4, 4, 0);
    memset(dst, 0xEE, 512);
    memset(want, 0xEE, 512);
    memcpy(want, regpat + 8, 4);
    w = W_STORE(2, 0, T0);
    check(expect_no_trap(w, A(dst), 0) && mem_equal("store P=0", dst, want, 512),
          "%s: tl.store int8 [3,1,4] W=4 P=0: slice 2 (register bytes 8..11) is what remains", MN);
}

/*
 * A strided load and a strided store, each run three times in a row with
 * the CSRs unchanged: after the first, the plan is current and the page in
 * the TLB, so the translated fast path moves the slices (a span within one
 * page).
 */
static void test_repeated(void)
{
    static uint8_t regpat[1024];
    uint32_t w;
    int ok = 1;

    tl_setup(TL_TYPE_INT8, 4, 1, 64, 64, 200);
    tl_poison(1);
    w = W_LOAD(1, 2, T0);
    for (int k = 0; k < 3; k++) {
        ok &= expect_no_trap(w, A(src + 1000), 0);
    }
    memset(want, 0, 1024);
    for (int i = 0; i < 4; i++) {
        memcpy(want + 64 * i, src + 1128 + 200 * i, 64);
    }
    check(ok && reg_is(1, want, "repeated load"),
          "%s: tl.load tl1, 2(t0=src+1000) int8 [4,1,64] W=64 P=200, three times: slices from "
          "src+1128+200i at bytes 64i, zero from byte 256", MN);

    fill_regpat(regpat);
    tl_fill(2, regpat);
    tl_setup(TL_TYPE_INT8, 4, 1, 64, 64, 200);
    memset(dst, 0xEE, 4096);
    ok = 1;
    w = W_STORE(2, -1, T0);
    for (int k = 0; k < 3; k++) {
        ok &= expect_no_trap(w, A(dst + 2000), 0);
    }
    static uint8_t want_page[4096];
    memset(want_page, 0xEE, 4096);
    for (int i = 0; i < 4; i++) {
        memcpy(want_page + 1936 + 200 * i, regpat + 64 * i, 64);
    }
    check(ok && mem_equal("repeated store", dst, want_page, 4096),
          "%s: tl.store tl2, -1(t0=dst+2000) int8 [4,1,64] W=64 P=200, three times: register "
          "bytes [64i, 64i+64) at dst+1936+200i, nothing else in the page written", MN);
}

static void load_ab(void)
{
    tl_fill(3, pa);
    tl_fill(4, pb);
}

static void test_concat_merge(void)
{
    uint32_t w;

    /* seed example along dim 2: [a,b,c,d] 0x0C + [e,f,g,h] 0x03 -> [c,d,e,f] */
    static const uint8_t c1[16] = {
        0x12, 0x13, 0x80, 0x81, 0x16, 0x17, 0x84, 0x85,
        0x1A, 0x1B, 0x88, 0x89, 0x1E, 0x1F, 0x8C, 0x8D,
    };
    load_ab();
    tl_fill_byte(5, 0xEE);
    tl_setup(TL_TYPE_INT8, 2, 2, 4, 16, 16);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0xFFFFFFFC);   /* bits >= D2 = 4 ignored: 2,3 */
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x3);
    memset(want, 0, 1024);
    memcpy(want, c1, 16);
    w = TL_ENC_MOVE(3, 0, 2, 5, 3, 4);
    check(run_cmp(w, 0, 0, 5, want, "concat.2"),
          "%s: tl.concat.2 tl5, tl3, tl4 int8 [2,2,4] mask1=0xfffffffc mask2=0x3: every row "
          "[c,d,e,f] (seed 4.3.4), bytes 16.. zero", MN);

    static const uint8_t c2[16] = {
        0x10, 0x11, 0x12, 0x13, 0x18, 0x19, 0x1A, 0x1B, 0x84, 0x85, 0x86, 0x87, 0, 0, 0, 0,
    };
    load_ab();
    tl_setup(TL_TYPE_INT8, 4, 1, 4, 4, 4);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x5);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x2);
    memset(want, 0, 1024);
    memcpy(want, c2, 16);
    w = TL_ENC_MOVE(3, 0, 0, 5, 3, 4);
    check(run_cmp(w, 0, 0, 5, want, "concat.0"),
          "%s: tl.concat.0 int8 [4,1,4] mask1=0x5 mask2=0x2: slices [A0, A2, B1, 0]", MN);

    /* int16 [2,3,2] along dim 1: j=0 <- A(j=2), j=1 <- B(j=0), j=2 <- B(j=1) */
    static const uint8_t c3[24] = {
        0x18, 0x19, 0x1A, 0x1B, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
        0x24, 0x25, 0x26, 0x27, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93,
    };
    load_ab();
    tl_setup(TL_TYPE_INT16, 2, 3, 2, 12, 12);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x4);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x3);
    memset(want, 0, 1024);
    memcpy(want, c3, 24);
    w = TL_ENC_MOVE(3, 0, 1, 5, 3, 4);
    check(run_cmp(w, 0, 0, 5, want, "concat.1"),
          "%s: tl.concat.1 int16 [2,3,2] mask1=0x4 mask2=0x3: elements A4,A5,B0..B3,A10,A11,B6..B9", MN);

    /* destination = first source */
    load_ab();
    tl_setup(TL_TYPE_INT8, 2, 2, 4, 16, 16);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0xC);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x3);
    memset(want, 0, 1024);
    memcpy(want, c1, 16);
    w = TL_ENC_MOVE(3, 0, 2, 3, 3, 4);
    check(run_cmp(w, 0, 0, 3, want, "concat alias"),
          "%s: tl.concat.2 tl3, tl3, tl4 (destination = tlrs1) gives the same [c,d,e,f] rows", MN);

    static const uint8_t m1[16] = {
        0x80, 0x81, 0x82, 0x83, 0x14, 0x15, 0x16, 0x17, 0x88, 0x89, 0x8A, 0x8B, 0x1C, 0x1D, 0x1E, 0x1F,
    };
    load_ab();
    tl_setup(TL_TYPE_INT8, 4, 1, 4, 4, 4);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0xA);
    memset(want, 0, 1024);
    memcpy(want, m1, 16);
    w = TL_ENC_MOVE(3, 1, 0, 5, 3, 4);
    check(run_cmp(w, 0, 0, 5, want, "merge.0"),
          "%s: tl.merge.0 tl5, tl3, tl4 int8 [4,1,4] mask1=0xa: slices [B0, A1, B2, A3] "
          "(bit 1 = tlrs1)", MN);
    tl_setup(TL_TYPE_INT8, 4, 1, 4, 4, 4);             /* tl_dump changed the CSRs */
    w = TL_ENC_MOVE(3, 1, 0, 4, 3, 4);
    check(run_cmp(w, 0, 0, 4, want, "merge alias"),
          "%s: tl.merge.0 tl4, tl3, tl4 (destination = tlrs2) gives the same", MN);

    static const uint8_t m2[16] = {
        0x80, 0x11, 0x12, 0x83, 0x84, 0x15, 0x16, 0x87, 0x88, 0x19, 0x1A, 0x8B, 0x8C, 0x1D, 0x1E, 0x8F,
    };
    load_ab();
    tl_setup(TL_TYPE_INT8, 2, 2, 4, 16, 16);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x6);
    memset(want, 0, 1024);
    memcpy(want, m2, 16);
    w = TL_ENC_MOVE(3, 1, 2, 5, 3, 4);
    check(run_cmp(w, 0, 0, 5, want, "merge.2"),
          "%s: tl.merge.2 int8 [2,2,4] mask1=0x6: every row [B,A,A,B]", MN);

    static const uint8_t m3[16] = {
        0x10, 0x11, 0x12, 0x13, 0x84, 0x85, 0x86, 0x87, 0x18, 0x19, 0x1A, 0x1B, 0x8C, 0x8D, 0x8E, 0x8F,
    };
    tl_setup(TL_TYPE_INT32, 2, 2, 1, 8, 8);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x1);
    memset(want, 0, 1024);
    memcpy(want, m3, 16);
    w = TL_ENC_MOVE(0, 1, 1, 5, 3, 4);                 /* EngineID 00 */
    check(run_cmp(w, 0, 0, 5, want, "merge.1"),
          "%s: tl.merge.1 int32 [2,2,1] mask1=0x1 (EngineID 00): elements A0, B1, A2, B3", MN);
}

static void test_addi(void)
{
    static uint8_t in[1024];
    uint32_t w;
    int ok;

    /* int8, whole register; seed examples 200+100, 50-100, 128+10 */
    for (int n = 0; n < 1024; n++) {
        in[n] = (uint8_t)(n * 37);
    }
    in[0] = 200; in[1] = 50; in[2] = 128;
    tl_fill(3, in);
    /* and the immediate's ends: 200+127=255, 50+127=177, 200-128=72, 128-128=0, 50-128=0 */
    static const struct { int imm; uint8_t want0, want1, want2; } adds[5] = {
        { 100, 255, 150, 228 }, { -100, 100, 0, 28 }, { 10, 210, 60, 138 },
        { 127, 255, 177, 255 }, { -128, 72, 0, 0 },
    };
    for (int t = 0; t < 5; t++) {
        for (int n = 0; n < 1024; n++) {
            int v = in[n] + adds[t].imm;
            want[n] = v < 0 ? 0 : v > 255 ? 255 : v;
        }
        tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
        w = TL_ENC_ADDI(1, 5, 3, adds[t].imm);
        ok = run_cmp(w, 0, 0, 5, want, "addi int8");
        check(ok && want[0] == adds[t].want0 && want[1] == adds[t].want1 && want[2] == adds[t].want2,
              "%s: tl.addi tl5, tl3, %d int8 over all 1024 bytes, unsigned saturation "
              "(200, 50, 128 give %u, %u, %u)", MN, adds[t].imm, adds[t].want0, adds[t].want1,
              adds[t].want2);
    }

    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    memset(want, 50, 1024);
    check(run_cmp(TL_ENC_ADDI(1, 5, 0, 50), 0, 0, 5, want, "addi tl0"),
          "%s: tl.addi tl5, tl0, 50 fills tl5 with 50", MN);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    memset(want, 51, 1024);
    check(run_cmp(TL_ENC_ADDI(1, 5, 5, 1), 0, 0, 5, want, "addi alias"),
          "%s: tl.addi tl5, tl5, 1 (in place) gives 51", MN);

    /* int16 */
    memset(in, 0, 1024);
    put16(in, 0, 0xFFF0); put16(in, 1, 0x0010); put16(in, 2, 1000);
    tl_fill(3, in);
    for (int n = 0; n < 512; n++) put16(want, n, 0x0064);
    put16(want, 0, 0xFFFF); put16(want, 1, 0x0074); put16(want, 2, 0x044C);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT16);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 100), 0, 0, 5, want, "addi int16"),
          "%s: tl.addi +100 int16: 0xfff0->0xffff, 16->116, 1000->1100, 0->100", MN);
    memset(want, 0, 1024);
    put16(want, 0, 0xFF8C); put16(want, 2, 900);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT16);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, -100), 0, 0, 5, want, "addi int16 neg"),
          "%s: tl.addi -100 int16: 0xfff0->0xff8c, 16->0, 1000->900, 0->0", MN);

    /* int4: byte0 = e1:e0 = 2:F, byte1 = 0:1 */
    memset(in, 0, 1024);
    in[0] = 0x2F; in[1] = 0x01;
    tl_fill(3, in);
    memset(want, 0x33, 1024);
    want[0] = 0x5F; want[1] = 0x34;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT4);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 3), 0, 0, 5, want, "addi int4"),
          "%s: tl.addi +3 int4 nibbles: F->F (sat), 2->5, 1->4, 0->3 (0x2f01.. -> 0x5f34 33..)", MN);
    memset(want, 0, 1024);
    want[0] = 0x0C;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT4);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, -3), 0, 0, 5, want, "addi int4 neg"),
          "%s: tl.addi -3 int4 nibbles: F->C, 2->0, 1->0, 0->0", MN);

    /* int32 */
    memset(in, 0, 1024);
    put32(in, 0, 0xFFFFFFFF); put32(in, 1, 5); put32(in, 2, 0x7FFFFFFF);
    tl_fill(3, in);
    for (int n = 0; n < 256; n++) put32(want, n, 1);
    put32(want, 0, 0xFFFFFFFF); put32(want, 1, 6); put32(want, 2, 0x80000000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT32);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 1), 0, 0, 5, want, "addi int32"),
          "%s: tl.addi +1 int32: 0xffffffff stays (sat), 5->6, 0x7fffffff->0x80000000, 0->1", MN);

    /* fp32 */
    memset(in, 0, 1024);
    put32(in, 0, 0x3FC00000);    /* 1.5 */
    put32(in, 1, 0xBF800000);    /* -1.0 */
    put32(in, 2, 0x7F800000);    /* +inf */
    put32(in, 3, 0x7F800001);    /* sNaN */
    put32(in, 4, 0x7F7FFFFF);    /* max finite */
    put32(in, 5, 0xFF800000);    /* -inf */
    tl_fill(3, in);
    for (int n = 0; n < 256; n++) put32(want, n, 0x3F800000);     /* 0 + 1 = 1.0 */
    put32(want, 0, 0x40200000);  /* 2.5 */
    put32(want, 1, 0x00000000);  /* -1 + 1 = +0 */
    put32(want, 2, 0x7F800000);
    put32(want, 3, 0x7FC00000);  /* canonical NaN */
    put32(want, 4, 0x7F7FFFFF);  /* max + 1 rounds to max */
    put32(want, 5, 0xFF800000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP32);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 1), 0, 0, 5, want, "addi fp32"),
          "%s: tl.addi +1 fp32: 1.5->2.5, -1->+0, inf, sNaN->0x7fc00000, max->max, -inf, 0->1.0", MN);
    for (int n = 0; n < 256; n++) put32(want, n, 0xC3000000);     /* -128.0 */
    put32(want, 0, 0xC2FD0000);  /* 1.5 - 128 = -126.5 */
    put32(want, 1, 0xC3010000);  /* -129.0 */
    put32(want, 2, 0x7F800000);
    put32(want, 3, 0x7FC00000);
    put32(want, 4, 0x7F7FFFFF);  /* max - 128 rounds to max */
    put32(want, 5, 0xFF800000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP32);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, -128), 0, 0, 5, want, "addi fp32 -128"),
          "%s: tl.addi -128 fp32: 1.5->-126.5 (0xc2fd0000), -1->-129, 0->-128.0", MN);

    /* fp16 */
    memset(in, 0, 1024);
    put16(in, 0, 0x3C00);        /* 1.0 */
    put16(in, 1, 0x7BFF);        /* 65504 */
    put16(in, 2, 0xFC00);        /* -inf */
    put16(in, 3, 0x7C01);        /* sNaN */
    tl_fill(3, in);
    for (int n = 0; n < 512; n++) put16(want, n, 0xC200);         /* -3.0 */
    put16(want, 0, 0xC000);      /* -2.0 */
    put16(want, 1, 0x7BFF);      /* 65501 rounds to 65504 */
    put16(want, 2, 0xFC00);
    put16(want, 3, 0x7E00);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, -3), 0, 0, 5, want, "addi fp16"),
          "%s: tl.addi -3 fp16: 1->-2 (0xc000), 65504->65504, -inf, sNaN->0x7e00, 0->-3 (0xc200)", MN);
    for (int n = 0; n < 512; n++) put16(want, n, 0x5640);         /* 100.0 */
    put16(want, 0, 0x5650);      /* 101.0 */
    put16(want, 1, 0x7BFF);      /* 65604 -> 65600 > max -> saturate */
    put16(want, 2, 0xFC00);
    put16(want, 3, 0x7E00);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 100), 0, 0, 5, want, "addi fp16 +100"),
          "%s: tl.addi +100 fp16: 1->101 (0x5650), 65504->saturated 0x7bff, 0->100 (0x5640)", MN);

    /* bf16 */
    memset(in, 0, 1024);
    put16(in, 0, 0x3F80);
    tl_fill(3, in);
    for (int n = 0; n < 512; n++) put16(want, n, 0x3F80);
    put16(want, 0, 0x4000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_BF16);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 1), 0, 0, 5, want, "addi bf16"),
          "%s: tl.addi +1 bf16: 1.0->2.0 (0x4000), 0->1.0 (0x3f80)", MN);

    /* E4M3 */
    memset(in, 0, 1024);
    in[0] = 0x38; in[1] = 0x7E; in[2] = 0x7F; in[3] = 0xFF;
    tl_fill(3, in);
    memset(want, 0x6C, 1024);    /* 0 + 100: tie between 96 and 104 -> even 96 */
    want[0] = 0x6D;              /* 101 -> 104 */
    want[1] = 0x7E;              /* 548 -> saturate 448 */
    want[2] = 0x7F; want[3] = 0x7F;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_E4M3);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 100), 0, 0, 5, want, "addi e4m3"),
          "%s: tl.addi +100 E4M3: 1->104 (0x6d), 448->448 (sat), NaNs->0x7f, 0->96 (tie to even, 0x6c)", MN);

    /* E2M1: byte0 = e1:e0 = 6.0:1.0 = 0x72 */
    memset(in, 0, 1024);
    in[0] = 0x72;
    tl_fill(3, in);
    memset(want, 0x22, 1024);
    want[0] = 0x74;              /* 1+1 = 2 (0x4); 6+1 = 7 -> tie to 8 -> saturate 6 (0x7) */
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_E2M1);
    check(run_cmp(TL_ENC_ADDI(1, 5, 3, 1), 0, 0, 5, want, "addi e2m1"),
          "%s: tl.addi +1 E2M1: 1->2, 6->6 (7 rounds to 8, saturates), 0->1", MN);
}

static void test_muls(void)
{
    static uint8_t in[1024];

    for (int n = 0; n < 1024; n++) in[n] = (uint8_t)n;
    tl_fill(3, in);
    for (int n = 0; n < 1024; n++) want[n] = 3 * in[n] > 255 ? 255 : 3 * in[n];
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 3, 5, want, "muls int8"),
          "%s: tl.muls tl5, tl3, t1=3 int8 over all 1024 bytes: min(3x, 255)", MN);
    for (int n = 0; n < 1024; n++) want[n] = in[n] ? 255 : 0;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0x100, 5, want, "muls 256"),
          "%s: tl.muls int8 by t1=0x100 (full XLEN scalar, not truncated): 0->0, others 255", MN);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0x8000000000000001UL, 5, want, "muls big"),
          "%s: tl.muls int8 by t1=0x8000000000000001 (unsigned XLEN): 0->0, others 255", MN);
    for (int n = 0; n < 1024; n++) want[n] = 2 * in[n] > 255 ? 255 : 2 * in[n];
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    check(run_cmp(TL_ENC_MULS(1, 3, 3, T1), 0, 2, 3, want, "muls alias"),
          "%s: tl.muls tl3, tl3, t1=2 (in place): min(2x, 255)", MN);

    memset(in, 0, 1024);
    put16(in, 0, 300); put16(in, 1, 65535); put16(in, 2, 1);
    tl_fill(3, in);
    memset(want, 0, 1024);
    put16(want, 0, 60000); put16(want, 1, 0xFFFF); put16(want, 2, 200);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT16);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 200, 5, want, "muls int16"),
          "%s: tl.muls int16 by 200: 300->60000, 65535->65535, 1->200, 0->0", MN);
    put16(want, 0, 0xFFFF); put16(want, 2, 300);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT16);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 300, 5, want, "muls int16 300"),
          "%s: tl.muls int16 by 300: 300->65535 (90000 saturates), 1->300", MN);

    memset(in, 0, 1024);
    in[0] = 0x25;
    tl_fill(3, in);
    memset(want, 0, 1024);
    want[0] = 0x6F;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT4);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 3, 5, want, "muls int4"),
          "%s: tl.muls int4 by 3: nibbles 5->15, 2->6 (0x25 -> 0x6f)", MN);
    want[0] = 0x8F;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT4);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 4, 5, want, "muls int4 4"),
          "%s: tl.muls int4 by 4: nibbles 5->15 (sat), 2->8 (0x25 -> 0x8f)", MN);

    memset(in, 0, 1024);
    put32(in, 0, 0x10000); put32(in, 1, 3);
    tl_fill(3, in);
    memset(want, 0, 1024);
    put32(want, 0, 0xFFFFFFFF); put32(want, 1, 0x30000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT32);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0x10000, 5, want, "muls int32"),
          "%s: tl.muls int32 by 0x10000: 0x10000 -> 0xffffffff (sat), 3 -> 0x30000", MN);

    /* fp32 */
    memset(in, 0, 1024);
    put32(in, 0, 0x3FC00000);    /* 1.5 */
    put32(in, 1, 0x80000000);    /* -0 */
    put32(in, 2, 0x00000000);    /* +0 */
    put32(in, 3, 0x7F800000);    /* +inf */
    put32(in, 4, 0x7F7FFFFF);    /* max */
    put32(in, 5, 0x7FC00001);    /* qNaN with payload */
    tl_fill(3, in);
    memset(want, 0, 1024);
    put32(want, 0, 0x40400000); put32(want, 1, 0x80000000); put32(want, 2, 0);
    put32(want, 3, 0x7F800000); put32(want, 4, 0x7F7FFFFF); put32(want, 5, 0x7FC00000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP32);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0xFFFFFFFF40000000UL, 5, want, "muls fp32"),
          "%s: tl.muls fp32 by t1=0xffffffff_40000000 (2.0; bits 63:32 ignored): 1.5->3, -0->-0, "
          "inf->inf, max->max (sat), NaN->0x7fc00000", MN);
    for (int n = 0; n < 256; n++) put32(want, n, 0x80000000);    /* +0 * -2 = -0 */
    put32(want, 0, 0xC0400000); put32(want, 1, 0x00000000); put32(want, 2, 0x80000000);
    put32(want, 3, 0xFF800000); put32(want, 4, 0xFF7FFFFF); put32(want, 5, 0x7FC00000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP32);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0xC0000000, 5, want, "muls fp32 -2"),
          "%s: tl.muls fp32 by -2.0: 1.5->-3, -0->+0, +0->-0, inf->-inf, max->-max, 0->-0", MN);
    memset(want, 0, 1024);
    put32(want, 1, 0x80000000); put32(want, 3, 0x7FC00000); put32(want, 5, 0x7FC00000);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP32);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0, 5, want, "muls fp32 0"),
          "%s: tl.muls fp32 by +0.0: inf*0 -> 0x7fc00000, -0*+0 = -0, others +0", MN);

    /* fp16 by 0.5: subnormal ties to even */
    memset(in, 0, 1024);
    put16(in, 0, 0x4200); put16(in, 1, 0x0001); put16(in, 2, 0x0003);
    tl_fill(3, in);
    memset(want, 0, 1024);
    put16(want, 0, 0x3E00); put16(want, 1, 0x0000); put16(want, 2, 0x0002);
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0x3F000000, 5, want, "muls fp16"),
          "%s: tl.muls fp16 by 0.5: 3->1.5 (0x3e00), 2^-24 -> tie -> +0, 3*2^-24 -> tie -> 2*2^-24", MN);

    memset(in, 0, 1024);
    in[0] = 0x38; in[1] = 0xB8; in[2] = 0x7F;
    tl_fill(3, in);
    memset(want, 0, 1024);
    want[0] = 0x7E; want[1] = 0xFE; want[2] = 0x7F;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_E4M3);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0x447A0000, 5, want, "muls e4m3"),
          "%s: tl.muls E4M3 by 1000.0: 1->448 (sat 0x7e), -1->-448 (0xfe), NaN->0x7f, 0->0", MN);

    memset(in, 0, 1024);
    in[0] = 0x3C; in[1] = 0x7C; in[2] = 0x7B;
    tl_fill(3, in);
    memset(want, 0, 1024);
    want[0] = 0x40; want[1] = 0x7C; want[2] = 0x7B;
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_E5M2);
    check(run_cmp(TL_ENC_MULS(1, 5, 3, T1), 0, 0x40000000, 5, want, "muls e5m2"),
          "%s: tl.muls E5M2 by 2.0: 1->2 (0x40), inf->inf (0x7c), max->max (sat 0x7b)", MN);
}

static int xpose_case(unsigned type, int e, const unsigned D[4], int a, int b, uint32_t w, int r1,
                      int r2)
{
    int ok;

    tl_fill(r1, tensor);
    tl_fill(r2, tensor + 1024);
    xpose_ref(tensor, want, D, (unsigned)a, (unsigned)b, (unsigned)e);
    tl_csr_write(TL_CSR_TTYPE, type);
    ok = expect_no_trap(w, 0, TL_DIMS4(D[0], D[1], D[2], D[3]));
    ok = reg_is(r1, want, "xpose first half") && ok;
    ok = reg_is(r2, want + 1024, "xpose second half") && ok;
    return ok;
}

static void test_xpose(void)
{
    static const unsigned D8[4] = { 2, 4, 16, 16 };     /* int8: 2048 elements */
    static const int pairs[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };

    for (int n = 0; n < 2048; n++) {
        tensor[n] = (uint8_t)(n * 11 + (n >> 8) * 0x47 + 3);
    }
    for (int p = 0; p < 6; p++) {
        int a = pairs[p][0], b = pairs[p][1];
        uint32_t w = TL_ENC_XPOSE(3, a, b, 6, 7, T1);
        check(xpose_case(TL_TYPE_INT8, 8, D8, a, b, w, 6, 7),
              "%s: tl.xpose.%d%d tl6, tl7 int8 [2,4,16,16] (funct5 %#x): dims %d,%d swapped, "
              "first 1024 B to tl6, rest to tl7", MN, a, b, XTL_EXTRACT(FUNCT5, w), a, b);
    }
    /* funct5 0x04 names the pair (0,1) in the other field order; EngineID 00 as in the seed */
    check(xpose_case(TL_TYPE_INT8, 8, D8, 0, 1, TL_ENC_XPOSE_F5(0, 0x04, 6, 7, T1), 6, 7),
          "%s: tl.xpose funct5=0x04 EngineID 00 swaps dims 0,1 like .01", MN);
    check(xpose_case(TL_TYPE_INT8, 8, D8, 2, 2, TL_ENC_XPOSE_F5(3, 0x0A, 6, 7, T1), 6, 7),
          "%s: tl.xpose funct5=0x0a (dims 2,2) is a legal no-op: data unchanged", MN);
    static const unsigned D16[4] = { 4, 4, 8, 8 };      /* int16: 1024 elements */
    check(xpose_case(TL_TYPE_INT16, 16, D16, 1, 3, TL_ENC_XPOSE(3, 1, 3, 8, 9, T1), 8, 9),
          "%s: tl.xpose.13 tl8, tl9 int16 [4,4,8,8]: 2-byte elements move whole", MN);
    static const unsigned D4[4] = { 2, 16, 16, 8 };     /* int4: 4096 elements */
    check(xpose_case(TL_TYPE_INT4, 4, D4, 0, 2, TL_ENC_XPOSE(3, 0, 2, 8, 9, T1), 8, 9),
          "%s: tl.xpose.02 int4 [2,16,16,8]: nibbles move individually", MN);

    /* tl0 as tlrs2: reads zeros, second half of the result discarded */
    {
        static uint8_t t2[2048];
        int ok;
        memcpy(t2, tensor, 1024);
        memset(t2 + 1024, 0, 1024);
        tl_fill(6, tensor);
        xpose_ref(t2, want, D8, 0, 1, 8);
        tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
        ok = expect_no_trap(TL_ENC_XPOSE(3, 0, 1, 6, 0, T1), 0, TL_DIMS4(2, 4, 16, 16));
        ok = reg_is(6, want, "xpose tl0") && ok;
        check(ok, "%s: tl.xpose.01 tl6, tl0: tensor = tl6 + 1024 zero bytes, first half of the result in tl6", MN);
    }
    /* bits 63:32 of the dims GPR ignored */
    {
        int ok;
        tl_fill(6, tensor);
        tl_fill(7, tensor + 1024);
        xpose_ref(tensor, want, D8, 2, 3, 8);
        tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
        ok = expect_no_trap(TL_ENC_XPOSE(3, 2, 3, 6, 7, T1), 0,
                            0xFFFFFFFF00000000UL | TL_DIMS4(2, 4, 16, 16));
        ok = reg_is(6, want, "xpose hi") && reg_is(7, want + 1024, "xpose hi 2") && ok;
        check(ok, "%s: tl.xpose.23 with dims GPR 0xffffffff_10100402: bits 63:32 ignored", MN);
    }
}

static void test_fillpad(void)
{
    static uint8_t in[1024];
    static const uint8_t fmax[24] = {
        0x10, 0x11, 0x12, 0xFF, 0x14, 0x15, 0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    };
    static const char *const pname[3] = { "zero", "min", "max" };

    /* int8 [2,3,4], tvalid (1,2,3): inside = elements 0,1,2,4,5,6 */
    tl_fill(3, pa);
    for (int pp = 0; pp < 3; pp++) {
        memset(want, 0, 1024);
        for (int n = 0; n < 24; n++) {
            want[n] = fmax[n] == 0xFF ? (pp == 2 ? 0xFF : 0x00) : fmax[n];
        }
        tl_setup(TL_TYPE_INT8, 2, 3, 4, 12, 12);
        tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 2, 3));
        check(run_cmp(TL_ENC_FILLPAD(3, pp, 5, 3), 0, 0, 5, want, "fillpad int8"),
              "%s: tl.fillpad.%s tl5, tl3 int8 [2,3,4] tvalid (1,2,3): elements 0-2, 4-6 kept, "
              "others %s, bytes 24.. zero", MN, pname[pp], pp == 2 ? "0xff" : "0");
    }

    /* in place */
    tl_fill(3, pa);
    memset(want, 0, 1024);
    memcpy(want, fmax, 24);
    tl_setup(TL_TYPE_INT8, 2, 3, 4, 12, 12);
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 2, 3));
    check(run_cmp(TL_ENC_FILLPAD(3, TL_PAD_MAX, 3, 3), 0, 0, 3, want, "fillpad alias"),
          "%s: tl.fillpad.max tl3, tl3 (in place) gives the same", MN);

    /* pad values of every type: shape [1,1,2], tvalid (1,1,1): element 1 is pad */
    static const struct { unsigned type; int e; uint32_t mn, mx; const char *name; } tp[] = {
        { TL_TYPE_INT4, 4, 0x0, 0xF, "int4" },
        { TL_TYPE_INT8, 8, 0x00, 0xFF, "int8" },
        { TL_TYPE_INT16, 16, 0x0000, 0xFFFF, "int16" },
        { TL_TYPE_INT32, 32, 0, 0xFFFFFFFF, "int32" },
        { TL_TYPE_E2M1, 4, 0xF, 0x7, "E2M1" },
        { TL_TYPE_E4M3, 8, 0xFE, 0x7E, "E4M3" },
        { TL_TYPE_E5M2, 8, 0xFC, 0x7C, "E5M2" },
        { TL_TYPE_E3M4, 8, 0xF0, 0x70, "E3M4" },
        { TL_TYPE_FP16, 16, 0xFC00, 0x7C00, "fp16" },
        { TL_TYPE_BF16, 16, 0xFF80, 0x7F80, "bf16" },
        { TL_TYPE_FP32, 32, 0xFF800000, 0x7F800000, "fp32" },
    };
    memset(in, 0x5A, 1024);
    tl_fill(3, in);
    for (unsigned t = 0; t < sizeof(tp) / sizeof(tp[0]); t++) {
        for (int pp = 1; pp <= 2; pp++) {
            uint32_t pad = pp == 1 ? tp[t].mn : tp[t].mx;
            memset(want, 0, 1024);
            switch (tp[t].e) {
            case 4: want[0] = (uint8_t)(0x0A | pad << 4); break;
            case 8: want[0] = 0x5A; want[1] = (uint8_t)pad; break;
            case 16: want[0] = want[1] = 0x5A; put16(want, 1, (uint16_t)pad); break;
            default: memset(want, 0x5A, 4); put32(want, 1, pad); break;
            }
            tl_setup(tp[t].type, 1, 1, 2, tp[t].e / 4, tp[t].e / 4);
            tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 1, 1));
            check(run_cmp(TL_ENC_FILLPAD(3, pp, 5, 3), 0, 0, 5, want, "fillpad types"),
                  "%s: tl.fillpad.%s %s [1,1,2] tvalid (1,1,1): element 1 = %#x", MN, pname[pp],
                  tp[t].name, pad);
        }
    }
}

static long insn_suite(long mode)
{
    MN = mode_name(mode);
    test_load();
    test_store();
    test_repeated();
    test_concat_merge();
    test_addi();
    test_muls();
    test_xpose();
    test_fillpad();
    return 0;
}

/* ------------------------------------------------------------------ */
/* 5: reserved encodings and illegal states                              */
/* ------------------------------------------------------------------ */

/* A CUSTOM-2 word from the fields of the common layout (docs/isa.md 4.1). */
#define WORD(eng, f5, b24, b19, f3, b11)                                           \
    ((uint32_t)(XTL_INSERT(ENG, eng) | XTL_INSERT(FUNCT5, f5) | XTL_INSERT(OPERAND_B, b24) | \
                XTL_INSERT(OPERAND_A, b19) | XTL_INSERT(FUNCT3, f3) |              \
                XTL_INSERT(OPERAND_C, b11) | XTL_OPCODE))

static void valid_state(void)
{
    tl_setup(TL_TYPE_INT8, 4, 2, 8, 16, 16);
    tl_csr_write(TL_CSR_TMASK_LS, 0xF);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x3);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x1);
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 1, 1));
}

static void test_reserved(void)
{
    static const struct { uint32_t w; const char *what; } rsv[] = {
        { WORD(0, 0x00, 3, 2, 6, 1), "R1 funct3=110" },
        { WORD(3, 0x1F, 31, 31, 6, 31), "R1 funct3=110 (all fields ones)" },
        { WORD(0, 0x00, 3, 2, 7, 1), "R2 funct3=111" },
        { WORD(1, 0x05, 0, 1, 7, 2), "R2 funct3=111 EngineID 01" },
        { WORD(3, 0x08, 2, 1, 1, 3), "R3 funct3=001 funct5=01000 (seed merge 0x08)" },
        { WORD(3, 0x0C, 2, 1, 1, 3), "R3 funct3=001 funct5=01100" },
        { WORD(3, 0x10, 2, 1, 1, 3), "R3 funct3=001 funct5=10000" },
        { WORD(3, 0x1D, 2, 1, 1, 3), "R3 funct3=001 funct5=11101" },
        { WORD(3, 0x03, 2, 1, 1, 3), "R4 concat DD=11 (funct5=00011)" },
        { WORD(2, 0x07, 2, 1, 1, 3), "R4 merge DD=11 (funct5=00111)" },
        { WORD(1, 0x08, 5, 1, 2, 2), "R5 addi funct2=01" },
        { WORD(1, 0x10, 5, 1, 2, 2), "R5 addi funct2=10" },
        { WORD(1, 0x18, 5, 1, 2, 2), "R5 addi funct2=11" },
        { WORD(3, 0x10, 7, 6, 3, GPR_T1), "R6 xpose funct5=10000" },
        { WORD(3, 0x19, 7, 6, 3, GPR_T1), "R6 xpose funct5=11001 (seed TL.XPOSE.W-style)" },
        { WORD(1, 0x01, GPR_T1, 3, 4, 5), "R7 muls funct5=00001" },
        { WORD(1, 0x10, GPR_T1, 3, 4, 5), "R7 muls funct5=10000" },
        { WORD(3, 0x04, 0, 3, 5, 5), "R8 fillpad funct5=00100" },
        { WORD(3, 0x12, 0, 3, 5, 5), "R8 fillpad funct5=10010" },
        { WORD(3, 0x03, 0, 3, 5, 5), "R9 fillpad PP=11" },
        { WORD(3, 0x00, 1, 3, 5, 5), "R10 fillpad [24:20]=00001" },
        { WORD(3, 0x02, 31, 3, 5, 5), "R10 fillpad.max [24:20]=11111" },
    };
    for (unsigned i = 0; i < sizeof(rsv) / sizeof(rsv[0]); i++) {
        valid_state();
        check(expect_trap(rsv[i].w, A(dst), TL_DIMS4(2, 4, 16, 16), CAUSE_ILLEGAL, rsv[i].w),
              "%s: reserved encoding %s (%#010x) traps, mcause 2, mtval = word", MN, rsv[i].what,
              rsv[i].w);
    }
    /* EngineID never makes an encoding reserved; every legal xpose funct5 runs */
    int ok = 1;
    for (unsigned eng = 0; eng < 4; eng++) {
        valid_state();
        ok = expect_no_trap(TL_ENC_ADDI(eng, 5, 3, 1), 0, 0) && ok;
        ok = expect_no_trap(TL_ENC_MOVE(eng, 0, 0, 5, 3, 4), 0, 0) && ok;   /* n = 3 <= D0 */
        ok = expect_no_trap(TL_ENC_FILLPAD(eng, 1, 5, 3), 0, 0) && ok;
        ok = expect_no_trap(W_LOAD(5, 0, T0) | XTL_INSERT(ENG, eng), A(src), 0) && ok;
        ok = expect_no_trap((W_STORE(5, 0, T0) & ~XTL_ENG_MASK) | XTL_INSERT(ENG, eng), A(dst), 0) &&
             ok;
    }
    check(ok, "%s: EngineID 00/01/10/11 are all legal for addi, concat, fillpad, load, store", MN);
    ok = 1;
    for (unsigned f5 = 0; f5 < 16; f5++) {
        valid_state();
        ok = expect_no_trap(TL_ENC_XPOSE_F5(3, f5, 6, 7, T1), 0, TL_DIMS4(2, 4, 16, 16)) && ok;
    }
    check(ok, "%s: all 16 xpose funct5 values 0x00-0x0f are legal (int8 [2,4,16,16])", MN);
}

static void test_illegal_state(void)
{
    uint32_t w;
    int ok;

    /* invalid ttype: every instruction traps */
    static const unsigned bad_types[] = { 0x000, 0x003, 0x012, 0x020, 0x030, 0x300, 0x440, 0x800, 0xC00, 0x0FF };
    for (unsigned i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++) {
        valid_state();
        tl_csr_write(TL_CSR_TTYPE, bad_types[i]);
        w = TL_ENC_ADDI(1, 5, 3, 1);
        check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
              "%s: ttype=%#05x (invalid) makes tl.addi trap, mcause 2, mtval = word", MN, bad_types[i]);
    }
    static const struct { uint32_t w; const char *what; } all[] = {
        { W_LOAD(5, 0, T0), "tl.load" }, { W_STORE(5, 0, T0), "tl.store" },
        { W_MLOAD(5, 0, T0), "tl.mload" }, { W_MSTORE(5, 0, T0), "tl.mstore" },
        { TL_ENC_MOVE(3, 0, 0, 5, 3, 4), "tl.concat.0" }, { TL_ENC_MOVE(3, 1, 1, 5, 3, 4), "tl.merge.1" },
        { TL_ENC_XPOSE(3, 0, 1, 6, 7, T1), "tl.xpose.01" }, { TL_ENC_MULS(1, 5, 3, T1), "tl.muls" },
        { TL_ENC_FILLPAD(3, 0, 5, 3), "tl.fillpad.zero" },
    };
    for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        valid_state();
        tl_csr_write(TL_CSR_TTYPE, 0x003);
        check(expect_trap(all[i].w, A(dst), TL_DIMS4(2, 4, 16, 16), CAUSE_ILLEGAL, all[i].w),
              "%s: ttype=0x003 (two fields) makes %s trap, mcause 2, mtval = word", MN, all[i].what);
    }

    /* D0 > 32 and the trapping load leaves its destination unchanged */
    tl_fill_byte(9, 0xEE);
    valid_state();
    tl_setup(TL_TYPE_INT8, 33, 1, 1, 1, 1);
    w = W_LOAD(9, 0, T0);
    ok = expect_trap(w, A(src), 0, CAUSE_ILLEGAL, w);
    memset(want, 0xEE, 1024);
    ok = reg_is(9, want, "D0>32 dest") && ok;
    check(ok, "%s: tl.load int8 [33,1,1] (D0 > 32) traps, mcause 2, mtval = word; tl9 unchanged", MN);
    tl_setup(TL_TYPE_INT8, 33, 1, 1, 1, 1);
    memset(dst, 0xEE, 64);
    w = W_MSTORE(9, 0, T0);
    tl_csr_write(TL_CSR_TMASK_LS, 1);
    ok = expect_trap(w, A(dst), 0, CAUSE_ILLEGAL, w);
    memset(want, 0xEE, 64);
    check(ok && mem_equal("D0>32 store", dst, want, 64),
          "%s: tl.mstore int8 [33,1,1] mask 1 (D0 > 32) traps, mcause 2; no byte stored", MN);
    tl_setup(TL_TYPE_INT8, 32, 1, 1, 1, 1);
    check(expect_no_trap(W_LOAD(9, 0, T0), A(src), 0), "%s: control: tl.load int8 [32,1,1] runs", MN);

    /* invalid shapes */
    static const struct { unsigned type, d0, d1, d2; const char *what; } shapes[] = {
        { TL_TYPE_INT8, 0, 2, 8, "int8 [0,2,8] (D0 = 0)" },
        { TL_TYPE_INT8, 4, 0, 8, "int8 [4,0,8] (D1 = 0)" },
        { TL_TYPE_INT8, 4, 2, 0, "int8 [4,2,0] (D2 = 0)" },
        { TL_TYPE_INT8, 5, 1, 255, "int8 [5,1,255] (1275 B > 1024)" },
        { TL_TYPE_INT16, 2, 2, 129, "int16 [2,2,129] (1032 B)" },
        { TL_TYPE_INT4, 1, 1, 3, "int4 [1,1,3] (slice of 1.5 B)" },
    };
    for (unsigned i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        static const struct { uint32_t w; const char *what; } ins[] = {
            { W_LOAD(5, 0, T0), "tl.load" }, { W_STORE(5, 0, T0), "tl.store" },
            { TL_ENC_MOVE(3, 0, 0, 5, 3, 4), "tl.concat.0" }, { TL_ENC_MOVE(3, 1, 0, 5, 3, 4), "tl.merge.0" },
            { TL_ENC_FILLPAD(3, 0, 5, 3), "tl.fillpad.zero" },
        };
        ok = 1;
        for (unsigned j = 0; j < sizeof(ins) / sizeof(ins[0]); j++) {
            valid_state();
            tl_csr_write(TL_CSR_TTYPE, shapes[i].type);
            tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(shapes[i].d0, shapes[i].d1, shapes[i].d2));
            tl_csr_write(TL_CSR_TVALID, 0);
            __asm__ volatile("csrw 0x806, %0" : : "r"(1UL));    /* W = 1 <= any S */
            if (!expect_trap(ins[j].w, A(dst), 0, CAUSE_ILLEGAL, ins[j].w)) {
                diag("  %s did not trap as expected", ins[j].what);
                ok = 0;
            }
        }
        check(ok, "%s: shape %s: tl.load, tl.store, tl.concat.0, tl.merge.0, tl.fillpad all trap, "
              "mcause 2, mtval = word", MN, shapes[i].what);
    }
    valid_state();
    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    check(expect_no_trap(W_LOAD(5, 0, T0), A(src), 0), "%s: control: int8 [4,2,128] (exactly 1024 B) loads", MN);
    valid_state();
    tl_setup(TL_TYPE_INT4, 1, 1, 2, 1, 1);
    check(expect_no_trap(W_LOAD(5, 0, T0), A(src), 0), "%s: control: int4 [1,1,2] (1-byte slice) loads", MN);

    /* width out of range */
    static const struct { uint32_t wv; const char *what; } widths[] = {
        { 0, "W = 0" }, { 17, "W = S + 1 = 17" }, { 0xFFFFFFFF, "W = 0xffffffff" },
    };
    for (unsigned i = 0; i < 3; i++) {
        valid_state();                                  /* [4,2,8] int8: S = 16 */
        tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, widths[i].wv);
        w = W_LOAD(5, 0, T0);
        ok = expect_trap(w, A(src), 0, CAUSE_ILLEGAL, w);
        w = W_STORE(5, 0, T0);
        memset(dst, 0xEE, 128);
        ok = expect_trap(w, A(dst), 0, CAUSE_ILLEGAL, w) && ok;
        memset(want, 0xEE, 128);
        ok = mem_equal("bad W store", dst, want, 128) && ok;
        check(ok, "%s: %s with S = 16: tl.load and tl.store trap, mcause 2, mtval = word, no byte stored",
              MN, widths[i].what);
    }
    valid_state();
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 16);
    check(expect_no_trap(W_LOAD(5, 0, T0), A(src), 0), "%s: control: W = S = 16 loads", MN);

    /* concat n > Dd, Dd > 32 */
    valid_state();
    tl_setup(TL_TYPE_INT8, 4, 1, 4, 4, 4);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x7);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x3);
    w = TL_ENC_MOVE(3, 0, 0, 5, 3, 4);
    check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
          "%s: tl.concat.0 [4,1,4] mask1=0x7 mask2=0x3 (n = 5 > D0 = 4) traps, mcause 2, mtval = word", MN);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x1);
    check(expect_no_trap(w, 0, 0), "%s: control: same with mask2=0x1 (n = 4) runs", MN);
    tl_setup(TL_TYPE_INT8, 1, 1, 40, 40, 40);
    tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x1);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x1);
    w = TL_ENC_MOVE(3, 0, 2, 5, 3, 4);
    check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
          "%s: tl.concat.2 int8 [1,1,40] (D2 = 40 > 32) traps, mcause 2, mtval = word", MN);
    w = TL_ENC_MOVE(3, 1, 2, 5, 3, 4);
    check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
          "%s: tl.merge.2 int8 [1,1,40] (D2 = 40 > 32) traps, mcause 2, mtval = word", MN);
    tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0x0);          /* n = 1 <= D0 = 1 */
    check(expect_no_trap(TL_ENC_MOVE(3, 0, 0, 5, 3, 4), 0, 0) &&
          expect_no_trap(TL_ENC_MOVE(3, 1, 1, 5, 3, 4), 0, 0),
          "%s: control: tl.concat.0 (mask2 = 0, n = 1) / tl.merge.1 on [1,1,40] (chosen dim size 1) run", MN);

    /* xpose */
    static const struct { unsigned type; uint64_t dims; int r1, r2; const char *what; } xp[] = {
        { TL_TYPE_INT8, TL_DIMS4(4, 8, 8, 4), 6, 7, "int8 [4,8,8,4] (1024 B, seed 5.2 example)" },
        { TL_TYPE_INT16, TL_DIMS4(2, 4, 16, 16), 6, 7, "int16 [2,4,16,16] (4096 B)" },
        { TL_TYPE_INT8, TL_DIMS4(1, 2, 32, 32), 6, 7, "int8 [1,2,32,32] (D0 odd)" },
        { TL_TYPE_INT8, TL_DIMS4(0, 4, 16, 16), 6, 7, "int8 [0,4,16,16] (zero dim)" },
        { TL_TYPE_INT8, TL_DIMS4(2, 4, 16, 0), 6, 7, "int8 [2,4,16,0] (zero dim)" },
        { TL_TYPE_INT8, TL_DIMS4(2, 4, 16, 16), 6, 6, "tl6, tl6 (tlrs1 == tlrs2)" },
        { TL_TYPE_INT8, TL_DIMS4(2, 4, 16, 16), 0, 0, "tl0, tl0 (tlrs1 == tlrs2)" },
    };
    for (unsigned i = 0; i < sizeof(xp) / sizeof(xp[0]); i++) {
        for (int nop = 0; nop < 2; nop++) {
            valid_state();
            tl_csr_write(TL_CSR_TTYPE, xp[i].type);
            w = nop ? TL_ENC_XPOSE_F5(3, 0x05, xp[i].r1, xp[i].r2, T1)
                    : TL_ENC_XPOSE(3, 0, 1, xp[i].r1, xp[i].r2, T1);
            check(expect_trap(w, 0, xp[i].dims, CAUSE_ILLEGAL, w),
                  "%s: tl.xpose%s %s traps, mcause 2, mtval = word", MN,
                  nop ? " funct5=0x05 (no-op pair)" : ".01", xp[i].what);
        }
    }

    /* fillpad V > D */
    static const uint32_t tv[3] = { TL_SHAPE(3, 1, 1), TL_SHAPE(1, 4, 1), TL_SHAPE(1, 1, 5) };
    for (int i = 0; i < 3; i++) {
        valid_state();
        tl_setup(TL_TYPE_INT8, 2, 3, 4, 12, 12);
        tl_csr_write(TL_CSR_TVALID, tv[i]);
        w = TL_ENC_FILLPAD(3, 2, 5, 3);
        check(expect_trap(w, 0, 0, CAUSE_ILLEGAL, w),
              "%s: tl.fillpad.max [2,3,4] tvalid %#08x (a Vi > Di) traps, mcause 2, mtval = word", MN, tv[i]);
    }
    valid_state();
    tl_setup(TL_TYPE_INT8, 2, 3, 4, 12, 12);
    tl_csr_write(TL_CSR_TVALID, TL_SHAPE(2, 3, 4));
    check(expect_no_trap(TL_ENC_FILLPAD(3, 2, 5, 3), 0, 0), "%s: control: tvalid (2,3,4) = tshape runs", MN);
}

static long illegal_suite(long mode)
{
    MN = mode_name(mode);
    test_reserved();
    test_illegal_state();
    return 0;
}

static void run_suites_in(unsigned long mode)
{
    long want_priv = mode == MODE_S ? PRV_S : PRV_U;
    long r = run_in(mode, current_priv, 0);

    check(r == want_priv, "%s: run_in really enters it (mstatus%s readable; got privilege %ld)",
          mode_name(mode), mode == MODE_S ? " not, sstatus" : ", sstatus not", r);
    r = run_in(mode, insn_suite, (long)mode);
    check(r == 0, "%s: instruction suite ran to completion (returned %#lx)", mode_name(mode), r);
    r = run_in(mode, illegal_suite, (long)mode);
    check(r == 0, "%s: illegal-encoding suite ran to completion (returned %#lx)", mode_name(mode), r);
}

int main(void)
{
    for (int k = 0; k < 4096; k++) {
        src[k] = mem_pat(k);
    }
    for (int n = 0; n < 1024; n++) {
        pa[n] = (uint8_t)(0x10 + n);
        pb[n] = (uint8_t)(0x80 + n);
    }
    diag("test_basic: reset values, uninitialized CSRs, WARL, all instructions in M/S/U, illegal encodings/states");
    test_reset_values();
    check(run_in(MODE_S, uninit_probe, MODE_S) == 0, "S-mode: post-reset probe ran to completion");
    check(run_in(MODE_U, uninit_probe, MODE_U) == 0, "U-mode: post-reset probe ran to completion");
    test_uninitialized();
    test_warl();
    tinit_probe(MODE_M);
    check(run_in(MODE_S, tinit_probe, MODE_S) == 0, "S-mode: tinit probe ran to completion");
    check(run_in(MODE_U, tinit_probe, MODE_U) == 0, "U-mode: tinit probe ran to completion");
    insn_suite(MODE_M);
    illegal_suite(MODE_M);
    run_suites_in(MODE_S);
    run_suites_in(MODE_U);
    return 0;
}
