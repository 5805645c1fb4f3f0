/*
 * TensorLoad (xtl) semantic core: which host SIMD extensions the optimized
 * paths use.  Detected once at start-up from the host CPU; a test or a
 * benchmark can narrow the set (tl_host_simd_use) to run the paths a host
 * without those extensions takes.  Every path gives the same results.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl_core_internal.h"

namespace tl {
namespace detail {

/* Constant-initialized: the baseline paths until start-up detection ran. */
std::atomic<unsigned> g_host_simd{0};

namespace {

unsigned DetectHostSimd()
{
    unsigned set = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    /* Constructors may run before libgcc's own CPU detection. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        set |= TL_HOST_SIMD_AVX2;
    }
    if (__builtin_cpu_supports("avx512f")) {
        set |= TL_HOST_SIMD_AVX512F;
    }
    if (__builtin_cpu_supports("avx512bw")) {
        set |= TL_HOST_SIMD_AVX512BW;
    }
#endif
    return set;
}

/* Set by tl_host_simd_use, which may run in a constructor before ours. */
std::atomic<bool> g_host_simd_chosen{false};

/* At start-up: everything the host has, unless a set was already chosen. */
[[maybe_unused]] const bool kHostSimdDetected = [] {
    const unsigned detected = DetectHostSimd();
    if (!g_host_simd_chosen.load(std::memory_order_relaxed)) {
        g_host_simd.store(detected, std::memory_order_relaxed);
    }
    return true;
}();

} // namespace
} // namespace detail
} // namespace tl

extern "C" {

unsigned tl_host_simd_available(void)
{
    return tl::detail::DetectHostSimd();
}

unsigned tl_host_simd_use(unsigned set)
{
    set &= tl::detail::DetectHostSimd();
    tl::detail::g_host_simd_chosen.store(true, std::memory_order_relaxed);
    tl::detail::g_host_simd.store(set, std::memory_order_relaxed);
    return set;
}

} // extern "C"
