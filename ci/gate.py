"""The backend coverage gate: the matrix's expectations against what ran, what failed and what is compiled.

It fails when an expected backend recorded no execution of an expected suite where it should have run, when
a backend's output was wrong anywhere (a test or a fuzz target charged it), when any ctest entry failed, when
a backend the binaries report as compiled is required by no environment of its arch's matrix, and when a
compiled backend ran in no environment at all on this host (a "not run here" row says why: an AVX-512 backend
on a host without AVX-512 whose Bochs rows did not run, say).
"""
import collections
from dataclasses import asdict, dataclass, field

import crash_triage
from matrix import HOST_ARCH
from results import backend_of, parse_param


@dataclass
class Scope:
    """What this run covered: the arches it ran, the environments its mode leaves out, one backend (--only)."""
    arches: set = field(default_factory=set)   # empty: every arch of the matrix
    skipped_envs: set = field(default_factory=set)
    only: str = ""
    host_cpu: object = None  # the host's CPU flags (matrix.host_cpu_flags); None: unknown, every host-cpu= holds


@dataclass
class Cell:
    ran: bool = False
    how: str = "not run"
    result: str = "-"       # "pass", "FAIL" or "-"
    counts: dict = field(default_factory=dict)
    failed: list = field(default_factory=list)  # what failed here: test names, fuzz subjects, ctest entries


@dataclass
class Problem:
    """One reason the gate fails, as data (report.json) and as the sentence the text reports print. kind: not-run
    (the environment did not run), not-compiled, no-executions (a suite recorded none), backend-failed, unattributed
    (a failure no backend is named for), ctest-failed, unrequired (compiled, required nowhere), not-run-here
    (compiled, and no environment ran it on this host), crash-file (left by the time-boxed fuzzing)."""
    kind: str
    text: str              # the sentence
    backend: str = ""      # "family/name", when one is concerned
    environment: str = ""
    suite: str = ""        # no-executions: the record suite that recorded nothing
    test: str = ""         # ctest-failed: the entry; crash-file: the fuzz target
    detail: str = ""       # what failed, how the entry ended, where the file is
    where: str = ""        # the matrix line the expectation comes from
    arch: str = ""
    repro: str = ""        # the command that reproduces it, when there is one

    def __str__(self):
        return self.text

    def to_json(self):
        return asdict(self)


@dataclass
class Evaluation:
    envs: list                # columns in display order
    env_arch: dict
    backends: list            # rows
    cells: dict               # (backend, env) -> Cell
    expectations: list        # the ones checked
    problems: list
    notes: list
    ctest: dict               # passed / failed / skipped counts and the failed entries
    not_run_here: dict = field(default_factory=dict)  # (arch, backend) -> why it ran in no environment on this host
    compiled: dict = field(default_factory=dict)      # arch -> the backends its binaries report as compiled
    crashes: list = field(default_factory=list)  # the time-boxed fuzzing's crash files: ci/fuzz_run.py's records
    constant_time: object = None  # ct_coverage.ConstantTime, added by the report
    # [(arch, env, backend, code, digests, {instruction kind: count})]: which third-party code ran on which backend's
    # model, how many digests it got right there and what the model executed for them
    third_party: list = field(default_factory=list)


def env_rank(env, plan):
    """Builds first (in file order), then CPU models, then emulated profiles, then anything unknown."""
    order = plan.env_names()
    if env in order:
        row = plan.envs[env]
        kind = 0 if row["kind"] == "build" else 2 if row["emulate"] or row["self_test"] else 1
        return (kind, order.index(env), env)
    return (3, 0, env)


def evaluate(plan, records, results, scope, crashes=()):
    """The gate over the resolved plan (ci/plan.py: environments and expectations) of the run's builds. crashes: the
    files the time-boxed fuzzing left (ci/fuzz_run.py), a problem per crash signature (ci/crash_triage.py)."""
    all_expect = plan.all_expectations()
    known = {e.backend for e in all_expect} | {b for bs in records.compiled.values() for b in bs} | \
            {b for (_, b) in records.runs}
    covered = scope.arches or set(plan.arches())
    expect = [e for e in all_expect
              if e.arch in covered and e.env not in scope.skipped_envs and (not scope.only or e.backend == scope.only)]
    expect, notes, host_lacks = _on_this_host(expect, scope.host_cpu)
    notes += [f"environment {env} is not run in this mode; its expectations were not checked"
              for env in sorted(scope.skipped_envs)]
    notes += [f"arch {a} was not run (--arch); ci/matrix/{a}.txt was not checked"
              for a in sorted(set(plan.arches()) - covered)]

    env_arch = plan.arch_of_env()
    env_arch.update({env: arch for env, arch in records.envs.items() if arch})
    for r in results:
        env_arch.setdefault(r.env, r.arch)
    ran_envs = set(records.envs) | {r.env for r in results}
    envs = sorted({e.env for e in expect} | {env for env in ran_envs if env_arch.get(env, "") in covered | {""}},
                  key=lambda env: env_rank(env, plan))

    failed, unattributed = _failures(records, results, known)
    # Every compiled backend is a row, whether or not anything here ran it.
    compiled = {arch: set(records.compiled.get(arch, ())) for arch in covered}
    backends = sorted({e.backend for e in expect} | {b for (_, b) in records.runs if b} | {b for (b, _) in failed} |
                      {b for bs in compiled.values() for b in bs})
    if scope.only:
        backends = [b for b in backends if b == scope.only]
    how_of = {(e.env, e.backend): e.how for e in all_expect}
    cells = {}
    for b in backends:
        for env in envs:
            counts = dict(records.runs.get((env, b), {}))
            ran = sum(counts.values()) > 0
            how = how_of.get((env, b)) or _how(plan, env, env_arch.get(env, ""))
            fails = failed.get((b, env), [])
            cells[(b, env)] = Cell(ran=ran or bool(fails), how=how if ran or fails else "not run",
                                   result="FAIL" if fails else ("pass" if ran else "-"), counts=counts, failed=fails)

    ctest_failed = [r for r in results if r.status == "failed"]
    not_run_here = _ran_nowhere(plan, compiled, cells, env_arch, all_expect, host_lacks, scope)
    problems = _missing(expect, ran_envs, records, cells) + _unrequired(plan, records, covered, scope)
    problems += [Problem("not-run-here", f"{b} ({arch}): not run here: {why}", backend=b, detail=why, arch=arch)
                 for (arch, b), why in not_run_here.items() if not why.startswith("not in this mode")]
    for (b, env), cell in cells.items():
        if cell.result == "FAIL":
            what = f"{', '.join(cell.failed[:3])}{f', and {len(cell.failed) - 3} more' if len(cell.failed) > 3 else ''}"
            problems.append(Problem("backend-failed", f"{b} in {env}: FAILED ({what})", backend=b, environment=env,
                                    detail="; ".join(cell.failed), arch=env_arch.get(env, "")))
    # Everything that failed is a problem, --only or not: a narrowed run ran only what concerns the backend.
    problems += [Problem("unattributed", f"unattributed: {f.test} failed in {f.env}", environment=f.env,
                         test=f.test, detail=f"{f.test} failed", arch=f.arch) for f in unattributed]
    problems += [Problem("ctest-failed", f"ctest {r.build}: {r.test} {r.kind.lower() if r.kind else 'failed'} "
                                         f"(environment {r.env})",
                         backend=_ctest_backend(r, records, known) or "", environment=r.env, test=r.test,
                         detail=r.kind or "Failed", arch=r.arch, repro=r.repro()) for r in ctest_failed]
    problems += [Problem("crash-file", f"{c['target']} in {c['env']}: {c['kind']} file {c['file']}"
                                       + (f" [{c['signature']}]" if c.get("signature") else "")
                                       + (f" and {n - 1} more with that signature" if n > 1 else "")
                                       + f" (reproduce: {c['repro']})",
                         environment=c["env"], test=c["target"], detail=c["file"], arch=c.get("arch", ""),
                         repro=c["repro"]) for c, n in crash_triage.distinct(crashes)]

    ctest = {"passed": sum(r.status == "passed" for r in results), "failed": len(ctest_failed),
             "skipped": sum(r.status == "skipped" for r in results),
             "failures": [{"build": r.build, "test": r.test, "kind": r.kind, "env": r.env,
                           "backend": _ctest_backend(r, records, known) or "",
                           "repro": r.repro()} for r in ctest_failed]}
    insns = records.third_party_instructions
    third_party = sorted((env_arch.get(env, ""), env, b, code, n, dict(insns.get((env, b, code), {})))
                         for (env, b), codes in records.third_party.items()
                         for code, n in codes.items() if env in envs and b in backends and n > 0)
    return Evaluation(envs, env_arch, backends, cells, expect, problems, notes, ctest, not_run_here=not_run_here,
                      compiled=compiled, crashes=list(crashes), third_party=third_party)


def _on_this_host(expect, host_cpu):
    """The expectations this host can meet, a note for each backend left out (a host-cpu= condition whose flags
    this host's CPU lacks: a backend no CPU here can execute natively is not required of the native runs; it is of
    every host that can, and of the emulators everywhere), and {backend: the flags it lacks}. Flags that could not
    be read keep every expectation."""
    if host_cpu is None:
        conditioned = sorted({e.backend for e in expect if e.host_cpu})
        return expect, [f"this host's CPU flags could not be read (/proc/cpuinfo): {', '.join(conditioned)} "
                        f"required wherever host-cpu= conditions them"] if conditioned else [], {}
    kept, left_out = [], collections.defaultdict(list)
    for e in expect:
        missing = tuple(sorted(set(e.host_cpu) - host_cpu))
        if missing:
            left_out[(e.backend, missing, e.where)].append(e.env)
        else:
            kept.append(e)
    notes = [f"{backend} is not required in {', '.join(sorted(envs))}: this host's CPU lacks {', '.join(missing)} "
             f"(the kernel's flags; {where}), so no native run here can execute it"
             for (backend, missing, where), envs in sorted(left_out.items())]
    return kept, notes, {backend: missing for (backend, missing, _) in left_out}


def _ran_nowhere(plan, compiled, cells, env_arch, all_expect, host_lacks, scope):
    """{(arch, backend): why} for each compiled backend that no environment of its arch ran on this host. A backend
    whose every expectation lies in environments this mode leaves out is "not in this mode" (shown, not a
    problem)."""
    out = {}
    for arch, b in sorted((arch, b) for arch, bs in compiled.items() for b in bs):
        if scope.only and b != scope.only:
            continue
        if any(c.ran for (cb, env), c in cells.items() if cb == b and env_arch.get(env) == arch):
            continue
        envs = sorted({e.env for e in all_expect if e.backend == b and e.arch == arch})
        unregistered = [f"{e} ({plan.envs[e]['why_not_registered']})" for e in envs
                        if e in plan.envs and plan.envs[e].get("why_not_registered")]
        if envs and all(e in scope.skipped_envs for e in envs):
            out[(arch, b)] = f"not in this mode (its environments: {', '.join(envs)})"
        elif b in host_lacks:
            out[(arch, b)] = (f"this host's CPU lacks {', '.join(host_lacks[b])} and no emulator environment ran it"
                              + (f"; not registered: {', '.join(unregistered)}" if unregistered else ""))
        elif unregistered:
            out[(arch, b)] = f"its environments were not registered: {', '.join(unregistered)}"
        else:
            out[(arch, b)] = f"no environment ran it (expected in {', '.join(envs) or 'none'})"
    return out


def _failures(records, results, known):
    """{(backend, env): [what failed]} from the charged failure records, then from failed ctest entries whose
    binary charged nobody; and the failures no backend can be named for."""
    failed = collections.defaultdict(list)
    unattributed = []
    for f in records.failures:
        backend = f.backend or backend_of(f.test, known)
        if backend:
            failed[(backend, f.env)].append(f.test)
        else:
            unattributed.append(f)
    for r in results:
        if r.status == "failed":
            backend = _ctest_backend(r, records, known)
            if backend:
                failed[(backend, r.env)].append(f"{r.test} ({r.kind})")
    return failed, unattributed


def _missing(expect, ran_envs, records, cells):
    """Expectations not met: the environment did not run, the backend is not compiled, or it recorded nothing."""
    problems = []
    for e in expect:
        of = {"backend": e.backend, "environment": e.env, "where": e.where, "arch": e.arch}
        if e.env not in ran_envs:
            problems.append(Problem("not-run", f"{e.backend} in {e.env}: environment did not run at all ({e.where})",
                                    detail="environment did not run at all", **of))
            continue
        compiled = records.compiled.get(e.arch)
        if compiled and e.backend not in compiled:
            problems.append(Problem("not-compiled", f"{e.backend} in {e.env}: not compiled into this build "
                                                    f"({e.where})", detail="not compiled into this build", **of))
            continue
        cell = cells.get((e.backend, e.env), Cell())
        for suite in e.suites:
            if cell.counts.get(suite, 0) == 0:
                detail = f"expected to run ({e.how}) but recorded zero {suite} executions: unavailable, skipped, " \
                         f"or not built"
                problems.append(Problem("no-executions", f"{e.backend} in {e.env}: {detail} ({e.where})",
                                        suite=suite, detail=detail, **of))
    return problems


def _unrequired(plan, records, covered, scope):
    """The flagship rule for every backend: compiled means required to run somewhere in its arch's matrix."""
    problems = []
    for arch in sorted(covered):
        required = {e.backend for e in plan.expectations(arch)} if arch in plan.arches() else set()
        for b in sorted(records.compiled.get(arch, set()) - required):
            if not scope.only or b == scope.only:
                problems.append(Problem("unrequired", f"{b} is compiled for {arch} but no environment of "
                                                      f"ci/matrix/{arch}.txt requires it to run: add an expect line "
                                                      f"(or a select=) for it",
                                        backend=b, arch=arch, where=f"ci/matrix/{arch}.txt",
                                        detail="compiled but required by no environment"))
    return problems


def _ctest_backend(r, records, known):
    """The backend a failed ctest entry is charged to when its binary did not charge one itself: the test that
    was running when the binary crashed or timed out, else the entry's own parameter if no failure record of
    the same test exists (the test main records failures under the backend that produced wrong output, which
    for a handoff test is not the parameter's)."""
    if r.in_flight:
        return backend_of(r.in_flight, known)
    if _recorded(r, records):
        return None
    return backend_of(r.test, known)


def _recorded(r, records):
    """The failure records of the GoogleTest test a per-test ctest entry ran."""
    gtest = r.test.split("  # GetParam() = ", 1)[0]
    return [f for f in records.failures if f.env == r.env and (gtest == f.test or gtest.endswith("." + f.test))]


def charged_backends(r, records, known):
    """Every backend a failed ctest entry is charged to: the ones its test charged, else as _ctest_backend;
    for an entry that runs a whole suite, the backends its environment's failure records name."""
    def named(failures):
        return sorted({f.backend or backend_of(f.test, known) or "" for f in failures} - {""})
    charged = named(_recorded(r, records))
    if charged and not r.in_flight:
        return charged
    backend = _ctest_backend(r, records, known)
    if backend:
        return [backend]
    return named(f for f in records.failures if f.env == r.env) if not parse_param(r.test) else []


def _how(plan, env, arch):
    """How a backend no expectation names ran: under QEMU or natively. Only expectations say "emulated" (an
    emulated environment runs the other backends natively or under QEMU, beside the emulated ones)."""
    row = plan.envs.get(env)
    if row is not None:
        runner = row["runner"] if row["kind"] == "env" else "native" if row["arch"] == HOST_ARCH else "qemu"
        return "QEMU" if runner.startswith("qemu") else "Bochs" if runner == "bochs" else "native"
    return "QEMU" if "qemu" in env or (arch and arch != HOST_ARCH) else "native"
