/*
 * Writes and reads back every TL CSR with no signal handler: under
 * -cpu rv64,xtl=on it prints each value; with xtl=off the first TL CSR
 * access must kill it with SIGILL before anything is printed.
 */
#include <stdio.h>
#include "tl/tl_insn.h"

#define ROUNDTRIP(csr, value) do {                                            \
    tl_csr_write(csr, value);                                                 \
    printf("%-17s 0x%03x wrote 0x%08lx read 0x%08lx\n", #csr + 7, csr,        \
           (unsigned long)(value), tl_csr_read(csr));                         \
} while (0)

int main(void)
{
    ROUNDTRIP(TL_CSR_TTYPE, 0x0040);
    ROUNDTRIP(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    ROUNDTRIP(TL_CSR_TMASK_LS, 0xCCu);
    ROUNDTRIP(TL_CSR_TMASK_CONCAT_1, 0x0Cu);
    ROUNDTRIP(TL_CSR_TMASK_CONCAT_2, 0x03u);
    ROUNDTRIP(TL_CSR_TMASK_LOAD_STRIDE, 0xFFFFFF00u);
    ROUNDTRIP(TL_CSR_TMASK_LOAD_WIDTH, 64u);
    ROUNDTRIP(TL_CSR_TVALID, TL_SHAPE(2, 8, 8));
    return 0;
}
