/*
 * Edge cases of the load/store fast path (docs/performance.md): spans over
 * several pages, a fault in any page of a span (all-or-nothing: nothing
 * written, SIGSEGV at the first faulting byte in scan order), unselected
 * slices over unmapped pages, stores over translated code, and the cached
 * plan following every CSR change (a write, a rewrite of the same value, a
 * tinit write, a signal handler's changes undone by sigreturn), and the
 * range a thread last found mapped forgotten at every mapping change (munmap,
 * mmap over it, mprotect, code translated on it, another thread's munmap),
 * and the translated paths of whole-register and strided loads and stores
 * (immediates, spans just outside the range found mapped, a span wrapping
 * around the address space, a span of far more than a page).  The linux
 * group runs it under the TL kernel too, where the translated paths check
 * the TLB instead.
 *
 * Expected bytes come from the rule of docs/isa.md 5.2 written out below
 * (slice i at base + imm*W + i*P, W bytes, zero elsewhere in the register).
 */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tl_test.h"
#include "tl_state.h"
#include "tl/tl_insn.h"

#define PG 4096

static uint8_t *region;             /* 32 pages: sources in 0..15, destinations in 16..31 */
static uint8_t want[1024], got[1024];

static void set_csrs(uint32_t shape, uint32_t width, int32_t pitch)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, shape);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, width);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)pitch);
}

/* The ISA's load of int8 [d0, 1, s] with width w, pitch p, mask m from base. */
static void model_load(const uint8_t *base, unsigned d0, unsigned s, unsigned w, long p, uint32_t m)
{
    memset(want, 0, sizeof(want));
    for (unsigned i = 0; i < d0; i++) {
        if (m >> i & 1) {
            memcpy(want + i * s, base + (long)i * p, w);
        }
    }
}

static void fill_region(unsigned seed)
{
    for (unsigned i = 0; i < 16 * PG; i++) {
        region[i] = (uint8_t)(i * 7 + seed + (i >> 12));
    }
}

static void store_reg1(void)
{
    tl_state_whole_register_view();
    tl_store(1, 0, got);
}

static void *unmap_page(void *page)
{
    munmap(page, PG);
    return NULL;
}

/*
 * A tile walk as the tile API's copy_row_tiles makes one: the source pitch
 * written, two tiles loaded, the destination pitch written, the two
 * stored.  Each copy below is translated on its first call, in the CSR
 * state that call finds, and keeps that translation.
 */
#define DEFINE_TILE_WALK(name)                                                              \
    static __attribute__((noinline)) void name(uint8_t *dst, const uint8_t *src, long src_pitch, \
                                               long dst_pitch, long src_step, long dst_step)     \
    {                                                                                        \
        tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)src_pitch);                         \
        tl_load(1, 0, src);                                                                  \
        tl_load(2, 0, src + src_step);                                                       \
        tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, (uint32_t)dst_pitch);                         \
        tl_store(1, 0, dst);                                                                 \
        tl_store(2, 0, dst + dst_step);                                                      \
    }
DEFINE_TILE_WALK(walk_strided_state)
DEFINE_TILE_WALK(walk_contiguous_state)
DEFINE_TILE_WALK(walk_other_shape)
DEFINE_TILE_WALK(walk_short_block)

typedef void walk_fn(uint8_t *, const uint8_t *, long, long, long, long);

/* int8 [d0, s / 64, 64] for rows of 64 bytes or more (dimensions are below 256), else [d0, 1, s]. */
static uint32_t rows_shape(unsigned d0, unsigned s)
{
    return s >= 64 ? TL_SHAPE(d0, s / 64, 64) : TL_SHAPE(d0, 1, s);
}

/*
 * Runs walk for tiles of d0 rows of s bytes (int8 rows_shape(d0, s), width s)
 * from src at src_pitch to dst at dst_pitch, entered with the pitch CSR at
 * entry_pitch and tl1 and tl2 filled with 0xA5; 1 when tl1 and tl2 hold
 * the ISA's bytes (zero past d0 * s) and dst the rows at dst_pitch with the
 * bytes between and around them untouched.
 */
static int check_tile_walk(walk_fn *walk, unsigned d0, unsigned s, long entry_pitch,
                           long src_pitch, long dst_pitch)
{
    static uint8_t fill[1024], got2[1024], want2[1024];
    const uint8_t *src = region + 40;
    uint8_t *dst = region + 16 * PG + 8;
    const long src_step = d0 * src_pitch, dst_step = d0 * dst_pitch;
    int ok = 1;

    memset(fill, 0xA5, sizeof(fill));
    tl_state_whole_register_view();
    tl_load(1, 0, fill);
    tl_load(2, 0, fill);
    memset(region + 16 * PG, 0xEE, 16 * PG);
    set_csrs(rows_shape(d0, s), s, (int32_t)entry_pitch);
    walk(dst, src, src_pitch, dst_pitch, src_step, dst_step);
    tl_state_whole_register_view();
    tl_store(2, 0, got2);
    store_reg1();
    model_load(src + src_step, d0, s, s, src_pitch, 0xFFFFFFFFu);
    memcpy(want2, want, 1024);
    model_load(src, d0, s, s, src_pitch, 0xFFFFFFFFu);
    ok &= memcmp(got, want, 1024) == 0 && memcmp(got2, want2, 1024) == 0;
    for (long i = 0; i < 16 * PG - 8; i++) {
        const long tile = i / dst_step, in_tile = i % dst_step;
        uint8_t expect = 0xEE;
        if (tile < 2 && in_tile % dst_pitch < s) {
            expect = src[tile * src_step + in_tile / dst_pitch * src_pitch + in_tile % dst_pitch];
        }
        ok &= dst[i] == expect;
    }
    return ok;
}

int main(void)
{
    int sig;

    setvbuf(stdout, NULL, _IONBF, 0);
    tl_trap_install();
    region = mmap(NULL, 32 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fill_region(1);

    /* 1. spans of 2, 3 and 8 pages */
    static const struct { unsigned d0, s, w; long p; unsigned off; } spans[] = {
        { 8, 128, 128, 128, PG - 300 },         /* contiguous, 2 pages */
        { 32, 32, 32, 256, 100 },               /* 8 KiB span, 3 pages */
        { 32, 32, 16, 1024, 17 },               /* 31 KiB span, 8 pages, width < slice */
        { 16, 64, 64, 2048, PG - 8 },           /* 8 pages, every slice on a new page */
    };
    for (unsigned k = 0; k < sizeof(spans) / sizeof(spans[0]); k++) {
        const uint8_t *base = region + spans[k].off;
        set_csrs(TL_SHAPE(spans[k].d0, 1, spans[k].s), spans[k].w, (int32_t)spans[k].p);
        tl_load(1, 0, base);
        model_load(base, spans[k].d0, spans[k].s, spans[k].w, spans[k].p, 0xFFFFFFFFu);
        store_reg1();
        tl_check(memcmp(got, want, 1024) == 0,
                 "tl.load of %u slices of %u bytes, pitch %ld, from %u bytes into a page: the "
                 "ISA's bytes", spans[k].d0, spans[k].w, spans[k].p, spans[k].off);
        /* and back with tl.store to another place */
        uint8_t *dst = region + 16 * PG + spans[k].off % PG;
        memset(region + 16 * PG, 0xEE, 16 * PG);
        set_csrs(TL_SHAPE(spans[k].d0, 1, spans[k].s), spans[k].w, (int32_t)spans[k].p);
        tl_store(1, 0, dst);
        int ok = 1;
        for (unsigned i = 0; i < spans[k].d0; i++) {
            ok &= memcmp(dst + (long)i * spans[k].p, base + (long)i * spans[k].p, spans[k].w) == 0;
            if (spans[k].p > (long)spans[k].w && i + 1 < spans[k].d0) {
                ok &= dst[(long)i * spans[k].p + spans[k].w] == 0xEE;  /* gap untouched */
            }
        }
        tl_check(ok, "tl.store of the same: every slice written, the gaps between slices untouched");
    }

    /* 2. a fault in the last page of a span: SIGSEGV at its first byte, register unchanged */
    fill_region(2);
    set_csrs(TL_SHAPE(32, 1, 32), 32, 1024);
    tl_load(1, 0, region);                      /* known contents of tl1 */
    store_reg1();
    memcpy(want, got, 1024);
    mprotect(region + 7 * PG, PG, PROT_NONE);
    set_csrs(TL_SHAPE(32, 1, 32), 32, 1024);   /* slices 28..31 fall in page 7 */
    sig = TL_TRAPS(tl_load(1, 0, region + 16));
    store_reg1();
    /* slice 28 starts at 16 + 28 * 1024 = page 7 + 16: the first faulting byte */
    tl_check(sig == SIGSEGV && tl_trap_addr == region + 7 * PG + 16 && memcmp(got, want, 1024) == 0,
             "a load whose span ends in an inaccessible page: SIGSEGV at the first byte of the "
             "first slice there (%p, want %p), tl1 unchanged", tl_trap_addr,
             (void *)(region + 7 * PG + 16));

    /* 3. a store over a read-only middle page: nothing written anywhere */
    mprotect(region + 7 * PG, PG, PROT_READ | PROT_WRITE);
    memset(region, 0x55, 16 * PG);
    mprotect(region + 3 * PG, PG, PROT_READ);
    set_csrs(TL_SHAPE(32, 1, 32), 32, 512);    /* 16 KiB span: pages 0..3 */
    sig = TL_TRAPS(tl_store(1, 0, region + 40));
    int untouched = 1;
    for (unsigned i = 0; i < 16 * PG; i++) {
        untouched &= region[i] == 0x55;
    }
    /* slice 24 starts at 40 + 24 * 512 = page 3 + 40 */
    tl_check(sig == SIGSEGV && tl_trap_addr == region + 3 * PG + 40 && untouched,
             "a store whose span crosses a read-only page: SIGSEGV at the first byte of the first "
             "slice there (%p, want %p), no byte written in any page (%d)", tl_trap_addr,
             (void *)(region + 3 * PG + 40), untouched);
    mprotect(region + 3 * PG, PG, PROT_READ | PROT_WRITE);

    /* 4. unselected slices may lie over an unmapped page */
    fill_region(3);
    mprotect(region + 2 * PG, PG, PROT_NONE);
    set_csrs(TL_SHAPE(4, 1, 64), 64, PG);      /* slice i in page i */
    tl_csr_write(TL_CSR_TMASK_LS, 0xB);         /* slices 0, 1, 3: page 2 unselected */
    sig = TL_TRAPS(tl_mload(1, 0, region));
    model_load(region, 4, 64, 64, PG, 0xB);
    store_reg1();
    tl_check(sig == 0 && memcmp(got, want, 1024) == 0,
             "tl.mload skipping the slice over an inaccessible page: no fault, the ISA's bytes");
    mprotect(region + 2 * PG, PG, PROT_READ | PROT_WRITE);

    /* 5. the cached plan follows every CSR change */
    fill_region(4);
    set_csrs(TL_SHAPE(8, 1, 128), 128, 128);
    tl_load(1, 0, region);
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 100);
    tl_load(1, 0, region);
    model_load(region, 8, 128, 100, 128, 0xFF);
    store_reg1();
    tl_check(memcmp(got, want, 1024) == 0, "a width write between two identical loads takes effect");
    set_csrs(TL_SHAPE(8, 1, 128), 128, 128);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 128);  /* the same value again */
    tl_load(1, 0, region + 1);
    model_load(region + 1, 8, 128, 128, 128, 0xFF);
    store_reg1();
    tl_check(memcmp(got, want, 1024) == 0, "rewriting a CSR with its value keeps loads right");
    set_csrs(TL_SHAPE(8, 1, 128), 64, 200);
    tl_csr_write(TL_CSR_TINIT, tl_csr_read(TL_CSR_TINIT) & ~(1u << 5));  /* stride uninitialized: P = W */
    tl_load(1, 0, region);
    model_load(region, 8, 128, 64, 64, 0xFF);
    store_reg1();
    tl_check(memcmp(got, want, 1024) == 0,
             "clearing tmask_load_stride's flag through tinit makes the pitch the width again");

    /*
     * More CSR settings in turn than the core keeps plans for (a load with
     * one pitch, a store with another, ...), twice: every load still
     * follows the CSRs of the moment.
     */
    fill_region(5);
    {
        static const struct { uint32_t d0, s, w; int32_t p; } cfg[6] = {
            {8, 128, 128, 128}, {8, 128, 64, 256}, {2, 200, 200, 512},
            {16, 64, 64, 1000}, {8, 128, 100, 128}, {32, 32, 32, 32},
        };
        int all_right = 1;
        for (unsigned round = 0; round < 2; round++) {
            for (unsigned k = 0; k < 6; k++) {
                set_csrs(TL_SHAPE(cfg[k].d0, 1, cfg[k].s), cfg[k].w, cfg[k].p);
                tl_load(1, 0, region + 64 * k);
                model_load(region + 64 * k, cfg[k].d0, cfg[k].s, cfg[k].w, cfg[k].p, 0xFFFFFFFFu);
                store_reg1();
                all_right &= memcmp(got, want, 1024) == 0;
            }
        }
        tl_check(all_right, "six CSR settings in turn, twice: each load gives the ISA's bytes");
    }
    /* tmask_ls shapes a masked load; the concat masks and tvalid between loads do not */
    {
        static uint8_t got2[1024], got3[1024];
        set_csrs(TL_SHAPE(8, 1, 128), 128, 128);
        tl_csr_write(TL_CSR_TMASK_LS, 0x5);
        tl_mload(1, 0, region);
        tl_csr_write(TL_CSR_TMASK_CONCAT_1, 0x3);
        tl_csr_write(TL_CSR_TMASK_CONCAT_2, 0xF0);
        tl_csr_write(TL_CSR_TVALID, TL_SHAPE(1, 1, 1));
        tl_mload(2, 0, region + 128);
        tl_csr_write(TL_CSR_TMASK_LS, 0x82);
        tl_mload(3, 0, region + 128);
        tl_state_whole_register_view();
        tl_store(2, 0, got2);
        tl_store(3, 0, got3);
        model_load(region + 128, 8, 128, 128, 128, 0x5);
        const int masks_kept = memcmp(got2, want, 1024) == 0;
        model_load(region + 128, 8, 128, 128, 128, 0x82);
        tl_check(masks_kept && memcmp(got3, want, 1024) == 0,
                 "tl.mload after writes to the concat masks and tvalid, then after a tmask_ls "
                 "write: the ISA's bytes each time");
    }

    /* 6. a TL store over translated code: the new code runs */
    uint8_t *code = mmap(NULL, PG, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    static uint32_t insns[256];
    for (unsigned i = 0; i < 256; i++) {
        insns[i] = 0x00000013;                               /* nop */
    }
    insns[0] = (1u << 20) | (10 << 7) | 0x13;                /* li a0, 1 */
    insns[1] = 0x00008067;                                   /* ret */
    memcpy(code + 1024, insns, 1024);
    __builtin___clear_cache((char *)code, (char *)code + PG);
    int (*fn)(void) = (int (*)(void))(code + 1024);
    int before = fn();
    insns[0] = (2u << 20) | (10 << 7) | 0x13;                /* li a0, 2 */
    tl_state_whole_register_view();
    tl_load(1, 0, insns);
    tl_store(1, 0, code + 1024);
    __builtin___clear_cache((char *)code, (char *)code + PG);
    int after = fn();
    tl_check(before == 1 && after == 2,
             "a tl.store over translated code: the new code runs after the store (%d then %d)",
             before, after);

    /* 7. the checked range is forgotten when the mapping changes */
    uint8_t *m = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(m, 0x11, 4 * PG);
    set_csrs(TL_SHAPE(8, 1, 128), 128, 1024);  /* 8 KiB span: pages 0 and 1 */
    tl_load(1, 0, m);
    tl_load(1, 0, m);                           /* the same span again */
    store_reg1();
    memcpy(want, got, 1024);
    munmap(m + PG, PG);
    set_csrs(TL_SHAPE(8, 1, 128), 128, 1024);
    sig = TL_TRAPS(tl_load(1, 0, m));
    store_reg1();
    /* slice 4 starts at 4 * 1024 = page 1 */
    tl_check(sig == SIGSEGV && tl_trap_addr == m + PG && memcmp(got, want, 1024) == 0,
             "a load of a span just loaded, after munmap of its second page: SIGSEGV at that page "
             "(%p, want %p), tl1 unchanged", tl_trap_addr, (void *)(m + PG));
    uint8_t *again = mmap(m + PG, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    memset(again, 0x22, PG);
    set_csrs(TL_SHAPE(8, 1, 128), 128, 1024);
    tl_load(1, 0, m);
    store_reg1();
    int fresh = again == m + PG;
    for (unsigned i = 0; i < 8; i++) {
        for (unsigned j = 0; j < 128; j++) {
            fresh &= got[i * 128 + j] == (i < 4 ? 0x11 : 0x22);
        }
    }
    tl_check(fresh, "after a new mapping over the unmapped page, the load sees its bytes (0x22)");

    set_csrs(TL_SHAPE(8, 1, 128), 128, 1024);
    tl_store(1, 0, m + 2 * PG);
    tl_store(1, 0, m + 2 * PG);                 /* pages 2 and 3 checked writable */
    mprotect(m + 3 * PG, PG, PROT_READ);
    memset(want, 0, sizeof(want));
    for (unsigned i = 0; i < 8; i++) {
        want[i] = m[2 * PG + i * 1024];
    }
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_load(1, 0, m);                          /* different bytes to store */
    sig = TL_TRAPS(tl_store(1, 0, m + 2 * PG));
    int kept = 1;
    for (unsigned i = 0; i < 8; i++) {
        kept &= m[2 * PG + i * 1024] == want[i];
    }
    tl_check(sig == SIGSEGV && tl_trap_addr == m + 3 * PG && kept,
             "a store of a span just stored, after mprotect(PROT_READ) of its second page: SIGSEGV "
             "there (%p, want %p), nothing written (%d)", tl_trap_addr, (void *)(m + 3 * PG), kept);
    mprotect(m + 3 * PG, PG, PROT_READ | PROT_WRITE);

    /*
     * A 1 KiB load from the first page of a mapping, then another page of
     * the same mapping made inaccessible: a load there faults (the range a
     * load finds mapped may be the whole mapping, not only its own pages).
     */
    set_csrs(TL_SHAPE(32, 1, 32), 32, 32);
    tl_load(1, 0, m);
    tl_load(1, 0, m + 1024);
    mprotect(m + 2 * PG, PG, PROT_NONE);
    sig = TL_TRAPS(tl_load(1, 0, m + 2 * PG + 1024));
    tl_check(sig == SIGSEGV && tl_trap_addr == m + 2 * PG + 1024,
             "a contiguous load from a page of a mapping made PROT_NONE after loads from its first "
             "page: SIGSEGV there (%p, want %p)", tl_trap_addr, (void *)(m + 2 * PG + 1024));
    mprotect(m + 2 * PG, PG, PROT_READ | PROT_WRITE);
    tl_store(1, 0, m + 1024);
    munmap(m + 3 * PG, PG);
    sig = TL_TRAPS(tl_store(1, 0, m + 3 * PG));
    tl_check(sig == SIGSEGV && tl_trap_addr == m + 3 * PG,
             "a contiguous store to a page of a mapping unmapped after stores to its first page: "
             "SIGSEGV there (%p, want %p)", tl_trap_addr, (void *)(m + 3 * PG));
    again = mmap(m + 3 * PG, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    tl_check(again == m + 3 * PG, "the unmapped page mapped again");

    /* code translated on a page between two stores to it */
    insns[0] = (3u << 20) | (10 << 7) | 0x13;                /* li a0, 3 */
    tl_state_whole_register_view();
    tl_load(1, 0, insns);
    tl_store(1, 0, code + 1024);
    __builtin___clear_cache((char *)code, (char *)code + PG);
    int third = fn();                                        /* translated now */
    insns[0] = (4u << 20) | (10 << 7) | 0x13;                /* li a0, 4 */
    tl_load(1, 0, insns);
    tl_store(1, 0, code + 1024);
    __builtin___clear_cache((char *)code, (char *)code + PG);
    int fourth = fn();
    tl_check(third == 3 && fourth == 4,
             "two tl.stores over the same code page with the code run between them: each new "
             "code runs (%d then %d)", third, fourth);

    /* another thread unmaps a page this thread just loaded from */
    set_csrs(TL_SHAPE(8, 1, 128), 128, 1024);
    tl_load(1, 0, m);
    pthread_t t;
    pthread_create(&t, NULL, unmap_page, m + PG);
    pthread_join(t, NULL);
    set_csrs(TL_SHAPE(8, 1, 128), 128, 1024);
    sig = TL_TRAPS(tl_load(1, 0, m));
    tl_check(sig == SIGSEGV && tl_trap_addr == m + PG,
             "after another thread's munmap of its second page, the same load: SIGSEGV there "
             "(%p, want %p)", tl_trap_addr, (void *)(m + PG));
    /*
     * 8. The translated path of whole-register loads and stores (one
     * contiguous KiB, the CSRs unchanged since the plan was made): the
     * immediate scaled by W, and spans that start below or end above the
     * pages last found mapped, or wrap around the address space.
     */
    uint8_t *g = mmap(NULL, 6 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (unsigned i = 0; i < 6 * PG; i++) {
        g[i] = (uint8_t)(i * 13 + (i >> 10) + 5);
    }
    mprotect(g, PG, PROT_NONE);                 /* guard pages below and above */
    mprotect(g + 5 * PG, PG, PROT_NONE);
    {
        uint8_t *mid = g + 3 * PG;
        int imm_right = 1;
        set_csrs(TL_SHAPE(32, 1, 32), 32, 32);     /* W = 32 */
        for (unsigned round = 0; round < 3; round++) {
            tl_load(1, 3, mid);
            store_reg1();
            imm_right &= memcmp(got, mid + 3 * 32, 1024) == 0;
            set_csrs(TL_SHAPE(32, 1, 32), 32, 32);
            tl_load(1, -2, mid);
            store_reg1();
            imm_right &= memcmp(got, mid - 2 * 32, 1024) == 0;
            set_csrs(TL_SHAPE(8, 1, 128), 128, 128);   /* W = 128 */
            tl_load(1, 1, mid);
            store_reg1();
            imm_right &= memcmp(got, mid + 128, 1024) == 0;
            set_csrs(TL_SHAPE(32, 1, 32), 32, 32);
        }
        tl_check(imm_right, "whole-register loads with imm 3 and -2 (W = 32) and 1 (W = 128), "
                 "three times each: the KiB at base + imm * W");

        static uint8_t tl2_bytes[1024];
        set_csrs(TL_SHAPE(8, 1, 128), 128, 128);
        tl_load(2, 0, mid);
        memcpy(tl2_bytes, mid, 1024);
        int stores_right = 1;
        for (unsigned round = 0; round < 3; round++) {
            memset(g + 2 * PG, 0x77, 2 * PG);
            tl_store(2, -1, g + 2 * PG + 512);     /* to g + 2 PG + 384 */
            stores_right &= memcmp(g + 2 * PG + 384, tl2_bytes, 1024) == 0 &&
                            g[2 * PG + 383] == 0x77 && g[2 * PG + 384 + 1024] == 0x77;
        }
        tl_check(stores_right, "whole-register stores with imm -1 (W = 128), three times: the "
                 "KiB at base - 128, the bytes around it untouched");

        /* the pages of g + PG .. g + 5 PG found mapped, for loads and for stores */
        tl_load(1, 0, g + 2 * PG);
        tl_load(1, 0, g + 2 * PG);
        tl_store(2, 0, g + 2 * PG);
        tl_store(2, 0, g + 2 * PG);
        tl_load(1, 0, g + 2 * PG);
        store_reg1();
        memcpy(want, got, 1024);
        sig = TL_TRAPS(tl_load(1, 0, g + PG - 512));
        store_reg1();
        tl_check(sig == SIGSEGV && tl_trap_addr == g + PG - 512 && memcmp(got, want, 1024) == 0,
                 "a whole-register load starting 512 bytes below mapped pages just loaded from: "
                 "SIGSEGV at its first byte (%p, want %p), tl1 unchanged", tl_trap_addr,
                 (void *)(g + PG - 512));
        sig = TL_TRAPS(tl_load(1, 0, g + 5 * PG - 512));
        store_reg1();
        tl_check(sig == SIGSEGV && tl_trap_addr == g + 5 * PG && memcmp(got, want, 1024) == 0,
                 "a whole-register load ending 512 bytes above them: SIGSEGV at the guard page "
                 "(%p, want %p), tl1 unchanged", tl_trap_addr, (void *)(g + 5 * PG));
        memcpy(want, g + 5 * PG - 512, 512);
        sig = TL_TRAPS(tl_store(2, 0, g + 5 * PG - 512));
        tl_check(sig == SIGSEGV && tl_trap_addr == g + 5 * PG && memcmp(want, g + 5 * PG - 512, 512) == 0,
                 "a whole-register store ending 512 bytes above pages just stored to: SIGSEGV at "
                 "the guard page (%p, want %p), nothing written", tl_trap_addr, (void *)(g + 5 * PG));
        sig = TL_TRAPS(tl_store(2, 0, g + PG - 512));
        tl_check(sig == SIGSEGV && tl_trap_addr == g + PG - 512,
                 "a whole-register store starting 512 bytes below them: SIGSEGV at its first byte "
                 "(%p, want %p)", tl_trap_addr, (void *)(g + PG - 512));
        uint8_t *top = (uint8_t *)(uintptr_t)-512;
        sig = TL_TRAPS(tl_load(1, 0, top));
        tl_check(sig == SIGSEGV && tl_trap_addr == top,
                 "a whole-register load from 512 bytes below the top of the address space "
                 "(wrapping around): SIGSEGV at its first byte (%p)", tl_trap_addr);
    }

    /*
     * 9. The translated path of strided loads and stores (slices apart in
     * memory, the CSRs unchanged between the instructions, as in a copy
     * kernel's unrolled group): 4 slices of 256 bytes at pitch 1000, the
     * immediate scaled by W, the span checked against the pages found
     * mapped (g + PG .. g + 5 PG, guard pages around).
     */
    for (unsigned i = PG; i < 5 * PG; i++) {
        g[i] = (uint8_t)(i * 29 + (i >> 9) + 1);
    }
    {
        enum { D0 = 4, W = 256, P = 1000 };
        static uint8_t want1[1024], want2[1024], want3[1024];
        uint8_t *src = g + PG + 2000;
        int loads_right = 1, stores_right = 1;

        for (unsigned round = 0; round < 4; round++) {
            set_csrs(TL_SHAPE(D0, W / 64, 64), W, P);
            for (unsigned k = 0; k < 3; k++) {          /* the same instructions, the CSRs unchanged */
                tl_load(1, 0, src + 8 * k);
                tl_load(2, 3, src + 8 * k);             /* from src + 3 * 256 */
                tl_load(3, -2, src + 8 * k);            /* from src - 512 */
            }
            tl_state_whole_register_view();
            tl_store(1, 0, want1);
            tl_store(2, 0, want2);
            tl_store(3, 0, want3);
            const uint8_t *at = src + 16;
            model_load(at, D0, W, W, P, 0xFFFFFFFFu);
            loads_right &= memcmp(want1, want, 1024) == 0;
            model_load(at + 3 * W, D0, W, W, P, 0xFFFFFFFFu);
            loads_right &= memcmp(want2, want, 1024) == 0;
            model_load(at - 2 * W, D0, W, W, P, 0xFFFFFFFFu);
            loads_right &= memcmp(want3, want, 1024) == 0;

            /* and stored with the same pitch, twice each, into a cleared area */
            memset(g + 3 * PG, 0x5A, 2 * PG);
            set_csrs(TL_SHAPE(D0, W / 64, 64), W, P);
            for (unsigned k = 0; k < 2; k++) {
                tl_store(2, 0, g + 3 * PG + 100);
                tl_store(3, 1, g + 3 * PG + 500);       /* to + 756 */
            }
            for (unsigned i = 0; i < 2 * PG; i++) {
                const long off = (long)i - 100, off3 = (long)i - 756;
                uint8_t expect = 0x5A;
                if (off >= 0 && off % P < W && off / P < D0) {
                    expect = want2[off / P * W + off % P];
                }
                if (off3 >= 0 && off3 % P < W && off3 / P < D0) {
                    expect = want3[off3 / P * W + off3 % P];
                }
                stores_right &= g[3 * PG + i] == expect;
            }
        }
        tl_check(loads_right, "strided loads (4 x 256 bytes, pitch 1000) with imm 0, 3 and -2, three "
                 "times each with the CSRs unchanged, four times over: the ISA's bytes");
        tl_check(stores_right, "strided stores of the same, twice each with imm 0 and 1: every slice "
                 "at base + imm * W + i * P, every byte between and around them untouched");

        /* spans (3 * 1000 + 256 bytes) reaching past the pages just used */
        set_csrs(TL_SHAPE(D0, W / 64, 64), W, P);
        tl_load(1, 0, g + 2 * PG);
        tl_load(1, 0, g + 2 * PG);
        store_reg1();
        memcpy(want, got, 1024);
        set_csrs(TL_SHAPE(D0, W / 64, 64), W, P);
        tl_load(1, 0, g + 2 * PG);
        sig = TL_TRAPS(tl_load(1, 0, g + 5 * PG - 3000 - 255));
        store_reg1();
        tl_check(sig == SIGSEGV && tl_trap_addr == g + 5 * PG && memcmp(got, want, 1024) == 0,
                 "a strided load right after another whose last slice ends 1 byte into the guard "
                 "page: SIGSEGV there (%p, want %p), tl1 unchanged", tl_trap_addr,
                 (void *)(g + 5 * PG));
        set_csrs(TL_SHAPE(D0, W / 64, 64), W, P);
        tl_load(1, 0, g + 2 * PG);
        sig = TL_TRAPS(tl_load(1, -1, g + PG + 255));
        tl_check(sig == SIGSEGV && tl_trap_addr == g + PG - 1,
                 "a strided load right after another, starting 1 byte below the pages found mapped "
                 "(imm -1): SIGSEGV at its first byte (%p, want %p)", tl_trap_addr,
                 (void *)(g + PG - 1));
        memset(g + 4 * PG, 0x33, PG);
        set_csrs(TL_SHAPE(D0, W / 64, 64), W, P);
        tl_store(1, 0, g + 2 * PG);
        sig = TL_TRAPS(tl_store(1, 0, g + 5 * PG - 3000 - 255));
        int guarded = 1;
        for (unsigned i = 0; i < PG; i++) {
            guarded &= g[4 * PG + i] == 0x33;
        }
        tl_check(sig == SIGSEGV && tl_trap_addr == g + 5 * PG && guarded,
                 "a strided store right after another whose last slice ends 1 byte into the guard "
                 "page: SIGSEGV there (%p, want %p), nothing written (%d)", tl_trap_addr,
                 (void *)(g + 5 * PG), guarded);
    }
    /*
     * 10. A strided load whose span reaches far past one page, the CSRs
     * unchanged since the plan was made: 2 slices of 64 bytes 2^30 bytes
     * apart.  Under a kernel (qemu-system-riscv64) the TLB entry at the
     * index of its first page can hold the page of its last slice (2^18
     * pages apart: the same index in a TLB of up to 2^18 entries) right
     * after a read of that slice; each slice still comes from its own page.
     */
    {
        const unsigned long far_pitch = 1ul << 30;
        uint8_t *far = mmap(NULL, far_pitch + PG, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        int far_right = far != MAP_FAILED;

        for (unsigned i = 0; far_right && i < 64; i++) {
            far[i] = (uint8_t)(i * 5 + 1);
            far[far_pitch + i] = (uint8_t)(i * 3 + 200);
        }
        for (unsigned round = 0; far_right && round < 3; round++) {
            set_csrs(TL_SHAPE(2, 1, 64), 64, (int32_t)far_pitch);
            tl_load(1, 0, far);                              /* the plan is made */
            (void)*(volatile uint8_t *)(far + far_pitch);    /* the last slice's page in the TLB */
            tl_load(2, 0, far);
            tl_state_whole_register_view();
            tl_store(2, 0, got);
            memset(want, 0, sizeof(want));
            memcpy(want, far, 64);
            memcpy(want + 64, far + far_pitch, 64);
            far_right &= memcmp(got, want, 1024) == 0;
        }
        tl_check(far_right, "a strided load of 2 slices 2^30 bytes apart right after a read of the "
                 "second, three times (mmap %s): each slice from its own page",
                 far == MAP_FAILED ? "FAILED" : "ok");
        if (far != MAP_FAILED) {
            munmap(far, far_pitch + PG);
        }
    }

    /*
     * 11. The translated paths of tiles of whole rows (W = S, a multiple of
     * 32 bytes) read from a wider matrix with one pitch and written with
     * another, the shape kept: translated in the state with the rows apart,
     * and in the state with them contiguous after a load with them apart;
     * each then run with tiles of several shapes (the one it was translated
     * for and others), blocks shorter than the register among them (a
     * load zeroes the rest).
     */
    {
        static const struct { unsigned d0, s; } shapes[] = {
            {4, 256}, {8, 128}, {32, 32}, {2, 512}, {4, 128}, {3, 64}, {1, 1024},
        };
        int right[4] = {1, 1, 1, 1};

        fill_region(11);
        set_csrs(rows_shape(4, 256), 256, 2048);
        tl_load(1, 0, region);
        right[0] &= check_tile_walk(walk_strided_state, 4, 256, 2048, 2048, 256);
        set_csrs(rows_shape(4, 256), 256, 2048);
        tl_load(1, 0, region);
        right[1] &= check_tile_walk(walk_contiguous_state, 4, 256, 256, 2048, 256);
        right[2] &= check_tile_walk(walk_other_shape, 8, 128, 640, 640, 128);
        right[3] &= check_tile_walk(walk_short_block, 4, 128, 400, 400, 160);
        for (unsigned round = 0; round < 3; round++) {
            for (unsigned k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
                const unsigned d0 = shapes[k].d0, s = shapes[k].s;
                static walk_fn *const walks[4] = {
                    walk_strided_state, walk_contiguous_state, walk_other_shape, walk_short_block,
                };
                for (unsigned w = 0; w < 4; w++) {
                    right[w] &= check_tile_walk(walks[w], d0, s, s, 2 * s + 96, s);
                    right[w] &= check_tile_walk(walks[w], d0, s, s + 32, s, s + 32);
                    right[w] &= check_tile_walk(walks[w], d0, s, 3 * s, 3 * s, 2 * s);
                }
            }
        }
        tl_check(right[0], "tile walks translated with rows apart (int8 [4, 4, 64], pitch 2048), "
                 "run with 7 shapes, rows apart on either side or both, three times: every "
                 "register and every destination byte the ISA's");
        tl_check(right[1], "the same translated with the rows contiguous after a load with them "
                 "apart");
        tl_check(right[2], "the same translated for another shape (int8 [8, 2, 64])");
        tl_check(right[3], "the same translated for a block of half the register (int8 [4, 2, 64])");
    }
    return tl_test_finish();
}
