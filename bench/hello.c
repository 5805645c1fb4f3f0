/* A dynamically linked program that prints one line: the start-up of a
 * program on Debian's riscv64 glibc (ld.so, libc.so.6), for make bench. */
#include <stdio.h>

int main(void)
{
    puts("hello");
    return 0;
}
