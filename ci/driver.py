#!/usr/bin/env python3
"""The CI driver behind ci/test and ci/verify: the same steps in two modes, driven by ci/matrix/<arch>.txt.

  ci/verify [--quick | --deep] [--fuzz-seconds N] [--only FAMILY/BACKEND] [--arch "ARCH..."]
            [--break FAMILY/BACKEND] [--fail-fast] [--configure CMAKE-ARG]...
  ci/test   [--arch "ARCH..."] [--only ...] [--break ...] [--fail-fast] [--configure CMAKE-ARG]...

For every arch of ci/arches.txt (the first = this host; the others cross builds under qemu-user), every `build`
row of its matrix that the mode runs: configure and build the preset, run its ctest entries (JUnit results, a
progress line while they run), and in verify mode time-box the fuzz targets of the rows that say `timeboxed=`.
Which entries an environment has, how it runs and what it fuzzes come from the build's resolved plan
(plan-<arch>.jsonl, written by ci/matrix.py at configure time: ci/plan.py), never from the entries' names.
Then the coverage gate (ci/verify_report.py) over the execution records and the results, and one line
"N passed, N failed" (ctest entries passed and failed, plus failed steps: builds, time-boxed fuzzing, gate).

Modes: verify   builds with modes=verify; time-boxed fuzzing (--fuzz-seconds, default 20 s a target) instead of
                the fixed-count fuzz.run.* entries where a row says verify-ctest=, and the source coverage of the
                host's fuzz corpora over lib/ and arch/ (ci/fuzz-coverage: llvm-cov HTML with per-file line
                coverage, <out>/fuzz-coverage/) and per environment of every arch, with its gate (ci/env-coverage:
                <out>/env-coverage/coverage.md)
       quick    (verify --quick) the host's modes=quick builds, test scale 0.2, 5 s of fuzzing; about 8 min on a
                2-core host once the default build exists (8:16 measured, 2:33 of it building the fuzz preset)
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
                that reproduces it. What changed runs first: the backends whose files (arch/, their emulator
                models) the working tree changes against main (ci/changes.py), or --only's; their arch's builds
                first, in each build their known-answer entries, then the rest of theirs, then the other single
                tests, then the environments' whole-suite entries
  --configure A an extra cmake argument for every build (-DSHAKEDOWN_EMUL_TEST_BREAK=vsha2cl breaks an emulator
                model: the conformance suites must fail; every build resets it otherwise)
  --all-environments  also the env rows whose modes= leave this mode out
Writes build/<mode>/ (build/verify/, build/quick/, build/deep/ or build/test/; each mode its own, so --quick never
overwrites the last full run's): report.{md,json,html}, records.jsonl, results.jsonl, crashes.jsonl (the time-boxed
fuzzing's crash files, each with the command that replays it; the reports list them), crashes/ (one folder per
crash signature, kept across runs: input, log, signature, a one-line repro command and every sighting; see
ci/crash_triage.py), fuzz/ (the time-boxed runs' logs, grown corpora and crash files) and fuzz-coverage/. The
progress line's estimate of the time left comes from the previous run's per-entry times in the same folder (ctest's
own record when there is none). Exit status 0 only if all passed.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arches import BY_NAME, CROSS_ARCHES, HOST_ARCH  # noqa: E402
from changes import changed_backends  # noqa: E402
from console import Console, tail  # noqa: E402
from ctest_run import CtestRun, last_run_times  # noqa: E402
from fuzz_run import TimeBoxedFuzzing  # noqa: E402
from matrix import Matrix, MatrixError  # noqa: E402
from plan import Plan  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPILER_CACHE = os.path.join(ROOT, "ci", "compiler-cache")


def compiler_cache_on():
    """Whether the builds compile through ci/compiler-cache (ccache, shared by every clone on this machine): yes
    when ccache is installed (ci/setup) unless SHAKEDOWN_CCACHE=0."""
    return os.environ.get("SHAKEDOWN_CCACHE", "1") != "0" and shutil.which("ccache") is not None


def compiler_launcher_args():
    """The cmake arguments that set, or clear, the compiler launcher of a build (a tree configured with the cache
    loses it again when the cache is turned off)."""
    launcher = COMPILER_CACHE if compiler_cache_on() else ""
    return [f"-DCMAKE_{lang}_COMPILER_LAUNCHER={launcher}" for lang in ("C", "CXX", "ASM")]


def compiler_cache_counts_of(print_stats):
    """(hits, misses) in the output of `ccache --print-stats` (one "key<TAB>value" a line); KeyError or ValueError
    when it lacks them (another ccache's format)."""
    stats = dict(line.split("\t", 1) for line in print_stats.splitlines() if "\t" in line)
    hits = int(stats["direct_cache_hit"]) + int(stats["preprocessed_cache_hit"])
    return hits, int(stats["cache_miss"])


def compiler_cache_counts():
    """(hits, misses) of the compiler cache so far, or None when it is off or its counters are unreadable."""
    if not compiler_cache_on():
        return None
    out = subprocess.run([COMPILER_CACHE, "--print-stats"], capture_output=True, text=True)
    try:
        return compiler_cache_counts_of(out.stdout) if out.returncode == 0 else None
    except (KeyError, ValueError):
        return None


def compiler_cache_summary(before, after):
    """"; compiler cache: H of N objects reused" for the build line (other builds running at the same time on this
    machine count too), "; compiler cache off" when it is off, or "" when its counters were unreadable."""
    if before is None or after is None:
        return "; compiler cache off" if not compiler_cache_on() else ""
    hits, misses = after[0] - before[0], after[1] - before[1]
    return f"; compiler cache: {hits} of {hits + misses} objects reused"


class Driver:
    """One run: setup, then every build row the mode runs (configure, build, ctest, time-boxed fuzzing, timing),
    the host checks of the mode, and the gate. Each job is its own class; this one orders them and counts."""

    def __init__(self, args):
        self.args = args
        self.console = Console()
        # Each mode its own folder: a --quick run must not overwrite the last full run's report.
        self.out = os.path.join(ROOT, "build", args.mode)
        self.records = os.path.join(self.out, "records.jsonl")
        self.results = os.path.join(self.out, "results.jsonl")
        self.crashes = os.path.join(self.out, "crashes.jsonl")  # the time-boxed fuzzing's crash files
        self.plans = []         # the plan file of every build configured (the gate reads them)
        self.left_out = set()   # environments this mode does not run, from the plans (for the report)
        self.changed = []       # --fail-fast: the backends the working tree changes (or --only's)

    # ---- configure and build ----
    def run_logged(self, cmd, log):
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"$ {' '.join(cmd)}\n")
            f.flush()
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=ROOT).returncode

    def build(self, preset):
        build_dir = os.path.join(ROOT, "build", preset)
        os.makedirs(build_dir, exist_ok=True)
        log = os.path.join(build_dir, "build.log")
        open(log, "w").close()
        # SHAKEDOWN_TEST_BREAK and SHAKEDOWN_EMUL_TEST_BREAK are always given, so that a tree an earlier run
        # configured with a deliberately broken backend or emulator model goes back to the real code unless this
        # run breaks it again (--break, or --configure -DSHAKEDOWN_EMUL_TEST_BREAK=..., which comes after).
        configure = ["cmake", "--preset", preset, "-S", ROOT, f"-DSHAKEDOWN_TEST_BREAK={self.args.break_}",
                     "-DSHAKEDOWN_EMUL_TEST_BREAK="] + compiler_launcher_args()
        if self.run_logged(configure + self.args.configure, log) != 0:
            tail(log, 40)
            self.console.fail_step(f"configure {preset} (log {log})")
            return None
        started = time.time()
        cached_before = compiler_cache_counts()
        if self.run_logged(["cmake", "--build", "--preset", preset], log) != 0:
            with open(log, encoding="utf-8", errors="replace") as f:
                lines = [line for line in f if "error" in line or "FAILED" in line][:40]
            print("".join("    " + line for line in lines), end="")
            self.console.fail_step(f"build {preset} (log {log})")
            return None
        self.console.note(f"built {preset} in {build_dir} ({self.console.elapsed(started)}"
                          f"{compiler_cache_summary(cached_before, compiler_cache_counts())})")
        return build_dir

    def build_plan(self, row, build_dir):
        """The plan the build's configure wrote (cmake/Matrix.cmake), or None: a failed step."""
        try:
            plan = Plan.of_build(build_dir, row.arch)
        except (OSError, ValueError) as e:
            self.console.fail_step(f"{row.name}: no readable plan in {build_dir} ({e})")
            return None
        self.plans.append(os.path.join(build_dir, f"plan-{row.arch}.jsonl"))
        if not self.args.all_environments:
            self.left_out.update(plan.left_out(row.arch, self.args.mode_group))
        return plan

    # ---- the host checks ----
    def script_step(self, cmd, log, what, tail_lines, env=None):
        """Runs one script of ci/ with its output in log; the tail of the log, then one pass or a failed step."""
        with open(log, "w", encoding="utf-8") as f:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
        tail(log, tail_lines if rc == 0 else 30)
        if rc == 0:
            self.console.count(passed=1)
        else:
            self.console.fail_step(f"{what} (log {log})")

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
        # Per environment, every arch of the run: its fuzz entries and grown corpora under QEMU and the emulators,
        # and the gate of ci/coverage-gate.txt (<out>/env-coverage/coverage.md, per-arch html/).
        self.script_step([os.path.join(ROOT, "ci", "env-coverage"), os.path.join(self.out, "env-coverage"),
                          "--grown", self.out] + [a for arch in self.arches for a in ("--arch", arch)],
                         os.path.join(self.out, "env-coverage.log"), "fuzz coverage per environment: ci/env-coverage",
                         8)

    def timing(self, build_row, build_dir):
        """Deep mode: the timing t-test a build row names (timing=), then its self-test, which must see an
        early-exit comparison; both print to <out>/ct_timing.txt, which the report quotes."""
        program = os.path.join(build_dir, build_row.get("timing"))
        log = os.path.join(self.out, "ct_timing.txt")
        if not os.access(program, os.X_OK):
            self.console.fail_step(f"timing t-test: {program} was not built ({build_row.name})")
            return
        with open(log, "w", encoding="utf-8") as f:
            rcs = [subprocess.run([program] + args, stdout=f, stderr=subprocess.STDOUT).returncode
                   for args in ([], ["--self-test"])]
        for rc, args, failure in zip(rcs, ([], ["--self-test"]),
                                     ("|t| above its threshold", "the self-test missed an early-exit comparison")):
            if rc != 0:
                self.console.fail_step(f"timing t-test {' '.join([os.path.basename(program)] + args)}: {failure} "
                                       f"({log})")
            else:
                self.console.count(passed=1)
        tail(log, 12)

    # ---- the run ----
    def builds(self):
        """[(arch, [build rows])] this mode runs (the arches of changed backends first with --fail-fast), and the
        build rows it leaves out (for the report)."""
        order, skipped = [], set()
        for arch in self.arches:
            rows = []
            for row in self.matrix.builds(arch):
                fuzz_build = row.get("timeboxed") == "libfuzzer" and arch != HOST_ARCH
                if self.args.mode_group not in row.items("modes") or \
                        (fuzz_build and os.environ.get("CROSS_LIBFUZZER") == "0"):
                    skipped.add(row.name)
                else:
                    rows.append(row)
            order.append((arch, rows))
        if self.changed:
            folders = {b.split("/")[1] for b in self.changed}
            order.sort(key=lambda item: BY_NAME[item[0]].folder not in folders)
        return order, skipped

    def refuse(self, text):
        print(f"ci/{self.args.script}: {text}", file=sys.stderr)
        return 2

    def check_names(self):
        """--only and --break name a backend of the matrix: refused at once otherwise. Narrows the arches to
        --only's."""
        names = self.matrix.backends()
        known = sorted({b for bs in names.values() for b in bs})
        if self.args.only:
            where = [a for a, bs in names.items() if self.args.only in bs]
            if not where:
                return self.refuse(f"--only {self.args.only}: no such backend in ci/matrix/ (known: {' '.join(known)})")
            self.arches = [a for a in self.arches if a in where]
            if not self.arches:
                return self.refuse(f"--only {self.args.only} exists only for {' '.join(where)}")
        if self.args.break_ and self.args.break_ not in known:
            return self.refuse(f"--break {self.args.break_}: no such backend in ci/matrix/")
        return 0

    def run(self):
        try:
            self.matrix = Matrix()
        except MatrixError as e:
            return self.refuse(str(e))
        if self.check_names():
            return 2
        if self.args.fail_fast:
            known = {b for bs in self.matrix.backends().values() for b in bs}
            self.changed = [self.args.only] if self.args.only else changed_backends(ROOT, self.matrix, known)
        order, skipped = self.builds()
        os.makedirs(self.out, exist_ok=True)
        # The last run's per-entry times, before they are overwritten: the progress line's estimates.
        self.last_times = last_run_times(self.results)
        for path in (self.records, self.results, self.crashes):
            open(path, "w").close()
        if os.path.exists(os.path.join(self.out, "ct_timing.txt")):  # a deep run's; the report quotes it
            os.remove(os.path.join(self.out, "ct_timing.txt"))
        if self.args.scale:
            os.environ["SHAKEDOWN_TEST_SCALE"] = self.args.scale
        coverage = self.args.mode in ("verify", "deep") and HOST_ARCH in self.arches
        n = 1 + sum(len(rows) for _, rows in order) + (self.args.mode == "test") + coverage + 1
        i = 1
        self.console.step(i, n, f"setup ({self.args.mode} mode; arches {' '.join(a for a, _ in order)}"
                                f"{'; test scale ' + self.args.scale if self.args.scale else ''}"
                                f"{'; fuzz ' + str(self.args.fuzz_seconds) + ' s a target' if self.timeboxing else ''}"
                                f"{'; changed first: ' + ', '.join(self.changed) if self.changed else ''})")
        if subprocess.run([os.path.join(ROOT, "ci", "setup")]).returncode != 0:
            self.console.fail_step("ci/setup")
            self.console.summary()
            return 1
        for arch, rows in order:
            if arch != HOST_ARCH and rows:
                r = subprocess.run([os.path.join(ROOT, "ci", "cross-deps"), arch], capture_output=True, text=True)
                print("".join("    " + line + "\n" for line in (r.stdout + r.stderr).splitlines()), end="")
                if r.returncode != 0:
                    self.console.fail_step(f"ci/cross-deps {arch}")
                    i += len(rows)
                    continue
            for row in rows:
                i += 1
                self.console.step(i, n, f"{row.name}: preset {row.get('preset')}"
                                        f"{'' if arch == HOST_ARCH else ', every entry under qemu-' + arch}")
                if not self.run_build(row):
                    self.console.summary()
                    return 1
        if self.args.mode == "test" and HOST_ARCH in self.arches:
            i += 1
            self.console.step(i, n, "OSS-Fuzz / ClusterFuzzLite build script with OSS-Fuzz-style variables")
            self.fuzz_build_check()
        if coverage:
            i += 1
            self.console.step(i, n, "source coverage of the fuzz corpus (seeds + what the time-boxed runs grew) "
                                    "over lib/ and arch/, on the host and per environment of every arch")
            self.fuzz_coverage()
        i += 1
        self.console.step(i, n, "coverage gate and matrix")
        self.gate(skipped | self.left_out)
        self.console.summary()
        return 0 if self.console.failed == 0 else 1

    def run_build(self, row):
        """One build row: configure and build, its ctest entries, its time-boxed fuzzing and timing. False when
        --fail-fast stopped the run."""
        build_dir = self.build(row.get("preset"))
        if build_dir is None:
            return True
        plan = self.build_plan(row, build_dir)
        if plan is None:
            return True
        ctest = CtestRun(self.console, self.args, row, build_dir, plan, self.out, self.records, self.results,
                         self.changed, self.last_times.get(row.name, {}))
        ctest.run()
        if ctest.stopped:
            return False
        if self.timeboxing and row.get("timeboxed"):
            jobs = [j for j in plan.fuzz_jobs_of(row.name)
                    if self.args.all_environments or not j["modes"] or self.args.mode_group in j["modes"]]
            TimeBoxedFuzzing(self.console, ROOT, row, build_dir, jobs, self.args.fuzz_seconds,
                             os.path.join(self.out, "fuzz", row.arch), self.records, self.crashes,
                             os.path.join(self.out, "crashes")).run()
        if self.args.mode == "deep" and row.get("timing"):
            self.timing(row, build_dir)
        return True

    def gate(self, skipped):
        meta = [f"mode={self.args.mode}",
                f"started={time.strftime('%Y-%m-%dT%H:%M:%S', time.localtime(self.console.start))}",
                f"finished={time.strftime('%Y-%m-%dT%H:%M:%S')}", f"host={os.uname().nodename}",
                f"commit={self.commit()}", f"test_scale={self.args.scale or '1'}"]
        if self.timeboxing:
            meta.append(f"fuzz_seconds={self.args.fuzz_seconds}")
        if self.args.break_:
            meta.append(f"break={self.args.break_}")
        cmd = [sys.executable, os.path.join(ROOT, "ci", "verify_report.py"), "--records", self.records,
               "--results", self.results, "--crashes", self.crashes, "--out", self.out,
               "--arches", ",".join(self.arches)]
        cmd += [f"--plan={p}" for p in self.plans]
        cmd += [f"--not-run-by-mode={','.join(sorted(skipped))}"] if skipped else []
        cmd += ["--only", self.args.only] if self.args.only else []
        for m in meta:
            cmd += ["--meta", m]
        if subprocess.run(cmd).returncode != 0:
            self.console.fail_step("coverage gate / mismatches (see above)")

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
    args.mode_group = "verify" if args.mode == "deep" else args.mode  # the modes= a row names (deep is verify's)
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
            print(f"ci/{args.script}: --arch {a}: known arches are {HOST_ARCH} {' '.join(CROSS_ARCHES)}",
                  file=sys.stderr)
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
