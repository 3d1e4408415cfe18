"""Running one build's ctest entries for the CI driver: which entries (the build row's ctest arguments, the
environments its mode leaves out, --only, --fail-fast's order, all looked up in the build's plan), a progress line
while they run, and a Result per entry from ctest's JUnit, Test.xml and listing."""
import json
import os
import re
import shlex
import subprocess
import threading
import time

import results as res
from console import clock, tail
from gate import charged_backends
from matrix import ALGORITHMS, sanitize

PROGRESS_SECONDS = 30
# Known-answer suites: what --fail-fast runs first of a changed backend (seconds; the long suites after them).
KNOWN_ANSWER_PROGRAMS = ("shakedown_vectors_tests",)
KNOWN_ANSWER_PREFIXES = ("vectors.",)


def ctest_literal(text):
    """A ctest regex (Spencer's syntax, cmsys) that matches this text character for character."""
    return re.sub(r"([\\.^$|()\[\]*+?])", r"\\\1", text)


def exactly(names):
    """A ctest regex that matches these entry names and nothing else."""
    return "^(" + "|".join(ctest_literal(n) for n in sorted(names)) + ")$"


def merge_excludes(args):
    """ctest keeps only the last -E: the arguments with every -E regex joined into one alternation."""
    excluded = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-E"]
    rest = [a for i, a in enumerate(args) if a != "-E" and (i == 0 or args[i - 1] != "-E")]
    if not excluded:
        return rest
    return rest + ["-E", excluded[0] if len(excluded) == 1 else "|".join(f"({e})" for e in excluded)]


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
    return args[:at - 1] + args[at + 1:] + ["-R", exactly(both)]


def params(backend):
    """The GoogleTest parameter names of a backend's tests ('<algorithm or family>__<backend>', params.h)."""
    family, _, name = backend.partition("/")
    return [f"{head}__{sanitize(name)}" for head in ALGORITHMS[family] + (family,)]


def fail_fast_passes(args, env_entries, first=None):
    """[(label, ctest args)] in the order --fail-fast runs them: `first` (the entries of what changed, known answers
    before the rest: [(label, names)]), then the single tests, then the environments' whole-suite entries (their
    names are the plan's, env_entries). ctest keeps one -E, so an -E of the build row is merged into each pass.
    A run already narrowed by -R (--only) stays one pass."""
    if "-R" in args or not env_entries:
        return [("", args)]
    excluded = args[args.index("-E") + 1] if "-E" in args else ""
    rest = [a for i, a in enumerate(args) if a != "-E" and (i == 0 or args[i - 1] != "-E")]
    keep = ["-E", excluded] if excluded else []
    passes, done = [], set()
    for label, names in first or []:
        names = sorted(set(names) - done)
        if names:
            passes.append((label, rest + ["-R", exactly(names)] + keep))
            done.update(names)
    single_out = exactly(set(env_entries) | done)
    passes.append(("single tests", rest + ["-E", f"({excluded})|{single_out}" if excluded else single_out]))
    later = sorted(set(env_entries) - done)
    if later:
        passes.append(("environments", rest + ["-R", exactly(later)] + keep))
    return passes


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


def finished_entry(line):
    """(name, seconds or None) of ctest's line for a finished entry ("  12/140 Test  #12: name ....   Passed
    1.23 sec"), or None for any other line."""
    m = re.match(r"\s*\d+/\d+ Test +#\d+: (.*?) \.{3,}(?:.*?([0-9]+\.[0-9]+) sec\s*$)?", line)
    return (m.group(1), float(m.group(2)) if m.group(2) else None) if m else None


def last_run_times(results_path):
    """{build row: {entry: seconds}} of the previous driver run, from its results.jsonl (read before this run
    truncates it); {} when there is none or it cannot be read."""
    times = {}
    try:
        for r in res.load_results(results_path):
            if r.status != "skipped":
                times.setdefault(r.build, {})[r.test] = r.time
    except res.ResultsError:
        return {}
    return times


class Progress:
    """The line a long ctest run prints every PROGRESS_SECONDS: entries done of total, time spent, the rate, and an
    estimate of the time left.

    The estimate comes from the last run's time of each entry still to run (`times`: the driver's previous results,
    else ctest's record), as ctest runs them JOBS at a time but never sooner than the longest of them, and scaled by
    how this run's finished entries compare with their last times (a busier host, a slower build), within
    SCALE_LIMITS. Without those times it is by count, and only once COUNT_FRACTION of the entries are done: ctest
    starts the costliest entries first, so the first few finished say nothing of the thousands of short ones behind
    them (by count after two entries, an 8-minute phase read "about 12:49:27 left"); from there the count's estimate
    is at most (1 - f) / f times the time spent. Never negative."""
    JOBS = 2
    SCALE_LIMITS = (0.5, 3.0)
    SCALE_MIN_SECONDS = 10  # the scale is read from finished entries whose last times sum to this much at least
    COUNT_FRACTION = 0.25

    def __init__(self, label, names, times, started):
        self.label, self.times, self.started = label, times, started
        self.left = set(names)
        self.done = []
        self.took = {}  # entry: its seconds in this run (ctest's line for it)
        self.total = len(names)

    def finished(self, name, seconds=None):
        if name in self.left:
            self.left.discard(name)
            self.done.append(name)
            if seconds is not None:
                self.took[name] = seconds

    def scale(self):
        """This run's finished entries' time over their last run's, within SCALE_LIMITS; 1 until enough is known."""
        pairs = [(self.took[n], self.times[n]) for n in self.done if n in self.took and n in self.times]
        recorded = sum(r for _, r in pairs)
        if recorded < self.SCALE_MIN_SECONDS:
            return 1.0
        low, high = self.SCALE_LIMITS
        return min(max(sum(t for t, _ in pairs) / recorded, low), high)

    def estimate(self, spent):
        """(seconds left, how it was found), or (None, why there is none yet)."""
        done = self.total - len(self.left)
        known = [self.times[n] for n in self.left if n in self.times]
        if self.left and self.times and len(known) >= len(self.left) / 2:
            typical = sorted(known)[len(known) // 2]
            remaining = sum(known) + typical * (len(self.left) - len(known))
            return max(remaining / self.JOBS, max(known)) * self.scale(), "from the last run's times"
        if not self.left:
            return 0, "from the last run's times"
        if done < max(1, self.COUNT_FRACTION * self.total):
            return None, f"no estimate by count before {self.COUNT_FRACTION:.0%} are done"
        return spent / done * len(self.left), "by count"

    def line(self):
        done = self.total - len(self.left)
        spent = time.time() - self.started
        head = f"    ... {self.label}: {done}/{self.total} tests, {clock(spent)} elapsed"
        if done:
            head += f", {done / max(spent, 1) * 60:.0f} tests/min"
        seconds, how = self.estimate(spent)
        if seconds is None:
            return f"{head} ({how})"
        return f"{head}, about {clock(max(seconds, 0))} left ({how})"

    def report_until(self, proc):
        while proc.poll() is None:
            time.sleep(PROGRESS_SECONDS)
            if proc.poll() is None:
                print(self.line(), flush=True)


def listing(build_dir, args, env):
    """ctest's listing of the entries these arguments select: (its JSON text, their names)."""
    text = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"] + args,
                          capture_output=True, text=True, env=env).stdout
    try:
        return text, [t["name"] for t in json.loads(text).get("tests", [])]
    except json.JSONDecodeError:
        return text, []


class CtestRun:
    """One build row's ctest entries in one driver run. `plan` is the build's own (ci/plan.py, with the names CMake
    registered from it); `options` the driver's (mode, only, fail_fast, all_environments); `changed` the backends
    --fail-fast runs first."""

    def __init__(self, console, options, row, build_dir, plan, out, records, results, changed=(), last_times=None):
        self.console, self.options, self.row, self.build_dir = console, options, row, build_dir
        self.plan, self.out, self.records, self.results, self.changed = plan, out, records, results, list(changed)
        self.last_times = last_times or {}  # entry: seconds in the driver's previous run of this build row
        self.stopped = False  # --fail-fast found a failure

    # ---- which entries ----
    def left_out(self):
        """The env rows whose modes= leave this mode out (unless --all-environments)."""
        if self.options.all_environments:
            return []
        return self.plan.left_out(self.row.arch, self.options.mode_group)

    def only_filters(self):
        """ctest -R and the GoogleTest filter for --only: the backend's parameterised entries; the whole-suite
        vectors and diff entries and the fuzz entries of the environments it runs in (the filter narrows the suites
        to it), leaving out emulated environments that do not expect it; the plain fuzz entries, the MSan driver and
        the constant-time runs, which run every backend.
        An emulated environment fails unless each instruction of its profile ran a minimum number of times, so
        the filter keeps the backends emulated beside this one there (PadLock's phe with phe2)."""
        only = self.options.only
        expectations = self.plan.expectations(self.row.arch)
        expected = {e.env for e in expectations if e.backend == only}
        emulated_here = {e.env for e in expectations if e.backend == only and e.how == "emulated"}
        companions = sorted({e.backend for e in expectations if e.env in emulated_here and e.how == "emulated"}
                            - {only})
        envs = {n for n, r in self.plan.envs.items() if r["arch"] == self.row.arch and r["kind"] == "env" and
                r["checks"] and (not r["emulate"] or n in expected)}
        names = [t["name"] for t in self.plan.tests if t["env"] in envs and
                 (t["program"] in ("shakedown_vectors_tests", "shakedown_diff_tests") or "fuzz" in t["labels"])]
        names = [n for n in names if n in self.plan.registered_names()]
        regex = "/(" + "|".join(params(only)) + ")( |$)|^fuzz\\.|^msan\\.|^ct\\."
        if names:
            regex += "|" + exactly(names)
        return regex, ":".join(f"*/{p}" for b in [only] + companions for p in params(b))

    def args(self, list_entries=None):
        """The ctest arguments of the row in this mode (its ctest=, and verify-ctest= or test-ctest=, less the
        entries of the env rows this mode leaves out, narrowed by --only) and the environment ctest runs with. The
        arguments are None when --only leaves nothing of the row; list_entries (args, env -> names: ctest's listing)
        is needed only for --only on a row with an -R of its own (narrow_includes)."""
        args = self.row.items("ctest")
        args += self.row.items("verify-ctest") if self.options.mode != "test" else self.row.items("test-ctest")
        left_out = self.plan.entries_of(self.left_out())
        if left_out:
            args += ["-E", exactly(left_out)]
        args = merge_excludes(args)
        env = dict(os.environ, SHAKEDOWN_ENV_NAME=self.row.name, SHAKEDOWN_RECORD=self.records)
        env.update(e.partition("=")[::2] for e in self.row.extra_env)
        if self.options.only:
            regex, gtest_filter = self.only_filters()
            args = narrow_includes(args, regex, lambda a: list_entries(a, env))
            env["SHAKEDOWN_GTEST_FILTER"] = gtest_filter  # not GTEST_FILTER: see tests/support/test_main.cc
        return args, env

    def changed_first(self, args, env):
        """--fail-fast: [(label, entry names)] of the changed backends, known answers first: their parameterised
        entries, then the vectors entries of the environments expecting them, then the rest of their own."""
        if not self.changed:
            return []
        _, names = listing(self.build_dir, args, env)
        mine = {n for n in names if res.parse_param(n) and
                any(n.split("  # ")[0].endswith("/" + p) for b in self.changed for p in params(b))}
        expected = {e.env for e in self.plan.expectations(self.row.arch) if e.backend in self.changed}
        env_vectors = {t["name"] for t in self.plan.tests
                       if t["env"] in expected and t["program"] in KNOWN_ANSWER_PROGRAMS} & set(names)
        answers = {n for n in mine if n.startswith(KNOWN_ANSWER_PREFIXES)}
        label = ", ".join(self.changed)
        return [(f"known answers of {label}", answers | env_vectors), (f"the rest of {label}", mine - answers)]

    # ---- running ----
    def run(self):
        """Runs the row's entries; returns the Result of each (from JUnit, Test.xml and the listing). With
        --fail-fast the changed backends' entries run first (known answers before the rest), then the single tests
        (seconds each), then the environments' whole-suite entries (minutes each): ctest starts the costliest
        entries first, which would put the first failure minutes away."""
        args, env = self.args(lambda a, e: listing(self.build_dir, a, e)[1])
        if args is None:
            self.console.note(f"{self.row.name}: no entries of {self.options.only} in this build")
            return []
        passes = [("", args)]
        if self.options.fail_fast:
            passes = fail_fast_passes(args, self.plan.entries_of(self.plan.env_names_of(self.row.arch)),
                                      self.changed_first(args, env))
        found = []
        for label, pass_args in passes:
            found += self.run_pass(pass_args, env, label)
            if self.stopped:
                break
        if not found and self.options.only:
            # --only narrows every build to B's entries; a build with none has nothing of B to run. The gate still
            # fails if B was expected there.
            self.console.note(f"{self.row.name}: no entries of {self.options.only} in this build")
        elif not found:
            self.console.fail_step(f"{self.row.name}: ctest found no tests")
        return found

    def run_pass(self, args, env, label):
        listing_text, names = listing(self.build_dir, args, env)
        if not names:
            return []
        name = f"{self.row.name}{' ' + label if label else ''}"
        tag = re.sub(r"[^A-Za-z0-9.-]", "-", name)[:120]
        junit = os.path.join(self.out, f"junit-{tag}.xml")
        log = os.path.join(self.build_dir, f"ctest-{self.options.mode}{'-' + tag if label else ''}.log")
        cmd = ["ctest", "--test-dir", self.build_dir, "-T", "Test", "--output-junit", junit, "--timeout", "1200",
               "-j2", "--test-output-size-failed", "1000000", "--test-output-truncation", "head"] + args
        if self.options.fail_fast:
            cmd.append("--stop-on-failure")
        self.console.note(f"ctest {name}: {len(names)} entries")
        started = time.time()
        with open(log, "w", encoding="utf-8") as f:
            f.write(f"$ {' '.join(shlex.quote(c) for c in cmd)}\n")
            f.flush()
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
                                    errors="replace")
            progress = Progress(name, names, {**cost_data(self.build_dir), **self.last_times}, started)
            ticker = threading.Thread(target=progress.report_until, args=(proc,), daemon=True)
            ticker.start()
            for line in proc.stdout:
                f.write(line)
                entry = finished_entry(line)  # only for the progress line: the results come from the JUnit file
                if entry:
                    progress.finished(*entry)
            proc.wait()
        if not os.path.exists(junit):
            tail(log, 30)
            self.console.fail_step(f"{name}: ctest wrote no results (exit {proc.returncode}, log {log})")
            return []
        # What the run gave every entry, for the command that reproduces one.
        base_env = [f"{k}={env[k]}" for k in ("SHAKEDOWN_TEST_SCALE", "SHAKEDOWN_GTEST_FILTER") if env.get(k)]
        base_env += self.row.extra_env + [f"SHAKEDOWN_ENV_NAME={self.row.name}"]
        found = res.read_junit(junit, self.row.name, self.row.arch, res.ctest_listing(self.build_dir, listing_text),
                               res.exit_kinds(res.last_test_xml(self.build_dir)), self.row.name, base_env)
        res.append_results(self.results, found)
        bad = [r for r in found if r.status == "failed"]
        passed, skipped = sum(r.status == "passed" for r in found), sum(r.status == "skipped" for r in found)
        self.console.count(passed, len(bad), skipped)
        for r in bad[:10]:
            self.console.note(f"  failed: {r.test} ({r.kind}, environment {r.env})")
        if len(bad) > 10:
            self.console.note(f"  ... and {len(bad) - 10} more (log {log})")
        if bad:
            self.console.failures.append(f"{name}: {len(bad)} ctest failures (log {log})")
        self.console.note(f"{name}: {passed} passed, {len(bad)} failed, {skipped} skipped in "
                          f"{self.console.elapsed(started)}")
        if bad and self.options.fail_fast:
            self.first_failure(bad)
        return found

    def first_failure(self, bad):
        """--fail-fast: what failed first, whose output it was, where, and how to run it again."""
        first = bad[0]
        records = res.load_records(self.records)
        known = {b for bs in self.plan.backends().values() for b in bs}
        backends = charged_backends(first, records, known)
        print(f"\n\033[1mFIRST FAILURE: {first.test}\033[0m")
        print(f"  ended:       {first.kind}")
        print(f"  backend:     {', '.join(backends) if backends else 'none named (not a backend test)'}")
        print(f"  environment: {first.env} (build {first.build}, arch {first.arch})")
        if first.in_flight:
            print(f"  running:     {first.in_flight}")
        print(f"  reproduce:   {first.repro()}")
        print(f"  time to first failure: {self.console.elapsed()}", flush=True)
        self.stopped = True
