/* Register state across asynchronous signals: a 1 kHz interval timer
 * interrupts a floating-point loop (rounding mode set to downward) and an
 * integer hash loop at arbitrary instructions; the handler clobbers the
 * floating-point registers and sets another rounding mode.  The results
 * must be those of an uninterrupted run, and the rounding mode must be the
 * program's own after each handler. */
#define _GNU_SOURCE
#include <fenv.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile double sink;

static void on_alarm(int sig)
{
    (void)sig;
    fesetround(FE_UPWARD);
    double a = 1.0, b = 3.0;
    for (int i = 0; i < 64; i++) { a = a / b + 0.1 * i; b = b * 1.0001 + a; }
    sink = a + b;
    __asm__ volatile("fmv.d.x f0, zero\n fmv.d.x f1, zero\n fmv.d.x f10, zero\n fmv.d.x f11, zero\n"
                     "fmv.d.x f8, zero\n fmv.d.x f9, zero\n fmv.d.x f18, zero\n fmv.d.x f27, zero"
                     ::: "f0", "f1", "f10", "f11", "f8", "f9", "f18", "f27");
    ticks++;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
    setitimer(ITIMER_REAL, &it, NULL);

    int wrong_mode = 0;
    fesetround(FE_DOWNWARD);
    double sum = 0.0;
    unsigned long long h = 1469598103934665603ull;
    unsigned rounds = 0;
    /* Run until at least 20 timer signals arrived (and a fixed minimum of
     * work), so that the loops are interrupted whatever the host's speed;
     * the printed results are of a fixed number of iterations. */
    do {
        double s = 0.0;
        for (int i = 1; i <= 200000; i++) {
            s += 1.0 / ((double)i * i);
            h = (h ^ (unsigned)i) * 1099511628211ull;
        }
        if (fegetround() != FE_DOWNWARD) wrong_mode++;
        if (rounds == 0) sum = s;
        else if (s != sum) { printf("round %u: sum %.17g differs from %.17g\n", rounds, s, sum); return 1; }
        rounds++;
    } while (ticks < 20 || rounds < 4);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);

    /* the hash after the first four rounds, recomputed without signals */
    unsigned long long h4 = 1469598103934665603ull;
    for (unsigned r = 0; r < rounds; r++)
        for (int i = 1; i <= 200000; i++) h4 = (h4 ^ (unsigned)i) * 1099511628211ull;
    printf("sum of 1/i^2 for i <= 200000, rounded downward: %.17g\n", sum);
    printf("every round gave the same sum; rounding mode kept after signals: %s\n",
           wrong_mode ? "no" : "yes");
    printf("integer hash equal to an uninterrupted recomputation: %s\n", h == h4 ? "yes" : "no");
    printf("at least 20 timer signals handled: %s\n", ticks >= 20 ? "yes" : "no");
    return 0;
}
