/*
 * tl.load counts across fork(): 100 loads, fork; the child runs 10 and
 * exits; the parent waits for it and runs 5 more.  Prints both pids so that
 * the test finds each process's report (outfile=...%p...): the parent's
 * must count 105 loads, the child's 10, and the two merged 115.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tl/tl_insn.h"

static uint8_t buf[1024] __attribute__((aligned(64)));

static void loads(int n)
{
    for (int i = 0; i < n; i++) {
        tl_load(1, 0, buf);
    }
}

int main(void)
{
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 16, 16));
    loads(100);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        loads(10);
        return 0;
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("fork: the child failed (status %#x)\n", status);
        return 1;
    }
    loads(5);
    printf("fork: parent %d child %d\n", (int)getpid(), (int)child);
    return 0;
}
