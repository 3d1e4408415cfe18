#!/usr/bin/env python3
"""Validates the GitHub workflows (Debian has no actionlint): YAML, the workflow schema's structure, the inputs of
the ClusterFuzzLite actions, the expressions' contexts, and that the set of ClusterFuzzLite workflows is the one
its documentation describes (PR code-change fuzzing, continuous builds, batch fuzzing, pruning, coverage) with the
storage repository reached through a secret; and what the workflows build with, .clusterfuzzlite/: a pinned base
image, an OpenSSL Configure line the cloned OpenSSL accepts, a build.sh that stops at its first error
(ci/cflite_image.py).

  ci/check_workflows.py [WORKFLOW_DIR]      (default .github/workflows)

Prints one line per problem and exits 1 if there is any."""
import os
import re
import sys

import yaml

from cflite_image import build_script_problems, dockerfile_problems

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# Inputs of google/clusterfuzzlite/actions/{build_fuzzers,run_fuzzers}@v1 (their action.yml files).
ACTION_INPUTS = {
    "google/clusterfuzzlite/actions/build_fuzzers": {
        "language", "dry-run", "allowed-broken-targets-percentage", "sanitizer", "project-src-path",
        "bad-build-check", "storage-repo", "storage-repo-branch", "storage-repo-branch-coverage", "upload-build",
        "github-token", "architecture", "keep-unaffected-fuzz-targets", "output-sarif"},
    "google/clusterfuzzlite/actions/run_fuzzers": {
        "language", "fuzz-seconds", "dry-run", "sanitizer", "mode", "github-token", "storage-repo",
        "storage-repo-branch", "storage-repo-branch-coverage", "report-unreproducible-crashes", "output-sarif",
        "minimize-crashes", "parallel-fuzzing", "report-timeouts", "report-ooms"},
}
REQUIRED_INPUTS = {"google/clusterfuzzlite/actions/run_fuzzers": {"github-token", "fuzz-seconds"}}
MODES = {"code-change", "batch", "coverage", "prune"}
TOP_KEYS = {"name", "run-name", "on", "permissions", "env", "defaults", "concurrency", "jobs"}
JOB_KEYS = {"name", "needs", "permissions", "runs-on", "environment", "concurrency", "outputs", "env", "defaults",
            "if", "steps", "timeout-minutes", "strategy", "continue-on-error", "container", "services", "uses",
            "with", "secrets"}
STEP_KEYS = {"id", "if", "name", "uses", "run", "shell", "with", "env", "continue-on-error", "timeout-minutes",
             "working-directory"}
EVENTS = {"push", "pull_request", "pull_request_target", "schedule", "workflow_dispatch", "workflow_call",
          "release", "merge_group"}
CONTEXTS = {"github", "env", "vars", "job", "jobs", "steps", "runner", "secrets", "strategy", "matrix", "needs",
            "inputs"}
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}")
CRON_FIELD = re.compile(r"^[0-9*/,\-]+$")


def project_sanitizers():
    with open(os.path.join(ROOT, ".clusterfuzzlite", "project.yaml"), encoding="utf-8") as f:
        return set(yaml.safe_load(f)["sanitizers"])


class Checker:
    def __init__(self):
        self.problems = []

    def fail(self, where, what):
        self.problems.append(f"{where}: {what}")

    def expressions(self, where, value, matrix):
        """Every ${{ }} names known contexts, and matrix.<key> a key of the job's matrix."""
        if isinstance(value, dict):
            for k, v in value.items():
                self.expressions(f"{where}.{k}", v, matrix)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self.expressions(f"{where}[{i}]", v, matrix)
        elif isinstance(value, str):
            for expr in EXPRESSION.findall(value):
                if expr.count("(") != expr.count(")") or expr.count("'") % 2:
                    self.fail(where, f"unbalanced expression '${{{{{expr}}}}}'")
                bare = re.sub(r"'[^']*'", "''", expr)
                for ctx, key in re.findall(r"\b([a-z_]+)\.([A-Za-z_][\w-]*)", bare):
                    if ctx not in CONTEXTS:
                        self.fail(where, f"unknown context '{ctx}' in '${{{{{expr}}}}}'")
                    elif ctx == "matrix" and key not in matrix:
                        self.fail(where, f"matrix.{key} is not a key of the job's matrix")

    def workflow(self, path, doc):
        where = os.path.relpath(path, ROOT)
        if not isinstance(doc, dict):
            return self.fail(where, "not a mapping")
        on = doc.pop(True, None) if True in doc else doc.get("on")  # YAML 1.1 reads a bare `on` as true
        if on is not None:
            doc["on"] = on
        for key in doc:
            if key not in TOP_KEYS:
                self.fail(where, f"unknown top-level key '{key}'")
        for key in ("name", "on", "jobs"):
            if key not in doc:
                self.fail(where, f"missing '{key}'")
        if doc.get("permissions") not in ("read-all", None) and not isinstance(doc.get("permissions"), dict):
            self.fail(where, "permissions must be read-all or a mapping")
        events = on if isinstance(on, dict) else {e: None for e in (on if isinstance(on, list) else [on])}
        for event, spec in events.items():
            if event not in EVENTS:
                self.fail(where, f"unknown event '{event}'")
            if event == "schedule":
                for entry in spec or []:
                    fields = str(entry.get("cron", "")).split()
                    if len(fields) != 5 or not all(CRON_FIELD.match(f) for f in fields):
                        self.fail(where, f"bad cron '{entry.get('cron')}'")
            if event in ("push", "pull_request") and isinstance(spec, dict):
                for key in ("paths", "paths-ignore", "branches", "branches-ignore", "tags"):
                    if key in spec and not (isinstance(spec[key], list) and all(isinstance(p, str) for p in spec[key])):
                        self.fail(where, f"on.{event}.{key} must be a list of strings")
        self.expressions(f"{where}.env", doc.get("env", {}), {})
        for job_id, job in (doc.get("jobs") or {}).items():
            self.job(f"{where}:{job_id}", job, events)
        return events

    def job(self, where, job, events):
        if not isinstance(job, dict):
            return self.fail(where, "job is not a mapping")
        for key in job:
            if key not in JOB_KEYS:
                self.fail(where, f"unknown job key '{key}'")
        if "runs-on" not in job:
            self.fail(where, "missing runs-on")
        if not isinstance(job.get("steps"), list) or not job["steps"]:
            return self.fail(where, "no steps")
        matrix = ((job.get("strategy") or {}).get("matrix") or {})
        self.expressions(where, {k: v for k, v in job.items() if k != "steps"}, matrix)
        ids = set()
        for i, step in enumerate(job["steps"]):
            here = f"{where}.steps[{i}]"
            if not isinstance(step, dict):
                self.fail(here, "step is not a mapping")
                continue
            for key in step:
                if key not in STEP_KEYS:
                    self.fail(here, f"unknown step key '{key}'")
            if ("uses" in step) == ("run" in step):
                self.fail(here, "a step needs exactly one of uses and run")
            if "id" in step:
                if step["id"] in ids:
                    self.fail(here, f"duplicate step id '{step['id']}'")
                ids.add(step["id"])
            self.expressions(here, step, matrix)
            self.action(here, step, matrix)

    def action(self, where, step, matrix):
        uses = step.get("uses", "")
        name, _, ref = uses.partition("@")
        if name not in ACTION_INPUTS:
            return
        if not ref:
            self.fail(where, f"{name} without a version (@v1)")
        inputs = step.get("with") or {}
        for key in inputs:
            if key not in ACTION_INPUTS[name]:
                self.fail(where, f"{name} has no input '{key}'")
        for key in REQUIRED_INPUTS.get(name, ()):
            if key not in inputs:
                self.fail(where, f"{name} needs input '{key}'")
        if "mode" in inputs and inputs["mode"] not in MODES:
            self.fail(where, f"mode '{inputs['mode']}' is none of {sorted(MODES)}")
        sanitizers = set(matrix.get("sanitizer", [])) if "matrix.sanitizer" in str(inputs.get("sanitizer")) else {
            inputs.get("sanitizer", "address")}
        allowed = project_sanitizers() | {"coverage"}
        for s in sanitizers:
            if s not in allowed:
                self.fail(where, f"sanitizer '{s}' is not in .clusterfuzzlite/project.yaml (or coverage)")
        if inputs.get("mode") == "coverage" and inputs.get("sanitizer") != "coverage":
            self.fail(where, "coverage mode runs a coverage build: sanitizer must be coverage")
        for key in ("storage-repo",):
            value = str(inputs.get(key, ""))
            if value and "secrets." not in value and "env." not in value:
                self.fail(where, f"{key} must reach the storage repository through a secret (token in the URL)")


def cflite_roles(checker, workflows):
    """The workflows ClusterFuzzLite's documentation describes for GitHub Actions, each present."""
    roles = {"code-change fuzzing on pull requests": False, "continuous build uploaded on push": False,
             "batch fuzzing": False, "corpus pruning": False, "coverage report": False}
    for path, (doc, events) in workflows.items():
        env = doc.get("env") or {}
        for job_id, job in (doc.get("jobs") or {}).items():
            for step in job.get("steps", []):
                uses = step.get("uses", "").partition("@")[0]
                inputs = step.get("with") or {}
                storage = str(inputs.get("storage-repo", ""))
                if storage.startswith("${{ env.") and not any("secrets." in str(v) for v in env.values()):
                    checker.fail(path, "storage-repo comes from env, which does not hold a secret")
                if uses.endswith("run_fuzzers"):
                    mode = inputs.get("mode", "code-change")
                    if mode == "code-change" and "pull_request" in events:
                        roles["code-change fuzzing on pull requests"] = True
                    roles["batch fuzzing"] |= mode == "batch"
                    roles["corpus pruning"] |= mode == "prune"
                    roles["coverage report"] |= mode == "coverage"
                if uses.endswith("build_fuzzers") and str(inputs.get("upload-build")).lower() == "true" and \
                        "push" in events:
                    roles["continuous build uploaded on push"] = True
    for role, present in roles.items():
        if not present:
            checker.fail("ClusterFuzzLite", f"no workflow does the {role}")


def main(argv):
    folder = argv[0] if argv else os.path.join(ROOT, ".github", "workflows")
    checker = Checker()
    workflows = {}
    names = sorted(n for n in os.listdir(folder) if n.endswith((".yml", ".yaml")))
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                doc = yaml.safe_load(f)
        except yaml.YAMLError as e:
            checker.fail(name, f"YAML: {e}")
            continue
        events = checker.workflow(path, doc)
        if name.startswith("cflite_"):
            workflows[name] = (doc, events or {})
    cflite_roles(checker, workflows)
    cflite = os.path.join(ROOT, ".clusterfuzzlite")
    for name, check in (("Dockerfile", dockerfile_problems), ("build.sh", build_script_problems)):
        with open(os.path.join(cflite, name), encoding="utf-8") as f:
            checker.problems += check(f.read(), f".clusterfuzzlite/{name}")
    for p in checker.problems:
        print(f"check_workflows: {p}")
    print(f"check_workflows: {len(names)} workflows, {len(checker.problems)} problems")
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
