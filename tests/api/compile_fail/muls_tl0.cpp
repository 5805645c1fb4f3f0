// expect: TMULS: tl0 is read-only
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::fp32, 8, 16, 1> a;
    tl::ZeroTile<tl::fp32, 8, 1, 16> z;
    tl::TMULS(z, a, 2.0f);
}
