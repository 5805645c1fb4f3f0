// expect: TSTORE: D0 must be <= 32
#include "tl/tile.hpp"
void f(uint8_t *p)
{
    tl::Tile<tl::int4, 64, 1, 8, 1> t;
    tl::TSTORE(tl::GlobalTensor<tl::int4>(p, {64, 8}), t);
}
