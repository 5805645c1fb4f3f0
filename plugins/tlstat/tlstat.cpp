/*
 * tlstat: a QEMU TCG plugin that reports which TL (xtl) instructions a guest
 * ran, with which element types, how many bytes they moved, where, how often
 * they trapped, and which cells of the ISA's coverage matrix were hit.
 *
 *   qemu-riscv64 -cpu rv64,xtl=on -plugin libtlstat.so,outfile=r.txt ./prog
 *   options: outfile=PATH (%p = QEMU's pid; default: QEMU's log, -d plugin),
 *            format=text|json, top=N
 *
 * How it counts (docs/tlstat.md):
 *  - At translation, CUSTOM-2 words are decoded (tl_isa.h).  Each such
 *    site counts its executions inline; what one execution counts (form,
 *    element type, bytes, coverage cell) is decided from the TL CSRs by a
 *    callback that runs only on the site's first execution after the TL CSRs
 *    may have changed: CSR instructions that write a TL CSR mark them changed
 *    inline (and count the writes per CSR, so the CSRs are re-read through the
 *    register API only when one was written since the last read), as do
 *    rt_sigreturn (which restores them from the signal frame) and a trap.
 *    The counts executed under a decision are added to the totals before the
 *    decision is dropped.
 *  - An inline store leaves the instruction "pending". It completed when
 *    execution reaches pc + 4 (the next instruction of its block, or the next
 *    block); it trapped when the next block is a trap handler entered for it
 *    (system: xepc == pc and xcause an exception; user: the pc saved in the
 *    signal frame is its pc; a guest killed by the signal is resolved at exit).
 *    An instruction restarted at the same pc without a trap is counted once.
 *  - All counters live in per-vCPU slots (a scoreboard); no lock is taken
 *    after translation.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <pthread.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

extern "C" {
#include "qemu-plugin.h"    /* -iquote only: include/qemu also holds a ctype.h */
}

#include "elf_symbols.h"
#include "known_regs.h"
#include "tl_isa.h"
#include "tlstat.h"

/*
 * Weak: a qemu-riscv64 built without linux-user/plugin-api.c (upstream QEMU
 * 10.0) lacks it; hot spots then have no function names.
 */
#pragma weak qemu_plugin_path_to_binary
#pragma weak qemu_plugin_start_code

extern "C" {
QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;
}

namespace {

using tlstat::FormStat;
using tlstat::PcStat;
using tlstat::Site;
using tlstat::Totals;

constexpr int kRtSigreturn = 139;          /* riscv64 Linux */
constexpr uint32_t kEcall = 0x00000073;
constexpr uint64_t kUcMcontextPc = 176;    /* offsetof(ucontext, uc_mcontext.sc_regs.pc) */

/* What the pending instruction would do, decided when it started. */
struct Pending {
    const Site *site = nullptr;
    int type = tl::kInvalidType;
    int cell = -1;
    tl::MemoryAccess mem;
};

struct RegHandle {
    qemu_plugin_register *h = nullptr;
};

/*
 * What an instruction site does, decided from the CSR values in `from` and
 * kept while the site runs under the same values (a kernel's load and store
 * sites each see their own settings over and over).
 */
struct Decision {
    bool decided = false;
    tl::CsrState from{};
    int type = tl::kInvalidType;
    int cell = -1;
    tl::MemoryAccess mem;
    tlstat::FormStat *form = nullptr;      /* the vCPU's counters of (form, type) */
};

struct SiteRuns;

/* A vCPU's counters of one site and its decision, side by side. */
struct SiteState {
    PcStat stat{nullptr};
    Decision d;
    uint64_t values_id = 0;                /* the CsrValues whose list holds the site, or 0 */
    SiteRuns *runs = nullptr;              /* its inline counters, while runs_gen is current */
    uint64_t runs_gen = 0;
};

/*
 * The sites decided under one value of the CSRs that decisions of their
 * kind read (a key with only those CSRs set).
 */
struct CsrValues {
    uint64_t id;
    tl::CsrState key;
    struct Member {
        const Site *site;
        SiteRuns *runs;                    /* valid while `gen` is boards_gen */
        uint64_t counted;                  /* runs under these values not yet added (add_runs) */
    };
    std::vector<Member> sites;
    uint64_t gen;
};

/*
 * A vCPU's recent CsrValues for one kind of site (loads and stores, each
 * their own kind, read ttype, tshape, tmask_ls, stride, width and tinit;
 * the other forms ttype only).  Only the sites of the current one are
 * decided (inline flag set) and accumulate runs; switching back to an
 * earlier one sets its sites' flags again, so a loop that alternates two
 * strides calls no callback per site.  Loads and stores switch apart: a
 * kernel that loads with one stride and stores with another finds its
 * loads' values current at every load and its stores' at every store, and
 * switches nothing.
 */
struct DecisionTable {
    uint32_t csrs;
    std::vector<CsrValues> recent;         /* at most kMaxRecentValues */
    int cur = -1;
    /*
     * The CSRs (those `csrs` names) the current key was made from: values
     * equal to them give the same key, found without making it again.
     */
    tl::CsrState cur_from{};
};
constexpr size_t kMaxRecentValues = 8;
constexpr uint32_t kMemoryCsrs = 1u << tl::TTYPE | 1u << tl::TSHAPE | 1u << tl::TMASK_LS | 1u << tl::TSTRIDE |
                                 1u << tl::TWIDTH | 1u << tl::TINIT;

/* The kinds of site, each with its DecisionTable and changed flag. */
enum SiteKind { kOtherSite, kLoadSite, kStoreSite, kNumSiteKinds };

/*
 * The CSRs whose writes may change each kind's decisions: ttype, and
 * tinit (a write of it changes the other CSRs' values, section 2.6), for
 * every kind; loads and stores also read the shape, mask, stride and width.
 */
constexpr uint32_t kChangedBy[kNumSiteKinds] = {1u << tl::TTYPE | 1u << tl::TINIT, kMemoryCsrs, kMemoryCsrs};

inline SiteKind kind_of(int form)
{
    return !tl::is_memory(form) ? kOtherSite : tl::is_store(form) ? kStoreSite : kLoadSite;
}

/* Everything one vCPU owns; only that vCPU's thread touches it while running. */
struct Vcpu {
    RegHandle csr[tl::kNumCsrs];
    bool have_csrs = false;
    RegHandle mepc, mcause, sepc, scause, mstatus, mstateen0, sstateen0, priv, a0, a2;
    uint64_t seen_writes[tl::kNumCsrs] = {};
    uint64_t seen_any_writes = 0;
    bool reload = true;
    uint32_t dirty = 0;                    /* CSRs written since last read (bit per CSR) */
    bool dirty_tinit_read = false;         /* tinit itself must be read (after a tinit write) */
    tl::CsrState csrs{};
    Pending pending;
    FormStat forms[tl::F_NUM][tl::kNumTypes + 1];
    uint64_t cells[tl::kNumCells] = {};
    std::vector<SiteState> sites;          /* by Site::id */
    DecisionTable tables[kNumSiteKinds]{{1u << tl::TTYPE, {}, -1, {}}, {kMemoryCsrs, {}, -1, {}},
                                        {kMemoryCsrs, {}, -1, {}}};
    uint64_t next_values_id = 1;
    GByteArray *buf = g_byte_array_new();
};

/* The scoreboard entry of a vCPU: what inline operations and conditions use. */
struct Slot {
    uint64_t insns;                        /* guest instructions (per block, inline) */
    uint64_t csr_writes[tl::kNumCsrs];     /* executed writes of each TL CSR (inline) */
    uint64_t any_csr_writes;               /* their sum (inline): one test when none ran */
    /*
     * The value of a TL CSR's last write when the translator could see it
     * (a constant, KnownRegs), with known_fresh[c] = 1; a write of a value
     * it could not see sets known_fresh[c] = 0 (inline stores).
     */
    uint64_t known_value[tl::kNumCsrs];
    uint64_t known_fresh[tl::kNumCsrs];
    /*
     * By SiteKind: a CSR of kChangedBy[kind] may differ from the values
     * the kind's live decisions were made from.
     */
    uint64_t changed[kNumSiteKinds];
    uint64_t pending;                      /* the unresolved TL instruction's Site *, or 0 */
};

struct Options {
    std::string outfile;
    bool json = false;
    unsigned top = 10;
};

/*
 * The plugin's global state is never destroyed: QEMU runs the atexit
 * callback from exit(), after the destructors of this library's statics.
 */
struct Globals {
    Options opts;
    std::string binary_path;
    std::mutex mtx;                        /* translation and vCPU creation only */
    std::map<std::pair<uint64_t, uint32_t>, std::unique_ptr<Site>> sites;
    std::vector<std::unique_ptr<Vcpu>> all_vcpus;
};
Globals &g_ = *new Globals;
Options &opts = g_.opts;
std::string &binary_path = g_.binary_path;
std::mutex &mtx = g_.mtx;
auto &sites = g_.sites;
auto &all_vcpus = g_.all_vcpus;
bool system_mode;
uint64_t load_start;                       /* user mode: start of the program's code */
qemu_plugin_scoreboard *slots;
qemu_plugin_u64 insns_entry, pending_entry, any_csr_write_entry, csr_write_entry[tl::kNumCsrs];
qemu_plugin_u64 changed_entry[kNumSiteKinds];
qemu_plugin_u64 known_value_entry[tl::kNumCsrs], known_fresh_entry[tl::kNumCsrs];

/*
 * Scoreboards are only written from callbacks that run while the vCPU
 * executes guest code: QEMU moves them (a new vCPU index past their size)
 * in an exclusive section, which waits for those but not for a vCPU in its
 * init callback or in a system call.
 */
Slot *slot_of(unsigned vcpu) { return static_cast<Slot *>(qemu_plugin_scoreboard_find(slots, vcpu)); }

/* Each vCPU index's Vcpu, in the plugin's own memory (set by vcpu_init). */
constexpr size_t kVcpusPerChunk = 256, kVcpuChunks = 256;
std::atomic<std::atomic<Vcpu *> *> vcpu_chunks[kVcpuChunks];

Vcpu *vcpu_of(unsigned vcpu_index)
{
    if (vcpu_index / kVcpusPerChunk >= kVcpuChunks) {
        return nullptr;
    }
    std::atomic<Vcpu *> *chunk = vcpu_chunks[vcpu_index / kVcpusPerChunk].load(std::memory_order_acquire);
    return chunk ? chunk[vcpu_index % kVcpusPerChunk].load(std::memory_order_acquire) : nullptr;
}

/*
 * Per site and vCPU, what translated code updates inline: the executions
 * not yet added to the counters, and whether the site's decision holds
 * (0: its next execution calls on_tl_decide).  Sites are grouped
 * kSitesPerBoard to a scoreboard; a site past the last board is counted by
 * a callback on every execution (on_tl_exec).
 */
struct SiteRuns {
    uint64_t runs;
    uint64_t decided;
};
constexpr size_t kSitesPerBoard = 256;
constexpr size_t kMaxBoards = 16384;
struct SiteBoard {
    SiteRuns site[kSitesPerBoard];
};
std::atomic<qemu_plugin_scoreboard *> site_boards[kMaxBoards];

/* The board of a new site, created on first use; nullptr past the last.  Under mtx. */
qemu_plugin_scoreboard *board_of_new_site(const Site &site)
{
    const size_t b = site.id / kSitesPerBoard;
    if (b >= kMaxBoards) {
        return nullptr;
    }
    qemu_plugin_scoreboard *sb = site_boards[b].load(std::memory_order_relaxed);
    if (!sb) {
        sb = qemu_plugin_scoreboard_new(sizeof(SiteBoard));
        site_boards[b].store(sb, std::memory_order_release);
    }
    return sb;
}

SiteRuns &site_runs(const Site *site, unsigned vcpu_index)
{
    qemu_plugin_scoreboard *sb = site_boards[site->id / kSitesPerBoard].load(std::memory_order_acquire);
    return static_cast<SiteBoard *>(qemu_plugin_scoreboard_find(sb, vcpu_index))->site[site->id % kSitesPerBoard];
}

/*
 * Advanced by every translation-cache flush: QEMU moves scoreboards only
 * while all vCPUs are stopped for one (when a vCPU index outgrows them).
 */
std::atomic<uint64_t> boards_gen{1};

void on_flush(qemu_plugin_id_t) { boards_gen.fetch_add(1, std::memory_order_relaxed); }


uint64_t read_reg(Vcpu &v, const RegHandle &r)
{
    if (!r.h) {
        return 0;
    }
    /*
     * Emptied by hand: g_byte_array_set_size(buf, 0) goes through
     * g_array_remove_range, a measurable part of a CSR read.  The
     * register API only appends.
     */
    v.buf->len = 0;
    int n = qemu_plugin_read_register(r.h, v.buf);
    uint64_t val = 0;
    for (int i = std::min(n, 8) - 1; i >= 0; i--) {
        val = (val << 8) | v.buf->data[i];     /* RISC-V registers are little-endian */
    }
    return val;
}

void vcpu_init(qemu_plugin_id_t, unsigned int vcpu_index)
{
    std::lock_guard<std::mutex> g(mtx);
    if (Vcpu *old = vcpu_of(vcpu_index)) {
        /*
         * A linux-user thread taking the index of one that exited: its TL
         * CSRs are its parent's, not those the exited thread's decisions
         * were made from.  That thread's exit ecall set the slot's changed
         * flags, so the first TL instruction of each kind switches values;
         * with reload it reads them first.
         */
        old->reload = true;
        return;
    }
    if (vcpu_index / kVcpusPerChunk >= kVcpuChunks) {
        return;                            /* past 65535: not counted */
    }
    auto v = std::make_unique<Vcpu>();
    GArray *regs = qemu_plugin_get_registers();
    int found = 0;
    for (guint i = 0; regs && i < regs->len; i++) {
        auto &d = g_array_index(regs, qemu_plugin_reg_descriptor, i);
        const std::string n = d.name;
        for (int c = 0; c < tl::kNumCsrs; c++) {
            if (n == tl::kCsrNames[c] && !v->csr[c].h) {
                v->csr[c].h = d.handle;
                found++;
            }
        }
        struct { const char *name; RegHandle *to; } other[] = {
            {"mepc", &v->mepc}, {"mcause", &v->mcause}, {"sepc", &v->sepc},
            {"scause", &v->scause}, {"mstatus", &v->mstatus}, {"mstateen0", &v->mstateen0}, {"sstateen0", &v->sstateen0},
            {"priv", &v->priv}, {"a0", &v->a0}, {"a2", &v->a2},
        };
        for (auto &o : other) {
            if (n == o.name && !o.to->h) {
                o.to->h = d.handle;
            }
        }
    }
    if (regs) {
        g_array_free(regs, TRUE);
    }
    /* Without the extension the TL CSRs do not exist, for gdb as for the guest. */
    v->have_csrs = found == tl::kNumCsrs;
    std::atomic<std::atomic<Vcpu *> *> &chunk = vcpu_chunks[vcpu_index / kVcpusPerChunk];
    if (!chunk.load(std::memory_order_relaxed)) {
        chunk.store(new std::atomic<Vcpu *>[kVcpusPerChunk](), std::memory_order_release);
    }
    chunk.load(std::memory_order_relaxed)[vcpu_index % kVcpusPerChunk].store(v.get(), std::memory_order_release);
    all_vcpus.push_back(std::move(v));
    /* The user-mode program's path needs a vCPU (it is read from the task state). */
    if (!system_mode && all_vcpus.size() == 1 && qemu_plugin_path_to_binary) {
        const char *p = qemu_plugin_path_to_binary();
        binary_path = p ? p : "";
        g_free((void *)p);
        load_start = qemu_plugin_start_code ? qemu_plugin_start_code() : 0;
    }
}

/*
 * The TL CSRs an instruction's decision reads: ttype for every form, and
 * for loads and stores the shape, width, stride, tmask_ls (masked forms)
 * and the initialized flags (tinit).
 */
uint32_t csrs_needed(int form)
{
    if (!tl::is_memory(form)) {
        return 1u << tl::TTYPE;
    }
    return tl::is_masked_memory(form) ? kMemoryCsrs : kMemoryCsrs & ~(1u << tl::TMASK_LS);
}

/*
 * Brings the CSRs `need` names up to date.  A CSR written since it was last
 * read is only marked (dirty); it is read through the register API when an
 * instruction needs it, which for most instructions is ttype alone.
 */
void __attribute__((noinline)) read_csrs(Vcpu &v, Slot &s, uint32_t need)
{
    if (v.reload || s.any_csr_writes != v.seen_any_writes) {
        v.seen_any_writes = s.any_csr_writes;
        /*
         * A tinit write changes the other CSRs' values (section 2.6): all of
         * them are read, whatever values the writes before it stored.
         */
        const bool all = v.reload || s.csr_writes[tl::TINIT] != v.seen_writes[tl::TINIT];
        if (all) {
            v.dirty = (1u << tl::kNumCsrs) - 1;
            v.dirty_tinit_read = true;
        }
        /*
         * known_fresh[c] is stored by every write of c, which also counts in
         * csr_writes[c]: one whose count did not move is still 0 from here.
         */
        for (int c = 0; c < tl::kNumCsrs; c++) {
            if (s.csr_writes[c] == v.seen_writes[c]) {
                continue;
            }
            v.seen_writes[c] = s.csr_writes[c];
            if (s.known_fresh[c] && !v.dirty_tinit_read) {
                v.csrs.v[c] = uint32_t(s.known_value[c]);
                v.dirty &= ~(1u << c);
            } else {
                v.dirty |= 1u << c;
            }
            s.known_fresh[c] = 0;
            /* A write initializes the CSR (section 2.5): its tinit flag is now 1. */
            v.csrs.v[tl::TINIT] |= v.dirty_tinit_read ? 0 : 1u << c;
        }
        v.reload = false;
    }
    /* tinit is only ever dirty after a tinit write or a reload (dirty_tinit_read) */
    const uint32_t read = v.dirty & need;
    for (uint32_t r = read; r != 0; r &= r - 1) {
        const int c = __builtin_ctz(r);
        v.csrs.v[c] = uint32_t(read_reg(v, v.csr[c]));
    }
    v.dirty &= ~read;
    if (read & (1u << tl::TINIT)) {
        v.dirty_tinit_read = false;
    }
}

inline __attribute__((always_inline)) void refresh_csrs(Vcpu &v, Slot &s, uint32_t need)
{
    if (v.have_csrs &&
        (v.reload || s.any_csr_writes != v.seen_any_writes || (v.dirty & need) != 0)) {
        read_csrs(v, s, need);
    }
}

inline __attribute__((always_inline)) SiteState &site_state(Vcpu &v, const Site *site)
{
    if (__builtin_expect(site->id >= v.sites.size(), 0)) {
        v.sites.resize(site->id + 64);
    }
    SiteState &st = v.sites[site->id];
    st.stat.site = site;
    return st;
}

inline __attribute__((always_inline)) PcStat &site_stat(Vcpu &v, const Site *site)
{
    return site_state(v, site).stat;
}

/*
 * An instruction is counted as completed when it starts (sign = 1), and the
 * count is taken back (sign = -1) when it turns out to have trapped or to
 * have been restarted: completion, the common case, then costs nothing.
 */
inline __attribute__((always_inline)) void count_completed(Vcpu &v, int64_t sign)
{
    const Pending &p = v.pending;
    FormStat &f = v.forms[p.site->insn.form][p.type];
    f.count += sign;
    f.bytes += sign * int64_t(p.mem.bytes);
    f.engines[p.site->insn.engine] += sign;
    if (p.cell >= 0) {
        v.cells[p.cell] += sign;
    }
    PcStat &ps = site_stat(v, p.site);
    ps.count += sign;
    ps.bytes += sign * int64_t(p.mem.bytes);
}

/* Which trap cell an exception (RISC-V cause code) of the pending instruction hits. */
int trap_kind(Vcpu &v, uint64_t cause, bool handled_in_m)
{
    const tl::Insn &in = v.pending.site->insn;
    switch (cause) {
    case 2: {
        if (!v.have_csrs) {
            return tl::T_ILLEGAL_XTL_OFF;
        }
        if (tl::is_reserved(in.form)) {
            return tl::T_ILLEGAL_RESERVED;       /* checked before Smstateen (section 1.3) */
        }
        /* Smstateen (section 1.2), by the mode the instruction ran in. */
        if (v.mstateen0.h) {
            const uint64_t mstatus = read_reg(v, v.mstatus);
            const uint64_t from = handled_in_m ? (mstatus >> 11) & 3 : (mstatus >> 8) & 1;
            if (from < 3 && !(read_reg(v, v.mstateen0) & 1)) {
                return tl::T_ILLEGAL_STATEEN;
            }
            if (from == 0 && v.sstateen0.h && !(read_reg(v, v.sstateen0) & 1)) {
                return tl::T_ILLEGAL_STATEEN;
            }
        }
        return tl::T_ILLEGAL_OPERAND;
    }
    case 22: return tl::T_VIRTUAL_INSTRUCTION;
    case 5: return tl::T_LOAD_ACCESS;
    case 13: return tl::T_LOAD_PAGE;
    case 21: return tl::T_LOAD_GUEST_PAGE;
    case 7: return tl::T_STORE_ACCESS;
    case 15: return tl::T_STORE_PAGE;
    case 23: return tl::T_STORE_GUEST_PAGE;
    default: return -1;
    }
}

/* User mode: the kind of trap a signal (or a death by it) stands for. */
int trap_kind_signal(Vcpu &v, int sig)
{
    const tl::Insn &in = v.pending.site->insn;
    const bool store = tl::is_store(in.form);
    if (!v.have_csrs) {
        return tl::T_ILLEGAL_XTL_OFF;
    }
    if (tl::is_reserved(in.form)) {
        return tl::T_ILLEGAL_RESERVED;
    }
    if (sig == 0) {
        /* Killed at exit: the operand checks decide between SIGILL and a memory fault. */
        sig = tl::is_memory(in.form) && v.pending.mem.legal ? 11 : 4;
    }
    switch (sig) {
    case 4: return tl::T_ILLEGAL_OPERAND;
    case 11: return store ? tl::T_STORE_PAGE : tl::T_LOAD_PAGE;
    case 7: return store ? tl::T_STORE_ACCESS : tl::T_LOAD_ACCESS;
    default: return -1;
    }
}

void count_trapped(Vcpu &v, int kind)
{
    const Pending &p = v.pending;
    FormStat &f = v.forms[p.site->insn.form][p.type];
    f.traps++;
    site_stat(v, p.site).traps++;
    if (kind >= 0) {
        v.cells[tl::kCellTrap + kind]++;
    }
    if (tl::is_reserved(p.site->insn.form)) {
        v.cells[tl::kCellReserved + p.site->insn.form - tl::F_RESERVED]++;
    }
    v.reload = true;                       /* a handler may leave the TL CSRs changed */
}

/*
 * The decision for a site under the current TL CSRs: recomputed only when
 * they differ from the ones it was made from.
 */
SiteState &decide(Vcpu &v, Slot &s, const Site *site)
{
    refresh_csrs(v, s, csrs_needed(site->insn.form));
    SiteState &st = site_state(v, site);
    Decision &d = st.d;
    if (!d.decided || std::memcmp(&d.from, &v.csrs, sizeof(v.csrs)) != 0) {
        d.decided = true;
        d.from = v.csrs;
        d.type = v.have_csrs ? tl::type_index(v.csrs.v[tl::TTYPE]) : tl::kInvalidType;
        d.mem = tl::is_memory(site->insn.form) && v.have_csrs ? tl::memory_access(site->insn.form, v.csrs)
                                                              : tl::MemoryAccess{};
        d.cell = tl::instruction_cell(site->insn.form, d.type, d.mem);
        d.form = &v.forms[site->insn.form][d.type];
    }
    return st;
}

/* Adds `runs` executions under the site's decision to the vCPU's counters. */
void add_runs(Vcpu &v, SiteState &st, uint64_t runs)
{
    const Decision &d = st.d;
    if (!d.decided || runs == 0) {
        return;
    }
    d.form->count += runs;
    d.form->bytes += runs * d.mem.bytes;
    d.form->engines[st.stat.site->insn.engine] += runs;
    if (d.cell >= 0) {
        v.cells[d.cell] += runs;
    }
    st.stat.count += runs;
    st.stat.bytes += runs * d.mem.bytes;
}

SiteRuns &site_runs(SiteState &st, unsigned vcpu_index)
{
    const uint64_t gen = boards_gen.load(std::memory_order_relaxed);
    if (st.runs_gen != gen) {
        st.runs = &site_runs(st.stat.site, vcpu_index);
        st.runs_gen = gen;
    }
    return *st.runs;
}

/* The members' inline counters, found again after scoreboards moved. */
CsrValues &members_current(CsrValues &vals, unsigned vcpu_index)
{
    const uint64_t gen = boards_gen.load(std::memory_order_relaxed);
    if (vals.gen != gen) {
        for (CsrValues::Member &m : vals.sites) {
            m.runs = &site_runs(m.site, vcpu_index);
        }
        vals.gen = gen;
    }
    return vals;
}

/* The current values' sites: their runs kept with them (Member::counted); undecided. */
void flush_current(DecisionTable &t, unsigned vcpu_index)
{
    if (t.cur < 0) {
        return;
    }
    for (CsrValues::Member &m : members_current(t.recent[t.cur], vcpu_index).sites) {
        m.counted += m.runs->runs;
        m.runs->runs = 0;
        m.runs->decided = 0;
    }
}

/* A member's runs added to the counters under its decision; it leaves the values. */
void retire_member(Vcpu &v, const CsrValues::Member &m)
{
    SiteState &st = v.sites[m.site->id];
    add_runs(v, st, m.counted);
    st.values_id = 0;
}

/*
 * The CSRs `which` names, as decisions read them.  A memory instruction's
 * decision reads the stride only as "equal to the width or not"
 * (tl::memory_access), the same for every memory form: strides that agree
 * on it share a key, so a loop whose loads and stores use different row
 * pitches keeps its decisions.
 */
tl::CsrState key_of(const tl::CsrState &csrs, uint32_t which)
{
    tl::CsrState k{};
    for (int c = 0; c < tl::kNumCsrs; c++) {
        k.v[c] = (which >> c) & 1 ? csrs.v[c] : 0;
    }
    if (which & (1u << tl::TSTRIDE)) {
        k.v[tl::TSTRIDE] = tl::memory_access(tl::F_LOAD, csrs).strided;
    }
    return k;
}

/* a and b agree on the CSRs `which` names. */
bool same_csrs(const tl::CsrState &a, const tl::CsrState &b, uint32_t which)
{
    for (int c = 0; c < tl::kNumCsrs; c++) {
        if ((which >> c) & 1 && a.v[c] != b.v[c]) {
            return false;
        }
    }
    return true;
}

/*
 * Makes the CSRs' present values current in t: the previous values' sites
 * are counted and undecided, those decided under the present values before
 * are decided again.
 */
void switch_values(Vcpu &v, Slot &s, DecisionTable &t, unsigned vcpu_index)
{
    refresh_csrs(v, s, t.csrs);
    if (t.cur >= 0 && same_csrs(v.csrs, t.cur_from, t.csrs)) {
        return;
    }
    t.cur_from = v.csrs;
    const tl::CsrState key = key_of(v.csrs, t.csrs);
    if (t.cur >= 0 && std::memcmp(&t.recent[t.cur].key, &key, sizeof(key)) == 0) {
        return;
    }
    flush_current(t, vcpu_index);
    t.cur = -1;
    for (size_t i = 0; i < t.recent.size(); i++) {
        if (std::memcmp(&t.recent[i].key, &key, sizeof(key)) == 0) {
            t.cur = int(i);
            for (const CsrValues::Member &m : members_current(t.recent[i], vcpu_index).sites) {
                m.runs->decided = 1;
            }
            return;
        }
    }
    if (t.recent.size() >= kMaxRecentValues) {
        /* the oldest; its sites are undecided */
        for (const CsrValues::Member &m : t.recent.front().sites) {
            retire_member(v, m);
        }
        t.recent.erase(t.recent.begin());
    }
    t.recent.push_back(CsrValues{v.next_values_id++, key, {}, boards_gen.load(std::memory_order_relaxed)});
    t.cur = int(t.recent.size() - 1);
}

/* A site's decision for the present CSRs, kept while they are current. */
void decide_live(Vcpu &v, Slot &s, const Site *site, unsigned vcpu_index)
{
    DecisionTable &t = v.tables[kind_of(site->insn.form)];
    if (t.cur < 0) {
        switch_values(v, s, t, vcpu_index);
    }
    CsrValues &now = t.recent[t.cur];
    SiteState &old_st = site_state(v, site);
    if (old_st.values_id != now.id) {
        /* Its runs under other values are counted under the decision made for them. */
        for (CsrValues &old : t.recent) {
            if (old.id == old_st.values_id) {
                auto m = std::find_if(old.sites.begin(), old.sites.end(),
                                      [site](const CsrValues::Member &x) { return x.site == site; });
                retire_member(v, *m);
                old.sites.erase(m);
                break;
            }
        }
    }
    SiteState &st = decide(v, s, site);
    SiteRuns &r = site_runs(st, vcpu_index);
    if (st.values_id != now.id) {
        members_current(now, vcpu_index).sites.push_back({site, &r, 0});
        st.values_id = now.id;
    }
    r.decided = 1;
}

/* Every site's runs counted and its decision dropped (exit, fork). */
void flush_all_sites(Vcpu &v, unsigned vcpu_index)
{
    for (DecisionTable &t : v.tables) {
        flush_current(t, vcpu_index);
        for (CsrValues &vals : t.recent) {
            for (const CsrValues::Member &m : vals.sites) {
                retire_member(v, m);
            }
        }
        t.recent.clear();
        t.cur = -1;
    }
}

/* Every decision is checked again at the next TL instruction. */
void mark_csrs_changed(Slot &s)
{
    std::fill(std::begin(s.changed), std::end(s.changed), 1);
}

/* v.pending from the slot's unresolved instruction; false if it has no decision. */
bool load_pending(Vcpu &v, const Slot &s)
{
    const Site *site = reinterpret_cast<const Site *>(uintptr_t(s.pending));
    const Decision &d = site_state(v, site).d;
    if (!d.decided) {
        return false;
    }
    v.pending = Pending{site, d.type, d.cell, d.mem};
    return true;
}

/* The pending instruction is followed by execution at npc. */
void resolve(Vcpu &v, Slot &s, uint64_t npc)
{
    const bool known = load_pending(v, s);
    s.pending = 0;
    if (!known) {
        return;
    }
    const uint64_t pc = v.pending.site->pc;
    if (npc == pc + 4) {
        return;                            /* completed, already counted */
    }
    if (npc == pc) {
        count_completed(v, -1);            /* restarted without a trap: counted when it completes */
        return;
    }
    if (system_mode) {
        const bool in_m = read_reg(v, v.priv) == 3;
        const uint64_t epc = read_reg(v, in_m ? v.mepc : v.sepc);
        const uint64_t cause = read_reg(v, in_m ? v.mcause : v.scause);
        if (epc == pc && !(cause >> 63)) {
            count_completed(v, -1);
            count_trapped(v, trap_kind(v, cause, in_m));
            mark_csrs_changed(s);
        }                                  /* else an interrupt taken after it completed */
        return;
    }
    /* User mode: a signal handler starts with a0 = signal, a2 = its ucontext. */
    const uint64_t uc = read_reg(v, v.a2);
    g_byte_array_set_size(v.buf, 0);
    uint64_t frame_pc = ~uint64_t(0);
    if (qemu_plugin_read_memory_vaddr(uc + kUcMcontextPc, v.buf, 8)) {
        std::memcpy(&frame_pc, v.buf->data, 8);
    }
    if (frame_pc == pc) {
        count_completed(v, -1);
        count_trapped(v, trap_kind_signal(v, int(read_reg(v, v.a0))));
        mark_csrs_changed(s);
    }
}

/* A site past the last board: every execution is decided and counted here. */
void on_tl_exec(unsigned int vcpu_index, void *udata)
{
    Slot &s = *slot_of(vcpu_index);
    Vcpu *vp = vcpu_of(vcpu_index);
    if (!vp) {
        return;                            /* runs before its vCPU's init callback: not counted */
    }
    Vcpu &v = *vp;
    const Site *site = static_cast<const Site *>(udata);
    if (s.pending) {
        resolve(v, s, site->pc);
    }
    add_runs(v, decide(v, s, site), 1);
    s.pending = uintptr_t(site);
}

/*
 * The first execution of a site since its decision was dropped (condition:
 * decided == 0); the inline increment of its runs follows.
 */
void on_tl_decide(unsigned int vcpu_index, void *udata)
{
    Slot &s = *slot_of(vcpu_index);
    const Site *site = static_cast<const Site *>(udata);
    Vcpu *vp = vcpu_of(vcpu_index);
    if (!vp) {
        site_runs(site, vcpu_index).runs = ~uint64_t(0);  /* before its vCPU's init callback: not counted */
        return;
    }
    Vcpu &v = *vp;
    if (s.pending) {
        resolve(v, s, site->pc);
    }
    decide_live(v, s, site, vcpu_index);
}

/*
 * The first TL instruction of its kind after a CSR its decisions read may
 * have changed (condition: changed[kKind] != 0).  The CSRs' present values
 * become current for sites of this kind; this site, if still undecided, is
 * decided by on_tl_decide next.
 */
template <SiteKind kKind>
void on_tl_csrs_changed(unsigned int vcpu_index, void *udata)
{
    Slot &s = *slot_of(vcpu_index);
    Vcpu *vp = vcpu_of(vcpu_index);
    if (!vp) {
        return;
    }
    Vcpu &v = *vp;
    const Site *site = static_cast<const Site *>(udata);
    if (s.pending) {
        resolve(v, s, site->pc);
    }
    s.changed[kKind] = 0;
    switch_values(v, s, v.tables[kKind], vcpu_index);
}

void on_block_entry(unsigned int vcpu_index, void *udata)
{
    Slot &s = *slot_of(vcpu_index);
    if (Vcpu *v = vcpu_of(vcpu_index)) {
        resolve(*v, s, reinterpret_cast<uintptr_t>(udata));
    }
}

void on_syscall(qemu_plugin_id_t, unsigned int vcpu_index, int64_t num, uint64_t, uint64_t,
                uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t)
{
    /* Every ecall also set the scoreboard's changed flags (on_tb_trans). */
    Vcpu *v = vcpu_of(vcpu_index);
    if (num == kRtSigreturn && v) {
        v->reload = true;
    }
}

void on_tb_trans(qemu_plugin_id_t, struct qemu_plugin_tb *tb)
{
    const size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64, insns_entry, n);
    qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, on_block_entry, QEMU_PLUGIN_CB_R_REGS,
                                              QEMU_PLUGIN_COND_NE, pending_entry, 0,
                                              reinterpret_cast<void *>(uintptr_t(qemu_plugin_tb_vaddr(tb))));
    bool prev_tl = false;
    tlstat::KnownRegs known;
    for (size_t i = 0; i < n; i++) {
        qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint32_t w = 0;
        const size_t size = qemu_plugin_insn_size(insn);
        const bool is32 = size == 4 && qemu_plugin_insn_data(insn, &w, 4) == 4;
        if (size == 2 && qemu_plugin_insn_data(insn, &w, 2) != 2) {
            w = 0;                         /* unknown: c.unimp, forgets nothing it names */
        }
        const tlstat::KnownRegs before = known;
        known.step(w, is32 ? 4 : 2);
        if (!is32 && size != 2) {
            known = tlstat::KnownRegs{};
        }
        if (prev_tl) {
            /* Reaching the next instruction of the block: the TL instruction completed. */
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_STORE_U64,
                                                                pending_entry, 0);
        }
        prev_tl = is32 && (w & XTL_OPCODE_MASK) == tl::kCustom2;
        if (!is32) {
            continue;
        }
        if (!system_mode && w == kEcall) {
            /*
             * rt_sigreturn restores the TL CSRs from the signal frame; the
             * syscall callback cannot set the flags (see slot_of).
             */
            for (const qemu_plugin_u64 &changed : changed_entry) {
                qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_STORE_U64,
                                                                    changed, 1);
            }
        }
        const int csr = tl::csr_write_index(w);
        if (csr >= 0) {
            /* csrrw rs1 / csrrwi zimm: the whole value, if the translator can see it */
            const unsigned f3 = (w >> 12) & 7, rs1 = (w >> 15) & 31;
            uint64_t value = 0;
            const bool seen = csr != tl::TINIT &&
                              (f3 == 5 ? (value = rs1, true) : f3 == 1 && before.value(rs1, &value));
            if (seen) {
                qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                    insn, QEMU_PLUGIN_INLINE_STORE_U64, known_value_entry[csr],
                    value & tl::kCsrWritable[csr]);
            }
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_STORE_U64,
                                                                known_fresh_entry[csr], seen ? 1 : 0);
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                                csr_write_entry[csr], 1);
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                                any_csr_write_entry, 1);
            for (int k = 0; k < kNumSiteKinds; k++) {
                if (kChangedBy[k] & (1u << csr)) {
                    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_STORE_U64,
                                                                        changed_entry[k], 1);
                }
            }
        }
        if (prev_tl) {
            const uint64_t pc = qemu_plugin_insn_vaddr(insn);
            Site *site;
            qemu_plugin_scoreboard *board;
            {
                std::lock_guard<std::mutex> g(mtx);
                auto &slot = sites[{pc, w}];
                if (!slot) {
                    slot.reset(new Site{pc, w, tl::decode(w), sites.size() - 1});
                }
                site = slot.get();
                board = board_of_new_site(*site);
            }
            if (!board) {
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_tl_exec, QEMU_PLUGIN_CB_R_REGS, site);
                continue;
            }
            const size_t at = offsetof(SiteBoard, site) + site->id % kSitesPerBoard * sizeof(SiteRuns);
            const qemu_plugin_u64 runs{board, at + offsetof(SiteRuns, runs)};
            const qemu_plugin_u64 decided{board, at + offsetof(SiteRuns, decided)};
            static constexpr qemu_plugin_vcpu_udata_cb_t kOnCsrsChanged[kNumSiteKinds] = {
                on_tl_csrs_changed<kOtherSite>, on_tl_csrs_changed<kLoadSite>, on_tl_csrs_changed<kStoreSite>};
            const SiteKind kind = kind_of(site->insn.form);
            qemu_plugin_register_vcpu_insn_exec_cond_cb(insn, kOnCsrsChanged[kind], QEMU_PLUGIN_CB_R_REGS,
                                                        QEMU_PLUGIN_COND_NE, changed_entry[kind], 0, site);
            qemu_plugin_register_vcpu_insn_exec_cond_cb(insn, on_tl_decide, QEMU_PLUGIN_CB_R_REGS,
                                                        QEMU_PLUGIN_COND_EQ, decided, 0, site);
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64, runs, 1);
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_STORE_U64,
                                                                pending_entry, uintptr_t(site));
        }
    }
}

/* ---- report ---- */

Totals gather()
{
    Totals t;
    t.guest_insns = qemu_plugin_u64_sum(insns_entry);
    for (int c = 0; c < tl::kNumCsrs; c++) {
        t.cells[tl::kCellCsr + c] = qemu_plugin_u64_sum(csr_write_entry[c]);
    }
    for (auto &vp : all_vcpus) {
        Vcpu &v = *vp;
        for (int f = 0; f < tl::F_NUM; f++) {
            for (int y = 0; y <= tl::kNumTypes; y++) {
                FormStat &a = t.forms[f][y];
                const FormStat &b = v.forms[f][y];
                a.count += b.count;
                a.bytes += b.bytes;
                a.traps += b.traps;
                for (int e = 0; e < 4; e++) {
                    a.engines[e] += b.engines[e];
                }
                t.tl_insns += b.count;
                t.tl_bytes += b.bytes;
                t.traps += b.traps;
            }
        }
        for (int c = 0; c < tl::kCellCsr; c++) {
            t.cells[c] += v.cells[c];
        }
        for (int c = tl::kCellTrap; c < tl::kNumCells; c++) {
            t.cells[c] += v.cells[c];
        }
        for (const SiteState &st : v.sites) {
            const PcStat &ps = st.stat;
            if (!ps.site) {
                continue;
            }
            PcStat &a = t.pcs.try_emplace(ps.site->pc, PcStat{ps.site}).first->second;
            a.count += ps.count;
            a.bytes += ps.bytes;
            a.traps += ps.traps;
        }
    }
    return t;
}

void on_exit(qemu_plugin_id_t, void *)
{
    for (unsigned i = 0; i < unsigned(qemu_plugin_num_vcpus()); i++) {
        Slot *s = slot_of(i);
        Vcpu *vp = vcpu_of(i);
        if (!vp) {
            continue;
        }
        Vcpu &v = *vp;
        /* An instruction still pending at exit did not complete: the guest died of its trap. */
        if (s->pending && !system_mode && load_pending(v, *s)) {
            count_completed(v, -1);
            count_trapped(v, trap_kind_signal(v, 0));
        }
        s->pending = 0;
        flush_all_sites(v, i);
    }
    Totals t = gather();
    ElfSymbols syms;
    if (!system_mode && !binary_path.empty()) {
        syms.load(binary_path, load_start);
    }
    tlstat::ReportInfo info;
    info.json = opts.json;
    info.top = opts.top;
    info.system_mode = system_mode;
    info.binary_path = binary_path;
    const std::string text = tlstat::report(t, syms, info);
    if (opts.outfile.empty()) {
        qemu_plugin_outs(text.c_str());     /* QEMU's log: -d plugin [-D FILE] */
        return;
    }
    std::string path;
    for (size_t i = 0; i < opts.outfile.size(); i++) {
        if (opts.outfile[i] == '%' && i + 1 < opts.outfile.size() && opts.outfile[i + 1] == 'p') {
            path += std::to_string(getpid());
            i++;
        } else {
            path += opts.outfile[i];
        }
    }
    FILE *f = fopen(path.c_str(), "w");
    if (!f || fputs(text.c_str(), f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "error: tlstat: cannot write the report to %s: %s\n", path.c_str(), strerror(errno));
    }
}

/*
 * qemu-riscv64 runs a guest fork() as a host fork(): the child starts with a
 * copy of the parent's counters.  Each process's report counts what that
 * process executed, so the child starts from zero (the reports of a process
 * tree then add up to what ran).  No vCPU translates or starts while the
 * lock is held across the fork.
 */
void before_fork() { mtx.lock(); }
void after_fork_in_parent() { mtx.unlock(); }
void after_fork_in_child()
{
    for (unsigned i = 0; i < unsigned(qemu_plugin_num_vcpus()); i++) {
        if (Vcpu *v = vcpu_of(i)) {
            flush_all_sites(*v, i);            /* the parent's runs, dropped below */
        }
    }
    for (auto &vp : all_vcpus) {
        Vcpu &v = *vp;
        for (auto &row : v.forms) {
            for (FormStat &f : row) {
                f = FormStat{};
            }
        }
        std::fill(std::begin(v.cells), std::end(v.cells), 0);
        for (SiteState &st : v.sites) {
            PcStat &ps = st.stat;
            ps.count = ps.bytes = ps.traps = 0;
        }
        std::fill(std::begin(v.seen_writes), std::end(v.seen_writes), 0);
        v.seen_any_writes = 0;
        v.reload = true;
    }
    for (unsigned i = 0; i < unsigned(qemu_plugin_num_vcpus()); i++) {
        Slot *sl = slot_of(i);
        sl->insns = 0;
        std::fill(std::begin(sl->csr_writes), std::end(sl->csr_writes), 0);
        sl->any_csr_writes = 0;
        std::fill(std::begin(sl->known_fresh), std::end(sl->known_fresh), 0);
    }
    mtx.unlock();
}

/*
 * A bad option: one line on stderr, and qemu_plugin_install() returns an
 * error, which QEMU reports before it exits (as its contrib plugins do).
 */
int bad_option(const std::string &why)
{
    fprintf(stderr, "error: tlstat: %s (options: outfile=PATH, format=text|json, top=N)\n", why.c_str());
    return -1;
}

} // namespace

extern "C" QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                      int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const std::string a = argv[i];
        const size_t eq = a.find('=');
        const std::string k = a.substr(0, eq), val = eq == std::string::npos ? "" : a.substr(eq + 1);
        if (eq == std::string::npos) {
            return bad_option("option '" + a + "' has no value");
        } else if (k == "outfile") {
            if (val.empty()) {
                return bad_option("outfile= needs a path");
            }
            opts.outfile = val;
        } else if (k == "format") {
            if (val != "text" && val != "json") {
                return bad_option("format must be text or json, not '" + val + "'");
            }
            opts.json = val == "json";
        } else if (k == "top") {
            char *end = nullptr;
            const unsigned long n = strtoul(val.c_str(), &end, 10);
            if (val.empty() || *end || n < 1 || n > 100000 || val[0] == '-') {
                return bad_option("top must be a number from 1 to 100000, not '" + val + "'");
            }
            opts.top = unsigned(n);
        } else {
            return bad_option("unknown option '" + k + "'");
        }
    }
    if (strcmp(info->target_name, "riscv64") != 0 && strcmp(info->target_name, "riscv32") != 0) {
        return bad_option(std::string("target ") + info->target_name + " is not RISC-V; tlstat counts RISC-V TL instructions");
    }
    system_mode = info->system_emulation;
    slots = qemu_plugin_scoreboard_new(sizeof(Slot));
    insns_entry = qemu_plugin_scoreboard_u64_in_struct(slots, Slot, insns);
    pending_entry = qemu_plugin_scoreboard_u64_in_struct(slots, Slot, pending);
    any_csr_write_entry = qemu_plugin_scoreboard_u64_in_struct(slots, Slot, any_csr_writes);
    for (int k = 0; k < kNumSiteKinds; k++) {
        changed_entry[k] = {slots, offsetof(Slot, changed) + k * sizeof(uint64_t)};
    }
    for (int c = 0; c < tl::kNumCsrs; c++) {
        csr_write_entry[c] = {slots, offsetof(Slot, csr_writes) + c * sizeof(uint64_t)};
        known_value_entry[c] = {slots, offsetof(Slot, known_value) + c * sizeof(uint64_t)};
        known_fresh_entry[c] = {slots, offsetof(Slot, known_fresh) + c * sizeof(uint64_t)};
    }
    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
    if (!system_mode) {
        qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
        pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    }
    qemu_plugin_register_flush_cb(id, on_flush);
    qemu_plugin_register_atexit_cb(id, on_exit, nullptr);
    return 0;
}
