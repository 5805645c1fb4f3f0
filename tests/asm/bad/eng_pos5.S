# expect: EngineID 5 out of range 0..3
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.concat.1 tl1, tl2, tl3, 5
