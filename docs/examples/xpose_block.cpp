// One 32 x 64 uint8 block transposed with TXPOSE: the block spans two TL
// registers, and the result is read through tiles of the transposed shape.
#include <cstdint>
#include <cstdio>

#include "tl/tile.hpp"

int main()
{
    static uint8_t m[32][64], mt[64][32];
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 64; ++c) m[r][c] = uint8_t(r * 7 + c);
    tl::GlobalTensor<tl::int8> src(m, {32, 64}), dst(mt, {64, 32});

    tl::Tile2D<tl::int8, 16, 64, 1> a; // rows 0-15 of the block in tl1
    tl::Tile2D<tl::int8, 16, 64, 2> b; // rows 16-31 in tl2
    tl::TLOAD(a, src.sub(0, 0, 16, 64));
    tl::TLOAD(b, src.sub(16, 0, 16, 64));
    tl::TXPOSE<0, 1>(a, b, tl::XposeShape<32, 64, 1, 1>{}); // now a 64 x 32 block
    tl::Tile2D<tl::int8, 32, 32, 1> oa; // rows 0-31 of the transpose, same register tl1
    tl::Tile2D<tl::int8, 32, 32, 2> ob; // rows 32-63 in tl2
    tl::TSTORE(dst.sub(0, 0, 32, 32), oa);
    tl::TSTORE(dst.sub(32, 0, 32, 32), ob);

    int bad = 0;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 64; ++c) bad += mt[c][r] != m[r][c];
    std::printf("mt[63][0..3] = %u %u %u %u\n", mt[63][0], mt[63][1], mt[63][2], mt[63][3]);
    std::printf("%s\n", bad ? "MISMATCH" : "ok");
    return bad != 0;
}
