/*
 * TensorLoad (xtl) semantic core: the behaviour of every TL instruction,
 * independent of QEMU.  C ABI so that QEMU's C helpers, the host backend of
 * the tile API and the unit tests all call the same code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_CORE_H
#define TL_CORE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * CSR numbers, writable bits and reset values: the generated encoding table,
 * TL-QEMU's include/tl/xtl-opc.h (found through the include path: in QEMU's
 * tree include/tl is a link to it; a relative path through the link to this
 * directory would name a file that does not exist to ninja).
 */
#include "tl/xtl-opc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TL_NUM_REGS = 32,
    TL_REG_BYTES = 1024,
    TL_XPOSE_BYTES = 2 * TL_REG_BYTES,
    TL_MAX_MASKED_DIM = 32, /* masks are 32 bits wide */
};

/* CSR numbers are TL_CSR_ADDR_BASE + index. */
#define TL_CSR_ADDR_BASE XTL_CSR_TTYPE
typedef enum tl_csr_index {
    TL_CSR_TTYPE = 0,
    TL_CSR_TSHAPE = 1,
    TL_CSR_TMASK_LS = 2,
    TL_CSR_TMASK_CONCAT_1 = 3,
    TL_CSR_TMASK_CONCAT_2 = 4,
    TL_CSR_TMASK_LOAD_STRIDE = 5,
    TL_CSR_TMASK_LOAD_WIDTH = 6,
    TL_CSR_TVALID = 7,
    TL_CSR_COUNT = 8,      /* CSRs 0x800..0x807: a value and an initialized flag each */
    TL_CSR_TINIT = 8,      /* 0x808: the initialized flags of 0x800..0x807 */
    TL_CSR_ADDR_COUNT = 9, /* CSR numbers 0x800..0x808 */
} tl_csr_index;

#define TL_TTYPE_RESET XTL_CSR_TTYPE_RESET
/* tinit: bit 0 (ttype) always reads 1; bits 7:1 are the flags of 0x801..0x807. */
#define TL_TINIT_RESET XTL_CSR_TINIT_RESET
#define TL_TINIT_WRITABLE XTL_CSR_TINIT_WMASK

/*
 * What the TL CSRs make of a load or store (tl.load/tl.store unmasked,
 * tl.mload/tl.mstore masked): computed once per CSR change, not per
 * instruction.  Only meaningful when status is TL_OK.
 */
typedef struct tl_mem_plan {
    int32_t status;          /* TL_OK, or why the instruction is illegal (a tl_status) */
    uint32_t width;          /* W: bytes moved per slice */
    int64_t pitch;           /* P: bytes from one slice to the next in memory */
    uint32_t selected;       /* bit i: slice i is accessed */
    uint32_t slice_bytes;    /* S */
    uint32_t block_bytes;    /* D0 * S */
    uint64_t span;           /* ordered: bytes from slice 0 to the end of the last selected one (0: none) */
    uint8_t contiguous;      /* all slices, P = W = S: one block_bytes range, memory and register */
    uint8_t ordered;         /* P >= W: slices in increasing addresses, never overlapping */
    uint8_t whole_reg;       /* contiguous, block_bytes = TL_REG_BYTES: a whole register, one copy */
    uint8_t direct;          /* TL_OK, ordered, span > 0: what tl_load_from_host / tl_store_to_host take */
    /*
     * Direct plans of whole rows, slices 0 .. R-1 with W = S a multiple of
     * 32 bytes (tiles read from or written to a wider matrix):
     * TL_DENSE_ROWS_KEY(R, W); else 0.  Translated code specialized for one
     * such shape compares this word alone.
     */
    uint32_t dense_rows;
} tl_mem_plan;
#define TL_DENSE_ROWS_KEY(rows, width) ((uint32_t)(rows) << 16 | (uint32_t)(width))

/*
 * Plans recently computed, by the CSR values they were computed from: a
 * program alternating between a few CSR settings (a load with the source's
 * row pitch, a store with the destination's) finds its plans here instead
 * of computing them again after every CSR write.
 */
enum { TL_MEM_PLAN_KEY_WORDS = 3, TL_MEM_PLAN_CACHE_SIZE = 4 };
typedef struct tl_mem_plan_entry {
    uint64_t key[TL_MEM_PLAN_KEY_WORDS];
    tl_mem_plan plan;
} tl_mem_plan_entry;

/*
 * The interleave tl_exec_load_pair_xpose_store last did in one pass: the
 * xpose's dims and dim0 | dim1 << 2, and the run of bytes it interleaves.
 * It holds while mem_plan_valid has TL_INTERLEAVE_MEMO_VALID, which every
 * write to a CSR of the plans (ttype, which gives the element size, among
 * them) clears with the plans, so that a program repeating the five
 * instructions finds the xpose checked (tl_exec_interleave_store_memo).
 */
typedef void tl_interleave_pass_fn(uint8_t *lo_reg, uint8_t *hi_reg, const uint8_t *a,
                                   const uint8_t *b, uint8_t *mem_lo, uint8_t *mem_hi);
typedef struct tl_interleave_memo {
    uint64_t dims;
    uint32_t dim01;
    uint32_t run;
    /*
     * The pass for run: the two loads from a and b, the xpose into the two
     * registers and the two stores (tl_exec_interleave_store_memo's copy).
     */
    tl_interleave_pass_fn *pass;
} tl_interleave_memo;
#define TL_INTERLEAVE_MEMO_VALID 4u

/*
 * TL state of one hart: the architectural state (registers, CSRs and their
 * initialized flags), copied and migrated as is, and caches derived from
 * the CSRs: the current plans and the interleave memo, which every CSR
 * change invalidates (mem_plan_valid = 0), and the plans of recent CSR
 * values (plan_cache, plan_cache_used entries), which never go stale.
 */
typedef struct tl_state {
    /*
     * reg[0] is kept all-zero.  Cache-line aligned: the copies of the
     * memory instructions move whole 64-byte vectors, and a vector store
     * that straddles two lines costs about twice one that does not.
     */
    uint8_t reg[TL_NUM_REGS][TL_REG_BYTES] __attribute__((aligned(64)));
    uint32_t csr[TL_CSR_COUNT];
    uint32_t csr_initialized;               /* bit i: csr[i] written since reset */
    uint32_t mem_plan_valid;                /* bit m: mem_plan[m] is current; TL_INTERLEAVE_MEMO_VALID */
    tl_mem_plan mem_plan[2];                /* [masked] */
    uint32_t plan_cache_used;
    uint32_t plan_cache_next;               /* the entry to replace when all are used */
    tl_mem_plan_entry plan_cache[TL_MEM_PLAN_CACHE_SIZE];
    tl_interleave_memo interleave_memo;
} tl_state;

/* Reasons an instruction does not complete.  TL_OK is success. */
typedef enum tl_status {
    TL_OK = 0,
    TL_ERR_TTYPE,              /* ttype has no single valid element-type field */
    TL_ERR_UNINIT_TSHAPE,      /* the instruction needs a CSR never written since reset */
    TL_ERR_UNINIT_TMASK_LS,
    TL_ERR_UNINIT_TMASK_CONCAT_1,
    TL_ERR_UNINIT_TMASK_CONCAT_2,
    TL_ERR_UNINIT_TVALID,
    TL_ERR_SHAPE,              /* a D is 0, block > 1024 bytes or slice not whole bytes */
    TL_ERR_D0_TOO_BIG,         /* load/store with D0 > 32 */
    TL_ERR_WIDTH,              /* W == 0 or W > slice bytes */
    TL_ERR_CONCAT_DIM_TOO_BIG, /* concat/merge along a dim larger than 32 */
    TL_ERR_CONCAT_OVERFLOW,    /* concat selects more slices than the dim holds */
    TL_ERR_XPOSE_SHAPE,        /* a D is 0 or the tensor is not 2048 bytes */
    TL_ERR_XPOSE_ODD_D0,
    TL_ERR_XPOSE_SAME_REG,     /* tlrs1 == tlrs2 */
    TL_ERR_VALID_RANGE,        /* fillpad tvalid V_i > D_i */
    TL_FAULT,                  /* memory fault; the address is reported separately */
    TL_STATUS_COUNT
} tl_status;

/* Human-readable reason for a status, for -d guest_errors.  Never NULL. */
const char *tl_status_message(tl_status st);

/* Fill pattern selector of tl.fillpad (the PP field). */
typedef enum tl_pad_kind { TL_PAD_ZERO = 0, TL_PAD_MIN = 1, TL_PAD_MAX = 2 } tl_pad_kind;

/* ---- state and CSRs ---- */
void tl_state_reset(tl_state *s);
/*
 * Brings state set from outside the instructions (a signal frame, a
 * migration stream, a debugger) back to what the instructions can produce:
 * tl0 zero, CSR values within their writable bits, uninitialized CSRs 0,
 * ttype initialized.
 */
void tl_state_sanitize(tl_state *s);

/*
 * CSR index idx = CSR number - TL_CSR_ADDR_BASE, 0 .. TL_CSR_ADDR_COUNT-1
 * (TL_CSR_TINIT included); other indices are ignored (read 0).
 */
const char *tl_csr_name(unsigned idx);            /* "ttype", ..., "tinit"; NULL if out of range */
uint32_t tl_csr_writable_mask(unsigned idx);      /* bits that are not WARL-zero */
uint32_t tl_csr_read(const tl_state *s, unsigned idx);
/*
 * 0x800..0x807: stores the writable bits and marks the CSR initialized.
 * tinit: bits 7:1 become the flags; a flag going from 1 to 0 also clears
 * that CSR's value, one going from 0 to 1 keeps it.
 */
void tl_csr_write(tl_state *s, unsigned idx, uint64_t value);
/* True for an initialized CSR and always for tinit, which has no flag. */
bool tl_csr_is_initialized(const tl_state *s, unsigned idx);

/* Element size in bits selected by a ttype value, or 0 if ttype is invalid. */
unsigned tl_ttype_element_bits(uint32_t ttype);
/* Short element-type name ("int8", "e4m3", "bf16", ...) or NULL if invalid. */
const char *tl_ttype_name(uint32_t ttype);

/* ---- memory instructions ---- */

/*
 * How the core reaches guest memory: each callback gets all ranges of one
 * instruction at once, so a strided access costs one call per step instead
 * of one per slice.  Addresses are already reduced modulo 2^XLEN and a
 * range never wraps.  The ranges cover the bytes of the selected slices in
 * scan order (slice i, then byte b):
 *  probe: the ranges merged by memory adjacency.  True when every byte may
 *         be accessed; otherwise false, stopping at the first range with a
 *         fault, with *fault_addr = the lowest faulting byte of that range.
 *         Changes no architectural state.
 *  read/write: the accesses themselves, only after probe succeeded: the
 *         ranges merged by memory and register adjacency, `reg` being the
 *         offset of a range in the register (dst/src is the whole
 *         1024-byte register).
 */
typedef struct tl_mem_range {
    uint64_t addr;
    uint32_t len;
    uint32_t reg;
} tl_mem_range;

/* At most 32 slices, each split in two at the top of the address space. */
#define TL_MEM_MAX_RANGES 64

typedef struct tl_mem_batch_if {
    void *opaque;
    bool (*probe)(void *opaque, const tl_mem_range *ranges, unsigned count, bool is_store,
                  uint64_t *fault_addr);
    void (*read)(void *opaque, const tl_mem_range *ranges, unsigned count, uint8_t *dst);
    void (*write)(void *opaque, const tl_mem_range *ranges, unsigned count, const uint8_t *src);
} tl_mem_batch_if;

/*
 * tl.load / tl.mload (masked = tm bit) and tl.store / tl.mstore.
 * imm8 is the sign-extended immediate, base the value of x[rs1],
 * addr_mask 0xffffffff for XLEN 32 or UINT64_MAX for XLEN 64.
 * On TL_FAULT nothing has changed and *fault_addr is the first faulting byte.
 */
tl_status tl_exec_load_batch(tl_state *s, unsigned rd, bool masked, int32_t imm8,
                             uint64_t base, uint64_t addr_mask, const tl_mem_batch_if *mem,
                             uint64_t *fault_addr);
tl_status tl_exec_store_batch(const tl_state *s, unsigned rs, bool masked, int32_t imm8,
                              uint64_t base, uint64_t addr_mask, const tl_mem_batch_if *mem,
                              uint64_t *fault_addr);

/*
 * True for the CSRs a plan is computed from (CSR index as for tl_csr_read):
 * a write to any other (the concat masks, tvalid) leaves the plans current.
 */
static inline bool tl_csr_shapes_mem_plan(unsigned idx)
{
    return idx == TL_CSR_TTYPE || idx == TL_CSR_TSHAPE || idx == TL_CSR_TMASK_LS ||
           idx == TL_CSR_TMASK_LOAD_STRIDE || idx == TL_CSR_TMASK_LOAD_WIDTH ||
           idx == TL_CSR_TINIT;
}

/*
 * The plan of a load or store for the current CSRs (masked: tl.mload or
 * tl.mstore), from the cache of the state.
 */
const tl_mem_plan *tl_mem_plan_compute(tl_state *s, bool masked);
/*
 * After a write to a CSR of the plans: the unmasked plan of the new values
 * made current again when the plan cache has it (a program switching
 * between a few settings), so that the next tl.load or tl.store finds it
 * without computing it; else it stays to be computed by that instruction.
 */
void tl_mem_plan_from_cache(tl_state *s);

/*
 * The dense-rows key (tl_mem_plan.dense_rows) of rows apart in memory that
 * the unmasked tl.load / tl.store about to run are likely to find, for a
 * translator to specialize them, or 0: that of the plan of the current
 * CSRs when its rows are apart; when they are contiguous, the same key if
 * a recent plan (the plan cache) had rows of that shape apart: a program
 * that switches the pitch between the loads and the stores of one tile
 * shape.  *now_apart: the current plan's rows are apart.
 */
uint32_t tl_mem_plan_expected_dense_rows(const tl_state *s, bool *now_apart);

/*
 * Whether the unmasked tl.load / tl.store about to run are likely to find a
 * whole-register plan (whole_reg), for a translator to give that case a
 * path of its own with every other case out of line: the plan of the
 * current CSRs is one, and so is every unmasked plan in the plan cache.
 */
bool tl_mem_plan_expected_whole(const tl_state *s);
static inline const tl_mem_plan *tl_mem_plan_of(tl_state *s, bool masked)
{
    return (s->mem_plan_valid >> masked) & 1 ? &s->mem_plan[masked]
                                             : tl_mem_plan_compute(s, masked);
}

/* Address of byte 0 of slice 0: x[rs1] + sext(imm8) * W, modulo 2^XLEN. */
static inline uint64_t tl_mem_plan_first(const tl_mem_plan *p, int32_t imm8, uint64_t base,
                                         uint64_t addr_mask)
{
    return (base + (uint64_t)((int64_t)imm8 * (int64_t)p->width)) & addr_mask;
}

/*
 * Fast completion of a load or store with an ordered plan whose span lies
 * in host memory that the caller has found accessible as a whole, without
 * side effects (plain RAM), starting at host (the byte at tl_mem_plan_first).
 * The outcome is that of tl_exec_load_batch/tl_exec_store_batch.
 */
void tl_load_from_host(tl_state *s, unsigned rd, const tl_mem_plan *p, const uint8_t *host);
/*
 * The register tl_load_from_host would give, written to dst (TL_REG_BYTES
 * bytes) instead: for callers whose reads may end the instruction half-way
 * (QEMU user mode on a file mapping), which copy dst to the register after.
 */
void tl_load_to_buffer(uint8_t *dst, const tl_mem_plan *p, const uint8_t *host);
/*
 * tl_load_from_host for host memory whose reads may fault half-way (QEMU
 * user mode on a file mapping, which raises SIGBUS past the end of its
 * file): every byte the plan covers is read before the register changes,
 * so a fault that ends the copy leaves the register as it was.  Whole
 * registers on AVX-512 hosts are read into vector registers, other plans
 * through a buffer.
 */
void tl_load_from_host_reads_first(tl_state *s, unsigned rd, const tl_mem_plan *p,
                                   const uint8_t *host);
void tl_store_to_host(const tl_state *s, unsigned rs, const tl_mem_plan *p, uint8_t *host);

/*
 * The copy of a plan with whole_reg set: TL_REG_BYTES from src to dst
 * (distinct buffers), in the widest moves the host has.  For callers that
 * have already made every check (QEMU's translated fast path): a load is
 * tl_copy_whole_reg(s->reg[rd], host) and a store
 * tl_copy_whole_reg(host, s->reg[rs]), for rd, rs != 0.
 */
void tl_copy_whole_reg(void *dst, const void *src);

/* ---- host SIMD paths ---- */

/*
 * Host extensions (x86-64) the core's optimized paths may use; other hosts
 * have none.  Every set gives the same results, only the speed differs.
 */
enum {
    TL_HOST_SIMD_AVX2 = 1u << 0,
    TL_HOST_SIMD_AVX512F = 1u << 1,
    TL_HOST_SIMD_AVX512BW = 1u << 2,
};

/* The extensions this host has: the set in use unless narrowed. */
unsigned tl_host_simd_available(void);

/*
 * Limits the paths to set & tl_host_simd_available() and returns that set,
 * so that tests and benchmarks can run the paths of a host without some
 * extensions.  Takes effect for the instructions that start afterwards.
 */
unsigned tl_host_simd_use(unsigned set);

/* ---- register instructions ---- */
tl_status tl_exec_concat(tl_state *s, unsigned dim, unsigned rd, unsigned rs1, unsigned rs2);
tl_status tl_exec_merge(tl_state *s, unsigned dim, unsigned rd, unsigned rs1, unsigned rs2);
/* dims = x[rs]: D3[31:24] D2[23:16] D1[15:8] D0[7:0]; upper bits ignored. */
tl_status tl_exec_xpose(tl_state *s, unsigned dim0, unsigned dim1, unsigned rs1,
                        unsigned rs2, uint64_t dims);
/*
 * The outcome of three instructions in a row: tl.load rs1 and tl.load rs2
 * with plan p (ordered: direct set) from host1 and host2, the host
 * addresses of their first bytes (tl_mem_plan_first) in memory the caller
 * found accessible as a whole, then tl.xpose dim0, dim1 of rs1, rs2 with
 * dims, in one pass that writes each register once (an interleave reads
 * whole registers where they are; other transposes read them as their
 * input when the second follows the first in memory).  The memory must not
 * overlap the state.  On any status but TL_OK nothing has changed; it is
 * the xpose's (tl_exec_xpose's checks), and the instructions one by one
 * give the architectural outcome (the loads done, then the trap).
 */
tl_status tl_exec_load_pair_xpose(tl_state *s, unsigned rs1, unsigned rs2, const tl_mem_plan *p,
                                  const uint8_t *host1, const uint8_t *host2, unsigned dim0,
                                  unsigned dim1, uint64_t dims);
/*
 * tl_exec_load_pair_xpose, then tl.store rs1 and tl.store rs2 with plan p
 * to out1 and out2, host addresses of their first bytes in memory the
 * caller found accessible for stores: the outcome of the five instructions
 * in a row, which may overlap each other's memory as the instructions one
 * by one allow.  On any status but TL_OK nothing has changed (as
 * tl_exec_load_pair_xpose).
 */
tl_status tl_exec_load_pair_xpose_store(tl_state *s, unsigned rs1, unsigned rs2,
                                        const tl_mem_plan *p, const uint8_t *host1,
                                        const uint8_t *host2, unsigned dim0, unsigned dim1,
                                        uint64_t dims, uint8_t *out1, uint8_t *out2);
/*
 * The same five instructions with a whole-register plan when their xpose
 * is the one s->interleave_memo holds: the caller found TL_INTERLEAVE_MEMO_VALID
 * in mem_plan_valid, the memo's dims and dim01 equal to the xpose's, rs1
 * and rs2 distinct and not 0, and the four spans accessible, the loads'
 * apart from each other and the stores' apart from the loads'.  False
 * (nothing changed) only on a host without the memo's pass, where no memo
 * is ever made.
 */
bool tl_exec_interleave_store_memo(tl_state *s, unsigned rs1, unsigned rs2, const uint8_t *host1,
                                   const uint8_t *host2, uint8_t *out1, uint8_t *out2);
tl_status tl_exec_addi(tl_state *s, unsigned rd, unsigned rs, int32_t imm8);
tl_status tl_exec_muls(tl_state *s, unsigned rd, unsigned rs, uint64_t scalar);
tl_status tl_exec_fillpad(tl_state *s, tl_pad_kind pad, unsigned rd, unsigned rs);

#ifdef __cplusplus
}
#endif

#endif /* TL_CORE_H */
