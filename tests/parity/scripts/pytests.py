"""Runs test modules of CPython's own test suite (Debian's
libpython3.13-testsuite) and prints one line per test, in name order:
"<test id>: ok | skipped | FAIL | ERROR", then the totals.  No timings and
no verbose chatter, so that two runs of a deterministic interpreter print
the same text.

Under qemu-riscv64 a riscv64 program cannot exec another riscv64 program
(that needs binfmt_misc on the host), so a test that starts a process is
reported as skipped, here and under any QEMU alike.

A test that fails or errors is run once more on its own, as CPython's own
test runner does with --rerun (its CI's setting): tests such as
ItimerTest.test_itimer_virtual depend on when the host delivers a signal and
fail now and then on a loaded host, under stock QEMU too.  Its line is the
second run's result.  The names of the tests run twice, with their first
result, go to the file named by PYTESTS_RERUN_LOG (when set), not to stdout
or stderr, so that they show without making two runs' transcripts differ.

    python3 -I pytests.py test.test_float test.test_signal.ItimerTest ...
"""
import os
import subprocess
import sys
import unittest

from test import support


def no_exec(*args, **kwargs):
    raise unittest.SkipTest("starts a process (exec of a riscv64 program under qemu-riscv64)")



class Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.lines = {}

    def addSuccess(self, test):
        self.lines[test.id()] = "ok"

    def addSkip(self, test, reason):
        self.lines[test.id()] = "skipped"

    def addFailure(self, test, err):
        self.lines[test.id()] = "FAIL"

    def addError(self, test, err):
        self.lines[test.id()] = "ERROR"

    def addExpectedFailure(self, test, err):
        self.lines[test.id()] = "expected failure"

    def addUnexpectedSuccess(self, test):
        self.lines[test.id()] = "unexpected success"

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self.lines[test.id()] = "FAIL" if failed else "ERROR"


def main():
    support.verbose = False     # tests print their progress only when verbose
    suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:])
    result = Result()
    subprocess.Popen._execute_child = no_exec    # not while loading: modules probe at import
    suite.run(result)
    failed = sorted(name for name, line in result.lines.items() if line in ("FAIL", "ERROR"))
    if failed:
        again = Result()
        for name in failed:
            if " " not in name:     # not "setUpClass (module.Class)": a fixture's failure stays
                unittest.defaultTestLoader.loadTestsFromName(name).run(again)
        log = os.environ.get("PYTESTS_RERUN_LOG")
        if log:
            with open(log, "a") as f:
                for name in failed:
                    f.write("%s: %s, then %s\n" % (name, result.lines[name], again.lines.get(name, "not run")))
        result.lines.update((name, again.lines[name]) for name in failed if name in again.lines)
    counts = {}
    for name in sorted(result.lines):
        print("%s: %s" % (name, result.lines[name]))
        counts[result.lines[name]] = counts.get(result.lines[name], 0) + 1
    print("%d tests: %s" % (len(result.lines),
                            ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))))
    return 0 if counts.get("FAIL", 0) + counts.get("ERROR", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
