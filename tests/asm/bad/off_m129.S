# expect: out of range -128..127
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.mstore tl1, -129(a0)
