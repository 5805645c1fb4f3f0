/*
 * Disassembly of TensorLoad (xtl) instruction words, for QEMU's RISC-V
 * disassembler (-d in_asm, the monitor, gdb).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef XTL_DISAS_H
#define XTL_DISAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Writes "mnemonic<pad to column tab>operands" for a legal TL instruction
 * word and returns true; returns false for any other word (not CUSTOM-2, or
 * a reserved encoding).
 */
bool xtl_disassemble(uint32_t insn, char *buf, size_t size, size_t tab);

#endif /* XTL_DISAS_H */
