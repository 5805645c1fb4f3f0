/*
 * TensorLoad (xtl) TCG helpers: thin wrappers that check that TL is usable
 * in the current mode, run the instruction in the core library and turn its
 * status into the architectural trap.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "cpu.h"
#include "internals.h"
#include "exec/exec-all.h"
#include "exec/cpu_ldst.h"
#include "exec/helper-proto.h"
#include "core/tl_copy.h"
#include "xtl_disas.h"
#include "xtl_mem_flags.h"
#include "trace/trace-target_riscv.h"
#ifdef CONFIG_USER_ONLY
#include "user/page-protection.h"
#else
#include "accel/tcg/cpu-ops.h"
#include "exec/memory.h"
#include "qemu/rcu.h"
#endif

/*
 * env->pc is only exact at TB boundaries: restore the state of this
 * instruction (the exception path does the same), which also gives its
 * word (env->bins, saved by decode_save_opc), so that the log names the pc
 * and the instruction as the disassembler writes it.
 */
static void xtl_log_trap(CPURISCVState *env, uintptr_t ra, const char *reason)
{
    if (qemu_loglevel_mask(LOG_GUEST_ERROR)) {
        char text[80], *gap, *ops;

        cpu_restore_state(env_cpu(env), ra);
        if (xtl_disassemble(env->bins, text, sizeof(text), 20)) {
            /* one space between the mnemonic and its operands */
            gap = strchr(text, ' ');
            for (ops = gap; ops && *ops == ' '; ops++) {
            }
            if (gap && ops > gap + 1) {
                memmove(gap + 1, ops, strlen(ops) + 1);
            }
        } else {
            snprintf(text, sizeof(text), ".insn 4, 0x%08" PRIx64, (uint64_t)env->bins);
        }
        qemu_log("xtl: %s at pc 0x" TARGET_FMT_lx " is illegal: %s\n", text, env->pc, reason);
    }
}

/*
 * Below M-mode TL is "custom state" gated by the Smstateen C bit.  In
 * linux-user every TL instruction puts the thread's TL state in use, so
 * that its signal frames carry it (docs/abi.md).
 */
static void xtl_check_access(CPURISCVState *env, uintptr_t ra)
{
#ifdef CONFIG_USER_ONLY
    env->xtl_in_use = true;
#else
    RISCVException excp = smstateen_acc_ok(env, 0, SMSTATEEN0_CS);

    if (excp != RISCV_EXCP_NONE) {
        xtl_log_trap(env, ra, "TL state is disabled by the Smstateen C bit");
        riscv_raise_exception(env, excp, ra);
    }
#endif
}

static void xtl_finish(CPURISCVState *env, tl_status st, uintptr_t ra)
{
    if (likely(st == TL_OK)) {
        return;
    }
    xtl_log_trap(env, ra, tl_status_message(st));
    riscv_raise_exception(env, RISCV_EXCP_ILLEGAL_INST, ra);
}

/* ---- guest memory for the core's loads and stores ---- */

/*
 * Pages that a successful probe of this instruction found to be plain RAM,
 * accessible as a whole with the instruction's access type: the read/write
 * callbacks then copy with memcpy without probing again.  Only whole pages
 * are recorded (not a page that PMP splits, which the TLB keeps as a
 * smaller entry), and not pages with watchpoints, MMIO or other TLB flags.
 * The host pointers stay valid for the instruction: nothing between the
 * probe and the access can change the TLB or the memory map.
 */
#define XTL_PAGE_CACHE_SIZE 8

/* QEMU builds with -ftrivial-auto-var-init=zero; skip it for scratch state. */
#if defined(__has_attribute) && __has_attribute(uninitialized)
#define XTL_UNINIT __attribute__((uninitialized))
#else
#define XTL_UNINIT
#endif

typedef struct XtlMemAccess {
    CPURISCVState *env;
    int mmu_idx;
    uintptr_t ra;
    unsigned cached;                          /* entries in use */
    unsigned next;                            /* entry to replace when full */
    uint64_t page[XTL_PAGE_CACHE_SIZE];       /* guest page address */
    uint8_t *host[XTL_PAGE_CACHE_SIZE];       /* host address of the page start */
} XtlMemAccess;

static void xtl_cache_page(XtlMemAccess *m, uint64_t page, uint8_t *host)
{
    unsigned i = m->cached < XTL_PAGE_CACHE_SIZE ? m->cached++ : m->next++ % XTL_PAGE_CACHE_SIZE;

    m->page[i] = page;
    m->host[i] = host;
}

/* Host address of addr if its page was recorded by the probe, else NULL. */
static inline uint8_t *xtl_cached_host(XtlMemAccess *m, uint64_t addr)
{
    uint64_t page = addr & TARGET_PAGE_MASK;

    for (unsigned i = 0; i < m->cached; i++) {
        if (m->page[i] == page) {
            return m->host[i] + (addr & ~TARGET_PAGE_MASK);
        }
    }
    return NULL;
}

static uint32_t xtl_page_chunk(uint64_t addr, uint32_t len)
{
    uint64_t to_page_end = TARGET_PAGE_SIZE - (addr & ~TARGET_PAGE_MASK);

    return len < to_page_end ? len : (uint32_t)to_page_end;
}

/* A host pointer for [addr, addr+len) within one page if it is plain RAM. */
static void *xtl_ram_ptr(XtlMemAccess *m, uint64_t addr, uint32_t len,
                         MMUAccessType type)
{
    void *host = NULL;
    int flags = probe_access_flags(m->env, adjust_addr(m->env, addr), len, type,
                                   m->mmu_idx, true, &host, m->ra);

    return flags == 0 ? host : NULL;
}

#ifndef CONFIG_USER_ONLY
/*
 * The TLB reports device pages as MMIO whether or not a device sits at the
 * address, and an access to nothing only faults when it is made.  A TL
 * access must fault before it changes anything, so ask the memory map
 * whether a byte access is accepted there.  RAM and ROM are reported as
 * MMIO too while a plugin watches memory accesses; they accept every access.
 */
static bool xtl_mmio_byte_accepted(XtlMemAccess *m, uint64_t addr, MMUAccessType type)
{
    CPUState *cs = env_cpu(m->env);
    CPUTLBEntryFull *full;
    void *host;
    int flags = probe_access_full(m->env, adjust_addr(m->env, addr), 1, type,
                                  m->mmu_idx, true, &host, &full, m->ra);
    bool is_write = type == MMU_DATA_STORE;
    hwaddr xlat, len = 1;
    MemoryRegion *mr;

    if (flags & TLB_INVALID_MASK) {
        return false;
    }
    if (!(flags & TLB_MMIO)) {
        return true;
    }
    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(cpu_get_address_space(cs, cpu_asidx_from_attrs(cs, full->attrs)),
                                 full->phys_addr | (addr & ~TARGET_PAGE_MASK),
                                 &xlat, &len, is_write, full->attrs);
    if (memory_region_is_ram(mr) || memory_region_is_romd(mr)) {
        return true;
    }
    return memory_region_access_valid(mr, xlat, 1, is_write, full->attrs);
}
#endif

#ifdef CONFIG_USER_ONLY
/*
 * One byte of guest memory touched through its host address, so that a
 * host fault there (a file page past the end of its file) is raised now,
 * before the instruction changes anything; helper_retaddr is set, so it is
 * the guest's.  A store's touch is a write that keeps the byte's value (an
 * atomic OR with 0, volatile so that no compiler drops it as a no-op): a
 * shared file page can refuse writes only (no space left to allocate it).
 * Pages are touched in scan order, so a store that faults on a later page
 * has made the earlier ones writable (a private page copied, a shared one
 * dirtied) without changing a byte, as a hart's write faults on them would.
 */
static inline void xtl_touch_byte(void *host, bool is_store)
{
    if (is_store) {
        __atomic_fetch_or((volatile uint8_t *)host, 0, __ATOMIC_RELAXED);
    } else {
        (void)*(volatile const uint8_t *)host;
    }
}
#endif

/*
 * TL accesses are byte accesses (docs/isa.md 5.2): a chunk whose probe
 * fails as a whole (PMP can allow only part of a page) or that is MMIO is
 * checked byte by byte, and only a byte that cannot be accessed faults.
 */
static bool xtl_mem_probe(void *opaque, uint64_t addr, uint32_t len, bool is_store,
                          uint64_t *fault_addr)
{
    XtlMemAccess *m = opaque;
    MMUAccessType type = is_store ? MMU_DATA_STORE : MMU_DATA_LOAD;

    while (len > 0) {
        uint32_t chunk = xtl_page_chunk(addr, len);
        void *host;

        if (xtl_cached_host(m, addr)) {
            /* Already found accessible as a whole page by this instruction. */
            addr += chunk;
            len -= chunk;
            continue;
        }
#ifdef CONFIG_USER_ONLY
        /* Page flags are per page: a page that allows this chunk allows all of it. */
        int flags = probe_access_flags(m->env, adjust_addr(m->env, addr), chunk, type,
                                       m->mmu_idx, true, &host, m->ra);
        bool whole_page = true;

        /*
         * A file mapping's page past the end of the file is mapped but
         * raises SIGBUS when touched: touch the chunk's page now, before
         * the instruction changes anything.
         */
        if (!(flags & TLB_INVALID_MASK)) {
            xtl_touch_byte(g2h(env_cpu(m->env), adjust_addr(m->env, addr)), is_store);
        }
#else
        CPUTLBEntryFull *full;
        int flags = probe_access_full(m->env, adjust_addr(m->env, addr), chunk, type,
                                      m->mmu_idx, true, &host, &full, m->ra);
        /* A smaller TLB entry (PMP) is re-checked on every access: not the whole page. */
        bool whole_page = !(flags & TLB_INVALID_MASK) && full->lg_page_size >= TARGET_PAGE_BITS;

        /*
         * A store to a page that still holds translated code: the probe
         * invalidated the TBs of this chunk only (notdirty_write) and the TLB
         * keeps the page "not dirty" while other TBs remain on it.  Every
         * later chunk must go through the probe again to invalidate its own
         * TBs, so such a page is not recorded.
         */
        if (whole_page && flags == 0 && type == MMU_DATA_STORE &&
            !tlb_vaddr_to_host(m->env, adjust_addr(m->env, addr), type, m->mmu_idx)) {
            whole_page = false;
        }
        /*
         * A watchpoint (debug trigger, gdb) on the chunk fires here, before
         * the instruction changes anything, as probe_access does for an
         * access of this size; the copies' byte accesses would take it
         * half-way through.
         */
        if ((flags & (TLB_INVALID_MASK | TLB_WATCHPOINT)) == TLB_WATCHPOINT) {
            cpu_check_watchpoint(env_cpu(m->env), adjust_addr(m->env, addr), chunk, full->attrs,
                                 is_store ? BP_MEM_WRITE : BP_MEM_READ, m->ra);
        }
#endif

        if (flags == 0 && host && whole_page) {
            xtl_cache_page(m, addr & TARGET_PAGE_MASK,
                           (uint8_t *)host - (addr & ~TARGET_PAGE_MASK));
        }
#ifndef CONFIG_USER_ONLY
        /*
         * PMP splits the page: a probe of the chunk checks only its first
         * and last bytes against each region, so a region lying wholly
         * inside the chunk goes unseen.  Regions are made of aligned 4-byte
         * words (pmpaddr counts words), so probe word by word.
         */
        if (!(flags & (TLB_INVALID_MASK | TLB_MMIO)) && full->lg_page_size < TARGET_PAGE_BITS) {
            for (uint64_t a = addr, end = addr + chunk; a < end;) {
                uint64_t next = MIN((a | 3) + 1, end);

                if (probe_access_flags(m->env, adjust_addr(m->env, a), next - a, type,
                                       m->mmu_idx, true, &host, m->ra) & TLB_INVALID_MASK) {
                    *fault_addr = a;
                    return false;
                }
                a = next;
            }
        }
#endif
        if (flags & (TLB_INVALID_MASK | TLB_MMIO)) {
            for (uint32_t i = 0; i < chunk; i++) {
#ifdef CONFIG_USER_ONLY
                bool ok = !(probe_access_flags(m->env, adjust_addr(m->env, addr + i), 1,
                                               type, m->mmu_idx, true, &host, m->ra)
                            & TLB_INVALID_MASK);
#else
                bool ok = xtl_mmio_byte_accepted(m, addr + i, type);
#endif
                if (!ok) {
                    *fault_addr = addr + i;
                    return false;
                }
            }
        }
        addr += chunk;
        len -= chunk;
    }
    return true;
}

static void xtl_mem_read(void *opaque, uint64_t addr, void *dst, uint32_t len)
{
    XtlMemAccess *m = opaque;
    uint8_t *out = dst;

    while (len > 0) {
        uint32_t chunk = xtl_page_chunk(addr, len);
        void *host = xtl_cached_host(m, addr);

        if (!host) {
            host = xtl_ram_ptr(m, addr, chunk, MMU_DATA_LOAD);
        }
        if (host) {
            tl_bulk_copy(out, host, chunk);
        } else {
            /* MMIO, watchpoints, ...: byte accesses through the softmmu. */
            for (uint32_t i = 0; i < chunk; i++) {
                out[i] = cpu_ldub_mmuidx_ra(m->env, adjust_addr(m->env, addr + i),
                                            m->mmu_idx, m->ra);
            }
        }
        addr += chunk;
        out += chunk;
        len -= chunk;
    }
}

static void xtl_mem_write(void *opaque, uint64_t addr, const void *src, uint32_t len)
{
    XtlMemAccess *m = opaque;
    const uint8_t *in = src;

    while (len > 0) {
        uint32_t chunk = xtl_page_chunk(addr, len);
        void *host = xtl_cached_host(m, addr);

        if (!host) {
            host = xtl_ram_ptr(m, addr, chunk, MMU_DATA_STORE);
        }
        if (host) {
            tl_bulk_copy(host, in, chunk);
        } else {
            for (uint32_t i = 0; i < chunk; i++) {
                cpu_stb_mmuidx_ra(m->env, adjust_addr(m->env, addr + i), in[i],
                                  m->mmu_idx, m->ra);
            }
        }
        addr += chunk;
        in += chunk;
        len -= chunk;
    }
}

/* ---- the batched interface: all ranges of the instruction in one call ---- */

static bool xtl_mem_probe_batch(void *opaque, const tl_mem_range *r, unsigned count,
                                bool is_store, uint64_t *fault_addr)
{
    XtlMemAccess *m = opaque;

    for (unsigned k = 0; k < count; k++) {
        /* A range inside a page this instruction already found accessible as a whole. */
        if (r[k].len <= TARGET_PAGE_SIZE - (r[k].addr & ~TARGET_PAGE_MASK) &&
            xtl_cached_host(m, r[k].addr)) {
            continue;
        }
        if (!xtl_mem_probe(opaque, r[k].addr, r[k].len, is_store, fault_addr)) {
            return false;
        }
    }
    return true;
}

static void xtl_mem_read_batch(void *opaque, const tl_mem_range *r, unsigned count, uint8_t *dst)
{
    XtlMemAccess *m = opaque;

    for (unsigned k = 0; k < count; k++) {
        uint8_t *host = xtl_cached_host(m, r[k].addr);

        if (host && r[k].len <= TARGET_PAGE_SIZE - (r[k].addr & ~TARGET_PAGE_MASK)) {
            tl_copy_bytes(dst + r[k].reg, host, r[k].len);
        } else {
            xtl_mem_read(opaque, r[k].addr, dst + r[k].reg, r[k].len);
        }
    }
}

static void xtl_mem_write_batch(void *opaque, const tl_mem_range *r, unsigned count,
                                const uint8_t *src)
{
    XtlMemAccess *m = opaque;

    for (unsigned k = 0; k < count; k++) {
        uint8_t *host = xtl_cached_host(m, r[k].addr);

        if (host && r[k].len <= TARGET_PAGE_SIZE - (r[k].addr & ~TARGET_PAGE_MASK)) {
            tl_copy_bytes(host, src + r[k].reg, r[k].len);
        } else {
            xtl_mem_write(opaque, r[k].addr, src + r[k].reg, r[k].len);
        }
    }
}

/*
 * The core found a fault without changing anything; a faulting probe of the
 * first bad byte now raises the architectural exception (page fault, access
 * fault, or SIGSEGV in user mode) with that byte as xtval.
 */
static G_NORETURN void xtl_raise_fault(XtlMemAccess *m, uint64_t fault_addr,
                                       bool is_store)
{
    MMUAccessType type = is_store ? MMU_DATA_STORE : MMU_DATA_LOAD;

    probe_access(m->env, adjust_addr(m->env, fault_addr), 1, type, m->mmu_idx, m->ra);
    /* The probe found the byte accessible after all: report an access fault. */
    m->env->badaddr = fault_addr;
    riscv_raise_exception(m->env, is_store ? RISCV_EXCP_STORE_AMO_ACCESS_FAULT
                                           : RISCV_EXCP_LOAD_ACCESS_FAULT, m->ra);
}

/*
 * The fast path: an ordered plan whose span is plain RAM that this access
 * type may reach as a whole; then the core copies with the host pointer.
 * Anything else (a span across the top of the address space, over more
 * than one page in system mode, MMIO, watchpoints, PMP-split pages, stores
 * to pages with translated code in system mode, faults) takes the general
 * path, which checks and reports byte by byte.
 */
#ifdef CONFIG_USER_ONLY
/*
 * env->xtl_checked[is_store]: the last page range this thread's loads (and
 * stores) found mapped with the access they need, with the page flags
 * generation read before the check: while no mapping or protection has
 * changed since, a span inside the range needs no lookup.  Ranges are
 * whole pages, so an entry with last <= first is empty (the zero state).
 * The translated fast path (trans_xtl.c.inc) reads them too.
 */
/* Plugins that watch memory see each access through the slow path. */
static inline bool xtl_plugin_watches_memory(CPURISCVState *env)
{
#ifdef CONFIG_PLUGIN
    return env_cpu(env)->neg.plugin_mem_cbs != NULL;
#else
    return false;
#endif
}
#endif

#ifdef CONFIG_USER_ONLY
/*
 * The common case of xtl_fast_host, inline in the helpers: the span lies in
 * the range this thread last found mapped for the access, and nothing has
 * changed since.  User mode has no pointer masking (riscv_pm_get_pmm), so
 * addresses are used as they are.
 */
static inline uint8_t *xtl_range_host(CPURISCVState *env, const struct XtlCheckedRange *checked,
                                      uint64_t addr, uint64_t span, uint64_t addr_mask)
{
    uint64_t last = addr + span - 1;

    if (likely(checked->generation == qatomic_read(&page_flags_generation) &&
               addr >= checked->first && last <= checked->last && last >= addr &&
               last <= addr_mask && checked->last > checked->first && !xtl_plugin_watches_memory(env))) {
        return g2h(env_cpu(env), addr);
    }
    return NULL;
}

static inline uint8_t *xtl_checked_host(CPURISCVState *env, uint64_t addr, uint64_t span,
                                        uint64_t addr_mask, bool is_store)
{
    return xtl_range_host(env, &env->xtl_checked[is_store], addr, span, addr_mask);
}

/*
 * env->xtl_checked_touch[is_store]: the same for the last range found
 * mapped that is not all anonymous memory (a program's data and read-only
 * data, a file mapping): accesses in it touch their pages first
 * (xtl_touch_plan_pages), and loads read every byte before they write the
 * register (tl_load_from_host_reads_first).  run may take in anonymous
 * mappings next to the file-backed ones; files_first and files_last are
 * the first and last byte of its pages that are not anonymous.  A span in
 * run that misses them is anonymous memory only and is left to
 * env->xtl_checked.  The translated fast path reads run too, after
 * xtl_checked, and calls helper_xtl_load_host_touch or
 * helper_xtl_store_host_touch.
 */
static inline uint8_t *xtl_touch_host(CPURISCVState *env, uint64_t addr, uint64_t span,
                                      uint64_t addr_mask, bool is_store)
{
    const struct XtlTouchRange *t = &env->xtl_checked_touch[is_store];
    uint8_t *host = xtl_range_host(env, &t->run, addr, span, addr_mask);

    return host && addr <= t->files_last && addr + span - 1 >= t->files_first ? host : NULL;
}

/*
 * Remembers in *checked the run of pages with the given flags from the
 * start of addr's mapping (the buffer's), through the mappings after it
 * that have the flags too, up to the one that holds last, when it reaches
 * last, so that the
 * next accesses to it need no lookup; false when it does not.  The
 * mappings after addr's count because a span often crosses into one: a
 * static array starts in the last page of the program's data, which is
 * file-backed, and goes on in anonymous pages.  files, when not NULL,
 * gets the first and last byte of the run's mappings that are not
 * anonymous.  An odd generation is a change of the flags in progress; a
 * changed one, a lookup that may have seen a range being rewritten.
 */
#define XTL_RUN_MAPPINGS 8

static bool xtl_remember_run(struct XtlCheckedRange *checked, uint64_t generation,
                             uint64_t addr, uint64_t last, int flags,
                             struct XtlTouchRange *files)
{
    target_ulong map_first, map_last, node_first, node_last, anon_first, anon_last;
    uint64_t files_first = UINT64_MAX, files_last = 0;

    if ((generation & 1) || !page_flags_range(addr, flags, &map_first, &map_last)) {
        return false;
    }
    node_first = map_first;
    node_last = map_last;
    for (int n = 1;; n++) {
        if (files && !page_flags_range(node_first, flags | PAGE_ANON, &anon_first, &anon_last)) {
            files_first = MIN(files_first, node_first);
            files_last = node_last;
        }
        if (map_last >= last || n == XTL_RUN_MAPPINGS || map_last + 1 == 0 ||
            !page_flags_range(map_last + 1, flags, &node_first, &node_last) ||
            node_first != map_last + 1) {
            break;
        }
        map_last = node_last;
    }
    if (qatomic_read(&page_flags_generation) == generation && last <= map_last) {
        checked->generation = generation;
        checked->first = map_first;
        checked->last = map_last;
        if (files) {
            files->files_first = files_first;
            files->files_last = files_last;
        }
        return true;
    }
    return false;
}
#endif

/*
 * The host address of the span [addr, addr + span) when it is accessible
 * as a whole for the access type, else NULL.  *touch: the span is not all
 * anonymous memory (user mode), so the caller must touch every page it
 * will access before it changes anything (xtl_touch_plan_pages).
 */
static uint8_t * __attribute__((noinline))
xtl_fast_host(CPURISCVState *env, uint64_t addr, uint64_t span,
              uint64_t addr_mask, MMUAccessType type, int mmu_idx, uintptr_t ra,
              bool *touch)
{
    uint64_t first_page = addr & TARGET_PAGE_MASK;
    uint64_t last = addr + span - 1;
    uint8_t *host = NULL;

    *touch = false;
    if (span == 0 || last < addr || last > addr_mask) {
        return NULL;
    }
#ifdef CONFIG_USER_ONLY
    /*
     * Guest memory is one host mapping, so the span is contiguous in the
     * host.  The first byte's probe gives the host address (and declines
     * when plugins watch memory accesses); the pages after it are checked
     * in one walk of the page flags, which also write-enables pages that
     * hold translated code (QEMU invalidates that code).
     */
    struct XtlCheckedRange *checked = &env->xtl_checked[type == MMU_DATA_STORE];
    uint64_t generation = qatomic_read(&page_flags_generation);
    void *h;

    if (adjust_addr(env, addr) != addr) {
        return NULL;
    }
    /* (the caller tried the ranges this thread remembers: xtl_checked_host, xtl_touch_host) */
    if (probe_access_flags(env, addr, 1, type, mmu_idx, true, &h, ra)) {
        return NULL;
    }
    const int need = type == MMU_DATA_STORE ? PAGE_WRITE : PAGE_READ;

    if (xtl_remember_run(checked, generation, addr, last, need | PAGE_ANON, NULL)) {
        return h;
    }
    const bool one_page = (last & TARGET_PAGE_MASK) == first_page;
    const target_ulong rest = first_page + TARGET_PAGE_SIZE, rest_len = last - rest + 1;

    if (!one_page && !page_check_range(rest, rest_len, need)) {
        return NULL;
    }
    /*
     * Only anonymous memory is remembered for the inline paths: a file
     * mapping's page past the end of its file is mapped but raises SIGBUS
     * when touched, so every access to it touches its pages first.
     */
    if (!(page_get_flags(addr) & PAGE_ANON) ||
        (!one_page && !page_check_range(rest, rest_len, need | PAGE_ANON))) {
        struct XtlTouchRange *t = &env->xtl_checked_touch[type == MMU_DATA_STORE];

        xtl_remember_run(&t->run, generation, addr, last, need, t);
        *touch = true;
        return h;
    }
    checked->generation = generation;
    checked->first = first_page;
    checked->last = last | ~TARGET_PAGE_MASK;
    host = h;
#else
    /* Host pages need not be contiguous: only spans within one page. */
    CPUTLBEntryFull *full;
    void *h;

    if ((last & TARGET_PAGE_MASK) != first_page ||
        probe_access_full(env, adjust_addr(env, addr), span, type, mmu_idx, true, &h, &full,
                          ra) ||
        full->lg_page_size < TARGET_PAGE_BITS) {
        return NULL;
    }
    host = h;
#endif
    return host;
}

/* The general path: every range probed and copied through the batched interface. */
static void __attribute__((noinline))
xtl_mem_insn_general(CPURISCVState *env, uint32_t tlr, bool masked, int32_t imm,
                     target_ulong base, bool is_store, uint64_t addr_mask, uintptr_t ra)
{
    /* Only the used cache entries are read: no need to clear the arrays. */
    XtlMemAccess m XTL_UNINIT;
    m.env = env;
    m.mmu_idx = riscv_env_mmu_index(env, false);
    m.ra = ra;
    m.cached = 0;
    m.next = 0;
    const tl_mem_batch_if mem = {
        .opaque = &m,
        .probe = xtl_mem_probe_batch,
        .read = xtl_mem_read_batch,
        .write = xtl_mem_write_batch,
    };
    uint64_t fault_addr = 0;
    tl_status st;

    if (is_store) {
        st = tl_exec_store_batch(&env->xtl, tlr, masked, imm, base, addr_mask, &mem,
                                 &fault_addr);
    } else {
        st = tl_exec_load_batch(&env->xtl, tlr, masked, imm, base, addr_mask, &mem,
                                &fault_addr);
    }
    if (st == TL_FAULT) {
        xtl_raise_fault(&m, fault_addr, is_store);
    }
    xtl_finish(env, st, ra);
}

#ifdef CONFIG_USER_ONLY
/*
 * Touches each page of a range no longer than a page (so one or two pages)
 * that is not touched yet (*touched: the last page touched), at the first
 * byte of it the range covers, in increasing address, so that a file page
 * past the end of its file raises the guest's SIGBUS here, at the first
 * byte past the end, as the scalar access to it would, before anything
 * changes.  Guest and host pages line up (guest_base is page aligned).
 */
static inline void xtl_touch_range(uint8_t *host, uint32_t len, bool is_store,
                                   uintptr_t *touched)
{
    const uintptr_t first = (uintptr_t)host & TARGET_PAGE_MASK;
    const uintptr_t last = ((uintptr_t)host + len - 1) & TARGET_PAGE_MASK;

    if (first != *touched) {
        xtl_touch_byte(host, is_store);
    }
    if (last != first) {
        xtl_touch_byte((uint8_t *)last, is_store);
    }
    *touched = last;
}

/*
 * Every page the plan accesses touched once, in its scan order (the slices
 * of an ordered plan lie in increasing addresses), starting at host (the
 * plan's first byte), before the copy changes anything.  A slice
 * (W <= 1 KiB) lies on at most two pages.
 */
static void xtl_touch_plan_pages(const tl_mem_plan *p, uint8_t *host, bool is_store)
{
    uintptr_t touched = 1;      /* no page: pages are aligned */

    QEMU_BUILD_BUG_ON(TL_REG_BYTES > TARGET_PAGE_SIZE);
    if (p->contiguous) {
        xtl_touch_range(host, p->block_bytes, is_store, &touched);
        return;
    }
    for (uint32_t sel = p->selected; sel != 0; sel &= sel - 1) {
        xtl_touch_range(host + (int64_t)ctz32(sel) * p->pitch, p->width, is_store, &touched);
    }
}
#endif

/* The address bits of the current XLEN. */
static inline uint64_t xtl_addr_mask(CPURISCVState *env)
{
    return riscv_cpu_xlen(env) == 32 ? UINT32_MAX : UINT64_MAX;
}

static void __attribute__((noinline))
xtl_mem_insn(CPURISCVState *env, uint32_t tlr, bool masked, int32_t imm,
             target_ulong base, bool is_store, uintptr_t ra)
{
    uint64_t addr_mask = xtl_addr_mask(env);
    const tl_mem_plan *plan;

    xtl_check_access(env, ra);
    plan = tl_mem_plan_of(&env->xtl, masked);
    if (likely(plan->status == TL_OK && plan->ordered)) {
        uint8_t *host = NULL;
        bool touch = false;

        if (plan->span != 0) {
            const uint64_t first = tl_mem_plan_first(plan, imm, base, addr_mask);
#ifdef CONFIG_USER_ONLY
            const int mmu_idx = MMUIdx_U;       /* the only one; user-mode probes ignore it */

            host = xtl_checked_host(env, first, plan->span, addr_mask, is_store);
            if (!host) {
                host = xtl_touch_host(env, first, plan->span, addr_mask, is_store);
                touch = true;
            }
            if (!host)
#else
            const int mmu_idx = riscv_env_mmu_index(env, false);
#endif
            {
                host = xtl_fast_host(env, first, plan->span, addr_mask,
                                     is_store ? MMU_DATA_STORE : MMU_DATA_LOAD, mmu_idx, ra,
                                     &touch);
            }
#ifdef CONFIG_USER_ONLY
            if (host && touch) {
                xtl_touch_plan_pages(plan, host, is_store);
            }
#endif
        }
        if (likely(host || plan->span == 0)) {
            if (is_store) {
                tl_store_to_host(&env->xtl, tlr, plan, host);
#ifdef CONFIG_USER_ONLY
            } else if (touch) {
                /* reads that a file truncated meanwhile ends half-way change nothing */
                tl_load_from_host_reads_first(&env->xtl, tlr, plan, host);
#endif
            } else {
                tl_load_from_host(&env->xtl, tlr, plan, host);
            }
            return;
        }
    }
    xtl_mem_insn_general(env, tlr, masked, imm, base, is_store, addr_mask, ra);
}

#ifndef CONFIG_USER_ONLY
/*
 * The softmmu fast path's test, for a span within one page: the TLB entry
 * of the page matches without any flag, so the page is RAM that this
 * access may reach as a whole (no MMIO, watchpoint, code to invalidate or
 * PMP region smaller than the page, which all leave flags in the entry).
 */
static inline uint8_t *xtl_tlb_host(CPURISCVState *env, uint64_t addr, uint64_t span,
                                    MMUAccessType type, int mmu_idx)
{
    CPUState *cs = env_cpu(env);
    const CPUTLBDescFast *fast = &cs->neg.tlb.f[mmu_idx];
    const CPUTLBEntry *entry;
    uint64_t last = addr + span - 1;

    if (((last ^ addr) & TARGET_PAGE_MASK) || last < addr) {
        return NULL;
    }
    entry = &fast->table[(addr >> TARGET_PAGE_BITS) & (fast->mask >> CPU_TLB_ENTRY_BITS)];
    if (qatomic_read(&entry->addr_idx[type]) != (addr & TARGET_PAGE_MASK)) {
        return NULL;
    }
    return (uint8_t *)(uintptr_t)(addr + entry->addend);
}
#endif

/*
 * The host address of the span of a load or store with the current
 * unmasked or masked plan, starting at first (tl_mem_plan_first), when it
 * lies in memory found accessible without a lookup (user mode: the range
 * last found mapped; system mode: a TLB hit, with the Smstateen C bit
 * checked as the instruction would); else NULL.  flags: the instruction's
 * XTL_MEM_* flags.
 */
static inline uint8_t *xtl_plan_host(CPURISCVState *env, const tl_mem_plan *plan, uint32_t flags,
                                     uint64_t first, bool is_store)
{
    const uint64_t addr_mask = xtl_addr_mask(env);

#ifdef CONFIG_USER_ONLY
    return xtl_checked_host(env, first, plan->span, addr_mask, is_store);
#else
    QEMU_BUILD_BUG_ON(NB_MMU_MODES > XTL_MEM_MMU_IDX_MASK + 1);
    if (!(flags & XTL_MEM_NO_STATEEN) &&
        smstateen_acc_ok(env, 0, SMSTATEEN0_CS) != RISCV_EXCP_NONE) {
        return NULL;
    }
    if (first + plan->span - 1 > addr_mask) {
        return NULL;
    }
    return xtl_tlb_host(env, flags & XTL_MEM_PLAIN_ADDR ? first : adjust_addr(env, first),
                        plan->span, is_store ? MMU_DATA_STORE : MMU_DATA_LOAD,
                        (flags >> XTL_MEM_MMU_IDX_SHIFT) & XTL_MEM_MMU_IDX_MASK);
#endif
}

/*
 * The host addresses of n whole-register spans (TL_REG_BYTES from
 * first[i]; the first n_loads of loads, the rest of stores) when each lies
 * in memory found accessible without a lookup, as xtl_plan_host finds for
 * a whole-register plan; else false.
 */
static inline bool xtl_whole_reg_hosts(CPURISCVState *env, uint32_t flags, const uint64_t *first,
                                       unsigned n, unsigned n_loads, uint8_t **host)
{
#ifdef CONFIG_USER_ONLY
    const uint64_t generation = qatomic_read(&page_flags_generation);

    if (xtl_plugin_watches_memory(env)) {
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        const struct XtlCheckedRange *r = &env->xtl_checked[i >= n_loads];
        const uint64_t last = first[i] + (TL_REG_BYTES - 1);

        if (r->generation != generation || first[i] < r->first || last > r->last ||
            last < first[i]) {
            return false;
        }
        host[i] = g2h(env_cpu(env), first[i]);
    }
    return true;
#else
    const int mmu_idx = (flags >> XTL_MEM_MMU_IDX_SHIFT) & XTL_MEM_MMU_IDX_MASK;

    if (!(flags & XTL_MEM_PLAIN_ADDR) ||
        (!(flags & XTL_MEM_NO_STATEEN) &&
         smstateen_acc_ok(env, 0, SMSTATEEN0_CS) != RISCV_EXCP_NONE)) {
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        host[i] = xtl_tlb_host(env, first[i], TL_REG_BYTES,
                               i < n_loads ? MMU_DATA_LOAD : MMU_DATA_STORE, mmu_idx);
        if (!host[i]) {
            return false;
        }
    }
    return true;
#endif
}

/*
 * The common case in as few steps as possible: the current CSRs give an
 * ordered plan (current, or cached for their values), its span lies in
 * memory found accessible without a lookup (xtl_plan_host), and the core
 * copies the slices.  False when anything else applies (xtl_mem_insn then
 * handles it).
 */
static inline bool xtl_mem_insn_fast(CPURISCVState *env, uint32_t tlr, uint32_t flags,
                                     int32_t imm, target_ulong base, bool is_store)
{
    const bool masked = flags & XTL_MEM_MASKED;
    tl_state *s = &env->xtl;
    /* After a CSR write, usually one of the plans cached for recent CSR values. */
    const tl_mem_plan *plan = tl_mem_plan_of(s, masked);
    uint8_t *host;

    if (unlikely(!plan->direct)) {
        return false;
    }
    host = xtl_plan_host(env, plan, flags,
                         tl_mem_plan_first(plan, imm, base, xtl_addr_mask(env)), is_store);
    if (unlikely(!host)) {
        return false;
    }
#ifdef CONFIG_USER_ONLY
    env->xtl_in_use = true;
#endif
    if (is_store) {
        tl_store_to_host(s, tlr, plan, host);
    } else {
        tl_load_from_host(s, tlr, plan, host);
    }
    return true;
}

/*
 * User mode: while a helper reads or writes guest memory through host
 * pointers, a host fault there (a file page past the end of its file, a
 * mapping another thread has just removed) is the guest's fault at this
 * instruction, as it is for QEMU's own loads and stores (helper_retaddr,
 * which the longjmp of a fault clears).  Only file-backed memory is touched
 * and loads from it read in full before the register is written; a copy
 * from anonymous memory that another thread unmaps meanwhile (or a shared
 * anonymous mapping grown by mremap past its object) can end half-way and
 * leave the destination register partly written, as QEMU's vector loads
 * do.  System mode: guest RAM does not fault on the host.
 */
static inline void xtl_guest_access_begin(uintptr_t ra)
{
#ifdef CONFIG_USER_ONLY
    set_helper_retaddr(ra);
#endif
}

static inline void xtl_guest_access_end(void)
{
#ifdef CONFIG_USER_ONLY
    clear_helper_retaddr();
#endif
}

void HELPER(xtl_copy_whole_reg)(void *dst, void *src)
{
    xtl_guest_access_begin(GETPC());
    tl_copy_whole_reg(dst, src);
    xtl_guest_access_end();
}

/* The translated fast path's copy of an unmasked direct plan other than a whole register. */
void HELPER(xtl_load_host)(CPURISCVState *env, uint32_t tlr, void *host)
{
    xtl_guest_access_begin(GETPC());
    tl_load_from_host(&env->xtl, tlr, &env->xtl.mem_plan[0], host);
    xtl_guest_access_end();
}

void HELPER(xtl_store_host)(CPURISCVState *env, uint32_t tlr, void *host)
{
    xtl_guest_access_begin(GETPC());
    tl_store_to_host(&env->xtl, tlr, &env->xtl.mem_plan[0], host);
    xtl_guest_access_end();
}

#ifdef CONFIG_USER_ONLY
/*
 * The same for a span in env->xtl_checked_touch (memory that is not all
 * anonymous): its pages touched first, as xtl_mem_insn does there.
 */
void HELPER(xtl_load_host_touch)(CPURISCVState *env, uint32_t tlr, void *host)
{
    const tl_mem_plan *p = &env->xtl.mem_plan[0];

    xtl_guest_access_begin(GETPC());
    xtl_touch_plan_pages(p, host, false);
    tl_load_from_host_reads_first(&env->xtl, tlr, p, host);
    xtl_guest_access_end();
}

void HELPER(xtl_store_host_touch)(CPURISCVState *env, uint32_t tlr, void *host)
{
    const tl_mem_plan *p = &env->xtl.mem_plan[0];

    xtl_guest_access_begin(GETPC());
    xtl_touch_plan_pages(p, host, true);
    tl_store_to_host(&env->xtl, tlr, p, host);
    xtl_guest_access_end();
}
#endif

/*
 * tl.load rs1; tl.load rs2; tl.xpose rs1, rs2, and with stores
 * tl.store rs1; tl.store rs2 after them, run as one pass: the words'
 * fields and the GPR values they use.
 */
typedef struct XtlPairOp {
    uint32_t desc;              /* XTL_PAIR_XPOSE_* fields */
    uint32_t flags;             /* the loads' XTL_MEM_* flags */
    bool stores;
    uint64_t base[4];           /* the loads' base addresses, then the stores' */
    int32_t imm[4];             /* their imm8 fields */
    uint64_t dims;              /* the xpose's */
} XtlPairOp;

/* The pass itself, from host addresses (loads, then stores) checked beforehand. */
static tl_status xtl_pair_exec(CPURISCVState *env, const XtlPairOp *op, const tl_mem_plan *plan,
                               const uint8_t *src1, const uint8_t *src2, uint8_t *dst1,
                               uint8_t *dst2, uintptr_t ra)
{
    const unsigned rs1 = extract32(op->desc, XTL_PAIR_XPOSE_RS1_SHIFT, 5);
    const unsigned rs2 = extract32(op->desc, XTL_PAIR_XPOSE_RS2_SHIFT, 5);
    const unsigned dim0 = extract32(op->desc, XTL_PAIR_XPOSE_DIM0_SHIFT, 2);
    const unsigned dim1 = extract32(op->desc, XTL_PAIR_XPOSE_DIM1_SHIFT, 2);
    tl_status st;

    xtl_guest_access_begin(ra);
    st = op->stores ? tl_exec_load_pair_xpose_store(&env->xtl, rs1, rs2, plan, src1, src2, dim0,
                                                    dim1, op->dims, dst1, dst2)
                    : tl_exec_load_pair_xpose(&env->xtl, rs1, rs2, plan, src1, src2, dim0, dim1,
                                              op->dims);
    xtl_guest_access_end();
#ifdef CONFIG_USER_ONLY
    if (st == TL_OK) {
        env->xtl_in_use = true;
    }
#endif
    return st;
}

/* True when spans of span bytes from a and from b share no byte. */
static inline bool xtl_spans_apart(uint64_t a, uint64_t b, uint64_t span)
{
    return a - b >= span && b - a >= span;
}

/* True when neither store's span (from first[2], first[3]) overlaps a load's. */
static inline bool xtl_stores_apart(const uint64_t *first, uint64_t span)
{
    return xtl_spans_apart(first[2], first[0], span) && xtl_spans_apart(first[2], first[1], span) &&
           xtl_spans_apart(first[3], first[0], span) && xtl_spans_apart(first[3], first[1], span);
}

/*
 * xtl_pair for anything but the tile API's case: the current unmasked plan
 * must be ordered, the loads' spans must lie in memory found accessible
 * (xtl_plan_host) and not overlap (the pass reads the two blocks
 * interleaved; a byte both loads read must not be seen newer by the first
 * than by the second), the stores' spans in memory found accessible for
 * stores and apart from the loads' (a pass that a fault ends in the second
 * store restarts at the first load, which must read what it read before),
 * and the xpose must be legal.
 */
static uint32_t __attribute__((noinline))
xtl_pair_general(CPURISCVState *env, const XtlPairOp *op, uintptr_t ra)
{
    const tl_mem_plan *plan = tl_mem_plan_of(&env->xtl, false);
    const uint64_t addr_mask = xtl_addr_mask(env);
    const uint8_t *src1 = NULL, *src2 = NULL;
    uint8_t *dst1 = NULL, *dst2 = NULL;
    uint64_t first[4];
    const char *outcome;

    for (unsigned i = 0; i < 4; i++) {
        first[i] = tl_mem_plan_first(plan, op->imm[i], op->base[i], addr_mask);
    }
    if (!plan->direct) {
        outcome = "the plan is not an ordered one";
        goto one_by_one;
    }
    if (!xtl_spans_apart(first[0], first[1], plan->span)) {
        outcome = "the spans overlap";
        goto one_by_one;
    }
    if (op->stores && !xtl_stores_apart(first, plan->span)) {
        outcome = "a store's span overlaps a load's";
        goto one_by_one;
    }
    src1 = xtl_plan_host(env, plan, op->flags, first[0], false);
    src2 = src1 ? xtl_plan_host(env, plan, op->flags, first[1], false) : NULL;
    if (!src2) {
        outcome = "a span is not memory found accessible";
        goto one_by_one;
    }
    if (op->stores) {
        dst1 = xtl_plan_host(env, plan, op->flags, first[2], true);
        dst2 = dst1 ? xtl_plan_host(env, plan, op->flags, first[3], true) : NULL;
        if (!dst2) {
            outcome = "a store's span is not memory found accessible";
            goto one_by_one;
        }
    }
    if (xtl_pair_exec(env, op, plan, src1, src2, dst1, dst2, ra) != TL_OK) {
        outcome = "the xpose is illegal";
        goto one_by_one;
    }
    trace_xtl_load_pair_xpose(first[0], first[1], op->stores ? "one pass with the two stores"
                                                             : "one pass");
    return 1;

one_by_one:
    trace_xtl_load_pair_xpose(first[0], first[1], outcome);
    return 0;
}

/*
 * The pass of op for the translated code of its first load
 * (trans_xtl.c.inc): 1 when the instructions are done, 0 when anything but
 * their common case applies and nothing has changed, and they then run one
 * by one.  The tile API's case first, in few steps: a whole-register plan
 * and immediates 0, so that each span is 1 KiB from its GPR.  As a single
 * load's copy, a pass that another thread's munmap ends half-way (user
 * mode) leaves the registers partly written, with the fault at the first
 * load.  Trace event xtl_load_pair_xpose.
 */
static uint32_t xtl_pair(CPURISCVState *env, const XtlPairOp *op, uintptr_t ra)
{
    const tl_state *s = &env->xtl;

    if (likely((s->mem_plan_valid & 1) && s->mem_plan[0].whole_reg &&
               !(op->imm[0] | op->imm[1] | op->imm[2] | op->imm[3]) &&
               xtl_spans_apart(op->base[0], op->base[1], TL_REG_BYTES) &&
               (!op->stores || xtl_stores_apart(op->base, TL_REG_BYTES)))) {
        uint8_t *host[4] = { NULL, NULL, NULL, NULL };

        if (xtl_whole_reg_hosts(env, op->flags, op->base, op->stores ? 4 : 2, 2, host) &&
            xtl_pair_exec(env, op, &s->mem_plan[0], host[0], host[1], host[2], host[3], ra)
            == TL_OK) {
            trace_xtl_load_pair_xpose(op->base[0], op->base[1],
                                      op->stores ? "one pass with the two stores" : "one pass");
            return 1;
        }
    }
    return xtl_pair_general(env, op, ra);
}

/* tl.load, tl.load, tl.xpose.  desc: XTL_PAIR_XPOSE_* fields; flags: the loads' XTL_MEM_* flags. */
uint32_t HELPER(xtl_load_pair_xpose)(CPURISCVState *env, uint32_t desc, uint32_t flags,
                                     target_ulong base1, target_ulong base2, target_ulong dims)
{
    const XtlPairOp op = {
        .desc = desc,
        .flags = flags,
        .base = { base1, base2 },
        .imm = { (int8_t)extract32(desc, XTL_PAIR_XPOSE_IMM1_SHIFT, 8),
                 (int8_t)extract32(desc, XTL_PAIR_XPOSE_IMM2_SHIFT, 8) },
        .dims = dims,
    };

    return xtl_pair(env, &op, GETPC());
}

/*
 * The same followed by tl.store rs1; tl.store rs2 (the current plan
 * again).  The stores write the registers the pass wrote, in order, so
 * they may overlap each other as the instructions one by one may; stores
 * over a load's memory run one by one.  gprs: XTL_PAIR_STORE_GPR_* fields, the GPRs being read
 * from env (the translated code keeps them there); store_imms:
 * XTL_PAIR_STORE_IMM* fields.
 */
uint32_t HELPER(xtl_load_pair_xpose_store)(CPURISCVState *env, uint32_t desc, uint32_t flags,
                                           uint32_t gprs, uint32_t store_imms)
{
    const XtlPairOp op = {
        .desc = desc,
        .flags = flags,
        .stores = true,
        .base = { env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_LOAD1_SHIFT, 5)],
                  env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_LOAD2_SHIFT, 5)],
                  env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_STORE1_SHIFT, 5)],
                  env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_STORE2_SHIFT, 5)] },
        .imm = { (int8_t)extract32(desc, XTL_PAIR_XPOSE_IMM1_SHIFT, 8),
                 (int8_t)extract32(desc, XTL_PAIR_XPOSE_IMM2_SHIFT, 8),
                 (int8_t)extract32(store_imms, XTL_PAIR_STORE_IMM1_SHIFT, 8),
                 (int8_t)extract32(store_imms, XTL_PAIR_STORE_IMM2_SHIFT, 8) },
        .dims = env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_DIMS_SHIFT, 5)],
    };

    return xtl_pair(env, &op, GETPC());
}

/*
 * The five words of helper_xtl_load_pair_xpose_store in the case the
 * translated code checks inline (xtl_gen_interleave_store): the xpose the
 * core's interleave memo holds, whole-register spans at src1, src2 (the
 * loads) and dst1, dst2 (the stores) found accessible and apart.  desc and
 * gprs as there; the GPRs only name the loads' addresses in the trace.
 */
void HELPER(xtl_interleave_store)(CPURISCVState *env, uint32_t desc, uint32_t gprs, void *src1,
                                  void *src2, void *dst1, void *dst2)
{
    bool done;

    xtl_guest_access_begin(GETPC());
    done = tl_exec_interleave_store_memo(&env->xtl, extract32(desc, XTL_PAIR_XPOSE_RS1_SHIFT, 5),
                                         extract32(desc, XTL_PAIR_XPOSE_RS2_SHIFT, 5), src1, src2,
                                         dst1, dst2);
    xtl_guest_access_end();
    /* No memo is made where the core has no such pass, so the translated check never passes. */
    g_assert(done);
#ifdef CONFIG_USER_ONLY
    env->xtl_in_use = true;
#endif
    trace_xtl_load_pair_xpose(env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_LOAD1_SHIFT, 5)],
                              env->gpr[extract32(gprs, XTL_PAIR_STORE_GPR_LOAD2_SHIFT, 5)],
                              "one pass with the two stores");
}

void HELPER(xtl_plan_from_cache)(CPURISCVState *env)
{
    tl_mem_plan_from_cache(&env->xtl);
}

/* flags: XTL_MEM_* (xtl_mem_flags.h) */
void HELPER(xtl_load)(CPURISCVState *env, uint32_t tlr, uint32_t flags, int32_t imm,
                      target_ulong base)
{
    const uintptr_t ra = GETPC();

    xtl_guest_access_begin(ra);
    if (unlikely(!xtl_mem_insn_fast(env, tlr, flags, imm, base, false))) {
        xtl_mem_insn(env, tlr, flags & XTL_MEM_MASKED, imm, base, false, ra);
    }
    xtl_guest_access_end();
}

void HELPER(xtl_store)(CPURISCVState *env, uint32_t tlr, uint32_t flags, int32_t imm,
                       target_ulong base)
{
    const uintptr_t ra = GETPC();

    xtl_guest_access_begin(ra);
    if (unlikely(!xtl_mem_insn_fast(env, tlr, flags, imm, base, true))) {
        xtl_mem_insn(env, tlr, flags & XTL_MEM_MASKED, imm, base, true, ra);
    }
    xtl_guest_access_end();
}

/* ---- register-to-register instructions ---- */

void HELPER(xtl_concat)(CPURISCVState *env, uint32_t dim, uint32_t rd, uint32_t rs1,
                        uint32_t rs2)
{
    uintptr_t ra = GETPC();

    xtl_check_access(env, ra);
    xtl_finish(env, tl_exec_concat(&env->xtl, dim, rd, rs1, rs2), ra);
}

void HELPER(xtl_merge)(CPURISCVState *env, uint32_t dim, uint32_t rd, uint32_t rs1,
                       uint32_t rs2)
{
    uintptr_t ra = GETPC();

    xtl_check_access(env, ra);
    xtl_finish(env, tl_exec_merge(&env->xtl, dim, rd, rs1, rs2), ra);
}

void HELPER(xtl_xpose)(CPURISCVState *env, uint32_t dim0, uint32_t dim1, uint32_t rs1,
                       uint32_t rs2, target_ulong dims)
{
    uintptr_t ra = GETPC();

    xtl_check_access(env, ra);
    xtl_finish(env, tl_exec_xpose(&env->xtl, dim0, dim1, rs1, rs2, dims), ra);
}

void HELPER(xtl_addi)(CPURISCVState *env, uint32_t rd, uint32_t rs, int32_t imm)
{
    uintptr_t ra = GETPC();

    xtl_check_access(env, ra);
    xtl_finish(env, tl_exec_addi(&env->xtl, rd, rs, imm), ra);
}

void HELPER(xtl_muls)(CPURISCVState *env, uint32_t rd, uint32_t rs, target_ulong scalar)
{
    uintptr_t ra = GETPC();

    xtl_check_access(env, ra);
    xtl_finish(env, tl_exec_muls(&env->xtl, rd, rs, scalar), ra);
}

void HELPER(xtl_fillpad)(CPURISCVState *env, uint32_t pad, uint32_t rd, uint32_t rs)
{
    uintptr_t ra = GETPC();

    xtl_check_access(env, ra);
    xtl_finish(env, tl_exec_fillpad(&env->xtl, (tl_pad_kind)pad, rd, rs), ra);
}
