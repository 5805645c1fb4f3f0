// GlobalTensor views of an NCHW tensor: select, flatten, strided and reversed
// slices, and a TLOAD / TSTORE through them.
#include <cstdint>
#include <cstdio>

#include "tl/tile.hpp"

int main()
{
    static uint8_t img[2][3][16][16]; // NCHW
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < 3; ++c)
            for (int h = 0; h < 16; ++h)
                for (int w = 0; w < 16; ++w) img[n][c][h][w] = uint8_t(n * 100 + c * 30 + h + w);

    tl::GlobalTensor<tl::int8, 4> t(img, {2, 3, 16, 16});
    auto plane = t.select(0, 1).select(0, 2);  // image 1, channel 2: [16, 16]
    auto rows = t.select(0, 1).flatten(1);     // image 1 as [3, 256]
    auto odd = plane.slice(0, 1, 8, 2);        // rows 1, 3, ..., 15 (stride 32 bytes)
    auto flip = plane.slice(0, 15, 16, -1);    // rows upside down (stride -16 bytes)
    std::printf("plane %ux%u stride %lld, rows %ux%u, odd stride %lld, flip stride %lld\n", plane.shape(0),
                plane.shape(1), (long long)plane.stride(0), rows.shape(0), rows.shape(1),
                (long long)odd.stride(0), (long long)flip.stride(0));

    // Gather the odd rows, upside down, into a dense 8 x 16 block with one tile.
    static uint8_t out[8][16];
    tl::Tile2D<tl::int8, 8, 16, 1> tile;
    tl::TLOAD(tile, odd.slice(0, 7, 8, -1)); // rows 15, 13, ..., 1: tmask_load_stride = -32
    tl::TSTORE(tl::GlobalTensor<tl::int8>(out, {8, 16}), tile);
    int bad = 0;
    for (int i = 0; i < 8; ++i)
        for (int w = 0; w < 16; ++w) bad += out[i][w] != img[1][2][15 - 2 * i][w];
    std::printf("out[0][0..3] = %u %u %u %u\n", out[0][0], out[0][1], out[0][2], out[0][3]);
    std::printf("%s\n", bad ? "MISMATCH" : "ok");
    return bad != 0;
}
