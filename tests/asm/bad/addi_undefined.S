# expect: non-constant expression
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.addi tl1, tl2, undefined_symbol
