"""Merges the corpora that ci/verify's time-boxed fuzzing grew (build/<mode>/fuzz/<arch>/corpus-<env>-<target>/) back
into fuzz/corpus/<target>/, for a maintainer to review and commit. Each grown corpus is merged by the binary that
grew it, under its runner (QEMU and CPU model) and in its environment (an emulated profile's variables), so an
input stays only if it reaches code in some environment that the corpus does not reach yet: an input that only
reaches arch/s390x is judged by the s390x build under qemu-s390x, not by the host. The merge is libFuzzer's
-set_cover_merge=1 over edges (-use_counters=0): the fewest inputs that reach every edge the grown ones reach, not
every input that raised some edge's hit count (a tenth of the files, measured on fuzz_api under qemu-aarch64).

  ci/fuzz-corpus [--from DIR]... [--minimise] [--max-files N] [--max-bytes B] [--target T]... [--dry-run]
                 [--corpus DIR]

--from     build/<mode> folders to take grown corpora from (default: build/deep and build/verify, those present)
--minimise start from the seeds and regression inputs only and let the merge choose again among the kept grown
           inputs and the new ones (run it with every arch's grown corpus present: an arch left out loses the
           inputs only it needed)
--corpus   the corpus root to merge into (default fuzz/corpus)
--max-files, --max-bytes  the bound on a target's grown inputs (default 128 files, 64 KiB; every replay entry of
           every environment runs them, Bochs too): a merge past it changes nothing and fails, saying by how much
           (raise the bound or --minimise); the seeds and regression inputs never count or go.

The files it keeps: seed-* (written by hand), regress-* (shakedown-repro --save) and grown-<sha1> (this command).
The corpus folder is what ClusterFuzzLite zips as <target>_seed_corpus.zip (.clusterfuzzlite/build.sh) and what the
fuzz.libfuzzer_replay.<target> entries replay. Exit status 0 when every merge ran, 1 when one failed, 2 bad usage.
"""
import argparse
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzz_run import FUZZ_API_ASAN, replay_environment  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
KEPT_PREFIXES = ("seed-", "regress-")
GROWN_PREFIX = "grown-"


def fail(message, status=2):
    print(f"ci/fuzz-corpus: {message}", file=sys.stderr)
    sys.exit(status)


def grown_corpora(folders):
    """Every corpus-<env>-<target>.json that ci/fuzz_run.py wrote under FOLDER/fuzz/<arch>/, with its folder."""
    found = []
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "fuzz", "*", "corpus-*.json"))):
            try:
                with open(path, encoding="utf-8") as f:
                    job = json.load(f)
                missing = [k for k in ("target", "env", "binary", "runner", "environment", "corpus") if k not in job]
            except (OSError, json.JSONDecodeError) as e:
                fail(f"{path}: unreadable ({e})", 1)
            if missing:
                fail(f"{path}: no {', '.join(missing)} in it", 1)
            if os.path.isdir(job["corpus"]):
                found.append(job)
    return found


def argv0_option(runner):
    """The runner's option that sets the program's argv[0]: libFuzzer's merge starts itself again through argv[0]
    (-merge_inner), and under qemu-user that must be a host program that runs the binary under the same runner."""
    if not runner:
        return None
    tool = os.path.basename(runner[0])
    if tool.startswith("qemu-"):
        return "-0"
    if tool.startswith("ld-linux") or tool.startswith("ld64"):
        return "--argv0"
    return False


def merge_command(job, staging, inputs, scratch):
    """The command that merges INPUTS into STAGING with the job's binary, runner and environment."""
    runner, binary = list(job["runner"]), job["binary"]
    option = argv0_option(runner)
    if option is False:
        fail(f"{job['env']}: cannot merge under runner {runner[0]} (only native, qemu-user and a loader)", 1)
    if option:
        # A host script standing for the binary: libFuzzer's child runs through it under the same runner.
        wrapper = os.path.join(scratch, f"run-{job['env']}-{job['target']}")
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\nexec " + " ".join(shlex.quote(w) for w in runner + [binary]) + ' "$@"\n')
        os.chmod(wrapper, 0o755)
        runner += [option, wrapper]
    return runner + [binary, "-set_cover_merge=1", "-use_counters=0", "-max_len=1024", staging] + inputs


def merge_target(target, jobs, args, scratch):
    """Merges TARGET's grown corpora into CORPUS/TARGET; returns False when a merge failed or went over the bound."""
    corpus = os.path.join(args.corpus, target)
    if not os.path.isdir(corpus):
        fail(f"no corpus folder {corpus}", 1)
    names = sorted(os.listdir(corpus))
    old_grown = [n for n in names if n.startswith(GROWN_PREFIX)]
    staging = os.path.join(scratch, target, "staging")
    previous = os.path.join(scratch, target, "previous-grown")
    os.makedirs(staging)
    os.makedirs(previous)
    for n in names:
        if n.startswith(KEPT_PREFIXES) or (n.startswith(GROWN_PREFIX) and not args.minimise):
            shutil.copy2(os.path.join(corpus, n), staging)
        elif n.startswith(GROWN_PREFIX):
            shutil.copy2(os.path.join(corpus, n), previous)
    before = set(os.listdir(staging))
    for job in jobs:
        inputs = [job["corpus"]] + ([previous] if args.minimise else [])
        cmd = merge_command(job, staging, inputs, scratch)
        env = dict(os.environ, **replay_environment(job["environment"]))
        if target == "fuzz_api":
            env["ASAN_OPTIONS"] = FUZZ_API_ASAN
        log = os.path.join(scratch, f"merge-{job['env']}-{target}.log")
        print(f"  {target} in {job['env']}: merging {job['corpus']}")
        with open(log, "w", encoding="utf-8") as f:
            try:
                rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=scratch).returncode
            except OSError as e:  # the binary or the runner is missing or not executable
                f.write(f"cannot start {cmd[0]}: {e.strerror}\n")
                rc = 127
        if rc != 0:
            with open(log, encoding="utf-8", errors="replace") as f:
                print("".join(f.readlines()[-15:]), file=sys.stderr)
            print(f"ci/fuzz-corpus: the merge of {target} in {job['env']} failed (exit status {rc}): "
                  f"{' '.join(shlex.quote(c) for c in cmd)}", file=sys.stderr)
            return False
        with open(log, encoding="utf-8", errors="replace") as f:
            summary = [line.strip() for line in f if line.startswith("MERGE-OUTER: ") and "new files" in line]
        print(f"    {summary[-1] if summary else 'no MERGE-OUTER summary in ' + log}")
    # New files carry libFuzzer's name (the input's SHA-1); the grown ones ours.
    new = [os.path.join(staging, n) for n in sorted(set(os.listdir(staging)) - before)]
    grown = [os.path.join(staging, n) for n in sorted(before) if n.startswith(GROWN_PREFIX)] + new
    final = {os.path.basename(p) if os.path.basename(p).startswith(GROWN_PREFIX)
             else GROWN_PREFIX + os.path.basename(p): p for p in grown}
    added = sorted(set(final) - set(old_grown))
    removed = sorted(set(old_grown) - set(final))
    size = sum(os.path.getsize(p) for p in grown)
    print(f"{target}: {len(final)} grown inputs ({size} bytes): {len(added)} added, {len(removed)} removed")
    if len(final) > args.max_files or size > args.max_bytes:
        print(f"ci/fuzz-corpus: {target} would have {len(final)} grown inputs of {size} bytes, over the bound of "
              f"{args.max_files} files and {args.max_bytes} bytes: nothing changed (--max-files/--max-bytes raise "
              "it; --minimise with every arch's grown corpus chooses again)", file=sys.stderr)
        return False
    if not args.dry_run:
        for n in removed:
            os.remove(os.path.join(corpus, n))
        for n in added:
            shutil.copy2(final[n], os.path.join(corpus, n))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from", dest="folders", action="append", default=[])
    ap.add_argument("--minimise", action="store_true")
    ap.add_argument("--max-files", type=int, default=128)
    ap.add_argument("--max-bytes", type=int, default=64 * 1024)
    ap.add_argument("--target", action="append", default=[])
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    args = ap.parse_args()
    if args.max_files < 0 or args.max_bytes < 0:
        fail("--max-files and --max-bytes must not be negative")
    folders = args.folders or [f for f in (os.path.join(ROOT, "build", m) for m in ("deep", "verify"))
                               if os.path.isdir(f)]
    for f in folders:
        if not os.path.isdir(f):
            fail(f"--from {f}: no such folder")
    with open(os.path.join(ROOT, "fuzz", "targets.txt"), encoding="utf-8") as f:
        targets = [t.strip() for t in f if t.strip() and not t.startswith("#")]
    for t in args.target:
        if t not in targets:
            fail(f"unknown target {t} (fuzz/targets.txt: {', '.join(targets)})")
    jobs = grown_corpora(folders)
    if not jobs:
        fail(f"no grown corpus under {', '.join(folders) or 'build/deep or build/verify'} (ci/verify grows them)", 1)
    ok = True
    with tempfile.TemporaryDirectory(prefix="fuzz-corpus-") as scratch:
        for t in args.target or targets:
            mine = [j for j in jobs if j["target"] == t]
            if mine:
                ok = merge_target(t, mine, args, scratch) and ok
            else:
                print(f"{t}: no grown corpus")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
