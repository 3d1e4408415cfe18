#!/usr/bin/env python3
"""The verification matrix (ci/matrix/<arch>.txt): its one reader, for CMake, the CI driver and the gate.

  ci/matrix.py plan ARCH OUT [FACT=VALUE...]
                                      writes ARCH's resolved plan (OUT "-": standard output) for a build with
                                      these facts (ci/plan.py: every
                                      ctest entry, contract run, time-boxed fuzz job and expectation, spelled out;
                                      CMake runs this at configure time: cmake/Matrix.cmake)
  ci/matrix.py check                  reads every arch and prints a summary; exit 2 on any error
  ci/matrix.py expectations ARCH      the resolved expectations (explicit and implied by select=), one a line

The grammar is in ci/matrix/README.md. Everything that knows "which environment exists, what it selects,
which backend must run there" gets it from here, so nothing restates it.
"""
import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arches import HOST_ARCH  # noqa: E402 (ci/arches.txt: the arch whose builds run natively on the CI host)

MATRIX_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matrix")

FAMILIES = ("sha256", "sha512", "keccak")
# Algorithms of each family, in the spelling of GoogleTest parameter names (lib/include/shakedown/algorithm.h
# names with every character outside [A-Za-z0-9] replaced by '_', tests/support/params.cc).
ALGORITHMS = {
    "sha256": ("sha224", "sha256"),
    "sha512": ("sha384", "sha512", "sha512_224", "sha512_256"),
    "keccak": ("sha3_224", "sha3_256", "sha3_384", "sha3_512", "shake128", "shake256"),
}
HOW = ("native", "QEMU", "Bochs", "emulated")
# Who executes an env row's binaries: this host, Debian's QEMU 7.2 (qemu-<arch>), QEMU 10 (ci/fetch-qemu10), Bochs
# 3.0 booting a small Linux guest (ci/bochs/fetch, ci/bochs/run; x86-64 only: its cpu= is a Bochs CPU model).
RUNNERS = ("native", "qemu", "qemu10", "bochs")

# Keys each row kind accepts; "env:NAME=VALUE" items (extra environment) are accepted by both.
BUILD_KEYS = {"preset", "modes", "ctest", "verify-ctest", "test-ctest", "checks", "timeboxed", "timing"}
ENV_KEYS = {"like", "runner", "cpu", "suites", "self-test", "filter", "emulate", "assume", "require", "scale",
            "select", "fuzz", "fuzz-targets", "fuzz-require", "labels", "timeout", "checks", "timeboxed", "modes",
            "needs", "run", "args", "third-party"}
CONTRACT_KEYS = {"args", "require", "flips"}
# The environment of a contract line that is the build's own on the host: no runner, no profile.
NATIVE = "native"
MODES = ("test", "verify", "quick")
FUZZ_MODES = ("replay", "random")
# The fuzz targets: fuzz/targets.txt, the one list.
with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz", "targets.txt"),
          encoding="utf-8") as _f:
    FUZZ_TARGETS = tuple(line.strip() for line in _f if line.strip() and not line.startswith("#"))
# Record suites (the "suite" of an execution record, tests/support/records.h) that a row's gtest suites and
# fuzz entries produce for every backend they run: the default of `checks=`.
COVERAGE_SUITES = ("vectors", "diff")
# Every record suite an expectation may ask for (vectors/, diff/, fuzz/, tests/msan_check.cc, the constant-time
# suite tests/ct_check.cc, the x86 backend tests, the unit tests' pinned-backend checks, and the multi-lane runs of
# the many-message diff suite and fuzz_many, and third-party code run on a backend's instruction model).
RECORD_SUITES = ("vectors", "diff", "fuzz", "msan", "ct", "x86_64", "pinned", "multi", "fuzz-multi", "third-party")
# A host-cpu= flag of an expect line: a CPU flag as the Linux kernel spells it in /proc/cpuinfo.
HOST_CPU_FLAG = re.compile(r"[a-z0-9_]+")


class MatrixError(Exception):
    pass


def sanitize(name):
    """A name as it appears in a GoogleTest parameter: every character outside [A-Za-z0-9] becomes '_'."""
    return re.sub(r"[^A-Za-z0-9]", "_", name)


@dataclass
class Row:
    kind: str          # "build" (a preset the CI driver builds and runs) or "env" (ctest variants in a build)
    name: str          # the environment name: ctest prefix, SHAKEDOWN_ENV_NAME, matrix column
    arch: str
    where: str         # file:line
    fields: dict = field(default_factory=dict)
    extra_env: list = field(default_factory=list)  # "NAME=VALUE" items, in file order

    def get(self, key, default=""):
        return self.fields.get(key, default)

    def without(self, key):
        """The same row without one key."""
        return Row(self.kind, self.name, self.arch, self.where, {k: v for k, v in self.fields.items() if k != key},
                   list(self.extra_env))

    def items(self, key):
        """A comma-separated field as a list (empty when absent or cleared)."""
        value = self.fields.get(key, "")
        return [v for v in value.split(",") if v] if value else []

    @property
    def runner(self):
        if self.kind == "build":
            return "native" if self.arch == HOST_ARCH else "qemu"
        return self.get("runner", "native")

    @property
    def select(self):
        """{family: backend} this environment's registry must select (SHAKEDOWN_EXPECT_SELECTED)."""
        out = {}
        for item in self.items("select"):
            family, _, backend = item.partition("=")
            out[family] = backend
        return out

    @property
    def checks(self):
        """The record suites every backend expected here must show."""
        if "checks" in self.fields:
            return self.items("checks")
        if self.kind == "build":
            return ["vectors", "diff"]
        if self.get("third-party") and self.get("emulate"):  # third-party code on a model (docs/third-party.md)
            return ["third-party"]
        out = [s for s in self.items("suites") if s in COVERAGE_SUITES]
        if self.items("fuzz"):
            out.append("fuzz")
        return out

    def how(self):
        """How backends run here unless an expectation says otherwise."""
        if self.get("emulate"):
            return "emulated"
        return {"qemu": "QEMU", "qemu10": "QEMU", "bochs": "Bochs"}.get(self.runner, "native")

    def in_mode(self, mode):
        """Whether the CI driver's mode runs this row (modes=; every mode when absent)."""
        return not self.items("modes") or mode in self.items("modes")

    def runs(self, family, backend):
        """Whether the row's GoogleTest filter lets tests of family/backend run (parameters are
        '<algorithm or family>__<backend>', tests/support/params.h)."""
        flt = self.get("filter")
        if not flt:
            return True
        positive, _, negative = flt.partition("-")
        positive = [p for p in positive.split(":") if p] or ["*"]
        negative = [p for p in negative.split(":") if p]
        for alg in ALGORITHMS[family] + (family,):
            name = f"Suite/Test.Name/{alg}__{sanitize(backend)}"
            if any(fnmatch.fnmatchcase(name, p) for p in positive) and \
                    not any(fnmatch.fnmatchcase(name, p) for p in negative):
                return True
        return False


@dataclass
class Contract:
    """One contract line: inline-asm contract tests (tests/asm_contract/) run in environments."""
    families: list
    envs: list         # env row names, or NATIVE
    args: list
    require: str
    flips: list        # the envs where the flipped copies run too
    where: str


@dataclass
class BackendFacts:
    """A `backend` line: what is true of a backend wherever it is expected."""
    backend: str         # "family/name"
    needs_cpu: tuple     # the host CPU flags without which no native run can execute it (x86-64 host only)
    lanes: bool          # it has a multi-lane function: expectations add the multi-lane record suites
    where: str


# The record suites a backend with lanes adds where an environment checks the suites they ride on: the
# many-message diff suite beside the vectors and diff suites, fuzz_many beside the fuzz entries.
LANE_SUITES = ((("vectors", "diff"), "multi"), (("fuzz",), "fuzz-multi"))


def lane_suites(checks):
    """The multi-lane record suites an environment with these checks records for a backend with lanes."""
    return [lanes for needed, lanes in LANE_SUITES if all(s in checks for s in needed)]


@dataclass
class Expectation:
    env: str
    backend: str       # "family/name"
    how: str
    suites: list
    where: str
    arch: str
    implied: bool = False  # from the environment's select=
    host_cpu: tuple = ()   # host-cpu=: required only on a host whose CPU has every one of these flags


def host_cpu_flags(path="/proc/cpuinfo"):
    """The CPU flags the kernel reports for this host (the first "flags" line of /proc/cpuinfo), or None where
    there is none to read. The kernel's view on purpose: a host-cpu= condition must not take its answer from the
    library's own CPUID code, the detection whose failure the gate is there to catch (the kernel also drops the
    AVX and AVX-512 flags when it does not enable their register state)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and key.strip() == "flags":
                    return set(value.split())
    except OSError:
        pass
    return None


class Matrix:
    def __init__(self, directory=MATRIX_DIR, arches=None):
        self.directory = directory
        self.rows = {}         # arch -> [Row] in file order
        self.expect_lines = {}  # arch -> [(envs, [backend], how, suites, where)]
        self.backend_facts = {}  # arch -> {family/backend: BackendFacts}: the `backend` lines
        self.contracts = {}    # arch -> [Contract]
        names = sorted(f[:-4] for f in os.listdir(directory) if f.endswith(".txt"))
        for arch in arches or names:
            if arch not in names:
                raise MatrixError(f"no matrix for arch '{arch}' (known: {', '.join(names)})")
            self._read(arch)
        self._validate()

    # ---- reading ----
    def _read(self, arch):
        path = os.path.join(self.directory, arch + ".txt")
        rows, expects, contracts, facts = [], [], [], {}
        by_name = {}
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                where = f"{os.path.relpath(path, os.path.dirname(os.path.dirname(self.directory)))}:{lineno}"
                text = re.sub(r"(^|\s)#.*", "", line).strip()
                if not text:
                    continue
                if re.search(r"[;\"]", text):
                    raise MatrixError(f"{where}: characters ; and \" are not allowed")
                tokens = text.split()
                kind = tokens[0]
                if kind in ("build", "env"):
                    if len(tokens) < 2 or "=" in tokens[1]:
                        raise MatrixError(f"{where}: '{kind}' needs a NAME before its key=value items")
                    row = Row(kind, tokens[1], arch, where)
                    if row.name in by_name:
                        raise MatrixError(f"{where}: environment '{row.name}' is declared twice")
                    self._fields(row, tokens[2:], by_name)
                    # Entries are named <env>.<suite>, and a mode leaves an environment out by that prefix, so a
                    # row whose name extends another's with a dot is left out wherever that one is: it may run in
                    # fewer modes, never in more (qemu-s390x.max.cpacf_conformance runs with qemu-s390x.max).
                    for other in by_name.values():
                        outer, inner = ((other, row) if row.name.startswith(other.name + ".") else
                                        (row, other) if other.name.startswith(row.name + ".") else (None, None))
                        if outer and outer.kind == inner.kind == "env" and \
                                any(inner.in_mode(m) and not outer.in_mode(m) for m in MODES):
                            raise MatrixError(f"{where}: '{inner.name}' extends '{outer.name}' with a dot, so every "
                                              f"mode that leaves '{outer.name}' out leaves it out too: its modes= "
                                              f"must be among that row's, or its name must not nest")
                    # CMake reads env rows as list items and strings (ctest regexes of build rows it never sees).
                    if kind == "env" and re.search(r"[\\$\[\]]", text):
                        raise MatrixError(f"{where}: characters \\ $ [ ] are not allowed in env rows")
                    rows.append(row)
                    by_name[row.name] = row
                elif kind == "expect":
                    expects.append(self._expect_line(tokens, where))
                elif kind == "backend":
                    fact = self._backend_line(arch, tokens, where)
                    if fact.backend in facts:
                        raise MatrixError(f"{where}: backend {fact.backend} is stated twice (first at "
                                          f"{facts[fact.backend].where}): its facts are stated once")
                    facts[fact.backend] = fact
                elif kind == "contract":
                    contracts.append(self._contract(tokens, where))
                else:
                    raise MatrixError(f"{where}: a line starts with 'build', 'env', 'contract', 'backend' or "
                                      f"'expect', not '{kind}'")
        self.rows[arch] = rows
        self.expect_lines[arch] = expects
        self.contracts[arch] = contracts
        self.backend_facts[arch] = facts

    @staticmethod
    def _expect_line(tokens, where):
        """(envs, [backend], how, suites, where) of `expect ENVS FAMILY/BACKEND[,...] [HOW] [SUITE...]`."""
        usage = "expected 'expect ENVS FAMILY/BACKEND[,FAMILY/BACKEND...] [HOW] [SUITE...]'"
        if len(tokens) < 3 or "=" in tokens[1] or "=" in tokens[2]:
            raise MatrixError(f"{where}: {usage}")
        for tok in tokens[3:]:
            if tok.startswith("host-cpu="):
                raise MatrixError(f"{where}: '{tok}': a backend's CPU flags are stated once, on its backend line "
                                  f"(backend FAMILY/NAME needs-cpu=...)")
            if "=" in tok:
                raise MatrixError(f"{where}: '{tok}': an expect line takes no key=value; {usage}")
        rest = tokens[3:]
        how = rest[0] if rest and rest[0] in HOW else ""
        suites = rest[1:] if how else rest
        return tokens[1].split(","), tokens[2].split(","), how, suites, where

    @staticmethod
    def _backend_line(arch, tokens, where):
        """`backend FAMILY/NAME [needs-cpu=FLAG+FLAG...] [lanes]`: the facts of one backend, stated once."""
        usage = "expected 'backend FAMILY/NAME [needs-cpu=FLAG+FLAG...] [lanes]'"
        if len(tokens) < 2 or "=" in tokens[1] or tokens[1].count("/") != 2:
            raise MatrixError(f"{where}: {usage}")
        family = tokens[1].partition("/")[0]
        if family not in FAMILIES:
            raise MatrixError(f"{where}: '{tokens[1]}': unknown family '{family}' ({', '.join(FAMILIES)})")
        needs, lanes = (), False
        for tok in tokens[2:]:
            key, eq, value = tok.partition("=")
            if tok == "lanes":
                lanes = True
            elif key == "needs-cpu" and eq:
                needs = tuple(value.split("+"))
                bad = [f for f in needs if not HOST_CPU_FLAG.fullmatch(f)]
                if bad:
                    raise MatrixError(f"{where}: needs-cpu= takes CPU flags as /proc/cpuinfo spells them, joined by "
                                      f"'+', not '{value}'")
                if arch != HOST_ARCH:
                    raise MatrixError(f"{where}: needs-cpu= conditions native runs on the {HOST_ARCH} host only")
            else:
                raise MatrixError(f"{where}: '{tok}'; {usage}")
        return BackendFacts(tokens[1], needs, lanes, where)

    @staticmethod
    def _contract(tokens, where):
        if len(tokens) < 3 or "=" in tokens[1] or "=" in tokens[2]:
            raise MatrixError(f"{where}: expected 'contract FAMILY[,FAMILY...] ENV[,ENV...] [key=value...]'")
        fields = {}
        for tok in tokens[3:]:
            key, eq, value = tok.partition("=")
            if not eq or key not in CONTRACT_KEYS:
                raise MatrixError(f"{where}: '{tok}': a contract line takes {', '.join(sorted(CONTRACT_KEYS))}")
            fields[key] = value
        if re.search(r"[\\$\[\]]", " ".join(tokens)):
            raise MatrixError(f"{where}: characters \\ $ [ ] are not allowed in contract lines")
        split = lambda v: [x for x in v.split(",") if x]  # noqa: E731
        return Contract(split(tokens[1]), split(tokens[2]), split(fields.get("args", "")), fields.get("require", ""),
                        split(fields.get("flips", "")), where)

    @staticmethod
    def _fields(row, tokens, by_name):
        allowed = BUILD_KEYS if row.kind == "build" else ENV_KEYS
        items = []
        for tok in tokens:
            key, eq, value = tok.partition("=")
            if not eq:
                raise MatrixError(f"{row.where}: '{tok}' is not key=value")
            items.append((key, value))
        like = dict(items).get("like")
        if like:
            base = by_name.get(like)
            if base is None or base.kind != row.kind:
                raise MatrixError(f"{row.where}: like={like}: no earlier {row.kind} row of that name")
            row.fields = {k: v for k, v in base.fields.items() if k != "like"}
            row.extra_env = list(base.extra_env)
        for key, value in items:
            if key.startswith("env:"):
                name = key[4:]
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    raise MatrixError(f"{row.where}: '{key}': environment variable names are [A-Za-z0-9_]")
                row.extra_env = [e for e in row.extra_env if e.partition("=")[0] != name] + [f"{name}={value}"]
                continue
            if key not in allowed:
                raise MatrixError(f"{row.where}: unknown key '{key}' for a {row.kind} row "
                                  f"(known: {', '.join(sorted(allowed))}, env:NAME)")
            if key == "like":
                continue
            if value.startswith("@"):  # the same field of an earlier row: a CPU string is written once
                # "@ROW,MORE": that row's value and more items (a CPU model with one more property).
                name, comma, more = value[1:].partition(",")
                ref = by_name.get(name)
                if ref is None or key not in ref.fields:
                    raise MatrixError(f"{row.where}: {key}={value}: no earlier row '{name}' with {key}=")
                value = ref.fields[key] + comma + more
            row.fields[key] = value

    def _validate(self):
        for arch, rows in self.rows.items():
            for row in rows:
                w = row.where
                for mode in row.items("modes"):
                    if mode not in MODES:
                        raise MatrixError(f"{w}: modes: '{mode}' is not one of {', '.join(MODES)}")
                for suite in row.items("checks"):
                    if suite not in RECORD_SUITES:
                        raise MatrixError(f"{w}: checks: unknown record suite '{suite}' "
                                          f"(known: {', '.join(RECORD_SUITES)})")
                if row.kind == "build":
                    if not row.get("preset"):
                        raise MatrixError(f"{w}: a build row needs preset=")
                    if row.get("timeboxed") not in ("", "libfuzzer", "standalone"):
                        raise MatrixError(f"{w}: timeboxed= of a build is libfuzzer or standalone")
                    continue
                if row.runner not in RUNNERS:
                    raise MatrixError(f"{w}: runner must be {', '.join(RUNNERS[:-1])} or {RUNNERS[-1]}")
                if row.runner != "native" and not row.get("cpu"):
                    raise MatrixError(f"{w}: a {row.runner} row needs cpu=")
                if row.runner == "native" and arch != HOST_ARCH:
                    raise MatrixError(f"{w}: {arch} is a cross arch: its rows run under qemu")
                if row.runner == "bochs" and arch != HOST_ARCH:
                    raise MatrixError(f"{w}: Bochs runs {HOST_ARCH} code only")
                if row.runner == "bochs" and any(not i.startswith("kernel:") for i in row.get("cpu").split(",")[1:]):
                    raise MatrixError(f"{w}: a Bochs cpu= is MODEL[,kernel:ARG...], not {row.get('cpu')}")
                for item in row.items("select"):
                    family, eq, backend = item.partition("=")
                    if family not in FAMILIES or not eq or not backend:
                        raise MatrixError(f"{w}: select: '{item}' is not FAMILY=BACKEND")
                for mode in row.items("fuzz"):
                    if mode not in FUZZ_MODES:
                        raise MatrixError(f"{w}: fuzz: '{mode}' is not one of {', '.join(FUZZ_MODES)}")
                for key in ("fuzz-targets", "timeboxed"):
                    for target in row.items(key):
                        if target not in FUZZ_TARGETS:
                            raise MatrixError(f"{w}: {key}: unknown fuzz target '{target}'")
                for key in ("scale", "timeout"):
                    if row.get(key) and not re.fullmatch(r"[0-9]+(\.[0-9]+)?", row.get(key)):
                        raise MatrixError(f"{w}: {key} must be a number")
                for item in row.items("needs"):
                    family, _, name = item.partition("/")
                    if family not in FAMILIES or not name:
                        raise MatrixError(f"{w}: needs: '{item}' is not FAMILY/BACKEND")
                if row.get("run") and (row.items("suites") or row.get("self-test") or row.items("fuzz")):
                    raise MatrixError(f"{w}: a run= row runs that one program (no suites=, self-test= or fuzz=)")
                if row.items("args") and not row.get("run"):
                    raise MatrixError(f"{w}: args= are the arguments of run=")
                if row.get("third-party") and (not row.get("run") or row.runner not in ("native", "qemu", "qemu10")):
                    raise MatrixError(f"{w}: third-party= is the kit of a run= row's program, run natively or under "
                                      f"qemu")
                if row.get("third-party") and not re.fullmatch(r"[a-z0-9.-]+", row.get("third-party")):
                    raise MatrixError(f"{w}: third-party= names a kit of ci/fetch-third-party")
                contracted = any(row.name in c.envs for c in self.contracts[arch])
                if not (row.items("suites") or row.get("self-test") or row.items("fuzz") or row.get("run") or
                        contracted):
                    raise MatrixError(f"{w}: environment runs nothing (no suites=, self-test=, fuzz=, run= or "
                                      f"contract line)")
            self._validate_contracts(arch)
            self.expectations(arch)  # resolves every pattern: an expectation that matches nothing is an error

    def _validate_contracts(self, arch):
        envs = {r.name: r for r in self.envs(arch)}
        for c in self.contracts[arch]:
            for env in c.envs:
                if env == NATIVE:
                    if arch != HOST_ARCH:
                        raise MatrixError(f"{c.where}: {arch} is a cross arch: its contracts run in env rows")
                elif env not in envs:
                    raise MatrixError(f"{c.where}: '{env}' is no env row of {arch} (or '{NATIVE}' on {HOST_ARCH})")
            for env in c.flips:
                if env not in c.envs:
                    raise MatrixError(f"{c.where}: flips: '{env}' is not one of the line's environments")
            if c.require and not re.fullmatch(r"[a-z0-9_]+=[0-9]+(,[a-z0-9_]+=[0-9]+)*", c.require):
                raise MatrixError(f"{c.where}: require= is KIND=N[,KIND=N...]")

    # ---- queries ----
    def arches(self):
        return list(self.rows)

    def row(self, arch, name):
        for r in self.rows[arch]:
            if r.name == name:
                return r
        return None

    def all_rows(self):
        return [r for rows in self.rows.values() for r in rows]

    def builds(self, arch, mode=None):
        return [r for r in self.rows[arch] if r.kind == "build" and (mode is None or mode in r.items("modes"))]

    def envs(self, arch):
        return [r for r in self.rows[arch] if r.kind == "env"]

    def first_qemu_cpu(self, arch):
        """The CPU of the plain ctest entries of a cross build (CMAKE_CROSSCOMPILING_EMULATOR) and of its
        time-boxed fuzzing: the first qemu environment of the arch."""
        for r in self.envs(arch):
            if r.runner == "qemu":
                return r.get("cpu")
        return ""

    def expectations(self, arch):
        """Every expectation of an arch: the explicit lines, then one per selected backend of each environment
        (unless its GoogleTest filter leaves that backend out), one per (environment, backend). An explicit line
        for a backend the environment selects adds its suites to the environment's checks: it never narrows
        what select= requires (an `expect ... multi` line must not drop vectors and diff)."""
        rows = {r.name: r for r in self.rows[arch]}
        out = {}
        facts = self.backend_facts[arch]
        for envs, backends, how, suites, where in self.expect_lines[arch]:
            for backend in backends:
                family, _, name = backend.partition("/")
                if family not in FAMILIES + ("*",) or not name:
                    raise MatrixError(f"{where}: '{backend}' is not FAMILY/BACKEND")
            for suite in suites:
                if suite not in RECORD_SUITES:
                    raise MatrixError(f"{where}: unknown record suite '{suite}' (known: {', '.join(RECORD_SUITES)}; "
                                      f"how is one of {', '.join(HOW)})")
            # ENV items are names or patterns; "!PATTERN" takes the environments it matches out again.
            recording = [n for n in rows if rows[n].checks]
            selected = []
            for pattern in envs:
                matched = [n for n in recording if fnmatch.fnmatchcase(n, pattern.lstrip("!"))]
                if not matched:
                    raise MatrixError(f"{where}: '{pattern}' matches no environment of {arch} that records")
                if pattern.startswith("!"):
                    selected = [n for n in selected if n not in matched]
                else:
                    selected += [n for n in matched if n not in selected]
            if not selected:
                raise MatrixError(f"{where}: '{','.join(envs)}' leaves no environment")
            for backend in backends:
                family, _, name = backend.partition("/")
                for env in selected:
                    for fam in FAMILIES if family == "*" else (family,):
                        key = (env, f"{fam}/{name}")
                        fact = facts.get(key[1])
                        env_how = how or rows[env].how()
                        # Without SUITEs: the environment's checks, and the lane suites of a backend with lanes.
                        want = suites or rows[env].checks + (lane_suites(rows[env].checks)
                                                             if fact and fact.lanes else [])
                        host_cpu = fact.needs_cpu if fact and env_how == "native" else ()
                        self._add(out, Expectation(env, key[1], env_how, list(want), where, arch,
                                                   host_cpu=host_cpu))
        for r in self.envs(arch):
            for fam, backend in r.select.items():
                key = (r.name, f"{fam}/{backend}")
                if not (r.runs(fam, backend) and r.checks):
                    continue
                if key in out:
                    out[key].suites = list(r.checks) + [s for s in out[key].suites if s not in r.checks]
                else:
                    out[key] = Expectation(r.name, key[1], r.how(), r.checks, r.where, arch, implied=True)
        unexpected = sorted(set(facts) - {e.backend for e in out.values()})
        if unexpected:
            raise MatrixError(f"{facts[unexpected[0]].where}: backend {unexpected[0]} is stated but expected nowhere")
        return list(out.values())

    @staticmethod
    def _add(out, e):
        """One expectation, or its suites added to an earlier one for the same backend there: no line narrows
        another."""
        key = (e.env, e.backend)
        if key not in out:
            out[key] = e
            return
        first = out[key]
        if first.how != e.how:
            raise MatrixError(f"{e.where}: {e.backend} in {e.env} is already expected at {first.where} with "
                              f"another HOW: lines for one backend must agree")
        first.suites += [s for s in e.suites if s not in first.suites]

    def all_expectations(self):
        return [e for arch in self.rows for e in self.expectations(arch)]

    def backends(self):
        """Every family/backend the matrix names, per arch (expectations and selections)."""
        out = {}
        for arch in self.rows:
            out[arch] = sorted({e.backend for e in self.expectations(arch)})
        return out

    def arch_of_env(self):
        return {r.name: r.arch for r in self.all_rows()}


def main(argv):
    try:
        if len(argv) >= 3 and argv[0] == "plan":
            import plan  # the resolver: ci/plan.py
            try:
                facts = plan.Facts.parse(argv[3:])
            except ValueError as e:
                raise MatrixError(str(e)) from None
            plan.write(argv[2], plan.resolve(Matrix(arches=[argv[1]]), argv[1], facts))
            return 0
        if argv == ["check"]:
            m = Matrix()
            for arch in m.arches():
                print(f"{arch}: {len(m.builds(arch))} builds, {len(m.envs(arch))} environments, "
                      f"{len(m.expectations(arch))} expectations, backends {' '.join(m.backends()[arch])}")
            return 0
        if len(argv) == 2 and argv[0] == "expectations":
            for e in Matrix(arches=[argv[1]]).expectations(argv[1]):
                print(f"{e.env:40} {e.backend:24} {e.how:9} {' '.join(e.suites):20} "
                      f"{'(select=) ' if e.implied else ''}"
                      f"{'(host-cpu=' + '+'.join(e.host_cpu) + ') ' if e.host_cpu else ''}{e.where}")
            return 0
    except MatrixError as e:
        print(f"ci/matrix: {e}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
