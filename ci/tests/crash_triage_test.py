#!/usr/bin/env python3
"""ci/crash_triage.py: crash signatures (the blamed backends of a mismatch; a sanitizer's error and our first
frames), one folder per signature with the input and a one-line repro command, and the time-boxed fuzzing filing
its crash files there."""
import json
import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import crash_triage  # noqa: E402
import fuzz_run  # noqa: E402
from console import Console  # noqa: E402
from matrix import Matrix  # noqa: E402


def mismatch_log(blamed, first_byte=3, messages=5):
    """A fuzz target's report as fuzz/verdict.cc prints it before abort(), then libFuzzer's deadly-signal stack."""
    return (f"fuzz_many: == shakedown fuzz: MISMATCH ==\nsubject:   hash_many(sha512) of {messages} messages\n"
            "reference: OpenSSL EVP one-shot on each message\n"
            f"disagree:  {blamed} (message {messages - 1})\n" + (f"blamed:    {blamed}\n" if blamed else "") +
            "agree:     generic\nplan:\n  lengths 1 2 3\n"
            f"-- {blamed}: output differs\n   first differing byte: {first_byte} (got 0x01, want 0x02)\n"
            "==4242== ERROR: libFuzzer: deadly signal\n"
            "    #0 0x55d1c0 in __sanitizer_print_stack_trace /src/compiler-rt/asan_stack.cpp:87:3\n"
            "    #1 0x55a2f0 in fuzzer::PrintStackTrace() /src/FuzzerUtil.cpp:210:5\n"
            "    #2 0x7f00 in abort (/lib/x86_64-linux-gnu/libc.so.6+0x2671a)\n"
            "    #3 0x55e000 in shakedown::fuzz::fuzz_one(shakedown::fuzz::Target const&, unsigned char const*, "
            "unsigned long) /src/fuzz/targets.cc:71:5\n")


def asan_log(top, address="0x602000000a1f"):
    return (f"==77==ERROR: AddressSanitizer: heap-buffer-overflow on address {address} at pc 0x1 bp 0x2 sp 0x3\n"
            "READ of size 8 at 0x602000000a1f thread T0\n"
            "    #0 0x4f1 in __asan_memcpy /src/compiler-rt/asan_interceptors_memintrinsics.cpp:63:3\n"
            f"    #1 0x4f2 in {top} /src/arch/x86_64/sha512_avx2.cc:120:7\n"
            "    #2 0x4f3 in shakedown::Hasher::update(void const*, unsigned long) /src/lib/src/hash.cc:88:5\n"
            "    #3 0x4f4 in shakedown::fuzz::run_hash_plan(shakedown::fuzz::HashPlan const&) /src/fuzz/run_hash.cc:9\n"
            "    #4 0x4f5 in shakedown::fuzz::fuzz_one(shakedown::fuzz::Target const&) /src/fuzz/targets.cc:60:3\n"
            "    #5 0x4f6 in shakedown::fuzz::decode_hash_plan(unsigned char const*) /src/fuzz/hash_plan.cc:30:3\n"
            "    #6 0x4f7 in LLVMFuzzerTestOneInput /src/fuzz/fuzz_hash.cc:20:10\n")


class SignatureTest(unittest.TestCase):
    def test_a_mismatch_is_known_by_its_target_and_blamed_backends_not_its_numbers(self):
        a = crash_triage.signature("fuzz_many", "crash", mismatch_log("x86_64/avx2", first_byte=3, messages=5))
        b = crash_triage.signature("fuzz_many", "crash", mismatch_log("x86_64/avx2", first_byte=40, messages=9))
        self.assertEqual(a, b)
        self.assertEqual(a, "fuzz_many crash: mismatch blamed on x86_64/avx2")
        self.assertNotEqual(a, crash_triage.signature("fuzz_many", "crash", mismatch_log("x86_64/avx512")))
        self.assertNotEqual(a, crash_triage.signature("fuzz_hash", "crash", mismatch_log("x86_64/avx2")))

    def test_without_a_blamed_line_the_disagreeing_runs_stand_in_numbers_left_out(self):
        a = crash_triage.signature("fuzz_many", "crash", mismatch_log("", messages=5))
        b = crash_triage.signature("fuzz_many", "crash", mismatch_log("", messages=7))
        self.assertEqual(a, b)
        self.assertIn("message N", a)

    def test_a_sanitizer_error_is_known_by_its_kind_and_our_first_frames(self):
        top = "shakedown::sha512_avx2_blocks(unsigned long*, unsigned char const*, unsigned long)"
        a = crash_triage.signature("fuzz_hash", "crash", asan_log(top))
        self.assertEqual(a, crash_triage.signature("fuzz_hash", "crash", asan_log(top, address="0x6020000000ff")))
        # The runtime's frames (__asan_memcpy) and fuzz_one's abort path say nothing about where the bug is; the
        # frames past the first three of ours (decode_hash_plan) are left out.
        self.assertEqual(a, "fuzz_hash crash: AddressSanitizer heap-buffer-overflow at " + top +
                         " < shakedown::Hasher::update(void const*, unsigned long)"
                         " < shakedown::fuzz::run_hash_plan(shakedown::fuzz::HashPlan const&)")
        other = crash_triage.signature("fuzz_hash", "crash", asan_log("shakedown::keccak_avx2_absorb(...)"))
        self.assertNotEqual(crash_triage.crash_id("fuzz_hash", a), crash_triage.crash_id("fuzz_hash", other))

    def test_ubsan_and_reportless_logs_still_get_a_signature(self):
        ubsan = "/src/lib/src/hash.cc:12:5: runtime error: shift exponent 64 is too large\n"
        self.assertEqual(crash_triage.signature("fuzz_api", "crash", ubsan),
                         "fuzz_api crash: runtime error shift exponent N is too large in hash.cc at no frame of ours")
        self.assertEqual(crash_triage.signature("fuzz_api", "timeout", "nothing useful"),
                         "fuzz_api timeout: no sanitizer report at no frame of ours")


class FilingTest(unittest.TestCase):
    def test_the_time_boxed_fuzzing_files_each_signature_once_with_its_input_and_command(self):
        with tempfile.TemporaryDirectory() as d:
            out, crash_dir = os.path.join(d, "fuzz"), os.path.join(d, "crashes")
            os.makedirs(out)
            row = Matrix().row("x86_64", "host-fuzz")
            run = fuzz_run.TimeBoxedFuzzing(Console(), "/src", row, "/b", [], 1, out, "/rec",
                                            os.path.join(d, "crashes.jsonl"), crash_dir)
            ids = []
            for env, blamed, sha in (("host-fuzz", "x86_64/avx2", "1" * 40), ("emul.x", "x86_64/avx2", "2" * 40),
                                     ("emul.y", "x86_64/shani", "3" * 40)):
                label = f"{env}-fuzz_many"
                crash = os.path.join(out, f"fuzz-{label}-crash-{sha}")
                with open(crash, "wb") as f:
                    f.write(sha.encode())
                log = os.path.join(out, f"fuzz-{label}.log")
                with open(log, "w") as f:
                    f.write(mismatch_log(blamed))
                job = {"env": env, "target": "fuzz_many", "runner": ["qemu-x86_64", "-cpu", "max"]}
                run.record_crashes({"label": label, "job": job, "started": time.time(), "log": log})
                with open(os.path.join(d, "crashes.jsonl")) as f:
                    ids.append(json.loads(f.readlines()[-1]))
            self.assertEqual([r["duplicate"] for r in ids], [False, True, False])
            self.assertEqual(ids[0]["crash_id"], ids[1]["crash_id"])
            self.assertNotEqual(ids[0]["crash_id"], ids[2]["crash_id"])
            self.assertEqual(sorted(os.listdir(crash_dir)), sorted({ids[0]["crash_id"], ids[2]["crash_id"]}))
            first = os.path.join(crash_dir, ids[0]["crash_id"])
            self.assertEqual(sorted(os.listdir(first)),
                             sorted(["fuzz-host-fuzz-fuzz_many-crash-" + "1" * 40, "log", "repro", "signature",
                                     "seen.jsonl"]))
            with open(os.path.join(first, "repro")) as f:
                lines = f.read().splitlines()
            # One line: the right runner and environment, and the stored copy (the folder stands on its own).
            self.assertEqual(lines, ["cd /src && qemu-x86_64 -cpu max /b/fuzz/shakedown-repro --env host-fuzz "
                                     f"{first}/fuzz-host-fuzz-fuzz_many-crash-{'1' * 40}"])
            with open(os.path.join(first, "seen.jsonl")) as f:
                self.assertEqual([json.loads(s)["env"] for s in f], ["host-fuzz", "emul.x"])

    def test_distinct_groups_a_runs_records_by_signature(self):
        recs = [{"file": "a", "crash_id": "t-1"}, {"file": "b"}, {"file": "c", "crash_id": "t-1"}, {"file": "d"}]
        self.assertEqual([(c["file"], n) for c, n in crash_triage.distinct(recs)], [("a", 2), ("b", 1), ("d", 1)])


if __name__ == "__main__":
    unittest.main()
