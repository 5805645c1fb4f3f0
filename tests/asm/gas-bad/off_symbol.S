# expect: instruction tl.load requires absolute expression
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.load tl1, undefined_sym(a0)
