#!/usr/bin/env python3
"""ci/results.py: parameter names of every family, ctest's JUnit/Test.xml for every way an entry can end, records.

With SHAKEDOWN_BUILD_DIR set (ctest sets it), every parameterised test name the build's suites register must
parse to a family and a backend: the C++ writer of those names (tests/support/params.cc) and this reader agree.
"""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import results  # noqa: E402
from matrix import ALGORITHMS, Matrix  # noqa: E402


class ParamNameTest(unittest.TestCase):
    def test_every_algorithm_and_family_name(self):
        for family, algs in ALGORITHMS.items():
            for head in algs + (family,):
                with self.subTest(head=head):
                    self.assertEqual(results.parse_param(f"EveryBackend/X.Y/{head}__x86_64_avx2"),
                                     (family, "x86_64_avx2"))

    def test_family_level_keccak_is_not_misread(self):
        # The old report read "keccak__x86_64_bmi2" as backend "_x86_64_bmi2", so a failing BlockDiff/AbiDiff
        # keccak test never marked its cell.
        known = ["keccak/x86_64/bmi2", "sha256/x86_64/avx2", "sha512/x86_64/avx2"]
        self.assertEqual(results.backend_of("diff.EveryBackend/BlockDiff.RandomStatesAndBlockCounts/keccak__x86_64_bmi2",
                                            known), "keccak/x86_64/bmi2")
        self.assertEqual(results.backend_of("EveryBackend/HashDiff.X/sha224__x86_64_avx2", known), "sha256/x86_64/avx2")
        self.assertEqual(results.backend_of("EveryBackend/HashDiff.X/sha512_224__x86_64_avx2", known),
                         "sha512/x86_64/avx2")
        self.assertEqual(results.backend_of("EveryBackend/HashDiff.X/sha256__riscv64_zvknha", known),
                         "sha256/riscv64_zvknha")  # unknown to the matrix: kept, never dropped

    def test_pretty_printed_and_unparameterised_names(self):
        self.assertEqual(results.parse_param(
            "vectors.EveryBackend/KAT.ShortMsg/sha3_256__generic  # GetParam() = sha3-256 on generic"),
            ("keccak", "generic"))
        for name in ("unit.Hash.Something", "emul.Profiles/PheModel.X/zhaoxin_strict", "qemu-s390x.max.shakedown_diff_tests",
                     "X/Y.Z/md5__generic", "X/Y.Z/sha256_x86_64_avx2", "X/Y.Z/sha256__"):
            self.assertIsNone(results.parse_param(name), name)

    @unittest.skipUnless(os.environ.get("SHAKEDOWN_BUILD_DIR"), "needs a build tree (run through ctest)")
    def test_every_name_the_build_registers_parses(self):
        listing = subprocess.run(["ctest", "--test-dir", os.environ["SHAKEDOWN_BUILD_DIR"], "--show-only=json-v1"],
                                 capture_output=True, text=True, check=True).stdout
        names = [t["name"] for t in json.loads(listing)["tests"]]
        parameterised = [n for n in names if n.split("  #")[0].startswith(("diff.", "vectors."))
                         and "/" in n and "__" in n.split("  #")[0].rsplit("/", 1)[1]]
        self.assertTrue(parameterised, "no parameterised entries: are the suites built?")
        known = {b for bs in Matrix().backends().values() for b in bs}
        for n in parameterised:
            with self.subTest(name=n):
                backend = results.backend_of(n, known)
                self.assertIn(backend, known)


@unittest.skipUnless(os.environ.get("SHAKEDOWN_BUILD_DIR"), "needs a build tree (run through ctest)")
class OnlyFilterTest(unittest.TestCase):
    """ci/verify --only narrows the suites through SHAKEDOWN_GTEST_FILTER, which must not narrow the test list
    ctest's discovery records (GTEST_FILTER did: the next full run then silently missed every other test)."""

    def run_unit(self, *args, **env):
        binary = os.path.join(os.environ["SHAKEDOWN_BUILD_DIR"], "tests", "shakedown_unit_tests")
        return subprocess.run([binary, *args], capture_output=True, text=True, env=dict(os.environ, **env)).stdout

    def test_the_list_stays_whole_and_the_run_is_narrowed(self):
        whole = self.run_unit("--gtest_list_tests")
        self.assertIn("Registry", whole)
        self.assertEqual(self.run_unit("--gtest_list_tests", SHAKEDOWN_GTEST_FILTER="NoSuch.Test"), whole)
        self.assertIn("0 tests from 0 test suites ran", self.run_unit(SHAKEDOWN_GTEST_FILTER="NoSuch.Test"))
        one = self.run_unit("--gtest_filter=Hash.EmptyUpdatesAndNullWithZeroLengthAreNoOps",
                            SHAKEDOWN_GTEST_FILTER="NoSuch.Test")
        self.assertIn("[  PASSED  ] 1 test", one)


class CtestOutputTest(unittest.TestCase):
    """A small CMake project whose entries end in every way, run by the ctest of this machine."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        with open(os.path.join(cls.dir, "CMakeLists.txt"), "w") as f:
            f.write(textwrap.dedent("""\
                cmake_minimum_required(VERSION 3.25)
                project(p NONE)
                enable_testing()
                add_test(NAME pass COMMAND sh -c "echo hello")
                add_test(NAME fail COMMAND sh -c "echo '[ RUN      ] S/T.N/sha256__x86_64_shani'; \
                echo '[  FAILED  ] S/T.N/sha256__x86_64_shani, where GetParam() = x (1 ms)'; exit 1")
                add_test(NAME abort COMMAND sh -c "echo '[ RUN      ] S/T.A/sha512__generic'; \
                echo '[       OK ] S/T.A/sha512__generic (0 ms)'; echo '[ RUN      ] S/T.N/keccak__x86_64_bmi2'; \
                kill -ABRT \\$\\$")
                add_test(NAME segv COMMAND sh -c "kill -SEGV \\$\\$")
                add_test(NAME timeout COMMAND sleep 5)
                set_tests_properties(timeout PROPERTIES TIMEOUT 1)
                add_test(NAME skip COMMAND sh -c "exit 77")
                set_tests_properties(skip PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "SHAKEDOWN_ENV_NAME=emul.x")
                add_test(NAME missing COMMAND /nonexistent/binary)
                add_test(NAME "v.E/K.S/sha224__generic  # GetParam() = sha224 on generic" COMMAND sh -c "exit 3")
                """))
        build = os.path.join(cls.dir, "b")
        subprocess.run(["cmake", "-S", cls.dir, "-B", build], check=True, capture_output=True)
        junit = os.path.join(cls.dir, "junit.xml")
        subprocess.run(["ctest", "--test-dir", build, "-T", "Test", "-j4", "--output-junit", junit],
                       capture_output=True)
        listing = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], capture_output=True,
                                 text=True, check=True).stdout
        cls.results = {r.test: r for r in results.read_junit(
            junit, "host-default", "x86_64", results.ctest_listing(build, listing),
            results.exit_kinds(results.last_test_xml(build)), "host-default")}

    def test_every_entry_is_counted(self):
        self.assertEqual(len(self.results), 8)
        status = {n: r.status for n, r in self.results.items()}
        self.assertEqual(sorted(n for n, s in status.items() if s == "failed"),
                         sorted(["fail", "abort", "segv", "timeout", "missing",
                                 "v.E/K.S/sha224__generic  # GetParam() = sha224 on generic"]))
        self.assertEqual(status["pass"], "passed")
        self.assertEqual(status["skip"], "skipped")

    def test_how_each_failure_ended(self):
        kinds = {n: r.kind for n, r in self.results.items()}
        self.assertEqual(kinds["fail"], "Failed")
        self.assertEqual(kinds["abort"], "Subprocess aborted")
        self.assertEqual(kinds["segv"], "SEGFAULT")
        self.assertEqual(kinds["timeout"], "Timeout")
        self.assertIn("find executable", kinds["missing"])

    def test_the_test_in_flight_and_the_environment(self):
        self.assertEqual(self.results["abort"].in_flight, "S/T.N/keccak__x86_64_bmi2")
        self.assertEqual(self.results["fail"].in_flight, "")
        self.assertEqual(self.results["skip"].env, "emul.x")
        self.assertEqual(self.results["fail"].env, "host-default")
        self.assertIn("kill -ABRT", self.results["abort"].repro())


class RecordsTest(unittest.TestCase):
    def test_runs_compiled_and_failures(self):
        lines = [
            {"suite": "diff", "family": "sha256", "backend": "x86_64/avx2", "check": "x", "count": 3, "env": "e", "arch": "x86_64"},
            {"suite": "diff", "family": "sha256", "backend": "x86_64/avx2", "check": "y", "count": 2, "env": "e", "arch": "x86_64"},
            {"suite": "compiled", "family": "sha256", "backend": "x86_64/shani", "check": "available", "count": 1, "env": "e", "arch": "x86_64"},
            {"suite": "failure", "family": "sha256", "backend": "x86_64/shani", "check": "S/T.N/sha256__x86_64_avx2", "count": 1, "env": "e", "arch": "x86_64"},
            {"suite": "failure", "family": "", "backend": "", "check": "unit.A.B", "count": 1, "env": "e", "arch": "x86_64"},
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.writelines(json.dumps(x) + "\n" for x in lines)
        r = results.load_records(f.name)
        self.assertEqual(r.runs[("e", "sha256/x86_64/avx2")]["diff"], 5)
        self.assertEqual(r.compiled["x86_64"], {"sha256/x86_64/shani"})
        self.assertEqual([(x.test, x.backend) for x in r.failures],
                         [("S/T.N/sha256__x86_64_avx2", "sha256/x86_64/shani"), ("unit.A.B", "")])

    def test_a_malformed_record_is_an_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write('{"suite": "diff"\n')
        with self.assertRaises(results.ResultsError):
            results.load_records(f.name)


if __name__ == "__main__":
    unittest.main()
