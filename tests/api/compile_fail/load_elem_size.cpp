// expect: tile and GlobalTensor element sizes differ
#include "tl/tile.hpp"
void f(uint8_t *p)
{
    tl::Tile2D<tl::fp16, 8, 16, 1> t;
    tl::TLOAD(t, tl::GlobalTensor<tl::int8>(p, {8, 16}));
}
