# expect: bad TL register t1
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.addi t1, tl2, 1
