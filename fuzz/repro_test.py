#!/usr/bin/env python3
"""shakedown-repro picks the fuzz target from a crash file's name or folder, says when it guessed, and
saves only into the folder it is given.  Usage: repro_test.py SHAKEDOWN_REPRO CORPUS_DIR"""
import os
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

    def test_a_name_that_names_no_target_is_a_stated_guess(self):
        p = repro(self.place("artifacts/crash-0123abcd"))
        self.assertIn("target fuzz_hash, guessed)", p.stdout)
        self.assertIn("guessed: neither the file's name nor its folder's names a target; use --target", p.stderr)

    def test_target_words_inside_longer_names_do_not_count(self):
        p = repro(self.place("xfuzz_blocks_old/crash-0123abcd"))
        self.assertIn("guessed", p.stdout)

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

    def test_unreadable_inputs_fail_with_the_reason(self):
        p = repro(self.dir)
        self.assertEqual(p.returncode, 2)
        self.assertIn("Is a directory", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
