# expect: bad TL register tl01
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.concat.0 tl01, tl1, tl2
