// expect: the concatenated dimension must be <= 32
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::int8, 8, 64, 1> a;
    tl::TCONCAT<2>(a, a, a);
}
