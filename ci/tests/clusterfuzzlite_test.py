#!/usr/bin/env python3
"""The ClusterFuzzLite image and build script (.clusterfuzzlite/), which no local build runs as GitHub would: the
checks of ci/cflite_image.py find an unpinned base image and an OpenSSL Configure option 3.0 does not know, and a
failed build stops build.sh, run as `bash build.sh`, before it copies anything, and with it ci/fuzz-build-check."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from cflite_image import build_script_problems, dockerfile_problems  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLONE = "RUN git clone --depth 1 --branch {branch} https://github.com/openssl/openssl.git /tmp/openssl && \\\n"
CONFIGURE = "    cd /tmp/openssl && ./Configure {options} --prefix=/opt/openssl3 --libdir=lib && make install_sw\n"


def image(base="gcr.io/oss-fuzz-base/base-builder:v1", options="no-shared no-tests", branch="openssl-3.0"):
    return f"# comment\nFROM {base}\n" + CLONE.format(branch=branch) + CONFIGURE.format(options=options)


class Dockerfile(unittest.TestCase):
    def test_the_repositorys_image_passes(self):
        with open(os.path.join(ROOT, ".clusterfuzzlite", "Dockerfile"), encoding="utf-8") as f:
            self.assertEqual(dockerfile_problems(f.read()), [])
        self.assertEqual(dockerfile_problems(image()), [])

    def test_an_unpinned_base_image_is_refused(self):
        for base in ("gcr.io/oss-fuzz-base/base-builder", "gcr.io/oss-fuzz-base/base-builder:latest",
                     "localhost:5000/base-builder"):
            problems = dockerfile_problems(image(base=base))
            self.assertEqual(len(problems), 1, base)
            self.assertIn(f"Dockerfile:2: FROM {base} is not pinned", problems[0])
        self.assertEqual(dockerfile_problems(image(base="gcr.io/oss-fuzz-base/base-builder@sha256:" + "0" * 64)), [])

    def test_options_openssl_3_0_does_not_know_are_refused(self):
        problems = dockerfile_problems(image(options="no-shared no-tests no-docs"))
        self.assertEqual(problems, ["Dockerfile:3: 'no-docs' is not an option OpenSSL 3.0's Configure knows "
                                    "(it stops with \"Unsupported options: no-docs\")"])
        self.assertEqual(len(dockerfile_problems(image(options="enable-nosuch --nosuch"))), 2)
        self.assertEqual(dockerfile_problems(image(options="no-asm enable-ec_nistp_64_gcc_128 no-tls1_3 -DX=1")), [])

    def test_another_branch_is_not_judged_by_3_0s_list(self):
        problems = dockerfile_problems(image(branch="openssl-3.2"))
        self.assertEqual(len(problems), 1)
        self.assertIn("branch openssl-3.2: its options are not known here", problems[0])


class BuildScript(unittest.TestCase):
    def test_the_first_command_must_stop_at_errors(self):
        with open(os.path.join(ROOT, ".clusterfuzzlite", "build.sh"), encoding="utf-8") as f:
            self.assertEqual(build_script_problems(f.read()), [])
        self.assertEqual(build_script_problems("#!/bin/bash -eu\n# c\n\nset -euo pipefail\nx\n"), [])
        for script in ("#!/bin/bash -eu\nSOURCE_DIR=x\nset -euo pipefail\n", "#!/bin/bash\nset -e\n",
                       "#!/bin/bash -eu\ncmake .\n"):
            self.assertEqual(len(build_script_problems(script)), 1, script)

    def failing_build_env(self, tmp):
        """OSS-Fuzz's variables with a compiler that cannot compile: the configure step fails at once."""
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        return out, dict(os.environ, CC="false", CXX="false", CFLAGS="", CXXFLAGS="", LIB_FUZZING_ENGINE="",
                         SRC=ROOT, WORK=os.path.join(tmp, "work"), OUT=out)

    def test_a_failed_build_stops_build_sh_run_with_bash(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, env = self.failing_build_env(tmp)
            p = subprocess.run(["bash", os.path.join(ROOT, ".clusterfuzzlite", "build.sh")], env=env,
                               capture_output=True, text=True, timeout=300)
            self.assertNotEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertEqual(os.listdir(out), [], "build.sh copied files after its build failed")

    def test_a_failed_build_stops_fuzz_build_check(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, env = self.failing_build_env(tmp)
            env.update(TMPDIR=tmp, FUZZ_CHECK_COVERAGE="0")
            p = subprocess.run([os.path.join(ROOT, "ci", "fuzz-build-check")], env=env, capture_output=True,
                               text=True, timeout=300)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn("build.sh failed", p.stdout + p.stderr)
            self.assertNotIn("PASS", p.stdout)
            self.assertNotIn("cflite_paths", p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
