#!/usr/bin/env python3
"""The CI driver behind ci/test and ci/verify: the same steps in two modes, driven by ci/matrix/<arch>.txt.

  ci/verify [--quick | --deep] [--fuzz-seconds N] [--only FAMILY/BACKEND] [--arch "ARCH..."]
            [--break FAMILY/BACKEND] [--fail-fast] [--configure CMAKE-ARG]...
  ci/test   [--arch "ARCH..."] [--only ...] [--break ...] [--fail-fast] [--configure CMAKE-ARG]...

For every arch (x86_64 = this host; aarch64, s390x, riscv64 = cross builds under qemu-user), every `build` row
of its matrix that the mode runs: configure and build the preset, run its ctest entries (JUnit results, a
progress line while they run), and in verify mode time-box the fuzz targets of the rows that say `timeboxed=`.
Then the coverage gate (ci/verify_report.py) over the execution records and the results, and one line
"N passed, N failed" (ctest entries passed and failed, plus failed steps: builds, time-boxed fuzzing, gate).

Modes: verify   builds with modes=verify; time-boxed fuzzing (--fuzz-seconds, default 20 s a target) instead of
                the fixed-count fuzz.run.* entries where a row says verify-ctest=, and the source coverage of the
                host's fuzz corpora over lib/ and arch/ (ci/fuzz-coverage: llvm-cov HTML with per-file line
                coverage, <out>/fuzz-coverage/)
       quick    (verify --quick) the host's modes=quick builds, test scale 0.2, 5 s of fuzzing; about 2 min
       deep     (verify --deep) 10 minutes of fuzzing a target, test scale 10, the timing t-test of the builds
                that say timing= (tests/ct_timing.cc: Hmac::verify, fails above its |t| threshold; its --self-test
                must see an early-exit comparison), and the fuzz corpus coverage over that larger corpus
       test     (ci/test) builds with modes=test, fixed-count fuzzing, and the OSS-Fuzz build check (without its
                coverage build, which verify makes)
An env row with modes= runs only in those modes (its entries are left out of ctest otherwise, and the report says
so): ci/test keeps QEMU 10 to a reduced set. --all-environments (ci/cross-test: CROSS_QEMU10_FULL=1) runs them all.
Options:
  --only B      only B's tests: the discovered entries named after it (ctest -R) and the suites' whole-binary
                entries narrowed to it (SHAKEDOWN_GTEST_FILTER); fuzz entries run whole. An unknown B is refused
                at once.
  --break B     test-only builds with B deliberately broken (SHAKEDOWN_TEST_BREAK): the run must fail, naming it
  --fail-fast   stop at the first failing ctest entry; print its name, backend, environment, and the command
                that reproduces it
  --configure A an extra cmake argument for every build (-DSHAKEDOWN_EMUL_TEST_BREAK=vsha2cl breaks an emulator
                model: the conformance suites must fail; every build resets it otherwise)
  --all-environments  also the env rows whose modes= leave this mode out
Writes build/<mode>/report.{md,json,html}, records.jsonl, results.jsonl. Exit status 0 only if all passed.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import results as res  # noqa: E402
from gate import charged_backends  # noqa: E402
from matrix import ALGORITHMS, FUZZ_TARGETS, HOST_ARCH, Matrix, MatrixError, sanitize  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CROSS_ARCHES = ("aarch64", "s390x", "riscv64")
PROGRESS_SECONDS = 30


def fail_fast_passes(args, env_names):
    """[(label, ctest args)]: the single tests first, then the environments' whole-suite entries (their names
    start with an environment's name). ctest keeps one -E, so an -E of the build row is merged into each pass.
    A run already narrowed by -R (--only) stays one pass."""
    if "-R" in args or not env_names:
        return [("", args)]
    variants = "^(" + "|".join(n.replace(".", "\\.") for n in env_names) + ")\\."
    excluded = args[args.index("-E") + 1] if "-E" in args else ""
    rest = [a for i, a in enumerate(args) if a != "-E" and (i == 0 or args[i - 1] != "-E")]
    return [("single tests", rest + ["-E", f"({excluded})|{variants}" if excluded else variants]),
            ("environments", rest + ["-R", variants] + (["-E", excluded] if excluded else []))]


def merge_excludes(args):
    """ctest keeps only the last -E: the arguments with every -E regex joined into one alternation."""
    excluded = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-E"]
    rest = [a for i, a in enumerate(args) if a != "-E" and (i == 0 or args[i - 1] != "-E")]
    if not excluded:
        return rest
    return rest + ["-E", excluded[0] if len(excluded) == 1 else "|".join(f"({e})" for e in excluded)]


def ctest_literal(text):
    """A ctest regex (Spencer's syntax, cmsys) that matches this text character for character."""
    return re.sub(r"([\\.^$|()\[\]*+?])", r"\\\1", text)


def narrow_includes(args, regex, list_entries):
    """The ctest arguments with --only's -R added. ctest keeps only the last -R, so a row that has an -R of its own
    (host-tsan: the suites its build has) would lose it and run entries whose programs were never built: there the
    two are intersected through ctest's listings (list_entries(args) -> names), and the entries both select are
    named exactly. None when they select nothing in common."""
    if "-R" not in args:
        return args + ["-R", regex]
    at = args.index("-R") + 1
    theirs = set(list_entries(args))
    both = [n for n in list_entries(args[:at] + [regex] + args[at + 1:]) if n in theirs]
    if not both:
        return None
    return args[:at - 1] + args[at + 1:] + ["-R", "^(" + "|".join(ctest_literal(n) for n in both) + ")$"]


def env_entries_regex(names):
    """A ctest regex of every entry of these env rows: their suites, fuzz drivers and self-tests (<env>.*), a run=
    row's own entry (<env>) and the contract runs in them (asm_contract.<family>[.flip-<id>].<env>)."""
    alternatives = "|".join(n.replace(".", "\\.") for n in sorted(names))
    return f"^({alternatives})(\\.|$)|^asm_contract\\.[^.]+\\.(flip-[^.]+\\.)?({alternatives})$"


def cost_data(build_dir):
    """{entry: seconds} from ctest's own record of earlier runs (Testing/Temporary/CTestCostData.txt)."""
    costs = {}
    path = os.path.join(build_dir, "Testing", "Temporary", "CTestCostData.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("---"):
                    break
                name, _, rest = line.rstrip("\n").rpartition(" ")
                name = name.rpartition(" ")[0]
                try:
                    costs[name] = float(rest)
                except ValueError:
                    pass
    return costs


def clock(seconds):
    s = max(0, int(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


class Progress:
    """The line a long ctest run prints every PROGRESS_SECONDS: entries done of total, time spent, and an estimate
    of the time left from ctest's recorded cost of the entries still to run (by count when there is none)."""

    def __init__(self, label, names, costs, started):
        self.label, self.costs, self.started = label, costs, started
        self.left = set(names)
        self.done = []
        self.total = len(names)

    def finished(self, name):
        if name in self.left:
            self.left.discard(name)
            self.done.append(name)

    def line(self):
        done = self.total - len(self.left)
        spent = time.time() - self.started
        known = [self.costs[n] for n in self.left if n in self.costs]
        if self.costs and len(known) >= len(self.left) // 2:
            typical = sorted(known)[len(known) // 2] if known else 0
            finished = sum(self.costs.get(n, typical) for n in self.done)
            # ctest -j2: what is left of the recorded cost, less the part of it the running entries have done.
            estimate = max((sum(known) + typical * (len(self.left) - len(known))) / 2 - (spent - finished / 2), 0)
            how = "from the last run's times"
        elif done:
            estimate, how = spent / done * len(self.left), "by count"
        else:
            return f"    ... {self.label}: 0/{self.total} tests, {clock(spent)} elapsed"
        return (f"    ... {self.label}: {done}/{self.total} tests, {clock(spent)} elapsed, "
                f"about {clock(estimate)} left ({how})")

    def report_until(self, proc):
        while proc.poll() is None:
            time.sleep(PROGRESS_SECONDS)
            if proc.poll() is None:
                print(self.line(), flush=True)


class Driver:
    def __init__(self, args):
        self.args = args
        self.start = time.time()
        self.passed = self.failed = self.skipped = 0
        self.failures = []  # what failed, one line each
        self.out = os.path.join(ROOT, "build", args.mode if args.mode != "quick" else "verify")
        self.records = os.path.join(self.out, "records.jsonl")
        self.results = os.path.join(self.out, "results.jsonl")
        self.stopped = False  # --fail-fast found a failure

    # ---- output ----
    def elapsed(self, since=None):
        s = int(time.time() - (since or self.start))
        return f"{s // 60:02d}:{s % 60:02d}"

    def step(self, i, n, what):
        print(f"\n\033[1m==> [{i}/{n}] {what}  (elapsed {self.elapsed()})\033[0m", flush=True)

    @staticmethod
    def note(text):
        print(f"    {text}", flush=True)

    def fail_step(self, what):
        self.failed += 1
        self.failures.append(what)
        self.note(f"FAILED: {what}")

    def summary(self):
        print()
        if self.failures:
            print("Failures:")
            for f in self.failures:
                print(f"  - {f}")
        print(f"total time {self.elapsed()}")
        tail = f", {self.skipped} skipped" if self.skipped else ""
        print(f"{self.passed} passed, {self.failed} failed{tail}", flush=True)

    # ---- steps ----
    def run_logged(self, cmd, log, env=None):
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"$ {' '.join(shlex.quote(c) for c in cmd)}\n")
            f.flush()
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=ROOT).returncode

    def build(self, preset):
        build_dir = os.path.join(ROOT, "build", preset)
        os.makedirs(build_dir, exist_ok=True)
        log = os.path.join(build_dir, "build.log")
        open(log, "w").close()
        # SHAKEDOWN_TEST_BREAK and SHAKEDOWN_EMUL_TEST_BREAK are always given, so that a tree an earlier run
        # configured with a deliberately broken backend or emulator model goes back to the real code unless this
        # run breaks it again (--break, or --configure -DSHAKEDOWN_EMUL_TEST_BREAK=..., which comes after).
        configure = ["cmake", "--preset", preset, "-S", ROOT, f"-DSHAKEDOWN_TEST_BREAK={self.args.break_}",
                     "-DSHAKEDOWN_EMUL_TEST_BREAK="]
        if self.run_logged(configure + self.args.configure, log) != 0:
            self.tail(log, 40)
            self.fail_step(f"configure {preset} (log {log})")
            return None
        started = time.time()
        if self.run_logged(["cmake", "--build", "--preset", preset], log) != 0:
            with open(log, encoding="utf-8", errors="replace") as f:
                lines = [l for l in f if "error" in l or "FAILED" in l][:40]
            print("".join("    " + l for l in lines), end="")
            self.fail_step(f"build {preset} (log {log})")
            return None
        self.note(f"built {preset} in {build_dir} ({self.elapsed(started)})")
        return build_dir

    @staticmethod
    def tail(path, n):
        with open(path, encoding="utf-8", errors="replace") as f:
            print("".join("    " + l for l in f.readlines()[-n:]), end="")

    def only_filters(self, arch):
        """ctest -R and the GoogleTest filter for --only: the backend's parameterised entries; the whole-suite and fuzz
        entries of the environments it runs in (the filter narrows the suites to it), leaving out emulated
        environments that do not expect it; the plain fuzz entries, the MSan driver and the constant-time runs,
        which run every backend.
        An emulated environment fails unless each instruction of its profile ran a minimum number of times, so
        the filter keeps the backends emulated beside this one there (PadLock's phe with phe2)."""
        def params(backend):
            family, _, name = backend.partition("/")
            return [f"{head}__{sanitize(name)}" for head in ALGORITHMS[family] + (family,)]
        expectations = self.matrix.expectations(arch)
        expected = {e.env for e in expectations if e.backend == self.args.only}
        emulated_here = {e.env for e in expectations if e.backend == self.args.only and e.how == "emulated"}
        companions = sorted({e.backend for e in expectations if e.env in emulated_here and e.how == "emulated"}
                            - {self.args.only})
        envs = [r.name.replace(".", "\\.") for r in self.matrix.envs(arch)
                if r.checks and (not r.get("emulate") or r.name in expected)]
        regex = "/(" + "|".join(params(self.args.only)) + ")( |$)|^fuzz\\.|^msan\\.|^ct\\."
        if envs:
            regex += "|^(" + "|".join(envs) + ")\\.(shakedown_(vectors|diff)_tests|fuzz_[a-z]+\\.(replay|random))$"
        return regex, ":".join(f"*/{p}" for b in [self.args.only] + companions for p in params(b))

    def ctest(self, row, build_dir):
        """Runs a build row's ctest entries; returns the Result of each (from JUnit, Test.xml and the listing).
        With --fail-fast the single tests run first (seconds each), then the environments' whole-suite entries
        (minutes each): ctest starts the costliest entries first, which would put the first failure minutes
        away."""
        args, env = self.ctest_args(row, lambda a, e: self.listing(build_dir, a, e)[1])
        if args is None:
            self.note(f"{row.name}: no entries of {self.args.only} in this build")
            return []
        passes = [("", args)]
        if self.args.fail_fast:
            passes = fail_fast_passes(args, [r.name for r in self.matrix.envs(row.arch)])
        found = []
        for label, pass_args in passes:
            found += self.ctest_pass(row, build_dir, pass_args, env, label)
            if self.stopped:
                break
        if not found and self.args.only:
            # --only narrows every build to B's entries; a build with none has nothing of B to run. The gate still
            # fails if B was expected there.
            self.note(f"{row.name}: no entries of {self.args.only} in this build")
        elif not found:
            self.fail_step(f"{row.name}: ctest found no tests")
        return found

    def ctest_args(self, row, list_entries=None):
        """The ctest arguments of a build row in this mode (its ctest=, and verify-ctest= or test-ctest=, less the
        env rows this mode leaves out, narrowed by --only) and the environment ctest runs with. The arguments are
        None when --only leaves nothing of the row; list_entries (args, env -> names: ctest's listing) is needed
        only for --only on a row with an -R of its own (narrow_includes)."""
        args = row.items("ctest")
        if self.args.mode in ("verify", "quick", "deep"):
            args += row.items("verify-ctest")
        else:
            args += row.items("test-ctest")
        left_out = self.envs_left_out(row.arch)
        if left_out:
            args += ["-E", env_entries_regex(left_out)]
        args = merge_excludes(args)
        env = dict(os.environ, SHAKEDOWN_ENV_NAME=row.name, SHAKEDOWN_RECORD=self.records)
        env.update(e.partition("=")[::2] for e in row.extra_env)
        if self.args.only:
            regex, gtest_filter = self.only_filters(row.arch)
            args = narrow_includes(args, regex, lambda a: list_entries(a, env))
            env["SHAKEDOWN_GTEST_FILTER"] = gtest_filter  # not GTEST_FILTER: see tests/support/test_main.cc
        return args, env

    @staticmethod
    def listing(build_dir, args, env):
        """ctest's listing of the entries these arguments select: (its JSON text, their names)."""
        text = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"] + args,
                              capture_output=True, text=True, env=env).stdout
        try:
            return text, [t["name"] for t in json.loads(text).get("tests", [])]
        except json.JSONDecodeError:
            return text, []

    def ctest_pass(self, row, build_dir, args, env, label):
        listing_text, names = self.listing(build_dir, args, env)
        if not names:
            return []
        name = f"{row.name}{' ' + label if label else ''}"
        tag = re.sub(r"[^A-Za-z0-9.-]", "-", name)
        junit = os.path.join(self.out, f"junit-{tag}.xml")
        log = os.path.join(build_dir, f"ctest-{self.args.mode}{'-' + tag if label else ''}.log")
        cmd = ["ctest", "--test-dir", build_dir, "-T", "Test", "--output-junit", junit, "--timeout", "1200",
               "-j2", "--test-output-size-failed", "1000000", "--test-output-truncation", "head"] + args
        if self.args.fail_fast:
            cmd.append("--stop-on-failure")
        self.note(f"ctest {name}: {len(names)} entries")
        started = time.time()
        with open(log, "w", encoding="utf-8") as f:
            f.write(f"$ {' '.join(shlex.quote(c) for c in cmd)}\n")
            f.flush()
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
                                    cwd=ROOT, errors="replace")
            progress = Progress(name, names, cost_data(build_dir), started)
            ticker = threading.Thread(target=progress.report_until, args=(proc,), daemon=True)
            ticker.start()
            for line in proc.stdout:
                f.write(line)
                # "  12/140 Test  #12: name ....   Passed  1.2 sec" lines only feed the progress line; the
                # results come from the JUnit file.
                m = re.match(r"\s*\d+/\d+ Test +#\d+: (.*?) \.{3,}", line)
                if m:
                    progress.finished(m.group(1))
            proc.wait()
        if not os.path.exists(junit):
            self.tail(log, 30)
            self.fail_step(f"{name}: ctest wrote no results (exit {proc.returncode}, log {log})")
            return []
        # What the run gave every entry, for the command that reproduces one.
        base_env = [f"{k}={env[k]}" for k in ("SHAKEDOWN_TEST_SCALE", "SHAKEDOWN_GTEST_FILTER") if env.get(k)]
        base_env += row.extra_env + [f"SHAKEDOWN_ENV_NAME={row.name}"]
        found = res.read_junit(junit, row.name, row.arch, res.ctest_listing(build_dir, listing_text),
                               res.exit_kinds(res.last_test_xml(build_dir)), row.name, base_env)
        res.append_results(self.results, found)
        p = sum(r.status == "passed" for r in found)
        bad = [r for r in found if r.status == "failed"]
        s = sum(r.status == "skipped" for r in found)
        self.passed += p
        self.failed += len(bad)
        self.skipped += s
        for r in bad[:10]:
            self.note(f"  failed: {r.test} ({r.kind}, environment {r.env})")
        if len(bad) > 10:
            self.note(f"  ... and {len(bad) - 10} more (log {log})")
        if bad:
            self.failures.append(f"{name}: {len(bad)} ctest failures (log {log})")
        self.note(f"{name}: {p} passed, {len(bad)} failed, {s} skipped in {self.elapsed(started)}")
        if bad and self.args.fail_fast:
            self.first_failure(bad)
        return found

    def first_failure(self, bad):
        """--fail-fast: what failed first, whose output it was, where, and how to run it again."""
        first = bad[0]
        records = res.load_records(self.records)
        known = {b for bs in self.matrix.backends().values() for b in bs}
        backends = charged_backends(first, records, known)
        print(f"\n\033[1mFIRST FAILURE: {first.test}\033[0m")
        print(f"  ended:       {first.kind}")
        print(f"  backend:     {', '.join(backends) if backends else 'none named (not a backend test)'}")
        print(f"  environment: {first.env} (build {first.build}, arch {first.arch})")
        if first.in_flight:
            print(f"  running:     {first.in_flight}")
        print(f"  reproduce:   {first.repro()}")
        print(f"  time to first failure: {self.elapsed()}", flush=True)
        self.stopped = True

    def envs_left_out(self, arch):
        """The env rows whose modes= leave this mode out (unless --all-environments)."""
        if self.args.all_environments:
            return []
        mode = "quick" if self.args.mode == "quick" else "verify" if self.args.mode == "deep" else self.args.mode
        return [r.name for r in self.matrix.envs(arch) if not r.in_mode(mode)]

    @staticmethod
    def cache_value(build_dir, name):
        """A CMakeCache.txt entry of a build ("" when absent)."""
        path = os.path.join(build_dir, "CMakeCache.txt")
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    key, _, value = line.rstrip("\n").partition("=")
                    if key.partition(":")[0] == name:
                        return value
        return ""

    def runner_of(self, arch, build_dir, row=None):
        """The command prefix of the build's binaries in an env row (its QEMU and CPU), or of the build's own
        environment (None: natively on the host, else the first qemu row's CPU); None when QEMU 10 is missing."""
        runner = row.runner if row is not None else "native" if arch == HOST_ARCH else "qemu"
        if runner == "native":
            return []
        cpu = row.get("cpu") if row is not None else self.matrix.first_qemu_cpu(arch)
        qemu = f"qemu-{arch}"
        if runner == "qemu10":
            qemu = os.path.join(self.cache_value(build_dir, "SHAKEDOWN_QEMU10_DIR"), f"qemu-{arch}")
            if not os.access(qemu, os.X_OK):
                return None
        sysroot = [] if arch == HOST_ARCH else ["-L", self.cache_value(build_dir, "SHAKEDOWN_CROSS_QEMU_ROOT") or
                                                 f"/usr/{arch}-linux-gnu"]
        return [qemu] + sysroot + ["-cpu", cpu]

    def timeboxed(self, arch, build_row, build_dir):
        """Verify mode: every fuzz target of the build for --fuzz-seconds, side by side (one per core), and the
        targets that env rows with timeboxed= fuzz in their environment: its profile (emulated instructions
        required as for its fuzz entries), its runner and CPU, its extra environment."""
        jobs = [(build_row.name, t, {}, self.runner_of(arch, build_dir)) for t in FUZZ_TARGETS]
        for row in self.matrix.envs(arch):
            if not row.items("timeboxed") or row.name in self.envs_left_out(arch):
                continue
            runner = self.runner_of(arch, build_dir, row)
            if runner is None:
                self.fail_step(f"{row.name}: no QEMU 10 for its time-boxed fuzzing (ci/fetch-qemu10)")
                continue
            extra = {k: v for k, v in (("SHAKEDOWN_EMULATE", row.get("emulate")),
                                       ("SHAKEDOWN_TEST_ASSUME", row.get("assume")),
                                       ("SHAKEDOWN_EMULATE_REQUIRE", row.get("fuzz-require") or row.get("require")))
                     if v}
            extra.update(e.partition("=")[::2] for e in row.extra_env)
            for t in row.items("timeboxed"):
                jobs.append((row.name, t, extra, runner))
        seconds = self.args.fuzz_seconds
        self.note(f"time-boxed fuzzing ({seconds}s per target, {len(jobs)} runs)")
        out = os.path.join(self.out, "fuzz", arch)
        os.makedirs(out, exist_ok=True)
        outcomes = []
        pending = list(jobs)
        running = []
        while pending or running:
            while pending and len(running) < (os.cpu_count() or 2):
                env_name, target, extra, runner = pending.pop(0)
                running.append(self.start_fuzz(build_dir, build_row, env_name, target, extra, runner, seconds, out))
            time.sleep(1)
            for job in [j for j in running if j["proc"].poll() is not None]:
                running.remove(job)
                outcomes.append(self.finish_fuzz(job))
        if not all(outcomes):
            self.fail_step(f"time-boxed fuzzing on {arch} (logs in {out})")

    def start_fuzz(self, build_dir, build_row, env_name, target, extra, runner, seconds, out):
        label = f"{env_name}-{target}"
        binary = os.path.join(build_dir, "fuzz", target)
        corpus = os.path.join(ROOT, "fuzz", "corpus", target)
        work = os.path.join(out, f"corpus-{label}")
        os.makedirs(work, exist_ok=True)
        if build_row.get("timeboxed") == "libfuzzer" and os.access(binary, os.X_OK):
            args = [f"-max_total_time={seconds}", "-max_len=1024", "-print_final_stats=1",
                    f"-dict={ROOT}/fuzz/{target}.dict", f"-artifact_prefix={out}/fuzz-{label}-", work, corpus]
        else:  # no libFuzzer (gcc builds, riscv64): corpus replay, then seeded random inputs
            binary += "_standalone"
            args = [f"-max_total_time={seconds}", "-max_len=1024", f"-seed={int(time.time()) % 100000}", corpus]
        env = dict(os.environ, SHAKEDOWN_ENV_NAME=env_name, SHAKEDOWN_RECORD=self.records, **extra)
        if target == "fuzz_api":
            env["ASAN_OPTIONS"] = "detect_stack_use_after_return=0"  # as fuzz/fuzz_api.options says
        log = os.path.join(out, f"fuzz-{label}.log")
        f = open(log, "w", encoding="utf-8")
        if runner:
            f.write(f"$ {' '.join(shlex.quote(c) for c in runner)} ...\n")
            f.flush()
        return {"label": label, "log": log, "file": f, "binary": binary,
                "proc": subprocess.Popen(runner + [binary] + args, stdout=f, stderr=subprocess.STDOUT, env=env)}

    def finish_fuzz(self, job):
        job["file"].close()
        with open(job["log"], encoding="utf-8", errors="replace") as f:
            text = f.read()
        # libFuzzer's -print_final_stats lines (the standalone driver prints the same two).
        execs = re.findall(r"^stat::number_of_executed_units: *(\d+)", text, re.M)
        rate = re.findall(r"^stat::average_exec_per_sec: *(\d+)", text, re.M)
        rc = job["proc"].returncode
        if rc != 0 or not execs:
            self.note(f"{job['label']}: FAILED after {execs[-1] if execs else '?'} executions, exit status {rc} "
                      f"(log {job['log']}); replay a crash file with `shakedown-repro FILE`")
            for line in [l for l in text.splitlines() if re.search(r"MISMATCH|ERROR|SUMMARY|Test unit written", l)][:8]:
                self.note(f"  {line}")
            return False
        self.note(f"{job['label']}: {execs[-1]} executions ({rate[-1] if rate else 0} exec/s, "
                  f"{os.path.basename(job['binary'])}), no mismatch")
        return True

    def script_step(self, cmd, log, what, tail_lines, env=None):
        """Runs one script of ci/ with its output in log; the tail of the log, then one pass or a failed step."""
        with open(log, "w", encoding="utf-8") as f:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
        self.tail(log, tail_lines if rc == 0 else 30)
        if rc == 0:
            self.passed += 1
        else:
            self.fail_step(f"{what} (log {log})")

    def fuzz_build_check(self):
        """Test mode: .clusterfuzzlite/build.sh with OSS-Fuzz's variables, each target run briefly. Its coverage
        build is left to verify mode's fuzz_coverage (the same build, over a grown corpus)."""
        self.script_step([os.path.join(ROOT, "ci", "fuzz-build-check")],
                         os.path.join(ROOT, "build", "fuzz-build-check.log"), "ci/fuzz-build-check", 5,
                         env=dict(os.environ, FUZZ_CHECK_COVERAGE="0"))

    def fuzz_coverage(self):
        """Verify and deep modes: ci/fuzz-coverage's llvm-cov HTML and per-file table of the host's fuzz corpora
        (seeds + what the time-boxed runs grew), into <out>/fuzz-coverage (html/index.html, summary.txt)."""
        self.script_step([os.path.join(ROOT, "ci", "fuzz-coverage"), os.path.join(self.out, "fuzz-coverage"),
                          os.path.join(self.out, "fuzz", HOST_ARCH)],
                         os.path.join(self.out, "fuzz-coverage.log"), "fuzz corpus coverage: ci/fuzz-coverage", 12)

    # ---- the run ----
    def plan(self):
        """[(arch, [build rows])] this mode runs, and the environments it leaves out (for the report)."""
        mode = "quick" if self.args.mode == "quick" else "verify" if self.args.mode == "deep" else self.args.mode
        plan, skipped = [], set()
        for arch in self.arches:
            rows = []
            for row in self.matrix.builds(arch):
                fuzz_build = row.get("timeboxed") == "libfuzzer" and arch != HOST_ARCH
                if mode not in row.items("modes") or (fuzz_build and os.environ.get("CROSS_LIBFUZZER") == "0"):
                    skipped.add(row.name)
                else:
                    rows.append(row)
            skipped.update(self.envs_left_out(arch))
            plan.append((arch, rows))
        return plan, skipped

    def timing(self, build_row, build_dir):
        """Deep mode: the timing t-test a build row names (timing=), then its self-test, which must see an
        early-exit comparison; both print to <out>/ct_timing.txt, which the report quotes."""
        program = os.path.join(build_dir, build_row.get("timing"))
        log = os.path.join(self.out, "ct_timing.txt")
        if not os.access(program, os.X_OK):
            self.fail_step(f"timing t-test: {program} was not built ({build_row.name})")
            return
        with open(log, "w", encoding="utf-8") as f:
            rcs = [subprocess.run([program] + args, stdout=f, stderr=subprocess.STDOUT).returncode
                   for args in ([], ["--self-test"])]
        for rc, args, failure in zip(rcs, ([], ["--self-test"]),
                                     ("|t| above its threshold", "the self-test missed an early-exit comparison")):
            if rc != 0:
                self.fail_step(f"timing t-test {' '.join([os.path.basename(program)] + args)}: {failure} ({log})")
            else:
                self.passed += 1
        self.tail(log, 12)

    def run(self):
        try:
            self.matrix = Matrix()
        except MatrixError as e:
            print(f"ci/{self.args.script}: {e}", file=sys.stderr)
            return 2
        names = self.matrix.backends()
        if self.args.only:
            where = [a for a, bs in names.items() if self.args.only in bs]
            if not where:
                known = sorted({b for bs in names.values() for b in bs})
                print(f"ci/{self.args.script}: --only {self.args.only}: no such backend in ci/matrix/ "
                      f"(known: {' '.join(known)})", file=sys.stderr)
                return 2
            self.arches = [a for a in self.arches if a in where]
            if not self.arches:
                print(f"ci/{self.args.script}: --only {self.args.only} exists only for {' '.join(where)}",
                      file=sys.stderr)
                return 2
        if self.args.break_ and self.args.break_ not in {b for bs in names.values() for b in bs}:
            print(f"ci/{self.args.script}: --break {self.args.break_}: no such backend in ci/matrix/", file=sys.stderr)
            return 2

        plan, skipped = self.plan()
        os.makedirs(self.out, exist_ok=True)
        for path in (self.records, self.results):
            open(path, "w").close()
        if os.path.exists(os.path.join(self.out, "ct_timing.txt")):  # a deep run's; the report quotes it
            os.remove(os.path.join(self.out, "ct_timing.txt"))
        if self.args.scale:
            os.environ["SHAKEDOWN_TEST_SCALE"] = self.args.scale
        coverage = self.args.mode in ("verify", "deep") and HOST_ARCH in self.arches
        n = 1 + sum(1 for _, rows in plan for _ in rows) + (self.args.mode == "test") + coverage + 1
        i = 1
        self.step(i, n, f"setup ({self.args.mode} mode; arches {' '.join(self.arches)}"
                        f"{'; test scale ' + self.args.scale if self.args.scale else ''}"
                        f"{'; fuzz ' + str(self.args.fuzz_seconds) + ' s a target' if self.timeboxing else ''})")
        if subprocess.run([os.path.join(ROOT, "ci", "setup")]).returncode != 0:
            self.fail_step("ci/setup")
            self.summary()
            return 1
        for arch, rows in plan:
            if arch != HOST_ARCH and rows:
                r = subprocess.run([os.path.join(ROOT, "ci", "cross-deps"), arch], capture_output=True, text=True)
                print("".join("    " + l + "\n" for l in (r.stdout + r.stderr).splitlines()), end="")
                if r.returncode != 0:
                    self.fail_step(f"ci/cross-deps {arch}")
                    i += len(rows)
                    continue
            for row in rows:
                i += 1
                self.step(i, n, f"{row.name}: preset {row.get('preset')}"
                                f"{'' if arch == HOST_ARCH else ', every entry under qemu-' + arch}")
                build_dir = self.build(row.get("preset"))
                if build_dir is None:
                    continue
                self.ctest(row, build_dir)
                if self.stopped:
                    self.summary()
                    return 1
                if self.timeboxing and row.get("timeboxed"):
                    self.timeboxed(arch, row, build_dir)
                if self.args.mode == "deep" and row.get("timing"):
                    self.timing(row, build_dir)
        if self.args.mode == "test" and HOST_ARCH in self.arches:
            i += 1
            self.step(i, n, "OSS-Fuzz / ClusterFuzzLite build script with OSS-Fuzz-style variables")
            self.fuzz_build_check()
        if coverage:
            i += 1
            self.step(i, n, "source coverage of the fuzz corpus (seeds + what the time-boxed runs grew) over lib/ and arch/")
            self.fuzz_coverage()
        i += 1
        self.step(i, n, "coverage gate and matrix")
        meta = [f"mode={self.args.mode}", f"started={time.strftime('%Y-%m-%dT%H:%M:%S', time.localtime(self.start))}",
                f"finished={time.strftime('%Y-%m-%dT%H:%M:%S')}", f"host={os.uname().nodename}",
                f"commit={self.commit()}", f"test_scale={self.args.scale or '1'}"]
        if self.timeboxing:
            meta.append(f"fuzz_seconds={self.args.fuzz_seconds}")
        if self.args.break_:
            meta.append(f"break={self.args.break_}")
        cmd = [sys.executable, os.path.join(ROOT, "ci", "verify_report.py"), "--records", self.records,
               "--results", self.results, "--out", self.out, "--arches", ",".join(self.arches)]
        cmd += [f"--not-run-by-mode={','.join(sorted(skipped))}"] if skipped else []
        cmd += ["--only", self.args.only] if self.args.only else []
        for m in meta:
            cmd += ["--meta", m]
        if subprocess.run(cmd).returncode != 0:
            self.fail_step("coverage gate / mismatches (see above)")
        self.summary()
        return 0 if self.failed == 0 else 1

    @staticmethod
    def commit():
        r = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True, text=True)
        return r.stdout.strip()


def parse_args(argv):
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("script", choices=("test", "verify"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--deep", action="store_true")
    ap.add_argument("--fuzz-seconds", type=int)
    ap.add_argument("--only", default="")
    ap.add_argument("--arch", default="")
    ap.add_argument("--break", dest="break_", default="")
    ap.add_argument("--fail-fast", action="store_true")
    ap.add_argument("--configure", action="append", default=[])
    ap.add_argument("--all-environments", action="store_true")
    ap.add_argument("-h", "--help", action="store_true")
    args = ap.parse_args(argv)
    if args.help:
        print(__doc__)
        sys.exit(0)
    if args.script == "test" and (args.quick or args.deep or args.fuzz_seconds is not None):
        ap.error("--quick, --deep and --fuzz-seconds are ci/verify options")
    if args.quick and args.deep:
        ap.error("--quick or --deep, not both")
    args.mode = "test" if args.script == "test" else "quick" if args.quick else "deep" if args.deep else "verify"
    defaults = {"quick": (5, "0.2"), "deep": (600, "10"), "verify": (20, "1"), "test": (0, "")}
    seconds, args.scale = defaults[args.mode]
    if args.fuzz_seconds is None:
        args.fuzz_seconds = seconds
    return args


def main(argv):
    args = parse_args(argv)
    arches = (args.arch or " ".join((HOST_ARCH,) + CROSS_ARCHES)).replace(",", " ").split()
    for a in arches:
        if a not in (HOST_ARCH,) + CROSS_ARCHES:
            print(f"ci/{args.script}: --arch {a}: known arches are {HOST_ARCH} {' '.join(CROSS_ARCHES)}", file=sys.stderr)
            return 2
    if args.mode == "quick":
        if HOST_ARCH not in arches:
            print(f"ci/verify: --quick runs the host only; drop --quick to verify {' '.join(arches)}", file=sys.stderr)
            return 2
        arches = [HOST_ARCH]  # the cross arches need their builds and QEMU time
    d = Driver(args)
    d.arches = arches
    d.timeboxing = args.mode != "test"
    return d.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
