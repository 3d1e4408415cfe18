#!/usr/bin/env python3
"""The vector data against the SHA-256 sums its SOURCES.md publishes: every upstream file listed and unchanged.

The suites cannot tell a file cut off between two records from a shorter one (a .rsp file carries no record
count), so this catches a truncated or altered copy before they run. Sums by Python's hashlib (OpenSSL), not by
the library under test.

Usage: check_sources.py DATA_DIR"""
import hashlib
import os
import re
import sys

# In DATA_DIR but not upstream data: the provenance itself, git attributes, and the file make_consolidated
# generates (checked by vectors.consolidated_file_matches_openssl).
NOT_UPSTREAM = {"SOURCES.md", ".gitattributes", "consolidated.txt"}
SUM_LINE = re.compile(r"^([0-9a-f]{64})  (\S+)$")


def main(data_dir):
    with open(os.path.join(data_dir, "SOURCES.md"), encoding="utf-8") as f:
        listed = dict((m.group(2), m.group(1)) for m in map(SUM_LINE.match, f.read().splitlines()) if m)
    present = {os.path.relpath(os.path.join(root, name), data_dir)
               for root, _, names in os.walk(data_dir) for name in names}
    problems = []
    for path in sorted(present - NOT_UPSTREAM - listed.keys()):
        problems.append(f"{path}: not listed in SOURCES.md (add its sum, or say why it is not upstream data)")
    for path, want in sorted(listed.items()):
        full = os.path.join(data_dir, path)
        try:
            with open(full, "rb") as f:
                got = hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            problems.append(f"{path}: {e.strerror}")
            continue
        if got != want:
            problems.append(f"{path}: SHA-256 {got}, SOURCES.md says {want} (truncated or altered copy?)")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(listed)} listed files, {len(problems)} problem(s)")
    return 1 if problems or not listed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
