#!/usr/bin/env python3
"""ci/driver.py: modes and their defaults, which builds a mode runs, --only's filters, --fail-fast's passes and
the progress estimate. (The steps themselves run in ci/verify --quick.)"""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import driver  # noqa: E402
from matrix import Matrix  # noqa: E402


class ModeTest(unittest.TestCase):
    def test_modes_and_defaults(self):
        a = driver.parse_args(["verify", "--quick"])
        self.assertEqual((a.mode, a.fuzz_seconds, a.scale), ("quick", 5, "0.2"))
        a = driver.parse_args(["verify", "--deep", "--fuzz-seconds", "7"])
        self.assertEqual((a.mode, a.fuzz_seconds, a.scale), ("deep", 7, "10"))
        self.assertEqual(driver.parse_args(["test"]).mode, "test")
        with self.assertRaises(SystemExit):
            driver.parse_args(["test", "--quick"])

    def test_each_mode_runs_its_builds_and_reports_the_others_as_not_run(self):
        d = driver.Driver(driver.parse_args(["verify", "--quick"]))
        d.matrix, d.arches = Matrix(), ["x86_64"]
        plan, skipped = d.plan()
        self.assertEqual([r.name for r in plan[0][1]], ["host-default", "host-fuzz"])
        self.assertEqual(skipped, {"host-asan-ubsan", "host-msan", "host-tsan"})
        d = driver.Driver(driver.parse_args(["test"]))
        d.matrix, d.arches = Matrix(), ["x86_64", "s390x"]
        plan, skipped = d.plan()
        self.assertIn("host-tsan", [r.name for r in plan[0][1]])  # tsan in both modes
        self.assertEqual([r.name for r in plan[1][1]], ["cross-s390x", "cross-s390x-fuzz"])
        self.assertEqual(skipped, set())


class OnlyTest(unittest.TestCase):
    def filters(self, backend, arch="x86_64"):
        d = driver.Driver(driver.parse_args(["verify", "--only", backend]))
        d.matrix = Matrix()
        return d.only_filters(arch)

    def test_a_backend_and_the_environments_it_runs_in(self):
        regex, gtest = self.filters("keccak/x86_64/bmi2")
        self.assertIn("/(sha3_224__x86_64_bmi2|", regex)
        self.assertIn("keccak__x86_64_bmi2)( |$)", regex)
        self.assertIn("qemu-x86_64\\.avx2", regex)
        self.assertNotIn("emul\\.phe", regex)  # emulated environments that do not expect it
        self.assertEqual(gtest.count("*/"), 7)

    def test_the_backends_emulated_beside_it_stay_in_the_filter(self):
        regex, gtest = self.filters("sha512/x86_64/phe2")
        self.assertIn("emul\\.phe-zhaoxin-strict", regex)
        self.assertIn("*/sha256__x86_64_phe", gtest)
        self.assertIn("*/sha512_256__x86_64_phe2", gtest)


class FailFastTest(unittest.TestCase):
    def test_single_tests_first_then_the_environments(self):
        passes = driver.fail_fast_passes(["-L", "x"], ["qemu-a.b", "emul.c"])
        self.assertEqual(passes, [("single tests", ["-L", "x", "-E", "^(qemu-a\\.b|emul\\.c)\\."]),
                                  ("environments", ["-L", "x", "-R", "^(qemu-a\\.b|emul\\.c)\\."])])

    def test_a_build_rows_exclusion_is_kept_in_both(self):
        passes = driver.fail_fast_passes(["-E", "^unit\\."], ["e"])
        self.assertEqual(passes[0][1], ["-E", "(^unit\\.)|^(e)\\."])
        self.assertEqual(passes[1][1], ["-R", "^(e)\\.", "-E", "^unit\\."])
        self.assertEqual(driver.fail_fast_passes(["-R", "x"], ["e"]), [("", ["-R", "x"])])


class ProgressTest(unittest.TestCase):
    def test_estimate_from_recorded_costs_less_the_work_in_progress(self):
        p = driver.Progress("b", ["a", "b", "c", "d"], {"a": 10, "b": 10, "c": 60, "d": 60}, time.time() - 20)
        p.finished("a")
        p.finished("b")
        line = p.line()
        self.assertIn("2/4 tests", line)
        # (60 + 60) / 2 jobs, less 20 s spent of which the finished entries account for (10 + 10) / 2
        self.assertRegex(line, r"about 00:(49|50) left \(from the last run's times\)")

    def test_by_count_without_costs(self):
        p = driver.Progress("b", ["a", "b"], {}, time.time() - 30)
        p.finished("a")
        self.assertRegex(p.line(), r"1/2 tests, 00:(29|30|31) elapsed, about 00:(29|30|31) left \(by count\)")


if __name__ == "__main__":
    unittest.main()
