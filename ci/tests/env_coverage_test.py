#!/usr/bin/env python3
"""ci/env_coverage.py's gate and its data file: a file below its floor, a file below 95 % without a reason, a file
the gate names that no environment compiled, and malformed lines of ci/coverage-gate.txt; the checked-in file
reads and names every arch of the matrix."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import env_coverage  # noqa: E402
from matrix import Matrix  # noqa: E402


def coverage(**files):
    return {"x86_64": {"host-fuzz": dict(files), "merged": dict(files)}}


class GateTest(unittest.TestCase):
    def test_a_file_at_or_above_its_floor_and_the_goal_passes(self):
        self.assertEqual(env_coverage.gate(coverage(**{"lib/a.cc": [96, 100]}), {("x86_64", "lib/a.cc"): 96.0}, {}),
                         [])

    def test_a_file_below_its_floor_fails_with_the_numbers(self):
        (p,) = env_coverage.gate(coverage(**{"lib/a.cc": [85, 100]}), {("x86_64", "lib/a.cc"): 87.2},
                                 {"lib/a.cc": "gap: error paths"})
        self.assertEqual(p, "x86_64: lib/a.cc 85.0% of lines (85/100), below its 87.2%")

    def test_below_the_goal_a_file_needs_a_reason(self):
        (p,) = env_coverage.gate(coverage(**{"lib/a.cc": [90, 100]}), {}, {})
        self.assertIn("below 95.0% with no reason given", p)
        self.assertEqual(env_coverage.gate(coverage(**{"lib/a.cc": [90, 100], "lib/empty.h": [0, 0]}), {},
                                           {"lib/a.cc": "gap"}), [])

    def test_a_named_file_that_no_environment_compiled_fails(self):
        (p,) = env_coverage.gate(coverage(), {("x86_64", "arch/x86_64/gone.cc"): 50.0}, {})
        self.assertIn("arch/x86_64/gone.cc not compiled into any fuzz target", p)
        # An arch this run did not measure is not judged.
        self.assertEqual(env_coverage.gate(coverage(), {("s390x", "arch/s390x/cpu.cc"): 50.0}, {}), [])


class GateFileTest(unittest.TestCase):
    def read(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        self.addCleanup(os.remove, f.name)
        return env_coverage.read_gate(f.name)

    def test_lines_and_comments(self):
        mins, reasons = self.read("# floors\nmin x86_64 lib/a.cc 87.2  # measured\n\nreason lib/a.cc gap: two words\n")
        self.assertEqual((mins, reasons), ({("x86_64", "lib/a.cc"): 87.2}, {"lib/a.cc": "gap: two words"}))

    def test_malformed_lines_are_an_error_with_their_number(self):
        for bad in ("min x86_64 lib/a.cc\n", "min x86_64 lib/a.cc many\n", "reason lib/a.cc\n", "floor x 1\n"):
            with self.assertRaises(SystemExit) as e:
                self.read("# ok\n" + bad)
            self.assertIn(":2: expected", str(e.exception))

    def test_the_checked_in_gate_reads_and_covers_every_arch(self):
        mins, reasons = env_coverage.read_gate(os.path.join(env_coverage.ROOT, "ci", "coverage-gate.txt"))
        self.assertEqual({a for a, _ in mins}, set(Matrix().arches()))
        for arch in Matrix().arches():  # every arch's backend files have a floor
            self.assertTrue(any(f.startswith("arch/") for a, f in mins if a == arch), arch)
        self.assertTrue(all(r.startswith(("gap", "unreachable")) for r in reasons.values()), reasons)


if __name__ == "__main__":
    unittest.main()
