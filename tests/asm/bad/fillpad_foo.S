# expect: unrecognized opcode
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.fillpad.nan tl1, tl2
