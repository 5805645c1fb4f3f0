// C++ symbols for tlstat's hot spots: the plugin reads this program's ELF
// symbol table and demangles the names.  copy_blocks<3> runs 3 tl.load per
// call, 100 calls; scale runs 1 tl.addi per call, 50 calls.
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
    return 0;
}
