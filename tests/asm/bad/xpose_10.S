# expect: unrecognized opcode
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.xpose.10 tl1, tl2, a0
