"""Constant-time coverage for the verify report: per backend, which environment's tool covered it, which could
not, and why.

The constant-time suite (tests/ct_check.cc) appends "ct" records to the execution records: a count of outputs and
verdicts checked when it ran a backend, or a count of 0 with the reason it could not ("not run: ..."). Its
environments are the matrix rows whose checks= include "ct" (host-msan: MemorySanitizer, host-valgrind: Valgrind
memcheck); both run natively on the host, never under QEMU, so a backend of another arch has no record from them.
ci/verify --deep adds the Hmac::verify timing t-test (ct_timing.txt in the report folder), quoted as it printed
its statistic.
"""
import os
from dataclasses import dataclass, field

from arches import ARCHES, HOST_ARCH

# The backend-name prefix of each arch's backends (generic runs on every arch): its arch/ folder (ci/arches.txt).
ARCH_PREFIX = {a.name: a.folder + "/" for a in ARCHES}


@dataclass
class ConstantTime:
    environments: list = field(default_factory=list)  # columns: the environments with checks=ct
    cells: dict = field(default_factory=dict)         # backend -> [text per environment]
    timing: list = field(default_factory=list)        # the t-test's statistic lines

    def to_json(self):
        return {"environments": self.environments,
                "backends": {b: dict(zip(self.environments, texts)) for b, texts in self.cells.items()},
                "timing": self.timing}


def cell(records, env, arch, backend, skipped_envs):
    checks = records.runs.get((env, backend), {}).get("ct", 0)
    if checks:
        return f"covered ({checks} checks)"
    reasons = records.reasons.get((env, backend), [])
    if reasons:
        return "; ".join(reasons)
    name = backend.partition("/")[2]
    if name != "generic" and not name.startswith(ARCH_PREFIX.get(arch, arch + "/")):
        return f"not run: {name.partition('/')[0]} code; {env} runs natively on {arch} only, never under QEMU"
    if env in skipped_envs:
        return "not run in this mode"
    if env not in records.envs:
        return "not run: the environment did not run"
    return "not run: no record"


def section(plan, records, backends, covered_arches, skipped_envs, out_dir):
    """The constant-time coverage of a run: one column per environment that checks ct, one row per backend."""
    envs = [r for r in plan.envs.values() if "ct" in r["checks"] and
            (not covered_arches or r["arch"] in covered_arches)]
    ct = ConstantTime([r["name"] for r in envs])
    for b in backends:
        ct.cells[b] = [cell(records, r["name"], r["arch"] or HOST_ARCH, b, skipped_envs) for r in envs]
    timing_path = os.path.join(out_dir, "ct_timing.txt")
    if os.path.exists(timing_path):
        with open(timing_path, encoding="utf-8", errors="replace") as f:
            ct.timing = [line.rstrip("\n") for line in f if "max |t|" in line or "self-test" in line]
    return ct


def markdown_lines(ct):
    """The section in Markdown (readable on stdout too)."""
    if not ct.environments:
        return []
    lines = ["## Constant-time coverage", "",
             "Secrets marked as uninitialised memory (tests/ct_check.cc); any branch or address computed from them "
             "fails the run. SECURITY.md says which code paths each tool validates.", "",
             "| backend | " + " | ".join(ct.environments) + " |", "|---|" + "---|" * len(ct.environments)]
    lines += ["| " + b + " | " + " | ".join(texts) + " |" for b, texts in ct.cells.items()]
    if ct.timing:
        lines += ["", "Hmac::verify timing (dudect-style Welch t-test, ci/verify --deep):", ""]
        lines += ["    " + t for t in ct.timing]
    return lines
