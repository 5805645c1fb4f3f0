# expect: no assembler form (tl.xpose needs two different dimensions, smaller first) `tl.xpose.22 tl1,tl2,a0'
# march: rv64gc_xtl
        .text
        tl.load tl1, 0(a0)      # a good line first
        tl.xpose.22 tl1, tl2, a0
