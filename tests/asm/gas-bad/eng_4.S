# expect: bad value for EngineID (4), value must be 0..3
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.concat.0 tl1, tl2, tl3, eng=4
