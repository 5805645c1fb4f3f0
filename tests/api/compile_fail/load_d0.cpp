// expect: D0 must be <= 32
#include "tl/tile.hpp"
void f(uint8_t *p)
{
    tl::Tile<tl::int8, 64, 1, 16, 1> t;
    tl::TLOAD(t, tl::GlobalTensor<tl::int8>(p, {64, 16}));
}
