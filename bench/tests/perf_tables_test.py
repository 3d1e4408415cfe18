#!/usr/bin/env python3
"""bench/perf_tables.py: docs/perf.md is what bench/results/ gives (regenerated, never edited by hand), a record
that is truncated or lacks its host facts is refused by name, and the tables mark the selected backend and every
ratio below 1. Never asserts speed: the synthetic records here only exercise the rendering."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TOOL = os.path.join(SOURCE, "bench", "perf_tables.py")

CONTEXT = {"host_cpu": "AMD EPYC 7B13", "host_cpu_id": "AuthenticAMD 19h/01h",
           "host_cpu_features": "ssse3 sse4_1 avx avx2 bmi1 bmi2 sha_ni os_ymm",
           "host_cores": "2", "host_load": "0.10 0.20 0.30", "openssl_version": "OpenSSL 3.0.19",
           "openssl_cpu_info": "CPUINFO: OPENSSL_ia32cap=0x1:0x2", "openssl_ia32cap": "unset",
           "shakedown_commit": "abc1234", "shakedown_selected": "sha256=x86_64/shani,sha512=x86_64/avx2,keccak=x",
           "shakedown_rounds": "3", "measured_at": "2026-12-07T07:00:00Z"}
ROWS = [{"case": "sha512", "backend": "x86_64/avx2", "length": 1024, "ratio": 0.73},
        {"case": "sha512", "backend": "generic", "length": 1024, "ratio": 0.5},
        {"case": "sha256-upd100", "backend": "x86_64/shani", "length": 16384, "ratio": 1.02},
        {"case": "sha512-x8", "backend": "default", "length": 4096, "ratio": 1.5}]


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, timeout=60)


class PerfTables(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, value):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(value if isinstance(value, str) else json.dumps(value))
        return path

    def test_docs_perf_md_is_what_the_records_give(self):
        p = run("--check")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_check_fails_on_a_stale_document(self):
        record = self.write("r.json", {"context": CONTEXT, "rows": ROWS})
        doc = self.write("perf.md", "# edited by hand\n")
        p = run("--check", "--out", doc, record)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not what the records give", p.stderr)

    def test_truncated_record_is_refused_by_name(self):
        text = json.dumps({"context": CONTEXT, "rows": ROWS})
        record = self.write("cut.json", text[: len(text) // 2])
        p = run("--out", os.path.join(self.tmp.name, "out.md"), record)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cut.json: not a readable benchmark record", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "out.md")))

    def test_record_without_host_facts_is_refused(self):
        context = {k: v for k, v in CONTEXT.items() if k != "host_cpu_id"}
        record = self.write("old.json", {"context": context, "rows": ROWS})
        p = run("--out", os.path.join(self.tmp.name, "out.md"), record)
        self.assertEqual(p.returncode, 2)
        self.assertIn("lacks host_cpu_id", p.stderr)

    def test_tables_mark_the_selected_backend_and_ratios_below_one(self):
        record = self.write("r.json", {"context": CONTEXT, "rows": ROWS})
        out = os.path.join(self.tmp.name, "out.md")
        p = run("--out", out, record)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("## Zen 3: AMD EPYC 7B13 (AuthenticAMD 19h/01h)", text)
        self.assertIn("| sha512 | x86_64/avx2 * | **0.73** |", text)
        self.assertIn("| sha512 | generic | **0.50** |", text)
        self.assertIn("| sha256-upd100 | x86_64/shani * | 1.02 |", text)
        self.assertIn("| sha512-x8 | default | 1.50 |", text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
