# expect: too many positional arguments
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.addi tl1, tl2, 1, 2, 3
