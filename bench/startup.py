#!/usr/bin/env python3
"""Median wall time of starting a program, for the parity table of make bench.

Usage: startup.py NAME COUNT COMMAND...   prints "NAME NS": the median over
COUNT runs of COMMAND (stdout and stderr discarded) after one warm-up run.
A run that exits non-zero stops with an error line.
"""
import statistics
import subprocess
import sys
import time


def main():
    name, count, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    times = []
    for i in range(count + 1):
        t0 = time.perf_counter_ns()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t = time.perf_counter_ns() - t0
        if r.returncode != 0:
            print(f"error: {' '.join(cmd)} exited with status {r.returncode}", file=sys.stderr)
            return 1
        if i:
            times.append(t)
    print(f"{name} {statistics.median(times):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
