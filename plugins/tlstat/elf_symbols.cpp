/*
 * Reads the function symbols of an ELF64 little-endian file (the guest
 * program) from its .symtab, or .dynsym when stripped, and demangles C++
 * names.  Only the standard ELF layout is used, no libelf.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "elf_symbols.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <elf.h>
#include <fstream>
#include <iterator>

namespace {

std::string demangle(const char *name)
{
    int status = 0;
    char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status != 0 || !d) {
        return name;
    }
    std::string out(d);
    std::free(d);
    return out;
}

} // namespace

bool ElfSymbols::load(const std::string &path, uint64_t load_start)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        error_ = "cannot open " + path;
        return false;
    }
    std::vector<char> img((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto in = [&](uint64_t off, uint64_t len) { return off <= img.size() && len <= img.size() - off; };
    if (!in(0, sizeof(Elf64_Ehdr)) || std::memcmp(img.data(), ELFMAG, SELFMAG) != 0 ||
        img[EI_CLASS] != ELFCLASS64 || img[EI_DATA] != ELFDATA2LSB) {
        error_ = path + " is not a little-endian ELF64 file";
        return false;
    }
    Elf64_Ehdr eh;
    std::memcpy(&eh, img.data(), sizeof eh);
    /* A position-independent program is loaded at start_code, not at its link address. */
    uint64_t bias = 0;
    if (eh.e_type == ET_DYN && in(eh.e_phoff, uint64_t(eh.e_phnum) * sizeof(Elf64_Phdr))) {
        uint64_t lowest = UINT64_MAX;
        for (unsigned i = 0; i < eh.e_phnum; i++) {
            Elf64_Phdr ph;
            std::memcpy(&ph, img.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
            if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
                lowest = std::min(lowest, ph.p_vaddr);
            }
        }
        if (lowest != UINT64_MAX && load_start >= lowest) {
            bias = load_start - lowest;
        }
    }
    if (!in(eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr))) {
        error_ = path + " has no readable section headers";
        return false;
    }
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    std::memcpy(sh.data(), img.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
    for (unsigned want : {unsigned(SHT_SYMTAB), unsigned(SHT_DYNSYM)}) {
        for (const Elf64_Shdr &s : sh) {
            if (s.sh_type != want || s.sh_link >= sh.size() || !in(s.sh_offset, s.sh_size)) {
                continue;
            }
            const Elf64_Shdr &str = sh[s.sh_link];
            if (!in(str.sh_offset, str.sh_size)) {
                continue;
            }
            for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym)) {
                Elf64_Sym sym;
                std::memcpy(&sym, img.data() + s.sh_offset + off, sizeof sym);
                if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0 ||
                    sym.st_name >= str.sh_size) {
                    continue;
                }
                const char *nm = img.data() + str.sh_offset + sym.st_name;
                if (!memchr(nm, 0, str.sh_size - sym.st_name)) {
                    continue;
                }
                funcs_.push_back({sym.st_value + bias, sym.st_size, demangle(nm)});
            }
        }
        if (!funcs_.empty()) {
            break;
        }
    }
    std::sort(funcs_.begin(), funcs_.end(), [](const Func &a, const Func &b) {
        return a.start < b.start || (a.start == b.start && a.size > b.size);
    });
    if (funcs_.empty()) {
        error_ = path + " has no function symbols";
    }
    return !funcs_.empty();
}

std::string ElfSymbols::name(uint64_t addr, bool with_offset) const
{
    auto it = std::upper_bound(funcs_.begin(), funcs_.end(), addr,
                               [](uint64_t a, const Func &f) { return a < f.start; });
    /* The closest start at or below addr whose extent holds addr. */
    while (it != funcs_.begin()) {
        --it;
        if (addr < it->start + std::max<uint64_t>(it->size, 1)) {
            if (!with_offset || addr == it->start) {
                return it->name;
            }
            char off[32];
            std::snprintf(off, sizeof off, "+0x%llx", (unsigned long long)(addr - it->start));
            return it->name + off;
        }
        if (it->start + it->size < addr && it->size != 0) {
            break;
        }
    }
    return "";
}
