/*
 * Host backend of the TL tile API (include/tl/tile.hpp): the TL state of one
 * simulated hart lives in a thread_local tl_state, and every operation calls
 * the QEMU-independent semantic core (target-riscv-tl/core/tl_core.h), the
 * same code QEMU executes.  Memory is the host's: a GlobalTensor pointer is
 * passed to the core as an address and accessed with memcpy.  Link with
 * tl_core (meson: tl_core_dep).  Only included by tile.hpp.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_TILE_BACKEND_HOST_HPP
#define TL_TILE_BACKEND_HOST_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tl_core.h"

namespace tl {
namespace backend {

inline const char *name() { return "host"; }

namespace detail {

struct HostHart {
    tl_state state;
    HostHart() { tl_state_reset(&state); }
};

/* The host's own memory through the core's batched memory interface: every range is accessible. */
inline bool mem_probe(void *, const tl_mem_range *, unsigned, bool, uint64_t *) { return true; }
inline void mem_read(void *, const tl_mem_range *ranges, unsigned count, uint8_t *reg)
{
    for (unsigned k = 0; k < count; ++k) {
        std::memcpy(reg + ranges[k].reg, reinterpret_cast<const void *>(static_cast<uintptr_t>(ranges[k].addr)),
                    ranges[k].len);
    }
}
inline void mem_write(void *, const tl_mem_range *ranges, unsigned count, const uint8_t *reg)
{
    for (unsigned k = 0; k < count; ++k) {
        std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(ranges[k].addr)), reg + ranges[k].reg,
                    ranges[k].len);
    }
}

inline const tl_mem_batch_if *host_memory()
{
    static const tl_mem_batch_if mem = {nullptr, mem_probe, mem_read, mem_write};
    return &mem;
}

/* What the riscv64 backend gets as SIGILL: a message and abort(). */
[[noreturn]] inline void trap(const char *insn, tl_status st)
{
    std::fprintf(stderr, "tl host backend: %s raised illegal-instruction: %s\n", insn,
                 tl_status_message(st));
    std::fflush(stderr);
    std::abort();
}

inline void check(const char *insn, tl_status st)
{
    if (st != TL_OK) {
        trap(insn, st);
    }
}

} // namespace detail

/*
 * The simulated hart of the calling thread.  Exposed for debugging kernels on
 * the host (e.g. printing a register in a debugger); portable code uses
 * tl::read_register / tl::write_register instead.
 */
inline tl_state &state()
{
    static thread_local detail::HostHart hart;
    return hart.state;
}

template <unsigned Csr>
inline void csr_write(uint32_t value)
{
    static_assert(Csr >= TL_CSR_ADDR_BASE && Csr < TL_CSR_ADDR_BASE + TL_CSR_COUNT, "not a TL CSR");
    tl_csr_write(&state(), Csr - TL_CSR_ADDR_BASE, value);
}

template <unsigned Csr, uint32_t Value>
inline void csr_write_const()
{
    csr_write<Csr>(Value);
}

template <unsigned Csr>
inline uint32_t csr_read()
{
    static_assert(Csr >= TL_CSR_ADDR_BASE && Csr < TL_CSR_ADDR_BASE + TL_CSR_COUNT, "not a TL CSR");
    return tl_csr_read(&state(), Csr - TL_CSR_ADDR_BASE);
}

template <unsigned Reg, bool Masked>
inline void load(const void *base)
{
    uint64_t fault = 0;
    detail::check(Masked ? "tl.mload" : "tl.load",
                  tl_exec_load_batch(&state(), Reg, Masked, 0, reinterpret_cast<uintptr_t>(base),
                               UINT64_MAX, detail::host_memory(), &fault));
}

template <unsigned Reg, bool Masked>
inline void store(void *base)
{
    uint64_t fault = 0;
    detail::check(Masked ? "tl.mstore" : "tl.store",
                  tl_exec_store_batch(&state(), Reg, Masked, 0, reinterpret_cast<uintptr_t>(base),
                                UINT64_MAX, detail::host_memory(), &fault));
}

template <unsigned Dim, unsigned Rd, unsigned Rs1, unsigned Rs2>
inline void concat() { detail::check("tl.concat", tl_exec_concat(&state(), Dim, Rd, Rs1, Rs2)); }

template <unsigned Dim, unsigned Rd, unsigned Rs1, unsigned Rs2>
inline void merge() { detail::check("tl.merge", tl_exec_merge(&state(), Dim, Rd, Rs1, Rs2)); }

template <unsigned A, unsigned B, unsigned R1, unsigned R2>
inline void xpose(uint32_t dims)
{
    detail::check("tl.xpose", tl_exec_xpose(&state(), A, B, R1, R2, dims));
}

/* tl.load R1 from p1, tl.load R2 from p2 (the CSRs' plans), then tl.xpose.AB R1, R2. */
template <unsigned A, unsigned B, unsigned R1, unsigned R2>
inline void load_load_xpose(const void *p1, const void *p2, uint32_t dims)
{
    load<R1, false>(p1);
    load<R2, false>(p2);
    xpose<A, B, R1, R2>(dims);
}

/* load_load_xpose, then tl.store R1 to out1 and tl.store R2 to out2. */
template <unsigned A, unsigned B, unsigned R1, unsigned R2>
inline void load_load_xpose_store_store(const void *p1, const void *p2, uint32_t dims, void *out1,
                                        void *out2)
{
    load_load_xpose<A, B, R1, R2>(p1, p2, dims);
    store<R1, false>(out1);
    store<R2, false>(out2);
}

template <unsigned Rd, unsigned Rs, int Imm>
inline void addi() { detail::check("tl.addi", tl_exec_addi(&state(), Rd, Rs, Imm)); }

template <unsigned Rd, unsigned Rs>
inline void muls(uint64_t scalar) { detail::check("tl.muls", tl_exec_muls(&state(), Rd, Rs, scalar)); }

template <unsigned Pad, unsigned Rd, unsigned Rs>
inline void fillpad()
{
    detail::check("tl.fillpad", tl_exec_fillpad(&state(), static_cast<tl_pad_kind>(Pad), Rd, Rs));
}

} // namespace backend
} // namespace tl

#endif /* TL_TILE_BACKEND_HOST_HPP */
