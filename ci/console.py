"""What the CI driver prints and counts: steps, notes, failed steps, and the closing "N passed, N failed" line."""
import time


def clock(seconds):
    s = max(0, int(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


def tail(path, n):
    """The last n lines of a log, indented."""
    with open(path, encoding="utf-8", errors="replace") as f:
        print("".join("    " + line for line in f.readlines()[-n:]), end="")


class Console:
    """The run's counters (ctest entries and steps) and its output."""

    def __init__(self):
        self.start = time.time()
        self.passed = self.failed = self.skipped = 0
        self.failures = []  # what failed, one line each

    def elapsed(self, since=None):
        s = int(time.time() - (since or self.start))
        return f"{s // 60:02d}:{s % 60:02d}"

    def step(self, i, n, what):
        print(f"\n\033[1m==> [{i}/{n}] {what}  (elapsed {self.elapsed()})\033[0m", flush=True)

    @staticmethod
    def note(text):
        print(f"    {text}", flush=True)

    def fail_step(self, what):
        self.failed += 1
        self.failures.append(what)
        self.note(f"FAILED: {what}")

    def count(self, passed=0, failed=0, skipped=0):
        self.passed += passed
        self.failed += failed
        self.skipped += skipped

    def summary(self):
        print()
        if self.failures:
            print("Failures:")
            for f in self.failures:
                print(f"  - {f}")
        print(f"total time {self.elapsed()}")
        tail_text = f", {self.skipped} skipped" if self.skipped else ""
        print(f"{self.passed} passed, {self.failed} failed{tail_text}", flush=True)
