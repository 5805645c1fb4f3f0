// expect: X0 must be even
#include "tl/tile.hpp"
void f()
{
    tl::Tile<tl::int8, 4, 1, 255, 1> lo;
    tl::Tile<tl::int8, 4, 1, 255, 2> hi;
    tl::TXPOSE<0, 1>(lo, hi, tl::XposeShape<1, 32, 64, 1>{});
}
