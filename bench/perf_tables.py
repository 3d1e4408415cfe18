#!/usr/bin/env python3
"""docs/perf.md from the benchmark records in bench/results/: one table set per host class, every figure a ratio
to OpenSSL measured in the same process (shakedown_bench --shakedown_table_json=FILE writes a record).

    bench/perf_tables.py                 rewrite docs/perf.md from bench/results/*.json
    bench/perf_tables.py --check         fail if docs/perf.md is not what the records give (a ctest)
    bench/perf_tables.py --out F R.json  write F from the records named

A row's backend is marked * where it is the one the library selects on that host (the record's shakedown_selected):
that is what users get, and what "at or beyond OpenSSL" is judged on. Ratios below 1.00 are bold."""
import argparse
import glob
import json
import os
import sys

SOURCE = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESULTS = os.path.join(SOURCE, "bench", "results")
DOC = os.path.join(SOURCE, "docs", "perf.md")
HOST_KEYS = ("host_cpu", "host_cpu_id", "host_cpu_features", "host_cores", "host_load", "openssl_version",
             "openssl_cpu_info", "openssl_ia32cap", "shakedown_commit", "shakedown_selected", "shakedown_rounds",
             "measured_at")

# Microarchitecture of a CPUID (vendor, display family, display model), for the heading only: AMD's Processor
# Programming Reference of each family lists its models; Intel's SDM Vol. 4 Table 2-1 its family 6 models.
MICROARCH = [
    ("AuthenticAMD", 0x17, range(0x00, 0x30), "Zen / Zen+"),
    ("AuthenticAMD", 0x17, range(0x30, 0x100), "Zen 2"),
    ("AuthenticAMD", 0x19, range(0x00, 0x10), "Zen 3"),
    ("AuthenticAMD", 0x19, range(0x20, 0x30), "Zen 3"),
    ("AuthenticAMD", 0x19, range(0x40, 0x60), "Zen 3"),
    ("AuthenticAMD", 0x19, range(0x10, 0x20), "Zen 4"),
    ("AuthenticAMD", 0x19, range(0x60, 0x80), "Zen 4"),
    ("AuthenticAMD", 0x19, range(0xA0, 0xB0), "Zen 4"),
    ("AuthenticAMD", 0x1A, range(0x00, 0x100), "Zen 5"),
    ("GenuineIntel", 0x06, range(0x8F, 0x90), "Sapphire Rapids"),
    ("GenuineIntel", 0x06, range(0xCF, 0xD0), "Emerald Rapids"),
    ("GenuineIntel", 0x06, range(0x6A, 0x6B), "Ice Lake server"),
    ("GenuineIntel", 0x06, range(0x55, 0x56), "Skylake server / Cascade Lake"),
]


class RecordError(Exception):
    pass


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as e:
        raise RecordError(f"{path}: not a readable benchmark record ({e})") from e
    if not isinstance(record, dict) or not isinstance(record.get("rows"), list) or not record["rows"]:
        raise RecordError(f"{path}: no rows (expected the object shakedown_bench --shakedown_table_json writes)")
    context = record.get("context", {})
    missing = [k for k in HOST_KEYS if k not in context]
    if missing:
        raise RecordError(f"{path}: context lacks {', '.join(missing)} (written by an older shakedown_bench?)")
    for i, row in enumerate(record["rows"]):
        if not {"case", "backend", "length", "ratio"} <= set(row):
            raise RecordError(f"{path}: row {i} lacks case/backend/length/ratio: {row}")
    return record


def host_class(context):
    parts = context["host_cpu_id"].rsplit(" ", 1)
    if len(parts) == 2 and "/" in parts[1]:
        vendor = parts[0].strip()
        family, model = (int(x.rstrip("h"), 16) for x in parts[1].split("/"))
        for v, f, models, name in MICROARCH:
            if v == vendor and f == family and model in models:
                return name
    return context["host_cpu_id"]


def algorithm_of(case):
    """The algorithm of a case label: "hmac-sha256" -> sha256, "sha512-upd100" -> sha512, "shake128-x8" -> shake128."""
    alg = case.removeprefix("hmac-")
    for suffix in ("-upd", "-x"):
        head, _, count = alg.rpartition(suffix)
        if head and count.isdigit():
            return head
    return alg


def family_of(case):
    alg = algorithm_of(case)
    if alg.startswith(("sha3-", "shake")):
        return "keccak"
    if alg.startswith(("sha384", "sha512")):
        return "sha512"
    if alg.startswith(("sha224", "sha256")):
        return "sha256"
    return None


def cell(ratio):
    if ratio is None:
        return "-"
    return f"**{ratio:.2f}**" if ratio < 1.0 else f"{ratio:.2f}"


def kind(case):
    if algorithm_of(case) == case:
        return "oneshot"
    return "many" if case.rpartition("-x")[2].isdigit() else "api"


def tables(record):
    """Markdown for one record: one-shot, API (HMAC, 100-byte updates) and hash_many tables."""
    ctx = record["context"]
    selected = dict(item.split("=", 1) for item in ctx["shakedown_selected"].split(",") if "=" in item)
    rows = record["rows"]

    def backend_label(case, backend):
        fam = family_of(case)
        return f"{backend} *" if fam and selected.get(fam) == backend else backend

    out = []
    for title, which in (("One message per call (`hash`)", "oneshot"),
                         ("HMAC and 100-byte `update()`s", "api"),
                         ("Many messages per call (`hash_many`), aggregate", "many")):
        subset = [r for r in rows if kind(r["case"]) == which]
        if not subset:
            continue
        lengths = sorted({r["length"] for r in subset})
        grid = {}
        for r in subset:
            grid.setdefault((r["case"], r["backend"]), {})[r["length"]] = r["ratio"]
        out.append(f"{title}, ours / OpenSSL:\n")
        out.append("| case | backend | " + " | ".join(f"{n} B" for n in lengths) + " |")
        out.append("|---|---|" + "---:|" * len(lengths))
        for (case, backend), by_len in grid.items():
            out.append(f"| {case} | {backend_label(case, backend)} | " +
                       " | ".join(cell(by_len.get(n)) for n in lengths) + " |")
        out.append("")
    return "\n".join(out)


def render(records):
    out = ["# Speed against OpenSSL, per host class", "",
           "Generated by `bench/perf_tables.py` from the records in `bench/results/` (each written by",
           "`shakedown_bench --shakedown_table_json=FILE`); do not edit by hand. Every figure is ours / OpenSSL's",
           "MB/s, best of the record's rounds, both measured in the same process one right after the other, so a",
           "busy host slows both (bench/README.md). `*` marks the backend the library selects on that host; ratios",
           "below 1.00 are bold. How to add a host: bench/README.md, \"Per-host records\".", ""]
    by_class = {}
    for path, record in records:
        by_class.setdefault(host_class(record["context"]), []).append((path, record))
    for klass in sorted(by_class):
        for path, record in sorted(by_class[klass], key=lambda pr: pr[1]["context"]["measured_at"]):
            c = record["context"]
            out += [f"## {klass}: {c['host_cpu']} ({c['host_cpu_id']})", "",
                    f"- measured {c['measured_at']}, shakedown {c['shakedown_commit']}, best of "
                    f"{c['shakedown_rounds']} rounds; record `{os.path.relpath(path, SOURCE)}`",
                    f"- CPU features: {c['host_cpu_features']}; {c['host_cores']} logical CPUs, load average "
                    f"{c['host_load']} at the start",
                    f"- {c['openssl_version']}; {c['openssl_cpu_info']}; OPENSSL_ia32cap {c['openssl_ia32cap']}",
                    f"- selected: {c['shakedown_selected']}", "", tables(record)]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if the doc differs from what the records give")
    ap.add_argument("--out", default=DOC, help="the document to write or check (default docs/perf.md)")
    ap.add_argument("records", nargs="*", help="record files (default bench/results/*.json)")
    args = ap.parse_args(argv)
    paths = args.records or sorted(glob.glob(os.path.join(RESULTS, "*.json")))
    if not paths:
        print(f"perf_tables: no records in {RESULTS}", file=sys.stderr)
        return 2
    try:
        text = render([(os.path.abspath(p), load(p)) for p in paths])
    except RecordError as e:
        print(f"perf_tables: {e}", file=sys.stderr)
        return 2
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                current = f.read()
        except OSError as e:
            print(f"perf_tables: cannot read {args.out}: {e}", file=sys.stderr)
            return 1
        if current != text:
            print(f"perf_tables: {args.out} is not what the records give; run bench/perf_tables.py",
                  file=sys.stderr)
            return 1
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
