# expect: EngineID 4 out of range 0..3
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.fillpad.min tl1, tl2, eng=4
