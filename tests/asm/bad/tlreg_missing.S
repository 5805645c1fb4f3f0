# expect: bad TL register
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.fillpad.max tl1
