/*
 * tlstat's report: the counters of every vCPU summed (tlstat.cpp) as text
 * for people or as JSON for tlstat-report.py and CI (the schema is
 * tlstat.schema.json): the mix per mnemonic and type, hot PCs and
 * functions, and the coverage matrix with its never-hit cells.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tlstat.h"

namespace tlstat {

namespace {

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...)
{
    va_list ap, again;
    va_start(ap, f);
    va_copy(again, ap);
    const int n = vsnprintf(nullptr, 0, f, ap);
    va_end(ap);
    std::string b(n > 0 ? size_t(n) : 0, '\0');
    if (n > 0) {
        vsnprintf(&b[0], b.size() + 1, f, again);   /* the terminating NUL goes where std::string keeps one */
    }
    va_end(again);
    return b;
}

std::string json_str(const std::string &s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if (uint8_t(c) < 0x20) {
            o += fmt("\\u%04x", c);
        } else {
            o += c;
        }
    }
    return o + "\"";
}

struct Hot {
    std::string name;
    uint64_t pc = 0, count = 0, bytes = 0, traps = 0;
};

} // namespace

std::string report(const Totals &t, const ElfSymbols &syms, const ReportInfo &info)
{
    const double share_base = t.guest_insns ? double(t.guest_insns) : 1.0;
    /* mix rows, largest count first */
    struct Row { int form, type; const FormStat *s; };
    std::vector<Row> mix;
    for (int f = 0; f < tl::F_NUM; f++) {
        for (int y = 0; y <= tl::kNumTypes; y++) {
            const FormStat &s = t.forms[f][y];
            if (s.count || s.traps) {
                mix.push_back({f, y, &s});
            }
        }
    }
    std::stable_sort(mix.begin(), mix.end(), [](const Row &a, const Row &b) { return a.s->count > b.s->count; });
    /* hot spots */
    std::vector<Hot> pcs;
    std::map<std::string, Hot> funcs;
    for (auto &kv : t.pcs) {
        Hot h{syms.name(kv.first, true), kv.first, kv.second.count, kv.second.bytes, kv.second.traps};
        pcs.push_back(h);
        if (!syms.empty()) {
            std::string fn = syms.name(kv.first, false);
            Hot &fh = funcs[fn.empty() ? "?" : fn];
            fh.name = fn.empty() ? "?" : fn;
            fh.count += h.count;
            fh.bytes += h.bytes;
            fh.traps += h.traps;
        }
    }
    auto by_count = [](const Hot &a, const Hot &b) {
        return a.count != b.count ? a.count > b.count : a.pc < b.pc;
    };
    std::sort(pcs.begin(), pcs.end(), by_count);
    std::vector<Hot> fns;
    for (auto &kv : funcs) {
        fns.push_back(kv.second);
    }
    std::stable_sort(fns.begin(), fns.end(), [](const Hot &a, const Hot &b) { return a.count > b.count; });
    if (pcs.size() > info.top) pcs.resize(info.top);
    if (fns.size() > info.top) fns.resize(info.top);
    int hit = 0;
    std::vector<int> never;
    for (int c = 0; c < tl::kNumCells; c++) {
        if (t.cells[c]) hit++; else never.push_back(c);
    }

    std::string o;
    if (info.json) {
        o += "{\n  \"tool\": \"tlstat\",\n  \"version\": 1,\n";
        o += fmt("  \"mode\": \"%s\",\n", info.system_mode ? "system" : "user");
        o += "  \"binary\": " + json_str(info.binary_path) + ",\n";
        o += fmt("  \"guest_insns\": %" PRIu64 ",\n  \"tl_insns\": %" PRIu64 ",\n  \"tl_bytes\": %" PRIu64
                 ",\n  \"traps\": %" PRIu64 ",\n", t.guest_insns, t.tl_insns, t.tl_bytes, t.traps);
        o += "  \"mix\": [";
        for (size_t i = 0; i < mix.size(); i++) {
            const FormStat &s = *mix[i].s;
            o += fmt("%s\n    {\"mnemonic\": \"%s\", \"type\": \"%s\", \"count\": %" PRIu64 ", \"bytes\": %" PRIu64
                     ", \"traps\": %" PRIu64 ", \"share\": %.6f, \"engines\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64
                     ", %" PRIu64 "]}",
                     i ? "," : "", tl::form_name(mix[i].form), tl::kTypeNames[mix[i].type], s.count, s.bytes,
                     s.traps, s.count / share_base, s.engines[0], s.engines[1], s.engines[2], s.engines[3]);
        }
        o += "\n  ],\n  \"hot_pcs\": [";
        for (size_t i = 0; i < pcs.size(); i++) {
            o += fmt("%s\n    {\"pc\": \"0x%" PRIx64 "\", \"count\": %" PRIu64 ", \"bytes\": %" PRIu64
                     ", \"traps\": %" PRIu64 ", \"function\": ",
                     i ? "," : "", pcs[i].pc, pcs[i].count, pcs[i].bytes, pcs[i].traps);
            o += (pcs[i].name.empty() ? "null" : json_str(pcs[i].name)) + "}";
        }
        o += "\n  ],\n  \"hot_functions\": [";
        for (size_t i = 0; i < fns.size(); i++) {
            o += fmt("%s\n    {\"function\": ", i ? "," : "") + json_str(fns[i].name) +
                 fmt(", \"count\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"traps\": %" PRIu64 "}",
                     fns[i].count, fns[i].bytes, fns[i].traps);
        }
        o += fmt("\n  ],\n  \"coverage\": {\n    \"total\": %d,\n    \"hit\": %d,\n    \"cells\": [", tl::kNumCells, hit);
        for (int c = 0; c < tl::kNumCells; c++) {
            o += fmt("%s\n      {\"cell\": ", c ? "," : "") + json_str(tl::cell_name(c)) +
                 fmt(", \"hits\": %" PRIu64 "}", t.cells[c]);
        }
        o += "\n    ],\n    \"never_hit\": [";
        for (size_t i = 0; i < never.size(); i++) {
            o += (i ? ", " : "") + json_str(tl::cell_name(never[i]));
        }
        o += "]\n  }\n}\n";
        return o;
    }

    o += fmt("tlstat: %s mode, %s\n", info.system_mode ? "system" : "user",
             info.binary_path.empty() ? "(no binary path)" : info.binary_path.c_str());
    o += fmt("guest instructions %" PRIu64 ", TL instructions %" PRIu64 " (%.2f%%), bytes moved %" PRIu64
             ", TL traps %" PRIu64 "\n",
             t.guest_insns, t.tl_insns, 100.0 * t.tl_insns / share_base, t.tl_bytes, t.traps);
    o += "\nmix (completed executions; bytes = memory bytes loaded or stored; engines = EngineID 0/1/2/3)\n";
    o += fmt("  %-16s %-6s %12s %14s %8s %8s  %s\n", "mnemonic", "type", "count", "bytes", "share", "traps", "engines");
    for (const Row &r : mix) {
        const FormStat &s = *r.s;
        o += fmt("  %-16s %-6s %12" PRIu64 " %14" PRIu64 " %7.3f%% %8" PRIu64 "  %" PRIu64 "/%" PRIu64 "/%" PRIu64
                 "/%" PRIu64 "\n",
                 tl::form_name(r.form), tl::kTypeNames[r.type], s.count, s.bytes, 100.0 * s.count / share_base,
                 s.traps, s.engines[0], s.engines[1], s.engines[2], s.engines[3]);
    }
    o += fmt("\nhot spots: top %u PCs\n", info.top);
    o += fmt("  %-18s %-16s %12s %14s %8s  %s\n", "pc", "instruction", "count", "bytes", "traps", "where");
    for (const Hot &h : pcs) {
        o += fmt("  0x%016" PRIx64 " %-16s %12" PRIu64 " %14" PRIu64 " %8" PRIu64 "  %s\n", h.pc,
                 tl::form_name(t.pcs.at(h.pc).site->insn.form), h.count, h.bytes, h.traps,
                 h.name.empty() ? "" : h.name.c_str());
    }
    if (!fns.empty()) {
        o += fmt("\nhot spots: top %u functions\n", info.top);
        o += fmt("  %12s %14s %8s  %s\n", "count", "bytes", "traps", "function");
        for (const Hot &h : fns) {
            o += fmt("  %12" PRIu64 " %14" PRIu64 " %8" PRIu64 "  %s\n", h.count, h.bytes, h.traps, h.name.c_str());
        }
    }
    struct Group { const char *name; int lo, hi; } groups[] = {
        {"memory forms x type x stride x width", 0, tl::kMemCells},
        {"other forms x type", tl::kMemCells, tl::kCellReserved},
        {"reserved encodings R1-R10", tl::kCellReserved, tl::kCellCsr},
        {"TL CSRs written", tl::kCellCsr, tl::kCellTrap},
        {"trap causes", tl::kCellTrap, tl::kNumCells},
    };
    o += fmt("\ncoverage: %d of %d cells hit (%.1f%%)\n", hit, tl::kNumCells, 100.0 * hit / tl::kNumCells);
    for (const Group &g : groups) {
        int h = 0;
        for (int c = g.lo; c < g.hi; c++) h += t.cells[c] != 0;
        o += fmt("  %-40s %4d of %4d\n", g.name, h, g.hi - g.lo);
    }
    o += fmt("never hit (%zu cells; a form or form+type none of whose cells was hit is one line):\n",
             never.size());
    std::vector<int> form_hits(tl::F_NUM_VALID, 0), memtype_hits(4 * tl::kNumTypes, 0);
    for (int c = 0; c < tl::kMemCells; c++) {
        form_hits[(c >> 2) / tl::kNumTypes] += t.cells[c] != 0;
        memtype_hits[c >> 2] += t.cells[c] != 0;
    }
    for (int c = tl::kMemCells; c < tl::kCellReserved; c++) {
        form_hits[4 + (c - tl::kMemCells) / tl::kNumTypes] += t.cells[c] != 0;
    }
    std::string last;
    for (int c : never) {
        std::string line = tl::cell_name(c);
        int f = -1;
        if (c < tl::kMemCells) {
            f = (c >> 2) / tl::kNumTypes;
            if (form_hits[f] && !memtype_hits[c >> 2]) {
                line = std::string(tl::form_name(f)) + " " + tl::kTypeNames[(c >> 2) % tl::kNumTypes] +
                       " (every stride and width)";
            }
        } else if (c < tl::kCellReserved) {
            f = 4 + (c - tl::kMemCells) / tl::kNumTypes;
        }
        if (f >= 0 && !form_hits[f]) {
            line = std::string(tl::form_name(f)) + " (every type" + (f < 4 ? ", stride and width)" : ")");
        }
        if (line != last) {
            o += "  " + line + "\n";
        }
        last = line;
    }
    return o;
}


} // namespace tlstat
