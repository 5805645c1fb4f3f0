/*
 * Tiny M-mode runtime for the bare-metal TL firmware tests: UART output,
 * TAP-style checks, trap recording and skipping, privilege switching helpers,
 * PMP and Sv39 helpers.  See rt.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>

#include "rt.h"

#define RT_ECALL_MAGIC 0x544C

extern char __strap_stack_top[], strap_vector[];

/* ---- stdout and stderr: the UART ---- */
static int uart_put(char c, FILE *f)
{
    (void)f;
    virt_putc(c);
    return (unsigned char)c;
}

static FILE uart_file = FDEV_SETUP_STREAM(uart_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &uart_file;
FILE *const stderr = &uart_file;

void finish(int failed)
{
    virt_exit(failed > 255 ? 255 : (uint32_t)failed);
}

/* ---- checks ---- */
int checks_run, checks_failed;

void check(int ok, const char *fmt, ...)
{
    va_list ap;

    checks_run++;
    if (!ok) {
        checks_failed++;
    }
    printf("%s - ", ok ? "ok" : "not ok");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

void diag(const char *fmt, ...)
{
    va_list ap;

    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

int mem_equal(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            diag("%s: first difference at byte %lu: got 0x%02x, want 0x%02x",
                 what, (unsigned long)i, got[i], want[i]);
            return 0;
        }
    }
    return 1;
}

const char *mode_name(unsigned long mode)
{
    switch (mode) {
    case MODE_U: return "U-mode";
    case MODE_S: return "S-mode";
    case MODE_VU: return "VU-mode";
    case MODE_VS: return "VS-mode";
    default: return "M-mode";
    }
}

/* ---- traps ---- */
struct trap_log mtraps, straps;
trap_hook m_fixup, s_fixup;
long lower_result;

static unsigned insn_len(uint64_t pc)
{
    uint16_t h = *(volatile uint16_t *)pc;

    return (h & 3) == 3 ? 4 : 2;
}

static int fetch_or_fatal(uint64_t cause)
{
    /* misaligned fetch, fetch access, breakpoint, ecall, fetch page faults */
    return cause == 0 || cause == 1 || cause == 3 || (cause >= 8 && cause <= 11) ||
           cause == 12 || cause == 20;
}

/* ---- instruction trampoline ---- */
static uint32_t tramp[4] __attribute__((aligned(16)));

/* Only the instruction in the trampoline may trap (and is skipped). */
static int expected_pc(uint64_t pc)
{
    return pc == (uint64_t)(uintptr_t)&tramp[0];
}

int m_trap_c(struct frame *f)
{
    uint64_t cause = f->cause;
    uint64_t mpp = (f->status >> MSTATUS_MPP_SHIFT) & 3;
    uint64_t mpv = (f->status >> 39) & 1;

    if ((int64_t)cause < 0) {
        printf("# unexpected interrupt mcause=%#lx mepc=%#lx\n", (unsigned long)cause,
               (unsigned long)f->epc);
        finish(200);
    }
    if ((cause == CAUSE_ECALL_U || cause == CAUSE_ECALL_S || cause == CAUSE_ECALL_VS) &&
        f->x[17] == RT_ECALL_MAGIC) {
        lower_result = (long)f->x[10];
        return 1;
    }
    mtraps.count++;
    mtraps.cause = cause;
    mtraps.tval = f->tval;
    mtraps.epc = f->epc;
    mtraps.priv = mpp;
    mtraps.virt = mpv;
    if (m_fixup && m_fixup(f)) {
        return 0;
    }
    if (fetch_or_fatal(cause) || !expected_pc(f->epc)) {
        if (mpp != PRV_M) {
            printf("# unexpected trap, abandoning %s code: mcause=%lu mtval=%#lx mepc=%#lx\n",
                   mpv ? "virtualized" : mpp == PRV_S ? "S-mode" : "U-mode",
                   (unsigned long)cause, (unsigned long)f->tval, (unsigned long)f->epc);
            lower_result = RT_ABORTED | (long)cause;
            return 1;
        }
        printf("# unexpected M-mode trap mcause=%lu mtval=%#lx mepc=%#lx\n", (unsigned long)cause,
               (unsigned long)f->tval, (unsigned long)f->epc);
        finish(201);
    }
    f->epc += insn_len(f->epc);
    return 0;
}

void s_trap_c(struct frame *f)
{
    uint64_t cause = f->cause;

    straps.count++;
    straps.cause = cause;
    straps.tval = f->tval;
    straps.epc = f->epc;
    straps.priv = (f->status >> 8) & 1;
    straps.virt = 0;
    if (s_fixup && s_fixup(f)) {
        return;
    }
    if ((int64_t)cause < 0 || fetch_or_fatal(cause) || !expected_pc(f->epc)) {
        printf("# unexpected S-mode trap scause=%#lx stval=%#lx sepc=%#lx\n", (unsigned long)cause,
               (unsigned long)f->tval, (unsigned long)f->epc);
        finish(202);
    }
    f->epc += insn_len(f->epc);
}

void exec_word(uint32_t word, uint64_t t0, uint64_t t1)
{
    tramp[0] = word;
    tramp[1] = 0x00008067;          /* ret */
    __asm__ volatile("fence.i" : : : "memory");
    register uint64_t r_t0 __asm__("t0") = t0;
    register uint64_t r_t1 __asm__("t1") = t1;
    __asm__ volatile("jalr ra, 0(%0)" : : "r"(tramp), "r"(r_t0), "r"(r_t1) : "ra", "memory");
}

int expect_in_s;

int expect_trap(uint32_t word, uint64_t t0, uint64_t t1, uint64_t cause, uint64_t tval)
{
    struct trap_log *l = expect_in_s ? &straps : &mtraps;
    uint64_t before_m = mtraps.count, before_s = straps.count;
    uint64_t n;

    exec_word(word, t0, t1);
    n = (mtraps.count - before_m) + (straps.count - before_s);
    if (n == 1 && (l == &mtraps ? mtraps.count - before_m : straps.count - before_s) == 1 &&
        l->cause == cause && l->tval == tval) {
        return 1;
    }
    if (n == 0) {
        diag("got: no trap from word %#010x (wanted cause %lu, tval %#lx)", word,
             (unsigned long)cause, (unsigned long)tval);
    } else {
        diag("got: %lu trap(s), last %s cause %lu tval %#lx (wanted %s cause %lu tval %#lx)",
             (unsigned long)n, l == &mtraps ? "M" : "S", (unsigned long)l->cause,
             (unsigned long)l->tval, expect_in_s ? "S" : "M", (unsigned long)cause,
             (unsigned long)tval);
    }
    return 0;
}

int expect_no_trap(uint32_t word, uint64_t t0, uint64_t t1)
{
    uint64_t before = mtraps.count + straps.count;

    exec_word(word, t0, t1);
    if (mtraps.count + straps.count == before) {
        return 1;
    }
    diag("got: trap from word %#010x: mcause %lu mtval %#lx / scause %lu stval %#lx", word,
         (unsigned long)mtraps.cause, (unsigned long)mtraps.tval, (unsigned long)straps.cause,
         (unsigned long)straps.tval);
    return 0;
}

/* csrrs x0, csr, x0: traps below the CSR's privilege level */
static int csr_readable(uint32_t csr)
{
    uint64_t before = mtraps.count + straps.count;

    exec_word((csr << 20) | (2u << 12) | 0x73u, 0, 0);
    return mtraps.count + straps.count == before;
}

long current_priv(long unused)
{
    (void)unused;
    if (csr_readable(0x300)) {          /* mstatus */
        return PRV_M;
    }
    if (csr_readable(0x100)) {          /* sstatus */
        return PRV_S;
    }
    return PRV_U;
}

/* ---- TL helpers ---- */
void tl_setup(unsigned ttype, unsigned d0, unsigned d1, unsigned d2, uint32_t w, int32_t p)
{
    tl_csr_write(TL_CSR_TTYPE, ttype);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(d0, d1, d2));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, w);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)p);
}

static int whole(uint32_t word, const void *buf)
{
    uint64_t before = mtraps.count + straps.count;

    tl_setup(TL_TYPE_INT8, 4, 2, 128, 256, 256);
    exec_word(word, (uint64_t)(uintptr_t)buf, 0);
    return mtraps.count + straps.count != before;
}

int tl_dump(int tlr, uint8_t out[1024])
{
    return whole(W_STORE(tlr, 0, GPR_T0), out);
}

int tl_fill(int tlr, const uint8_t in[1024])
{
    return whole(W_LOAD(tlr, 0, GPR_T0), in);
}

static uint8_t fill_buf[1024] __attribute__((aligned(64)));

int tl_fill_byte(int tlr, uint8_t v)
{
    memset(fill_buf, v, sizeof(fill_buf));
    return tl_fill(tlr, fill_buf);
}

/* ---- PMP ---- */
void pmp_set(int idx, uint64_t addr_field, uint8_t cfg)
{
    uint64_t c;

    switch (idx) {
    case 0: csr_write(CSR_PMPADDR0, addr_field); break;
    case 1: csr_write(CSR_PMPADDR1, addr_field); break;
    case 2: csr_write(CSR_PMPADDR2, addr_field); break;
    case 3: csr_write(CSR_PMPADDR3, addr_field); break;
    case 4: csr_write(CSR_PMPADDR4, addr_field); break;
    case 5: csr_write(CSR_PMPADDR5, addr_field); break;
    case 6: csr_write(CSR_PMPADDR6, addr_field); break;
    case 7: csr_write(CSR_PMPADDR7, addr_field); break;
    }
    c = csr_read(CSR_PMPCFG0);
    c &= ~(0xffUL << (8 * idx));
    c |= (uint64_t)cfg << (8 * idx);
    csr_write(CSR_PMPCFG0, c);
}

void pmp_allow_all(void)
{
    csr_write(CSR_PMPCFG0, 0);
    pmp_set(7, ~0UL >> 10, PMP_NAPOT | PMP_R | PMP_W | PMP_X);
}

/* ---- Sv39 ---- */
#define PT_POOL 16
static uint64_t pt_pool[PT_POOL][512] __attribute__((aligned(4096)));
static int pt_used;

static uint64_t *pt_alloc(void)
{
    if (pt_used >= PT_POOL) {
        printf("# page-table pool exhausted\n");
        finish(203);
    }
    memset(pt_pool[pt_used], 0, 4096);
    return pt_pool[pt_used++];
}

static uint64_t *vm_root;

void vm_init(void)
{
    pt_used = 0;
    vm_root = pt_alloc();
    vm_root[0] = (0x00000000UL >> 12) << 10 | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D;
    vm_root[2] = (0x80000000UL >> 12) << 10 | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D;
}

static uint64_t *vm_walk(uint64_t va, int alloc)
{
    uint64_t *t = vm_root;

    for (int level = 2; level > 0; level--) {
        uint64_t *pte = &t[(va >> (12 + 9 * level)) & 0x1ff];
        if (!(*pte & PTE_V)) {
            if (!alloc) {
                return NULL;
            }
            uint64_t *n = pt_alloc();
            *pte = ((uint64_t)(uintptr_t)n >> 12) << 10 | PTE_V;
        } else if (*pte & (PTE_R | PTE_W | PTE_X)) {
            printf("# vm_map: %#lx is inside a superpage\n", (unsigned long)va);
            finish(204);
        }
        t = (uint64_t *)(uintptr_t)((*pte >> 10) << 12);
    }
    return &t[(va >> 12) & 0x1ff];
}

void vm_map(uint64_t va, uint64_t pa, uint64_t flags)
{
    *vm_walk(va, 1) = (pa >> 12) << 10 | flags | PTE_V;
    sfence_vma();
}

void vm_unmap(uint64_t va)
{
    uint64_t *pte = vm_walk(va, 0);

    if (pte) {
        *pte = 0;
    }
    sfence_vma();
}

uint64_t vm_satp(void)
{
    return (8UL << 60) | ((uint64_t)(uintptr_t)vm_root >> 12);
}

/* ---- start-up ---- */
void rt_main(void)
{
    int r;

    traps_reset();
    pmp_allow_all();
    csr_write(CSR_SSCRATCH, (uintptr_t)__strap_stack_top);
    csr_write(CSR_STVEC, (uintptr_t)strap_vector);
    r = main();
    printf("# %d checks, %d failed%s\n", checks_run, checks_failed,
           r ? " (main returned non-zero)" : "");
    finish(checks_failed + (r != 0));
}
