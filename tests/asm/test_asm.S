/*
 * Encoding test for include/tl/tl_asm.S: every line below that starts with
 * "tl." is one instruction.  tests/asm/check_words.py parses these lines on its
 * own, computes the expected word with tests/reference/tlref.py (encode_*)
 * and with the TL_ENC_* macros of include/tl/tl_insn.h, and compares them with
 * the assembled words, in order.  Keep one instruction per line and nothing
 * else in .text.
 */
.include "tl/tl_asm.S"
.equ .Lk_five, 5
.equ .Lk_min, -128
        .text
        .globl tl_asm_test
tl_asm_test:
/* docs/isa.md 4.7 worked encodings */
tl.mload tl1, 0(a0)
tl.xpose.01 tl1, tl2, a0
tl.concat.2 tl3, tl1, tl2
tl.addi tl1, tl2, -5
tl.muls tl1, tl2, a1
tl.fillpad.max tl1, tl2
tl.load tl5, -2(sp)
tl.mstore tl3, 4(a1)
tl.store tl31, 127(t6)
tl.merge.1 tl4, tl5, tl6
tl.xpose.13 tl1, tl2, a0
tl.fillpad.zero tl7, tl7
tl.concat.0 tl0, tl1, tl2, eng=2
/* memory: every TL register, every GPR spelling, offset spellings and edges */
tl.load tl0, 0(x0)
tl.load tl7, -128(x1)
tl.load tl14, 127(x2)
tl.load tl21, -1(x3)
tl.load tl28, 1(x4)
tl.load tl3, 0x7f(x5)
tl.load tl10, -0x80(x6)
tl.load tl17, 0X1F(x7)
tl.load tl24, -0x01(x8)
tl.load tl31, 0xA(x9)
tl.load tl6, 0b101(x10)
tl.load tl13, -0B1111111(x11)
tl.load tl20, 017(x12)
tl.load tl27, -0177(x13)
tl.load tl2, 00(x14)
tl.load tl9, (x15)
tl.load tl16, +5(x16)
tl.load tl23, +0x10(x17)
tl.load tl30, 64(x18)
tl.load tl5, -64(x19)
tl.load tl12, 100(x20)
tl.load tl19, -100(x21)
tl.load tl26, 0x0(x22)
tl.load tl1, 2(x23)
tl.load tl8, -2(x24)
tl.load tl15, 31(x25)
tl.load tl22, -31(x26)
tl.load tl29, 0x3c(x27)
tl.load tl4, -0x3C(x28)
tl.load tl11, 9(x29)
tl.load tl18, -9(x30)
tl.load tl25, 126(x31)
tl.load tl0, -127(zero)
tl.mload tl17, 0x7f(x17)
tl.mload tl24, -0x80(x18)
tl.mload tl31, 0X1F(x19)
tl.mload tl6, -0x01(x20)
tl.mload tl13, 0xA(x21)
tl.mload tl20, 0b101(x22)
tl.mload tl27, -0B1111111(x23)
tl.mload tl2, 017(x24)
tl.mload tl9, -0177(x25)
tl.mload tl16, 00(x26)
tl.mload tl23, (x27)
tl.mload tl30, +5(x28)
tl.mload tl5, +0x10(x29)
tl.mload tl12, 64(x30)
tl.mload tl19, -64(x31)
tl.mload tl26, 100(zero)
tl.mload tl1, -100(ra)
tl.mload tl8, 0x0(sp)
tl.mload tl15, 2(gp)
tl.mload tl22, -2(tp)
tl.mload tl29, 31(t0)
tl.mload tl4, -31(t1)
tl.mload tl11, 0x3c(t2)
tl.mload tl18, -0x3C(s0)
tl.mload tl25, 9(s1)
tl.mload tl0, -9(a0)
tl.mload tl7, 126(a1)
tl.mload tl14, -127(a2)
tl.mload tl21, 0x40(a3)
tl.mload tl28, 99(a4)
tl.mload tl3, 0(a5)
tl.mload tl10, -128(a6)
tl.mload tl31, 127(a7)
tl.store tl2, -0B1111111(sp)
tl.store tl9, 017(gp)
tl.store tl16, -0177(tp)
tl.store tl23, 00(t0)
tl.store tl30, (t1)
tl.store tl5, +5(t2)
tl.store tl12, +0x10(s0)
tl.store tl19, 64(s1)
tl.store tl26, -64(a0)
tl.store tl1, 100(a1)
tl.store tl8, -100(a2)
tl.store tl15, 0x0(a3)
tl.store tl22, 2(a4)
tl.store tl29, -2(a5)
tl.store tl4, 31(a6)
tl.store tl11, -31(a7)
tl.store tl18, 0x3c(s2)
tl.store tl25, -0x3C(s3)
tl.store tl0, 9(s4)
tl.store tl7, -9(s5)
tl.store tl14, 126(s6)
tl.store tl21, -127(s7)
tl.store tl28, 0x40(s8)
tl.store tl3, 99(s9)
tl.store tl10, 0(s10)
tl.store tl17, -128(s11)
tl.store tl24, 127(t3)
tl.store tl31, -1(t4)
tl.store tl6, 1(t5)
tl.store tl13, 0x7f(t6)
tl.store tl20, -0x80(fp)
tl.store tl27, 0X1F(x0)
tl.store tl0, -0x01(x1)
tl.mstore tl19, +0x10(s3)
tl.mstore tl26, 64(s4)
tl.mstore tl1, -64(s5)
tl.mstore tl8, 100(s6)
tl.mstore tl15, -100(s7)
tl.mstore tl22, 0x0(s8)
tl.mstore tl29, 2(s9)
tl.mstore tl4, -2(s10)
tl.mstore tl11, 31(s11)
tl.mstore tl18, -31(t3)
tl.mstore tl25, 0x3c(t4)
tl.mstore tl0, -0x3C(t5)
tl.mstore tl7, 9(t6)
tl.mstore tl14, -9(fp)
tl.mstore tl21, 126(x0)
tl.mstore tl28, -127(x1)
tl.mstore tl3, 0x40(x2)
tl.mstore tl10, 99(x3)
tl.mstore tl17, 0(x4)
tl.mstore tl24, -128(x5)
tl.mstore tl31, 127(x6)
tl.mstore tl6, -1(x7)
tl.mstore tl13, 1(x8)
tl.mstore tl20, 0x7f(x9)
tl.mstore tl27, -0x80(x10)
tl.mstore tl2, 0X1F(x11)
tl.mstore tl9, -0x01(x12)
tl.mstore tl16, 0xA(x13)
tl.mstore tl23, 0b101(x14)
tl.mstore tl30, -0B1111111(x15)
tl.mstore tl5, 017(x16)
tl.mstore tl12, -0177(x17)
tl.mstore tl31, 00(x18)
/* concat / merge: register fields */
tl.concat.0 tl0, tl0, tl0
tl.concat.0 tl31, tl31, tl31
tl.concat.0 tl1, tl2, tl3
tl.concat.0 tl31, tl0, tl16
tl.concat.0 tl0, tl31, tl1
tl.concat.0 tl8, tl16, tl24
tl.concat.0 tl29, tl30, tl17
tl.concat.1 tl0, tl0, tl0
tl.concat.1 tl31, tl31, tl31
tl.concat.1 tl1, tl2, tl3
tl.concat.1 tl31, tl0, tl16
tl.concat.1 tl0, tl31, tl1
tl.concat.1 tl8, tl16, tl24
tl.concat.1 tl29, tl30, tl17
tl.concat.2 tl0, tl0, tl0
tl.concat.2 tl31, tl31, tl31
tl.concat.2 tl1, tl2, tl3
tl.concat.2 tl31, tl0, tl16
tl.concat.2 tl0, tl31, tl1
tl.concat.2 tl8, tl16, tl24
tl.concat.2 tl29, tl30, tl17
tl.merge.0 tl0, tl0, tl0
tl.merge.0 tl31, tl31, tl31
tl.merge.0 tl1, tl2, tl3
tl.merge.0 tl31, tl0, tl16
tl.merge.0 tl0, tl31, tl1
tl.merge.0 tl8, tl16, tl24
tl.merge.0 tl29, tl30, tl17
tl.merge.1 tl0, tl0, tl0
tl.merge.1 tl31, tl31, tl31
tl.merge.1 tl1, tl2, tl3
tl.merge.1 tl31, tl0, tl16
tl.merge.1 tl0, tl31, tl1
tl.merge.1 tl8, tl16, tl24
tl.merge.1 tl29, tl30, tl17
tl.merge.2 tl0, tl0, tl0
tl.merge.2 tl31, tl31, tl31
tl.merge.2 tl1, tl2, tl3
tl.merge.2 tl31, tl0, tl16
tl.merge.2 tl0, tl31, tl1
tl.merge.2 tl8, tl16, tl24
tl.merge.2 tl29, tl30, tl17
/* addi: immediates (GNU as expressions) */
tl.addi tl0, tl3, -128
tl.addi tl5, tl14, -127
tl.addi tl10, tl25, -5
tl.addi tl15, tl4, -1
tl.addi tl20, tl15, 0
tl.addi tl25, tl26, 1
tl.addi tl30, tl5, 5
tl.addi tl3, tl16, 127
tl.addi tl8, tl27, 0x7f
tl.addi tl13, tl6, -0x80
tl.addi tl18, tl17, 0X10
tl.addi tl23, tl28, 0b101
tl.addi tl28, tl7, -0b1
tl.addi tl1, tl18, 017
tl.addi tl6, tl29, +3
tl.addi tl11, tl8, .Lk_five
tl.addi tl16, tl19, .Lk_min
tl.addi tl21, tl30, (1<<6)+1
tl.addi tl26, tl9, -(0x40)
tl.addi tl31, tl20, 126
tl.addi tl4, tl31, -126
tl.addi tl9, tl10, 0x55
tl.addi tl14, tl21, -0x2a
tl.addi tl31, tl0, 127
tl.addi tl0, tl31, -128
/* xpose: the six mnemonics, every GPR spelling */
tl.xpose.01 tl0, tl1, x0
tl.xpose.02 tl3, tl14, x1
tl.xpose.03 tl6, tl27, x2
tl.xpose.12 tl9, tl8, x3
tl.xpose.13 tl12, tl21, x4
tl.xpose.23 tl15, tl2, x5
tl.xpose.01 tl18, tl15, x6
tl.xpose.02 tl21, tl28, x7
tl.xpose.03 tl24, tl9, x8
tl.xpose.12 tl27, tl22, x9
tl.xpose.13 tl30, tl3, x10
tl.xpose.23 tl1, tl16, x11
tl.xpose.01 tl4, tl29, x12
tl.xpose.02 tl7, tl10, x13
tl.xpose.03 tl10, tl23, x14
tl.xpose.12 tl13, tl4, x15
tl.xpose.13 tl16, tl17, x16
tl.xpose.23 tl19, tl30, x17
tl.xpose.01 tl22, tl11, x18
tl.xpose.02 tl25, tl24, x19
tl.xpose.03 tl28, tl5, x20
tl.xpose.12 tl31, tl18, x21
tl.xpose.13 tl2, tl31, x22
tl.xpose.23 tl5, tl12, x23
tl.xpose.01 tl8, tl25, x24
tl.xpose.02 tl11, tl6, x25
tl.xpose.03 tl14, tl19, x26
tl.xpose.12 tl17, tl0, x27
tl.xpose.13 tl20, tl13, x28
tl.xpose.23 tl23, tl26, x29
tl.xpose.01 tl26, tl7, x30
tl.xpose.02 tl29, tl20, x31
tl.xpose.03 tl0, tl1, zero
tl.xpose.12 tl3, tl14, ra
tl.xpose.13 tl6, tl27, sp
tl.xpose.23 tl9, tl8, gp
tl.xpose.01 tl12, tl21, tp
tl.xpose.02 tl15, tl2, t0
tl.xpose.03 tl18, tl15, t1
tl.xpose.12 tl21, tl28, t2
tl.xpose.13 tl24, tl9, s0
tl.xpose.23 tl27, tl22, s1
tl.xpose.01 tl30, tl3, a0
tl.xpose.02 tl1, tl16, a1
tl.xpose.03 tl4, tl29, a2
tl.xpose.12 tl7, tl10, a3
tl.xpose.13 tl10, tl23, a4
tl.xpose.23 tl13, tl4, a5
tl.xpose.01 tl16, tl17, a6
tl.xpose.02 tl19, tl30, a7
tl.xpose.03 tl22, tl11, s2
tl.xpose.12 tl25, tl24, s3
tl.xpose.13 tl28, tl5, s4
tl.xpose.23 tl31, tl18, s5
tl.xpose.01 tl2, tl31, s6
tl.xpose.02 tl5, tl12, s7
tl.xpose.03 tl8, tl25, s8
tl.xpose.12 tl11, tl6, s9
tl.xpose.13 tl14, tl19, s10
tl.xpose.23 tl17, tl0, s11
tl.xpose.01 tl20, tl13, t3
tl.xpose.02 tl23, tl26, t4
tl.xpose.03 tl26, tl7, t5
tl.xpose.12 tl29, tl20, t6
tl.xpose.13 tl0, tl1, fp
tl.xpose.01 tl31, tl0, x31
tl.xpose.01 tl0, tl31, zero
tl.xpose.02 tl31, tl0, x31
tl.xpose.02 tl0, tl31, zero
tl.xpose.03 tl31, tl0, x31
tl.xpose.03 tl0, tl31, zero
tl.xpose.12 tl31, tl0, x31
tl.xpose.12 tl0, tl31, zero
tl.xpose.13 tl31, tl0, x31
tl.xpose.13 tl0, tl31, zero
tl.xpose.23 tl31, tl0, x31
tl.xpose.23 tl0, tl31, zero
/* muls: every GPR spelling */
tl.muls tl4, tl2, x0
tl.muls tl13, tl7, x1
tl.muls tl22, tl12, x2
tl.muls tl31, tl17, x3
tl.muls tl8, tl22, x4
tl.muls tl17, tl27, x5
tl.muls tl26, tl0, x6
tl.muls tl3, tl5, x7
tl.muls tl12, tl10, x8
tl.muls tl21, tl15, x9
tl.muls tl30, tl20, x10
tl.muls tl7, tl25, x11
tl.muls tl16, tl30, x12
tl.muls tl25, tl3, x13
tl.muls tl2, tl8, x14
tl.muls tl11, tl13, x15
tl.muls tl20, tl18, x16
tl.muls tl29, tl23, x17
tl.muls tl6, tl28, x18
tl.muls tl15, tl1, x19
tl.muls tl24, tl6, x20
tl.muls tl1, tl11, x21
tl.muls tl10, tl16, x22
tl.muls tl19, tl21, x23
tl.muls tl28, tl26, x24
tl.muls tl5, tl31, x25
tl.muls tl14, tl4, x26
tl.muls tl23, tl9, x27
tl.muls tl0, tl14, x28
tl.muls tl9, tl19, x29
tl.muls tl18, tl24, x30
tl.muls tl27, tl29, x31
tl.muls tl4, tl2, zero
tl.muls tl13, tl7, ra
tl.muls tl22, tl12, sp
tl.muls tl31, tl17, gp
tl.muls tl8, tl22, tp
tl.muls tl17, tl27, t0
tl.muls tl26, tl0, t1
tl.muls tl3, tl5, t2
tl.muls tl12, tl10, s0
tl.muls tl21, tl15, s1
tl.muls tl30, tl20, a0
tl.muls tl7, tl25, a1
tl.muls tl16, tl30, a2
tl.muls tl25, tl3, a3
tl.muls tl2, tl8, a4
tl.muls tl11, tl13, a5
tl.muls tl20, tl18, a6
tl.muls tl29, tl23, a7
tl.muls tl6, tl28, s2
tl.muls tl15, tl1, s3
tl.muls tl24, tl6, s4
tl.muls tl1, tl11, s5
tl.muls tl10, tl16, s6
tl.muls tl19, tl21, s7
tl.muls tl28, tl26, s8
tl.muls tl5, tl31, s9
tl.muls tl14, tl4, s10
tl.muls tl23, tl9, s11
tl.muls tl0, tl14, t3
tl.muls tl9, tl19, t4
tl.muls tl18, tl24, t5
tl.muls tl27, tl29, t6
tl.muls tl4, tl2, fp
/* fillpad */
tl.fillpad.zero tl0, tl0
tl.fillpad.zero tl31, tl31
tl.fillpad.zero tl1, tl2
tl.fillpad.zero tl30, tl5
tl.fillpad.zero tl0, tl31
tl.fillpad.zero tl17, tl0
tl.fillpad.min tl0, tl0
tl.fillpad.min tl31, tl31
tl.fillpad.min tl1, tl2
tl.fillpad.min tl30, tl5
tl.fillpad.min tl0, tl31
tl.fillpad.min tl17, tl0
tl.fillpad.max tl0, tl0
tl.fillpad.max tl31, tl31
tl.fillpad.max tl1, tl2
tl.fillpad.max tl30, tl5
tl.fillpad.max tl0, tl31
tl.fillpad.max tl17, tl0
/* EngineID overrides: keyword eng=N and positional */
tl.load tl1, -3(a2), eng=0
tl.load tl1, -3(a2), eng=1
tl.load tl1, -3(a2), eng=2
tl.load tl1, -3(a2), eng=3
tl.load tl1, -3(a2), 1
tl.mload tl2, 0x10(s0), eng=0
tl.mload tl2, 0x10(s0), eng=1
tl.mload tl2, 0x10(s0), eng=2
tl.mload tl2, 0x10(s0), eng=3
tl.mload tl2, 0x10(s0), 2
tl.store tl3, 7(t1), eng=0
tl.store tl3, 7(t1), eng=1
tl.store tl3, 7(t1), eng=2
tl.store tl3, 7(t1), eng=3
tl.store tl3, 7(t1), 3
tl.mstore tl4, -128(x31), eng=0
tl.mstore tl4, -128(x31), eng=1
tl.mstore tl4, -128(x31), eng=2
tl.mstore tl4, -128(x31), eng=3
tl.mstore tl4, -128(x31), 0
tl.concat.0 tl5, tl6, tl7, eng=0
tl.concat.0 tl5, tl6, tl7, eng=1
tl.concat.0 tl5, tl6, tl7, eng=2
tl.concat.0 tl5, tl6, tl7, eng=3
tl.concat.0 tl5, tl6, tl7, 1
tl.concat.1 tl5, tl6, tl7, eng=0
tl.concat.1 tl5, tl6, tl7, eng=1
tl.concat.1 tl5, tl6, tl7, eng=2
tl.concat.1 tl5, tl6, tl7, eng=3
tl.concat.1 tl5, tl6, tl7, 2
tl.concat.2 tl5, tl6, tl7, eng=0
tl.concat.2 tl5, tl6, tl7, eng=1
tl.concat.2 tl5, tl6, tl7, eng=2
tl.concat.2 tl5, tl6, tl7, eng=3
tl.concat.2 tl5, tl6, tl7, 3
tl.merge.0 tl8, tl9, tl10, eng=0
tl.merge.0 tl8, tl9, tl10, eng=1
tl.merge.0 tl8, tl9, tl10, eng=2
tl.merge.0 tl8, tl9, tl10, eng=3
tl.merge.0 tl8, tl9, tl10, 0
tl.merge.1 tl8, tl9, tl10, eng=0
tl.merge.1 tl8, tl9, tl10, eng=1
tl.merge.1 tl8, tl9, tl10, eng=2
tl.merge.1 tl8, tl9, tl10, eng=3
tl.merge.1 tl8, tl9, tl10, 1
tl.merge.2 tl8, tl9, tl10, eng=0
tl.merge.2 tl8, tl9, tl10, eng=1
tl.merge.2 tl8, tl9, tl10, eng=2
tl.merge.2 tl8, tl9, tl10, eng=3
tl.merge.2 tl8, tl9, tl10, 2
tl.addi tl11, tl12, -7, eng=0
tl.addi tl11, tl12, -7, eng=1
tl.addi tl11, tl12, -7, eng=2
tl.addi tl11, tl12, -7, eng=3
tl.addi tl11, tl12, -7, 3
tl.muls tl13, tl14, a5, eng=0
tl.muls tl13, tl14, a5, eng=1
tl.muls tl13, tl14, a5, eng=2
tl.muls tl13, tl14, a5, eng=3
tl.muls tl13, tl14, a5, 0
tl.xpose.01 tl15, tl16, t3, eng=0
tl.xpose.01 tl15, tl16, t3, eng=1
tl.xpose.01 tl15, tl16, t3, eng=2
tl.xpose.01 tl15, tl16, t3, eng=3
tl.xpose.01 tl15, tl16, t3, 1
tl.xpose.02 tl15, tl16, t3, eng=0
tl.xpose.02 tl15, tl16, t3, eng=1
tl.xpose.02 tl15, tl16, t3, eng=2
tl.xpose.02 tl15, tl16, t3, eng=3
tl.xpose.02 tl15, tl16, t3, 2
tl.xpose.03 tl15, tl16, t3, eng=0
tl.xpose.03 tl15, tl16, t3, eng=1
tl.xpose.03 tl15, tl16, t3, eng=2
tl.xpose.03 tl15, tl16, t3, eng=3
tl.xpose.03 tl15, tl16, t3, 3
tl.xpose.12 tl15, tl16, t3, eng=0
tl.xpose.12 tl15, tl16, t3, eng=1
tl.xpose.12 tl15, tl16, t3, eng=2
tl.xpose.12 tl15, tl16, t3, eng=3
tl.xpose.12 tl15, tl16, t3, 0
tl.xpose.13 tl15, tl16, t3, eng=0
tl.xpose.13 tl15, tl16, t3, eng=1
tl.xpose.13 tl15, tl16, t3, eng=2
tl.xpose.13 tl15, tl16, t3, eng=3
tl.xpose.13 tl15, tl16, t3, 1
tl.xpose.23 tl15, tl16, t3, eng=0
tl.xpose.23 tl15, tl16, t3, eng=1
tl.xpose.23 tl15, tl16, t3, eng=2
tl.xpose.23 tl15, tl16, t3, eng=3
tl.xpose.23 tl15, tl16, t3, 2
tl.fillpad.zero tl17, tl18, eng=0
tl.fillpad.zero tl17, tl18, eng=1
tl.fillpad.zero tl17, tl18, eng=2
tl.fillpad.zero tl17, tl18, eng=3
tl.fillpad.zero tl17, tl18, 3
tl.fillpad.min tl17, tl18, eng=0
tl.fillpad.min tl17, tl18, eng=1
tl.fillpad.min tl17, tl18, eng=2
tl.fillpad.min tl17, tl18, eng=3
tl.fillpad.min tl17, tl18, 0
tl.fillpad.max tl17, tl18, eng=0
tl.fillpad.max tl17, tl18, eng=1
tl.fillpad.max tl17, tl18, eng=2
tl.fillpad.max tl17, tl18, eng=3
tl.fillpad.max tl17, tl18, 1
/* spacing variants */
tl.load tl1,0(a0)
tl.load	tl2 ,	-8( t0 )
tl.store   tl3 , 127 ( s1 ), eng=3
tl.addi tl1,tl2,-5
tl.muls  tl1 ,  tl2 ,  a1
tl.xpose.23 tl1,tl2,a0,eng=0
tl.fillpad.min	tl9,	tl10
tl.load tl4, (a3)
