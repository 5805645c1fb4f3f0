/*
 * riscv64 backend of the TL tile API (include/tl/tile.hpp): every operation
 * becomes CSR writes (csrw) and one TL instruction word emitted with `.insn`
 * through the macros of tl_insn.h.  Only included by tile.hpp.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TILE_BACKEND_RISCV_HPP
#define TL_TILE_BACKEND_RISCV_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tl_insn.h"
#include "tl_linux.h"

namespace tl {
namespace backend {

inline const char *name() { return "riscv64"; }

/*
 * Asked once, when the program starts: on a CPU without xtl the program
 * stops with a message naming the fix instead of dying of SIGILL at its
 * first TL instruction.  A kernel that cannot tell (no TL support in
 * riscv_hwprobe) is trusted.
 */
inline bool require_xtl()
{
    if (tl_xtl_available() == 0) {
        std::fputs("this CPU has no xtl: run with -cpu rv64,xtl=on\n", stderr);
        std::exit(1);
    }
    return true;
}
inline const bool xtl_checked = require_xtl();

/* csrw CSR, value.  Csr is the CSR address (0x800 ... 0x807). */
template <unsigned Csr>
inline void csr_write(uint32_t value)
{
    __asm__ volatile("csrw %0, %1" : : "i"(Csr), "r"((unsigned long)value) : "memory");
}

/*
 * csrw CSR, Value for a value known when compiling.  The constant is put in
 * a register right before the write (or the write is a csrwi), so a tool that
 * sees one translation block at a time (tlstat) knows the value written
 * without reading the CSR back.
 */
template <unsigned Csr, uint32_t Value>
inline void csr_write_const()
{
    if constexpr (Value < 32) {
        __asm__ volatile("csrwi %0, %1" : : "i"(Csr), "i"(Value) : "memory");
    } else {
        unsigned long scratch;
        __asm__ volatile("li %0, %2\n\tcsrw %1, %0"
                         : "=&r"(scratch)
                         : "i"(Csr), "i"((unsigned long)Value)
                         : "memory");
    }
}

template <unsigned Csr>
inline uint32_t csr_read()
{
    unsigned long v;
    __asm__ volatile("csrr %0, %1" : "=r"(v) : "i"(Csr) : "memory");
    return (uint32_t)v;
}

template <unsigned Reg, bool Masked>
inline void load(const void *base)
{
    if (Masked) {
        tl_mload(Reg, 0, base);
    } else {
        tl_load(Reg, 0, base);
    }
}

template <unsigned Reg, bool Masked>
inline void store(void *base)
{
    if (Masked) {
        tl_mstore(Reg, 0, base);
    } else {
        tl_store(Reg, 0, base);
    }
}

template <unsigned Dim, unsigned Rd, unsigned Rs1, unsigned Rs2>
inline void concat() { tl_concat(Dim, Rd, Rs1, Rs2); }

template <unsigned Dim, unsigned Rd, unsigned Rs1, unsigned Rs2>
inline void merge() { tl_merge(Dim, Rd, Rs1, Rs2); }

template <unsigned A, unsigned B, unsigned R1, unsigned R2>
inline void xpose(uint32_t dims) { tl_xpose(A, B, R1, R2, dims); }

/* The three words in a row, which TL-QEMU runs in one pass (tl_insn.h). */
template <unsigned A, unsigned B, unsigned R1, unsigned R2>
inline void load_load_xpose(const void *p1, const void *p2, uint32_t dims)
{
    tl_load_load_xpose(A, B, R1, R2, p1, p2, dims);
}

template <unsigned A, unsigned B, unsigned R1, unsigned R2>
inline void load_load_xpose_store_store(const void *p1, const void *p2, uint32_t dims, void *out1,
                                        void *out2)
{
    tl_load_load_xpose_store_store(A, B, R1, R2, p1, p2, dims, out1, out2);
}

template <unsigned Rd, unsigned Rs, int Imm>
inline void addi() { tl_addi(Rd, Rs, Imm); }

template <unsigned Rd, unsigned Rs>
inline void muls(uint64_t scalar) { tl_muls(Rd, Rs, scalar); }

template <unsigned Pad, unsigned Rd, unsigned Rs>
inline void fillpad() { tl_fillpad(Pad, Rd, Rs); }

} // namespace backend
} // namespace tl

#endif /* TL_TILE_BACKEND_RISCV_HPP */
