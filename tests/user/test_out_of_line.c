/*
 * tl.load and tl.store translated with their whole-register path inline and
 * every other path after the TB (docs/performance.md): what a program gets
 * when its TBs are translated while it has used whole registers only.  One
 * block of tl.load, tl.load, tl.store, translated so, then runs with each
 * other case: a plan of 512 bytes, a source in a file mapping, a fault in
 * either load or in the store, an illegal plan.  Each gives the ISA's
 * result at the right instruction, and the code after the instruction runs
 * exactly once.  run.sh checks in QEMU's trace that the three words were
 * translated so (their addresses are on the line "# block words:").  Each
 * out-of-line path taken adds to the count that makes QEMU translate every
 * path inline from 64 on (docs/performance.md): 1 for the helper (a fault,
 * a span outside the pages last found mapped, a plan to compute), 16 for
 * another plan or file-backed memory.  The cases come in the order that
 * keeps the block so translated up to the second file-backed run; the
 * last case runs after that.
 *
 * Expected bytes come from the rule of docs/isa.md 5.2 written out below
 * (contiguous slices: the first S * D0 bytes, zero elsewhere).
 */
#include <fcntl.h>
#include <unistd.h>
#include "tl_test.h"
#include "tl/tl_insn.h"

#define PG 4096

#include "../tl_ool_block.h"

#define block(a, b, d) ool_block((uintptr_t)(a), (uintptr_t)(b), (uintptr_t)(d))

static uint8_t *region;                 /* 8 pages: a in 0-1, b in 2-3, d in 4-5, register reads in 6 */
static uint8_t want[1024];

static void set_csrs(uint32_t type, uint32_t shape, uint32_t width)
{
    tl_csr_write(TL_CSR_TTYPE, type);
    tl_csr_write(TL_CSR_TSHAPE, shape);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, width);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, width);
}

/* int8 [d0, 1, 128], rows of 128 bytes back to back: 1 KiB for d0 = 8. */
static void set_rows(unsigned d0)
{
    set_csrs(TL_TYPE_INT8, TL_SHAPE(d0, 1, 128), 128);
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)(i * 13 + seed * 7 + (i >> 8));
    }
}

/* want = the register a contiguous load of n bytes from src leaves. */
static void model_load(const uint8_t *src, size_t n)
{
    memset(want, 0, sizeof(want));
    memcpy(want, src, n);
}

/*
 * Whether register r (1 or 2) holds want: stored under the whole-register
 * plan of set_rows(8), whose settings the plan cache holds, to page 6 of
 * the region, in the pages the block's stores found mapped, so that reading
 * it takes no out-of-line path (each taken counts, see above).
 */
static int reg_is_want(unsigned r)
{
    uint8_t *got = region + 6 * PG;

    set_rows(8);
    if (r == 1) {
        tl_store(1, 0, got);
    } else {
        tl_store(2, 0, got);
    }
    return memcmp(got, want, 1024) == 0;
}

int main(void)
{
    int sig;

    setvbuf(stdout, NULL, _IONBF, 0);
    tl_trap_install();
    printf("# block words: %p %p %p\n", (void *)ool_word_load1, (void *)ool_word_load2,
           (void *)ool_word_store);
    region = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *a = region, *b = region + 2 * PG, *d = region + 4 * PG;

    /*
     * Whole-register plans only, four of them (as many as the core keeps),
     * before the block is first run and so translated.
     */
    fill(region, 4 * PG, 1);
    set_csrs(TL_TYPE_INT8, TL_SHAPE(32, 1, 32), 32);
    tl_load(3, 0, a);
    set_csrs(TL_TYPE_INT8, TL_SHAPE(16, 1, 64), 64);
    tl_load(3, 0, a);
    set_csrs(TL_TYPE_INT16, TL_SHAPE(16, 1, 32), 64);
    tl_load(3, 0, a);
    set_rows(8);
    tl_load(3, 0, a);

    /* 1. whole registers */
    block(a, b, d);
    model_load(b, 1024);
    int ok2 = reg_is_want(2);
    model_load(a, 1024);
    tl_check(ool_steps == 111 && reg_is_want(1) && ok2 && memcmp(d, a, 1024) == 0,
             "whole registers: both loads and the store done, each word's next step once (%ld)",
             ool_steps);

    /* 2. the second load faults: tl1 loaded, tl2 as it was, only the first step */
    fill(region, 4 * PG, 4);
    set_rows(8);
    block(a, b, d);                                 /* known contents of tl2: b */
    fill(region, 2 * PG, 5);
    mprotect(b, 2 * PG, PROT_NONE);
    ool_steps = 0;
    sig = TL_TRAPS(block(a, b + 16, d));
    mprotect(b, 2 * PG, PROT_READ | PROT_WRITE);
    model_load(b, 1024);
    ok2 = reg_is_want(2);
    model_load(a, 1024);
    tl_check(sig == SIGSEGV && tl_trap_pc == (unsigned long)ool_word_load2 &&
             tl_trap_addr == b + 16 && ool_steps == 1 && reg_is_want(1) && ok2,
             "second load over an inaccessible page: SIGSEGV at its word (pc %#lx, want %p; address "
             "%p, want %p), tl1 loaded, tl2 unchanged, one step (%ld)",
             tl_trap_pc, (void *)ool_word_load2, tl_trap_addr, (void *)(b + 16), ool_steps);

    /* 3. the store faults: both loads done, memory unchanged */
    fill(region, 4 * PG, 6);
    memset(d, 0x77, 2 * PG);
    mprotect(d, 2 * PG, PROT_READ);
    ool_steps = 0;
    sig = TL_TRAPS(block(a, b, d + 1));
    mprotect(d, 2 * PG, PROT_READ | PROT_WRITE);
    int untouched = 1;
    for (unsigned i = 0; i < 2 * PG; i++) {
        untouched &= d[i] == 0x77;
    }
    tl_check(sig == SIGSEGV && tl_trap_pc == (unsigned long)ool_word_store &&
             tl_trap_addr == d + 1 && ool_steps == 11 && untouched,
             "store to a read-only page: SIGSEGV at its word (pc %#lx, want %p), memory unchanged, "
             "two steps (%ld)", tl_trap_pc, (void *)ool_word_store, ool_steps);

    /* 4. the first load's source is unmapped: nothing after it runs */
    uint8_t *gone = mmap(NULL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(gone, PG);
    ool_steps = 0;
    sig = TL_TRAPS(block(gone, b, d));
    tl_check(sig == SIGSEGV && tl_trap_pc == (unsigned long)ool_word_load1 && tl_trap_addr == gone &&
             ool_steps == 0,
             "first load from an unmapped page: SIGSEGV at its word (pc %#lx, want %p), no step "
             "(%ld)", tl_trap_pc, (void *)ool_word_load1, ool_steps);

    /* 5. an illegal plan (D0 = 0): SIGILL at the first word */
    tl_csr_write(TL_CSR_TSHAPE, 0);
    ool_steps = 0;
    sig = TL_TRAPS(block(a, b, d));
    tl_check(sig == SIGILL && tl_trap_pc == (unsigned long)ool_word_load1 && ool_steps == 0,
             "tshape with D0 = 0: SIGILL at the first load's word (pc %#lx, want %p), no step (%ld)",
             tl_trap_pc, (void *)ool_word_load1, ool_steps);

    /* 6. a plan of 512 bytes: the out-of-line direct path, then the next word */
    fill(region, 4 * PG, 2);
    memset(d, 0xEE, 2 * PG);
    set_rows(4);
    ool_steps = 0;
    block(a + 8, b + 3, d + 5);
    model_load(b + 3, 512);
    ok2 = reg_is_want(2);
    model_load(a + 8, 512);
    int stored = memcmp(d + 5, a + 8, 512) == 0 && d[4] == 0xEE && d[5 + 512] == 0xEE;
    tl_check(ool_steps == 111 && reg_is_want(1) && ok2 && stored,
             "512-byte plan in the block: the ISA's bytes in tl1 and tl2 and memory, each step once "
             "(%ld)", ool_steps);

    /* 7. a source in a file mapping (the program's own file), twice */
    int fd = open("/proc/self/exe", O_RDONLY);
    const uint8_t *file = fd < 0 ? MAP_FAILED : mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
    tl_check(file != MAP_FAILED, "mapping the program's own file");
    if (file != MAP_FAILED) {
        set_rows(8);
        for (unsigned round = 1; round <= 2; round++) {
            ool_steps = 0;
            memset(d, 0, 2 * PG);
            block(file + 100, b, d);
            model_load(file + 100, 1024);
            tl_check(ool_steps == 111 && reg_is_want(1) && memcmp(d, file + 100, 1024) == 0,
                     "whole register from a file mapping, run %u: the file's bytes, each step once "
                     "(%ld)", round, ool_steps);
        }
    }
    if (fd >= 0) {
        close(fd);
    }

    /* 8. whole registers again */
    fill(region, 4 * PG, 8);
    set_rows(8);
    ool_steps = 0;
    block(a + 64, b, d);
    model_load(a + 64, 1024);
    tl_check(ool_steps == 111 && reg_is_want(1) && memcmp(d, a + 64, 1024) == 0,
             "whole registers after all that: the inline path's bytes, each step once (%ld)",
             ool_steps);
    return tl_test_finish();
}
