// C++ symbols for tlstat's hot spots: the plugin reads this program's ELF
// symbol table and demangles the names.  copy_blocks<3> runs 3 tl.load per
// call, 100 calls; scale runs 1 tl.addi per call, 50 calls; long_named (a
// demangled name of over 1000 characters) 1 tl.addi per call, 7 calls.
#include <cstdint>

#include "tl/tl_insn.h"

namespace tlstat_test {

template <int N>
__attribute__((noipa)) void copy_blocks(uint8_t *p)
{
    for (int i = 0; i < N; i++) {
        tl_load(1, 0, p);
    }
}

struct Scaler {
    __attribute__((noipa)) void scale(int times) const
    {
        for (int i = 0; i < times; i++) {
            tl_addi(2, 1, 3);
        }
    }
};

template <class... T>
struct TypeList {
};
struct AnElementTypeWhoseNameIsLongEnoughToMakeTheSignatureLongerThan_1000_Characters {
};
using E = AnElementTypeWhoseNameIsLongEnoughToMakeTheSignatureLongerThan_1000_Characters;
using LongList = TypeList<E, E, E, E, E, E, E, E>;

template <class L>
__attribute__((noipa)) void long_named(const L &)
{
    tl_addi(3, 1, 1);
}

} // namespace tlstat_test

static uint8_t buf[1024];

int main()
{
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    for (int i = 0; i < 100; i++) {
        tlstat_test::copy_blocks<3>(buf);
    }
    tlstat_test::Scaler s;
    s.scale(50);
    for (int i = 0; i < 7; i++) {
        tlstat_test::long_named(tlstat_test::LongList{});
    }
    return 0;
}
