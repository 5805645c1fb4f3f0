# expect: bad GPR s12
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.xpose.12 tl1, tl2, s12
