# expect: bad TL register TL3
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.merge.2 tl1, TL3, tl2
