// Transposing a matrix of any size with the kernels/ library.
#include <cstdint>
#include <cstdio>

#include "tl/tile.hpp"
#include "tl_kernels.hpp"

int main()
{
    constexpr uint32_t R = 5, C = 70; // two column blocks: 64 + 6 (an edge tile)
    static uint16_t a[R][C], at[C][R];
    for (uint32_t r = 0; r < R; ++r)
        for (uint32_t c = 0; c < C; ++c) a[r][c] = uint16_t(100 * r + c);

    tl::kernels::transpose2d<tl::int16>(tl::GlobalTensor<tl::int16>(at, {C, R}),
                                        tl::GlobalTensor<tl::int16>(a, {R, C}));

    int bad = 0;
    for (uint32_t r = 0; r < R; ++r)
        for (uint32_t c = 0; c < C; ++c) bad += at[c][r] != a[r][c];
    for (uint32_t c : {0u, 1u, 69u}) {
        std::printf("at[%2u] =", c);
        for (uint32_t r = 0; r < R; ++r) std::printf(" %3u", at[c][r]);
        std::printf("\n");
    }
    std::printf("%s\n", bad ? "MISMATCH" : "ok");
    return bad != 0;
}
