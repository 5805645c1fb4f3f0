// TileRows: the columns 64..191 of every other row of a 64 x 512 int8
// matrix copied into a dense 32 x 128 buffer, whole tiles of 8 rows of 128
// bytes, the CSRs written once per direction instead of before every
// instruction, then each byte scaled by 3 in place (TileRows::muls).
#include <cstdint>
#include <cstdio>

#include "tl/tile.hpp"

int main()
{
    static uint8_t m[64][512], out[32][128];
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 512; ++c) m[r][c] = uint8_t(r * 7 + c);

    using T = tl::Tile2D<tl::int8, 8, 128, 1>; // 8 rows of 128 bytes in tl1
    const tl::TileRows<T> from(2 * 512);        // source rows 1024 bytes apart
    const tl::TileRows<T> to(128);              // destination rows dense
    T t;
    for (int r0 = 0; r0 < 32; r0 += 8) {
        from.set_pitch(2 * 512);                // 'to' wrote the stride: write it back
        from.load(t, &m[2 * r0][64]);
        to.set_pitch(128);
        to.muls(t, t, 3);                       // only ttype is needed, and it holds int8
        to.store(&out[r0][0], t);
    }

    int bad = 0;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 128; ++c) {
            const unsigned v = uint8_t(2 * r * 7 + 64 + c) * 3u;
            bad += out[r][c] != (v > 255 ? 255 : v);
        }
    std::printf("out[0][0..3] = %u %u %u %u, out[31][127] = %u: %s\n", out[0][0], out[0][1], out[0][2],
                out[0][3], out[31][127], bad ? "MISMATCH" : "ok");
    return bad != 0;
}
