#!/usr/bin/env python3
"""`shakedown sum` / `shakedown check` against GNU coreutils, the oracle.

Sums files are made by the real sha224sum/sha256sum/sha384sum/sha512sum (plain, --tag, -b, escaped names) and
varied the ways other tools and systems vary them (CRLF, upper-case hex, BSD-reversed and openssl-style lines,
comments, improper lines, missing and unreadable files, mismatches, b2sum and other-algorithm lists). Each
runs through coreutils and through shakedown; exit status, stdout and stderr must be equal line for line,
with two normalizations only: the program's name at the start of a message, and shakedown's note lines
(`LIST: N: note: ...`, its one documented addition), which are removed before comparing and checked on their
own. Digests of the algorithms coreutils lacks are compared with `openssl dgst`, tagged lines with what
`openssl dgst` and Perl's `shasum` print.

Usage: coreutils_parity_test.py SHAKEDOWN"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ENV, normalized, run  # noqa: E402

SHAKEDOWN = os.path.abspath(sys.argv[1])
ALGORITHMS = ["sha224", "sha256", "sha384", "sha512"]  # what coreutils 9.1 has standalone tools for
TAGS = {"sha224": "SHA224", "sha256": "SHA256", "sha384": "SHA384", "sha512": "SHA512"}

# Files hashed and listed. Names with '\', newline or CR are escaped by coreutils; the others test quoting
# in messages (space, quote), the name rules of each format (leading space, '*', ')') and '--'.
FILES = {
    "a": b"abc",
    "b c": b"x",
    "empty": b"",
    "bin": bytes(range(256)) * 9,
    "back\\slash": b"\\",
    "n\nl": b"newline",
    "c\rr": b"cr",
    " lead": b"lead",
    "*star": b"star",
    "tab\tname": b"tab",
    "par)en": b"paren",
    "it's": b"quote",
    "-dash": b"dash",
}
MISSING = ["gone", "gone too", "gone\\x", "gone\nnl", "it's gone"]  # listed, then deleted
DIRECTORY = "adir"  # listed as a file: "Is a directory"
STDIN = b"read from standard input\n"

CHECK_OPTIONS = [[], ["--quiet"], ["--status"], ["--strict"], ["--ignore-missing"], ["-w"], ["--warn"],
                 ["--quiet", "--strict"], ["--status", "--warn"], ["--warn", "--status"], ["--warn", "--quiet"],
                 ["--ignore-missing", "--quiet"], ["--strict", "--ignore-missing", "-w"]]
CHECK_OPTIONS_OTHER_ALGORITHMS = [[], ["--status"], ["--strict", "-w"], ["--ignore-missing", "--quiet"]]
# Lists with a line that looks meant for another algorithm (a digest of another length, another algorithm's
# tag): shakedown adds one note per list, except with --status. (A b2sum digest has a SHA-512 digest's
# length: for sha512 those lines are well formed and fail to match.)
NOTED_LISTS = {"other-algorithm", "other-algorithm-tagged", "b2sum", "improper", "only-improper"}
# --tag implies binary mode in coreutils, so a -t before it is overridden, not refused (after it, it is refused).
SUM_OPTIONS = [[], ["--tag"], ["-b"], ["--binary"], ["-t"], ["--text"], ["-z"], ["--zero", "--tag"], ["-z", "-b"],
               ["--tag", "-b"], ["-t", "--tag"], ["--text", "--tag", "-z"]]


def coreutils(alg):
    return f"{alg}sum"


def digest_len(alg):
    return {"sha224": 56, "sha256": 64, "sha384": 96, "sha512": 128}[alg]


class Workspace:
    """A folder with the files, and the sums lists of one algorithm made by coreutils and varied."""

    def __init__(self, alg):
        self.alg = alg
        self.dir = tempfile.mkdtemp(prefix="shakedown-parity-")
        for name, data in FILES.items():
            self.write(name, data)
        os.mkdir(self.path(DIRECTORY))
        self.lists = {}  # name -> (bytes, whether a line is tagged with another algorithm)
        self.make_lists()

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)

    def tool(self, *args, alg=None):
        p = subprocess.run([coreutils(alg or self.alg), *args], cwd=self.dir, capture_output=True, env=ENV, check=True)
        return p.stdout

    def add(self, name, data, foreign_tags=False):
        self.lists[name] = (data, foreign_tags)
        self.write(name, data)

    def make_lists(self):
        names = list(FILES)
        plain = self.tool("--", *names)
        tagged = self.tool("--tag", "--", *names)
        binary = self.tool("-b", "--", *names)
        for n in MISSING:
            self.write(n, b"soon gone")
        missing = self.tool("--", *MISSING) + self.tool("--tag", "--", *MISSING[:2])
        for n in MISSING:
            os.remove(self.path(n))
        n = digest_len(self.alg)
        some_hex = plain[:n]
        lines = plain.splitlines(keepends=True)
        tag_lines = tagged.splitlines(keepends=True)

        self.add("plain", plain)
        self.add("tagged", tagged)
        self.add("binary", binary)
        self.add("crlf", plain.replace(b"\n", b"\r\n"))
        self.add("crlf-tagged", tagged.replace(b"\n", b"\r\n"))
        self.add("upper", upper_hex(plain, n))
        self.add("upper-tagged", upper_hex(tagged, n))
        self.add("no-final-newline", plain.rstrip(b"\n"))
        self.add("missing", missing)
        self.add("mismatch", flip_digit(lines[0]) + b"".join(lines[1:]))
        self.add("directory", some_hex + b"  " + DIRECTORY.encode() + b"\n" + lines[0])
        self.add("reversed", reversed_bsd(plain, n))
        self.add("openssl-style", re.sub(rb"^(\\?SHA\d+) \((.*)\) = ", rb"\1(\2)= ", tagged, flags=re.M))
        self.add("comments-blank", b"# made by coreutils\n\n" + plain + b"\n# end\n")
        self.add("improper", b"".join(junk_lines(some_hex, self.alg)) + lines[0])
        self.add("only-improper", b"".join(junk_lines(some_hex, self.alg)))
        self.add("empty-list", b"")
        self.add("comments-only", b"# nothing\n\n\r\n")
        self.add("stdin-entry", stdin_line(self.alg) + lines[0])
        bad_escapes = (b"\\" + some_hex + b"  bad\\qescape\n" + b"\\" + some_hex + b"  trailing\\\n" +
                       b"\\" + TAGS[self.alg].encode() + b" (x\\y) = " + some_hex + b"\n")
        self.add("bad-escapes", bad_escapes + lines[0])
        other = "sha512" if self.alg != "sha512" else "sha256"
        self.add("other-algorithm", self.tool("--", "a", "bin", alg=other))
        self.add("other-algorithm-tagged", self.tool("--tag", "--", "a", "bin", alg=other), foreign_tags=True)
        self.add("b2sum", subprocess.run(["b2sum", "--", "a", "b c"], cwd=self.dir, capture_output=True,
                                         check=True).stdout)
        # Everything at once, in one list.
        mixed = [lines[0], tag_lines[1].replace(b"\n", b"\r\n"), binary.splitlines(keepends=True)[2],
                 upper_hex(lines[3], n), b"garbage line\n", missing.splitlines(keepends=True)[0],
                 flip_digit(tag_lines[4]), tag_lines[5], lines[6], b"# comment\n",
                 some_hex + b"  " + DIRECTORY.encode() + b"\n", lines[7].replace(b"\n", b"\r\n"), b"\n",
                 tag_lines[8], lines[9]]
        self.add("mixed", b"".join(mixed))

    def close(self):
        shutil.rmtree(self.dir)


def upper_hex(text, n):
    return re.sub(rb"\b[0-9a-f]{%d}\b" % n, lambda m: m.group(0).upper(), text)


def flip_digit(line):
    i = re.search(rb"[0-9a-f]{20}", line).start()
    return line[:i] + (b"0" if line[i:i + 1] != b"0" else b"1") + line[i + 1:]


def reversed_bsd(plain, n):
    """`md5 -r` style: "HEX NAME" with a single space; escaped lines keep their backslash."""
    return re.sub(rb"^(\\?[0-9a-f]{%d}) [ *]" % n, rb"\1 ", plain, flags=re.M)


def stdin_line(alg):
    p = subprocess.run([coreutils(alg)], input=STDIN, capture_output=True, check=True)
    return p.stdout  # "HEX  -": the file "-" is standard input


def junk_lines(some_hex, alg):
    tag = TAGS[alg].encode()
    return [
        b"garbage\n", b"  # indented, so not a comment\n", b"\t\n", b"XYZ  a\n",
        some_hex[:-2] + b"  a\n",                    # too short for the algorithm
        some_hex[:-1] + b"g  a\n",                   # not hex
        some_hex + b"\n",                            # no name
        some_hex + b" \n",                           # a blank but no name
        some_hex + b"  \n",                          # the name is one space (coreutils' reading)
        some_hex + b"\t a\n",                        # tab separator
        tag + b" (a) = " + some_hex + b" \n",        # trailing blank after the digest
        tag + b" (a = " + some_hex + b"\n",          # no ')'
        tag + b"  (a) = " + some_hex + b"\n",        # two blanks before '('
        tag + b" (a) " + some_hex + b"\n",           # no '='
        tag + b" (a)=" + some_hex + b"\n",           # no blanks around '=' (fine)
        tag.lower() + b" (a) = " + some_hex + b"\n",  # tags are case-sensitive
        b"\\\n",
    ]


class CoreutilsParity(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        version = subprocess.run(["sha256sum", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        print(f"oracle: {version}", file=sys.stderr)
        cls.workspaces = {alg: Workspace(alg) for alg in ALGORITHMS}

    @classmethod
    def tearDownClass(cls):
        for w in cls.workspaces.values():
            w.close()

    def compare(self, ws, oracle_cmd, ours_cmd, stdin=STDIN, merged=True, notes_allowed=True):
        want = run(oracle_cmd, cwd=ws.dir, stdin=stdin, merged=merged)
        got = run(ours_cmd, cwd=ws.dir, stdin=stdin, merged=merged)
        context = f"\n$ {' '.join(map(repr, ours_cmd))}\n[coreutils]\n{want.text()}\n[shakedown]\n{got.text()}"
        self.assertEqual(got.status, want.status, context)
        self.assertEqual(got.stdout, want.stdout, context)
        want_err, _ = normalized(want.stderr)
        got_err, notes = normalized(got.stderr)
        self.assertEqual(got_err.decode(errors="replace").splitlines(), want_err.decode(errors="replace").splitlines(),
                         context)
        if merged:
            self.assertEqual(normalized(got.merged)[0].splitlines(), normalized(want.merged)[0].splitlines(), context)
        if not notes_allowed:
            self.assertEqual(notes, [], context)
        return got, notes

    def test_check_each_list_as_coreutils(self):
        cases = 0
        for alg, ws in self.workspaces.items():
            options_list = CHECK_OPTIONS if alg == "sha256" else CHECK_OPTIONS_OTHER_ALGORITHMS
            for name, (_, foreign_tags) in ws.lists.items():
                for options in options_list:
                    oracle = [coreutils(alg), "-c", *options, name]
                    forms = [[SHAKEDOWN, "sum", "-c", "-a", alg, *options, name],
                             [SHAKEDOWN, "check", f"--algorithm={alg}", *options, name]]
                    if alg == "sha256" and not foreign_tags:  # sha256 is the default; tags are SHA256
                        forms.append([SHAKEDOWN, "sum", "--check", *options, name])
                    quiet_mode = [o for o in options if o in ("--status", "--warn", "-w", "--quiet")][-1:]
                    noted = name in NOTED_LISTS and not (name == "b2sum" and alg == "sha512")
                    notes_expected = 1 if noted and quiet_mode != ["--status"] else 0
                    for ours in forms:
                        with self.subTest(alg=alg, list=name, options=options, form=ours[1:3]):
                            cases += 1
                            _, notes = self.compare(ws, oracle, ours, merged=options in ([], ["-w"]))
                            self.assertEqual(len(notes), notes_expected, notes)
        print(f"check: {cases} runs compared", file=sys.stderr)

    def test_several_lists_in_one_run(self):
        # coreutils decides the BSD-reversed format once per run, across lists; a missing list is reported
        # and the others still checked.
        ws = self.workspaces["sha256"]
        for lists in (["reversed", "plain"], ["plain", "reversed"], ["empty-list", "plain"], ["no-such-list", "plain"],
                      ["missing", "mixed", "plain"], ["plain", "plain"]):
            for options in ([], ["--quiet"], ["--strict"], ["--ignore-missing"]):
                with self.subTest(lists=lists, options=options):
                    self.compare(ws, ["sha256sum", "-c", *options, *lists], [SHAKEDOWN, "check", *options, *lists])

    def test_list_on_standard_input(self):
        ws = self.workspaces["sha256"]
        for name in ("plain", "mixed", "stdin-entry", "tagged", "empty-list"):
            data = ws.lists[name][0]
            for args in (["-c"], ["-c", "-"], ["-c", "--", "-"]):
                with self.subTest(list=name, args=args):
                    self.compare(ws, ["sha256sum", *args], [SHAKEDOWN, "sum", *args], stdin=data)
            with self.subTest(list=name, command="check"):
                self.compare(ws, ["sha256sum", "-c"], [SHAKEDOWN, "check"], stdin=data)

    def test_sum_output_as_coreutils(self):
        cases = 0
        names = [*FILES, "gone", DIRECTORY, "-"]
        for alg, ws in self.workspaces.items():
            for options in SUM_OPTIONS:
                forms = [[SHAKEDOWN, "sum", "-a", alg, *options, "--", *names]]
                if alg == "sha256":
                    forms.append([SHAKEDOWN, "sum", *options, "--", *names])
                for ours in forms:
                    with self.subTest(alg=alg, options=options, form=len(ours)):
                        cases += 1
                        self.compare(ws, [coreutils(alg), *options, "--", *names], ours)
        print(f"sum: {cases} runs compared", file=sys.stderr)

    def test_sum_of_standard_input_and_of_a_file_named_like_an_option(self):
        ws = self.workspaces["sha256"]
        self.compare(ws, ["sha256sum"], [SHAKEDOWN, "sum"])
        self.compare(ws, ["sha256sum", "-"], [SHAKEDOWN, "sum", "-"])
        self.compare(ws, ["sha256sum", "--", "-dash"], [SHAKEDOWN, "sum", "--", "-dash"])
        ws.write("-c", b"a file named -c")
        self.compare(ws, ["sha256sum", "--", "-c"], [SHAKEDOWN, "sum", "--", "-c"])

    def test_names_in_messages_are_quoted_as_coreutils_quotes_them(self):
        # Missing files, so that each name appears in a message. Not covered: a name with both a single quote
        # and an unprintable byte, for which coreutils 9.1 writes a redundant '' (both forms are valid shell).
        ws = self.workspaces["sha256"]
        names = ["", "plain.txt", "a b", "a:b", "a'b", 'a"b', "a\tb", "a\x01b", "a$b", "\xff", "a*b", "a\\b",
                 "#a", "a#b", "~a", "a~", "{", "}", "{}", "a{b", "[", "]", "a=b", "!", "a^b", "%+,-./_@]",
                 "it's", "a'b c", "a'b$c", "'", "a'b:c", "a'b@c", "a'b{c", "a'b~", "#a'b", "\a\b\f\v\r",
                 "\x7f", "\xc3\xa9", "a\nb", "gone/a b", "a\x1b[31m", "x" * 300]
        names = [n.encode().decode("unicode_escape").encode("latin-1") for n in names]
        for name in names:
            with self.subTest(name=name):
                self.compare(ws, ["sha256sum", "--", name], [SHAKEDOWN, "sum", "--", name], merged=False)

    def test_cksum_checks_tagged_lists_of_several_algorithms_as_check_without_a(self):
        # Without -a each tag chooses its line's algorithm, as `cksum -c` does (coreutils 9.1 cksum checks
        # tagged lines only, so the lists here have no untagged line; its -w names the last tag seen, so -w
        # is left out).
        ws = self.workspaces["sha256"]
        parts = [ws.tool("--tag", "--", "a", "b c", "n\nl", alg=alg) for alg in ALGORITHMS]
        gone = ws.tool("--tag", "--", "it's", alg="sha384")
        tagmix = b"".join(parts) + flip_digit(parts[1].splitlines(keepends=True)[0])
        # Written beside the other lists, not added to them: test_check_each_list_as_coreutils compares
        # those with `sha256sum -c`, which refuses other algorithms' tags.
        ws.write("tagmix", tagmix)
        ws.write("tagmix-crlf-upper", re.sub(rb"[0-9a-f]{56,}", lambda m: m.group(0).upper(), tagmix)
                 .replace(b"\n", b"\r\n"))
        ws.write("tagmix-junk", b"junk\n" + tagmix + b"SHA256 (a) = 12\n")
        ws.write("tagmix-missing", gone.replace(b"it's", b"it's gone") + tagmix)
        for name in ("tagmix", "tagmix-crlf-upper", "tagmix-junk", "tagmix-missing", "tagged"):
            for options in ([], ["--quiet"], ["--status"], ["--strict"], ["--ignore-missing"]):
                with self.subTest(list=name, options=options):
                    self.compare(ws, ["cksum", "-c", *options, name], [SHAKEDOWN, "check", *options, name])

    def test_option_combinations_coreutils_refuses_are_refused_alike(self):
        ws = self.workspaces["sha256"]
        for args in (["--tag", "-c", "plain"], ["-z", "-c", "plain"], ["--binary", "-c", "plain"],
                     ["-t", "-c", "plain"],
                     ["--tag", "--text", "a"], ["--quiet", "a"], ["--status", "a"], ["--strict", "a"],
                     ["--ignore-missing", "a"], ["-w", "a"], ["--bogus", "a"], ["-x", "a"],
                     # getopt names an unknown or ambiguous option with its "=VALUE"; --help after an unknown
                     # option comes too late, as getopt_long's callers act on options in order.
                     ["--bogus=x", "a"], ["--st=x", "a"], ["--bogus", "--help"]):
            with self.subTest(args=args):
                want = run(["sha256sum", *args], cwd=ws.dir)
                got = run([SHAKEDOWN, "sum", *args], cwd=ws.dir)
                # coreutils exits 1 for a bad command line, shakedown 2 (docs/cli.md): both refuse, same words.
                self.assertEqual((want.status, got.status), (1, 2), got.text())
                self.assertEqual(got.stdout, b"")
                self.assertEqual(normalized(got.stderr)[0].splitlines()[0], normalized(want.stderr)[0].splitlines()[0])

    def test_a_stdout_closed_from_the_start_as_coreutils(self):
        # gnulib's close_stream: EBADF is an error only when something was written (a result line); --quiet and
        # --status with every file matching write nothing, and succeed.
        ws = self.workspaces["sha256"]
        cases = [(["sha256sum", "-c", "--quiet", "good"], [SHAKEDOWN, "check", "--quiet", "good"]),
                 (["sha256sum", "-c", "--status", "good"], [SHAKEDOWN, "check", "--status", "good"]),
                 (["sha256sum", "-c", "good"], [SHAKEDOWN, "check", "good"]),
                 (["sha256sum", "a"], [SHAKEDOWN, "sum", "a"])]
        with open(ws.path("good"), "wb") as f:
            f.write(run([SHAKEDOWN, "sum", "a"], cwd=ws.dir).stdout)
        for oracle, ours in cases:
            with self.subTest(args=ours[1:]):
                want, got = (subprocess.run(cmd, cwd=ws.dir, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            env=ENV, preexec_fn=lambda: os.close(1), timeout=60)
                             for cmd in (oracle, ours))
                self.assertEqual(got.returncode, want.returncode, got.stderr)
                self.assertEqual(normalized(got.stderr)[0], normalized(want.stderr)[0])
        # The first two succeed, the others report the write error: the cases are not all alike.
        self.assertEqual([subprocess.run(c[1], cwd=ws.dir, stderr=subprocess.DEVNULL, env=ENV,
                                         preexec_fn=lambda: os.close(1)).returncode for c in cases], [0, 0, 1, 1])


class OtherAlgorithms(unittest.TestCase):
    """Algorithms coreutils lacks: digests from `openssl dgst`, tag names as openssl and shasum print them."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="shakedown-parity-")
        for name in ("a", "b c", "bin"):
            with open(os.path.join(cls.dir, name), "wb") as f:
                f.write(FILES[name])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def openssl(self, *args):
        return subprocess.run(["openssl", "dgst", *args], cwd=self.dir, capture_output=True, check=True,
                              env=ENV).stdout

    def check(self, listing, *options):
        with open(os.path.join(self.dir, "list"), "wb") as f:
            f.write(listing)
        return run([SHAKEDOWN, "check", *options, "list"], cwd=self.dir)

    ALGS = {"sha512-224": ("sha512-224", "SHA2-512/224"), "sha512-256": ("sha512-256", "SHA2-512/256"),
            "sha3-224": ("sha3-224", "SHA3-224"), "sha3-256": ("sha3-256", "SHA3-256"),
            "sha3-384": ("sha3-384", "SHA3-384"), "sha3-512": ("sha3-512", "SHA3-512"),
            "shake128": ("shake128", "SHAKE-128"), "shake256": ("shake256", "SHAKE-256")}

    def test_digests_and_tags_match_openssl(self):
        for alg, (openssl_name, tag) in self.ALGS.items():
            with self.subTest(alg=alg):
                names = ["a", "b c", "bin"]
                # shakedown's SHAKE default is twice the security strength (docs/cli.md), openssl's half that
                xoflen = [f"-xoflen={32 if alg == 'shake128' else 64}"] if alg.startswith("shake") else []
                want_r = self.openssl(f"-{openssl_name}", *xoflen, "-r", *names)  # "HEX *NAME"
                got = run([SHAKEDOWN, "sum", "-b", "-a", alg, *names], cwd=self.dir)
                self.assertEqual(got.stdout, want_r, got.text())
                got_tag = run([SHAKEDOWN, "sum", "--tag", "-a", alg, *names], cwd=self.dir)
                want_tag = b"".join(tag.encode() + b" (" + line.split(b" *", 1)[1].rstrip(b"\n") + b") = " +
                                    line.split(b" ", 1)[0] + b"\n" for line in want_r.splitlines(keepends=True))
                self.assertEqual(got_tag.stdout, want_tag)
                # openssl's own "TAG(NAME)= HEX" lines are accepted (for SHA-2 it prints SHA2-256 etc.).
                ours = self.check(self.openssl(f"-{openssl_name}", *xoflen, *names))
                self.assertEqual((ours.status, ours.stdout), (0, b"a: OK\nb c: OK\nbin: OK\n"), ours.text())
                # and our own --tag output checks, with or without -a
                self.assertEqual(self.check(got_tag.stdout).status, 0)
                self.assertEqual(self.check(got_tag.stdout, "-a", alg).status, 0)
                self.assertEqual(self.check(want_r, "-a", alg).status, 0)

    def test_shake_lengths_match_openssl_xoflen(self):
        for alg, length in (("shake128", 1), ("shake128", 200), ("shake256", 1000), ("shake256", 100000)):
            with self.subTest(alg=alg, length=length):
                want = self.openssl(f"-{alg}", f"-xoflen={length}", "-r", "bin")
                got = run([SHAKEDOWN, "sum", "-b", "-a", alg, "-l", str(length), "bin"], cwd=self.dir)
                self.assertEqual(got.stdout, want)
                if length < 16:
                    # Shorter than the security strength: sum writes what openssl writes, but check refuses to vouch
                    # for it (a 1-byte digest is matched by a forged file in a few hundred tries; docs/cli.md).
                    short = self.check(want, "-a", alg)
                    self.assertEqual((short.status, short.stdout), (1, b""), short.text())
                    self.assertIn(b"note: the SHAKE-128 digest has 1 byte; check accepts 16 bytes or more",
                                  short.stderr)
                    self.assertEqual(self.check(want, "-a", alg, "-l", str(length)).status, 2)
                    continue
                ok = self.check(want, "-a", alg)
                self.assertEqual((ok.status, ok.stdout), (0, b"bin: OK\n"), ok.text())
                ok = self.check(want, "-a", alg, "-l", str(length))
                self.assertEqual(ok.status, 0, ok.text())
                wrong_length = self.check(want, "-a", alg, "-l", str(length + 1))
                self.assertEqual(wrong_length.status, 1)
                self.assertIn(b"no properly formatted checksum lines found", wrong_length.stderr)

    def test_openssl_sha2_names_and_shasum_sha512_t_tags_are_accepted(self):
        listing = self.openssl("-sha256", "a") + self.openssl("-sha512", "b c")  # SHA2-256(a)= ...
        got = self.check(listing)
        self.assertEqual((got.status, got.stdout), (0, b"a: OK\nb c: OK\n"), got.text())
        shasum = subprocess.run(["shasum", "-a", "512224", "--tag", "a"], cwd=self.dir, capture_output=True,
                                check=True).stdout  # SHA512/224 (a) = ...
        got = self.check(shasum)
        self.assertEqual((got.status, got.stdout), (0, b"a: OK\n"), got.text())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
