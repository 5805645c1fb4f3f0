/*
 * TL loads and stores on file mappings past the end of the file under
 * qemu-riscv64 (docs/isa.md 5.2, 6.2; docs/abi.md): such a page is mapped,
 * but touching it raises SIGBUS.  A TL access that reaches it gets the
 * SIGBUS a scalar access to its first such byte gets (the scalar access is
 * made in the same run, as the reference), QEMU keeps running, and nothing
 * changes: the destination TLReg keeps its contents, a store writes no
 * byte, not even to the page before the end of the file.  Slices a mask
 * leaves out are not accessed, so they raise nothing; once the file grows,
 * the same instructions complete, and once it shrinks again (after
 * accesses that completed there) they raise SIGBUS again.  The program's
 * own file-backed pages (its code, its initialised .data) take TL loads and
 * stores like any other memory: the reference is scalar accesses.  So do
 * accesses across a file page and an anonymous page next to it (as a static
 * array that starts in the last page of .data), until the file page goes
 * past the end of the file: then they raise SIGBUS, each time.
 *
 * The file is 4096 bytes (one page, byte k = k * 7 + 0x31); the mappings are
 * three pages: page 0 holds the file, pages 1 and 2 are past its end.
 */
#include "tl_test.h"
#include "tl_state.h"
#include "tl/tl_insn.h"

#include <fcntl.h>
#include <unistd.h>

#define PG 4096L

static uint8_t file_pat(size_t k) { return (uint8_t)(k * 7 + 0x31); }
static uint8_t reg_pat(size_t i) { return (uint8_t)(0xA0 ^ (i * 29 + 7)); }

static uint8_t pre[1024], rb[1024] __attribute__((aligned(64)));
static uint8_t src[1024] __attribute__((aligned(64)));

static void preload(void)
{
    tl_state_whole_register_view();
    for (int i = 0; i < 1024; i++) {
        pre[i] = reg_pat(i);
    }
    tl_load(1, 0, pre);
}

static int reg_unchanged(void)
{
    tl_state_whole_register_view();
    memset(rb, 0, sizeof(rb));
    tl_store(1, 0, rb);
    return memcmp(rb, pre, 1024) == 0;
}

static int make_file(void)
{
    char path[] = "/tmp/tl-file-faults-XXXXXX";
    int fd = mkstemp(path);
    uint8_t page[PG];

    if (fd < 0) {
        perror("mkstemp");
        exit(2);
    }
    unlink(path);
    for (long k = 0; k < PG; k++) {
        page[k] = file_pat(k);
    }
    if (write(fd, page, PG) != PG) {
        perror("write");
        exit(2);
    }
    return fd;
}

static void run(const char *kind, int shared)
{
    int fd = make_file();
    uint8_t *m = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
    uint8_t *past = m + PG;             /* first byte past the end of the file */
    uint8_t *cross = m + PG - 512;      /* 512 bytes in the file, 512 past it */
    int sig, ok;
    void *scalar_addr;

    if (m == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }

    sig = TL_TRAPS((void)*(volatile uint8_t *)past);
    scalar_addr = tl_trap_addr;
    tl_check(sig == SIGBUS && scalar_addr == past,
             "%s: a scalar load past the end of the file raises SIGBUS at %p (got signal %d at %p)", kind,
             (void *)past, sig, scalar_addr);

    preload();
    sig = TL_TRAPS(tl_load(1, 0, past));
    tl_check(sig == SIGBUS && tl_trap_addr == scalar_addr && reg_unchanged(),
             "%s: tl.load of a whole register past the end: SIGBUS at the scalar's address, tl1 unchanged "
             "(signal %d at %p)", kind, sig, tl_trap_addr);

    preload();
    sig = TL_TRAPS(tl_load(1, 0, cross));
    tl_check(sig == SIGBUS && tl_trap_addr == scalar_addr && reg_unchanged(),
             "%s: tl.load across the end (512 + 512 bytes): SIGBUS at the first byte past it, tl1 unchanged "
             "(signal %d at %p)", kind, sig, tl_trap_addr);

    /* 4 slices of 64 bytes at pitch 256 from page 0's last KiB + 256: the last slice is past the end. */
    preload();
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    sig = TL_TRAPS(tl_load(1, 0, m + PG - 768));
    tl_check(sig == SIGBUS && tl_trap_addr == scalar_addr && reg_unchanged(),
             "%s: strided tl.load whose slice 3 is past the end: SIGBUS at %p, tl1 unchanged (signal %d at %p)",
             kind, (void *)past, sig, tl_trap_addr);

    /* The same with slice 3 masked off: no access past the end, slices 0-2 loaded. */
    preload();
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    tl_csr_write(TL_CSR_TMASK_LS, 0x7);
    sig = TL_TRAPS(tl_mload(1, 0, m + PG - 768));
    tl_state_whole_register_view();
    tl_store(1, 0, rb);
    ok = sig == 0;
    for (int i = 0; i < 4 && ok; i++) {
        for (int b = 0; b < 256 && ok; b++) {
            /* docs/isa.md 5.2: a selected slice's W bytes, the rest of the slice zero; unselected slices zero */
            uint8_t want = i < 3 && b < 64 ? file_pat(PG - 768 + i * 256 + b) : 0;
            ok = rb[i * 256 + b] == want;
        }
    }
    tl_check(ok, "%s: tl.mload with the slice past the end masked off completes with the file's bytes "
             "(signal %d)", kind, sig);

    /* A store across the end: SIGBUS, and the file's page keeps every byte. */
    tl_state_whole_register_view();
    for (int i = 0; i < 1024; i++) {
        src[i] = (uint8_t)(i * 3 + 1);
    }
    tl_load(2, 0, src);
    sig = TL_TRAPS(tl_store(2, 0, cross));
    ok = 1;
    for (long k = 0; k < PG && ok; k++) {
        ok = m[k] == file_pat(k);
    }
    tl_check(sig == SIGBUS && tl_trap_addr == scalar_addr && ok,
             "%s: tl.store across the end: SIGBUS at the first byte past it, no byte of the file's page "
             "changed (signal %d at %p)", kind, sig, tl_trap_addr);

    /* The file grows: the same load and store complete. */
    if (ftruncate(fd, 3 * PG) != 0) {
        perror("ftruncate");
        exit(2);
    }
    sig = TL_TRAPS(tl_store(2, 0, cross));
    ok = sig == 0 && memcmp(cross, src, 1024) == 0;
    preload();
    sig = TL_TRAPS(tl_load(1, 0, cross));
    tl_state_whole_register_view();
    tl_store(1, 0, rb);
    tl_check(ok && sig == 0 && memcmp(rb, src, 1024) == 0,
             "%s: after ftruncate to 3 pages the store and the load across the old end complete (signal %d)",
             kind, sig);

    /*
     * The file shrinks back to one page after the accesses above completed
     * over its old end: the same accesses raise SIGBUS again, as the
     * scalar load does, and change nothing.
     */
    uint8_t before[PG];
    memcpy(before, m, PG);
    if (ftruncate(fd, PG) != 0) {
        perror("ftruncate");
        exit(2);
    }
    sig = TL_TRAPS((void)*(volatile uint8_t *)past);
    tl_check(sig == SIGBUS && tl_trap_addr == past,
             "%s: after ftruncate back to 1 page a scalar load past the end raises SIGBUS (signal %d)", kind,
             sig);
    preload();
    sig = TL_TRAPS(tl_load(1, 0, cross));
    tl_check(sig == SIGBUS && tl_trap_addr == past && reg_unchanged(),
             "%s: after ftruncate back to 1 page tl.load across the end: SIGBUS at the first byte past it, "
             "tl1 unchanged (signal %d at %p)", kind, sig, tl_trap_addr);
    tl_load(2, 0, src);
    sig = TL_TRAPS(tl_store(2, 0, m + PG - 768 + 1));
    tl_check(sig == SIGBUS && tl_trap_addr == past && memcmp(m, before, PG) == 0,
             "%s: after ftruncate back to 1 page tl.store across the end: SIGBUS, no byte of the file's page "
             "changed (signal %d at %p)", kind, sig, tl_trap_addr);

    munmap(m, 3 * PG);
    close(fd);
}

/*
 * A page of the file and an anonymous page next to it (file_page: which
 * of the two comes first): accesses across the two complete with the bytes
 * of both, repeatedly (once the run of the two mappings is remembered), and
 * so do accesses to the anonymous page alone.  After the file is truncated
 * to nothing, its page is past the end: the accesses across raise SIGBUS at
 * the first byte of it they reach, as a scalar load does, the register
 * keeps its contents and the anonymous page keeps its bytes, while the
 * anonymous page alone still loads.  The file page first is a static array
 * that starts in the last page of .data; the anonymous page first is a
 * mapping of a file placed after a buffer.
 */
static uint8_t anon_pat(long k) { return (uint8_t)(k * 5 + 9); }

static void file_and_anon(const char *kind, int shared, int file_page)
{
    int fd = make_file();
    uint8_t *m = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *file = m + file_page * PG, *anon = m + (1 - file_page) * PG;
    uint8_t *cross = m + PG - 512;      /* 512 bytes in page 0, 512 in page 1 */
    static uint8_t want[1024];
    int sig, ok;

    if (m == MAP_FAILED || mmap(file, PG, PROT_READ | PROT_WRITE, MAP_FIXED | (shared ? MAP_SHARED : MAP_PRIVATE),
                                fd, 0) != file) {
        perror("mmap");
        exit(2);
    }
    for (long k = 0; k < PG; k++) {
        anon[k] = anon_pat(k);
    }
    for (int i = 0; i < 1024; i++) {
        long o = PG - 512 + i;
        want[i] = m + o >= file && m + o < file + PG ? file_pat(o % PG) : anon_pat(o % PG);
    }
    for (volatile int round = 0; round < 3; round++) {
        preload();
        sig = TL_TRAPS(tl_load(1, 0, cross));
        tl_state_whole_register_view();
        tl_store(1, 0, rb);
        tl_check(sig == 0 && memcmp(rb, want, 1024) == 0,
                 "%s: tl.load across the file page and the anonymous page gives both pages' bytes "
                 "(round %d, signal %d)", kind, round, sig);
        tl_load(1, 0, anon + 8);
        tl_store(1, 0, rb);
        ok = 1;
        for (int i = 0; i < 1024 && ok; i++) {
            ok = rb[i] == anon_pat(8 + i);
        }
        tl_check(ok, "%s: tl.load of the anonymous page alone after it gives its bytes (round %d)", kind, round);
    }
    if (shared) {
        for (int i = 0; i < 1024; i++) {
            src[i] = (uint8_t)(i * 13 + 2);
        }
        tl_load(2, 0, src);
        for (volatile int round = 0; round < 2; round++) {
            sig = TL_TRAPS(tl_store(2, 0, cross - 64 * round));
            ok = sig == 0 && memcmp(cross - 64 * round, src, 1024) == 0;
            tl_check(ok, "%s: tl.store across the file page and the anonymous page writes its bytes "
                     "(round %d, signal %d)", kind, round, sig);
        }
    }

    /*
     * The accesses before each truncation come twice in a row, with no
     * other TL access between them and the one after it, so that the
     * range the first one remembered is the one the later ones find.
     */
    uint8_t *fault = file_page == 0 ? cross : file;
    static uint8_t reg_before[1024];
    tl_state_whole_register_view();
    tl_load(1, 0, cross);
    tl_load(1, 0, cross);
    tl_addi(1, 1, 1);                   /* tl1 differs from the bytes a load across would give */
    tl_store(1, 0, reg_before);         /* stores have their own remembered range */
    if (ftruncate(fd, 0) != 0) {
        perror("ftruncate");
        exit(2);
    }
    sig = TL_TRAPS(tl_load(1, 0, cross));
    void *tl_addr = tl_trap_addr;
    tl_store(1, 0, rb);
    tl_check(sig == SIGBUS && tl_addr == fault && memcmp(rb, reg_before, 1024) == 0,
             "%s: after ftruncate to 0 tl.load across the two pages: SIGBUS at %p, tl1 unchanged "
             "(signal %d at %p)", kind, (void *)fault, sig, tl_addr);
    sig = TL_TRAPS((void)*(volatile uint8_t *)fault);
    tl_check(sig == SIGBUS && tl_trap_addr == fault,
             "%s: after ftruncate to 0 a scalar load of the file page raises SIGBUS at %p (signal %d at %p)",
             kind, (void *)fault, sig, tl_trap_addr);
    /* tl0 keeps nothing, but its load still reads every byte (docs/isa.md 5.2): only the touch faults. */
    sig = TL_TRAPS(tl_load(0, 0, cross));
    tl_check(sig == SIGBUS && tl_trap_addr == fault,
             "%s: after ftruncate to 0 tl.load to tl0 across the two pages: SIGBUS at %p (signal %d at %p)",
             kind, (void *)fault, sig, tl_trap_addr);

    if (ftruncate(fd, PG) != 0) {
        perror("ftruncate");
        exit(2);
    }
    tl_load(2, 0, src);
    tl_store(2, 0, cross);
    tl_store(2, 0, cross);
    tl_addi(2, 2, 1);                   /* bytes other than those the page has */
    uint8_t anon_before[PG];
    memcpy(anon_before, anon, PG);
    if (ftruncate(fd, 0) != 0) {
        perror("ftruncate");
        exit(2);
    }
    sig = TL_TRAPS(tl_store(2, 0, cross));
    tl_check(sig == SIGBUS && tl_trap_addr == fault && memcmp(anon, anon_before, PG) == 0,
             "%s: after ftruncate to 0 tl.store across the two pages: SIGBUS at %p, no byte of the anonymous "
             "page changed (signal %d at %p)", kind, (void *)fault, sig, tl_trap_addr);
    tl_state_whole_register_view();
    sig = TL_TRAPS(tl_load(1, 0, anon));
    tl_store(1, 0, rb);
    tl_check(sig == 0 && memcmp(rb, anon_before, 1024) == 0,
             "%s: after ftruncate to 0 tl.load of the anonymous page alone still completes (signal %d)", kind,
             sig);
    munmap(m, 2 * PG);
    close(fd);
}

/* Initialised, so in .data: file-backed pages of the executable (MAP_PRIVATE). */
static uint8_t data_buf[3 * 1024] __attribute__((aligned(64))) = {1};

/* The ISA's register after a load of [4, 1, 256] with width w, pitch p, mask m (docs/isa.md 5.2). */
static void expect_load(uint8_t *want, const volatile uint8_t *base, unsigned w, long p, uint32_t m)
{
    memset(want, 0, 1024);
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned b = 0; b < w && (m >> i & 1); b++) {
            want[i * 256 + b] = base[i * p + b];
        }
    }
}

static void static_data(void)
{
    static uint8_t want[1024];
    const volatile uint8_t *code = (const volatile uint8_t *)(uintptr_t)&make_file;

    /* The program's code: a whole register, then strided masked slices. */
    tl_state_whole_register_view();
    tl_load(1, 0, (const void *)code);
    tl_store(1, 0, rb);
    expect_load(want, code, 256, 256, 0xF);
    tl_check(memcmp(rb, want, 1024) == 0, "tl.load of 1 KiB of the program's code gives its bytes");
    tl_state_whole_register_view();
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 100);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 300);
    tl_csr_write(TL_CSR_TMASK_LS, 0xB);
    tl_mload(1, 0, (const void *)(code + 5));
    tl_state_whole_register_view();
    tl_store(1, 0, rb);
    expect_load(want, code + 5, 100, 300, 0xB);
    tl_check(memcmp(rb, want, 1024) == 0,
             "tl.mload of slices 0, 1, 3 (100 bytes, pitch 300) of the program's code gives its bytes");

    /* .data: a store, then a load back, each checked with scalar accesses. */
    for (int i = 0; i < 1024; i++) {
        src[i] = (uint8_t)(i * 11 + 5);
    }
    for (int round = 0; round < 2; round++) {     /* the second round reaches the range remembered */
        memset(data_buf, 0x5A, sizeof(data_buf));
        tl_state_whole_register_view();
        tl_load(2, 0, src);
        tl_store(2, 0, data_buf + 1000);
        int ok = memcmp(data_buf + 1000, src, 1024) == 0;
        for (int i = 0; i < 1000 && ok; i++) {
            ok = data_buf[i] == 0x5A && data_buf[2024 + i] == 0x5A;
        }
        tl_check(ok, "tl.store of 1 KiB to .data writes exactly its bytes (round %d)", round);
        for (int i = 0; i < (int)sizeof(data_buf); i++) {
            data_buf[i] = (uint8_t)(i * 3 + round);
        }
        tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 64);
        tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 700);
        tl_load(1, 0, data_buf + 17);
        tl_state_whole_register_view();
        tl_store(1, 0, rb);
        expect_load(want, data_buf + 17, 64, 700, 0xF);
        tl_check(memcmp(rb, want, 1024) == 0,
                 "tl.load of 4 slices of 64 bytes at pitch 700 from .data gives its bytes (round %d)", round);
    }
}

int main(void)
{
    tl_trap_install();
    run("MAP_SHARED", 1);
    run("MAP_PRIVATE", 0);
    file_and_anon("MAP_SHARED, file page first", 1, 0);
    file_and_anon("MAP_PRIVATE, file page first", 0, 0);
    file_and_anon("MAP_SHARED, anonymous page first", 1, 1);
    file_and_anon("MAP_PRIVATE, anonymous page first", 0, 1);
    static_data();
    return tl_test_finish();
}
