/*
 * Tiny M-mode runtime for the bare-metal TL firmware tests (virt machine).
 *
 * Output: printf() to the ns16550 UART at 0x10000000; check() prints one
 * "ok - ..." / "not ok - ..." line per check (run.sh numbers them); main()
 * returns and rt_main() prints a summary and ends QEMU through the
 * "sifive,test" finisher at 0x100000 (0x5555 pass, (failed << 16) | 0x3333 fail).
 *
 * Traps: every trap is recorded (mtraps for traps taken in M, straps for
 * traps delegated to S).  Unless a fixup hook handles it, a trap of the one
 * instruction run by exec_word() (the trampoline) is skipped; any other trap
 * is unexpected: it abandons lower-mode code (run_in returns RT_ABORTED|cause)
 * or, in M-mode (and S-mode handlers), ends the run as a failure.
 *
 * Modes: run_in(MODE_S / MODE_U / MODE_VS / MODE_VU, fn, arg) runs fn(arg) in
 * that mode (mret with MPP/MPV) and returns its value (or RT_ABORTED | cause).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_FW_RT_H
#define TL_FW_RT_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "baremetal/virt.h"
#include "tl/tl_insn.h"

#define UART0_BASE    VIRT_UART0
#define RAM_BASE      0x80000000UL
#define RAM_SIZE      (128UL << 20)     /* run.sh passes -m 128M */

/* ---- CSR access by number ---- */
#define STR2(x) #x
#define STR(x) STR2(x)
#define csr_read(csr) __extension__({ unsigned long v__; \
    __asm__ volatile("csrr %0, " STR(csr) : "=r"(v__) : : "memory"); v__; })
#define csr_write(csr, v) __asm__ volatile("csrw " STR(csr) ", %0" : : "r"((unsigned long)(v)) : "memory")
#define csr_set(csr, v) __asm__ volatile("csrs " STR(csr) ", %0" : : "r"((unsigned long)(v)) : "memory")
#define csr_clear(csr, v) __asm__ volatile("csrc " STR(csr) ", %0" : : "r"((unsigned long)(v)) : "memory")

#define CSR_MSTATUS   0x300
#define CSR_MEDELEG   0x302
#define CSR_MIDELEG   0x303
#define CSR_MSTATEEN0 0x30C
#define CSR_SSTATEEN0 0x10C
#define CSR_HSTATEEN0 0x60C
#define CSR_STVEC     0x105
#define CSR_SSCRATCH  0x140
#define CSR_SATP      0x180
#define CSR_PMPCFG0   0x3A0
#define CSR_PMPADDR0  0x3B0
#define CSR_PMPADDR1  0x3B1
#define CSR_PMPADDR2  0x3B2
#define CSR_PMPADDR3  0x3B3
#define CSR_PMPADDR4  0x3B4
#define CSR_PMPADDR5  0x3B5
#define CSR_PMPADDR6  0x3B6
#define CSR_PMPADDR7  0x3B7
#define CSR_HGATP     0x680
#define CSR_VSATP     0x280
#define CSR_MTVAL2    0x34B
#define CSR_MTINST    0x34A

#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPRV  (1UL << 17)
#define MSTATUS_SUM   (1UL << 18)
#define MSTATUS_MPV   (1UL << 39)

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3

/* mstatus bits that select the mode run_in() enters */
#define MODE_U  (0UL << MSTATUS_MPP_SHIFT)
#define MODE_S  (1UL << MSTATUS_MPP_SHIFT)
#define MODE_VU (MODE_U | MSTATUS_MPV)
#define MODE_VS (MODE_S | MSTATUS_MPV)

/* exception causes */
#define CAUSE_ILLEGAL      2
#define CAUSE_LOAD_ACCESS  5
#define CAUSE_STORE_ACCESS 7
#define CAUSE_ECALL_U      8
#define CAUSE_ECALL_S      9
#define CAUSE_ECALL_VS     10
#define CAUSE_LOAD_PAGE    13
#define CAUSE_STORE_PAGE   15
#define CAUSE_VIRTUAL_INSN 22

/* ---- output and results ---- */
void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));   /* "# ..." line */
extern int checks_run, checks_failed;
void finish(int failed) __attribute__((noreturn));

/* ---- traps ---- */
struct frame {
    uint64_t x[32];
    uint64_t epc, cause, tval, status;
};

struct trap_log {
    volatile uint64_t count;
    volatile uint64_t cause, tval, epc;
    volatile uint64_t priv;     /* mode the trap came from (MPP / SPP) */
    volatile uint64_t virt;     /* MPV: came from VS/VU */
};
extern struct trap_log mtraps, straps;

/* Hooks: return 1 if the trap was handled (frame->epc etc. set by the hook). */
typedef int (*trap_hook)(struct frame *f);
extern trap_hook m_fixup, s_fixup;

static inline void traps_reset(void)
{
    mtraps.count = 0; mtraps.cause = mtraps.tval = mtraps.epc = ~0UL;
    straps.count = 0; straps.cause = straps.tval = straps.epc = ~0UL;
}

#define RT_ABORTED 0x7AB0000L
long run_lower(unsigned long mstatus_set, long (*fn)(long), long arg);
static inline long run_in(unsigned long mode, long (*fn)(long), long arg)
{
    return run_lower(mode, fn, arg);
}
const char *mode_name(unsigned long mode);
/* PRV_M / PRV_S / PRV_U, found by which status CSR can be read (VS counts as S). */
long current_priv(long unused);

/* ---- arbitrary instruction words (a trampoline in RAM) ---- */
/* Runs WORD with t0 = T0, t1 = T1 (the GPRs of tl_insn.h's macros). */
void exec_word(uint32_t word, uint64_t t0, uint64_t t1);

/*
 * Runs WORD and reports whether exactly one trap with CAUSE and TVAL was taken
 * (in M, or in S when s_side).  On mismatch prints a "# got ..." line.
 */
int expect_trap(uint32_t word, uint64_t t0, uint64_t t1, uint64_t cause, uint64_t tval);
int expect_no_trap(uint32_t word, uint64_t t0, uint64_t t1);
extern int expect_in_s;         /* expect_trap looks at straps instead of mtraps */

/* ---- TL helpers ---- */
#define W_LOAD(tlr, imm, gpr)   TL_ENC_MEM(TL_ENG_LOAD, 0, 0, tlr, imm, gpr)
#define W_MLOAD(tlr, imm, gpr)  TL_ENC_MEM(TL_ENG_LOAD, 0, 1, tlr, imm, gpr)
#define W_STORE(tlr, imm, gpr)  TL_ENC_MEM(TL_ENG_STORE, 1, 0, tlr, imm, gpr)
#define W_MSTORE(tlr, imm, gpr) TL_ENC_MEM(TL_ENG_STORE, 1, 1, tlr, imm, gpr)
#define GPR_T0 5
#define GPR_T1 6

/* Sets ttype, tshape, width and stride (all initialized). */
void tl_setup(unsigned ttype, unsigned d0, unsigned d1, unsigned d2, uint32_t w, int32_t p);
/* Whole-register transfer: ttype int8, [4,2,128], W = P = 256; CSRs left that way. */
int tl_dump(int tlr, uint8_t out[1024]);
int tl_fill(int tlr, const uint8_t in[1024]);
/* Fill with one byte value. */
int tl_fill_byte(int tlr, uint8_t v);

/* Compare and report the first difference as a "# " line; returns 1 if equal. */
int mem_equal(const char *what, const uint8_t *got, const uint8_t *want, size_t n);

/* ---- PMP ---- */
#define PMP_R 0x01
#define PMP_W 0x02
#define PMP_X 0x04
#define PMP_TOR 0x08
#define PMP_NA4 0x10
#define PMP_NAPOT 0x18
#define PMP_L 0x80
/* Entry 7 = whole address space RWX for S/U; entries 0-6 off. */
void pmp_allow_all(void);
void pmp_set(int idx, uint64_t addr_field, uint8_t cfg);
static inline uint64_t pmp_napot(uint64_t base, uint64_t size)
{
    return (base + size / 2 - 1) >> 2;
}

/* ---- Sv39 ---- */
#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_U 0x10
#define PTE_G 0x20
#define PTE_A 0x40
#define PTE_D 0x80
/*
 * vm_init(): root table with identity gigapages for 0x00000000-0x3fffffff
 * (devices) and 0x80000000-0xbfffffff (RAM), RWX (no U), A and D set.
 * vm_map(va, pa, flags): 4 KiB mapping (tables allocated as needed, only for
 * VAs outside those two gigapages).  vm_unmap(va).  vm_satp(): satp value.
 */
void vm_init(void);
void vm_map(uint64_t va, uint64_t pa, uint64_t flags);
void vm_unmap(uint64_t va);
uint64_t vm_satp(void);
static inline void sfence_vma(void) { __asm__ volatile("sfence.vma" : : : "memory"); }

int main(void);

#endif
