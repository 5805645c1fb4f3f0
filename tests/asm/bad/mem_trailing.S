# expect: bad memory operand 4(a0)+1
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.load tl1, 4(a0)+1
