#!/usr/bin/env python3
"""`shakedown sum` and `check` read their inputs into a page-aligned buffer (issue #43 item 3): a buffer 16 bytes past
a page boundary, where new[] put it, made the kernel's copy of every page slower (about 0.4 s a GiB on Zen 3, which
left `shakedown sum` 1.39x slower than `openssl dgst -sha256`). The buffer's address is read from the read() calls
themselves, under strace: the test judges the installed binary as it runs, and never its speed.

Usage: read_buffer_test.py SHAKEDOWN"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ENV  # noqa: E402

SHAKEDOWN = os.path.abspath(sys.argv[1])
# LeakSanitizer cannot run under ptrace (it stops the process's threads the way strace does): the traced runs of an
# ASan build leave leak checking to the rest of its suites.
TRACED_ENV = dict(ENV, ASAN_OPTIONS=":".join(o for o in (ENV.get("ASAN_OPTIONS", ""), "detect_leaks=0") if o))
PAGE = os.sysconf("SC_PAGE_SIZE")
MIN_READ = 1 << 17  # what one read() asks for at least (tools/hash_input.h, kReadBufferBytes)
# strace -e raw=read: "read(0x3, 0x7f12a4c00000, 0x20000) = 0x20000"
READ = re.compile(r"^(?:\d+ +)?read\((0x[0-9a-f]+|\d+), (0x[0-9a-f]+), (0x[0-9a-f]+|\d+)\)", re.M)


def strace_works():
    if not shutil.which("strace"):
        return "no strace (ci/setup installs it)"
    p = subprocess.run(["strace", "-o", os.devnull, "true"], capture_output=True, text=True)
    return "" if p.returncode == 0 else f"strace cannot trace here: {p.stderr.strip()}"


class ReadBuffer(unittest.TestCase):
    def setUp(self):
        # ci/setup installs strace: a machine where it cannot trace fails here, never skips the check.
        self.assertEqual(strace_works(), "")
        self.dir = tempfile.mkdtemp(prefix="shakedown-read-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.file = os.path.join(self.dir, "input")
        with open(self.file, "wb") as f:
            f.write(os.urandom(3 * MIN_READ + 100))  # several full reads and a partial one

    def input_reads(self, *args, stdin=None):
        """(buffer address, length asked) of every read() of at least MIN_READ bytes: the input's, not the loader's."""
        log = os.path.join(self.dir, "strace.log")
        with open(stdin or os.devnull, "rb") as inp:
            p = subprocess.run(["strace", "-f", "-e", "trace=read", "-e", "raw=read", "-o", log, SHAKEDOWN, *args],
                               stdin=inp, capture_output=True, env=TRACED_ENV, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(log, encoding="utf-8") as f:
            calls = [(int(addr, 16), int(size, 0)) for _, addr, size in READ.findall(f.read())]
        reads = [(addr, size) for addr, size in calls if size >= MIN_READ]
        self.assertGreaterEqual(len(reads), 4, f"no input reads found among {calls}")
        return reads

    def assert_page_aligned(self, reads):
        for addr, size in reads:
            self.assertEqual(addr % PAGE, 0, f"read into {addr:#x}, {addr % PAGE} bytes past a {PAGE}-byte page")
            self.assertEqual(size % PAGE, 0, f"read of {size} bytes, not whole pages")

    def test_sum_reads_a_file_into_a_page_aligned_buffer(self):
        self.assert_page_aligned(self.input_reads("sum", "-a", "sha512", self.file))

    def test_sum_reads_standard_input_into_it_too(self):
        self.assert_page_aligned(self.input_reads("sum", "-", stdin=self.file))

    def test_check_reads_listed_files_into_it(self):
        p = subprocess.run([SHAKEDOWN, "sum", self.file], capture_output=True, env=ENV, check=True)
        listing = os.path.join(self.dir, "list")
        with open(listing, "wb") as f:
            f.write(p.stdout)
        self.assert_page_aligned(self.input_reads("check", listing))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
