#!/usr/bin/env python3
"""Checks a build's compile commands: the test-code flags reach the suites' sources and nothing they judge.

cmake/TestCode.cmake compiles the suites' own sources with SHAKEDOWN_TEST_CODE_FLAGS (-Og -g1) to save build time.
That is only sound while the library, its backends, the emulators' models, the fuzz targets, the benchmarks and the
asm-contract callers keep the build type's optimisation, so this fails when one of them carries the flags, and also
when the suites' sources do not (the option then saves nothing and this check would prove nothing).

  check_test_code_flags.py BUILD_DIR SOURCE_DIR FLAG...
"""
import json
import os
import shlex
import sys

# Judged code: sources under these folders never carry the test flags (paths relative to the source tree).
# tests/support/ is judged too: fuzzers and benchmarks link its oracle and drivers (only its GoogleTest main is not).
JUDGED = ("lib/", "emul/src/", "fuzz/", "bench/", "tools/", "tests/asm_contract/", "tests/support/",
          "tests/ct_timing.cc")
# Test code that must carry them: a source of each suite that every host build compiles.
SUITES = ("tests/registry_test.cc", "diff/hash_diff_test.cc", "vectors/kat_test.cc")


def is_judged(rel):
    if rel.startswith("arch/"):
        return not rel.endswith("_test.cc")  # arch/<arch>/*_test.cc are suites beside their backends
    return rel.startswith(JUDGED) and rel != "tests/support/test_main.cc"


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    build_dir, source_dir, flags = argv[1], os.path.realpath(argv[2]), argv[3:]
    path = os.path.join(build_dir, "compile_commands.json")
    try:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"cannot read {path}: {e}", file=sys.stderr)
        return 1
    problems, judged, suites_seen = [], 0, set()
    for entry in entries:
        source = os.path.realpath(os.path.join(entry.get("directory", ""), entry["file"]))
        rel = os.path.relpath(source, source_dir)
        if rel.startswith(".."):
            continue  # generated sources in the build tree
        words = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
        carries = all(flag in words for flag in flags)
        if is_judged(rel):
            judged += 1
            if carries:
                problems.append(f"{rel}: judged code compiled with the test-code flags {' '.join(flags)}")
        elif rel in SUITES:
            suites_seen.add(rel)
            if not carries:
                problems.append(f"{rel}: test code compiled without {' '.join(flags)}")
    for rel in SUITES:
        if rel not in suites_seen:
            problems.append(f"{rel}: not in {path}")
    if judged == 0:
        problems.append(f"no library or backend source in {path}")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    print(f"{judged} judged sources without {' '.join(flags)}; {len(SUITES)} suite sources with them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
