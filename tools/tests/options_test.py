#!/usr/bin/env python3
"""Command-line conventions of `shakedown` (issue #21, item 4): --help and --version for every command, GNU
option forms, `sum -c` and `sum --help` as options rather than files, `--`, -B for backends, and the
progress line on a terminal.

Usage: options_test.py SHAKEDOWN"""
import hashlib
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ABC_SHA256, ABC_SHA3_256, ABC_SHA512, ENV, run  # noqa: E402

SHAKEDOWN = os.path.abspath(sys.argv[1])


class Options(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="shakedown-options-")
        self.addCleanup(shutil.rmtree, self.dir)
        with open(os.path.join(self.dir, "abc"), "wb") as f:
            f.write(b"abc")

    def shakedown(self, *args, stdin=b""):
        return run([SHAKEDOWN, *args], cwd=self.dir, stdin=stdin)

    def test_a_link_named_after_an_algorithm_is_that_algorithms_sum(self):
        # `ln -s shakedown sha256sum` then `sha256sum FILE`, as coreutils names its tools: `shakedown sum -a sha256`.
        links = {}
        for alg in ("sha256", "sha512", "sha3-256", "sha512-224", "shake128"):
            links[alg] = os.path.join(self.dir, f"{alg}sum")
            os.symlink(SHAKEDOWN, links[alg])
        r = run([links["sha256"], "abc"], cwd=self.dir)
        self.assertEqual((r.status, r.stdout, r.stderr), (0, ABC_SHA256 + b"  abc\n", b""), r.text())
        if shutil.which("sha256sum"):  # the oracle, byte for byte
            self.assertEqual(r.stdout, run(["sha256sum", "abc"], cwd=self.dir).stdout)
        self.assertEqual(run([links["sha512"], "abc"], cwd=self.dir).stdout, ABC_SHA512 + b"  abc\n")
        self.assertEqual(run([links["sha3-256"], "--tag", "abc"], cwd=self.dir).stdout,
                         b"SHA3-256 (abc) = " + ABC_SHA3_256 + b"\n")
        for alg in ("sha512-224", "shake128"):
            self.assertEqual(run([links[alg], "abc"], cwd=self.dir).stdout,
                             self.shakedown("sum", "-a", alg, "abc").stdout, alg)
        with open(os.path.join(self.dir, "list"), "wb") as f:
            f.write(run([links["sha3-256"], "abc"], cwd=self.dir).stdout)
        r = run([links["sha3-256"], "-c", "list"], cwd=self.dir)
        self.assertEqual((r.status, r.stdout), (0, b"abc: OK\n"), r.text())
        r = run([links["sha256"], "--bogus"], cwd=self.dir)  # its own name in messages, as coreutils'
        self.assertEqual(r.status, 2)
        self.assertTrue(r.stderr.startswith(b"sha256sum: unrecognized option '--bogus'\nTry 'sha256sum --help'"),
                        r.text())
        other = os.path.join(self.dir, "md5sum")  # an algorithm shakedown does not have: plain shakedown
        os.symlink(SHAKEDOWN, other)
        self.assertIn(b"missing command", run([other], cwd=self.dir).stderr)

    def test_help_and_version_for_every_command(self):
        for command in (["sum"], ["check"], ["backends"], []):
            with self.subTest(command=command):
                r = self.shakedown(*command, "--help")
                self.assertEqual((r.status, r.stderr), (0, b""), r.text())
                self.assertTrue(r.stdout.startswith(b"Usage: shakedown " + " ".join(command).encode()), r.stdout)
                r = self.shakedown(*command, "--version")
                self.assertEqual((r.status, r.stderr), (0, b""), r.text())
                self.assertRegex(r.stdout, rb"^shakedown \d+\.\d+\.\d+\n$")
        for command in ("sum", "check", "backends"):
            self.assertEqual(self.shakedown("help", command).stdout, self.shakedown(command, "--help").stdout)
        self.assertEqual(self.shakedown("help").stdout, self.shakedown("--help").stdout)

    def test_help_is_help_anywhere_on_the_line(self):
        # Anywhere, and the rest of the line is not read (as getopt_long's callers exit at --help): an unknown
        # option after it is not an error.
        for args in (["sum", "abc", "--help"], ["sum", "--help", "no-such-file"], ["sum", "-a", "bogus", "--help"],
                     ["sum", "--help", "--bogus"], ["check", "--help", "-x"], ["backends", "--help", "--bogus"]):
            with self.subTest(args=args):
                r = self.shakedown(*args)
                self.assertEqual((r.status, r.stderr), (0, b""), r.text())
                self.assertTrue(r.stdout.startswith(b"Usage: shakedown " + args[0].encode()), r.stdout)
        r = self.shakedown("sum", "--version", "--bogus")
        self.assertEqual((r.status, r.stderr), (0, b""), r.text())
        self.assertRegex(r.stdout, rb"^shakedown \d+\.\d+\.\d+\n$")

    def test_check_is_an_option_not_a_file(self):
        with open(os.path.join(self.dir, "list"), "wb") as f:
            f.write(ABC_SHA256 + b"  abc\n")
        for args in (["sum", "-c", "list"], ["sum", "--check", "list"], ["sum", "list", "-c"], ["sum", "--ch", "list"],
                     ["check", "list"], ["check", "-c", "list"]):
            with self.subTest(args=args):
                r = self.shakedown(*args)
                self.assertEqual((r.status, r.stdout, r.stderr), (0, b"abc: OK\n", b""), r.text())

    def test_double_dash_ends_options(self):
        with open(os.path.join(self.dir, "-c"), "wb") as f:
            f.write(b"abc")
        r = self.shakedown("sum", "--", "-c")
        self.assertEqual((r.status, r.stdout), (0, ABC_SHA256 + b"  -c\n"), r.text())

    def test_algorithm_option_forms(self):
        for args in (["-a", "sha512"], ["-asha512"], ["--algorithm=sha512"], ["--algorithm", "sha512"],
                     ["--algo=sha512"], ["-a", "SHA-512"], ["abc", "-a", "sha512"]):
            with self.subTest(args=args):
                r = self.shakedown("sum", *[a for a in args if a != "abc"], "abc")
                self.assertEqual((r.status, r.stdout), (0, ABC_SHA512 + b"  abc\n"), r.text())
        r = self.shakedown("sum", "--algorithm=sha3-256", "--tag", "abc")
        self.assertEqual(r.stdout, b"SHA3-256 (abc) = " + ABC_SHA3_256 + b"\n")

    def test_clustered_flags(self):
        with open(os.path.join(self.dir, "list"), "wb") as f:
            f.write(b"junk\n" + ABC_SHA256 + b"  abc\n")
        r = self.shakedown("sum", "-cw", "list")
        self.assertEqual(r.stdout, b"abc: OK\n")
        self.assertIn(b"list: 1: improperly formatted SHA256 checksum line", r.stderr)

    def test_bad_options(self):
        cases = [(["sum", "--bogus"], b"unrecognized option '--bogus'"),
                 (["sum", "--st", "abc"], b"option '--st' is ambiguous; possibilities: '--status' '--strict'"),
                 (["sum", "-x"], b"invalid option -- 'x'"),
                 (["sum", "-a"], b"option requires an argument -- 'a'"),
                 (["sum", "--algorithm"], b"option '--algorithm' requires an argument"),
                 (["sum", "--tag=yes"], b"option '--tag' doesn't allow an argument"),
                 (["sum", "-B", "", "abc"], b"the backend name is empty"),
                 (["backends", "extra"], b"extra operand 'extra'"),
                 (["nonesuch"], b"unknown command 'nonesuch'"),
                 (["repro", "x"], b"crash reproduction is the shakedown-repro tool"),
                 ([], b"missing command")]
        for args, message in cases:
            with self.subTest(args=args):
                r = self.shakedown(*args)
                self.assertEqual((r.status, r.stdout), (2, b""), r.text())
                self.assertIn(message, r.stderr)
                self.assertIn(b"Try 'shakedown", r.stderr)

    def test_backend_option_and_binary_flag(self):
        r = self.shakedown("sum", "-B", "generic", "-b", "abc")
        self.assertEqual((r.status, r.stdout), (0, ABC_SHA256 + b" *abc\n"), r.text())
        r = self.shakedown("sum", "--backend=generic", "-a", "sha3-256", "abc")
        self.assertEqual(r.stdout, ABC_SHA3_256 + b"  abc\n", r.text())
        r = self.shakedown("sum", "-B", "nonesuch", "abc")
        self.assertEqual(r.status, 2)
        self.assertIn(b"backend 'nonesuch' does not implement sha256 (sha256 backends: ", r.stderr)

    def test_backend_option_in_check_with_lines_of_another_family(self):
        # Without -a each tag picks its line's algorithm. -B generic (every family has one) checks lines of two
        # families; a backend of one family checks its own line and fails the other's: a line not checked (status
        # 1), not a bad command line (status 2 means nothing was hashed, and one line was).
        lines = {"sha256": b"SHA256 (abc) = " + ABC_SHA256, "sha512": b"SHA512 (abc) = " + ABC_SHA512,
                 "keccak": b"SHA3-256 (abc) = " + ABC_SHA3_256}
        with open(os.path.join(self.dir, "all"), "wb") as f:
            f.write(b"\n".join(lines.values()) + b"\n")
        r = self.shakedown("check", "-B", "generic", "all")
        self.assertEqual((r.status, r.stdout, r.stderr), (0, b"abc: OK\n" * 3, b""), r.text())
        rows, family = {}, None  # family -> {backend name: available}, from `shakedown backends`
        for row in self.shakedown("backends").stdout.decode().splitlines():
            if not row.startswith(" "):
                family = row[:-1] if row[:-1] in lines else None
                rows.setdefault(family, {})
            elif family:
                rows[family][row[5:].split()[0]] = " available" in row
        own, backend, other = next((f, name, g) for f in lines for name, up in rows[f].items() for g in lines
                                   if up and name not in rows[g])  # e.g. x86_64/bmi2 (keccak only)
        with open(os.path.join(self.dir, "list"), "wb") as f:
            f.write(lines[own] + b"\n" + lines[other] + b"\n")
        refusal = f"list: 2: backend '{backend}' does not implement ".encode()
        r = self.shakedown("check", "-B", backend, "list")
        self.assertEqual((r.status, r.stdout), (1, b"abc: OK\n"), r.text())
        self.assertIn(refusal, r.stderr)
        self.assertIn(b"WARNING: 1 line was not checked on the chosen backend", r.stderr)
        r = self.shakedown("check", "-B", backend, "--status", "list")
        self.assertEqual((r.status, r.stdout), (1, b""), r.text())
        self.assertIn(refusal, r.stderr)  # an error, as an unreadable file's, not a result line
        self.assertNotIn(b"WARNING", r.stderr)


def read_terminal(primary, timeout=120):
    """Everything written to a pseudo-terminal until the program closes it (or goes quiet for `timeout` s)."""
    shown = b""
    while True:
        ready, _, _ = select.select([primary], [], [], timeout)
        if not ready:
            return shown
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # EIO: the program closed the terminal
            return shown
        if not chunk:
            return shown
        shown += chunk


class Progress(unittest.TestCase):
    """A progress line for inputs over 256 MiB, on stderr, only when stderr is a terminal."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="shakedown-progress-")
        cls.big = os.path.join(cls.dir, "big")
        with open(cls.big, "wb") as f:
            f.truncate(300 << 20)  # sparse: 300 MiB of zeros without the disk space

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_progress_on_a_terminal(self):
        primary, secondary = pty.openpty()
        p = subprocess.Popen([SHAKEDOWN, "sum", self.big], stdout=subprocess.PIPE, stderr=secondary, env=ENV)
        os.close(secondary)
        shown = read_terminal(primary)
        out, _ = p.communicate(timeout=120)
        os.close(primary)
        self.assertEqual(p.returncode, 0)
        zeros = hashlib.sha256()
        for _ in range(300):
            zeros.update(bytes(1 << 20))
        self.assertEqual(out, zeros.hexdigest().encode() + b"  " + self.big.encode() + b"\n")
        self.assertRegex(shown, rb"\rshakedown sum: big: \d+ MiB of 300 MiB \(\d+%\)")
        self.assertTrue(re.search(rb"\r *\r$", shown), shown)  # the line is erased at the end

    def test_progress_gives_the_rate_and_the_time_left(self):
        # The generic Keccak backend is slow enough for several redraws; the figures themselves are not judged.
        primary, secondary = pty.openpty()
        p = subprocess.Popen([SHAKEDOWN, "sum", "-a", "sha3-512", "-B", "generic", self.big], stdout=subprocess.PIPE,
                             stderr=secondary, env=ENV)
        os.close(secondary)
        shown = read_terminal(primary)
        p.communicate(timeout=300)
        os.close(primary)
        self.assertEqual(p.returncode, 0)
        self.assertRegex(shown, rb"\rshakedown sum: big: \d+ MiB of 300 MiB \(\d+%\), \d+ MiB/s, (\d+ s|\d+:\d\d) left")

    def test_no_progress_when_stderr_is_not_a_terminal(self):
        r = run([SHAKEDOWN, "sum", self.big])
        self.assertEqual((r.status, r.stderr), (0, b""), r.text())


class ResultLinesOnATerminal(unittest.TestCase):
    """check's "NAME: OK" lines: a name with a control byte is shell-quoted on a terminal (a list written by someone
    else must not drive the screen), and left as coreutils writes it when stdout is a pipe (docs/cli.md)."""

    def test_control_bytes_in_names(self):
        d = tempfile.mkdtemp(prefix="shakedown-tty-")
        try:
            name = "a\x1b[2Jb"
            with open(os.path.join(d, name), "wb") as f:
                f.write(b"abc")
            with open(os.path.join(d, "list"), "wb") as f:
                f.write(hashlib.sha256(b"abc").hexdigest().encode() + b"  " + name.encode() + b"\n")
            primary, secondary = pty.openpty()
            p = subprocess.Popen([SHAKEDOWN, "check", "list"], cwd=d, stdout=secondary, stderr=subprocess.DEVNULL,
                                 env=ENV)
            os.close(secondary)
            shown = read_terminal(primary)
            p.wait(timeout=60)
            os.close(primary)
            self.assertEqual(p.returncode, 0)
            self.assertNotIn(b"\x1b", shown)
            self.assertIn(b"'a'$'\\033''[2Jb': OK", shown)
            r = run([SHAKEDOWN, "check", "list"], cwd=d)
            self.assertEqual((r.status, r.stdout), (0, name.encode() + b": OK\n"), r.text())  # coreutils' bytes
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
