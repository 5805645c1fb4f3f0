# expect: unrecognized opcode `tl.concat.3 tl1,tl2,tl3'
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.concat.3 tl1, tl2, tl3
