// expect: the immediate must fit in int8
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::int8, 8, 16, 1> t;
    tl::TADDS<200>(t, t);
}
