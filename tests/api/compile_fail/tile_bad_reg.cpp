// expect: the TL register number must be 0..31
#include "tl/tile.hpp"
void f() { tl::Tile<tl::int8, 4, 1, 4, 32> t; (void)t; }
