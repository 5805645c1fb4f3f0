# expect: bad value for EngineID (-1), value must be 0..3
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.muls tl1, tl2, a0, -1
