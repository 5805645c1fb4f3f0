# expect: unrecognized opcode `tl.merge.3 tl1,tl2,tl3'
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.merge.3 tl1, tl2, tl3
