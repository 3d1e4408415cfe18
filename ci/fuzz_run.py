"""Verify mode's time-boxed fuzzing: the plan's fuzz jobs of one build (ci/plan.py "fuzz_job" records: its own
targets, and the targets env rows fuzz in their environments), side by side, one per core."""
import os
import re
import shlex
import subprocess
import time


class TimeBoxedFuzzing:
    def __init__(self, console, root, build_row, build_dir, jobs, seconds, out, records):
        self.console, self.root, self.build_row, self.build_dir = console, root, build_row, build_dir
        self.jobs, self.seconds, self.out, self.records = jobs, seconds, out, records

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
            args = [f"-max_total_time={self.seconds}", "-max_len=1024", "-print_final_stats=1",
                    f"-dict={self.root}/fuzz/{target}.dict", f"-artifact_prefix={self.out}/fuzz-{label}-", work, corpus]
        else:  # no libFuzzer (gcc builds, riscv64): corpus replay, then seeded random inputs
            binary += "_standalone"
            args = [f"-max_total_time={self.seconds}", "-max_len=1024", f"-seed={int(time.time()) % 100000}", corpus]
        env = dict(os.environ, SHAKEDOWN_ENV_NAME=job["env"], SHAKEDOWN_RECORD=self.records, **job["environment"])
        if target == "fuzz_api":
            env["ASAN_OPTIONS"] = "detect_stack_use_after_return=0"  # as fuzz/fuzz_api.options says
        log = os.path.join(self.out, f"fuzz-{label}.log")
        f = open(log, "w", encoding="utf-8")
        if job["runner"]:
            f.write(f"$ {' '.join(shlex.quote(c) for c in job['runner'])} ...\n")
            f.flush()
        return {"label": label, "log": log, "file": f, "binary": binary,
                "proc": subprocess.Popen(job["runner"] + [binary] + args, stdout=f, stderr=subprocess.STDOUT, env=env)}

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
                              f"{rc} (log {job['log']}); replay a crash file with `shakedown-repro FILE`")
            telling = [t for t in text.splitlines() if re.search(r"MISMATCH|ERROR|SUMMARY|Test unit written", t)]
            for line in telling[:8]:
                self.console.note(f"  {line}")
            return False
        self.console.note(f"{job['label']}: {execs[-1]} executions ({rate[-1] if rate else 0} exec/s, "
                          f"{os.path.basename(job['binary'])}), no mismatch")
        return True
