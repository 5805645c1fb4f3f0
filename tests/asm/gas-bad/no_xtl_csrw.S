# expect: invalid CSR `tinit', needs `xtl' extension
# march: rv64gc
        .text
        addi a0, a0, 1          # a good line first
        csrw tinit, a1
