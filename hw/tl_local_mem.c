/*
 * L1M and L0M local memories on the RISC-V virt machine.  They are plain RAM
 * (so TL loads/stores take the host-pointer fast path and the contents
 * migrate with the machine) at fixed addresses in the free gap after the
 * platform bus, described in the device tree as "tl-qemu,l1m"/"tl-qemu,l0m".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "system/device_tree.h"
#include "hw/boards.h"
#include "hw/riscv/virt.h"

typedef struct TLLocalMemInfo {
    const char *prop;
    const char *name;        /* memory region and device tree node */
    const char *compatible;
    hwaddr base;
} TLLocalMemInfo;

static const TLLocalMemInfo tl_l1m_info = { "tl-l1m-size", "tl-l1m", "tl-qemu,l1m", TL_L1M_BASE };
static const TLLocalMemInfo tl_l0m_info = { "tl-l0m-size", "tl-l0m", "tl-qemu,l0m", TL_L0M_BASE };

static uint64_t *tl_local_mem_size(Object *obj, const TLLocalMemInfo *info)
{
    TLLocalMem *m = &RISCV_VIRT_MACHINE(obj)->tl_mem;

    return info == &tl_l1m_info ? &m->l1m_size : &m->l0m_size;
}

static void tl_local_mem_get(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    visit_type_size(v, name, tl_local_mem_size(obj, opaque), errp);
}

static void tl_local_mem_set(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    uint64_t size;

    if (!visit_type_size(v, name, &size, errp)) {
        return;
    }
    if (size != 0 && (size % TL_LOCAL_MEM_ALIGN || size > TL_LOCAL_MEM_MAX)) {
        g_autofree char *got = size_to_str(size);

        error_setg(errp, "%s must be 0 or a multiple of 4 KiB up to 16 MiB (got %s)",
                   name, got);
        return;
    }
    *tl_local_mem_size(obj, opaque) = size;
}

void tl_local_mem_class_init(ObjectClass *oc)
{
    const TLLocalMemInfo *infos[] = { &tl_l1m_info, &tl_l0m_info };

    for (size_t i = 0; i < ARRAY_SIZE(infos); i++) {
        g_autofree char *desc = g_strdup_printf(
            "Size of the TensorLoad %s local memory at 0x%" HWADDR_PRIx
            " (0 = absent, multiple of 4 KiB, at most 16 MiB)",
            i == 0 ? "L1M" : "L0M", infos[i]->base);

        object_class_property_add(oc, infos[i]->prop, "size", tl_local_mem_get,
                                  tl_local_mem_set, NULL, (void *)infos[i]);
        object_class_property_set_description(oc, infos[i]->prop, desc);
    }
}

/*
 * The regions have no device owner, so they are registered for migration
 * under their global names "tl-l1m" and "tl-l0m".
 */
void tl_local_mem_map(RISCVVirtState *s, MemoryRegion *sysmem)
{
    TLLocalMem *m = &s->tl_mem;

    if (m->l1m_size) {
        memory_region_init_ram(&m->l1m, NULL, tl_l1m_info.name, m->l1m_size,
                               &error_fatal);
        memory_region_add_subregion(sysmem, tl_l1m_info.base, &m->l1m);
    }
    if (m->l0m_size) {
        memory_region_init_ram(&m->l0m, NULL, tl_l0m_info.name, m->l0m_size,
                               &error_fatal);
        memory_region_add_subregion(sysmem, tl_l0m_info.base, &m->l0m);
    }
}

static void tl_local_mem_fdt_node(RISCVVirtState *s, const TLLocalMemInfo *info,
                                  uint64_t size)
{
    void *fdt = MACHINE(s)->fdt;
    g_autofree char *node = g_strdup_printf("/soc/%s@%" HWADDR_PRIx, info->name,
                                            info->base);

    if (!size) {
        return;
    }
    qemu_fdt_add_subnode(fdt, node);
    qemu_fdt_setprop_string(fdt, node, "compatible", info->compatible);
    qemu_fdt_setprop_sized_cells(fdt, node, "reg", 2, info->base, 2, size);
}

void tl_local_mem_fdt(RISCVVirtState *s)
{
    tl_local_mem_fdt_node(s, &tl_l1m_info, s->tl_mem.l1m_size);
    tl_local_mem_fdt_node(s, &tl_l0m_info, s->tl_mem.l0m_size);
}
