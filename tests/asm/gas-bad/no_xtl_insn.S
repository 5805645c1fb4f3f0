# expect: unrecognized opcode `tl.load tl2,0(a0)', extension `xtl' required
# march: rv64gc
        .text
        addi a0, a0, 1          # a good line first
        tl.load tl2, 0(a0)
