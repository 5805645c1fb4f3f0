// expect: TADDS: source and destination element types differ
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::fp16, 8, 16, 1> a;
    tl::Tile2D<tl::bf16, 8, 16, 2> b;
    tl::TADDS<1>(b, a);
}
