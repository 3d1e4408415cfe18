"""Constant-time coverage for the verify report: per backend, which tool covered it, which could not, and why.

The constant-time suite (tests/ct_check.cc) appends "ct" records to the execution records: a count of outputs and
verdicts checked when it ran a backend, or a count of 0 with the reason it could not ("not run: ..."). The tool
is the environment's (TOOLS). A backend without a record from a tool is of another arch (both tools run natively
on the host, never under QEMU) or the environment did not run. ci/verify --deep adds the Hmac::verify timing
t-test (ct_timing.txt in the report folder), quoted as it printed its statistic.
"""
import collections
import json
import os

TOOLS = {"host-msan": "MemorySanitizer", "host-valgrind": "Valgrind memcheck"}
# The backend-name prefix of each host arch (generic runs on every arch).
ARCH_PREFIX = {"x86_64": "x86_64/", "aarch64": "arm64/", "s390x": "s390x/", "riscv64": "riscv64/"}


def load(records_path):
    """(env, family/backend) -> [checks, reasons] from the "ct" records of the tools' environments."""
    found = collections.defaultdict(lambda: [0, []])
    if not os.path.exists(records_path):
        return found
    with open(records_path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)  # verify_report.load_records has already rejected malformed lines
            if r.get("suite") != "ct" or r.get("env") not in TOOLS:
                continue
            cell = found[(r["env"], f'{r["family"]}/{r["backend"]}')]
            cell[0] += int(r["count"])
            if int(r["count"]) == 0 and r.get("check") not in cell[1]:
                cell[1].append(r["check"])
    return found


def cell(found, env, backend, host_arch, skipped_envs):
    checks, reasons = found.get((env, backend), (0, []))
    if checks:
        return f"covered ({checks} checks)"
    if reasons:
        return "; ".join(reasons)
    name = backend.partition("/")[2]
    if name != "generic" and not name.startswith(ARCH_PREFIX.get(host_arch, host_arch + "/")):
        arch = name.partition("/")[0]
        return f"not run: {arch} code; {TOOLS[env]} runs natively on {host_arch} only, never under QEMU"
    if env in skipped_envs:
        return "not run in this mode"
    if not any(e == env for e, _ in found):
        return "not run: the environment did not run"
    return "not run: no record"


def section(records_path, backends, host_arch, skipped_envs, out_dir):
    """Markdown lines for the report (readable on stdout too) and the JSON form."""
    found = load(records_path)
    rows = {b: {TOOLS[env]: cell(found, env, b, host_arch, skipped_envs) for env in TOOLS} for b in backends}
    lines = ["## Constant-time coverage", "",
             "Secrets marked as uninitialised memory (tests/ct_check.cc); any branch or address computed from "
             "them fails the run. SECURITY.md says which code paths each tool validates.", "",
             "| backend | " + " | ".join(TOOLS.values()) + " |", "|---|" + "---|" * len(TOOLS)]
    lines += ["| " + b + " | " + " | ".join(rows[b].values()) + " |" for b in backends]
    timing = []
    timing_path = os.path.join(out_dir, "ct_timing.txt")
    if os.path.exists(timing_path):
        with open(timing_path, encoding="utf-8") as f:
            timing = [line.rstrip("\n") for line in f if "max |t|" in line or "self-test" in line]
        lines += ["", "Hmac::verify timing (dudect-style Welch t-test, ci/verify --deep):", ""]
        lines += ["    " + t for t in timing]
    return lines, {"tools": list(TOOLS.values()), "backends": rows, "timing": timing}
