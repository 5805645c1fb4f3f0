/*
 * L1M and L0M, the TensorLoad local memories named by the spec, as RAM
 * regions of the RISC-V virt machine: -M virt,tl-l1m-size=256K,tl-l0m-size=256K.
 * See docs/system.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_RISCV_TL_LOCAL_MEM_H
#define HW_RISCV_TL_LOCAL_MEM_H

#include "exec/memory.h"

#define TL_L1M_BASE 0x08000000ULL
#define TL_L0M_BASE 0x09000000ULL
#define TL_LOCAL_MEM_ALIGN (4 * 1024)
#define TL_LOCAL_MEM_MAX (16 * 1024 * 1024)

typedef struct TLLocalMem {
    uint64_t l1m_size;   /* 0: absent */
    uint64_t l0m_size;
    MemoryRegion l1m;
    MemoryRegion l0m;
} TLLocalMem;

typedef struct RISCVVirtState RISCVVirtState;

void tl_local_mem_class_init(ObjectClass *oc);
void tl_local_mem_map(RISCVVirtState *s, MemoryRegion *sysmem);
void tl_local_mem_fdt(RISCVVirtState *s);

#endif
