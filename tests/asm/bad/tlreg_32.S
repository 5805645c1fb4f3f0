# expect: bad TL register tl32
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.load tl32, 0(a0)
