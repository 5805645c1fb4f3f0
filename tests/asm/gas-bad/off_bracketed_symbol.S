# expect: illegal operands `tl.store tl1,(undefined_sym)(a0)'
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.store tl1, (undefined_sym)(a0)
