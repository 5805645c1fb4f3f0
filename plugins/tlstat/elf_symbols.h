/*
 * Function symbols of the guest ELF (qemu-riscv64), to name hot spots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TLSTAT_ELF_SYMBOLS_H
#define TLSTAT_ELF_SYMBOLS_H

#include <cstdint>
#include <string>
#include <vector>

class ElfSymbols {
public:
    /* Reads the symbol table of path; load_bias is added to every address. */
    bool load(const std::string &path, uint64_t load_start);
    /* "function+0x12" (demangled) for a guest address, or "" when unknown. */
    std::string name(uint64_t addr, bool with_offset) const;
    bool empty() const { return funcs_.empty(); }
    const std::string &error() const { return error_; }

private:
    struct Func {
        uint64_t start, size;
        std::string name;
    };
    std::vector<Func> funcs_;
    std::string error_;
};

#endif
