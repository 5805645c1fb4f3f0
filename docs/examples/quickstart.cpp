// Quick start: y = (x + 10) * 2 on a 5 x 20 window of a uint8 matrix.
// From the repository root, after 'make host' (which builds libtlcore.a):
//   g++ -std=c++17 -O2 -Iinclude -Itarget-riscv-tl/core docs/examples/quickstart.cpp
//       build/host/target-riscv-tl/core/libtlcore.a -o quickstart && ./quickstart
//   riscv64-linux-gnu-g++ -std=c++17 -O2 -static -Iinclude docs/examples/quickstart.cpp -o quickstart.rv
//   build/qemu/qemu-riscv64 -cpu rv64,xtl=on quickstart.rv
#include <cstdint>
#include <cstdio>

#include "tl/tile.hpp"

int main()
{
    // A 8 x 32 matrix of uint8 in memory (row-major, dense).
    static uint8_t x[8][32], y[8][32];
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 32; ++c) x[r][c] = uint8_t(r * 32 + c);

    // Views: the whole matrices, then a 5 x 20 window starting at (2, 4).
    tl::GlobalTensor<tl::int8> gx(x, {8, 32}), gy(y, {8, 32});
    auto in = gx.sub(2, 4, 5, 20);
    auto out = gy.sub(2, 4, 5, 20);

    // A tile of 8 rows x 32 columns in TL register tl1; 5 x 20 of it are valid.
    using T = tl::Tile2D<tl::int8, 8, 32, 1>;
    T t(5, 20);
    tl::TLOAD(t, in);      // rows 5..7 and columns 20..31 of the tile become 0
    tl::TADDS<10>(t, t);   // saturating uint8 add of an immediate
    tl::TMULS(t, t, 2);    // saturating multiply by a scalar
    tl::TSTORE(out, t);    // writes only the 5 x 20 valid region

    int bad = 0;
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 32; ++c) {
            const bool inside = r >= 2 && r < 7 && c >= 4 && c < 24;
            int want = inside ? (x[r][c] + 10) * 2 : 0;
            if (want > 255) want = 255;
            bad += y[r][c] != want;
        }
    }
    std::printf("row 2 of y: %u %u %u ... %u %u\n", y[2][3], y[2][4], y[2][5], y[2][23], y[2][24]);
    std::printf("%s\n", bad ? "MISMATCH" : "ok");
    return bad != 0;
}
