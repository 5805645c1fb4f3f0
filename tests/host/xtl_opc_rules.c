/*
 * For each hex word on stdin, the walk a consumer of include/tl/xtl-opc.h
 * makes: how many XTL_FORMS rows match it, and the rule of the first
 * XTL_RESERVED row that does (0 for none).  One "N R" line per word; used by
 * tests/host/test_encodings.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xtl-opc.h"

struct row {
    unsigned match, mask;
    int rule;
};

#define FORM_ROW(sym, name, match, mask, kind, eng) { match, mask, 0 },
static const struct row forms[] = { XTL_FORMS(FORM_ROW) };
#define RESERVED_ROW(rule, match, mask) { match, mask, rule },
static const struct row reserved[] = { XTL_RESERVED(RESERVED_ROW) };

int main(void)
{
    char line[64];

    while (fgets(line, sizeof(line), stdin)) {
        unsigned w = (unsigned)strtoul(line, NULL, 16);
        int legal = 0, rule = 0;

        for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
            legal += (w & forms[i].mask) == forms[i].match;
        }
        for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]) && !rule; i++) {
            if ((w & reserved[i].mask) == reserved[i].match) {
                rule = reserved[i].rule;
            }
        }
        printf("%d %d\n", legal, rule);
    }
    return 0;
}
