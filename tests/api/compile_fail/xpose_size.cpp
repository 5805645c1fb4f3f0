// expect: must be exactly 2048 bytes
// The seed's "batch transpose" [4, 8, 8, 4] with int8 is 1024 bytes (erratum 61).
#include "tl/tile.hpp"
void f()
{
    tl::Tile<tl::int8, 2, 8, 32, 1> lo;
    tl::Tile<tl::int8, 2, 8, 32, 2> hi;
    tl::TXPOSE<0, 1>(lo, hi, tl::XposeShape<4, 8, 8, 4>{});
}
