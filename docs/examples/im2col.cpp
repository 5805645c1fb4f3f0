// im2col of a 1 x 4 x 4 uint8 image for a 3x3 convolution with padding 1,
// then the convolution itself as a dot product per output pixel.
#include <cstdint>
#include <cstdio>

#include "tl/tile.hpp"
#include "tl_kernels.hpp"

int main()
{
    constexpr uint32_t C = 1, H = 4, W = 4;
    static uint8_t img[C][H][W], cols[C * 9][H * W];
    for (uint32_t h = 0; h < H; ++h)
        for (uint32_t w = 0; w < W; ++w) img[0][h][w] = uint8_t(1 + h * W + w);

    tl::kernels::im2col3x3<tl::int8>(tl::GlobalTensor<tl::int8>(cols, {C * 9, H * W}),
                                     tl::GlobalTensor<tl::int8, 3>(img, {C, H, W}));

    // Row kh*3+kw holds the image shifted by (kh-1, kw-1), zero outside.
    for (uint32_t k = 0; k < 9; ++k) {
        std::printf("row %u:", k);
        for (uint32_t p = 0; p < H * W; ++p) std::printf(" %2u", cols[k][p]);
        std::printf("\n");
    }
    // A 3x3 box filter: out[p] = sum over the 9 rows.
    int bad = 0;
    for (uint32_t oh = 0; oh < H; ++oh) {
        for (uint32_t ow = 0; ow < W; ++ow) {
            unsigned s = 0, want = 0;
            for (uint32_t k = 0; k < 9; ++k) s += cols[k][oh * W + ow];
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int y = int(oh) + dy, x = int(ow) + dx;
                    if (y >= 0 && y < int(H) && x >= 0 && x < int(W)) want += img[0][y][x];
                }
            bad += s != want;
        }
    }
    std::printf("%s\n", bad ? "MISMATCH" : "ok");
    return bad != 0;
}
