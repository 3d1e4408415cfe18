"""What a verification run produced, read from structured output only.

- ctest's JUnit XML (`--output-junit`): every entry that ran, whatever ended it, with its captured output;
- ctest's Test.xml (`-T Test`): how a failed entry ended (exit status, signal, timeout), which JUnit leaves out;
- ctest's test list (`--show-only=json-v1`): each entry's command, environment and working directory;
- the execution records the binaries append to $SHAKEDOWN_RECORD (tests/support/records.h);
- the crash files of the time-boxed fuzzing (ci/fuzz_run.py's crashes.jsonl).

Also the one parser of GoogleTest parameter names ("<algorithm or family>__<backend>", tests/support/params.h).
"""
import collections
import json
import os
import shlex
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field

from matrix import ALGORITHMS, FAMILIES, sanitize

# The family of every name a parameter can start with: each algorithm, and each family (family-level suites).
FAMILY_OF = {alg: fam for fam, algs in ALGORITHMS.items() for alg in algs}
FAMILY_OF.update({f: f for f in FAMILIES})


class ResultsError(Exception):
    pass


def parse_param(test_name):
    """(family, sanitized backend) named by a test's parameter, or None for an unparameterised test.
    'EveryBackend/HashDiff.X/sha224__x86_64_avx2' is ('sha256', 'x86_64_avx2'); 'keccak__x86_64_bmi2' is
    ('keccak', 'x86_64_bmi2'). A ctest name from gtest_discover_tests may end in '  # GetParam() = ...'."""
    name = test_name.split("  # GetParam() = ", 1)[0]
    if "/" not in name:
        return None
    head, sep, backend = name.rsplit("/", 1)[1].partition("__")
    if not sep or not backend or head not in FAMILY_OF:
        return None
    return FAMILY_OF[head], backend


def backend_of(test_name, known):
    """The "family/name" a test's parameter names, matched against the known backend names (the sanitized form
    loses the '/'); a name no known backend matches stays as "family/<sanitized>". None when unparameterised."""
    parsed = parse_param(test_name)
    if parsed is None:
        return None
    family, san = parsed
    for b in sorted(known):
        fam, _, name = b.partition("/")
        if fam == family and sanitize(name) == san:
            return b
    return f"{family}/{san}"


# ---- execution records ----

@dataclass
class Failure:
    env: str
    arch: str
    test: str          # the test's full name, or "<fuzz target>: <subject>"
    backend: str = ""  # "family/name" when the binary charged one


@dataclass
class Records:
    # (env, backend) -> suite -> n
    runs: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    compiled: dict = field(default_factory=lambda: collections.defaultdict(set))  # arch -> {backend}
    failures: list = field(default_factory=list)
    envs: dict = field(default_factory=dict)  # env -> arch of the binaries that ran there
    reasons: dict = field(default_factory=dict)  # (env, backend) -> [why a check could not run]: count-0 records
    # (env, backend) -> third-party code -> digests: what ran on a backend's model ("third-party" records name the
    # library in their check, e.g. "OpenSSL 3.6.5 (Debian libcrypto.so.3)"; docs/third-party.md)
    third_party: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    # (env, backend, third-party code) -> instruction kind -> how many the model completed for those digests
    # ("third-party-instructions" records, check "<code>: <kind>"; no cell counts them as checks)
    third_party_instructions: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))


def load_records(path):
    r = Records()
    if not os.path.exists(path):
        return r
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
                suite, family, backend, count = rec["suite"], rec["family"], rec["backend"], int(rec["count"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                raise ResultsError(f"{path}:{lineno}: malformed record ({e})") from None
            env = rec.get("env") or "host"
            arch = rec.get("arch") or ""
            r.envs.setdefault(env, arch)
            qualified = f"{family}/{backend}" if family and backend else ""
            if suite == "compiled":
                r.compiled[arch].add(qualified)
            elif suite == "failure":
                r.failures.append(Failure(env, arch, rec.get("check", ""), qualified))
            elif suite == "third-party-instructions":
                code, _, kind = rec.get("check", "").rpartition(": ")
                r.third_party_instructions[(env, qualified, code)][kind] += count
            else:
                r.runs[(env, qualified)][suite] += count
                if suite == "third-party":
                    r.third_party[(env, qualified)][rec.get("check", "")] += count
                # A check that could not run records 0 with the reason (tests/ct_check.cc under Valgrind).
                reason = rec.get("check", "")
                if count == 0 and reason and reason not in r.reasons.setdefault((env, qualified), []):
                    r.reasons[(env, qualified)].append(reason)
    return r


# ---- ctest ----

@dataclass
class Result:
    build: str           # the build environment (build row) whose ctest ran the entry
    arch: str
    test: str
    status: str          # passed | failed | skipped
    kind: str = ""       # failed: "Failed" (exit status), "SEGFAULT", "Subprocess aborted", "Timeout", "Not Run: ..."
    env: str = ""        # the entry's own SHAKEDOWN_ENV_NAME, else the build's
    time: float = 0.0
    in_flight: str = ""  # a failed GoogleTest binary: the test that was running when it ended
    output: str = ""     # the tail of the captured output of a failed entry
    command: list = field(default_factory=list)
    environment: list = field(default_factory=list)
    cwd: str = ""

    def repro(self):
        """The shell command that reruns the entry exactly: working directory, environment, command."""
        env = " ".join(shlex.quote(e) for e in self.environment)
        cmd = " ".join(shlex.quote(c) for c in self.command)
        return f"cd {shlex.quote(self.cwd)} && " + (f"env {env} " if env else "") + cmd

    def to_json(self):
        return asdict(self)


def ctest_listing(build_dir, text):
    """{entry name: (command, environment, working directory)} from `ctest --show-only=json-v1` output."""
    out = {}
    for test in json.loads(text).get("tests", []):
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        out[test["name"]] = (test.get("command", []), props.get("ENVIRONMENT", []),
                             props.get("WORKING_DIRECTORY", build_dir))
    return out


def exit_kinds(test_xml):
    """{entry name: how it ended} for the failed and not-run entries of a ctest -T Test run (Dart Test.xml)."""
    kinds = {}
    if not test_xml or not os.path.exists(test_xml):
        return kinds
    for test in ET.parse(test_xml).iter("Test"):
        name = test.findtext("Name")
        if not name or test.get("Status") not in ("failed", "notrun"):
            continue
        measured = {m.get("name"): (m.findtext("Value") or "").strip() for m in test.iter("NamedMeasurement")}
        kinds[name] = measured.get("Exit Code") or measured.get("Completion Status") or "Failed"
    return kinds


def last_test_xml(build_dir):
    """Testing/<tag>/Test.xml of the latest `ctest -T Test` in build_dir, or None."""
    tag = os.path.join(build_dir, "Testing", "TAG")
    if not os.path.exists(tag):
        return None
    with open(tag, encoding="utf-8") as f:
        first = f.readline().strip()
    path = os.path.join(build_dir, "Testing", first, "Test.xml")
    return path if os.path.exists(path) else None


def in_flight_test(output):
    """The GoogleTest test that started and never finished in a binary's output (it crashed or hung there):
    the last '[ RUN      ] name' without its '[       OK ]', '[  FAILED  ]' or '[  SKIPPED ]' line."""
    running = ""
    for line in output.splitlines():
        if line.startswith("[ RUN      ] "):
            running = line[13:].strip()
        elif line.startswith(("[       OK ] ", "[  FAILED  ] ", "[  SKIPPED ] ")) and running and \
                line[13:].split(", where GetParam()")[0].split(" (")[0].strip() == running:
            running = ""
    return running


def read_junit(path, build, arch, listing, kinds, env_default, base_env=()):
    """Every entry of a ctest JUnit file as a Result. ctest reports an entry it could not start (missing
    executable) as not run but counts it failed; so does this. Skipped means SKIP_RETURN_CODE or disabled.
    base_env: the NAME=VALUE items the run gave every entry (an entry's own ENVIRONMENT comes after them)."""
    results = []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        raise ResultsError(f"{path}: unreadable JUnit XML ({e})") from None
    for case in root.iter("testcase"):
        name = case.get("name", "")
        status_attr = case.get("status", "")
        output = case.findtext("system-out") or ""
        skipped = case.find("skipped")
        if status_attr == "run":
            status, kind = "passed", ""
        elif status_attr in ("notrun", "disabled") and skipped is not None and \
                (skipped.get("message", "").startswith("SKIP_") or status_attr == "disabled" or
                 skipped.get("message", "") == "Disabled"):
            status, kind = "skipped", skipped.get("message", "")
        else:
            status = "failed"
            kind = kinds.get(name) or (f"Not Run: {skipped.get('message', '')}" if skipped is not None else "Failed")
        command, environment, cwd = listing.get(name, ([], [], ""))
        env = next((e.partition("=")[2] for e in reversed(environment) if e.startswith("SHAKEDOWN_ENV_NAME=")),
                   env_default)
        results.append(Result(
            build=build, arch=arch, test=name, status=status, kind=kind, env=env,
            time=float(case.get("time") or 0),
            in_flight=in_flight_test(output) if status == "failed" else "",
            output=output[-4000:] if status == "failed" else "",
            command=command, environment=list(base_env) + list(environment), cwd=cwd))
    return results


def load_results(path):
    results = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if line.strip():
                    try:
                        results.append(Result(**json.loads(line)))
                    except (json.JSONDecodeError, TypeError) as e:
                        raise ResultsError(f"{path}:{lineno}: malformed result ({e})") from None
    return results


def append_results(path, results):
    with open(path, "a", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r.to_json()) + "\n")


# ---- crash files of the time-boxed fuzzing ----

CRASH_KEYS = ("file", "kind", "env", "target", "build", "arch", "repro")


def load_crashes(path):
    """The crash files ci/fuzz_run.py recorded (JSON lines with CRASH_KEYS); none when path is empty or absent."""
    crashes = []
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    crash = json.loads(line)
                    missing = [k for k in CRASH_KEYS if not isinstance(crash.get(k), str)]
                except json.JSONDecodeError as e:
                    raise ResultsError(f"{path}:{lineno}: malformed crash record ({e})") from None
                if missing:
                    raise ResultsError(f"{path}:{lineno}: crash record without {', '.join(missing)}")
                crashes.append(crash)
    return crashes
