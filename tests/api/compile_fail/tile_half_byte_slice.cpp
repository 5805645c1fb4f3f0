// expect: a slice (D1*D2 elements) must be a whole number of bytes
#include "tl/tile.hpp"
void f() { tl::Tile<tl::int4, 4, 1, 3, 1> t; (void)t; }
