# expect: illegal operands `tl.addi tl1,tl2,undefined_sym+200'
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.addi tl1, tl2, undefined_sym+200
