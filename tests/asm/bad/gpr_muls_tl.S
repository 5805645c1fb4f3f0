# expect: bad GPR tl3
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.muls tl1, tl2, tl3
