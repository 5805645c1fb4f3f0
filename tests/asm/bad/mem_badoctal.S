# expect: bad memory operand 08(a0)
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.load tl1, 08(a0)
