# expect: bad value for TL immediate (128), value must be -128..127
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.store tl1, 128(a0)
