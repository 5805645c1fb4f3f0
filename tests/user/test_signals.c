/*
 * TL state with threads and signals under qemu-riscv64 -cpu rv64,xtl=on:
 * a new thread starts with a copy of its creator's TL state and then has
 * its own; a signal handler that uses TL does not disturb the interrupted
 * code; the saved state is visible (and editable) in the signal-frame
 * record of include/tl/tl_signal.h (tinit included); timer signals arriving during a TL loop
 * never corrupt it.
 */
#include <pthread.h>
#include <sys/time.h>
#include <ucontext.h>
#include "tl_test.h"
#include "tl/tl_insn.h"
#include "tl/tl_signal.h"

/* Whole-register access through an int8 [8,1,128] view (1024 bytes). */
static void set_full_view(void)
{
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_INT8);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(8, 1, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 128);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 128);
}

static void fill(uint8_t *buf, uint8_t seed)
{
    for (int i = 0; i < 1024; i++) {
        buf[i] = (uint8_t)(seed + i * 7);
    }
}

#define LOAD_REG(r, buf)  tl_load(r, 0, buf)
#define STORE_REG(r, buf) tl_store(r, 0, buf)

static int reg_equals_1(const uint8_t *want)
{
    static uint8_t got[1024];
    STORE_REG(1, got);
    return memcmp(got, want, 1024) == 0;
}

static uint8_t pat_a[1024], pat_b[1024], pat_x[1024], pat_y[1024], pat_z[1024];

/* ---- threads ---- */
static int child_saw_parent_state, child_saw_own_state;

static void *child(void *arg)
{
    (void)arg;
    /* The TL state was copied from the creating thread at clone time. */
    child_saw_parent_state = tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(8, 1, 128) && reg_equals_1(pat_a);
    LOAD_REG(1, pat_b);
    child_saw_own_state = reg_equals_1(pat_b);
    return NULL;
}

static void check_threads(void)
{
    pthread_t t;

    set_full_view();
    LOAD_REG(1, pat_a);
    pthread_create(&t, NULL, child, NULL);
    pthread_join(t, NULL);
    tl_check(child_saw_parent_state, "a new thread starts with a copy of its creator's TLRegs and CSRs");
    tl_check(child_saw_own_state, "the new thread changes its own tl1");
    tl_check(reg_equals_1(pat_a), "the creating thread's tl1 is unchanged by the other thread's load");
}

/* ---- a synchronous signal whose handler uses TL ---- */
static volatile int handler_record_ok, handler_record_tl2_is_x, handler_used_tl;

static void tl_using_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig; (void)info;
    struct tl_sigcontext *rec = tl_sigcontext_find(uc);

    handler_record_ok = rec != NULL && rec->csr[TL_SIGCONTEXT_TSHAPE] == TL_SHAPE(8, 1, 128) &&
                        rec->csr[TL_SIGCONTEXT_TINIT] == 0x63;
    handler_record_tl2_is_x = rec != NULL && memcmp(rec->reg[2], pat_x, 1024) == 0;
    /* Use TL with a different shape and overwrite tl1/tl2. */
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(4, 2, 128));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 256);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 256);
    LOAD_REG(2, pat_y);
    LOAD_REG(1, pat_y);
    handler_used_tl = reg_equals_1(pat_y);
    /* Edit the saved state: tl3 of the interrupted code becomes pat_z. */
    if (rec) {
        memcpy(rec->reg[3], pat_z, 1024);
    }
}

static void check_signal_handler(void)
{
    struct sigaction sa = { 0 };
    static uint8_t got[1024];

    sa.sa_sigaction = tl_using_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &sa, NULL);

    set_full_view();
    LOAD_REG(1, pat_a);
    LOAD_REG(2, pat_x);
    raise(SIGUSR1);
    tl_check(handler_record_ok, "the handler finds the record (magic, size) with the interrupted tshape and tinit 0x63");
    tl_check(handler_record_tl2_is_x, "the record holds the interrupted code's tl2");
    tl_check(handler_used_tl, "the handler can use TL with its own shape");
    tl_check(tl_csr_read(TL_CSR_TSHAPE) == TL_SHAPE(8, 1, 128), "after the handler, tshape is the interrupted code's again");
    tl_check(reg_equals_1(pat_a), "after the handler, tl1 is the interrupted code's again");
    STORE_REG(2, got);
    tl_check(memcmp(got, pat_x, 1024) == 0, "after the handler, tl2 is the interrupted code's again");
    STORE_REG(3, got);
    tl_check(memcmp(got, pat_z, 1024) == 0, "an edit of the record in the handler (tl3) takes effect at sigreturn");
}

/* ---- asynchronous timer signals during a TL loop ---- */
static volatile int ticks;

static void tick(int sig, siginfo_t *info, void *uc)
{
    (void)sig; (void)info; (void)uc;
    static uint8_t junk[1024];
    tl_csr_write(TL_CSR_TTYPE, TL_TYPE_FP16);
    tl_csr_write(TL_CSR_TSHAPE, TL_SHAPE(1, 1, 2));
    tl_csr_write(TL_CSR_TMASK_LOAD_WIDTH, 4);
    tl_csr_write(TL_CSR_TMASK_LOAD_STRIDE, 4);
    tl_load(1, 0, junk);
    tl_addi(2, 1, 3);
    ticks++;
}

static void check_async_signals(void)
{
    struct sigaction sa = { 0 };
    struct itimerval it = { { 0, 200 }, { 0, 200 } };
    static uint8_t out[1024], want[1024];
    long corrupt = 0, iterations = 0;

    sa.sa_sigaction = tick;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    set_full_view();
    LOAD_REG(1, pat_a);
    for (int i = 0; i < 1024; i++) {
        want[i] = pat_a[i] > 254 ? 255 : pat_a[i] + 1;
    }
    setitimer(ITIMER_REAL, &it, NULL);
    while (ticks < 200 && iterations < 50000000) {
        tl_addi(2, 1, 1);         /* int8 saturating +1 of pat_a */
        STORE_REG(2, out);
        if (memcmp(out, want, 1024) != 0) {
            corrupt++;
        }
        iterations++;
    }
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    tl_check(ticks >= 200, "200 timer signals whose handler changes ttype/tshape/tl1/tl2 arrived during the loop (%d)", ticks);
    tl_check(corrupt == 0, "the interrupted TL loop never saw a corrupted result (%ld of %ld iterations bad)", corrupt, iterations);
}

int main(void)
{
    fill(pat_a, 1);
    fill(pat_b, 2);
    fill(pat_x, 3);
    fill(pat_y, 4);
    fill(pat_z, 5);
    check_threads();
    check_signal_handler();
    check_async_signals();
    return tl_test_finish();
}
