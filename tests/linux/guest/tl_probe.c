/*
 * Is TL usable from this Linux user space?  Prints what the device tree says
 * about the hart (xtl, smstateen) and tries, in U-mode, a TL CSR read, a TL
 * CSR write and one TL instruction (tl.addi tl0, tl0, 0: no visible effect),
 * catching SIGILL.  Exit 0 when all three work, 1 when one traps.
 *
 * Under Smstateen, TL is "custom state" gated by bit C (bit 0) of mstateen0
 * (M-mode firmware) and sstateen0 (the kernel): if either is 0, U-mode TL
 * traps (docs/isa.md 1.2, docs/linux.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "tl/tl_insn.h"
#include "tl/tl_linux.h"

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf jb;
static volatile int got;

static void handler(int sig)
{
    got = sig;
    siglongjmp(jb, 1);
}

/* Reads a device-tree string list property into buf, NULs turned to spaces. */
static int dt_read(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n;

    buf[0] = 0;
    if (!f) {
        return -1;
    }
    n = fread(buf, 1, len - 1, f);
    fclose(f);
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == 0) {
            buf[i] = ' ';
        }
    }
    while (n > 0 && buf[n - 1] == ' ') {
        n--;
    }
    buf[n] = 0;
    return 0;
}

static int has_word(const char *list, const char *w)
{
    size_t l = strlen(w);

    for (const char *p = strstr(list, w); p; p = strstr(p + 1, w)) {
        if ((p == list || p[-1] == ' ') && (p[l] == ' ' || p[l] == 0)) {
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    static char isa[4096], exts[4096];
    volatile unsigned long ttype = 0;
    const char *volatile step = "";
    int ok;

    dt_read("/proc/device-tree/cpus/cpu@0/riscv,isa", isa, sizeof(isa));
    dt_read("/proc/device-tree/cpus/cpu@0/riscv,isa-extensions", exts, sizeof(exts));
    printf("tl-probe: riscv,isa = %s\n", isa[0] ? isa : "(none)");
    printf("tl-probe: device tree lists xtl: %s, smstateen: %s\n",
           has_word(exts, "xtl") ? "yes" : "no",
           has_word(exts, "smstateen") ? "yes" : "no");

    /* What Linux says: the isa line of /proc/cpuinfo and riscv_hwprobe. */
    FILE *f = fopen("/proc/cpuinfo", "r");
    static char line[4096];
    int cpuinfo_xtl = -1;
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "isa", 3) == 0) {
            char *v = strchr(line, ':');
            cpuinfo_xtl = v && strstr(v, "_xtl") != NULL;
            break;
        }
    }
    if (f) {
        fclose(f);
    }
    int hw = tl_xtl_available();
    printf("tl-probe: /proc/cpuinfo isa lists xtl: %s\n", cpuinfo_xtl < 0 ? "no isa line" : cpuinfo_xtl ? "yes" : "no");
    printf("tl-probe: riscv_hwprobe(key 0x%x) = %s\n", TL_HWPROBE_KEY_XTL_0,
           hw < 0 ? "key unknown (a kernel without TL support)" : hw ? "0x1: xtl usable" : "0x0: no xtl");

    signal(SIGILL, handler);
    if (sigsetjmp(jb, 1) == 0) {
        step = "csrr ttype";
        ttype = tl_csr_read(TL_CSR_TTYPE);
        step = "csrw ttype";
        tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
        step = "tl.addi tl0, tl0, 0";
        tl_addi(0, 0, 0);
        step = "";
    }
    ok = got == 0;
    if (ok) {
        printf("tl-probe: TL in U-mode: usable (csrr ttype = 0x%lx, csrw and tl.addi work)\n", ttype);
    } else {
        printf("tl-probe: TL in U-mode: NOT usable: %s raised SIGILL%s\n", step,
               has_word(exts, "smstateen")
                   ? " (Smstateen: mstateen0.C or sstateen0.C is 0)" : "");
    }
    return ok ? 0 : 1;
}
