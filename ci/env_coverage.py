"""Source coverage of the fuzz targets per environment: for each arch, its fuzz preset built again with clang's
source-based coverage (-fprofile-instr-generate -fcoverage-mapping; a cross arch links the profile runtime of
Debian's libclang-rt-19-dev:<arch>, fetched into the cross cache with the libFuzzer runtime), then in every
environment of the build's plan that runs fuzz entries, those entries' own commands (replay and seeded random
inputs: program, arguments, runner and variables from the plan) and the corpora the time-boxed fuzzing grew there,
each writing .profraw files under QEMU or the emulators as natively. Per environment, llvm-profdata merges them and
llvm-cov gives each lib/ and arch/ file's line coverage; per arch, every environment merged.

  ci/env-coverage OUT_DIR [--arch A]... [--grown build/<mode>] [--gate FILE] [--configure=-DX=Y]...

The gate (ci/coverage-gate.txt): every file it names reaches its minimum line coverage in its arch's merged
profile, and every lib/ or arch/ file below 95 % there carries a reason in it; a file the gate names that no
environment compiled is a failure too. Exit status 1 when the gate fails.

Writes OUT_DIR/<arch>/build (the coverage build), OUT_DIR/<arch>/<env>.profdata, OUT_DIR/<arch>/html/ (llvm-cov's
pages of the arch's merged profile), OUT_DIR/coverage.json ({arch: {env or "merged": {file: [covered, lines]}}})
and OUT_DIR/coverage.md (per arch: a row per file, a column per environment). Bochs environments are not measured
(their .profraw stays inside the guest)."""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzz_run import FUZZ_API_ASAN, replay_environment  # noqa: E402
from matrix import HOST_ARCH, Matrix  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COVERAGE_FLAGS = "-fprofile-instr-generate -fcoverage-mapping"
SOURCES = ("lib", "arch")


def tool(name):
    for path in (shutil.which(f"{name}-19"), f"/usr/lib/llvm-19/bin/{name}"):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit(f"ci/env-coverage: {name}-19 not found (apt-get install llvm-19)")


def run(cmd, log, env=None, cwd=None):
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        f.flush()
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd).returncode


def fuzz_preset(matrix, arch):
    """The preset of the arch's libFuzzer build row (timeboxed=libfuzzer): the build whose fuzz entries run."""
    for row in matrix.builds(arch):
        if row.get("timeboxed") == "libfuzzer":
            return row.get("preset"), row.name
    raise SystemExit(f"ci/env-coverage: {arch} has no libFuzzer build row (timeboxed=libfuzzer)")


def build(arch, preset, out, log, configure=()):
    """Configures the preset into OUT/<arch>/build with the coverage flags added to its own and ASan taken out;
    builds the fuzz targets and their standalone drivers. Returns the build folder."""
    folder = os.path.join(out, arch, "build")
    if run(["cmake", "--preset", preset, "-B", folder, "-DSHAKEDOWN_BUILD_BENCH=OFF"] + list(configure), log, cwd=ROOT):
        raise SystemExit(f"ci/env-coverage: configuring {preset} failed (log {log})")
    cache = {}
    with open(os.path.join(folder, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(CMAKE_(?:C|CXX|EXE_LINKER)_FLAGS):\w+=(.*)$", line.rstrip("\n"))
            if m:
                cache[m.group(1)] = m.group(2)
    extra = []
    for var in ("CMAKE_C_FLAGS", "CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS"):
        # Without ASan (a measurement, not a check; UBSan stays): ASan binaries never run under an emulator, and
        # the plan gives the host's QEMU environments no runner in an ASan build.
        flags = re.sub(r"-fsanitize=address,", "-fsanitize=", cache.get(var, ""))
        flags = re.sub(r"-fsanitize=address( |$)", "", flags).strip()
        if "-fprofile-instr-generate" not in flags:
            flags += " " + (COVERAGE_FLAGS if var != "CMAKE_EXE_LINKER_FLAGS" else "-fprofile-instr-generate")
        if flags.strip() != cache.get(var, ""):
            extra.append(f"-D{var}={flags.strip()}")
    if extra and run(["cmake", "-B", folder] + extra, log, cwd=ROOT):
        raise SystemExit(f"ci/env-coverage: adding the coverage flags to {preset} failed (log {log})")
    if run(["cmake", "--build", folder, "--target", "shakedown_fuzz_targets", "-j2"], log, cwd=ROOT):
        raise SystemExit(f"ci/env-coverage: building {preset} with coverage failed (log {log})")
    return folder


def environments(plan_file):
    """Every environment of the plan that runs fuzz entries: {env: [(argv, variables)]} where argv is the entry's
    runner, program (a standalone driver) and arguments; and the time-boxed jobs {env: [job]}."""
    envs, jobs = {}, {}
    with open(plan_file, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "test" and "fuzz" in r.get("labels", []) and r.get("program", "").endswith(
                    "_standalone") and r.get("runner") is not None:
                envs.setdefault(r["env"], []).append(r)
            elif r.get("type") == "fuzz_job" and r.get("runner") is not None:
                jobs.setdefault(r["env"], []).append(r)
    return envs, jobs


def measure(arch, folder, grown, out, log):
    """Runs every fuzz entry of every environment (and the grown corpora of the time-boxed ones) with profiling;
    returns {env: profdata}."""
    profdata = tool("llvm-profdata")
    envs, jobs = environments(os.path.join(folder, f"plan-{arch}.jsonl"))
    result = {}
    for env in sorted(set(envs) | set(jobs)):
        if any((r.get("runner") or [""])[0].endswith("/bochs/run") for r in envs.get(env, [])):
            print(f"  {arch} {env}: Bochs, not measured (the guest keeps its .profraw)")
            continue
        raw = os.path.join(out, arch, "prof", env)
        shutil.rmtree(raw, ignore_errors=True)
        os.makedirs(raw)
        failed = 0
        commands = [(r["runner"] + [os.path.join(folder, "fuzz", r["program"])] + r["args"],
                     replay_environment(r["environment"]), r["name"]) for r in envs.get(env, [])]
        for j in jobs.get(env, []):
            corpus = os.path.join(grown, "fuzz", arch, f"corpus-{env}-{j['target']}") if grown else ""
            if corpus and os.path.isdir(corpus):
                commands.append((j["runner"] + [os.path.join(folder, "fuzz", j["target"]), "-runs=0", corpus],
                                 replay_environment(j["environment"]), f"{env} grown corpus of {j['target']}"))
        for argv, env_vars, name in commands:
            env_vars = dict(os.environ, **env_vars, LLVM_PROFILE_FILE=os.path.join(raw, "%p-%m.profraw"))
            if "fuzz_api" in name:
                env_vars["ASAN_OPTIONS"] = FUZZ_API_ASAN
            if run(argv, log, env=env_vars):
                failed += 1
                print(f"  {arch} {env}: {name} failed (log {log})")
        files = [os.path.join(raw, p) for p in os.listdir(raw)]
        if not files:
            print(f"  {arch} {env}: no .profraw written")
            continue
        result[env] = os.path.join(out, arch, f"{env}.profdata")
        if run([profdata, "merge", "-sparse", "-o", result[env]] + files, log):
            raise SystemExit(f"ci/env-coverage: llvm-profdata could not merge {env}'s profiles (log {log})")
        print(f"  {arch} {env}: {len(commands)} runs, {len(files)} profiles" + (f", {failed} failed" if failed else ""))
    return result


def objects(folder):
    fuzz = os.path.join(folder, "fuzz")
    return sorted(os.path.join(fuzz, p) for p in os.listdir(fuzz)
                  if p.startswith("fuzz_") and os.access(os.path.join(fuzz, p), os.X_OK) and "." not in p)


def line_coverage(profile, objs, log):
    """{file relative to the source tree: [covered lines, lines]} of lib/ and arch/ under one profile."""
    cov = tool("llvm-cov")
    cmd = [cov, "export", "-summary-only", f"-instr-profile={profile}", objs[0]] + \
          [a for o in objs[1:] for a in ("-object", o)] + [os.path.join(ROOT, s) for s in SOURCES]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        with open(log, "a", encoding="utf-8") as f:
            f.write(p.stderr)
        raise SystemExit(f"ci/env-coverage: llvm-cov export failed (log {log})")
    out = {}
    for data in json.loads(p.stdout)["data"]:
        for f in data["files"]:
            rel = os.path.relpath(f["filename"], ROOT)
            lines = f["summary"]["lines"]
            out[rel] = [lines["covered"], lines["count"]]
    return out


def table(coverage):
    """Markdown: per arch, a row per file and a column per environment (covered/lines, %), "merged" last."""
    out = ["# Fuzz coverage per environment", ""]
    for arch, envs in coverage.items():
        names = [e for e in envs if e != "merged"] + ["merged"]
        files = sorted(envs["merged"])
        out += [f"## {arch}", "", f"llvm-cov's pages of the merged profile, a page per file: [{arch}/html/index.html]"
                f"({arch}/html/index.html)", "", "| file | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
        for f in files:
            cells = []
            for e in names:
                c, n = envs[e].get(f, [0, 0])
                cells.append(f"{100.0 * c / n:.1f}% ({c}/{n})" if n else "-")
            out.append(f"| {f} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


GOAL = 95.0  # percent of lines, merged over an arch's environments: below it a file needs a stated reason


def read_gate(path):
    """ci/coverage-gate.txt: "min ARCH FILE PERCENT" (the file's floor in that arch's merged profile) and
    "reason FILE TEXT" (why a file stays below the goal: the lines no fuzz target can reach)."""
    minimums, reasons = {}, {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "min" and len(words) == 4:
                try:
                    minimums[(words[1], words[2])] = float(words[3])
                    continue
                except ValueError:
                    pass
            elif words[0] == "reason" and len(words) >= 3:
                reasons[words[1]] = " ".join(words[2:])
                continue
            raise SystemExit(f"ci/env-coverage: {path}:{n}: expected 'min ARCH FILE PERCENT' or 'reason FILE TEXT'")
    return minimums, reasons


def percent(cov):
    covered, lines = cov
    return 100.0 * covered / lines if lines else 100.0


def gate(coverage, minimums, reasons):
    """The gate's failures, one line each."""
    problems = []
    for (arch, path), floor in sorted(minimums.items()):
        if arch not in coverage:
            continue
        cov = coverage[arch]["merged"].get(path)
        if cov is None:
            problems.append(f"{arch}: {path} not compiled into any fuzz target (the gate names it)")
        elif percent(cov) < floor:
            problems.append(f"{arch}: {path} {percent(cov):.1f}% of lines ({cov[0]}/{cov[1]}), below its {floor}%")
    for arch, envs in coverage.items():
        for path, cov in sorted(envs["merged"].items()):
            if percent(cov) < GOAL and path not in reasons:
                problems.append(f"{arch}: {path} {percent(cov):.1f}% of lines, below {GOAL}% with no reason given")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--arch", action="append", default=[])
    ap.add_argument("--grown", default="", help="the build/<mode> folder whose time-boxed fuzzing grew corpora")
    ap.add_argument("--gate", default=os.path.join(ROOT, "ci", "coverage-gate.txt"))
    ap.add_argument("--configure", action="append", default=[], help="an extra cmake argument for every build")
    args = ap.parse_args()
    minimums, reasons = read_gate(args.gate) if args.gate else ({}, {})
    matrix = Matrix()
    arches = args.arch or [HOST_ARCH] + [a for a in matrix.arches() if a != HOST_ARCH]
    out = os.path.abspath(args.out)
    coverage = {}
    for arch in arches:
        os.makedirs(os.path.join(out, arch), exist_ok=True)
        log = os.path.join(out, arch, "log")
        open(log, "w").close()
        preset, row = fuzz_preset(matrix, arch)
        print(f"env-coverage: {arch}: coverage build of {preset} (log {log})")
        folder = build(arch, preset, out, log, args.configure)
        profiles = measure(arch, folder, os.path.abspath(args.grown) if args.grown else "", out, log)
        if not profiles:
            raise SystemExit(f"ci/env-coverage: {arch}: no environment wrote a profile")
        objs = objects(folder)
        coverage[arch] = {env: line_coverage(p, objs, log) for env, p in profiles.items()}
        merged = os.path.join(out, arch, "merged.profdata")
        run([tool("llvm-profdata"), "merge", "-sparse", "-o", merged] + list(profiles.values()), log)
        coverage[arch]["merged"] = line_coverage(merged, objs, log)
        run([tool("llvm-cov"), "show", "-format=html", f"-output-dir={os.path.join(out, arch, 'html')}",
             f"-instr-profile={merged}", objs[0]] + [a for o in objs[1:] for a in ("-object", o)] +
            [os.path.join(ROOT, s) for s in SOURCES], log)
    with open(os.path.join(out, "coverage.json"), "w", encoding="utf-8") as f:
        json.dump(coverage, f, indent=1, sort_keys=True)
    with open(os.path.join(out, "coverage.md"), "w", encoding="utf-8") as f:
        f.write(table(coverage) + "\n")
    print(f"env-coverage: {os.path.join(out, 'coverage.md')}")
    problems = gate(coverage, minimums, reasons)
    for p in problems:
        print(f"env-coverage gate: {p}")
    if problems:
        sys.exit(1)
    print(f"env-coverage gate: {len([k for k in minimums if k[0] in coverage])} minimums met over "
          f"{', '.join(coverage)}")


if __name__ == "__main__":
    main()
