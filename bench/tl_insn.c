/*
 * Per-instruction throughput of TL instructions under qemu-riscv64
 * (-cpu rv64,xtl=on), with scalar riscv64 baselines run in the same QEMU.
 * Prints "name bytes_per_second ns_per_instruction"; bytes are the bytes
 * one instruction moves (1 KiB for tl.load / tl.store / tl.concat, 2 KiB
 * for tl.xpose; the scalar baselines move the same bytes per "op").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench_time.h"
#include "tl_loops.h"

static uint8_t buf_a[4096] __attribute__((aligned(4096)));
static uint8_t buf_b[4096] __attribute__((aligned(4096)));
static uint8_t buf_c[4096] __attribute__((aligned(4096)));
/* Initialised, so in the executable's file-backed pages: a program's own tables and buffers. */
static const uint8_t ro_table[1024] __attribute__((aligned(1024))) = {1};
static uint8_t data_buf[1024] __attribute__((aligned(1024))) = {1};

/*
 * 1 KiB across a page of a file mapping and the anonymous page after it, as
 * a static array that starts in the last page of the program's data.
 */
static const uint8_t *file_then_anon;

static const uint8_t *map_file_then_anon(void)
{
    int fd = open("/proc/self/exe", O_RDONLY);
    uint8_t *p = fd < 0 ? MAP_FAILED : mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);

    if (fd >= 0) {
        close(fd);
    }
    if (p == MAP_FAILED ||
        mmap(p + 4096, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
        return NULL;
    }
    return p + 4096 - 512;
}

static void b_load(void *c, uint64_t r) { (void)c; bench_tl_load(buf_a, r); }
static void b_load_strided(void *c, uint64_t r) { (void)c; bench_tl_load(buf_a, r); }
static void b_store(void *c, uint64_t r) { (void)c; bench_tl_store(buf_b, r); }
static void b_load_rodata(void *c, uint64_t r) { (void)c; bench_tl_load(ro_table, r); }
static void b_store_data(void *c, uint64_t r) { (void)c; bench_tl_store(data_buf, r); }
static void b_load_file_anon(void *c, uint64_t r) { (void)c; bench_tl_load(file_then_anon, r); }
static void b_copy(void *c, uint64_t r) { (void)c; bench_tl_copy(buf_b, buf_a, r); }
static void b_xpose(void *c, uint64_t r) { (void)c; bench_tl_xpose(r); }
static void b_concat2(void *c, uint64_t r) { (void)c; bench_tl_concat2(r); }
static void b_concat0(void *c, uint64_t r) { (void)c; bench_tl_concat0(r); }
static void b_scalar_copy(void *c, uint64_t r) { (void)c; bench_scalar_copy_1k(buf_b, buf_a, r); }
static void b_scalar_memcpy(void *c, uint64_t r)
{
    (void)c;
    for (uint64_t i = 0; i < r; i++) {
        uint8_t *d = buf_b, *s = buf_a;
        size_t n = 1024;
        __asm__ volatile("" : "+r"(d), "+r"(s), "+r"(n));
        memcpy(d, s, n);
        __asm__ volatile("" : : "r"(d) : "memory");
    }
}
static void b_scalar_xpose(void *c, uint64_t r) { (void)c; bench_scalar_xpose(buf_b, buf_a, r); }
static void b_scalar_concat2(void *c, uint64_t r) { (void)c; bench_scalar_concat2(buf_c, buf_a, buf_b, r); }

static void report(const char *name, bench_body_fn fn, double bytes_per_op, double ops_per_rep)
{
    double ns = bench_median_ns(fn, NULL) / ops_per_rep;
    printf("%s %.6e %.3f\n", name, bytes_per_op * 1e9 / ns, ns);
    fflush(stdout);
}

int main(void)
{
    for (unsigned i = 0; i < sizeof(buf_a); i++) {
        buf_a[i] = (uint8_t)(i * 13 + 1);
        buf_b[i] = (uint8_t)(i * 7 + 3);
    }
    bench_setup_mem_1k();
    report("tl.load_1k", b_load, 1024, BENCH_UNROLL);
    report("tl.store_1k", b_store, 1024, BENCH_UNROLL);
    report("tl.load+store_1k", b_copy, 1024, BENCH_UNROLL / 2);
    report("tl.load_1k_rodata", b_load_rodata, 1024, BENCH_UNROLL);
    report("tl.store_1k_data", b_store_data, 1024, BENCH_UNROLL);
    file_then_anon = map_file_then_anon();
    if (file_then_anon) {
        report("tl.load_1k_file_anon", b_load_file_anon, 1024, BENCH_UNROLL);
    } else {
        fprintf(stderr, "tl_insn: cannot map /proc/self/exe: no file+anonymous row\n");
    }
    bench_setup_mem_1k_strided();
    report("tl.load_1k_pitch256", b_load_strided, 1024, BENCH_UNROLL);
    bench_setup_mem_1k();
    tl_load(1, 0, buf_a);
    tl_load(2, 0, buf_a + 1024);
    report("tl.xpose_2k", b_xpose, 2048, BENCH_UNROLL);
    bench_setup_concat();
    report("tl.concat.2_1k", b_concat2, 1024, BENCH_UNROLL);
    report("tl.concat.0_1k", b_concat0, 1024, BENCH_UNROLL);
    report("scalar_copy_1k", b_scalar_copy, 1024, 1);
    report("scalar_memcpy_1k", b_scalar_memcpy, 1024, 1);
    report("scalar_xpose_2k", b_scalar_xpose, 2048, 1);
    report("scalar_concat2_1k", b_scalar_concat2, 1024, 1);
    return 0;
}
