# expect: invalid CSR `ttype', needs `xtl' extension
# march: rv64gc
        .text
        addi a0, a0, 1          # a good line first
        csrr a0, ttype
