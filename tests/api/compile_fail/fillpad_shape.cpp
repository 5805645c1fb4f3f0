// expect: TFILLPAD_EXPAND has no TL counterpart
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::fp16, 8, 16, 1> a;
    tl::Tile2D<tl::fp16, 16, 16, 2> b;
    tl::TFILLPAD<tl::PadValue::Max>(b, a);
}
