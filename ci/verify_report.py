#!/usr/bin/env python3
"""Backend coverage gate and verification matrix for ci/verify and ci/test.

Inputs: the resolved plans of the run's builds (--plan: ci/plan.py, written at configure time; an arch without one
is resolved from ci/matrix/<arch>.txt here: which backend must run in which environment), the execution records
the binaries append to $SHAKEDOWN_RECORD, the ctest results the driver took from JUnit XML (results.jsonl), and the
crash files of the time-boxed fuzzing with their reproduction commands (--crashes: crashes.jsonl, ci/fuzz_run.py).
Output: one matrix per arch on stdout, and report.md, report.json (schema SCHEMA_VERSION, with run metadata; each
problem an object: kind, backend, environment, suite, test, detail, ...), report.html in --out; a crash file is a
problem. Exit 1 when the gate fails (gate.py says when), 2 on unreadable input. Expectations of an
arch the run did not cover (--arches) are listed as not checked, never as met.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ct_coverage  # noqa: E402
import render  # noqa: E402
from gate import Scope, evaluate  # noqa: E402
from matrix import MATRIX_DIR, Matrix, MatrixError, host_cpu_flags  # noqa: E402
from plan import Plan, read  # noqa: E402
from results import ResultsError, load_crashes, load_records, load_results  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matrix", default=MATRIX_DIR, help="folder of <arch>.txt files (default: ci/matrix)")
    ap.add_argument("--plan", action="append", default=[],
                    help="a build's plan-<arch>.jsonl (repeatable); arches without one are resolved from --matrix")
    ap.add_argument("--records", required=True)
    ap.add_argument("--results", required=True, help="ctest results (JSON lines, ci/results.py)")
    ap.add_argument("--crashes", default="", help="crash files of the time-boxed fuzzing (JSON lines, ci/fuzz_run.py)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="", help="FAMILY/BACKEND: the matrix and gate for one backend")
    ap.add_argument("--not-run-by-mode", default="", help="comma-separated environments this mode skips")
    ap.add_argument("--arches", default="", help="comma-separated arches this run covered (default: all)")
    ap.add_argument("--meta", action="append", default=[], help="KEY=VALUE run metadata for the reports")
    ap.add_argument("--host-cpu-flags", default=None,
                    help="space-separated CPU flags the host-cpu= conditions are read against (default: this "
                         "host's, from /proc/cpuinfo); to judge records taken on another machine")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    try:
        built = [r for p in args.plan for r in read(p)]
        have = {r["arch"] for r in built if r["type"] == "build"}
        matrix = Matrix(args.matrix)
        plan = Plan(built + [r for r in Plan.of_matrix(matrix).records if r.get("arch") not in have])
        records = load_records(args.records)
        results = load_results(args.results)
        crashes = load_crashes(args.crashes)
    except (MatrixError, ResultsError, OSError, ValueError) as e:
        print(f"verify_report: {e}", file=sys.stderr)
        return 2
    if args.only and args.only not in {b for bs in plan.backends().values() for b in bs}:
        print(f"verify_report: --only {args.only}: no such backend in {args.matrix}", file=sys.stderr)
        return 2
    scope = Scope(arches={a for a in args.arches.split(",") if a},
                  skipped_envs={e for e in args.not_run_by_mode.split(",") if e}, only=args.only,
                  host_cpu=set(args.host_cpu_flags.split()) if args.host_cpu_flags is not None else host_cpu_flags())
    ev = evaluate(plan, records, results, scope, crashes)
    ev.constant_time = ct_coverage.section(plan, records, ev.backends, scope.arches, scope.skipped_envs, args.out)
    meta = dict(m.partition("=")[::2] for m in args.meta)
    meta.setdefault("arches", ",".join(sorted(scope.arches)) or "all")
    if args.only:
        meta["only"] = args.only

    print(render.text(ev), end="")
    os.makedirs(args.out, exist_ok=True)
    for name, content in (("report.md", render.markdown(ev, meta)), ("report.json", render.as_json(ev, meta)),
                          ("report.html", render.as_html(ev, meta))):
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(content)
    print(f"\nreports: {args.out}/report.md, report.json, report.html")
    return 1 if ev.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
