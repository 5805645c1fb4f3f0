// expect: must fit in one 1024-byte TL register
#include "tl/tile.hpp"
void f() { tl::Tile<tl::fp32, 16, 1, 32, 1> t; (void)t; }
