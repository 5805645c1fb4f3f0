/*
 * tlstat: what the instrumentation (tlstat.cpp) and the report (report.cpp)
 * share: the counters of one TL instruction site and of each form, their
 * totals over every vCPU, and what the report is asked for.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TLSTAT_TLSTAT_H
#define TLSTAT_TLSTAT_H

#include <cstdint>
#include <string>
#include <unordered_map>

#include "elf_symbols.h"
#include "tl_isa.h"

namespace tlstat {

/* One translated TL instruction (shared by every vCPU, never freed). */
struct Site {
    uint64_t pc;
    uint32_t word;
    tl::Insn insn;
    size_t id;                             /* index into each vCPU's per-site counters */
};

struct FormStat {
    uint64_t count = 0, bytes = 0, traps = 0;
    uint64_t engines[4] = {0, 0, 0, 0};
};

struct PcStat {
    const Site *site;
    uint64_t count = 0, bytes = 0, traps = 0;
};

struct Totals {
    uint64_t guest_insns = 0, tl_insns = 0, tl_bytes = 0, traps = 0;
    FormStat forms[tl::F_NUM][tl::kNumTypes + 1];
    uint64_t cells[tl::kNumCells] = {};
    std::unordered_map<uint64_t, PcStat> pcs;
};

/* What the report says besides the counts. */
struct ReportInfo {
    bool json = false;
    unsigned top = 10;                     /* hot PCs and functions listed */
    bool system_mode = false;
    std::string binary_path;
};

/* The report as text or JSON (plugins/tlstat/tlstat.schema.json). */
std::string report(const Totals &t, const ElfSymbols &syms, const ReportInfo &info);

} // namespace tlstat

#endif
