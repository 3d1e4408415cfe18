#!/usr/bin/env python3
"""ci/compiler-cache, the builds' ccache launcher: an object compiled in one clone is reused in another clone at a
different path, a changed source or an edited sanitizer-coverage ignorelist (which ccache 4.7 does not hash by
itself) is compiled again, and the compiler sees the ignorelist relative to its build folder."""
import os
import shutil
import subprocess
import tempfile
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from driver import compiler_cache_counts_of  # noqa: E402

LAUNCHER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compiler-cache")
COMPILER = shutil.which("clang-19") or shutil.which("clang")


class CompilerCacheTest(unittest.TestCase):
    def setUp(self):
        self.assertIsNotNone(shutil.which("ccache"), "ccache is not installed: apt-get install ccache (ci/setup)")
        self.assertIsNotNone(COMPILER, "clang-19 is not installed (ci/setup)")
        self.top = tempfile.mkdtemp()
        self.env = dict(os.environ, SHAKEDOWN_CCACHE_DIR=os.path.join(self.top, "cache"))

    def tearDown(self):
        shutil.rmtree(self.top)

    def clone(self, path):
        """A minimal clone at PATH: ci/compiler-cache, a source, an ignorelist and a build folder."""
        root = os.path.join(self.top, path)
        os.makedirs(os.path.join(root, "ci"))
        os.makedirs(os.path.join(root, "build", "fuzz"))
        shutil.copy(LAUNCHER, os.path.join(root, "ci"))
        with open(os.path.join(root, "f.c"), "w") as f:
            f.write("int triple(int x) { return 3 * x; }\n")
        with open(os.path.join(root, "ignore.txt"), "w") as f:
            f.write("src:*/nothing.c\n")
        return root

    def compile(self, root):
        """Compiles root/f.c through root's launcher as a fuzz preset's Ninja rule would (with its -MD dependency
        file, which the launcher's depend mode needs); returns the (hits, misses) it added."""
        before = self.counts()
        subprocess.run([os.path.join(root, "ci", "compiler-cache"), COMPILER, "-g", "-fsanitize=fuzzer-no-link",
                        f"-fsanitize-coverage-ignorelist={root}/ignore.txt", "-MD", "-MT", "f.o", "-MF", "f.o.d", "-c",
                        f"{root}/f.c", "-o", "f.o"],
                       cwd=os.path.join(root, "build", "fuzz"), env=self.env, check=True)
        after = self.counts()
        return after[0] - before[0], after[1] - before[1]

    def counts(self):
        out = subprocess.run([LAUNCHER, "--print-stats"], env=self.env, capture_output=True, text=True, check=True)
        return compiler_cache_counts_of(out.stdout)

    def assert_compiled_again_after_appending(self, name, line):
        """A first clone compiles f.c; a second one whose file NAME has LINE appended must miss."""
        self.compile(self.clone("first"))
        second = self.clone("second")
        with open(os.path.join(second, name), "a") as f:
            f.write(line)
        self.assertEqual(self.compile(second), (0, 1))

    def test_a_second_clone_at_another_path_reuses_the_object(self):
        self.assertEqual(self.compile(self.clone("first")), (0, 1))
        self.assertEqual(self.compile(self.clone("second/deeper")), (1, 0))

    def test_a_changed_source_compiles_again(self):
        self.assert_compiled_again_after_appending("f.c", "int twice(int x) { return 2 * x; }\n")

    def test_an_edited_ignorelist_compiles_again(self):
        self.assert_compiled_again_after_appending("ignore.txt", "src:*/other.c\n")

    def test_the_compiler_sees_the_ignorelist_relative_to_its_build_folder(self):
        root = self.clone("first")
        log = os.path.join(self.top, "ccache.log")
        self.env["CCACHE_LOGFILE"] = log
        self.compile(root)
        with open(log, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("-fsanitize-coverage-ignorelist=../../ignore.txt", text)
        self.assertNotIn(f"-fsanitize-coverage-ignorelist={root}", text)


if __name__ == "__main__":
    unittest.main()
