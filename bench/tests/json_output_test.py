#!/usr/bin/env python3
"""shakedown_bench's output is readable by tools (issue #21 item 6): with --benchmark_format=json, stdout is one
valid JSON document holding Google Benchmark's runs and nothing else; the ratio table goes to stderr and, with
--shakedown_table_json, to a JSON file whose figures are the best runs of stdout's own JSON, next to the same
context (library, host CPU, OpenSSL: issue 45). Never asserts speed.

Usage: json_output_test.py SHAKEDOWN_BENCH"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

BENCH = os.path.abspath(sys.argv[1])
FILTER = "--benchmark_filter=^(sha256|sha3-256)/.*/(64|1024)/"
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
NAME = re.compile(r"^((sha256|sha3-256)/[a-z0-9_/]+/(64|1024))/round:(\d+)$")  # a case, and the round it ran in


class JsonOutput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.table_path = os.path.join(cls.tmp.name, "ratios.json")
        p = subprocess.run([BENCH, "--shakedown_rounds=2", "--benchmark_min_time=0.001", FILTER,
                            "--benchmark_format=json", "--shakedown_table_json=" + cls.table_path],
                           capture_output=True, text=True, timeout=120)
        cls.proc = p
        if p.returncode != 0:
            raise RuntimeError(f"shakedown_bench exited {p.returncode}:\n{p.stderr}")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_stdout_is_one_json_document(self):
        doc = json.loads(self.proc.stdout)  # raises on anything else on stdout (a table, a banner)
        self.assertIn("context", doc)
        names = [b["name"] for b in doc["benchmarks"]]
        self.assertTrue(names, "no benchmark ran")
        for name in names:
            self.assertRegex(name, NAME)
        self.assertTrue(any("/openssl/" in n for n in names), names)
        self.assertTrue(any("/openssl/" not in n for n in names), names)

    def test_every_run_has_its_own_name(self):
        # Each round used to register every case under the same name: tools that key on `name` merged the rounds.
        names = [b["name"] for b in json.loads(self.proc.stdout)["benchmarks"]
                 if b.get("run_type", "iteration") == "iteration"]
        self.assertEqual(len(names), len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)[:5])
        rounds = {}
        for n in names:
            case, _, _, r = NAME.match(n).groups()
            rounds.setdefault(case, set()).add(int(r))
        self.assertEqual(set(map(frozenset, rounds.values())), {frozenset({1, 2})})  # --shakedown_rounds=2

    def test_context_names_the_version_commit_and_selected_backends(self):
        context = json.loads(self.proc.stdout)["context"]
        with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
            version = re.search(r"project\(shakedown VERSION ([0-9.]+)", f.read()).group(1)
        self.assertEqual(context.get("shakedown_version"), version, context)
        self.assertRegex(context.get("shakedown_commit", ""), r"^[0-9a-f]{7,}(-dirty)?$|^unknown$")
        selected = dict(item.split("=", 1) for item in context.get("shakedown_selected", "").split(","))
        self.assertEqual(set(selected), {"sha256", "sha512", "keccak"}, context)
        self.assertTrue(all(selected.values()), context)
        self.assertEqual(context.get("shakedown_measured"), "every available backend")
        self.assertEqual(context.get("shakedown_rounds"), "2")

    def test_context_names_the_host_and_openssl(self):
        # A ratio means little without the CPU and OpenSSL build it was measured on (issue 45): read them here
        # independently of the binary and compare.
        context = json.loads(self.proc.stdout)["context"]
        model = "unknown"
        if os.path.exists("/proc/cpuinfo"):
            with open("/proc/cpuinfo", encoding="utf-8") as f:
                names = re.findall(r"^(?:model name|cpu model)\s*:\s*(.*?)\s*$", f.read(), re.M)
            model = names[0] if names else model
        self.assertEqual(context.get("host_cpu"), model, context)
        self.assertRegex(context.get("host_cpu_id", ""), r"^(.+ [0-9A-F]{2,}h/[0-9A-F]{2}h|unknown)$")
        features = context.get("host_cpu_features", "").split()
        self.assertTrue(features, context)
        self.assertEqual(len(features), len(set(features)), features)
        self.assertEqual(context.get("host_cores"), str(os.cpu_count()), context)
        self.assertRegex(context.get("host_load", ""), r"^(\d+\.\d+ \d+\.\d+ \d+\.\d+|unknown)$")
        self.assertRegex(context.get("openssl_version", ""), r"^OpenSSL \d+\.\d+\.\d+")
        self.assertRegex(context.get("openssl_cpu_info", ""), r"^CPUINFO: ")
        self.assertEqual(context.get("openssl_ia32cap"), os.environ.get("OPENSSL_ia32cap", "unset"))
        self.assertRegex(context.get("measured_at", ""), r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

    def test_table_file_repeats_the_context(self):
        with open(self.table_path, encoding="utf-8") as f:
            record = json.load(f)
        self.assertEqual(set(record), {"context", "rows"})
        stdout_context = json.loads(self.proc.stdout)["context"]
        for key, value in record["context"].items():
            self.assertEqual(stdout_context.get(key), value, key)
        self.assertIn("host_cpu_features", record["context"])

    def test_table_goes_to_stderr(self):
        self.assertRegex(self.proc.stderr, r"case +backend +length +ours MB/s +OpenSSL MB/s +ratio")
        self.assertNotRegex(self.proc.stdout, r"OpenSSL MB/s")

    def test_table_file_matches_stdout(self):
        with open(self.table_path, encoding="utf-8") as f:
            table = json.load(f)["rows"]
        best = {}  # by case: the best of its rounds
        for b in json.loads(self.proc.stdout)["benchmarks"]:
            if b.get("run_type", "iteration") == "iteration" and "bytes_per_second" in b:
                case = NAME.match(b["name"]).group(1)
                best[case] = max(best.get(case, 0.0), b["bytes_per_second"] / 1e6)
        self.assertTrue(table, "empty ratio table")
        for row in table:
            self.assertEqual(set(row), {"case", "backend", "length", "ours_mb_per_s", "openssl_mb_per_s", "ratio"})
            ours = best[f"{row['case']}/{row['backend']}/{row['length']}"]
            ref = best[f"{row['case']}/openssl/{row['length']}"]
            self.assertAlmostEqual(row["ours_mb_per_s"], ours, delta=ours * 1e-9)
            self.assertAlmostEqual(row["openssl_mb_per_s"], ref, delta=ref * 1e-9)
            self.assertAlmostEqual(row["ratio"], ours / ref, delta=1e-9 * ours / ref)
        rows = {(r["case"], r["backend"], r["length"]) for r in table}
        expected = {tuple(re.match(r"^([^/]+)/(.*)/(\d+)$", n).groups()) for n in best if "/openssl/" not in n}
        self.assertEqual(rows, {(c, b, int(n)) for c, b, n in expected})


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
