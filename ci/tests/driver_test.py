#!/usr/bin/env python3
"""ci/driver.py: modes and their defaults, which builds a mode runs, --only's filters, --fail-fast's passes and
the progress estimate. (The steps themselves run in ci/verify --quick.)"""
import os
import re
import sys
import tempfile
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
        full_scale = {"emul.sha512ni-full-scale", "emul.qemu-x86_64.sha512ni-full-scale"}  # verify's rows
        self.assertEqual(skipped, {"host-asan-ubsan", "host-msan", "host-valgrind", "host-tsan"} | full_scale)
        d = driver.Driver(driver.parse_args(["test"]))
        d.matrix, d.arches = Matrix(), ["x86_64", "s390x"]
        plan, skipped = d.plan()
        self.assertIn("host-tsan", [r.name for r in plan[0][1]])  # tsan in both modes
        self.assertEqual([r.name for r in plan[1][1]], ["cross-s390x", "cross-s390x-fuzz"])
        self.assertEqual(skipped, full_scale)
        d = driver.Driver(driver.parse_args(["verify"]))
        d.matrix, d.arches = Matrix(), ["x86_64"]
        self.assertEqual(d.plan()[1], {"emul.sha512ni", "emul.qemu-x86_64.sha512ni"})  # the reduced-scale rows


class ReducedSetTest(unittest.TestCase):
    """An env row with modes= runs only there: ci/test keeps QEMU 10 to a reduced set, ci/verify runs it all."""
    def driver(self, *argv):
        d = driver.Driver(driver.parse_args(list(argv)))
        d.matrix, d.arches = Matrix(), ["riscv64"]
        return d

    def test_test_mode_leaves_out_the_verify_only_environments_and_says_so(self):
        d = self.driver("test")
        left_out = set(d.envs_left_out("riscv64"))
        self.assertIn("qemu10-riscv64.zvknhb-vlen256", left_out)
        self.assertIn("qemu10-riscv64.vlen512-tail-ones.zvk_conformance", left_out)
        self.assertNotIn("qemu10-riscv64.zvknhb-vlen1024", left_out)
        self.assertNotIn("qemu10-riscv64.vlen128-tail-kept.zvk_conformance", left_out)
        self.assertTrue(left_out <= d.plan()[1])
        args, _ = d.ctest_args(d.matrix.row("riscv64", "cross-riscv64"))
        self.assertEqual(args.count("-E"), 1)  # ctest keeps one -E: the build row's and the mode's, joined
        regex = re.compile(args[args.index("-E") + 1])
        for name in ("qemu10-riscv64.zvknhb-vlen256.shakedown_diff_tests",
                     "qemu10-riscv64.zvknha-nozvkb.fuzz_api.replay",
                     "qemu10-riscv64.vlen256-tail-kept.zvk_conformance", "unit.Api.Something/0"):
            self.assertTrue(regex.search(name), name)
        for name in ("qemu10-riscv64.zvknhb-vlen1024.shakedown_diff_tests",
                     "qemu-riscv64.rv64gcv.shakedown_unit_tests",
                     "qemu10-riscv64.vlen1024-tail-ones.zvk_conformance", "asm_contract.zvk.emul.zvk-vlen256"):
            self.assertFalse(regex.search(name), name)
        fuzz_args, _ = d.ctest_args(d.matrix.row("riscv64", "cross-riscv64-fuzz"))
        self.assertTrue(re.search(fuzz_args[fuzz_args.index("-E") + 1], "qemu10-riscv64.zvknha.fuzz_hash.random"))

    def test_verify_mode_and_all_environments_run_every_row(self):
        for argv in (["verify"], ["test", "--all-environments"]):
            d = self.driver(*argv)
            self.assertEqual(d.envs_left_out("riscv64"), [], argv)
        args, _ = self.driver("verify").ctest_args(Matrix().row("riscv64", "cross-riscv64-fuzz"))
        self.assertEqual(args, ["-L", "^fuzz$", "-E", "^fuzz\\.run\\."])

    def test_merge_excludes_and_the_entries_of_a_row(self):
        self.assertEqual(driver.merge_excludes(["-L", "x", "-E", "a", "-E", "b"]), ["-L", "x", "-E", "(a)|(b)"])
        self.assertEqual(driver.merge_excludes(["-E", "a"]), ["-E", "a"])
        regex = re.compile(driver.env_entries_regex(["emul.p", "q.r.conf"]))
        for name in ("emul.p.shakedown_vectors_tests", "q.r.conf", "asm_contract.padlock.emul.p",
                     "asm_contract.padlock.flip-XSHA256.emul.p"):
            self.assertTrue(regex.search(name), name)
        for name in ("emul.px.shakedown_vectors_tests", "asm_contract.padlock.emul.p2", "emul.q"):
            self.assertFalse(regex.search(name), name)

    def test_the_runner_of_a_row_comes_from_the_build(self):
        with tempfile.TemporaryDirectory() as build:
            q10 = os.path.join(build, "qemu10")
            os.makedirs(q10)
            with open(os.path.join(q10, "qemu-riscv64"), "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(os.path.join(q10, "qemu-riscv64"), 0o755)
            with open(os.path.join(build, "CMakeCache.txt"), "w") as f:
                f.write(f"SHAKEDOWN_QEMU10_DIR:PATH={q10}\nSHAKEDOWN_CROSS_QEMU_ROOT:INTERNAL=/sysroot\n")
            d = self.driver("verify")
            row = d.matrix.row("riscv64", "qemu10-riscv64.zvknhb-vlen128")
            self.assertEqual(d.runner_of("riscv64", build, row),
                             [os.path.join(q10, "qemu-riscv64"), "-L", "/sysroot", "-cpu", row.get("cpu")])
            self.assertEqual(d.runner_of("riscv64", build)[-1], d.matrix.first_qemu_cpu("riscv64"))
            os.remove(os.path.join(q10, "qemu-riscv64"))
            self.assertIsNone(d.runner_of("riscv64", build, row))  # QEMU 10 missing: the step fails, never skips


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


class OnlyOnARowWithItsOwnIncludeTest(unittest.TestCase):
    """ctest keeps only the last -R: --only on host-tsan (ctest=-R,...) must not replace the row's own selection,
    or ctest runs entries whose programs the TSan build never built ("Unable to find executable")."""
    ENTRIES = ["unit.Registry.Names", "unit.EveryBackend/Pinned.Runs/sha512__x86_64_avx2",
               "diff.EveryBackend/SignalDiff.InHandler/sha512__x86_64_avx2",
               "diff.EveryBackend/Diff.Many/sha512__x86_64_avx2", "fuzz.fuzz_hash.replay"]

    def lister(self, args):
        """ctest's listing over ENTRIES, for -R and -E as ctest applies them (the last of each)."""
        include = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-R"]
        exclude = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-E"]
        return [n for n in self.ENTRIES
                if (not include or re.search(include[-1], n)) and not (exclude and re.search(exclude[-1], n))]

    def test_the_rows_selection_and_the_backends_entries_are_intersected(self):
        row_args = ["-R", "Signal|Registry|unit\\.", "-E", "Names"]
        args = driver.narrow_includes(row_args, "/sha512__x86_64_avx2$|^fuzz\\.", self.lister)
        self.assertEqual(args.count("-R"), 1)
        self.assertEqual(self.lister(args), ["unit.EveryBackend/Pinned.Runs/sha512__x86_64_avx2",
                                             "diff.EveryBackend/SignalDiff.InHandler/sha512__x86_64_avx2"])
        self.assertIsNone(driver.narrow_includes(["-R", "Registry"], "avx2", self.lister))  # nothing in common
        self.assertEqual(driver.narrow_includes(["-L", "x"], "r", self.lister), ["-L", "x", "-R", "r"])

    def test_the_tsan_row_keeps_its_suites(self):
        d = driver.Driver(driver.parse_args(["test", "--only", "sha512/x86_64/avx2"]))
        d.matrix, d.arches = Matrix(), ["x86_64"]
        args, _ = d.ctest_args(d.matrix.row("x86_64", "host-tsan"), lambda a, env: self.lister(a))
        self.assertEqual(self.lister(args), ["unit.EveryBackend/Pinned.Runs/sha512__x86_64_avx2",
                                             "diff.EveryBackend/SignalDiff.InHandler/sha512__x86_64_avx2"])

    def test_a_name_is_matched_literally(self):
        name = "diff.a/b (c|d) [e]*+?^$\\x"
        literal = driver.ctest_literal(name)
        self.assertTrue(re.fullmatch(literal, name))
        self.assertFalse(re.fullmatch(literal, "diff-a/b (c|d) [e]*+?^$\\x"))


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
