#!/usr/bin/env python3
"""shakedown-repro picks the fuzz target from a crash file's name or folder, runs every target's decoder when neither
names one, exits 4 for a file no target decodes, takes the environment from a crash file's name or --env and looks
it up in the build's plan, and saves only into the folder it is given. (fuzz/repro_crash_test.py replays real
crashes.)  Usage: repro_test.py SHAKEDOWN_REPRO CORPUS_DIR"""
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import unittest

REPRO, CORPUS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
# A fuzz_blocks seed: as fuzz_hash it decodes to another plan (the bug of #21 this test guards against).
BLOCKS_SEED = os.path.join(CORPUS, "fuzz_blocks", "seed-sha256-4blocks")


def repro(*args, cwd=None):
    return subprocess.run([REPRO, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


class TargetChoice(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def place(self, relative):
        path = os.path.join(self.dir, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(BLOCKS_SEED, path)
        return path

    def assert_target(self, relative, how):
        p = repro(self.place(relative))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn(f"target fuzz_blocks, {how})", p.stdout)
        self.assertNotIn("guessed", p.stdout + p.stderr)

    def test_ci_fuzz_time_boxed_artifact_names(self):  # OUT_DIR/fuzz-<env>-<target>-crash-<sha1>
        self.assert_target("fuzz-host-fuzz-fuzz_blocks-crash-0123abcd", "from the file name")
        self.assert_target("fuzz-fuzz_blocks-emul-phe-crash-0123abcd", "from the file name")

    def test_ctest_artifact_prefix_names(self):  # build/fuzz/work/<target>-crash-<sha1>
        self.assert_target("fuzz_blocks-crash-0123abcd", "from the file name")

    def test_libfuzzer_default_names_inside_a_target_folder(self):  # crash-<sha1> in the target's folder
        self.assert_target("fuzz_blocks/crash-0123abcd", "from the folder name")
        self.assert_target("corpus-host-fuzz-fuzz_blocks/crash-0123abcd", "from the folder name")

    def test_a_name_that_names_no_target_runs_as_every_target(self):
        # libFuzzer's own crash-<sha1> in the current folder: replaying it as fuzz_hash alone once called a
        # fuzz_blocks crash "OK".
        p = repro(self.place("artifacts/crash-0123abcd"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for target in ("fuzz_hash", "fuzz_blocks", "fuzz_api", "fuzz_many"):
            self.assertIn(f"target {target}, guessed: one of every target)", p.stdout)
            self.assertRegex(p.stdout, rf"RESULT .*crash-0123abcd as {target}: OK, \d+ run\(s\) agree")
        self.assertIn("crash-0123abcd: OK as every target (decoded as 4 of 4 targets; the target was guessed)",
                      p.stdout)
        self.assertIn("no target named: neither the file's name nor its folder's names one, so it runs as every "
                      "target (use --target to choose)", p.stderr)

    def test_target_words_inside_longer_names_do_not_count(self):
        p = repro(self.place("xfuzz_blocks_old/crash-0123abcd"))
        self.assertIn("guessed", p.stdout)

    def test_a_file_no_target_decodes_has_its_own_status(self):
        empty = os.path.join(self.dir, "crash-empty")
        open(empty, "wb").close()
        p = repro(empty)
        self.assertEqual(p.returncode, 4, p.stderr)
        self.assertIn("empty file (0 bytes): not a fuzz input", p.stderr)
        short = os.path.join(self.dir, "crash-short")
        with open(short, "wb") as f:
            f.write(b"\x01\x02")
        p = repro("--target", "fuzz_blocks", short)
        self.assertEqual(p.returncode, 4, p.stderr)
        self.assertIn("does not decode as a fuzz_blocks plan", p.stderr)
        p = repro(short)  # two bytes are a fuzz_api plan and nothing else
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("crash-short: OK as every target (decoded as 1 of 4 targets", p.stdout)
        self.assertEqual(p.stderr.count("does not decode as a"), 3)

    def test_a_name_with_two_targets_is_refused(self):
        p = repro(self.place("fuzz_api-vs-fuzz_blocks-crash-1"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("mentions both fuzz_blocks and fuzz_api; choose with --target", p.stderr)

    def test_explicit_target_wins(self):
        p = repro("--target", "fuzz_blocks", self.place("artifacts/crash-0123abcd"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("target fuzz_blocks, as given)", p.stdout)

    def test_save_needs_a_folder_and_writes_only_there(self):
        p = repro("--save", cwd=self.dir)
        self.assertEqual(p.returncode, 2)
        self.assertIn("option '--save' requires an argument", p.stderr)
        corpus = os.path.join(self.dir, "corpus")
        p = repro("--save", corpus, self.place("fuzz_blocks-crash-1"), cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        saved = os.listdir(os.path.join(corpus, "fuzz_blocks"))
        self.assertEqual(len(saved), 1)
        self.assertTrue(saved[0].startswith("regress-"))
        with open(BLOCKS_SEED, "rb") as a, open(os.path.join(corpus, "fuzz_blocks", saved[0]), "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_the_environment_of_a_crash_file_is_looked_up_in_the_plan(self):
        # The build's own environment: nothing to set. ci/verify names its time-boxed runs' crash files so.
        p = repro(self.place("fuzz-host-fuzz-fuzz_blocks-crash-0123abcd"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("environment 'host-fuzz' (from the file name): no variables", p.stderr)

    @unittest.skipUnless(platform.machine() == "x86_64", "the environment is ci/matrix/x86_64.txt's")
    def test_an_environment_under_qemu_says_so(self):
        # A CPU model's profile asserts its selection, which this CPU need not meet (status 3); the runner is named.
        p = repro("--env", "qemu-x86_64.noavx2", self.place("fuzz_blocks-crash-1"))
        if p.returncode == 2:  # no qemu-x86_64 where this build was configured: the row has no entries
            self.assertIn("has no runs in this build", p.stderr)
            return
        self.assertIn(p.returncode, (0, 3), p.stderr)
        self.assertIn("environment 'qemu-x86_64.noavx2': SHAKEDOWN_EXPECT_SELECTED=sha256=generic,", p.stderr)
        self.assertRegex(p.stderr, r"runs under '\S*qemu-x86_64 -cpu max,-avx2': start this command under it")
        self.assertNotIn("SHAKEDOWN_TEST_SCALE", p.stderr)

    def test_an_unknown_environment_is_refused(self):
        p = repro(self.place("fuzz-nosuch-env-fuzz_blocks-crash-0123abcd"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertRegex(p.stderr, r"environment 'nosuch-env': no environment 'nosuch-env' in .*plan-[a-z0-9_]+\.jsonl")
        p = repro("--env", "emul.phe-zhaoxin-strict", "--plan", os.path.join(self.dir, "none.jsonl"),
                  self.place("crash-2"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("cannot read the plan", p.stderr)

    def test_files_of_two_environments_are_replayed_one_at_a_time(self):
        a, b = self.place("fuzz-host-fuzz-fuzz_blocks-crash-1"), self.place("fuzz-other-fuzz_blocks-crash-2")
        p = repro(a, b)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("replay them one at a time, or choose with --env", p.stderr)

    def test_unreadable_inputs_fail_with_the_reason(self):
        p = repro(self.dir)
        self.assertEqual(p.returncode, 2)
        self.assertIn("Is a directory", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
