#!/usr/bin/env python3
"""The coverage gate and its reports: it must fail when an expected backend did not run, when a backend's output
was wrong (and say which backend), when a ctest entry failed however it ended, and when a compiled backend is
required nowhere; every report format must show the same failures."""
import html
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify_report.py")

X86 = """\
    build host-default  preset=default  modes=test
    build host-fuzz     preset=fuzz     modes=test  checks=fuzz
    env qemu-x86_64.avx2  runner=qemu  cpu=max  suites=vectors,diff  select=sha256=x86_64/avx2
    expect host-*  sha256/x86_64/shani
    expect host-default  sha256/x86_64/avx2
    expect host-default  */generic
    """
S390X = """\
    env qemu-s390x.max  runner=qemu  cpu=max  suites=vectors  select=sha512=s390x/cpacf
    """


def rec(env, family, backend, suite="vectors", count=5, check="x", arch="x86_64"):
    return {"suite": suite, "family": family, "backend": backend, "check": check, "count": count, "env": env,
            "arch": arch}


def compiled(*backends, arch="x86_64", env="host-default"):
    return [rec(env, b.split("/", 1)[0], b.split("/", 1)[1], suite="compiled", count=1, check="available", arch=arch)
            for b in backends]


def failure(env, test, backend="", arch="x86_64"):
    fam, _, name = backend.partition("/")
    return {"suite": "failure", "family": fam, "backend": name, "check": test, "count": 1, "env": env, "arch": arch}


def result(test, status="failed", kind="Failed", env="host-default", build="host-default", in_flight="", arch="x86_64"):
    return {"build": build, "arch": arch, "test": test, "status": status, "kind": kind if status == "failed" else "",
            "env": env, "time": 0.1, "in_flight": in_flight, "output": "", "command": ["/b/" + test.split(".")[0]],
            "environment": [f"SHAKEDOWN_ENV_NAME={env}"], "cwd": "/b"}


# A run of the small x86 matrix in which everything expected ran.
def healthy():
    out = compiled("sha256/x86_64/shani", "sha256/x86_64/avx2", "sha256/generic", "sha512/generic", "keccak/generic")
    for b in ("sha256/x86_64/shani", "sha256/x86_64/avx2", "sha256/generic", "sha512/generic", "keccak/generic"):
        fam, _, name = b.partition("/")
        out += [rec("host-default", fam, name), rec("host-default", fam, name, suite="diff")]
    out += [rec("host-fuzz", "sha256", "x86_64/shani", suite="fuzz")]
    out += [rec("qemu-x86_64.avx2", "sha256", "x86_64/avx2", suite=s) for s in ("vectors", "diff", "multi")]
    return out


class GateTest(unittest.TestCase):
    def run_gate(self, records, results=(), extra=(), files=None):
        with tempfile.TemporaryDirectory() as d:
            mdir = os.path.join(d, "ci", "matrix")
            os.makedirs(mdir)
            for arch, text in (files or {"x86_64": X86}).items():
                with open(os.path.join(mdir, arch + ".txt"), "w") as f:
                    f.write(textwrap.dedent(text))
            with open(os.path.join(d, "records.jsonl"), "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
            with open(os.path.join(d, "results.jsonl"), "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in results)
            out = os.path.join(d, "out")
            p = subprocess.run([sys.executable, REPORT, "--matrix", mdir, "--records", os.path.join(d, "records.jsonl"),
                                "--results", os.path.join(d, "results.jsonl"), "--out", out,
                                "--arches", ",".join(files or ["x86_64"]), *extra], capture_output=True, text=True)
            reports = {}
            for name in ("report.md", "report.json", "report.html"):
                if os.path.exists(os.path.join(out, name)):
                    with open(os.path.join(out, name)) as f:
                        reports[name] = f.read()
            return p.returncode, p.stdout + p.stderr, reports

    def test_all_expected_backends_ran(self):
        rc, out, reports = self.run_gate(healthy())
        self.assertEqual(rc, 0, out)
        self.assertIn("native pass (v5 d5)", out)
        self.assertIn("QEMU pass (v5 d5 l5)", out)  # a multi-lane function's own checks are shown apart
        self.assertIn("every expected backend ran", out)
        data = json.loads(reports["report.json"])
        self.assertEqual(data["schema"], 4)
        self.assertEqual((data["problems"], data["crashes"]), ([], []))
        self.assertEqual(data["run"]["arches"], "x86_64")

    def test_third_party_code_on_a_model_is_required_and_named(self):
        matrix = X86 + ("env emul.third-party.sha512ni  runner=native  third-party=openssl-forky-amd64  "
                        "emulate=sha512ni  run=shakedown_third_party_openssl  args=absent\n"
                        "expect emul.third-party.sha512ni  sha512/x86_64/sha512ni  emulated  third-party\n")
        code = "OpenSSL 3.6.5 (Debian libcrypto.so.3)"
        recs = healthy() + compiled("sha512/x86_64/sha512ni")
        ran = [rec("emul.third-party.sha512ni", "sha512", "x86_64/sha512ni", suite="third-party", count=1160,
                   check=code)]
        # What the model executed for those digests: two algorithms' records of one kind add up, and no cell counts
        # them as checks (the cell still says t1160 only).
        ran += [rec("emul.third-party.sha512ni", "sha512", "x86_64/sha512ni", suite="third-party-instructions",
                    count=n, check=f"{code}: {kind}")
                for kind, n in (("vsha512rnds2", 29200), ("vsha512rnds2", 29200), ("vsha512msg1", 11680))]
        rc, out, reports = self.run_gate(recs + ran, files={"x86_64": matrix})
        self.assertEqual(rc, 0, out)
        self.assertIn("emulated pass (t1160)", out)
        # Which third-party code ran on which model, and what the model executed for it: in every format.
        self.assertRegex(out, r"emul\.third-party\.sha512ni +sha512/x86_64/sha512ni +OpenSSL 3\.6\.5 \(Debian "
                              r"libcrypto\.so\.3\) +1160 +vsha512msg1 11,680, vsha512rnds2 58,400")
        self.assertIn(f"| emul.third-party.sha512ni | sha512/x86_64/sha512ni | {code} | 1160 | vsha512msg1 11,680, "
                      "vsha512rnds2 58,400 |", reports["report.md"])
        self.assertIn(code, reports["report.html"])
        self.assertIn("vsha512rnds2 58,400", reports["report.html"])
        self.assertEqual(json.loads(reports["report.json"])["third_party"],
                         [{"env": "emul.third-party.sha512ni", "backend": "sha512/x86_64/sha512ni", "code": code,
                           "digests": 1160, "instructions": {"vsha512rnds2": 58400, "vsha512msg1": 11680}}])
        # A third-party run that recorded nothing (its kit was not fetched, so it was not registered) fails.
        rc, out, _ = self.run_gate(recs, files={"x86_64": matrix})
        self.assertEqual(rc, 1)
        self.assertIn("sha512/x86_64/sha512ni in emul.third-party.sha512ni", out)
        self.assertNotIn("third-party code on the models", out)

    def test_backend_that_did_not_run_fails_the_gate(self):
        recs = [r for r in healthy() if not (r["env"] == "host-fuzz")]
        rc, out, _ = self.run_gate(recs)
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/shani in host-fuzz: environment did not run at all", out)
        recs = [r for r in healthy() if not (r["backend"] == "x86_64/avx2" and r["suite"] == "diff"
                                             and r["env"] == "qemu-x86_64.avx2")]
        rc, out, _ = self.run_gate(recs)
        self.assertEqual(rc, 1)
        # The expectation comes from select= of the CPU model: written once, checked anyway.
        self.assertIn("sha256/x86_64/avx2 in qemu-x86_64.avx2: expected to run (QEMU) but recorded zero diff", out)

    def test_a_backend_the_host_cpu_cannot_run_is_required_only_where_it_can(self):
        files = {"x86_64": X86 + ("    backend sha256/x86_64/avx512  needs-cpu=avx512f+avx512bw\n"
                                  "    expect host-default  sha256/x86_64/avx512\n")}
        recs = healthy() + compiled("sha256/x86_64/avx512")
        # A host without AVX-512: not required natively, and the report says why; but a compiled backend that ran
        # nowhere on this host is a failing "not run here" row, never a silent pass.
        rc, out, reports = self.run_gate(recs, files=files, extra=["--host-cpu-flags", "sha_ni avx2 bmi2"])
        self.assertEqual(rc, 1, out)
        self.assertIn("sha256/x86_64/avx512 is not required in host-default: this host's CPU lacks avx512bw, "
                      "avx512f", out)
        self.assertRegex(out, r"\nsha256/x86_64/avx512 +not run here: this host's CPU lacks avx512bw, avx512f and "
                              r"no emulator environment ran it")
        self.assertIn("- sha256/x86_64/avx512 (x86_64): not run here:", out)
        self.assertIn("| sha256/x86_64/avx512 | not run here:", reports["report.md"])
        self.assertIn("not run here:", reports["report.html"])
        # Bochs ran it: the AVX2-only host passes, the row shows where it ran.
        bochs = files["x86_64"] + ("    env bochs-x86_64.spr  runner=bochs  cpu=sapphire_rapids  suites=vectors,diff\n"
                                   "    expect bochs-x86_64.spr  sha256/x86_64/avx512  Bochs\n")
        ran_in_bochs = recs + [rec("bochs-x86_64.spr", "sha256", "x86_64/avx512", suite=s) for s in ("vectors", "diff")]
        rc, out, _ = self.run_gate(ran_in_bochs, files={"x86_64": bochs}, extra=["--host-cpu-flags", "sha_ni avx2"])
        self.assertEqual(rc, 0, out)
        self.assertRegex(out, r"sha256/x86_64/avx512 .*Bochs pass \(v5 d5\)")
        # ... and its Bochs row is required like any other: an empty Bochs run fails.
        rc, out, _ = self.run_gate(recs, files={"x86_64": bochs}, extra=["--host-cpu-flags", "sha_ni avx2"])
        self.assertEqual(rc, 1, out)
        self.assertIn("sha256/x86_64/avx512 in bochs-x86_64.spr: environment did not run at all", out)
        # A host with it: required, and missing.
        rc, out, _ = self.run_gate(recs, files=files, extra=["--host-cpu-flags", "sha_ni avx2 bmi2 avx512f avx512bw"])
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/avx512 in host-default: expected to run (native) but recorded zero vectors", out)
        # Flags that cannot be read keep the expectation: never a silent pass.
        sys.path.insert(0, os.path.dirname(REPORT))
        from gate import _on_this_host
        from matrix import Expectation
        e = Expectation("host-default", "sha256/x86_64/avx512", "native", ["vectors"], "m:1", "x86_64",
                        host_cpu=("avx512f",))
        kept, notes, _ = _on_this_host([e], None)
        self.assertEqual(kept, [e])
        self.assertIn("could not be read", notes[0])
        ran = recs + [rec("host-default", "sha256", "x86_64/avx512", suite=s) for s in ("vectors", "diff")]
        rc, out, _ = self.run_gate(ran, files=files, extra=["--host-cpu-flags", "avx512f avx512bw"])
        self.assertEqual(rc, 0, out)

    def test_a_compiled_backend_no_environment_requires_fails_the_gate(self):
        files = {"x86_64": X86.replace("    expect host-*  sha256/x86_64/shani\n", "")}
        rc, out, _ = self.run_gate(healthy(), files=files)
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/shani is compiled for x86_64 but no environment of ci/matrix/x86_64.txt "
                      "requires it", out)

    def test_an_expected_backend_that_is_not_compiled(self):
        recs = [r for r in healthy() if not (r["backend"] == "x86_64/shani")]
        rc, out, _ = self.run_gate(recs)
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/shani in host-default: not compiled into this build", out)

    def test_a_failure_is_charged_to_the_backend_that_was_wrong(self):
        # A handoff test parameterised on avx2 found shani wrong: only shani's cell fails.
        recs = healthy() + [failure("host-default", "EveryBackend/HandoffDiff.ContextRebindMidStream/sha256__x86_64_avx2",
                                    "sha256/x86_64/shani")]
        res = [result("diff.EveryBackend/HandoffDiff.ContextRebindMidStream/sha256__x86_64_avx2")]
        rc, out, _ = self.run_gate(recs, res)
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"sha256/x86_64/shani +native FAIL")
        self.assertRegex(out, r"sha256/x86_64/avx2 +native pass")
        self.assertNotIn("sha256/x86_64/avx2 in host-default: FAILED", out)

    def test_an_uncharged_failure_is_read_from_its_parameter_in_every_family(self):
        recs = healthy() + compiled("keccak/x86_64/bmi2", "sha512/x86_64/avx2") + [
            rec("host-default", "keccak", "x86_64/bmi2"), rec("host-default", "keccak", "x86_64/bmi2", suite="diff"),
            rec("host-default", "sha512", "x86_64/avx2"), rec("host-default", "sha512", "x86_64/avx2", suite="diff"),
            failure("host-default", "EveryBackend/BlockDiff.RandomStatesAndBlockCounts/keccak__x86_64_bmi2"),
            failure("host-default", "EveryBackend/HashDiff.X/sha224__generic")]
        files = {"x86_64": X86 + "    expect host-default  keccak/x86_64/bmi2\n    expect host-default  sha512/x86_64/avx2\n"}
        rc, out, _ = self.run_gate(recs, files=files)
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"keccak/x86_64/bmi2 +native FAIL")
        self.assertRegex(out, r"sha256/generic +native FAIL")
        self.assertRegex(out, r"sha512/x86_64/avx2 +native pass")

    def test_every_failed_entry_is_counted_however_it_ended(self):
        res = [result("diff.EveryBackend/HashDiff.X/sha256__x86_64_shani", kind="SEGFAULT",
                      in_flight="EveryBackend/HashDiff.X/sha256__x86_64_shani"),
               result("qemu-x86_64.avx2.shakedown_diff_tests", kind="Subprocess aborted", env="qemu-x86_64.avx2",
                      in_flight="EveryBackend/HashDiff.GuardPages/sha256__x86_64_avx2"),
               result("vectors.EveryBackend/KAT.ShortMsg/sha256__generic  # GetParam() = sha256 on generic",
                      kind="Timeout"),
               result("unit.Api.Something", kind="Failed"),
               result("unit.Api.Other", status="passed"),
               result("emul.x", status="skipped")]
        rc, out, reports = self.run_gate(healthy(), res)
        self.assertEqual(rc, 1)
        self.assertIn("ctest: 1 passed, 4 failed, 1 skipped", out)
        self.assertIn("qemu-x86_64.avx2.shakedown_diff_tests subprocess aborted", out)
        self.assertIn("timeout", out)
        self.assertRegex(out, r"sha256/x86_64/avx2 .*QEMU FAIL")  # the test the aborted binary was running
        self.assertRegex(out, r"sha256/generic +native FAIL")
        failures = json.loads(reports["report.json"])["ctest"]["failures"]
        self.assertEqual(len(failures), 4)
        self.assertEqual({f["kind"] for f in failures}, {"SEGFAULT", "Subprocess aborted", "Timeout", "Failed"})
        self.assertIn("cd /b && env SHAKEDOWN_ENV_NAME=host-default /b/unit", reports["report.md"])

    def test_a_fuzz_mismatch_shows_in_every_format(self):
        recs = healthy() + [failure("host-fuzz", "fuzz_hash: sha256", "sha256/x86_64/shani")]
        rc, out, reports = self.run_gate(recs)
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"native FAIL \(f5\)")
        self.assertIn("sha256/x86_64/shani in host-fuzz: FAILED (fuzz_hash: sha256)", out)
        self.assertIn("native FAIL (f5)", reports["report.md"])
        self.assertEqual(json.loads(reports["report.json"])["cells"]["sha256/x86_64/shani@host-fuzz"]["result"], "FAIL")
        self.assertIn('#f7c5c5" title="fuzz_hash: sha256">native FAIL (f5)', reports["report.html"])

    def test_problems_are_data_in_json(self):
        # A bot reads what failed where from the fields, not from the sentence.
        recs = [r for r in healthy() if not (r["env"] == "host-fuzz")]
        recs += [failure("host-default", "EveryBackend/HashDiff.X/sha256__x86_64_avx2")]
        res = [result("unit.Api.Something", kind="SEGFAULT")]
        rc, out, reports = self.run_gate(recs, res)
        self.assertEqual(rc, 1)
        problems = json.loads(reports["report.json"])["problems"]
        by_kind = {p["kind"]: p for p in problems}
        self.assertEqual(set(by_kind), {"not-run", "backend-failed", "ctest-failed"})
        self.assertEqual({k: by_kind["not-run"][k] for k in ("backend", "environment", "arch")},
                         {"backend": "sha256/x86_64/shani", "environment": "host-fuzz", "arch": "x86_64"})
        self.assertRegex(by_kind["not-run"]["where"], r"ci/matrix/x86_64\.txt:\d+")
        self.assertEqual((by_kind["backend-failed"]["backend"], by_kind["backend-failed"]["environment"]),
                         ("sha256/x86_64/avx2", "host-default"))
        self.assertEqual((by_kind["ctest-failed"]["test"], by_kind["ctest-failed"]["detail"]),
                         ("unit.Api.Something", "SEGFAULT"))
        self.assertTrue(by_kind["ctest-failed"]["repro"].startswith("cd /b && env SHAKEDOWN_ENV_NAME=host-default"))
        for p in problems:  # the sentence the text reports print is there too
            self.assertIn(p["text"], out)
        missing = [r for r in healthy() if not (r["backend"] == "x86_64/avx2" and r["suite"] == "diff" and
                                                r["env"] == "qemu-x86_64.avx2")]
        _, _, reports = self.run_gate(missing)
        (p,) = json.loads(reports["report.json"])["problems"]
        self.assertEqual((p["kind"], p["suite"], p["environment"]), ("no-executions", "diff", "qemu-x86_64.avx2"))

    def test_crash_files_show_in_every_format_with_their_command(self):
        crash = {"file": "/v/fuzz/x86_64/fuzz-emul.sha512ni-fuzz_hash-crash-" + "a" * 40, "kind": "crash",
                 "env": "emul.sha512ni", "target": "fuzz_hash", "build": "host-fuzz", "arch": "x86_64",
                 "repro": "cd /src && /b/fuzz/shakedown-repro --env emul.sha512ni /v/fuzz/x86_64/fuzz-emul..."}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "crashes.jsonl")
            with open(path, "w") as f:
                f.write(json.dumps(crash) + "\n")
            rc, out, reports = self.run_gate(healthy(), extra=["--crashes", path])
        self.assertEqual(rc, 1)  # a crash file fails the gate
        for text in (out, reports["report.md"], html.unescape(reports["report.html"])):
            self.assertIn(crash["file"], text)
            self.assertIn(crash["repro"], text)
        self.assertIn("## Crash files", reports["report.md"])
        self.assertIn("<h2>Crash files</h2>", reports["report.html"])
        data = json.loads(reports["report.json"])
        self.assertEqual(data["crashes"], [crash])
        (p,) = data["problems"]
        self.assertEqual((p["kind"], p["environment"], p["test"], p["detail"], p["repro"]),
                         ("crash-file", "emul.sha512ni", "fuzz_hash", crash["file"], crash["repro"]))

    def test_crashes_of_one_signature_are_one_problem(self):
        def crash(sha, env, cid, sig):
            return {"file": f"/v/fuzz/x86_64/fuzz-{env}-fuzz_many-crash-{sha * 40}", "kind": "crash", "env": env,
                    "target": "fuzz_many", "build": "host-fuzz", "arch": "x86_64", "repro": f"cd /src && r {sha}",
                    "signature": sig, "crash_id": cid, "stored": f"/v/crashes/{cid}", "duplicate": False}
        crashes = [crash("a", "host-fuzz", "fuzz_many-1", "fuzz_many crash: mismatch blamed on x86_64/avx2"),
                   crash("b", "emul.sha512ni", "fuzz_many-1", "fuzz_many crash: mismatch blamed on x86_64/avx2"),
                   crash("c", "host-fuzz", "fuzz_many-2", "fuzz_many crash: mismatch blamed on x86_64/shani")]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "crashes.jsonl")
            with open(path, "w") as f:
                f.writelines(json.dumps(c) + "\n" for c in crashes)
            rc, out, reports = self.run_gate(healthy(), extra=["--crashes", path])
        self.assertEqual(rc, 1)
        problems = json.loads(reports["report.json"])["problems"]
        self.assertEqual([p["detail"] for p in problems], [crashes[0]["file"], crashes[2]["file"]])
        self.assertIn("and 1 more with that signature", problems[0]["text"])
        self.assertIn("Crash files of the time-boxed fuzzing (3, 2 distinct)", out)
        self.assertIn("filed in /v/crashes/fuzz_many-1, 2 files", reports["report.md"])

    def test_malformed_crash_records_are_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "crashes.jsonl")
            with open(path, "w") as f:
                f.write('{"file": "x"}\n')
            rc, out, _ = self.run_gate(healthy(), extra=["--crashes", path])
        self.assertEqual(rc, 2)
        self.assertIn("crash record without kind, env, target, build, arch, repro", out)

    def test_only_narrows_and_rejects_an_unknown_backend(self):
        recs = healthy() + [failure("host-default", "EveryBackend/HashDiff.X/sha256__generic")]
        rc, out, _ = self.run_gate(recs, extra=["--only", "sha256/x86_64/avx2"])
        self.assertEqual(rc, 0, out)
        self.assertNotIn("sha256/generic", out.split("ctest:")[0])
        # A narrowed run ran only what concerns the backend: every entry that failed still fails the gate.
        rc, out, _ = self.run_gate(healthy(), [result("qemu-x86_64.avx2.shakedown_diff_tests", env="qemu-x86_64.avx2")],
                                   extra=["--only", "sha256/x86_64/avx2"])
        self.assertEqual(rc, 1)
        self.assertIn("qemu-x86_64.avx2.shakedown_diff_tests failed", out)
        rc, out, _ = self.run_gate(recs, extra=["--only", "sha256/x86_64/nope"])
        self.assertEqual(rc, 2)
        self.assertIn("no such backend", out)

    def test_one_matrix_per_arch_and_arches_not_run(self):
        recs = healthy() + compiled("sha512/s390x/cpacf", "sha256/generic", "sha512/generic", "keccak/generic",
                                    arch="s390x", env="qemu-s390x.max")
        recs += [rec("qemu-s390x.max", "sha512", "s390x/cpacf", arch="s390x")]
        files = {"x86_64": X86, "s390x": S390X + "    expect qemu-*  */generic\n"}
        rc, out, _ = self.run_gate(recs, files=files)
        self.assertEqual(rc, 1)  # s390x's generic backends recorded nothing
        self.assertIn("== s390x ==", out)
        self.assertNotIn("x86_64/shani", out.split("== s390x ==")[1].split("==")[0])
        rc, out, _ = self.run_gate(healthy(), extra=["--arches", "x86_64"], files={"x86_64": X86, "s390x": S390X})
        self.assertIn("arch s390x was not run", out)

    def test_malformed_input_is_an_error(self):
        rc, out, _ = self.run_gate([], files={"x86_64": "env x runner=sometimes suites=vectors"})
        self.assertEqual(rc, 2)
        self.assertIn("runner must be native, qemu, qemu10 or bochs", out)


SHANI = "expect host-*  sha256/x86_64/shani"
GENERIC = "expect host-default  */generic"
EVERY_CT_ENV = "expect host-default,host-msan,host-valgrind  */generic"
CT = X86 + """\
    build host-msan      preset=msan      modes=test  checks=msan,ct
    build host-valgrind  preset=valgrind  modes=test  checks=ct
    """


class ConstantTimeTest(unittest.TestCase):
    run_gate = GateTest.run_gate
    UNAVAILABLE = "not run: unavailable under Valgrind memcheck on this CPU (needs SHA-NI, SSE4.1 and SSSE3)"

    def ct_run(self):
        """Both tools ran: MSan covered every backend, Valgrind all but SHA-NI, whose record says why not."""
        out = healthy()
        for b in ("sha256/x86_64/shani", "sha256/x86_64/avx2", "sha256/generic", "sha512/generic", "keccak/generic"):
            fam, _, name = b.partition("/")
            out += [rec("host-msan", fam, name, suite=suite, count=48) for suite in ("msan", "ct")]
            out += [rec("host-valgrind", fam, name, suite="ct", count=0, check=self.UNAVAILABLE) if b.endswith("shani")
                    else rec("host-valgrind", fam, name, suite="ct", count=40)]
        return out

    def test_constant_time_coverage_names_the_environment_or_the_reason(self):
        x86 = CT.replace(SHANI, "expect host-*,!host-valgrind  sha256/x86_64/shani").replace(GENERIC, EVERY_CT_ENV)
        files = {"x86_64": x86,
                 "aarch64": "env qemu-aarch64.max  runner=qemu  cpu=max  suites=vectors  select=sha256=arm64/ce\n"}
        recs = self.ct_run() + compiled("sha256/arm64/ce", arch="aarch64", env="qemu-aarch64.max") + \
            [rec("qemu-aarch64.max", "sha256", "arm64/ce", arch="aarch64")]
        files["x86_64"] += "    expect host-default,host-msan,host-valgrind  sha256/x86_64/avx2\n"
        rc, out, reports = self.run_gate(recs, files=files)
        self.assertEqual(rc, 0, out)
        rows = {cells[1].strip(): [c.strip() for c in cells[2:4]]
                for cells in (line.split("|") for line in out.splitlines() if line.startswith("| sha256/"))}
        self.assertEqual(rows["sha256/x86_64/shani"], ["covered (48 checks)", self.UNAVAILABLE])
        self.assertEqual(rows["sha256/generic"], ["covered (48 checks)", "covered (40 checks)"])
        self.assertIn("never under QEMU", rows["sha256/arm64/ce"][0])
        self.assertIn("| backend | host-msan | host-valgrind |", reports["report.md"])
        ct = json.loads(reports["report.json"])["constant_time"]
        self.assertEqual(ct["backends"]["sha256/x86_64/shani"]["host-valgrind"], self.UNAVAILABLE)
        self.assertIn("Constant-time coverage", reports["report.html"])

    def test_expected_constant_time_run_with_only_a_reason_fails_the_gate(self):
        # Valgrind expected to cover SHA-NI (no exclusion): its record says it could not, which is a failure.
        files = {"x86_64": CT.replace(GENERIC, EVERY_CT_ENV)}
        rc, out, _ = self.run_gate(self.ct_run(), files=files)
        self.assertEqual(rc, 1)
        self.assertIn("sha256/x86_64/shani in host-valgrind: expected to run (native) but recorded zero ct executions",
                      out)

    def test_the_timing_t_test_of_a_deep_run_is_quoted(self):
        files = {"x86_64": CT.replace(SHANI, "expect host-*,!host-valgrind  sha256/x86_64/shani")}
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "out"))
            with open(os.path.join(d, "out", "ct_timing.txt"), "w") as f:
                f.write("noise\nHmac::verify: max |t| = 1.7 over 1000000 measurements\nself-test: early exit seen\n")
            rc, out, _ = self.run_gate(self.ct_run(), files=files, extra=["--out", os.path.join(d, "out")])
        self.assertIn("    Hmac::verify: max |t| = 1.7", out)
        self.assertNotIn("noise", out)


if __name__ == "__main__":
    unittest.main()
