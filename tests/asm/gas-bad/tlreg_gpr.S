# expect: illegal operands `tl.addi a0,tl1,1'
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.addi a0, tl1, 1
