/*
 * ML kernel benchmark: each kernel of kernels/ on the TL tile API against the
 * same kernel written as plain scalar C++ loops.
 *
 *  - built for riscv64 (the default on __riscv): runs the TL kernel and the
 *    plain kernel in the same qemu-riscv64 process, checks once that their
 *    outputs are byte-identical, and times both;
 *  - built for the host (or with BENCH_PLAIN_ONLY): times only the plain
 *    kernel, natively.
 *
 * Prints one line per kernel: "kernel NAME OUT_BYTES TL_NS PLAIN_NS CHECK",
 * times in nanoseconds per kernel call (median of BENCH_SAMPLES samples), TL_NS
 * and CHECK "-" when the TL kernel is not run.  "kernels scale" prints the
 * scaling table instead ("scale ..." lines, see run_scaling).  Never asserts
 * a timing.  "kernels_rv once NAME" runs one call of a kernel's TL version and
 * nothing else, so that tlstat's byte count of the run is that of one call;
 * "kernels list" prints the kernels' names, one per line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "bench_time.h"

#if defined(__riscv) && !defined(BENCH_PLAIN_ONLY)
#define BENCH_WITH_TL 1
#include "tl/tile.hpp"
#include "tl_kernels.hpp"
#endif

namespace plain {

/* Plain scalar C++ versions of the kernels, on uint8 (int8) data. */
void transpose2d(uint8_t *dst, const uint8_t *src, uint32_t R, uint32_t C)
{
    for (uint32_t r = 0; r < R; ++r)
        for (uint32_t c = 0; c < C; ++c) dst[size_t(c) * R + r] = src[size_t(r) * C + c];
}

void nchw_to_nhwc(uint8_t *dst, const uint8_t *src, uint32_t N, uint32_t C, uint32_t H, uint32_t W)
{
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t c = 0; c < C; ++c)
            for (uint32_t h = 0; h < H; ++h)
                for (uint32_t w = 0; w < W; ++w)
                    dst[((size_t(n) * H + h) * W + w) * C + c] = src[((size_t(n) * C + c) * H + h) * W + w];
}

void im2col3x3(uint8_t *out, const uint8_t *in, uint32_t C, uint32_t H, uint32_t W)
{
    for (uint32_t c = 0; c < C; ++c)
        for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw) {
                uint8_t *orow = out + (size_t(c) * 9 + uint32_t(kh * 3 + kw)) * H * W;
                for (uint32_t oh = 0; oh < H; ++oh)
                    for (uint32_t ow = 0; ow < W; ++ow) {
                        const int ih = int(oh) + kh - 1, iw = int(ow) + kw - 1;
                        const bool inside = ih >= 0 && ih < int(H) && iw >= 0 && iw < int(W);
                        orow[size_t(oh) * W + ow] =
                            inside ? in[(size_t(c) * H + uint32_t(ih)) * W + uint32_t(iw)] : 0;
                    }
            }
}

/* NHWC: out [P, C1+C2] from a [P, C1] and b [P, C2]. */
void concat_nhwc(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t P, uint32_t C1, uint32_t C2)
{
    for (uint32_t p = 0; p < P; ++p) {
        for (uint32_t c = 0; c < C1; ++c) out[size_t(p) * (C1 + C2) + c] = a[size_t(p) * C1 + c];
        for (uint32_t c = 0; c < C2; ++c) out[size_t(p) * (C1 + C2) + C1 + c] = b[size_t(p) * C2 + c];
    }
}

/* NCHW: out [N, C1+C2, L] from a [N, C1, L] and b [N, C2, L]. */
void concat_nchw(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t N, uint32_t C1, uint32_t C2,
                 uint32_t L)
{
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t c = 0; c < C1 + C2; ++c)
            for (uint32_t l = 0; l < L; ++l)
                out[(size_t(n) * (C1 + C2) + c) * L + l] =
                    c < C1 ? a[(size_t(n) * C1 + c) * L + l] : b[(size_t(n) * C2 + (c - C1)) * L + l];
}

/* Gather rows r0, r0+step, ... (nr rows) and columns c0 .. c0+nc-1 of a matrix with pitch into dense memory. */
void reshape_view(uint8_t *dst, const uint8_t *src, int64_t pitch, uint32_t nr, uint32_t nc)
{
    for (uint32_t r = 0; r < nr; ++r)
        for (uint32_t c = 0; c < nc; ++c) dst[size_t(r) * nc + c] = src[int64_t(r) * pitch + c];
}

/* y = sat(sat(x + off) * scale), unsigned 8-bit saturation (tl.addi then tl.muls). */
void quant_affine(uint8_t *dst, const uint8_t *src, size_t n, int off, uint32_t scale)
{
    for (size_t i = 0; i < n; ++i) {
        int v = int(src[i]) + off;
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        const uint32_t p = uint32_t(v) * scale;
        dst[i] = uint8_t(p > 255 ? 255 : p);
    }
}

} // namespace plain

#if !defined(__riscv)
/*
 * The data movement of the TL versions of the two pure-copy kernels whose
 * native code is one copy, run natively: 1 KiB buffers stand in for TL
 * registers and each TL instruction is one copy, as the TL kernel issues
 * them (tl.load: memory to a buffer, tl.store: a buffer to memory, two
 * tl.load and a tl.xpose.01 of [2, N, C] in a row: the interleave of the
 * memory into two buffers, as TL-QEMU runs them).  Its time is
 * about what the TL instructions cost with no emulation at all, so native /
 * staged is about the best native / TL for these kernels.  False when the
 * shape is not one the TL kernel moves this way.
 */
namespace staged {

alignas(64) uint8_t reg[32][1024];

/* Stops the compiler from forwarding a buffer's bytes past it, as a TL register is a copy. */
inline void settle() { __asm__ volatile("" : : : "memory"); }

/*
 * kernels::copy of rows of NC bytes: sixteen tiles of 1024 / NC rows loaded,
 * then stored.  Sizes are constants, so that each copy is inline vector moves.
 */
template <uint32_t NC>
bool reshape_view(uint8_t *dst, const uint8_t *src, int64_t pitch, uint32_t nr)
{
    constexpr uint32_t nc = NC, rows = 1024 / NC;
    static_assert(1024 % NC == 0, "rows of a 1 KiB tile");
    if (nr % rows != 0) return false;
    const uint32_t tiles = nr / rows;
    for (uint32_t t0 = 0; t0 < tiles; t0 += 16) {
        const uint32_t group = tiles - t0 < 16 ? tiles - t0 : 16;
        for (uint32_t k = 0; k < group; ++k)
            for (uint32_t r = 0; r < rows; ++r)
                std::memcpy(reg[1 + k] + r * nc, src + int64_t((t0 + k) * rows + r) * pitch, nc);
        settle();
        for (uint32_t k = 0; k < group; ++k) std::memcpy(dst + size_t(t0 + k) * 1024, reg[1 + k], 1024);
        settle();
    }
    return true;
}

/*
 * kernels::concat_cols of equal rows of C bytes, per 2 KiB: the two loads
 * and the interleave (one TL-QEMU pass, tl_exec_load_pair_xpose: the rows
 * of a and b straight to their places in the register pair), then the two
 * stores.
 */
template <uint32_t C>
bool concat_nhwc(uint8_t *out, const uint8_t *a, const uint8_t *b, uint32_t P)
{
    constexpr uint32_t c = C, n = 1024 / C;
    static_assert(1024 % C == 0, "rows of a 1 KiB tile");
    if (P % n != 0) return false;
    uint8_t *const pair = reg[1]; /* reg[1] and reg[2]: 2 KiB */
    for (uint32_t p = 0; p < P; p += n) {
        for (uint32_t i = 0; i < n; ++i) {
            std::memcpy(pair + 2 * i * c, a + size_t(p + i) * c, c);
            std::memcpy(pair + 2 * i * c + c, b + size_t(p + i) * c, c);
        }
        settle();
        std::memcpy(out + size_t(p) * 2 * c, pair, 1024);
        std::memcpy(out + size_t(p) * 2 * c + 1024, pair + 1024, 1024);
        settle();
    }
    return true;
}

} // namespace staged
#endif

namespace {

constexpr int kQuantOffset = -5;
constexpr uint32_t kQuantScale = 3;

struct Bufs {
    std::vector<uint8_t> a, b, out_tl, out_plain;
};

std::vector<uint8_t> pattern(size_t n, unsigned seed)
{
    std::vector<uint8_t> v(n);
    uint32_t x = 0x9E3779B9u * (seed + 1);
    for (size_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v[i] = uint8_t(x);
    }
    return v;
}

struct Case {
    const char *name;
    size_t in_a, in_b, out;
    void (*run_plain)(Bufs &);
#if BENCH_WITH_TL
    void (*run_tl)(Bufs &);
#endif
};

/* ---- sizes ---- */
constexpr uint32_t kTR = 256, kTC = 256;                    /* transpose2d 256x256 */
constexpr uint32_t kN = 1, kC = 64, kH = 32, kW = 32;      /* nchw_to_nhwc */
constexpr uint32_t kIC = 8, kIH = 32, kIW = 32;            /* im2col3x3 */
constexpr uint32_t kP = 1024, kC1 = 16, kC2 = 16;          /* concat: 32x32 pixels, 16+16 channels */
constexpr uint32_t kVR = 128, kVC = 256, kVPitch = 1024;   /* reshape: every other row of a 256x512 matrix */
constexpr size_t kQN = 65536;                              /* quant_affine */

#if BENCH_WITH_TL
using E = tl::int8;
template <unsigned R>
using GT = tl::GlobalTensor<E, R>;
#define TL_FN(...) [](Bufs &b) { __VA_ARGS__; }
#endif
#define PLAIN_FN(...) [](Bufs &b) { __VA_ARGS__; }

const Case kCases[] = {
    {"transpose2d_256x256", size_t(kTR) * kTC, 0, size_t(kTR) * kTC,
     PLAIN_FN(plain::transpose2d(b.out_plain.data(), b.a.data(), kTR, kTC)),
#if BENCH_WITH_TL
     TL_FN(tl::kernels::transpose2d<E>(GT<2>(b.out_tl.data(), {kTC, kTR}), GT<2>(b.a.data(), {kTR, kTC})))
#endif
    },
    {"nchw_to_nhwc_1x64x32x32", size_t(kN) * kC * kH * kW, 0, size_t(kN) * kC * kH * kW,
     PLAIN_FN(plain::nchw_to_nhwc(b.out_plain.data(), b.a.data(), kN, kC, kH, kW)),
#if BENCH_WITH_TL
     TL_FN(tl::kernels::nchw_to_nhwc<E>(GT<4>(b.out_tl.data(), {kN, kH, kW, kC}),
                                        GT<4>(b.a.data(), {kN, kC, kH, kW})))
#endif
    },
    {"im2col3x3_8x32x32", size_t(kIC) * kIH * kIW, 0, size_t(kIC) * 9 * kIH * kIW,
     PLAIN_FN(plain::im2col3x3(b.out_plain.data(), b.a.data(), kIC, kIH, kIW)),
#if BENCH_WITH_TL
     TL_FN(tl::kernels::im2col3x3<E>(GT<2>(b.out_tl.data(), {kIC * 9, kIH * kIW}),
                                     GT<3>(b.a.data(), {kIC, kIH, kIW})))
#endif
    },
    {"concat_channels_nhwc_32x32x(16+16)", size_t(kP) * kC1, size_t(kP) * kC2, size_t(kP) * (kC1 + kC2),
     PLAIN_FN(plain::concat_nhwc(b.out_plain.data(), b.a.data(), b.b.data(), kP, kC1, kC2)),
#if BENCH_WITH_TL
     TL_FN(tl::kernels::concat_channels_nhwc<E>(GT<4>(b.out_tl.data(), {1, 32, 32, kC1 + kC2}),
                                                GT<4>(b.a.data(), {1, 32, 32, kC1}),
                                                GT<4>(b.b.data(), {1, 32, 32, kC2})))
#endif
    },
    {"concat_channels_nchw_(16+16)x32x32", size_t(kP) * kC1, size_t(kP) * kC2, size_t(kP) * (kC1 + kC2),
     PLAIN_FN(plain::concat_nchw(b.out_plain.data(), b.a.data(), b.b.data(), 1, kC1, kC2, kP)),
#if BENCH_WITH_TL
     TL_FN(tl::kernels::concat_channels_nchw<E>(GT<4>(b.out_tl.data(), {1, kC1 + kC2, 32, 32}),
                                                GT<4>(b.a.data(), {1, kC1, 32, 32}),
                                                GT<4>(b.b.data(), {1, kC2, 32, 32})))
#endif
    },
    {"reshape_strided_128x256", size_t(2 * kVR) * kVPitch, 0, size_t(kVR) * kVC,
     PLAIN_FN(plain::reshape_view(b.out_plain.data(), b.a.data() + 64, 2 * kVPitch, kVR, kVC)),
#if BENCH_WITH_TL
     TL_FN((void)tl::kernels::reshape<E, 1>(b.out_tl.data(), {kVR * kVC},
                                           GT<2>(b.a.data(), {2 * kVR, kVPitch}).slice(0, 0, kVR, 2).slice(1, 64, kVC)))
#endif
    },
    {"copy2d_256x256", size_t(256) * 256, 0, size_t(256) * 256,
     PLAIN_FN(plain::reshape_view(b.out_plain.data(), b.a.data(), 256, 256, 256)),
#if BENCH_WITH_TL
     TL_FN(tl::kernels::copy<E, 2>(GT<2>(b.out_tl.data(), {256, 256}), GT<2>(b.a.data(), {256, 256})))
#endif
    },
    {"quant_affine_64k", kQN, 0, kQN,
     PLAIN_FN(plain::quant_affine(b.out_plain.data(), b.a.data(), kQN, kQuantOffset, kQuantScale)),
#if BENCH_WITH_TL
     TL_FN((tl::kernels::quant_affine<kQuantOffset, E>(b.out_tl.data(), b.a.data(), kQN, kQuantScale)))
#endif
    },
};

struct Ctx {
    const Case *c;
    Bufs *b;
    bool tl;
};

void body(void *p, uint64_t reps)
{
    Ctx *x = static_cast<Ctx *>(p);
    for (uint64_t i = 0; i < reps; ++i) {
#if BENCH_WITH_TL
        if (x->tl) {
            x->c->run_tl(*x->b);
        } else
#endif
        {
            x->c->run_plain(*x->b);
        }
        __asm__ volatile("" : : "r"(x->b->out_plain.data()), "r"(x->b->out_tl.data()) : "memory");
    }
}

/* ---- scaling: the same kernels at output sizes from 16 KiB to 16 MiB ---- */

template <class F>
double time_ns(F f)
{
    struct Body {
        static void run(void *p, uint64_t reps)
        {
            F &fn = *static_cast<F *>(p);
            for (uint64_t i = 0; i < reps; ++i) {
                fn();
            }
        }
    };
    return bench_median_ns(Body::run, &f);
}

/*
 * "scale NAME OUT_BYTES TL_NS PLAIN_NS CHECK" for each size: under
 * qemu-riscv64 the TL kernel (checked once against the plain one, whose time
 * is not taken: it is the native figure that matters), natively the plain one.
 */
void run_scaling()
{
    for (uint32_t kib = 16; kib <= 16384; kib *= 4) {
        const size_t bytes = size_t(kib) * 1024;
        Bufs b;
        b.a = pattern(bytes, 7);
        b.b = pattern(bytes, 8);
        b.out_tl.assign(bytes, 0xEE);
        b.out_plain.assign(bytes, 0xEE);
        uint32_t n = 64;
        while (size_t(n) * n < bytes) n *= 2;       /* transpose n x n */
        const uint32_t rows = uint32_t(bytes / 256);  /* copy2d rows x 256 */
        const uint32_t pixels = uint32_t(bytes / 32); /* concat 16+16 channels */
        struct K {
            const char *name;
            std::function<void()> plain, tl;
        };
        const K ks[] = {
            {"transpose2d", [&] { plain::transpose2d(b.out_plain.data(), b.a.data(), n, n); },
#if BENCH_WITH_TL
             [&] { tl::kernels::transpose2d<E>(GT<2>(b.out_tl.data(), {n, n}), GT<2>(b.a.data(), {n, n})); }
#else
             nullptr
#endif
            },
            {"copy2d", [&] { plain::reshape_view(b.out_plain.data(), b.a.data(), 256, rows, 256); },
#if BENCH_WITH_TL
             [&] { tl::kernels::copy<E, 2>(GT<2>(b.out_tl.data(), {rows, 256}), GT<2>(b.a.data(), {rows, 256})); }
#else
             nullptr
#endif
            },
            {"concat_channels_nhwc", [&] { plain::concat_nhwc(b.out_plain.data(), b.a.data(), b.b.data(), pixels, 16, 16); },
#if BENCH_WITH_TL
             [&] {
                 tl::kernels::concat_channels_nhwc<E>(GT<4>(b.out_tl.data(), {1, 1, pixels, 32}),
                                                      GT<4>(b.a.data(), {1, 1, pixels, 16}),
                                                      GT<4>(b.b.data(), {1, 1, pixels, 16}));
             }
#else
             nullptr
#endif
            },
            {"quant_affine", [&] { plain::quant_affine(b.out_plain.data(), b.a.data(), bytes, kQuantOffset, kQuantScale); },
#if BENCH_WITH_TL
             [&] { tl::kernels::quant_affine<kQuantOffset, E>(b.out_tl.data(), b.a.data(), bytes, kQuantScale); }
#else
             nullptr
#endif
            },
        };
        for (const K &k : ks) {
            const size_t out = std::strcmp(k.name, "transpose2d") == 0 ? size_t(n) * n : bytes;
            if (out > bytes) continue;
#if BENCH_WITH_TL
            k.plain();
            k.tl();
            const bool same = std::memcmp(b.out_tl.data(), b.out_plain.data(), out) == 0;
            std::printf("scale %s %zu %.1f - %s\n", k.name, out, time_ns(k.tl), same ? "ok" : "MISMATCH");
#else
            std::printf("scale %s %zu - %.1f -\n", k.name, out, time_ns(k.plain));
#endif
            std::fflush(stdout);
        }
    }
}

#if !defined(__riscv)
/* Host builds only: the staged copies are a native measurement (and code added to kernels_rv moves its hot loops). */
/*
 * "staged NAME BYTES NS CHECK" for each kernel with a staged version: its
 * TL data movement run natively (namespace staged), checked against the
 * plain kernel.
 */
struct StagedCase {
    const char *name;
    bool (*run)(Bufs &);
};
const StagedCase kStaged[] = {
    {"reshape_strided_128x256",
     [](Bufs &b) { return staged::reshape_view<kVC>(b.out_tl.data(), b.a.data() + 64, 2 * kVPitch, kVR); }},
    {"concat_channels_nhwc_32x32x(16+16)",
     [](Bufs &b) { return kC1 == kC2 && staged::concat_nhwc<kC1>(b.out_tl.data(), b.a.data(), b.b.data(), kP); }},
};

int run_staged()
{
    int rc = 0;
    for (const StagedCase &sc : kStaged) {
        unsigned seed = 0;
        const Case *c = nullptr;
        for (const Case &k : kCases) {
            ++seed;
            if (std::strcmp(k.name, sc.name) == 0) {
                c = &k;
                break;
            }
        }
        if (!c) {
            std::fprintf(stderr, "kernels: staged version of an unknown kernel '%s'\n", sc.name);
            return 2;
        }
        Bufs b;
        b.a = pattern(c->in_a, seed);
        b.b = pattern(c->in_b ? c->in_b : 1, seed + 100);
        b.out_tl.assign(c->out, 0xEE);
        b.out_plain.assign(c->out, 0xEE);
        c->run_plain(b);
        const bool same = sc.run(b) && b.out_tl == b.out_plain;
        struct Body {
            static void run(void *p, uint64_t reps)
            {
                const auto *x = static_cast<const std::pair<const StagedCase *, Bufs *> *>(p);
                for (uint64_t i = 0; i < reps; ++i) {
                    x->first->run(*x->second);
                    __asm__ volatile("" : : "r"(x->second->out_tl.data()) : "memory");
                }
            }
        };
        std::pair<const StagedCase *, Bufs *> ctx{&sc, &b};
        std::printf("staged %s %zu %.1f %s\n", sc.name, c->out, bench_median_ns(Body::run, &ctx),
                    same ? "ok" : "MISMATCH");
        std::fflush(stdout);
        rc |= same ? 0 : 1;
    }
    return rc;
}
#endif

#if BENCH_WITH_TL
/* No warm-up, plain version or timing: every TL instruction of the process belongs to the one call. */
int run_once(const char *name)
{
    unsigned seed = 0;
    for (const Case &c : kCases) {
        ++seed;
        if (std::strcmp(name, c.name) != 0) continue;
        Bufs b;
        b.a = pattern(c.in_a, seed);
        b.b = pattern(c.in_b ? c.in_b : 1, seed + 100);
        b.out_tl.assign(c.out, 0xEE);
        c.run_tl(b);
        __asm__ volatile("" : : "r"(b.out_tl.data()) : "memory");
        std::printf("once %s\n", c.name);
        return 0;
    }
    std::fprintf(stderr, "kernels_rv: no kernel named '%s'\n", name);
    return 2;
}
#endif

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "scale") == 0) {
        run_scaling();
        return 0;
    }
#if !defined(__riscv)
    if (argc > 1 && std::strcmp(argv[1], "staged") == 0) return run_staged();
#endif
#if BENCH_WITH_TL
    if (argc == 3 && std::strcmp(argv[1], "once") == 0) return run_once(argv[2]);
#endif
    if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
        for (const Case &c : kCases) std::printf("%s\n", c.name);
        return 0;
    }
    /* Optional: kernels_rv NAME [tl] runs one kernel (tl: only its TL version, for profiling). */
    const char *only = argc > 1 ? argv[1] : nullptr;
    const bool tl_only = argc > 2 && std::strcmp(argv[2], "tl") == 0;
    unsigned seed = 0;
    for (const Case &c : kCases) {
        ++seed;
        /* NAME is a kernel's full name or the part before its sizes ("concat_channels_nchw"). */
        const size_t only_len = only ? std::strlen(only) : 0;
        if (only && (std::strncmp(only, c.name, only_len) != 0 ||
                     (c.name[only_len] != '\0' && c.name[only_len] != '_'))) continue;
        Bufs b;
        b.a = pattern(c.in_a, seed);
        b.b = pattern(c.in_b ? c.in_b : 1, seed + 100);
        b.out_tl.assign(c.out, 0xEE);
        b.out_plain.assign(c.out, 0xEE);
        Ctx ctx{&c, &b, false};
        const double plain_ns = tl_only ? 0.0 : bench_median_ns(body, &ctx);
        if (tl_only) c.run_plain(b);
#if BENCH_WITH_TL
        ctx.tl = true;
        c.run_tl(b);
        const bool same = b.out_tl == b.out_plain;
        const double tl_ns = bench_median_ns(body, &ctx);
        std::printf("kernel %s %zu %.1f %.1f %s\n", c.name, c.out, tl_ns, plain_ns, same ? "ok" : "MISMATCH");
#else
        std::printf("kernel %s %zu - %.1f -\n", c.name, c.out, plain_ns);
#endif
        std::fflush(stdout);
    }
    return 0;
}
