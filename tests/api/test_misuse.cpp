/*
 * Run-time misuse of the tile API, one case per run: test_misuse CASE.
 * Built twice.  With run-time checks (default) every case must stop in
 * TL_API_CHECK: a "tl::OP: reason" line on stderr and abort() (exit 134),
 * before any TL instruction.  With -DTL_API_NO_CHECKS the "trap" cases reach
 * the hardware: SIGILL (exit 132) under qemu-riscv64, and on the host the
 * backend reports the core's illegal-instruction reason and aborts.
 * tests/api/run.sh runs every case on both backends.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cstdio>
#include <cstring>

#include "tl/tile.hpp"

static uint8_t mem[4096];

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    const char *c = argv[1];
    if (!std::strcmp(c, "store_not_prefix")) {
        /* valid (4, 2, 5) of [4, 2, 8] is not a prefix of each slice */
        tl::Tile<tl::int8, 4, 2, 8, 1> t(4, 2, 5);
        tl::TSTORE(tl::GlobalTensor<tl::int8>(mem, {4, 16}), t);
    } else if (!std::strcmp(c, "load_too_wide")) {
        tl::Tile2D<tl::int8, 4, 32, 1> t(4, 20);
        tl::TLOAD(t, tl::GlobalTensor<tl::int8>(mem, {4, 16}));
    } else if (!std::strcmp(c, "load_odd_int4")) {
        tl::Tile2D<tl::int4, 4, 32, 1> t(4, 7);
        tl::TLOAD(t, tl::GlobalTensor<tl::int4>(mem, {4, 32}));
    } else if (!std::strcmp(c, "load_huge_stride")) {
        tl::Tile2D<tl::int8, 4, 32, 1> t;
        tl::TLOAD(t, tl::GlobalTensor<tl::int8>(mem, {4, 32}, {int64_t(1) << 32, 1}));
    } else if (!std::strcmp(c, "valid_too_big")) {
        tl::Tile2D<tl::fp16, 4, 32, 1> t(5, 32);
        (void)t;
    } else if (!std::strcmp(c, "trap_concat_overflow")) {
        /* 3 + 2 indices selected along a dimension of 4 */
        tl::Tile<tl::int8, 4, 1, 16, 1> a;
        tl::TCONCAT<0>(a, a, a, 0x7, 0x3);
    } else {
        std::fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    std::printf("no error\n");
    return 0;
}
