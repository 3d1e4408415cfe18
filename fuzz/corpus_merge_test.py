#!/usr/bin/env python3
"""ci/fuzz-corpus with this build's real fuzz_blocks binary, run as the build's own fuzz jobs run (under its QEMU in
a cross build: libFuzzer's merge starts itself again through argv[0], which must then run under QEMU too): grown
inputs that reach new edges land as grown-<sha1>, the seeds stay, a second merge adds nothing, --dry-run and a bound
that is too small change nothing, --minimise chooses again, a binary that cannot run fails clearly.

  corpus_merge_test.py SOURCE_DIR FUZZ_BLOCKS_BINARY PLAN_FILE"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE, BINARY, PLAN = sys.argv[1:4]
del sys.argv[1:4]
SCRIPT = os.path.join(SOURCE, "ci", "fuzz_corpus.py")
SEEDS = os.path.join(SOURCE, "fuzz", "corpus", "fuzz_blocks")
KEPT_SEED = "seed-sha256-4blocks"


def build_job():
    """(build row, runner) of the build's own time-boxed fuzz_blocks job (ci/plan.py's fuzz_job records: the
    build row that fuzzes in its own environment): runner [] on the host, its QEMU in a cross build."""
    with open(PLAN, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "fuzz_job" and r["env"] == r["build"] and r["target"] == "fuzz_blocks":
                return r["env"], r["runner"]
    raise SystemExit(f"no build row of {PLAN} fuzzes fuzz_blocks in its own environment")


ROW, RUNNER = build_job()


class MergeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="corpus-merge-")
        self.addCleanup(shutil.rmtree, self.dir)
        # A corpus root with one seed, and a grown corpus of the other seeds (they reach edges the one does not).
        self.corpus = os.path.join(self.dir, "corpus")
        os.makedirs(os.path.join(self.corpus, "fuzz_blocks"))
        shutil.copy2(os.path.join(SEEDS, KEPT_SEED), os.path.join(self.corpus, "fuzz_blocks"))
        self.mode = os.path.join(self.dir, "build", "verify")
        grown = os.path.join(self.mode, "fuzz", "arch", f"corpus-{ROW}-fuzz_blocks")
        os.makedirs(grown)
        self.grown_inputs = {}
        for name in sorted(os.listdir(SEEDS)):
            if name != KEPT_SEED:
                with open(os.path.join(SEEDS, name), "rb") as f:
                    data = f.read()
                self.grown_inputs[data] = name
                with open(os.path.join(grown, name), "wb") as f:
                    f.write(data)
        self.job = {"target": "fuzz_blocks", "env": ROW, "binary": BINARY, "runner": RUNNER,
                    "environment": {}, "corpus": grown}
        self.write_job(self.job)

    def write_job(self, job):
        with open(os.path.join(self.mode, "fuzz", "arch", f"corpus-{ROW}-fuzz_blocks.json"), "w") as f:
            json.dump(job, f)

    def merge(self, *extra):
        p = subprocess.run([sys.executable, SCRIPT, "--from", self.mode, "--corpus", self.corpus,
                            "--target", "fuzz_blocks", *extra], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def files(self):
        folder = os.path.join(self.corpus, "fuzz_blocks")
        out = {}
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                out[name] = f.read()
        return out

    def test_new_edges_land_as_grown_inputs_and_a_second_merge_adds_nothing(self):
        rc, out = self.merge()
        self.assertEqual(rc, 0, out)
        files = self.files()
        grown = {n: d for n, d in files.items() if n.startswith("grown-")}
        self.assertIn(KEPT_SEED, files)
        self.assertTrue(grown, out)  # the other seeds reach edges the kept one does not
        self.assertEqual(set(files), {KEPT_SEED} | set(grown))
        for data in grown.values():
            self.assertIn(data, self.grown_inputs)  # copies of grown inputs, nothing made up
        self.assertLess(len(grown), len(self.grown_inputs), out)  # a set cover, not every input
        self.assertIn(f"fuzz_blocks: {len(grown)} grown inputs", out)
        rc, out = self.merge()
        self.assertEqual((rc, self.files()), (0, files), out)
        self.assertIn("0 added, 0 removed", out)

    def test_dry_run_and_a_bound_too_small_change_nothing(self):
        before = self.files()
        rc, out = self.merge("--dry-run")
        self.assertEqual((rc, self.files()), (0, before), out)
        rc, out = self.merge("--max-files", "1")
        self.assertEqual((rc, self.files()), (1, before), out)
        self.assertIn("over the bound of 1 files", out)

    def test_minimise_keeps_the_seeds_and_chooses_among_the_grown_inputs_again(self):
        self.assertEqual(self.merge()[0], 0)
        first = self.files()
        rc, out = self.merge("--minimise")
        self.assertEqual(rc, 0, out)
        again = self.files()
        self.assertIn(KEPT_SEED, again)
        self.assertTrue(set(again) <= set(first), out)  # nothing new reaches an edge the first choice missed

    def test_a_binary_that_cannot_run_fails_and_changes_nothing(self):
        self.write_job(dict(self.job, binary=os.path.join(self.dir, "no-such-fuzz_blocks")))
        before = self.files()
        rc, out = self.merge()
        self.assertEqual((rc, self.files()), (1, before), out)
        self.assertIn("the merge of fuzz_blocks in", out)

    def test_no_grown_corpus_and_unknown_targets_are_clear_errors(self):
        p = subprocess.run([sys.executable, SCRIPT, "--from", self.dir, "--corpus", self.corpus],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no grown corpus under", p.stderr)
        rc, out = self.merge("--target", "fuzz_nothing")
        self.assertEqual(rc, 2)
        self.assertIn("unknown target fuzz_nothing", out)


if __name__ == "__main__":
    unittest.main()
