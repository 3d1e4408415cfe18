"""The resolved plan: ci/matrix/<arch>.txt spelled out for one build, read by CMake, the CI driver and the gate.

ci/matrix.py is the only interpreter of the matrix. At configure time (cmake/Matrix.cmake) it writes the plan of
that build: one JSON object a line, each with a "type":

  build        the arch, the build's facts, and the test command of its plain entries (a cross build's first
               qemu CPU: CMAKE_CROSSCOMPILING_EMULATOR)
  env          every row: kind (build or env), runner, how backends run there, the record suites it checks,
               modes, and whether this build registers it (with the reason when not)
  test         a ctest entry of an env row: name, runner prefix, program (a CMake target), arguments,
               environment, labels, timeout, cost, modes, and what it needs (backends, the emulator library)
  contract     an inline-asm contract run (tests/asm_contract/ registers it and its flipped copies)
  fuzz_job     a time-boxed fuzz run of verify mode: the build whose binaries it runs, environment, runner,
               target and environment variables
  expectation  a backend that must run in an environment, how, through which record suites (the gate's input)

CMake checks what only it knows (does the program target exist in this build) and registers the entries in one
loop; the driver runs and narrows entries by looking them up here; the gate reads the environments and
expectations from here. Nothing else derives how an environment runs.
"""
import json
import os
import sys
from dataclasses import asdict, dataclass

from matrix import FUZZ_TARGETS, HOST_ARCH

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE_TIMEOUT = 1500      # seconds: an entry's default (timeout= overrides)
SELF_TEST_TIMEOUT = 600   # an emulator's own tests
SUITE_COST = 40           # ctest COST of a whole-suite entry: started first (only the order matters)
FUZZ_LABEL = "fuzz"


@dataclass
class Facts:
    """What the build is, as CMake knows it at configure time."""
    cross: bool = False            # a cross build: every entry runs under QEMU
    sanitized: bool = False        # ASan, MSan or TSan: nothing runs under QEMU (their shadow memory exhausts it)
    sysroot: str = ""              # qemu-user -L root of a cross build
    qemu: str = ""                 # QEMU 7.2's qemu-<arch> (the system's), "" when absent
    qemu10: str = ""               # QEMU 10's qemu-<arch> (ci/fetch-qemu10), "" when absent
    bochs: str = ""                # the Bochs kit ci/bochs/fetch made (ci/bochs/run runs in it); "" when absent
    third_party: str = ""          # the folder of ci/fetch-third-party's kits (<dir>/<kit>/root); "" when none
    qemu_test_scale: str = "0.05"  # SHAKEDOWN_TEST_SCALE under QEMU unless a row says scale=
    fuzz_random_runs: str = "300"  # inputs of the <env>.<target>.random entries
    source_dir: str = ROOT

    @staticmethod
    def parse(items):
        """Facts from KEY=VALUE items (cmake/Matrix.cmake passes them): booleans as 0/1, ON/OFF or TRUE/FALSE."""
        facts = Facts()
        for item in items:
            key, eq, value = item.partition("=")
            key = key.replace("-", "_")
            if not eq or not hasattr(facts, key):
                raise ValueError(f"unknown fact '{item}' (known: {', '.join(asdict(facts))})")
            if isinstance(getattr(facts, key), bool):
                value = value.upper() in ("1", "ON", "TRUE", "YES")
            setattr(facts, key, value)
        return facts


def profile(emulate="", assume="", select="", require=""):
    """The environment items of an emulation profile (empty ones left out), in the order CMake always gave them."""
    return [f"{variable}={value}" for variable, value in (("SHAKEDOWN_EMULATE", emulate),
                                                          ("SHAKEDOWN_TEST_ASSUME", assume),
                                                          ("SHAKEDOWN_EXPECT_SELECTED", select),
                                                          ("SHAKEDOWN_EMULATE_REQUIRE", require)) if value]


def third_party_kit(row, facts):
    """(root, loader) of a third-party= row's kit (ci/fetch-third-party), or (None, why it is not here)."""
    kit = row.get("third-party")
    folder = os.path.join(facts.third_party, kit) if facts.third_party else ""
    if not folder or not os.path.isfile(os.path.join(folder, ".complete")):
        return None, f"no third-party kit {kit} here (ci/fetch-third-party {kit})"
    if not os.path.isfile(os.path.join(folder, "loader")):  # a source kit: compiled into the program, no loader
        return ("", ""), ""
    with open(os.path.join(folder, "loader"), encoding="utf-8") as f:
        return (os.path.join(folder, "root"), f.read().strip()), ""


def runner_of(row, facts):
    """(command prefix, "") of an env row's binaries in this build, or (None, why this build cannot run them)."""
    if row.get("third-party"):
        kit, why = third_party_kit(row, facts)
        if kit is None:
            return None, why
        root, loader = kit
        if not root:  # built into the program (a source kit): the row runs as any other
            return runner_of(row.without("third-party"), facts)
        if row.runner == "native":
            if facts.cross:
                return None, "a cross build has no native environment"
            # The kit's own dynamic loader and libraries: its libcrypto needs that C library (docs/third-party.md).
            libdirs = sorted(os.path.join(root, "usr", "lib", d) for d in os.listdir(os.path.join(root, "usr", "lib"))
                             if os.path.exists(os.path.join(root, "usr", "lib", d, "libcrypto.so.3")))
            return [os.path.join(root, loader), "--library-path", ":".join(libdirs)], ""
        prefix, why = runner_of(row.without("third-party"), facts)
        if prefix is None:
            return None, why
        if facts.cross:  # qemu-user -L: the kit's root instead of the build's sysroot
            prefix[prefix.index("-L") + 1] = root
        else:
            prefix[1:1] = ["-L", root]
        return prefix, ""
    if row.runner == "native":
        return ([], "") if not facts.cross else (None, "a cross build has no native environment")
    if facts.sanitized:
        return None, "ASan, MSan and TSan binaries never run under an emulator"
    if row.runner == "bochs":
        if not facts.bochs:
            return None, "no Bochs kit here (ci/bochs/fetch)"
        # The guest gets the program, its libraries and the folders suites read (vectors, fuzz corpora).
        # cpu= is the Bochs CPU model, then "kernel:ARG" items: arguments of the guest's kernel.
        model, *kernel = row.get("cpu").split(",")
        data = [os.path.join(facts.source_dir, d) for d in ("vectors/data", "fuzz/corpus")]
        run = os.path.join(facts.source_dir, "ci", "bochs", "run")
        return ([run, "--kit", facts.bochs, "--model", model] + [a for d in data for a in ("--with", d)] +
                [a for k in kernel for a in ("--kernel-arg", k.removeprefix("kernel:"))] + ["--"], "")
    qemu = facts.qemu10 if row.runner == "qemu10" else facts.qemu
    if not qemu:
        return None, "no QEMU 10 here (ci/fetch-qemu10)" if row.runner == "qemu10" else "no qemu-user here"
    root = ["-L", facts.sysroot] if facts.cross else []
    return [qemu] + root + ["-cpu", row.get("cpu")], ""


def _env_record(row, facts):
    rec = {"type": "env", "name": row.name, "arch": row.arch, "kind": row.kind, "runner": row.runner,
           "how": row.how(), "checks": row.checks, "modes": row.items("modes"), "emulate": row.get("emulate"),
           "self_test": row.get("self-test"), "where": row.where}
    if row.kind == "env":
        rec["why_not_registered"] = runner_of(row, facts)[1]
    return rec


def _env_tests(row, runner, facts):
    """The ctest entries of one env row, in registration order."""
    common = {"type": "test", "arch": row.arch, "env": row.name, "runner": runner, "modes": row.items("modes"),
              "needs": row.items("needs"), "needs_emul": bool(row.get("emulate") or row.get("self-test"))}
    labels = row.items("labels") or [row.name]
    timeout = int(float(row.get("timeout") or SUITE_TIMEOUT))

    def test(name, program, args, environment, test_labels=labels, test_timeout=timeout, cost=None):
        return dict(common, name=name, program=program, args=args, environment=environment, labels=test_labels,
                    timeout=test_timeout, cost=cost)

    emulation = {"emulate": row.get("emulate"), "assume": row.get("assume"), "select": row.get("select")}
    suite_env = profile(**emulation, require=row.get("require"))
    if row.get("run"):  # one program run: the profile and env: items, no scale
        named = [f"SHAKEDOWN_ENV_NAME={row.name}"] if row.get("third-party") else []
        return [test(row.name, row.get("run"), row.items("args"), suite_env + row.extra_env + named)]
    scale = row.get("scale") or (facts.qemu_test_scale if row.runner != "native" else "")
    tail = ([f"SHAKEDOWN_TEST_SCALE={scale}"] if scale else []) + row.extra_env + [f"SHAKEDOWN_ENV_NAME={row.name}"]
    fuzz_env = profile(**emulation, require=row.get("fuzz-require") or row.get("require")) + tail
    gtest_filter = [f"--gtest_filter={row.get('filter')}"] if row.get("filter") else []
    out = [test(f"{row.name}.shakedown_{s}_tests", f"shakedown_{s}_tests", gtest_filter, suite_env + tail,
                cost=SUITE_COST) for s in row.items("suites")]
    if row.get("self-test"):  # the models' own tests install their profiles themselves: env: items only
        name = f"shakedown_{row.get('self-test')}_tests"
        out.append(test(f"{row.name}.{name}", name, [], list(row.extra_env), test_timeout=SELF_TEST_TIMEOUT))
    for target in row.items("fuzz-targets") or list(FUZZ_TARGETS):
        for mode in row.items("fuzz"):
            args = ([os.path.join(facts.source_dir, "fuzz", "corpus", target)] if mode == "replay" else
                    [f"-runs={facts.fuzz_random_runs}", "-seed=2", "-max_len=1024"])
            out.append(test(f"{row.name}.{target}.{mode}", f"{target}_standalone", args, fuzz_env,
                            test_labels=labels + [FUZZ_LABEL]))
    return out


def _contracts(matrix, arch, facts):
    """Each contract line's runs: its families in its environments (NATIVE: the build's own, on the host)."""
    envs = {r.name: r for r in matrix.envs(arch)}
    out = []
    for c in matrix.contracts[arch]:
        for family, env in [(f, e) for f in c.families for e in c.envs]:
            row = envs.get(env)
            if row is None:  # NATIVE
                runner, why = ([], "") if not facts.cross else (None, "a cross build has no native environment")
                emulate, modes, needs = "", [], []
            else:
                runner, why = runner_of(row, facts)
                emulate, modes, needs = row.get("emulate"), row.items("modes"), row.items("needs")
            if not why:
                out.append({"type": "contract", "arch": arch, "family": family, "env": env, "runner": runner,
                            "environment": profile(emulate=emulate, require=c.require), "args": c.args,
                            "with_flips": env in c.flips, "modes": modes, "needs": needs,
                            "needs_emul": bool(emulate), "where": c.where})
    return out


def _fuzz_jobs(matrix, arch, facts, build_runner):
    """Verify mode's time-boxed fuzzing: every target of each build row that says timeboxed=, in the build's own
    environment, then in the same build the targets each env row fuzzes in its environment (timeboxed=): its
    runner and CPU, its profile (the emulation minimum of its fuzz entries), its env: items."""
    out = []
    for build in [r for r in matrix.builds(arch) if r.get("timeboxed")]:
        out += [{"type": "fuzz_job", "arch": arch, "build": build.name, "env": build.name, "target": t,
                 "runner": build_runner, "environment": {}, "modes": [], "why_not": ""} for t in FUZZ_TARGETS]
        for row in [r for r in matrix.envs(arch) if r.items("timeboxed")]:
            runner, why = runner_of(row, facts)
            items = profile(emulate=row.get("emulate"), assume=row.get("assume"),
                            require=row.get("fuzz-require") or row.get("require")) + row.extra_env
            out += [{"type": "fuzz_job", "arch": arch, "build": build.name, "env": row.name, "target": t,
                     "runner": runner, "environment": dict(i.partition("=")[::2] for i in items),
                     "modes": row.items("modes"), "why_not": why} for t in row.items("timeboxed")]
    return out


def _expectation_record(e):
    return {"type": "expectation", "env": e.env, "backend": e.backend, "how": e.how, "suites": e.suites,
            "where": e.where, "arch": e.arch, "implied": e.implied, "host_cpu": list(e.host_cpu)}


def resolve(matrix, arch, facts):
    """Every record of ARCH's plan for a build with these facts."""
    first_cpu = matrix.first_qemu_cpu(arch)
    # A cross build's plain entries (discovered tests, tools, the fuzz corpora) run under the first qemu CPU.
    build_runner = [facts.qemu, "-L", facts.sysroot, "-cpu", first_cpu] if facts.cross and first_cpu else []
    emulator = build_runner + ["-E", f"SHAKEDOWN_TEST_SCALE={facts.qemu_test_scale}"] if build_runner else []
    records = [{"type": "build", "arch": arch, "host_arch": HOST_ARCH, "facts": asdict(facts),
                "first_qemu_cpu": first_cpu, "emulator": emulator}]
    records += [_env_record(row, facts) for row in matrix.rows[arch]]
    for row in matrix.envs(arch):
        runner, why = runner_of(row, facts)
        if not why:
            records += _env_tests(row, runner, facts)
    records += _contracts(matrix, arch, facts)
    records += _fuzz_jobs(matrix, arch, facts, build_runner)
    records += [_expectation_record(e) for e in matrix.expectations(arch)]
    return records


def write(path, records):
    """One record a line; rewritten only when it changes, so that an unchanged plan does not retrigger CMake.
    "-" writes it to standard output."""
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    if path == "-":
        sys.stdout.write(text)
        return
    old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def read(path):
    """The records of a plan file."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


class Plan:
    """The resolved plans of the builds a run made (one per arch is enough: every build of an arch resolves the same
    environments and expectations; entries and runners differ by build), queried by the driver and the gate."""

    def __init__(self, records):
        self.records = records
        self.builds = [r for r in records if r["type"] == "build"]
        self.envs = {}
        for r in records:
            # The build that registers the row speaks for it (a sanitized build says why it never runs QEMU rows).
            if r["type"] == "env" and (r["name"] not in self.envs or self.envs[r["name"]].get("why_not_registered")):
                self.envs[r["name"]] = r
        self.tests = [r for r in records if r["type"] == "test"]
        self.registered = []  # (env, entry name) CMake registered: of_build()
        self.fuzz_jobs = [r for r in records if r["type"] == "fuzz_job"]
        seen = set()
        self.expectation_records = []
        for r in records:
            key = (r.get("arch"), r.get("env"), r.get("backend"))
            if r["type"] == "expectation" and key not in seen:
                seen.add(key)
                self.expectation_records.append(r)

    @staticmethod
    def load(paths):
        return Plan([r for p in paths for r in read(p)])

    @staticmethod
    def of_build(build_dir, arch):
        """A configured build's plan, with the entries CMake registered from it (plan-<arch>.registered: a line
        "ENV<tab>NAME" each; an entry whose program this build lacks is not there)."""
        plan = Plan(read(os.path.join(build_dir, f"plan-{arch}.jsonl")))
        with open(os.path.join(build_dir, f"plan-{arch}.registered"), encoding="utf-8") as f:
            plan.registered = [tuple(line.rstrip("\n").split("\t", 1)) for line in f if "\t" in line]
        return plan

    @staticmethod
    def of_matrix(matrix, facts=None):
        """Every arch's plan for a build that can run every row (the gate without build plans: tests, by hand)."""
        facts = facts or Facts(qemu="qemu", qemu10="qemu10", bochs="bochs")
        return Plan([r for arch in matrix.arches() for r in resolve(matrix, arch, facts)])

    # ---- the gate's queries ----
    def arches(self):
        return list(dict.fromkeys(r["arch"] for r in self.envs.values()))

    def expectations(self, arch):
        from matrix import Expectation
        return [Expectation(r["env"], r["backend"], r["how"], list(r["suites"]), r["where"], r["arch"],
                            implied=r["implied"], host_cpu=tuple(r["host_cpu"]))
                for r in self.expectation_records if r["arch"] == arch]

    def all_expectations(self):
        return [e for arch in self.arches() for e in self.expectations(arch)]

    def backends(self):
        return {arch: sorted({e.backend for e in self.expectations(arch)}) for arch in self.arches()}

    def arch_of_env(self):
        return {name: r["arch"] for name, r in self.envs.items()}

    def env_names(self):
        return list(self.envs)

    # ---- the driver's ----
    def left_out(self, arch, mode):
        """The env rows of ARCH whose modes= leave MODE out."""
        return [n for n, r in self.envs.items() if r["arch"] == arch and r["kind"] == "env" and r["modes"] and
                mode not in r["modes"]]

    def env_names_of(self, arch):
        return [n for n, r in self.envs.items() if r["arch"] == arch and r["kind"] == "env"]

    def registered_names(self):
        return {name for _, name in self.registered}

    def entries_of(self, envs):
        """The names of the entries registered for these environments (suites, fuzz drivers, self-tests, run=
        entries and the contract runs in them, flipped copies included)."""
        envs = set(envs)
        return [name for env, name in self.registered if env in envs]

    def fuzz_jobs_of(self, build):
        return [j for j in self.fuzz_jobs if j["build"] == build]
