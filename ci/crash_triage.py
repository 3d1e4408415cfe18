"""Crash files of the time-boxed fuzzing, deduplicated: each crash gets a signature from its log (the backends a
mismatch blamed, or the sanitizer's error and the first frames of our own code) and lands once per signature in
build/<mode>/crashes/<target>-<id>/ with the input, the log and a one-line reproduction command; later crashes with
the same signature are counted there, not stored again."""
import hashlib
import json
import os
import re
import shutil

# The fuzz targets' mismatch report (fuzz/verdict.cc): "blamed:" names the backends charged with a wrong output,
# "disagree:" the runs that differed (the fallback when no single backend is to blame, e.g. C API runs).
BLAMED = re.compile(r"^blamed: +(.+)$", re.M)
DISAGREE = re.compile(r"^disagree: +(.+)$", re.M)
MISMATCH = "== shakedown fuzz: MISMATCH =="
# Sanitizer and libFuzzer errors: "==123==ERROR: AddressSanitizer: heap-buffer-overflow on ...",
# "==123== ERROR: libFuzzer: timeout after 25 seconds", UBSan's "file:line:col: runtime error: ...".
SANITIZER = re.compile(r"==\d+== ?ERROR: (\w+): ([\w-]+)")
UBSAN = re.compile(r"^(\S+?):\d+:\d+: runtime error: (.+)$", re.M)
FRAME = re.compile(r"^ +#\d+ 0x[0-9a-f]+ in (.+?)(?: /| \(|$)", re.M)
# Frames that say nothing about where the bug is: the sanitizer and libFuzzer runtimes, libc, the abort path.
RUNTIME_FRAME = re.compile(r"^(__sanitizer|__asan|__ubsan|__msan|__interceptor|___interceptor|__libc|__GI_|"
                           r"fuzzer::|LLVMFuzzer|abort|raise|gsignal|_start|main$|__cxa|std::__terminate|"
                           r"shakedown::fuzz::fuzz_one|operator new|operator delete|malloc|free|memcpy|memmove|memset)")
FRAMES_IN_SIGNATURE = 3
# Numbers that vary between crashes of one bug (message counts, byte offsets, addresses) are left out.
NUMBER = re.compile(r"\b\d+\b|0x[0-9a-f]+")


def signature(target, kind, log_text):
    """What makes two crashes the same bug: the target, the artifact kind and either the backends a mismatch blamed
    or the sanitizer's error with the first frames of code that is not a runtime's. A text, one line."""
    if MISMATCH in log_text:
        blamed = BLAMED.search(log_text)
        who = blamed.group(1) if blamed else NUMBER.sub("N", (DISAGREE.search(log_text) or [None, "?"])[1])
        return f"{target} {kind}: mismatch blamed on {who.strip()}"
    error = SANITIZER.search(log_text)
    ubsan = UBSAN.search(log_text)
    if error:
        what = f"{error.group(1)} {error.group(2)}"
        stack = log_text[error.end():]
    elif ubsan:
        what = f"runtime error {NUMBER.sub('N', ubsan.group(2))} in {os.path.basename(ubsan.group(1))}"
        stack = log_text[ubsan.end():]
    else:
        what, stack = "no sanitizer report", log_text
    frames = [f for f in (m.group(1).strip() for m in FRAME.finditer(stack)) if not RUNTIME_FRAME.match(f)]
    where = " < ".join(frames[:FRAMES_IN_SIGNATURE]) or "no frame of ours"
    return f"{target} {kind}: {what} at {where}"


def crash_id(target, text):
    """The folder name of a signature: the target and 12 hex digits of the signature's SHA-256."""
    return f"{target}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def store(crash_dir, target, kind, crash_file, log_file, repro_for, env):
    """Files one crash (libFuzzer's artifact kind: crash, leak, timeout, ...) in crash_dir: a new signature gets
    <target>-<id>/ with the input (its own name, which names its environment and target), the log, `signature`,
    `repro` (repro_for(path): the command that replays the stored copy, one line) and `seen.jsonl`; a known one
    only appends to seen.jsonl (with the command for the file as found). Returns (signature, id, folder, new)."""
    with open(log_file, encoding="utf-8", errors="replace") as f:
        text = signature(target, kind, f.read())
    cid = crash_id(target, text)
    folder = os.path.join(crash_dir, cid)
    new = not os.path.isdir(folder)
    if new:
        os.makedirs(folder)
        shutil.copy2(crash_file, folder)
        shutil.copy2(log_file, os.path.join(folder, "log"))
        with open(os.path.join(folder, "signature"), "w", encoding="utf-8") as f:
            f.write(text + "\n")
        with open(os.path.join(folder, "repro"), "w", encoding="utf-8") as f:
            f.write(repro_for(os.path.join(folder, os.path.basename(crash_file))) + "\n")
    with open(os.path.join(folder, "seen.jsonl"), "a", encoding="utf-8") as f:
        f.write(json.dumps({"file": crash_file, "env": env, "repro": repro_for(crash_file)}) + "\n")
    return text, cid, folder, new


def distinct(crashes):
    """The crash records of one run grouped by signature, in the order first seen: (first record, how many files
    share its signature). Records without a signature (no crash folder) stand alone."""
    groups = {}
    for c in crashes:
        key = c.get("crash_id") or c["file"]
        if key in groups:
            groups[key][1] += 1
        else:
            groups[key] = [c, 1]
    return [tuple(g) for g in groups.values()]
