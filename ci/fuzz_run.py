"""Verify mode's time-boxed fuzzing: the plan's fuzz jobs of one build (ci/plan.py "fuzz_job" records: its own
targets, and the targets env rows fuzz in their environments), side by side, one per core. The crash files libFuzzer
leaves (fuzz-<env>-<target>-crash-<sha1>, leak-, timeout-, oom-) are recorded with the command that replays each in
its environment (crashes.jsonl: the reports list them), and filed once per signature in build/<mode>/crashes/
(ci/crash_triage.py)."""
import json
import os
import re
import shlex
import subprocess
import time

import crash_triage

# libFuzzer's artifact kinds: -artifact_prefix followed by one of these, a dash and the input's SHA-1.
ARTIFACT = re.compile(r"^(crash|leak|timeout|oom|slow-unit)-[0-9a-f]{40}$")
# What fuzz_api runs with, as fuzz/fuzz_api.options says (its [asan] section); the replay of its crash too.
FUZZ_API_ASAN = "detect_stack_use_after_return=0"


def replay_environment(variables):
    """An environment's variables (NAME=VALUE items or a dict) for a replay of its inputs: without its minimum count
    of emulated instructions (SHAKEDOWN_EMULATE_REQUIRE), which only a full-scale run reaches, not a replay."""
    pairs = variables.items() if isinstance(variables, dict) else (i.partition("=")[::2] for i in variables)
    return {k: v for k, v in pairs if k != "SHAKEDOWN_EMULATE_REQUIRE"}


def repro_command(root, build_dir, job, crash_file):
    """The shell command that replays a crash file as the job ran it: from the source tree, under the job's runner,
    shakedown-repro of the job's build told the environment, which sets up that environment's profile itself
    (SHAKEDOWN_EMULATE, SHAKEDOWN_TEST_ASSUME, ... from the build's plan)."""
    repro = os.path.join(build_dir, "fuzz", "shakedown-repro")
    env = [f"ASAN_OPTIONS={FUZZ_API_ASAN}"] if job["target"] == "fuzz_api" else []
    words = (["env"] + env if env else []) + list(job["runner"] or []) + [repro, "--env", job["env"], crash_file]
    return f"cd {shlex.quote(root)} && " + " ".join(shlex.quote(w) for w in words)


class TimeBoxedFuzzing:
    def __init__(self, console, root, build_row, build_dir, jobs, seconds, out, records, crashes=None,
                 crash_dir=None):
        self.console, self.root, self.build_row, self.build_dir = console, root, build_row, build_dir
        self.jobs, self.seconds, self.out, self.records = jobs, seconds, out, records
        self.crashes = crashes  # the JSON-lines file crash files are recorded in (the driver's crashes.jsonl)
        self.crash_dir = crash_dir  # build/<mode>/crashes: one folder per crash signature (ci/crash_triage.py)

    def run(self):
        """Runs every job; a failed step when any found a mismatch, crashed, or could not start."""
        runnable = []
        for job in self.jobs:
            if job["runner"] is None:
                self.console.fail_step(f"{job['env']}: cannot run its time-boxed fuzzing here: {job['why_not']}")
            else:
                runnable.append(job)
        self.console.note(f"time-boxed fuzzing ({self.seconds}s per target, {len(runnable)} runs)")
        os.makedirs(self.out, exist_ok=True)
        outcomes, pending, running = [], list(runnable), []
        while pending or running:
            while pending and len(running) < (os.cpu_count() or 2):
                running.append(self.start(pending.pop(0)))
            time.sleep(1)
            for started in [j for j in running if j["proc"].poll() is not None]:
                running.remove(started)
                outcomes.append(self.finish(started))
        if not all(outcomes):
            self.console.fail_step(f"time-boxed fuzzing on {self.build_row.arch} (logs in {self.out})")

    def start(self, job):
        target = job["target"]
        label = f"{job['env']}-{target}"
        binary = os.path.join(self.build_dir, "fuzz", target)
        corpus = os.path.join(self.root, "fuzz", "corpus", target)
        work = os.path.join(self.out, f"corpus-{label}")
        os.makedirs(work, exist_ok=True)
        if self.build_row.get("timeboxed") == "libfuzzer" and os.access(binary, os.X_OK):
            # How this corpus grows (binary, runner, environment): ci/fuzz-corpus merges it back with the same.
            with open(work + ".json", "w", encoding="utf-8") as f:
                json.dump({"target": target, "env": job["env"], "binary": binary, "runner": job["runner"],
                           "environment": job["environment"], "corpus": work}, f)
            args = [f"-max_total_time={self.seconds}", "-max_len=1024", "-print_final_stats=1",
                    f"-dict={self.root}/fuzz/{target}.dict", f"-artifact_prefix={self.out}/fuzz-{label}-", work, corpus]
        else:  # no libFuzzer (gcc builds, riscv64): corpus replay, then seeded random inputs
            binary += "_standalone"
            args = [f"-max_total_time={self.seconds}", "-max_len=1024", f"-seed={int(time.time()) % 100000}", corpus]
        env = dict(os.environ, SHAKEDOWN_ENV_NAME=job["env"], SHAKEDOWN_RECORD=self.records, **job["environment"])
        if target == "fuzz_api":
            env["ASAN_OPTIONS"] = FUZZ_API_ASAN
        log = os.path.join(self.out, f"fuzz-{label}.log")
        f = open(log, "w", encoding="utf-8")
        if job["runner"]:
            f.write(f"$ {' '.join(shlex.quote(c) for c in job['runner'])} ...\n")
            f.flush()
        return {"label": label, "log": log, "file": f, "binary": binary, "job": job, "started": time.time(),
                "proc": subprocess.Popen(job["runner"] + [binary] + args, stdout=f, stderr=subprocess.STDOUT, env=env)}

    def artifacts(self, started):
        """The crash files this job left: fuzz-<label>-<kind>-<sha1> in the output folder, written since it began
        (those of earlier runs stay, and stay out of this run's report)."""
        prefix = f"fuzz-{started['label']}-"
        found = []
        for name in sorted(os.listdir(self.out)):
            path = os.path.join(self.out, name)
            if name.startswith(prefix) and ARTIFACT.match(name[len(prefix):]) and \
                    os.path.getmtime(path) >= started["started"] - 1:
                found.append((name[len(prefix):].rsplit("-", 1)[0], path))
        return found

    def record_crashes(self, started):
        """Each crash file with its replay command: on the console, filed by signature in the crash folder (a
        repeat of a known signature is counted there, not stored again) and in the crashes file for the reports."""
        job = started["job"]
        found = self.artifacts(started)
        for kind, path in found:
            command = repro_command(self.root, self.build_dir, job, path)
            record = {"file": path, "kind": kind, "env": job["env"], "target": job["target"],
                      "build": self.build_row.name, "arch": self.build_row.arch, "repro": command}
            self.console.note(f"  {kind} file {path}")
            if self.crash_dir:
                text, cid, folder, new = crash_triage.store(
                    self.crash_dir, job["target"], kind, path, started["log"],
                    lambda f: repro_command(self.root, self.build_dir, job, f), job["env"])
                record.update(signature=text, crash_id=cid, stored=folder, duplicate=not new)
                self.console.note(f"  {'new' if new else 'known'} crash {cid}: {text} ({folder})")
            self.console.note(f"  reproduce: {command}")
            if self.crashes:
                with open(self.crashes, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record) + "\n")
        return found

    def finish(self, job):
        job["file"].close()
        with open(job["log"], encoding="utf-8", errors="replace") as f:
            text = f.read()
        # libFuzzer's -print_final_stats lines (the standalone driver prints the same two).
        execs = re.findall(r"^stat::number_of_executed_units: *(\d+)", text, re.M)
        rate = re.findall(r"^stat::average_exec_per_sec: *(\d+)", text, re.M)
        rc = job["proc"].returncode
        if rc != 0 or not execs:
            self.console.note(f"{job['label']}: FAILED after {execs[-1] if execs else '?'} executions, exit status "
                              f"{rc} (log {job['log']})")
            telling = [t for t in text.splitlines() if re.search(r"MISMATCH|ERROR|SUMMARY", t)]
            for line in telling[:8]:
                self.console.note(f"  {line}")
            if not self.record_crashes(job):
                self.console.note("  no crash file (the standalone driver writes none): the log has the input's plan")
            return False
        self.console.note(f"{job['label']}: {execs[-1]} executions ({rate[-1] if rate else 0} exec/s, "
                          f"{os.path.basename(job['binary'])}), no mismatch")
        return True
