// expect: the two halves must be in different registers
#include "tl/tile.hpp"
void f()
{
    tl::Tile2D<tl::int16, 16, 32, 3> a;
    tl::TXPOSE<0, 1>(a, a, tl::XposeShape<32, 32, 1, 1>{});
}
