// TLOAD + TFILLPAD<Min>: make the padding of a partial fp32 tile -inf, so that
// a max over the whole tile ignores it.  Prints the tile after each step.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "tl/tile.hpp"

static float f32(uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

template <unsigned Reg>
static void print_tile(const char *title)
{
    uint32_t reg[256];
    tl::read_register<Reg>(reg); // all 1024 bytes of the register
    std::printf("%s\n", title);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 6; ++c) std::printf(" %6g", double(f32(reg[r * 6 + c])));
        std::printf("\n");
    }
}

int main()
{
    // A 3 x 5 fp32 matrix of negative values -4, -3.75, ..., -0.5: with zero
    // padding a max over the tile would wrongly give 0.
    static float m[3][5];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c) m[r][c] = -4.0f + 0.25f * float(r * 5 + c);

    using T = tl::Tile2D<tl::fp32, 4, 6, 2>; // 4 x 6 fp32 in tl2
    T t(3, 5);                                // 3 x 5 valid
    tl::TLOAD(t, tl::GlobalTensor<tl::fp32>(m, {3, 5}));
    print_tile<2>("after TLOAD (zero padding):");
    tl::TFILLPAD<tl::PadValue::Min>(t, t); // outside 3 x 5: -inf; t is now fully valid
    print_tile<2>("after TFILLPAD<Min>:");

    // Store the full 4 x 6 tile and take the max of everything.
    static float full[4][6];
    tl::TSTORE(tl::GlobalTensor<tl::fp32>(full, {4, 6}), t);
    float mx = -INFINITY;
    for (auto &row : full)
        for (float v : row) mx = v > mx ? v : mx;
    float want = -INFINITY;
    for (auto &row : m)
        for (float v : row) want = v > want ? v : want;
    std::printf("max over the padded tile %g, over the data %g: %s\n", double(mx), double(want),
                mx == want ? "ok" : "MISMATCH");
    return mx != want;
}
