/*
 * The host SIMD set of the semantic core (tl_host_simd_use), and the set
 * the whole test run uses: TL_TEST_HOST_SIMD=all (the default: what the
 * host has), avx2 (no AVX-512) or baseline (no AVX2 either, the paths of
 * any x86-64 host), so that one host tests the optimized paths of smaller
 * ones against the same element-by-element references.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tl_test_support.h"

namespace tltest {
namespace {

std::string SetName(unsigned set)
{
    std::string name;
    if (set & TL_HOST_SIMD_AVX2) {
        name += " avx2";
    }
    if (set & TL_HOST_SIMD_AVX512F) {
        name += " avx512f";
    }
    if (set & TL_HOST_SIMD_AVX512BW) {
        name += " avx512bw";
    }
    return name.empty() ? "none" : name.substr(1);
}

/* Applies TL_TEST_HOST_SIMD before the first test and says what it chose. */
class HostSimdEnvironment : public ::testing::Environment {
public:
    void SetUp() override
    {
        const char *want = getenv("TL_TEST_HOST_SIMD");
        unsigned set = ~0u;
        if (want == nullptr || strcmp(want, "all") == 0) {
            set = ~0u;
        } else if (strcmp(want, "avx2") == 0) {
            set = TL_HOST_SIMD_AVX2;
        } else if (strcmp(want, "baseline") == 0) {
            set = 0;
        } else {
            fprintf(stderr, "TL_TEST_HOST_SIMD=%s: use all, avx2 or baseline\n", want);
            exit(2);
        }
        set_under_test = tl_host_simd_use(set);
        printf("host SIMD paths under test: %s; the host has: %s\n",
               SetName(set_under_test).c_str(), SetName(tl_host_simd_available()).c_str());
    }
    static unsigned set_under_test;
};

unsigned HostSimdEnvironment::set_under_test;

[[maybe_unused]] ::testing::Environment *const kHostSimdEnvironment =
    ::testing::AddGlobalTestEnvironment(new HostSimdEnvironment);

} // namespace

unsigned HostSimdUnderTest()
{
    return HostSimdEnvironment::set_under_test;
}

namespace {

/* What the host has, asked of the compiler's CPU detection, not the core. */
unsigned HostHas()
{
    unsigned set = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    set |= __builtin_cpu_supports("avx2") ? unsigned(TL_HOST_SIMD_AVX2) : 0u;
    set |= __builtin_cpu_supports("avx512f") ? unsigned(TL_HOST_SIMD_AVX512F) : 0u;
    set |= __builtin_cpu_supports("avx512bw") ? unsigned(TL_HOST_SIMD_AVX512BW) : 0u;
#endif
    return set;
}

TEST(HostSimdTest, UseNarrowsToWhatTheHostHasAndRestores)
{
    const unsigned has = HostHas();
    EXPECT_EQ(tl_host_simd_available(), has);
    EXPECT_EQ(tl_host_simd_use(~0u), has);
    EXPECT_EQ(tl_host_simd_use(0), 0u);
    EXPECT_EQ(tl_host_simd_use(TL_HOST_SIMD_AVX2), has & TL_HOST_SIMD_AVX2);
    EXPECT_EQ(tl_host_simd_use(TL_HOST_SIMD_AVX512F | TL_HOST_SIMD_AVX512BW),
              has & (TL_HOST_SIMD_AVX512F | TL_HOST_SIMD_AVX512BW));
    EXPECT_EQ(tl_host_simd_use(HostSimdEnvironment::set_under_test),
              HostSimdEnvironment::set_under_test);
}

} // namespace
} // namespace tltest
