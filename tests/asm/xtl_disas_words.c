/*
 * Prints QEMU's disassembly (target-riscv-tl/xtl_disas.c, the function QEMU's
 * RISC-V disassembler calls for CUSTOM-2 words) of each hex word read from
 * stdin, one line per word: the text, or "-" when QEMU does not decode it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xtl_disas.h"

int main(void)
{
    char line[64], text[128];

    while (fgets(line, sizeof(line), stdin)) {
        unsigned long word = strtoul(line, NULL, 16);

        if (xtl_disassemble((uint32_t)word, text, sizeof(text), 24)) {
            puts(text);
        } else {
            puts("-");
        }
    }
    return 0;
}
