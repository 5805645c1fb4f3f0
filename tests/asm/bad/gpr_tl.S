# expect: bad GPR in 0(tl2)
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.store tl1, 0(tl2)
