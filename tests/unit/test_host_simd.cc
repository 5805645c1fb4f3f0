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

TEST(HostSimdTest, UseNarrowsToWhatTheHostHasAndRestores)
{
    const unsigned available = tl_host_simd_available();
    EXPECT_EQ(available & ~unsigned(TL_HOST_SIMD_AVX2 | TL_HOST_SIMD_AVX512F |
                                    TL_HOST_SIMD_AVX512BW),
              0u);
    EXPECT_EQ(tl_host_simd_use(~0u), available);
    EXPECT_EQ(tl_host_simd_use(0), 0u);
    EXPECT_EQ(tl_host_simd_use(TL_HOST_SIMD_AVX2), available & TL_HOST_SIMD_AVX2);
    EXPECT_EQ(tl_host_simd_use(HostSimdEnvironment::set_under_test),
              HostSimdEnvironment::set_under_test);
}

} // namespace
} // namespace tltest
