#!/usr/bin/env python3
"""ci/matrix.py: the grammar, its errors, what select= implies, and that the real matrix of every arch reads."""
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from matrix import Matrix, MatrixError  # noqa: E402


def matrix_of(files):
    d = tempfile.mkdtemp()
    m = os.path.join(d, "ci", "matrix")
    os.makedirs(m)
    for name, text in files.items():
        with open(os.path.join(m, name + ".txt"), "w") as f:
            f.write(textwrap.dedent(text))
    return Matrix(m)


class GrammarTest(unittest.TestCase):
    def test_like_and_cpu_references_write_each_value_once(self):
        m = matrix_of({"s390x": """
            env qemu-s390x.max  runner=qemu cpu=max,a=on  suites=unit,vectors  labels=x  env:K=1
            env emul.y  like=qemu-s390x.max  emulate=cpacf:sha256  suites=vectors
            env emul.z  runner=qemu  cpu=@qemu-s390x.max  self-test=emul_cpacf
            env emul.w  like=emul.y  labels=  env:K=2
            """})
        y, z, w = m.row("s390x", "emul.y"), m.row("s390x", "emul.z"), m.row("s390x", "emul.w")
        self.assertEqual(y.get("cpu"), "max,a=on")
        self.assertEqual(y.items("suites"), ["vectors"])
        self.assertEqual(y.items("labels"), ["x"])
        self.assertEqual(z.get("cpu"), "max,a=on")
        self.assertEqual(w.items("labels"), [])
        self.assertEqual(w.extra_env, ["K=2"])
        self.assertEqual(m.first_qemu_cpu("s390x"), "max,a=on")

    def test_errors_name_the_line(self):
        cases = {
            "env a runner=qemu suites=unit": "qemu row needs cpu=",
            "env a runner=native suites=unit colour=red": "unknown key 'colour'",
            "env a like=nowhere suites=unit": "like=nowhere",
            "env a runner=qemu cpu=@nowhere suites=unit": "cpu=@nowhere",
            "env a runner=native": "runs nothing",
            "env a runner=native suites=unit select=sha256:generic": "not FAMILY=BACKEND",
            "env a runner=native suites=unit\nenv a runner=native suites=unit": "declared twice",
            "env a runner=native suites=unit filter=a;b": "not allowed",
            "env a runner=native suites=unit filter=$x": "not allowed in env rows",
            "build b": "needs preset=",
            "build b preset=p modes=sometimes": "modes",
            "expect nowhere sha256/generic": "matches no environment",
            "env a runner=native suites=vectors\nexpect a sha256/generic sometimes": "unknown record suite",
            "env a runner=native suites=unit\nexpect a sha256/generic": "matches no environment",
            "what a": "starts with 'build', 'env', 'contract' or 'expect'",
            "env a runner=qemu11 cpu=max suites=unit": "runner must be native, qemu or qemu10",
            "env a runner=qemu10 suites=unit": "qemu10 row needs cpu=",
            "env a runner=native suites=unit needs=shani": "not FAMILY/BACKEND",
            "env a runner=native run=p suites=unit": "runs that one program",
            "env a runner=native suites=unit args=x": "arguments of run=",
            "env a runner=native suites=unit\ncontract bytes nowhere": "no env row",
            "env a runner=native suites=unit\ncontract bytes a flips=b": "flips: 'b'",
            "env a runner=native suites=unit\ncontract bytes a colour=red": "a contract line takes",
            "env a runner=native suites=unit\ncontract bytes a require=many": "require= is KIND=N",
            "env a runner=native suites=vectors\nexpect a,!a sha256/generic": "leaves no environment",
            "env a runner=native suites=vectors\nexpect a sha256/generic host-cpu=AVX2": "as /proc/cpuinfo spells",
            "env a runner=native suites=vectors\nexpect a sha256/generic host-cpu=avx2 host-cpu=bmi2": "one key",
            "env a runner=native suites=vectors\nexpect a sha256/generic colour=red": "one key, host-cpu=",
            "env a runner=native suites=vectors\nexpect a sha256/generic QEMU host-cpu=avx2": "a native run",
            "env a runner=qemu cpu=max suites=vectors\nexpect a sha256/generic host-cpu=avx2": "runs under qemu",
            "env a runner=native suites=vectors\nexpect a sha256/generic host-cpu=avx2\n"
            "expect a sha256/generic diff": "must agree",
            # a.full's entries a.full.* are a.* too: left out wherever a is, it cannot run where a does not
            "env a runner=native suites=unit modes=test\nenv a.full like=a modes=verify": "extends 'a' with a dot",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(MatrixError) as ctx:
                    matrix_of({"x86_64": text})
                self.assertIn(message, str(ctx.exception))
                self.assertRegex(str(ctx.exception), r"ci/matrix/x86_64\.txt:\d+")

    def test_a_nested_name_may_run_in_fewer_modes(self):
        m = matrix_of({"x86_64": """
            env a  runner=native  suites=unit
            env a.one  runner=native  run=p  modes=verify
            env b  runner=native  suites=unit  modes=test
            env b-full  like=b  modes=verify
            """})
        self.assertEqual([r.name for r in m.envs("x86_64")], ["a", "a.one", "b", "b-full"])

    def test_a_cross_arch_has_no_native_rows(self):
        with self.assertRaises(MatrixError):
            matrix_of({"s390x": "env a runner=native suites=unit"})
        with self.assertRaises(MatrixError) as ctx:
            matrix_of({"s390x": "env a runner=qemu cpu=max suites=unit\ncontract bytes native"})
        self.assertIn("cross arch", str(ctx.exception))

    def test_a_reference_with_more_items_and_the_new_keys(self):
        m = matrix_of({"riscv64": """
            env qemu10-riscv64.v128  runner=qemu10  cpu=rv64,v=true,vlen=128  suites=vectors  modes=verify
            env qemu10-riscv64.v128-c  runner=qemu10  cpu=@qemu10-riscv64.v128,rvv_ta_all_1s=true  run=c  args=--x,y
            """})
        v, conf = m.row("riscv64", "qemu10-riscv64.v128"), m.row("riscv64", "qemu10-riscv64.v128-c")
        self.assertEqual(conf.get("cpu"), "rv64,v=true,vlen=128,rvv_ta_all_1s=true")
        self.assertEqual(conf.items("args"), ["--x", "y"])
        self.assertTrue(v.in_mode("verify"))
        self.assertFalse(v.in_mode("test"))
        self.assertTrue(conf.in_mode("test"))
        self.assertEqual(v.how(), "QEMU")

    def test_a_row_that_only_hosts_contract_runs(self):
        m = matrix_of({"x86_64": """
            env emul.p  runner=native  emulate=phe  suites=vectors
            env emul.q  like=emul.p  suites=
            contract padlock  emul.p,emul.q  require=xsha256=6  flips=emul.p
            contract bytes  native
            """})
        self.assertEqual([c.envs for c in m.contracts["x86_64"]], [["emul.p", "emul.q"], ["native"]])
        with self.assertRaises(MatrixError):
            matrix_of({"x86_64": "env emul.p runner=native emulate=phe suites=vectors\nenv emul.q like=emul.p suites="})


class ExpectationTest(unittest.TestCase):
    def setUp(self):
        self.m = matrix_of({"riscv64": """
            build cross-riscv64  preset=cross-riscv64  modes=test
            env qemu-riscv64.a  runner=qemu cpu=rv64  suites=unit,vectors,diff  fuzz=replay  select=sha256=generic,keccak=generic
            env emul.zvk  runner=qemu cpu=rv64  suites=vectors,diff  filter=*sha256__riscv64_zvknha*:-*Monte*  select=sha256=riscv64/zvknha,keccak=generic  emulate=zvk
            expect qemu-*,cross-*  */generic
            expect emul.zvk  sha512/riscv64/zvknhb  QEMU  vectors
            """})
        self.e = {(x.env, x.backend): x for x in self.m.expectations("riscv64")}

    def test_groups_and_every_family(self):
        for fam in ("sha256", "sha512", "keccak"):
            self.assertIn(("qemu-riscv64.a", f"{fam}/generic"), self.e)
            self.assertIn(("cross-riscv64", f"{fam}/generic"), self.e)
        self.assertEqual(self.e[("qemu-riscv64.a", "sha512/generic")].suites, ["vectors", "diff", "fuzz"])
        self.assertEqual(self.e[("cross-riscv64", "sha512/generic")].suites, ["vectors", "diff"])
        self.assertEqual(self.e[("qemu-riscv64.a", "sha512/generic")].how, "QEMU")

    def test_a_selection_is_an_expectation_unless_the_filter_leaves_it_out(self):
        implied = self.e[("emul.zvk", "sha256/riscv64/zvknha")]
        self.assertTrue(implied.implied)
        self.assertEqual(implied.how, "emulated")
        self.assertNotIn(("emul.zvk", "keccak/generic"), self.e)

    def test_an_excluded_pattern_takes_environments_out(self):
        m = matrix_of({"x86_64": """
            build host-default   preset=default  modes=test
            build host-valgrind  preset=valgrind  modes=test  checks=ct
            expect host-*,!host-valgrind  sha256/x86_64/shani
            expect host-*  sha256/generic
            """})
        e = {(x.env, x.backend) for x in m.expectations("x86_64")}
        self.assertIn(("host-default", "sha256/x86_64/shani"), e)
        self.assertNotIn(("host-valgrind", "sha256/x86_64/shani"), e)
        self.assertIn(("host-valgrind", "sha256/generic"), e)

    def test_explicit_how_and_suites(self):
        x = self.e[("emul.zvk", "sha512/riscv64/zvknhb")]
        self.assertEqual((x.how, x.suites), ("QEMU", ["vectors"]))

    def test_an_explicit_line_adds_to_what_select_requires_and_never_narrows_it(self):
        m = matrix_of({"x86_64": """
            build host-default  preset=default  modes=test
            env qemu-x86_64.avx2  runner=qemu cpu=max  suites=vectors,diff  fuzz=replay  select=sha256=x86_64/avx2
            expect qemu-x86_64.avx2  sha256/x86_64/avx2  QEMU  multi fuzz-multi
            """})
        x = {(e.env, e.backend): e for e in m.expectations("x86_64")}[("qemu-x86_64.avx2", "sha256/x86_64/avx2")]
        self.assertEqual(x.suites, ["vectors", "diff", "fuzz", "multi", "fuzz-multi"])


    def test_lines_for_one_backend_add_up_and_carry_their_host_cpu(self):
        m = matrix_of({"x86_64": """
            build host-default  preset=default  modes=test
            build host-fuzz     preset=fuzz     modes=test  checks=fuzz
            expect host-*  sha256/x86_64/avx512  host-cpu=avx512f+avx512bw
            expect host-default  sha256/x86_64/avx512  native  multi  host-cpu=avx512f+avx512bw
            """})
        x = {(e.env, e.backend): e for e in m.expectations("x86_64")}
        self.assertEqual(x[("host-default", "sha256/x86_64/avx512")].suites, ["vectors", "diff", "multi"])
        self.assertEqual(x[("host-fuzz", "sha256/x86_64/avx512")].suites, ["fuzz"])
        self.assertEqual(x[("host-fuzz", "sha256/x86_64/avx512")].host_cpu, ("avx512f", "avx512bw"))

    def test_host_cpu_flags_come_from_the_kernel(self):
        from matrix import host_cpu_flags
        with tempfile.NamedTemporaryFile("w", suffix="cpuinfo") as f:
            f.write("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sha_ni avx2 bmi2\n\n"
                    "processor\t: 1\nflags\t\t: fpu\n")
            f.flush()
            self.assertEqual(host_cpu_flags(f.name), {"fpu", "sha_ni", "avx2", "bmi2"})
        self.assertIsNone(host_cpu_flags("/nonexistent/cpuinfo"))


class CmakeTest(unittest.TestCase):
    def test_every_env_row_becomes_one_call(self):
        m = matrix_of({"aarch64": """
            env qemu-aarch64.max  runner=qemu cpu=max  suites=unit,vectors  fuzz=replay,random  select=sha256=arm64/ce
            env emul.x  like=qemu-aarch64.max  cpu=cortex-a72  env:A=b  labels=emul,emul.x
            """})
        text = m.cmake("aarch64")
        self.assertIn('set(SHAKEDOWN_MATRIX_FIRST_QEMU_CPU "max")', text)
        self.assertIn('shakedown_add_variant("qemu-aarch64.max" "RUNNER" "qemu" "CPU" "max" '
                      '"SELECT" "sha256=arm64/ce" "SUITES" "unit" "vectors" "FUZZ" "replay" "random")', text)
        self.assertIn('"LABELS" "emul" "emul.x" "ENV" "A=b")', text)
        self.assertEqual(text.count("shakedown_add_variant("), 2)

    def test_runs_needs_and_contracts(self):
        m = matrix_of({"x86_64": """
            env emul.p  runner=native  emulate=phe  needs=sha256/x86_64/phe  suites=vectors
            env emul.p.probe  runner=native  emulate=@emul.p  run=probe  args=a=1,--b  env:K=v,w
            env q10  runner=qemu10  cpu=Denverton  suites=unit
            contract padlock  emul.p  require=xsha256=6  flips=emul.p
            contract bytes  native,q10  args=1
            """})
        text = m.cmake("x86_64")
        self.assertIn('shakedown_add_variant("emul.p" "RUNNER" "native" "EMULATE" "phe" "NEEDS" "sha256/x86_64/phe" '
                      '"SUITES" "vectors")', text)
        self.assertIn('shakedown_add_variant("emul.p.probe" "RUNNER" "native" "EMULATE" "phe" "RUN" "probe" "ARGS" '
                      '"a=1" "--b" "ENV" "K=v,w")', text)
        self.assertIn('shakedown_add_variant("q10" "RUNNER" "qemu10" "CPU" "Denverton"', text)
        self.assertIn('shakedown_add_contract("padlock" "emul.p" "RUNNER" "native" "EMULATE" "phe" "NEEDS" '
                      '"sha256/x86_64/phe" "REQUIRE" "xsha256=6" "WITH_FLIPS")', text)
        self.assertIn('shakedown_add_contract("bytes" "native" "RUNNER" "native" "ARGS" "1")', text)
        self.assertIn('shakedown_add_contract("bytes" "q10" "RUNNER" "qemu10" "CPU" "Denverton" "ARGS" "1")', text)


class RealMatrixTest(unittest.TestCase):
    def test_every_arch_reads_and_every_backend_is_expected_somewhere(self):
        m = Matrix()
        self.assertEqual(sorted(m.arches()), ["aarch64", "riscv64", "s390x", "x86_64"])
        for arch, backends in m.backends().items():
            for fam in ("sha256", "sha512", "keccak"):
                self.assertIn(f"{fam}/generic", backends, arch)
            self.assertTrue(m.first_qemu_cpu(arch), arch)


if __name__ == "__main__":
    unittest.main()
