// expect: TMERGE: the three tiles must have one shape
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::int8, 8, 16, 1> a;
    tl::Tile<tl::int8, 8, 2, 8, 2> b;
    tl::TMERGE<0>(a, a, b, 0x0F);
}
