#!/usr/bin/env python3
"""The misuse cases of the security review (issue #15, item 3): the CLI must not say OK having checked nothing,
must read numbers strictly, must fail on write errors, and must print each error once, with its reason,
with nothing from the command line or the environment reaching the terminal unescaped or uncut.

Usage: misuse_test.py SHAKEDOWN"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ABC_SHA224, ABC_SHA256, ABC_SHA512, ENV, run  # noqa: E402

SHAKEDOWN = os.path.abspath(sys.argv[1])
RAW_EXCEPTION_TEXTS = [b"stoul", b"bad_alloc", b"std::", b"vector", b"max_size", b"terminate", b"what()"]


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="shakedown-misuse-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.write("abc", b"abc")

    def write(self, name, data):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)
        return name

    def shakedown(self, *args, stdin=b"", env=None):
        return run([SHAKEDOWN, *args], cwd=self.dir, stdin=stdin, env=env)

    def assert_clean_error(self, r, status, *phrases):
        """Exit status, nothing on stdout, each phrase on stderr, one program prefix, no raw exception text."""
        self.assertEqual(r.status, status, r.text())
        self.assertEqual(r.stdout, b"", r.text())
        for phrase in phrases:
            self.assertIn(phrase, r.stderr, r.text())
        first = r.stderr.splitlines()[0]
        self.assertTrue(first.startswith(b"shakedown "), r.text())
        self.assertNotIn(b"shakedown", first[len(b"shakedown "):], "doubled prefix: " + r.text())
        for text in RAW_EXCEPTION_TEXTS:
            self.assertNotIn(text, r.stderr, r.text())


class CheckThatVerifiesNothing(Base):
    """`check` must not exit 0 when no line was verified (as sha256sum -c)."""

    def test_empty_list(self):
        self.write("list", b"")
        r = self.shakedown("check", "list")
        self.assert_clean_error(r, 1, b"shakedown check: list: no properly formatted checksum lines found")

    def test_directory_as_list_says_why(self):
        os.mkdir(os.path.join(self.dir, "folder"))
        r = self.shakedown("check", "folder")
        self.assert_clean_error(r, 1, b"folder: read error: Is a directory")

    def test_no_well_formed_line(self):
        self.write("list", b"not a checksum line\n" + ABC_SHA256[:-1] + b"  abc\n")
        r = self.shakedown("check", "-w", "list")
        self.assert_clean_error(r, 1, b"list: 1: improperly formatted SHA256 checksum line",
                                b"list: 2: improperly formatted SHA256 checksum line",
                                b"list: no properly formatted checksum lines found")

    def test_improper_lines_beside_good_ones_are_counted(self):
        self.write("list", b"junk\n" + ABC_SHA256 + b"  abc\n")
        r = self.shakedown("check", "list")
        self.assertEqual((r.status, r.stdout), (0, b"abc: OK\n"), r.text())
        self.assertIn(b"WARNING: 1 line is improperly formatted", r.stderr)
        self.assertEqual(self.shakedown("check", "--strict", "list").status, 1)

    def test_crlf_list(self):
        self.write("list", ABC_SHA256 + b"  abc\r\n")
        r = self.shakedown("check", "list")
        self.assertEqual((r.status, r.stdout, r.stderr), (0, b"abc: OK\n", b""), r.text())

    def test_upper_case_hex(self):
        self.write("list", ABC_SHA256.upper() + b"  abc\n")
        r = self.shakedown("check", "list")
        self.assertEqual((r.status, r.stdout, r.stderr), (0, b"abc: OK\n", b""), r.text())

    def test_a_digest_of_another_length_names_the_algorithms_of_that_length(self):
        self.write("list", ABC_SHA512 + b"  abc\n")
        r = self.shakedown("check", "list")
        self.assert_clean_error(r, 1, b"list: 1: note: the digest has 128 hex digits, the length of a sha512 or "
                                      b"sha3-512 digest, not of sha256 (64); choose the algorithm with -a")
        self.write("list224", ABC_SHA224 + b"  abc\n")
        r = self.shakedown("check", "-a", "sha256", "list224")
        self.assertIn(b"the length of a sha224 or sha512-224 or sha3-224 digest", r.stderr, r.text())
        r = self.shakedown("check", "-a", "sha512", "list")
        self.assertEqual((r.status, r.stdout), (0, b"abc: OK\n"), r.text())

    def test_an_untagged_list_of_another_algorithm_of_the_same_length_is_named(self):
        # sha3sum, `openssl dgst -r -sha3-256` and `shasum -a 512256` write untagged lines of 64 hex digits, as
        # sha256sum does: without -a they are checked as sha256 and fail. The note names the algorithm the digest
        # is (digests from Python's hashlib, i.e. OpenSSL), or the candidates when none matches.
        for alg, digest in (("sha3-256", hashlib.sha3_256(b"abc").hexdigest()),
                            ("sha512-256", hashlib.new("sha512_256", b"abc").hexdigest())):
            with self.subTest(alg=alg):
                self.write("list", digest.encode() + b"  abc\n")
                r = self.shakedown("check", "list")
                self.assertEqual((r.status, r.stdout), (1, b"abc: FAILED\n"), r.text())
                self.assertIn(f"shakedown check: list: 1: note: the digest is abc's {alg} digest: untagged lines are "
                              f"checked as sha256 without -a; check this list with -a {alg}\n".encode(), r.stderr)
                self.assertIn(b"WARNING: 1 computed checksum did NOT match", r.stderr)
                r = self.shakedown("check", "-a", alg, "list")
                self.assertEqual((r.status, r.stdout, r.stderr), (0, b"abc: OK\n", b""), r.text())
                r = self.shakedown("check", "--status", "list")  # --status silences notes
                self.assertEqual((r.status, r.stdout, r.stderr), (1, b"", b""), r.text())
        for line in (b"0" * 64 + b"  abc\n",  # no algorithm matches: the file changed, nothing to add
                     b"SHA3-256 (abc) = " + b"0" * 64 + b"\n"):  # a tag chose the algorithm
            self.write("list", line)
            r = self.shakedown("check", "list")
            self.assertEqual((r.status, r.stdout), (1, b"abc: FAILED\n"), r.text())
            self.assertNotIn(b"note:", r.stderr)

    def test_a_tag_of_another_algorithm_is_named(self):
        self.write("list", b"SHA512 (abc) = " + ABC_SHA512 + b"\n")
        r = self.shakedown("check", "-a", "sha256", "list")
        self.assert_clean_error(r, 1, b"list: 1: note: the line is tagged SHA512 but -a selects another algorithm")
        r = self.shakedown("check", "list")  # without -a the tag chooses
        self.assertEqual((r.status, r.stdout), (0, b"abc: OK\n"), r.text())

    def test_missing_file_fails_with_a_line_and_a_summary(self):
        self.write("list", ABC_SHA256 + b"  gone\n")
        r = self.shakedown("check", "list")
        self.assertEqual((r.status, r.stdout), (1, b"gone: FAILED open or read\n"), r.text())
        self.assertIn(b"shakedown check: gone: No such file or directory", r.stderr)
        self.assertIn(b"WARNING: 1 listed file could not be read", r.stderr)


class LengthParsing(Base):
    """`sum -l` takes a decimal byte count from 1 to 2^40, and nothing else."""

    def test_malformed_lengths_are_refused(self):
        for text in ["0x10", "12abc", "-1", "", " 16", "16 ", "+16", "1e3", "016x", "١٢"]:
            with self.subTest(length=text):
                r = self.shakedown("sum", "-a", "shake128", "-l", text, "abc")
                self.assert_clean_error(r, 2, b"invalid length ", b"expected a decimal number from 1 to 1099511627776")

    def test_out_of_range_lengths_are_refused(self):
        for text, phrase in [("0", b"length '0' is too small"),
                             ("1099511627777", b"length '1099511627777' is too large: at most 1099511627776"),
                             ("18446744073709551616", b"is too large"), ("9" * 40, b"is too large")]:
            with self.subTest(length=text):
                self.assert_clean_error(self.shakedown("sum", "-a", "shake256", "-l", text, "abc"), 2, phrase)

    def test_a_length_too_large_is_refused_before_reading_input(self):
        # Standard input stays open: a tool that read before checking would hang here.
        p = subprocess.Popen([SHAKEDOWN, "sum", "-a", "shake128", "-l", "1099511627777"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        try:
            out, err = p.communicate(timeout=30)
        finally:
            p.stdin.close()
        self.assertEqual((p.returncode, out), (2, b""), err)
        self.assertIn(b"is too large", err)

    def test_decimal_with_leading_zeros_is_decimal(self):
        r = self.shakedown("sum", "-a", "shake128", "-l", "010", "abc")
        self.assertEqual(r.stdout, hashlib.shake_128(b"abc").hexdigest(10).encode() + b"  abc\n", r.text())

    def test_large_shake_output_is_streamed(self):
        # 50 MB of output (100 MB of hex): the tool's peak memory must stay far below it. The reference is
        # Python's hashlib (OpenSSL's SHAKE), not shakedown.
        length = 100_000_000
        p = subprocess.Popen([SHAKEDOWN, "sum", "-a", "shake256", "-l", str(length), "abc"], cwd=self.dir,
                             stdout=subprocess.PIPE, env=ENV)
        digest = hashlib.sha256()
        size = 0
        while chunk := p.stdout.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
        p.stdout.close()
        _, status, usage = os.wait4(p.pid, 0)  # this child's peak memory (at least the forked test's)
        p.returncode = os.waitstatus_to_exitcode(status)
        self.assertEqual(p.returncode, 0)
        want = hashlib.shake_256(b"abc").hexdigest(length).encode() + b"  abc\n"
        self.assertEqual((size, digest.hexdigest()), (len(want), hashlib.sha256(want).hexdigest()))
        peak = usage.ru_maxrss * 1024
        print(f"peak RSS {peak >> 20} MiB for {length >> 20} MiB of SHAKE output", file=sys.stderr)
        self.assertLess(peak, length // 2, "the output was built in memory")

    def test_the_largest_length_starts_streaming_at_once(self):
        # -l 2^40 is accepted and produces output without building it: the first bytes arrive at once.
        p = subprocess.Popen([SHAKEDOWN, "sum", "-a", "shake128", "-l", "1099511627776", "abc"], cwd=self.dir,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        first = p.stdout.read(64)
        p.stdout.close()  # the tool then dies of SIGPIPE or exits on the write error
        p.wait(timeout=60)
        p.stderr.close()
        self.assertEqual(first, hashlib.shake_128(b"abc").hexdigest(32).encode())

    def test_length_needs_a_shake_algorithm(self):
        self.assert_clean_error(self.shakedown("sum", "-l", "32", "abc"), 2,
                                b"--length applies to shake128 and shake256 only; sha256 has a fixed size")
        self.assert_clean_error(self.shakedown("check", "-a", "sha256", "-l", "32", "list"), 2,
                                b"--length applies to shake128 and shake256 only; sha256 has a fixed size")

    def test_check_length_without_a_applies_to_the_shake_lines(self):
        # Without -a the tags choose each line's algorithm (docs/cli.md, -l): -l is the length SHAKE lines must
        # have, and lines of fixed-size digests are checked as ever. Digests from Python's hashlib (OpenSSL).
        self.write("abc", b"abc")
        sha256_line = b"SHA256 (abc) = " + hashlib.sha256(b"abc").hexdigest().encode() + b"\n"
        for n in (16, 32):
            self.write(f"shake{n}", b"SHAKE-128 (abc) = " + hashlib.shake_128(b"abc").hexdigest(n).encode() + b"\n" +
                       sha256_line)
        r = self.shakedown("check", "-l", "16", "shake16")
        self.assertEqual((r.status, r.stdout, r.stderr), (0, b"abc: OK\nabc: OK\n", b""), r.text())
        r = self.shakedown("check", "-l", "16", "--strict", "shake32")  # 32 bytes where -l says 16: improper
        self.assertEqual((r.status, r.stdout), (1, b"abc: OK\n"), r.text())
        self.assertIn(b"WARNING: 1 line is improperly formatted", r.stderr)

    def test_short_shake_lines_are_no_integrity_check(self):
        # Security review: "SHAKE-128 (abc) = 00" was accepted, and a forged file matching it takes a few hundred
        # tries. Lines shorter than the security strength (16 bytes for SHAKE128, 32 for SHAKE256) are improper,
        # with a note; -l below it is a bad command line. Digests from Python's hashlib (OpenSSL).
        self.write("abc", b"abc")
        shake = {128: hashlib.shake_128(b"abc"), 256: hashlib.shake_256(b"abc")}

        def line(bits, n):
            return f"SHAKE-{bits} (abc) = {shake[bits].hexdigest(n)}\n".encode()
        cases = [
            (line(128, 1), 1, b"the SHAKE-128 digest has 1 byte; check accepts 16 bytes or more"),
            (line(128, 15), 1, b"the SHAKE-128 digest has 15 bytes; check accepts 16 bytes or more"),
            (line(256, 31), 1, b"the SHAKE-256 digest has 31 bytes; check accepts 32 bytes or more"),
            (line(128, 16), 0, b""),
            (line(256, 32), 0, b""),
        ]
        for text, status, note in cases:
            with self.subTest(line=text):
                self.write("list", text)
                r = self.shakedown("check", "list")
                self.assertEqual(r.status, status, r.text())
                self.assertIn(note, r.stderr, r.text())
                if status:
                    self.assertIn(b"no properly formatted checksum lines found", r.stderr, r.text())
                    self.assertEqual(r.stdout, b"", r.text())
                else:
                    self.assertEqual(r.stdout, b"abc: OK\n", r.text())
        self.write("list", line(128, 1))
        for args in (["-l", "1"], ["-a", "shake256", "-l", "31"], ["-a", "shake128", "-l", "15"]):
            with self.subTest(args=args):
                r = self.shakedown("check", *args, "list")
                self.assertEqual((r.status, r.stdout), (2, b""), r.text())
                self.assertIn(b"is below the", r.stderr, r.text())
        r = self.shakedown("sum", "-a", "shake128", "-l", "1", "abc")  # producing a short digest stays allowed
        self.assertEqual((r.status, r.stdout), (0, shake[128].hexdigest(1).encode() + b"  abc\n"), r.text())


class WriteErrors(Base):
    """Every command exits non-zero when its output cannot be written (stdout is /dev/full)."""

    def full(self, *args, stdin=b""):
        with open("/dev/full", "wb") as full:
            p = subprocess.run([SHAKEDOWN, *args], cwd=self.dir, input=stdin, stdout=full, stderr=subprocess.PIPE,
                               env=ENV, timeout=120)
        return p

    def test_each_command(self):
        self.write("list", ABC_SHA256 + b"  abc\n")
        for args in (["sum", "abc"], ["sum"], ["sum", "--tag", "abc"], ["check", "list"], ["sum", "-c", "list"],
                     ["backends"], ["--help"], ["--version"], ["sum", "--help"], ["check", "--version"],
                     ["backends", "--help"], ["help", "sum"], ["sum", "-a", "shake256", "-l", "1000000000", "abc"]):
            with self.subTest(args=args):
                p = self.full(*args, stdin=b"abc")
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(b"write error: No space left on device", p.stderr)

    def test_check_status_writes_nothing_and_succeeds(self):
        self.write("list", ABC_SHA256 + b"  abc\n")
        p = self.full("check", "--status", "list")
        self.assertEqual((p.returncode, p.stderr), (0, b""))


class ErrorMessages(Base):
    def test_unknown_algorithm_once_without_doubled_prefix(self):
        r = self.shakedown("sum", "-a", "md5", "abc")
        self.assert_clean_error(r, 2, b"shakedown sum: unknown algorithm 'md5' (valid: sha224, sha256,")
        self.assertEqual(len(r.stderr.splitlines()), 2, r.text())  # the message and "Try ... --help"

    def test_malformed_environment_once_without_doubled_prefix(self):
        r = self.shakedown("sum", "abc", env=dict(ENV, SHAKEDOWN_BACKENDS="sha256=nonesuch"))
        self.assert_clean_error(r, 2, b"shakedown sum: SHAKEDOWN_BACKENDS=")
        self.assertEqual(len(r.stderr.splitlines()), 1, r.text())

    def test_read_failures_name_the_reason(self):
        os.mkdir(os.path.join(self.dir, "folder"))
        cases = [("folder", b"shakedown sum: folder: Is a directory"),
                 ("/proc/self/mem", b"shakedown sum: /proc/self/mem: Input/output error"),  # reading page 0: EIO
                 ("gone", b"shakedown sum: gone: No such file or directory")]
        for name, message in cases:
            with self.subTest(name=name):
                self.assert_clean_error(self.shakedown("sum", name), 1, message)
        self.write("list", ABC_SHA256 + b"  folder\n")
        r = self.shakedown("check", "list")
        self.assertEqual((r.status, r.stdout), (1, b"folder: FAILED open or read\n"))
        self.assertIn(b"shakedown check: folder: Is a directory", r.stderr)

    def test_unprintable_bytes_are_escaped(self):
        esc = "\x1b[31mRED"
        cases = [
            (["sum", "-a", esc, "abc"], {}, b"unknown algorithm ''$'\\033''[31mRED'"),
            (["sum", "-B", esc, "abc"], {}, b"backend ''$'\\033''[31mRED'"),
            (["sum", "-a", "shake128", "-l", esc, "abc"], {}, b"invalid length ''$'\\033''[31mRED'"),
            (["sum", "gone" + esc], {}, b"'gone'$'\\033''[31mRED': No such file or directory"),
            (["sum", "--" + esc], {}, b"unrecognized option '--'$'\\033'"),
            ([esc], {}, b"unknown command ''$'\\033''[31mRED'"),
            # The library escapes what it echoes itself (lib/src/internal/message_text.h), as \xNN.
            (["sum", "abc"], {"SHAKEDOWN_BACKENDS": "sha256=" + esc}, b"backend '\\x1b[31mRED'"),
            (["backends"], {"SHAKEDOWN_BACKENDS": "keccak=" + esc}, b"backend '\\x1b[31mRED'"),
        ]
        for args, extra_env, escaped in cases:
            with self.subTest(args=args, env=extra_env):
                r = self.shakedown(*args, env=dict(ENV, **extra_env))
                self.assertNotEqual(r.status, 0, r.text())
                self.assertNotIn(b"\x1b", r.stderr + r.stdout, r.text())
                self.assertIn(escaped, r.stderr, r.text())

    def test_long_values_are_cut(self):
        long_value = "x" * 100_000
        for args, extra_env in ((["sum", "-a", long_value, "abc"], {}), (["sum", long_value], {}),
                                (["sum", "abc"], {"SHAKEDOWN_BACKENDS": "sha256=" + long_value})):
            with self.subTest(args=[a[:20] for a in args], env=list(extra_env)):
                r = self.shakedown(*args, env=dict(ENV, **extra_env))
                self.assertNotEqual(r.status, 0)
                self.assertLess(len(r.stderr), 10_000, r.stderr[:300])
                self.assertIn(b"... (", r.stderr)
                for text in RAW_EXCEPTION_TEXTS:
                    self.assertNotIn(text, r.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
