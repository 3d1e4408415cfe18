#!/usr/bin/env python3
"""The coverage gate must fail when an expected backend did not run, or ran and failed, and pass otherwise."""
import json
import os
import platform
import subprocess
import sys
import tempfile
import unittest

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify_report.py")


def record(env, family, backend, suite="vectors", count=5, check="x", arch="x86_64"):
    return {"suite": suite, "family": family, "backend": backend, "check": check, "count": count, "env": env,
            "arch": arch}


class GateTest(unittest.TestCase):
    def run_gate(self, records, expect_lines, results=(), extra=(), expect_files=None):
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "records.jsonl")
            with open(rec, "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
            res = os.path.join(d, "results.tsv")
            with open(res, "w") as f:
                f.writelines("\t".join(r) + "\n" for r in results)
            exp = os.path.join(d, "expect")
            os.mkdir(exp)
            for name, lines in (expect_files or {"x86_64.txt": expect_lines}).items():
                with open(os.path.join(exp, name), "w") as f:
                    f.write("\n".join(lines) + "\n")
            p = subprocess.run([sys.executable, REPORT, "--records", rec, "--results", res, "--expect", exp,
                                "--out", os.path.join(d, "out"), *extra], capture_output=True, text=True)
            return p.returncode, p.stdout

    def test_all_expected_backends_ran(self):
        rc, out = self.run_gate([record("host-default", "sha256", "x86_64/shani")],
                                ["host-default sha256/x86_64/shani native vectors"])
        self.assertEqual(rc, 0, out)
        self.assertIn("native pass", out)

    def test_backend_that_did_not_run_fails_the_gate(self):
        rc, out = self.run_gate([record("host-default", "sha256", "generic")],
                                ["host-default sha256/x86_64/shani native vectors"])
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/shani in host-default", out)
        self.assertIn("zero vectors executions", out)

    def test_missing_environment_fails_the_gate(self):
        rc, out = self.run_gate([record("host-default", "sha256", "generic")],
                                ["qemu-x86_64.avx2 sha256/generic QEMU vectors"])
        self.assertEqual(rc, 1)
        self.assertIn("environment did not run at all", out)

    def test_recorded_failure_marks_the_cell(self):
        recs = [record("host-default", "sha512", "x86_64/avx2"),
                {"suite": "failure", "family": "", "backend": "EveryBackend/KAT.Run/sha512__x86_64_avx2",
                 "check": "", "count": 1, "env": "host-default"}]
        rc, out = self.run_gate(recs, ["host-default sha512/x86_64/avx2 native vectors"])
        self.assertEqual(rc, 1)
        self.assertIn("FAILED", out)

    def test_a_failure_is_charged_to_the_family_of_its_algorithm(self):
        # sha224 is a SHA-256-family algorithm: its failure must mark sha256/x86_64/avx2 and leave the
        # sha512 backend of the same name (which passed) alone; FAMILY_BACKEND parameters likewise.
        recs = [record("host-default", "sha256", "x86_64/avx2"), record("host-default", "sha512", "x86_64/avx2"),
                record("host-default", "keccak", "x86_64/bmi2"),
                {"suite": "failure", "family": "", "backend": "EveryBackend/HashDiff.X/sha224__x86_64_avx2",
                 "check": "", "count": 1, "env": "host-default"},
                {"suite": "failure", "family": "", "backend": "X86/X86Sha2Blocks.MatchesGeneric/sha256_x86_64_avx2",
                 "check": "", "count": 1, "env": "host-default"}]
        rc, out = self.run_gate(recs, ["host-default sha256/x86_64/avx2 native vectors",
                                       "host-default sha512/x86_64/avx2 native vectors"])
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/avx2 in host-default: FAILED (EveryBackend/HashDiff.X/sha224__x86_64_avx2, "
                      "X86/X86Sha2Blocks.MatchesGeneric/sha256_x86_64_avx2)", out)
        self.assertNotIn("sha512/x86_64/avx2 in host-default: FAILED", out)
        self.assertRegex(out, r"sha512/x86_64/avx2 +native pass")

    def test_failed_ctest_fails_the_gate(self):
        rc, out = self.run_gate([record("host-default", "sha256", "generic")], [],
                                results=[("default", "unit.Hash.Something", "Failed")])
        self.assertEqual(rc, 1)
        self.assertIn("unit.Hash.Something failed", out)

    def test_one_matrix_per_arch(self):
        recs = [record("host-default", "sha256", "x86_64/shani"),
                record("qemu-s390x.max", "sha512", "s390x/cpacf", arch="s390x")]
        rc, out = self.run_gate(recs, [], expect_files={
            "x86_64.txt": ["host-default sha256/x86_64/shani native vectors"],
            "s390x.txt": ["qemu-s390x.max sha512/s390x/cpacf QEMU vectors"]})
        self.assertEqual(rc, 0, out)
        self.assertIn("== s390x ==", out)
        self.assertIn("== x86_64 ==", out)
        s390x_section = out.split("== s390x ==")[1].split("==")[0]
        self.assertNotIn("x86_64/shani", s390x_section)

    def test_an_arch_that_did_not_run_fails_unless_excluded(self):
        recs = [record("host-default", "sha256", "x86_64/shani")]
        files = {"x86_64.txt": ["host-default sha256/x86_64/shani native vectors"],
                 "s390x.txt": ["qemu-s390x.max sha512/s390x/cpacf QEMU vectors"]}
        rc, out = self.run_gate(recs, [], expect_files=files)
        self.assertEqual(rc, 1)
        self.assertIn("qemu-s390x.max: environment did not run at all", out.replace("sha512/s390x/cpacf in ", ""))
        rc, out = self.run_gate(recs, [], expect_files=files, extra=["--arches", "x86_64"])
        self.assertEqual(rc, 0, out)
        self.assertIn("arch s390x was not run", out)

    def test_constant_time_coverage_names_the_tool_or_the_reason(self):
        foreign = "arm64/ce" if platform.machine().lower() in ("x86_64", "amd64") else "x86_64/shani"
        unavailable = "not run: unavailable under Valgrind memcheck on this CPU (needs SHA-NI, SSE4.1 and SSSE3)"
        recs = [record("host-msan", "sha256", "x86_64/shani", suite="ct", count=48),
                record("host-valgrind", "sha256", "x86_64/shani", suite="ct", count=0, check=unavailable),
                record("host-valgrind", "sha256", "generic", suite="ct", count=40),
                record("qemu-other.max", "sha256", foreign, arch="other")]
        rc, out = self.run_gate(recs, [])
        self.assertEqual(rc, 0, out)
        rows = {cells[1].strip(): [c.strip() for c in cells[2:4]]
                for cells in (line.split("|") for line in out.splitlines() if line.startswith("| sha256/"))}
        self.assertEqual(rows["sha256/x86_64/shani"], ["covered (48 checks)", unavailable])
        self.assertEqual(rows["sha256/generic"], ["not run: no record", "covered (40 checks)"])
        self.assertIn("never under QEMU", rows["sha256/" + foreign][0])

    def test_expected_constant_time_run_with_only_a_reason_fails_the_gate(self):
        recs = [record("host-valgrind", "sha256", "x86_64/shani", suite="ct", count=0, check="not run: no SHA-NI")]
        rc, out = self.run_gate(recs, ["host-valgrind sha256/x86_64/shani native ct"])
        self.assertEqual(rc, 1)
        self.assertIn("recorded zero ct executions", out)

    def test_malformed_expectation_is_an_error(self):
        rc, out = self.run_gate([], ["host-default sha256/generic sometimes"])
        self.assertNotEqual(rc, 0)


if __name__ == "__main__":
    unittest.main()
