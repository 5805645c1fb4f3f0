# expect: bad GPR in 0(x32)
.include "tl/tl_asm.S"
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.mload tl1, 0(x32)
