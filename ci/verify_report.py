#!/usr/bin/env python3
"""Backend coverage gate and verification matrix for ci/verify.

Inputs: the execution records the suites append to $SHAKEDOWN_RECORD (JSON lines: suite, family, backend,
check, count, env, arch), ctest results (preset, test, status), and ci/expect/<arch>.txt (which backends must
run in which environment, and how). Output: one matrix per arch on stdout, report.md, report.json,
report.html. Exit 1 when an expected backend did not run, when any backend failed, or when any test failed.
Expectations of an arch the run did not cover (--arches) are listed as not checked, never as met.
"""
import argparse
import collections
import html
import json
import os
import platform
import re
import sys

import ct_coverage

HOST_ARCH = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(), platform.machine().lower())


def how_of(env, backend, expect, arch):
    """How a backend ran in an environment: as ci/expect says if it is listed there (that is how an
    emulated backend is told apart from a native one running beside it), else QEMU when the environment
    runs under qemu-user (its name says so, or its binaries are of another arch), else native."""
    for e in expect:
        if e["env"] == env and e["backend"] == backend:
            return e["how"]
    return "QEMU" if "qemu" in env or (arch and arch != HOST_ARCH) else "native"


def env_rank(env):
    order = ("host-default", "host-asan-ubsan", "host-msan", "host-tsan", "host-fuzz")
    if env in order:
        return (0, order.index(env), env)
    if env.startswith("cross-"):
        return (1, 0, env)
    return (2 if env.startswith("qemu") else 3 if env.startswith("emul") else 4, 0, env)


def sanitize(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name)


# The family of each algorithm a parameterised test name can start with (lib/include/shakedown/algorithm.h).
FAMILY_OF = {"sha224": "sha256", "sha256": "sha256", "sha384": "sha512", "sha512": "sha512",
             "sha512_224": "sha512", "sha512_256": "sha512", "sha3_224": "keccak", "sha3_256": "keccak",
             "sha3_384": "keccak", "sha3_512": "keccak", "shake128": "keccak", "shake256": "keccak"}


def backend_of_test(test):
    """The (family, sanitized backend) a failed test's parameter names, or None for an unparameterised test.
    Parameters are 'ALGORITHM__BACKEND' (".../sha224__x86_64_avx2") or 'FAMILY_BACKEND' (".../sha256_x86_64_avx2"),
    backend names sanitized to [A-Za-z0-9_]. The algorithm decides the family: sha224__x86_64_avx2 is
    sha256/x86_64/avx2 and never sha512/x86_64/avx2."""
    param = test.rsplit("/", 1)[-1] if "/" in test else ""
    alg, sep, backend = param.partition("__")
    if sep and alg in FAMILY_OF:
        return FAMILY_OF[alg], backend
    for family in ("sha256", "sha512", "keccak"):
        if param.startswith(family + "_"):
            return family, param[len(family) + 1:]
    return None


def load_records(path):
    runs = collections.defaultdict(lambda: collections.Counter())  # (env, family/backend) -> suite -> count
    failures = collections.defaultdict(list)                      # env -> [test names]
    envs = {}                                                      # env -> arch of the binaries that ran there
    if not os.path.exists(path):
        return runs, failures, envs
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{lineno}: malformed record ({e})")
            env = r.get("env") or "host"
            envs.setdefault(env, r.get("arch") or "")
            if r["suite"] == "failure":
                failures[env].append(r["backend"])
                continue
            runs[(env, f'{r["family"]}/{r["backend"]}')][r["suite"]] += int(r["count"])
    return runs, failures, envs


def load_results(path):
    results = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3:
                    results.append(tuple(parts))
    return results


def load_expect(directory):
    expect = []
    if not os.path.isdir(directory):
        return expect
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".txt"):
            continue
        path = os.path.join(directory, name)
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                fields = line.split()
                if len(fields) < 3 or fields[2] not in ("native", "QEMU", "emulated"):
                    sys.exit(f"{path}:{lineno}: expected 'ENV FAMILY/BACKEND native|QEMU|emulated [SUITE...]'")
                expect.append({"env": fields[0], "backend": fields[1], "how": fields[2],
                               "suites": fields[3:] or ["vectors"], "where": f"{path}:{lineno}",
                               "arch": name[:-len(".txt")]})
    return expect


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--expect", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--not-run-by-mode", default="", help="comma-separated environments this mode skips")
    ap.add_argument("--arches", default="", help="comma-separated arches this run covered (default: all)")
    args = ap.parse_args()

    runs, failures, envs = load_records(args.records)
    results = load_results(args.results)
    expect = load_expect(args.expect)

    backends = sorted({b for (_, b) in runs} | {e["backend"] for e in expect})
    if args.only:
        backends = [b for b in backends if b == args.only]
        expect = [e for e in expect if e["backend"] == args.only]
        if not backends:
            print(f"--only {args.only}: no such backend in the records or ci/expect")
            return 1
    skipped_envs = {e for e in args.not_run_by_mode.split(",") if e}
    covered = {a for a in args.arches.split(",") if a}
    skipped_arches = sorted({e["arch"] for e in expect if covered and e["arch"] not in covered})
    full_expect = expect
    expect = [e for e in expect if e["env"] not in skipped_envs and (not covered or e["arch"] in covered)]
    env_arch = dict(envs)
    for e in expect:
        env_arch.setdefault(e["env"], e["arch"])
    env_order = sorted(env_arch, key=env_rank)

    cells = {}
    for b in backends:
        family, _, name = b.partition("/")
        for env in env_order:
            counts = runs.get((env, b), collections.Counter())
            failed = [t for t in failures.get(env, []) if backend_of_test(t) == (family, sanitize(name))]
            ran = sum(counts.values()) > 0
            cells[(b, env)] = {
                "ran": ran,
                "how": how_of(env, b, full_expect, env_arch.get(env, "")) if ran else "not run",
                "result": "FAIL" if failed else ("pass" if ran else "-"),
                "counts": dict(counts),
                "failed_tests": failed,
            }

    problems = []
    for e in expect:
        cell = cells.get((e["backend"], e["env"]))
        if e["env"] not in envs:
            problems.append(f'{e["backend"]} in {e["env"]}: environment did not run at all ({e["where"]})')
            continue
        for suite in e["suites"]:
            if not cell or cell["counts"].get(suite, 0) == 0:
                problems.append(f'{e["backend"]} in {e["env"]}: expected to run ({e["how"]}) but recorded zero '
                                f'{suite} executions: unavailable, skipped, or not built ({e["where"]})')
    for (b, env), cell in cells.items():
        if cell["result"] == "FAIL":
            problems.append(f"{b} in {env}: FAILED ({', '.join(cell['failed_tests'][:3])})")
    failed_tests = [(p, t) for p, t, s in results if s not in ("Passed", "Skipped", "Not Run")]
    for p, t in failed_tests:
        problems.append(f"ctest {p}: {t} failed")

    def cell_text(c):
        if not c["ran"]:
            return "not run"
        parts = [f'{c["how"]} {c["result"]}']
        counts = c["counts"]
        detail = []
        if counts.get("vectors"):
            detail.append(f'v{counts["vectors"]}')
        if counts.get("diff"):
            detail.append(f'd{counts["diff"]}')
        if counts.get("fuzz"):
            detail.append(f'f{counts["fuzz"]}')
        if detail:
            parts.append("(" + " ".join(detail) + ")")
        return " ".join(parts)

    # One matrix per arch: its environments as columns, the backends that ran or were expected there as rows.
    sections = []
    for arch in sorted({env_arch[e] for e in env_order}):
        arch_envs = [e for e in env_order if env_arch[e] == arch]
        arch_backends = [b for b in backends
                         if any(cells[(b, e)]["ran"] for e in arch_envs)
                         or any(x["backend"] == b and x["env"] in arch_envs for x in expect)]
        header = ["backend"] + arch_envs
        rows = [[b] + [cell_text(cells[(b, e)]) for e in arch_envs] for b in arch_backends]
        sections.append((arch or "unknown arch", header, rows))
    text = []
    for arch, header, rows in sections:
        widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
        line = lambda r: "  ".join(r[i].ljust(widths[i]) for i in range(len(r)))
        text += [f"== {arch} ==", line(header), line(["-" * w for w in widths])] + [line(r) for r in rows] + [""]
    legend = ("v = vector checks, d = differential checks, f = fuzz executions (records from the suites); "
              "qemu-* environments run under Debian's QEMU 7.2, qemu10-* under QEMU 10 (docs/qemu10.md)")
    print("\n".join(text))
    print(legend)
    ct_lines, ct_json = ct_coverage.section(args.records, backends, HOST_ARCH, skipped_envs, args.out)
    print("\n" + "\n".join(ct_lines))
    passed_tests = sum(1 for _, _, s in results if s == "Passed")
    print(f"ctest: {passed_tests} passed, {len(failed_tests)} failed, "
          f"{sum(1 for _, _, s in results if s in ('Skipped', 'Not Run'))} skipped")
    for env in sorted(skipped_envs):
        print(f"note: environment {env} is not run in this mode; its expectations were not checked")
    for arch in skipped_arches:
        print(f"note: arch {arch} was not run (--arch); ci/expect/{arch}.txt was not checked")
    if problems:
        print("\nGATE FAILED:")
        for p in problems:
            print("  - " + p)
    else:
        print(f"\ngate: every expected backend ran in its environment ({len(expect)} expectations)")

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write("# shakedown verification matrix\n\n")
        for arch, header, rows in sections:
            f.write(f"## {arch}\n\n| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
            for r in rows:
                f.write("| " + " | ".join(r) + " |\n")
            f.write("\n")
        f.write(f"\n{legend}\n\n")
        f.write("\n".join(ct_lines) + "\n\n")
        f.write("## Gate\n\n" + ("\n".join("- " + p for p in problems) if problems else "all expectations met") + "\n")
    with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as f:
        json.dump({"environments": env_order, "arch_of_environment": env_arch, "backends": backends,
                   "cells": {f"{b}@{env}": c for (b, env), c in cells.items()},
                   "expectations": expect, "problems": problems, "constant_time": ct_json,
                   "ctest": {"passed": passed_tests, "failed": [t for _, t in failed_tests]}}, f, indent=2)
    with open(os.path.join(args.out, "report.html"), "w", encoding="utf-8") as f:
        colour = {"pass": "#c8f7c5", "FAIL": "#f7c5c5", "-": "#eeeeee"}
        f.write("<!doctype html><meta charset=utf-8><title>shakedown verification</title>"
                "<style>body{font-family:sans-serif}td,th{padding:4px 8px;border:1px solid #999}"
                "table{border-collapse:collapse}</style><h1>shakedown verification matrix</h1>")
        for arch, header, rows in sections:
            f.write(f"<h2>{html.escape(arch)}</h2><table><tr>")
            f.write("".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
            for r in rows:
                b = r[0]
                f.write(f"<tr><th>{html.escape(b)}</th>")
                for env in header[1:]:
                    c = cells[(b, env)]
                    f.write(f'<td style="background:{colour[c["result"]]}">{html.escape(cell_text(c))}</td>')
                f.write("</tr>")
            f.write("</table>")
        ct_text = "\n".join(ct_lines)
        f.write(f"<p>{html.escape(legend)}</p><pre>{html.escape(ct_text)}</pre>")
        f.write("<h2>Gate</h2><ul>")
        f.write("".join(f"<li>{html.escape(p)}</li>" for p in problems) or "<li>all expectations met</li>")
        f.write("</ul>")
    print(f"\nreports: {args.out}/report.md, report.json, report.html")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
