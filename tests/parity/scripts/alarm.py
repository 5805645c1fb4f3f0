# Signals in CPython: signal.alarm interrupting time.sleep through an
# exception raised in the handler, an interval timer, SIGINT as
# KeyboardInterrupt, and SIGTERM of a forked child.
import os
import signal
import time


def on_alarm(signum, frame):
    raise TimeoutError("alarm")


signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(1)
try:
    time.sleep(10)
    print("time.sleep(10) was not interrupted")
except TimeoutError:
    print("signal.alarm(1) interrupted time.sleep(10)")

ticks = 0


def on_tick(signum, frame):
    global ticks
    ticks += 1


signal.signal(signal.SIGALRM, on_tick)
signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
while ticks < 5:
    signal.pause()
signal.setitimer(signal.ITIMER_REAL, 0)
print("setitimer: the handler ran at least 5 times")

try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    print("SIGINT was not delivered")
except KeyboardInterrupt:
    print("SIGINT raised KeyboardInterrupt")

pid = os.fork()
if pid == 0:
    time.sleep(30)
    os._exit(0)
os.kill(pid, signal.SIGTERM)
_, status = os.waitpid(pid, 0)
print("child killed by SIGTERM:", os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)
