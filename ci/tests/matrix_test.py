#!/usr/bin/env python3
"""ci/matrix.py: the grammar, its errors, what select= implies, and that the real matrix of every arch reads."""
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from matrix import Matrix, MatrixError  # noqa: E402
from plan import Facts, Plan, resolve, write  # noqa: E402


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
            "what a": "starts with 'build', 'env', 'contract', 'backend' or 'expect'",
            "env a runner=qemu11 cpu=max suites=unit": "runner must be native, qemu, qemu10 or bochs",
            "env a runner=qemu10 suites=unit": "qemu10 row needs cpu=",
            "env a runner=native suites=unit needs=shani": "not FAMILY/BACKEND",
            "env a runner=native run=p suites=unit": "runs that one program",
            "env a runner=native suites=unit args=x": "arguments of run=",
            "env a runner=native suites=unit\ncontract bytes nowhere": "no env row",
            "env a runner=native suites=unit\ncontract bytes a flips=b": "flips: 'b'",
            "env a runner=native suites=unit\ncontract bytes a colour=red": "a contract line takes",
            "env a runner=native suites=unit\ncontract bytes a require=many": "require= is KIND=N",
            "env a runner=native suites=vectors\nexpect a,!a sha256/generic": "leaves no environment",
            "env a runner=native suites=vectors\nexpect a sha256/generic host-cpu=avx2": "stated once, on its backend",
            "env a runner=native suites=vectors\nexpect a sha256/generic colour=red": "takes no key=value",
            "env a runner=native suites=vectors\nbackend sha256/x86_64/a needs-cpu=AVX2\nexpect a sha256/x86_64/a":
                "as /proc/cpuinfo spells",
            "env a runner=native suites=vectors\nbackend sha256/x86_64/a colour=red\nexpect a sha256/x86_64/a":
                "'colour=red'",
            "env a runner=native suites=vectors\nbackend md5/x86_64/a\nexpect a md5/x86_64/a": "unknown family",
            "env a runner=native suites=vectors\nbackend sha256/x86_64/a lanes\nbackend sha256/x86_64/a": "twice",
            "env a runner=native suites=vectors\nbackend sha256/x86_64/a lanes": "expected nowhere",
            "env a runner=native suites=vectors\nexpect a sha256/generic\nexpect a sha256/generic QEMU diff":
                "must agree",
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

    def test_lines_for_one_backend_add_up_and_inherit_its_facts(self):
        m = matrix_of({"x86_64": """
            build host-default  preset=default  modes=test
            build host-fuzz     preset=fuzz     modes=test  checks=fuzz
            build host-tsan     preset=tsan     modes=test  checks=diff
            env qemu-x  runner=qemu  cpu=max  suites=vectors,diff
            backend sha256/x86_64/avx512  needs-cpu=avx512f+avx512bw  lanes
            backend keccak/x86_64/bmi2  needs-cpu=bmi2
            expect host-*,qemu-x  sha256/x86_64/avx512,keccak/x86_64/bmi2
            expect host-default  sha256/x86_64/avx512  native  pinned
            """})
        x = {(e.env, e.backend): e for e in m.expectations("x86_64")}
        # The lanes' suites where the environment records what they ride on; none for a backend without lanes.
        self.assertEqual(x[("host-default", "sha256/x86_64/avx512")].suites, ["vectors", "diff", "multi", "pinned"])
        self.assertEqual(x[("host-fuzz", "sha256/x86_64/avx512")].suites, ["fuzz", "fuzz-multi"])
        self.assertEqual(x[("host-tsan", "sha256/x86_64/avx512")].suites, ["diff"])
        self.assertEqual(x[("host-default", "keccak/x86_64/bmi2")].suites, ["vectors", "diff"])
        # The CPU flags condition native runs only.
        self.assertEqual(x[("host-fuzz", "sha256/x86_64/avx512")].host_cpu, ("avx512f", "avx512bw"))
        self.assertEqual(x[("host-tsan", "keccak/x86_64/bmi2")].host_cpu, ("bmi2",))
        self.assertEqual(x[("qemu-x", "sha256/x86_64/avx512")].host_cpu, ())

    def test_host_cpu_flags_come_from_the_kernel(self):
        from matrix import host_cpu_flags
        with tempfile.NamedTemporaryFile("w", suffix="cpuinfo") as f:
            f.write("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sha_ni avx2 bmi2\n\n"
                    "processor\t: 1\nflags\t\t: fpu\n")
            f.flush()
            self.assertEqual(host_cpu_flags(f.name), {"fpu", "sha_ni", "avx2", "bmi2"})
        self.assertIsNone(host_cpu_flags("/nonexistent/cpuinfo"))


class PlanTest(unittest.TestCase):
    """ci/plan.py: every entry of a build spelled out, as CMake registers it (runner, program, arguments,
    environment, labels, timeout) and as the driver and the gate look it up."""
    CROSS = Facts(cross=True, sysroot="/root", qemu="/q/qemu-aarch64", qemu_test_scale="0.05", fuzz_random_runs="7",
                  source_dir="/src")

    def test_every_env_row_becomes_its_entries(self):
        m = matrix_of({"aarch64": """
            env qemu-aarch64.max  runner=qemu cpu=max  suites=unit,vectors  fuzz=replay,random  select=sha256=arm64/ce
            env emul.x  like=qemu-aarch64.max  cpu=cortex-a72  env:A=b  labels=emul,emul.x  fuzz-targets=fuzz_hash
            """})
        records = resolve(m, "aarch64", self.CROSS)
        build = records[0]
        self.assertEqual(build["emulator"], ["/q/qemu-aarch64", "-L", "/root", "-cpu", "max", "-E",
                                             "SHAKEDOWN_TEST_SCALE=0.05"])
        tests = {t["name"]: t for t in records if t["type"] == "test"}
        self.assertEqual(list(tests), [
            "qemu-aarch64.max.shakedown_unit_tests", "qemu-aarch64.max.shakedown_vectors_tests",
            *[f"qemu-aarch64.max.{t}.{m}" for t in ("fuzz_hash", "fuzz_blocks", "fuzz_api", "fuzz_many")
              for m in ("replay", "random")],
            "emul.x.shakedown_unit_tests", "emul.x.shakedown_vectors_tests", "emul.x.fuzz_hash.replay",
            "emul.x.fuzz_hash.random"])
        unit = tests["qemu-aarch64.max.shakedown_unit_tests"]
        self.assertEqual((unit["runner"], unit["program"], unit["args"]),
                         (["/q/qemu-aarch64", "-L", "/root", "-cpu", "max"], "shakedown_unit_tests", []))
        self.assertEqual(unit["environment"], ["SHAKEDOWN_EXPECT_SELECTED=sha256=arm64/ce",
                                               "SHAKEDOWN_TEST_SCALE=0.05", "SHAKEDOWN_ENV_NAME=qemu-aarch64.max"])
        self.assertEqual((unit["labels"], unit["timeout"], unit["cost"]), (["qemu-aarch64.max"], 1500, 40))
        self.assertEqual(tests["emul.x.fuzz_hash.random"]["args"], ["-runs=7", "-seed=2", "-max_len=1024"])
        self.assertEqual(tests["emul.x.fuzz_hash.replay"]["args"], ["/src/fuzz/corpus/fuzz_hash"])
        self.assertEqual(tests["emul.x.fuzz_hash.replay"]["labels"], ["emul", "emul.x", "fuzz"])
        self.assertIn("A=b", tests["emul.x.fuzz_hash.replay"]["environment"])
        self.assertEqual(tests["emul.x.shakedown_unit_tests"]["runner"][-1], "cortex-a72")

    def test_runs_needs_contracts_and_rows_a_build_cannot_run(self):
        m = matrix_of({"x86_64": """
            env emul.p  runner=native  emulate=phe  require=x=1  needs=sha256/x86_64/phe  suites=vectors
            env emul.p.probe  runner=native  emulate=@emul.p  run=probe  args=a=1,--b  env:K=v,w
            env q10  runner=qemu10  cpu=Denverton  suites=unit  timeboxed=fuzz_hash
            build host-fuzz  preset=fuzz  timeboxed=libfuzzer
            contract padlock  emul.p  require=xsha256=6  flips=emul.p
            contract bytes  native,q10  args=1
            """})
        facts = Facts(qemu="/usr/bin/qemu-x86_64", qemu10="/q10/qemu-x86_64")
        records = resolve(m, "x86_64", facts)
        tests = {t["name"]: t for t in records if t["type"] == "test"}
        probe = tests["emul.p.probe"]
        self.assertEqual((probe["program"], probe["args"], probe["environment"]),
                         ("probe", ["a=1", "--b"], ["SHAKEDOWN_EMULATE=phe", "K=v,w"]))
        self.assertEqual((probe["needs"], probe["needs_emul"]), ([], True))
        self.assertEqual(tests["emul.p.shakedown_vectors_tests"]["needs"], ["sha256/x86_64/phe"])
        self.assertEqual(tests["q10.shakedown_unit_tests"]["runner"], ["/q10/qemu-x86_64", "-cpu", "Denverton"])
        contracts = [(c["family"], c["env"], c["environment"], c["args"], c["with_flips"])
                     for c in records if c["type"] == "contract"]
        self.assertEqual(contracts, [
            ("padlock", "emul.p", ["SHAKEDOWN_EMULATE=phe", "SHAKEDOWN_EMULATE_REQUIRE=xsha256=6"], [], True),
            ("bytes", "native", [], ["1"], False), ("bytes", "q10", [], ["1"], False)])
        jobs = [(j["env"], j["target"], j["runner"]) for j in records if j["type"] == "fuzz_job"]
        self.assertEqual(jobs[-1], ("q10", "fuzz_hash", ["/q10/qemu-x86_64", "-cpu", "Denverton"]))
        self.assertEqual(len(jobs), 5)  # the build's four targets, then the row's
        # Without QEMU 10 its row registers nothing, says why, and its fuzz job cannot run (a failure, not a skip).
        records = resolve(m, "x86_64", Facts(qemu="/usr/bin/qemu-x86_64"))
        self.assertNotIn("q10.shakedown_unit_tests", {t.get("name") for t in records})
        env = next(r for r in records if r["type"] == "env" and r["name"] == "q10")
        self.assertIn("no QEMU 10", env["why_not_registered"])
        self.assertIsNone([j for j in records if j["type"] == "fuzz_job"][-1]["runner"])
        # A sanitized build runs nothing under QEMU.
        self.assertEqual([c["env"] for c in resolve(m, "x86_64", Facts(sanitized=True, qemu="q", qemu10="q"))
                          if c["type"] == "contract"], ["emul.p", "native"])

    def test_a_bochs_row_boots_its_model_with_the_kernel_arguments_of_cpu(self):
        m = matrix_of({"x86_64": """
            env bochs-x86_64.spr  runner=bochs  cpu=sapphire_rapids  suites=vectors  select=sha512=x86_64/avx512
            env bochs-x86_64.nozmm  runner=bochs  cpu=@bochs-x86_64.spr,kernel:clearcpuid=avx512f  suites=vectors
            """})
        self.assertEqual(m.row("x86_64", "bochs-x86_64.spr").how(), "Bochs")
        records = resolve(m, "x86_64", Facts(bochs="/kit", source_dir="/src"))
        tests = {t["name"]: t for t in records if t["type"] == "test"}
        self.assertEqual(tests["bochs-x86_64.spr.shakedown_vectors_tests"]["runner"], [
            "/src/ci/bochs/run", "--kit", "/kit", "--model", "sapphire_rapids", "--with", "/src/vectors/data",
            "--with", "/src/fuzz/corpus", "--"])
        self.assertEqual(tests["bochs-x86_64.nozmm.shakedown_vectors_tests"]["runner"][-3:],
                         ["--kernel-arg", "clearcpuid=avx512f", "--"])
        expectations = [(e["env"], e["backend"], e["how"]) for e in records if e["type"] == "expectation"]
        self.assertIn(("bochs-x86_64.spr", "sha512/x86_64/avx512", "Bochs"), expectations)
        # Without the kit nothing registers, and the row says why (the gate's "not run here" reason); a sanitized
        # build never runs under an emulator.
        for facts, why in ((Facts(), "no Bochs kit"), (Facts(bochs="/kit", sanitized=True), "never run under")):
            records = resolve(m, "x86_64", facts)
            self.assertFalse([t for t in records if t["type"] == "test"])
            self.assertIn(why, next(r for r in records if r["type"] == "env")["why_not_registered"])
        for text, message in (("env a runner=bochs cpu=arrow_lake,avx512=off suites=unit", "MODEL[,kernel:ARG"),
                              ("env a runner=bochs suites=unit", "bochs row needs cpu="),
                              ):
            with self.assertRaises(MatrixError) as ctx:
                matrix_of({"x86_64": text})
            self.assertIn(message, str(ctx.exception))
        with self.assertRaises(MatrixError) as ctx:
            matrix_of({"aarch64": "env a runner=bochs cpu=arrow_lake suites=unit"})
        self.assertIn("Bochs runs x86_64 code only", str(ctx.exception))

    def test_a_third_party_row_runs_with_its_kit_or_is_not_registered(self):
        kits = tempfile.mkdtemp()
        for kit, loader, libdir in (("k-amd64", "usr/lib64/ld-linux-x86-64.so.2", "x86_64-linux-gnu"),
                                    ("k-s390x", "usr/lib/ld64.so.1", "s390x-linux-gnu")):
            os.makedirs(os.path.join(kits, kit, "root", "usr", "lib", libdir))
            open(os.path.join(kits, kit, "root", "usr", "lib", libdir, "libcrypto.so.3"), "w").close()
            with open(os.path.join(kits, kit, "loader"), "w") as f:
                f.write(loader + "\n")
            open(os.path.join(kits, kit, ".complete"), "w").close()
        m = matrix_of({"x86_64": """
            env emul.tp  runner=native  third-party=k-amd64  emulate=sha512ni  run=prog  args=a=1,b=2
            env emul.tp-absent  like=emul.tp  emulate=
            expect emul.tp  sha512/x86_64/sha512ni  emulated  third-party
            """, "s390x": """
            env emul.tp  runner=qemu  cpu=max  third-party=k-s390x  emulate=cpacf  run=prog
            """})
        self.assertEqual(m.row("x86_64", "emul.tp").checks, ["third-party"])
        self.assertEqual(m.row("x86_64", "emul.tp-absent").checks, [])
        tests = {t["name"]: t for t in resolve(m, "x86_64", Facts(third_party=kits)) if t["type"] == "test"}
        root = os.path.join(kits, "k-amd64", "root")
        loader = os.path.join(root, "usr/lib64/ld-linux-x86-64.so.2")
        libs = os.path.join(root, "usr", "lib", "x86_64-linux-gnu")
        self.assertEqual(tests["emul.tp"]["runner"], [loader, "--library-path", libs])
        self.assertEqual(tests["emul.tp"]["args"], ["a=1", "b=2"])
        self.assertIn("SHAKEDOWN_ENV_NAME=emul.tp", tests["emul.tp"]["environment"])
        # Under qemu the kit's root replaces the cross build's sysroot.
        cross = Facts(cross=True, sysroot="/sysroot", qemu="/q/qemu-s390x", third_party=kits)
        tests = {t["name"]: t for t in resolve(m, "s390x", cross) if t["type"] == "test"}
        kit_root = os.path.join(kits, "k-s390x", "root")
        self.assertEqual(tests["emul.tp"]["runner"], ["/q/qemu-s390x", "-L", kit_root, "-cpu", "max"])
        # Without the kit nothing registers, and the row says why.
        for facts in (Facts(), Facts(third_party=os.path.join(kits, "none"))):
            records = resolve(m, "x86_64", facts)
            self.assertFalse([t for t in records if t["type"] == "test"])
            self.assertIn("no third-party kit k-amd64 here",
                          next(r for r in records if r["type"] == "env")["why_not_registered"])
        with self.assertRaises(MatrixError) as ctx:
            matrix_of({"x86_64": "env a runner=native third-party=k suites=unit"})
        self.assertIn("third-party= is the kit of a run= row", str(ctx.exception))

    def test_the_plan_file_reads_back_with_what_cmake_registered(self):
        m = matrix_of({"aarch64": """
            env qemu-aarch64.max  runner=qemu cpu=max  suites=unit,vectors  modes=verify
            expect qemu-aarch64.max  */generic
            """})
        with tempfile.TemporaryDirectory() as build:
            write(os.path.join(build, "plan-aarch64.jsonl"), resolve(m, "aarch64", self.CROSS))
            with open(os.path.join(build, "plan-aarch64.registered"), "w") as f:
                f.write("qemu-aarch64.max\tqemu-aarch64.max.shakedown_unit_tests\n")
            plan = Plan.of_build(build, "aarch64")
        self.assertEqual(plan.left_out("aarch64", "test"), ["qemu-aarch64.max"])
        self.assertEqual(plan.entries_of(["qemu-aarch64.max"]), ["qemu-aarch64.max.shakedown_unit_tests"])
        self.assertEqual(sorted(e.backend for e in plan.expectations("aarch64")),
                         ["keccak/generic", "sha256/generic", "sha512/generic"])


class RealMatrixTest(unittest.TestCase):
    def test_every_arch_reads_and_every_backend_is_expected_somewhere(self):
        m = Matrix()
        self.assertEqual(sorted(m.arches()), ["aarch64", "ppc64le", "riscv64", "s390x", "x86_64"])
        for arch, backends in m.backends().items():
            for fam in ("sha256", "sha512", "keccak"):
                self.assertIn(f"{fam}/generic", backends, arch)
            self.assertTrue(m.first_qemu_cpu(arch), arch)


if __name__ == "__main__":
    unittest.main()
