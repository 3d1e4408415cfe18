#!/usr/bin/env python3
"""shakedown-repro finds real crashes: built with a deliberately broken emulated backend (-DSHAKEDOWN_TEST_BREAK=
sha256/x86_64/phe, a library-only build of shakedown-repro beside this one), an input that makes each target's runs
disagree there must be reported as a MISMATCH (status 1)
- named as libFuzzer names it in the current folder, crash-<sha1>, which names no target: every target's decoder
  runs (replaying it as fuzz_hash alone called a fuzz_blocks crash "OK");
- named as ci/verify's time-boxed fuzzing names it, fuzz-emul.phe-zhaoxin-strict-<target>-crash-<sha1>, with nothing
  set by hand: repro sets up the environment's emulated profile from the build's plan (without it the PadLock
  backend is unavailable and every run agrees), and likewise with --env;
and without the environment the same inputs agree, so each finding is the broken backend's.

The inputs are written here against the plan formats (fuzz/README.md) and the break's trigger (lib/src/
test_break.cc: a call of two or more SHA-256 blocks whose last starts with a byte whose low nibble is 5).

Usage: repro_crash_test.py SOURCE_DIR WORK_DIR CMAKE GENERATOR CC CXX BUILD_TYPE"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE, WORK, CMAKE, GENERATOR, CC, CXX, BUILD_TYPE = (sys.argv[1:8] + [""] * 7)[:7]
VICTIM = "sha256/x86_64/phe"
ENV = "emul.phe-zhaoxin-strict"  # ci/matrix/x86_64.txt: the PadLock model, whose profile makes x86_64/phe available
PROFILE = {"SHAKEDOWN_EMULATE": "phe:zhaoxin,strict", "SHAKEDOWN_TEST_ASSUME": "zhaoxin-phe"}


def blocks_input():
    """fuzz_blocks: the SHA-256 seed of four blocks, its last block starting with 0x55."""
    with open(os.path.join(SOURCE, "fuzz", "corpus", "fuzz_blocks", "seed-sha256-4blocks"), "rb") as f:
        data = bytearray(f.read())
    data[4 + 32 + 3 * 64] = 0x55  # header, state, three blocks
    return bytes(data)


INPUTS = {
    # sha256 (algorithm 1), offsets 0, no update sizes: the 200-byte message is one update of three blocks.
    "fuzz_hash": bytes([1, 0, 0, 0]) + b"\x55" * 200,
    "fuzz_blocks": blocks_input(),
    # Six times: create slot 0 as SHA-256 on the backend named by choice 8..13 (choice mod the available count,
    # so PadLock's whatever its place in the list), update 255 bytes of 0x55, final with the right length.
    "fuzz_api": b"".join(bytes([0, c << 4, 1]) + bytes([1, 0, 255]) + b"\x55" * 255 + bytes([3, 0, 32])
                         for c in range(8, 14)),
    # hash_many(sha256) of two messages of two blocks each (size class 5), cut from a pool of 0x55.
    "fuzz_many": bytes([1, 2, 0, 0xA1, 0xA1]) + b"\x55" * 600,
}


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def unoptimised():
    """The -D options that compile the broken build at -O0 without debug info (the build type's NDEBUG kept): the
    build type's flags, the suites' own (SHAKEDOWN_TEST_CODE_FLAGS) and the backends' -O3 (SHAKEDOWN_HOT_CODE_FLAGS).
    It replays a few small inputs, so optimisation buys nothing there, while at the build type's -O2 -g and the
    backends' -O3 this build of the library, the test support and the repro tool was the longest entry of ci/test
    (183 s of host-default's test phase, 345 s of compiler time)."""
    flags = ["-DSHAKEDOWN_HOT_CODE_FLAGS=", "-DSHAKEDOWN_TEST_CODE_FLAGS=-O0 -g0"]
    if not BUILD_TYPE:  # no build type, no such flags: -O0 already
        return flags
    ndebug = " -DNDEBUG" if BUILD_TYPE.upper() in ("RELEASE", "RELWITHDEBINFO", "MINSIZEREL") else ""
    return flags + [f"-DCMAKE_{lang}_FLAGS_{BUILD_TYPE.upper()}=-O0 -g0{ndebug}" for lang in ("C", "CXX")]


class BrokenBuild:
    repro = None

    @classmethod
    def build(cls):
        """Configures and builds shakedown-repro with the victim broken (incremental after the first run)."""
        if cls.repro:
            return cls.repro
        build = os.path.join(WORK, "repro-broken")
        configure = [CMAKE, "-S", SOURCE, "-B", build, "-G", GENERATOR, f"-DCMAKE_C_COMPILER={CC}",
                     f"-DCMAKE_CXX_COMPILER={CXX}", f"-DCMAKE_BUILD_TYPE={BUILD_TYPE}",
                     f"-DSHAKEDOWN_TEST_BREAK={VICTIM}", "-DSHAKEDOWN_BUILD_BENCH=OFF", "-DSHAKEDOWN_BUILD_TOOLS=OFF",
                     "-DSHAKEDOWN_PACKAGE_TESTS=OFF"] + unoptimised()
        for cmd in (configure, [CMAKE, "--build", build, "--target", "shakedown_repro", "-j2"]):
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stdout[-4000:]}{p.stderr[-4000:]}")
        cls.repro = os.path.join(build, "fuzz", "shakedown-repro")
        return cls.repro


class RealCrashes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.repro = BrokenBuild.build()

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def run_repro(self, *args, env=None):
        environment = {k: v for k, v in os.environ.items() if not k.startswith("SHAKEDOWN_")}
        environment.update(env or {})
        return subprocess.run([self.repro, *args], capture_output=True, text=True, cwd=self.dir, env=environment,
                              timeout=300)

    def place(self, name, data):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)
        return name

    def assert_mismatch(self, p, file, target):
        self.assertEqual(p.returncode, 1, p.stdout[-3000:] + p.stderr)
        # fuzz_api names the operation whose output differs (a final on the PadLock slot), the others the backend.
        where = "op #[0-9]+ final slot#0" if target == "fuzz_api" else "[^\n]*x86_64/phe"
        self.assertRegex(p.stdout, rf"RESULT {file} as {target}: MISMATCH in {where}")

    def test_libfuzzers_crash_sha1_of_each_target_runs_every_decoder(self):
        # As after `./fuzz_blocks` run by hand in that environment: the profile set, the file in the current folder.
        for target, data in INPUTS.items():
            with self.subTest(target=target):
                name = self.place(f"crash-{sha1(data)}", data)
                p = self.run_repro(name, env=PROFILE)
                self.assert_mismatch(p, name, target)
                self.assertRegex(p.stdout, rf"RESULT {name}: MISMATCH as [^\n]*{target}[^\n]*the target was guessed")
                self.assertIn("no target named", p.stderr)

    def test_a_crash_of_an_emulated_environment_sets_up_its_profile(self):
        for target, data in INPUTS.items():
            with self.subTest(target=target):
                name = self.place(f"fuzz-{ENV}-{target}-crash-{sha1(data)}", data)
                p = self.run_repro(name)
                self.assert_mismatch(p, name, target)
                self.assertIn(f"environment '{ENV}' (from the file name): SHAKEDOWN_EMULATE=phe:zhaoxin,strict "
                              f"SHAKEDOWN_TEST_ASSUME=zhaoxin-phe", p.stderr)
                self.assertNotIn("SHAKEDOWN_EMULATE_REQUIRE", p.stderr)  # a minimum for long runs, not one input

    def test_env_option_sets_up_the_profile(self):
        for target, data in INPUTS.items():
            with self.subTest(target=target):
                name = self.place(f"{target}-crash-{sha1(data)}", data)
                self.assert_mismatch(self.run_repro("--env", ENV, name), name, target)

    def test_without_the_environment_every_run_agrees(self):
        # The control: the broken backend is unavailable without its profile, so nothing else is wrong.
        for target, data in INPUTS.items():
            with self.subTest(target=target):
                name = self.place(f"{target}-crash-{sha1(data)}", data)
                p = self.run_repro(name)
                self.assertEqual(p.returncode, 0, p.stdout[-3000:] + p.stderr)
                self.assertIn(f"RESULT {name} as {target}: OK", p.stdout)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
