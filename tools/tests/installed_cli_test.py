#!/usr/bin/env python3
"""The installed `shakedown` carries no test machinery (issue #15, item 5): `cmake --install` puts `shakedown`
and not `shakedown-repro` into bin/; the binary links neither the fuzz core, the emulators, the test support
nor OpenSSL; no source path is baked into it; and the test-only environment variables change nothing.

Usage: installed_cli_test.py SHAKEDOWN BUILD_DIR SOURCE_DIR CMAKE"""
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ABC_SHA256, ENV, run  # noqa: E402

SHAKEDOWN, BUILD_DIR, SOURCE_DIR, CMAKE = (os.path.abspath(a) if i < 3 else a for i, a in enumerate(sys.argv[1:5]))

# Symbols of the verification machinery: the fuzz core and repro (shakedown::fuzz), the emulators
# (shakedown::emul), the tests' oracle and records (shakedown::test), the test hooks (shakedown::testing, which
# live in the separate shakedown::testing library), GoogleTest, and OpenSSL.
# The registry's test hooks (shakedown::testing reaches them) are named too: they live in shakedown::internal, and
# only the registry copy of lib/testing/ defines them (lib/CMakeLists.txt).
TEST_SYMBOLS = re.compile(r"shakedown::(fuzz|emul|test|testing)::|testing::internal::|\b(EVP|OPENSSL|CRYPTO|ERR)_\w+|"
                          r"shakedown::internal::(add_assumed_features|clear_assumed_features|override_environment|"
                          r"environment_error)\b")
TEST_LIBRARIES = re.compile(r"libcrypto|libssl|libgtest|libbenchmark")


class InstalledCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.prefix = tempfile.mkdtemp(prefix="shakedown-install-")
        p = subprocess.run([CMAKE, "--install", BUILD_DIR, "--prefix", cls.prefix], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("cmake --install failed:\n" + p.stdout + p.stderr)
        cls.installed = os.path.join(cls.prefix, "bin", "shakedown")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.prefix)

    def binaries(self):
        return [SHAKEDOWN, self.installed]

    def test_bin_holds_the_cli_and_not_the_repro_tool(self):
        installed = os.listdir(os.path.join(self.prefix, "bin"))
        self.assertIn("shakedown", installed)
        self.assertEqual([n for n in installed if re.search(r"repro|fuzz|test|bench|emul", n)], [], installed)
        with open(SHAKEDOWN, "rb") as built, open(self.installed, "rb") as installed:
            self.assertEqual(built.read(), installed.read(), "the tested binary is the installed one")

    def test_no_test_symbols(self):
        for binary in self.binaries():
            symbols = subprocess.run(["nm", "-C", binary], capture_output=True, text=True, check=True).stdout
            self.assertGreater(len(symbols.splitlines()), 100, "nm found no symbols: a stripped binary proves nothing")
            found = sorted({m.group(0) for m in TEST_SYMBOLS.finditer(symbols)})
            self.assertEqual(found, [], binary)

    def test_no_test_libraries(self):
        for binary in self.binaries():
            dynamic = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
            needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", dynamic)
            self.assertIn("libc.so.6", needed)
            self.assertEqual([n for n in needed if TEST_LIBRARIES.search(n)], [], binary)

    def test_no_source_path_baked_in(self):
        # The old `repro --save` defaulted to <source>/fuzz/corpus. Debug information names source files
        # anyway, so it is stripped from a copy first.
        for binary in self.binaries():
            with tempfile.TemporaryDirectory() as d:
                copy = os.path.join(d, "shakedown")
                subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
                with open(copy, "rb") as f:
                    self.assertNotIn(os.fsencode(SOURCE_DIR), f.read(), binary)

    def test_test_only_environment_is_ignored(self):
        # SHAKEDOWN_TEST_ASSUME would make the CPU claim features it lacks (and a PadLock self-test would then
        # die of SIGILL on this CPU); SHAKEDOWN_EMULATE would install a SIGILL handler, and rejects this value.
        test_env = dict(ENV, SHAKEDOWN_TEST_ASSUME="zhaoxin-phe,vlen=256,s390_sha256,rv_zknh",
                        SHAKEDOWN_EMULATE="not-a-profile", SHAKEDOWN_EMULATE_REQUIRE="xsha256=1")
        plain = run([self.installed, "backends"])
        tested = run([self.installed, "backends"], env=test_env)
        self.assertEqual((tested.status, tested.stderr), (0, b""), tested.text())
        self.assertEqual(tested.stdout, plain.stdout)
        if platform.machine() == "x86_64":
            self.assertRegex(tested.stdout, rb"\n +x86_64/phe +unavailable ")
        r = run([self.installed, "sum", "-"], stdin=b"abc", env=test_env)
        self.assertEqual((r.status, r.stdout, r.stderr), (0, ABC_SHA256 + b"  -\n", b""), r.text())

    def test_installed_headers_hold_no_test_hooks(self):
        # shakedown/testing.h belongs to shakedown::testing, which is never installed (docs/abi.md).
        include = os.path.join(self.prefix, "include", "shakedown")
        headers = sorted(os.listdir(include))
        self.assertIn("shakedown.h", headers)
        self.assertIn("c.h", headers)
        self.assertNotIn("testing.h", headers)
        for header in headers:
            with open(os.path.join(include, header), encoding="utf-8") as f:
                text = f.read()
                self.assertNotRegex(text, r'#\s*include\s*[<"]shakedown/testing\.h|namespace shakedown::testing',
                                    header)

    def test_the_manual_page_is_installed_and_every_help_points_at_it(self):
        # --help pointed at docs/cli.md, which no install has.
        page = os.path.join(self.prefix, "share", "man", "man1", "shakedown.1")
        self.assertTrue(os.path.isfile(page), "no share/man/man1/shakedown.1 installed")
        env = dict(ENV, MANWIDTH="200", LC_ALL="C.UTF-8")
        p = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", page], capture_output=True, text=True, env=env)
        self.assertEqual((p.returncode, p.stderr), (0, ""), "man reports problems in the page")
        text = p.stdout.replace("\u2010", "-")
        for command in ("sum", "check", "backends"):
            self.assertIn(f"shakedown {command}", text)
            r = run([self.installed, command, "--help"])
            self.assertIn(b"Full documentation: man shakedown", r.stdout, command)
            self.assertNotIn(b"docs/", r.stdout, command)
            for option in sorted(set(re.findall(rb"(?<![\w-])--[a-z][a-z-]*", r.stdout))):
                self.assertIn(option.decode(), text, f"{command} --help has {option.decode()}, the page does not")
        self.assertIn(b"man shakedown", run([self.installed, "--help"]).stdout)

    def test_repro_is_not_a_command(self):
        r = run([self.installed, "repro", os.path.join(SOURCE_DIR, "fuzz", "corpus", "fuzz_hash")])
        self.assertEqual(r.status, 2)
        self.assertIn(b"crash reproduction is the shakedown-repro tool", r.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
