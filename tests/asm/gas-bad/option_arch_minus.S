# expect: unrecognized opcode `tl.addi tl1,tl2,1', extension `xtl' required
# march: rv64gc_xtl
        .text
        tl.addi tl1, tl2, 1     # a good line first
        .option push
        .option arch, -xtl
        tl.addi tl1, tl2, 1
