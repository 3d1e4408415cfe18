#!/usr/bin/env python3
"""ci/driver.py and its jobs: modes and their defaults, which builds a mode runs, the entries a mode leaves out
and --only's filters (looked up in the plan), --fail-fast's passes, the changed backends, and the progress
estimate. (The steps themselves run in ci/verify --quick.)"""
import json
import os
import re
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import changes  # noqa: E402
import ctest_run  # noqa: E402
import driver  # noqa: E402
import fuzz_run  # noqa: E402
from console import Console  # noqa: E402
from matrix import Matrix  # noqa: E402
from plan import Facts, Plan, resolve  # noqa: E402

MATRIX = Matrix()


def build_plan(arch, facts):
    """The plan of a build of ARCH, as if CMake registered every entry of it (contract runs: their main entry)."""
    plan = Plan(resolve(MATRIX, arch, facts))
    plan.registered = [(t["env"], t["name"]) for t in plan.tests]
    plan.registered += [(c["env"], f"asm_contract.{c['family']}.{c['env']}") for c in plan.records
                        if c["type"] == "contract"]
    return plan


CROSS = Facts(cross=True, sysroot="/root", qemu="qemu-riscv64", qemu10="/q10/qemu-riscv64")
HOST = Facts(qemu="/usr/bin/qemu-x86_64", qemu10="/q10/qemu-x86_64")


def ctest_of(argv, arch, row_name, facts):
    args = driver.parse_args(argv)
    row = MATRIX.row(arch, row_name)
    return ctest_run.CtestRun(Console(), args, row, "/build", build_plan(arch, facts), "/out", "/rec", "/res")


class ModeTest(unittest.TestCase):
    def test_modes_and_defaults(self):
        a = driver.parse_args(["verify", "--quick"])
        self.assertEqual((a.mode, a.fuzz_seconds, a.scale, a.mode_group), ("quick", 5, "0.2", "quick"))
        a = driver.parse_args(["verify", "--deep", "--fuzz-seconds", "7"])
        self.assertEqual((a.mode, a.fuzz_seconds, a.scale, a.mode_group), ("deep", 7, "10", "verify"))
        self.assertEqual(driver.parse_args(["test"]).mode, "test")
        with self.assertRaises(SystemExit):
            driver.parse_args(["test", "--quick"])

    def test_each_mode_runs_its_builds_and_reports_the_others_as_not_run(self):
        def builds(argv, arches):
            d = driver.Driver(driver.parse_args(argv))
            d.matrix, d.arches = MATRIX, arches
            return d.builds()
        order, skipped = builds(["verify", "--quick"], ["x86_64"])
        self.assertEqual([r.name for r in order[0][1]], ["host-default", "host-fuzz"])
        self.assertEqual(skipped, {"host-asan-ubsan", "host-msan", "host-valgrind", "host-tsan"})
        order, skipped = builds(["test"], ["x86_64", "s390x"])
        self.assertIn("host-tsan", [r.name for r in order[0][1]])  # tsan in both modes
        self.assertEqual([r.name for r in order[1][1]], ["cross-s390x", "cross-s390x-fuzz"])
        self.assertEqual(skipped, set())

    def test_fail_fast_puts_the_arch_of_a_changed_backend_first(self):
        d = driver.Driver(driver.parse_args(["test", "--fail-fast"]))
        d.matrix, d.arches, d.changed = MATRIX, ["x86_64", "aarch64", "s390x"], ["sha512/s390x/cpacf"]
        self.assertEqual([arch for arch, _ in d.builds()[0]], ["s390x", "x86_64", "aarch64"])


class CompilerLauncherTest(unittest.TestCase):
    def setUp(self):
        self.saved = os.environ.get("SHAKEDOWN_CCACHE")

    def tearDown(self):
        if self.saved is None:
            os.environ.pop("SHAKEDOWN_CCACHE", None)
        else:
            os.environ["SHAKEDOWN_CCACHE"] = self.saved

    def test_builds_compile_through_the_cache_unless_it_is_turned_off(self):
        os.environ.pop("SHAKEDOWN_CCACHE", None)
        self.assertTrue(driver.compiler_cache_on(), "ccache is not installed (ci/setup installs it)")
        launcher = os.path.join(driver.ROOT, "ci", "compiler-cache")
        self.assertEqual(driver.compiler_launcher_args(), [f"-DCMAKE_{lang}_COMPILER_LAUNCHER={launcher}"
                                                           for lang in ("C", "CXX", "ASM")])
        os.environ["SHAKEDOWN_CCACHE"] = "0"
        # Turned off, a tree configured with the launcher must lose it: an empty value, not a missing argument.
        self.assertEqual(driver.compiler_launcher_args(), [f"-DCMAKE_{lang}_COMPILER_LAUNCHER="
                                                           for lang in ("C", "CXX", "ASM")])
        self.assertEqual(driver.compiler_cache_summary(None, None), "; compiler cache off")

    def test_the_build_line_counts_the_objects_reused(self):
        self.assertEqual(driver.compiler_cache_summary((10, 5), (160, 7)), "; compiler cache: 150 of 152 objects reused")


class ReducedSetTest(unittest.TestCase):
    """An env row with modes= runs only there: ci/test keeps QEMU 10 to a reduced set, ci/verify runs it all. The
    entries left out are the plan's entries of those rows, named exactly."""

    def test_test_mode_leaves_out_the_verify_only_environments_and_says_so(self):
        run = ctest_of(["test"], "riscv64", "cross-riscv64", CROSS)
        left_out = set(run.left_out())
        self.assertIn("qemu10-riscv64.zvknhb-vlen256", left_out)
        self.assertIn("qemu10-riscv64.vlen512-tail-ones.zvk_conformance", left_out)
        self.assertNotIn("qemu10-riscv64.zvknhb-vlen1024", left_out)
        self.assertNotIn("qemu10-riscv64.vlen128-tail-kept.zvk_conformance", left_out)
        args, _ = run.args()
        self.assertEqual(args.count("-E"), 1)  # ctest keeps one -E: the build row's and the mode's, joined
        regex = re.compile(args[args.index("-E") + 1])
        for name in ("qemu10-riscv64.zvknhb-vlen256.shakedown_diff_tests",
                     "qemu10-riscv64.zvknha-nozvkb.fuzz_api.replay",
                     "qemu10-riscv64.vlen256-tail-kept.zvk_conformance", "unit.Api.Something/0"):
            self.assertTrue(regex.search(name), name)
        for name in ("qemu10-riscv64.zvknhb-vlen1024.shakedown_diff_tests",
                     "qemu-riscv64.rv64gcv.shakedown_unit_tests",
                     "qemu10-riscv64.vlen1024-tail-ones.zvk_conformance", "asm_contract.zvk.emul.zvk-vlen256",
                     "qemu10-riscv64.zvknhb-vlen256.shakedown_diff_tests.x"):  # exact names, never prefixes
            self.assertFalse(regex.search(name), name)
        fuzz_args, _ = ctest_of(["test"], "riscv64", "cross-riscv64-fuzz", CROSS).args()
        self.assertTrue(re.search(fuzz_args[fuzz_args.index("-E") + 1], "qemu10-riscv64.zvknha.fuzz_hash.random"))

    def test_verify_mode_and_all_environments_run_every_row(self):
        for argv in (["verify"], ["test", "--all-environments"]):
            self.assertEqual(ctest_of(argv, "riscv64", "cross-riscv64", CROSS).left_out(), [], argv)
        args, _ = ctest_of(["verify"], "riscv64", "cross-riscv64-fuzz", CROSS).args()
        self.assertEqual(args, ["-L", "^fuzz$", "-E", "^fuzz\\.run\\."])

    def test_merge_excludes(self):
        self.assertEqual(ctest_run.merge_excludes(["-L", "x", "-E", "a", "-E", "b"]), ["-L", "x", "-E", "(a)|(b)"])
        self.assertEqual(ctest_run.merge_excludes(["-E", "a"]), ["-E", "a"])


class OnlyTest(unittest.TestCase):
    def filters(self, backend, arch="x86_64", row="host-default"):
        return ctest_of(["verify", "--only", backend], arch, row, HOST).only_filters()

    def test_a_backend_and_the_environments_it_runs_in(self):
        regex, gtest = self.filters("keccak/x86_64/bmi2")
        self.assertIn("/(sha3_224__x86_64_bmi2|", regex)
        self.assertIn("keccak__x86_64_bmi2)( |$)", regex)
        self.assertIn("qemu-x86_64\\.avx2\\.shakedown_diff_tests", regex)
        self.assertIn("qemu-x86_64\\.avx2\\.fuzz_hash\\.replay", regex)
        self.assertNotIn("qemu-x86_64\\.avx2\\.shakedown_unit_tests", regex)
        self.assertNotIn("emul\\.phe", regex)  # emulated environments that do not expect it
        self.assertEqual(gtest.count("*/"), 7)

    def test_the_backends_emulated_beside_it_stay_in_the_filter(self):
        regex, gtest = self.filters("sha512/x86_64/phe2")
        self.assertIn("emul\\.phe-zhaoxin-strict\\.shakedown_vectors_tests", regex)
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
        args = ctest_run.narrow_includes(row_args, "/sha512__x86_64_avx2$|^fuzz\\.", self.lister)
        self.assertEqual(args.count("-R"), 1)
        self.assertEqual(self.lister(args), ["unit.EveryBackend/Pinned.Runs/sha512__x86_64_avx2",
                                             "diff.EveryBackend/SignalDiff.InHandler/sha512__x86_64_avx2"])
        self.assertIsNone(ctest_run.narrow_includes(["-R", "Registry"], "avx2", self.lister))  # nothing in common
        self.assertEqual(ctest_run.narrow_includes(["-L", "x"], "r", self.lister), ["-L", "x", "-R", "r"])

    def test_the_tsan_row_keeps_its_suites(self):
        run = ctest_of(["test", "--only", "sha512/x86_64/avx2"], "x86_64", "host-tsan", HOST)
        args, _ = run.args(lambda a, env: self.lister(a))
        self.assertEqual(self.lister(args), ["unit.EveryBackend/Pinned.Runs/sha512__x86_64_avx2",
                                             "diff.EveryBackend/SignalDiff.InHandler/sha512__x86_64_avx2"])

    def test_a_name_is_matched_literally(self):
        name = "diff.a/b (c|d) [e]*+?^$\\x"
        literal = ctest_run.ctest_literal(name)
        self.assertTrue(re.fullmatch(literal, name))
        self.assertFalse(re.fullmatch(literal, "diff-a/b (c|d) [e]*+?^$\\x"))


class FailFastTest(unittest.TestCase):
    def test_single_tests_first_then_the_environments(self):
        passes = ctest_run.fail_fast_passes(["-L", "x"], ["e.b", "e.c"])
        self.assertEqual(passes, [("single tests", ["-L", "x", "-E", "^(e\\.b|e\\.c)$"]),
                                  ("environments", ["-L", "x", "-R", "^(e\\.b|e\\.c)$"])])

    def test_a_build_rows_exclusion_is_kept_in_every_pass(self):
        passes = ctest_run.fail_fast_passes(["-E", "^unit\\."], ["e.x"])
        self.assertEqual(passes[0][1], ["-E", "(^unit\\.)|^(e\\.x)$"])
        self.assertEqual(passes[1][1], ["-R", "^(e\\.x)$", "-E", "^unit\\."])
        self.assertEqual(ctest_run.fail_fast_passes(["-R", "x"], ["e"]), [("", ["-R", "x"])])

    def test_what_changed_runs_first_and_only_once(self):
        first = [("known answers of b", {"vectors.X/sha256__b", "e.v"}), ("the rest of b", {"diff.Y/sha256__b"})]
        passes = ctest_run.fail_fast_passes([], ["e.v", "e.w"], first)
        self.assertEqual([label for label, _ in passes],
                         ["known answers of b", "the rest of b", "single tests", "environments"])
        self.assertEqual(passes[0][1], ["-R", "^(e\\.v|vectors\\.X/sha256__b)$"])
        self.assertEqual(passes[2][1], ["-E", "^(diff\\.Y/sha256__b|e\\.v|e\\.w|vectors\\.X/sha256__b)$"])
        self.assertEqual(passes[3][1], ["-R", "^(e\\.w)$"])  # e.v ran with the known answers


class ChangesTest(unittest.TestCase):
    def test_files_map_to_their_backends(self):
        known = {b for bs in MATRIX.backends().values() for b in bs}
        by_model = changes.emulated_by_model(MATRIX)
        cases = {"arch/x86_64/sha256_avx2.cc": {"sha256/x86_64/avx2"},
                 "arch/s390x/cpacf.h": {"sha256/s390x/cpacf", "sha512/s390x/cpacf", "keccak/s390x/cpacf"},
                 "emul/src/sha512ni_model.cc": {"sha512/x86_64/sha512ni"},
                 "emul/src/phe_model.h": {"sha256/x86_64/phe", "sha512/x86_64/phe2"},
                 "lib/src/keccak_generic.cc": {"keccak/generic"}, "README.md": set()}
        for path, want in cases.items():
            self.assertEqual(changes.backends_of(path, known, by_model), want, path)


class ProgressTest(unittest.TestCase):
    def test_estimate_from_the_last_runs_times(self):
        p = ctest_run.Progress("b", ["a", "b", "c", "d"], {"a": 10, "b": 10, "c": 60, "d": 60}, time.time() - 20)
        p.finished("a")
        p.finished("b")
        line = p.line()
        self.assertIn("2/4 tests", line)
        # (60 + 60) / 2 jobs: a minute
        self.assertRegex(line, r"about 01:00 left \(from the last run's times\)")
        # The longest entry left bounds it from below: two jobs cannot share one entry.
        p = ctest_run.Progress("b", ["a", "b", "c"], {"a": 5, "b": 5, "c": 300}, time.time())
        self.assertRegex(p.line(), r"about 05:00 left")

    def test_a_slower_run_scales_the_last_runs_times_within_bounds(self):
        names = [f"t{i}" for i in range(10)]
        p = ctest_run.Progress("b", names, {n: 10 for n in names}, time.time() - 50)
        for n in names[:5]:
            p.finished(n, 20.0)  # twice the last run's time
        self.assertRegex(p.line(), r"about 00:50 left")  # (5 x 10 s) / 2 jobs, times 2
        p = ctest_run.Progress("b", names, {n: 10 for n in names}, time.time() - 50)
        for n in names[:5]:
            p.finished(n, 1000.0)
        self.assertRegex(p.line(), r"about 01:15 left")  # the scale stops at 3

    def test_no_absurd_estimate_when_the_costliest_entries_finish_first(self):
        # An 8-minute phase of 2825 entries: ctest starts the whole-suite entries first, so after 30 s two entries
        # are done; by count that read "about 11:46:15 left". No estimate until a quarter is done, then a bounded one.
        names = [f"t{i}" for i in range(2825)]
        p = ctest_run.Progress("host-default", names, {}, time.time() - 30)
        p.finished("t0")
        p.finished("t1")
        line = p.line()
        self.assertNotIn("left", line)
        self.assertIn("no estimate by count before 25% are done", line)
        for n in names[:800]:
            p.finished(n)
        seconds, how = p.estimate(30)
        self.assertEqual(how, "by count")
        self.assertLessEqual(seconds, 3 * 30)

    def test_by_count_without_times(self):
        p = ctest_run.Progress("b", ["a", "b"], {}, time.time() - 30)
        p.finished("a")
        self.assertRegex(p.line(), r"1/2 tests, 00:(29|30|31) elapsed, 2 tests/min, about 00:(29|30|31) left "
                                   r"\(by count\)")

    def test_finished_lines_and_the_last_runs_times(self):
        self.assertEqual(ctest_run.finished_entry("  12/140 Test  #12: unit.A.b ......   Passed    1.25 sec"),
                         ("unit.A.b", 1.25))
        self.assertEqual(ctest_run.finished_entry("  1/2 Test  #1: x.y ...***Failed    0.05 sec"), ("x.y", 0.05))
        self.assertEqual(ctest_run.finished_entry("  3/9 Test  #3: slow ..........***Timeout 1200.01 sec"),
                         ("slow", 1200.01))
        self.assertIsNone(ctest_run.finished_entry("Start  3: slow"))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.jsonl")
            with open(path, "w") as f:
                for build, test, t in (("host-default", "unit.A", 1.5), ("host-fuzz", "fuzz.x", 7.0)):
                    f.write(json.dumps({"build": build, "arch": "x86_64", "test": test, "status": "passed",
                                        "time": t}) + "\n")
            self.assertEqual(ctest_run.last_run_times(path), {"host-default": {"unit.A": 1.5},
                                                              "host-fuzz": {"fuzz.x": 7.0}})
            self.assertEqual(ctest_run.last_run_times(os.path.join(d, "none.jsonl")), {})


class OutputFolderTest(unittest.TestCase):
    def test_each_mode_writes_its_own_folder(self):
        # --quick used to write build/verify/, over the last full run's report.
        for argv, folder in ((["verify", "--quick"], "quick"), (["verify"], "verify"), (["verify", "--deep"], "deep"),
                             (["test"], "test")):
            d = driver.Driver(driver.parse_args(argv))
            self.assertEqual(d.out, os.path.join(driver.ROOT, "build", folder), argv)

    def test_help_names_the_folders(self):
        self.assertIn("build/<mode>/ (build/verify/, build/quick/, build/deep/ or build/test/", driver.__doc__)


class CrashFileTest(unittest.TestCase):
    """A crash file of the time-boxed fuzzing is found, and its replay command sets up its environment."""

    def test_the_replay_command_runs_repro_of_the_build_in_the_environment(self):
        job = {"env": "emul.sha512ni", "target": "fuzz_hash", "runner": [],
               "environment": {"SHAKEDOWN_EMULATE": "sha512ni"}}
        cmd = fuzz_run.repro_command("/src", "/src/build/fuzz", job, "/out/fuzz-emul.sha512ni-fuzz_hash-crash-ab")
        self.assertEqual(cmd, "cd /src && /src/build/fuzz/fuzz/shakedown-repro --env emul.sha512ni "
                              "/out/fuzz-emul.sha512ni-fuzz_hash-crash-ab")
        job = dict(job, target="fuzz_api", runner=["qemu-s390x", "-L", "/sys root", "-cpu", "max"])
        cmd = fuzz_run.repro_command("/src", "/b", job, "/f")
        self.assertEqual(cmd, "cd /src && env ASAN_OPTIONS=detect_stack_use_after_return=0 qemu-s390x -L "
                              "'/sys root' -cpu max /b/fuzz/shakedown-repro --env emul.sha512ni /f")

    def test_a_replay_gets_the_environment_without_its_emulation_minimum(self):
        items = ["SHAKEDOWN_EMULATE=sha512ni", "SHAKEDOWN_EMULATE_REQUIRE=vsha512rnds2=1000", "A=b=c"]
        want = {"SHAKEDOWN_EMULATE": "sha512ni", "A": "b=c"}
        self.assertEqual(fuzz_run.replay_environment(items), want)
        self.assertEqual(fuzz_run.replay_environment(dict(i.partition("=")[::2] for i in items)), want)

    def test_crash_files_are_recorded_with_their_command(self):
        with tempfile.TemporaryDirectory() as d:
            sha = "0123456789abcdef0123456789abcdef01234567"
            for name in (f"fuzz-emul.sha512ni-fuzz_hash-crash-{sha}", f"fuzz-emul.sha512ni-fuzz_hash-leak-{sha}",
                         f"fuzz-emul.sha512ni-full-scale-fuzz_hash-crash-{sha}", "fuzz-emul.sha512ni-fuzz_hash.log"):
                open(os.path.join(d, name), "w").close()
            crashes = os.path.join(d, "crashes.jsonl")
            row = MATRIX.row("x86_64", "host-fuzz")
            run = fuzz_run.TimeBoxedFuzzing(Console(), "/src", row, "/b", [], 1, d, "/rec", crashes)
            job = {"env": "emul.sha512ni", "target": "fuzz_hash", "runner": []}
            found = run.record_crashes({"label": "emul.sha512ni-fuzz_hash", "job": job, "started": time.time()})
            self.assertEqual([k for k, _ in found], ["crash", "leak"])
            with open(crashes) as f:
                recorded = [json.loads(line) for line in f]
            self.assertEqual(recorded[0]["repro"], f"cd /src && /b/fuzz/shakedown-repro --env emul.sha512ni "
                                                   f"{d}/fuzz-emul.sha512ni-fuzz_hash-crash-{sha}")
            self.assertEqual({r["env"] for r in recorded}, {"emul.sha512ni"})
            self.assertEqual(recorded[0]["build"], "host-fuzz")


if __name__ == "__main__":
    unittest.main()
