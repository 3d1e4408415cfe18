"""The coverage gate's evaluation as text (stdout), Markdown, JSON and HTML: one matrix per arch, the same cells,
problems and crash files in every format (JSON: each problem as an object, gate.Problem)."""
import html
import json

import crash_triage
import ct_coverage

# Bumped whenever a consumer of report.json would have to change.
SCHEMA_VERSION = 4
LEGEND = ("v = vector checks, d = differential checks, f = fuzz executions, m = MSan checks, c = constant-time "
          "checks, l = checks of the multi-lane (hash_many) functions, fl = fuzz_many plans through them, t = digests "
          "of third-party code (OpenSSL, Linux) executed on this backend's instruction model (records from the "
          "suites); FAIL = a test or fuzz target found this backend's output wrong there; qemu-* environments run "
          "under Debian's QEMU 7.2, qemu10-* under QEMU 10 (docs/qemu10.md), bochs-* under Bochs (docs/bochs.md); "
          "\"not run here\" = a compiled backend no environment ran on this host")
COLOUR = {"pass": "#c8f7c5", "FAIL": "#f7c5c5", "-": "#eeeeee"}


def cell_text(cell):
    if not cell.ran:
        return "not run"
    detail = [f"{letter}{cell.counts[suite]}" for suite, letter in
              (("vectors", "v"), ("diff", "d"), ("fuzz", "f"), ("msan", "m"), ("ct", "c"), ("multi", "l"),
               ("fuzz-multi", "fl"), ("third-party", "t")) if cell.counts.get(suite)]
    return f"{cell.how} {cell.result}" + (f" ({' '.join(detail)})" if detail else "")


def sections(ev):
    """[(arch, header, rows)]: per arch, its environments as columns and as rows the backends that ran, failed,
    were expected or are compiled there; a compiled backend nothing ran is the row [backend, "not run here: why"]
    (shorter than the header: it spans the environments)."""
    out = []
    for arch in sorted({ev.env_arch.get(e, "") for e in ev.envs} | set(ev.compiled)):
        arch_envs = [e for e in ev.envs if ev.env_arch.get(e, "") == arch]
        rows = []
        for b in ev.backends:
            if (arch, b) in ev.not_run_here:
                rows.append([b, f"not run here: {ev.not_run_here[(arch, b)]}"])
            elif (any(ev.cells[(b, e)].ran for e in arch_envs) or b in ev.compiled.get(arch, ()) or
                  any(x.backend == b and x.env in arch_envs for x in ev.expectations)):
                rows.append([b] + [cell_text(ev.cells[(b, e)]) for e in arch_envs])
        out.append((arch or "unknown arch", ["backend"] + arch_envs, rows))
    return out


THIRD_PARTY_HEADER = ["environment", "backend (its model)", "third-party code", "digests",
                      "instructions the model executed for them"]


def instruction_text(counts):
    """{"vsha512rnds2": 116800, ...} as "vsha512rnds2 116,800, ..." (by kind), or "-" when none was recorded."""
    return ", ".join(f"{kind} {n:,}" for kind, n in sorted(counts.items())) or "-"


def third_party_rows(ev):
    """Which third-party code ran on which backend's instruction model, where, how many digests it got right (the
    "t" counts of the cells, by library) and how many instructions of each kind the model executed for them."""
    return [[env, backend, code, str(n), instruction_text(insns)] for _, env, backend, code, n, insns in ev.third_party]


def summary_lines(ev):
    c = ev.ctest
    lines = [f"ctest: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped"]
    lines += [f"note: {n}" for n in ev.notes]
    if ev.problems:
        lines += ["", "GATE FAILED:"] + [f"  - {p.text}" for p in ev.problems]
    else:
        lines += ["", f"gate: every expected backend ran in its environment ({len(ev.expectations)} expectations)"]
    return lines


def text(ev):
    out = []
    for arch, header, rows in sections(ev):
        full = [header] + [r for r in rows if len(r) == len(header)]
        widths = [max(len(r[i]) for r in full) for i in range(len(header))]
        line = lambda r: "  ".join(r[i].ljust(widths[i]) for i in range(len(r))).rstrip()  # noqa: E731
        out += [f"== {arch} ==", line(header), line(["-" * w for w in widths])] + [line(r) for r in rows] + [""]
    if ev.third_party:
        rows = [THIRD_PARTY_HEADER] + third_party_rows(ev)
        widths = [max(len(r[i]) for r in rows) for i in range(len(THIRD_PARTY_HEADER))]
        line = lambda r: "  ".join(r[i].ljust(widths[i]) for i in range(len(r))).rstrip()  # noqa: E731
        out += ["== third-party code on the models =="] + [line(r) for r in rows] + [""]
    return "\n".join(out + [LEGEND] + _ct_lines(ev) + _crash_lines(ev, "") + summary_lines(ev)) + "\n"


def _crash_lines(ev, code):
    """The crash files of the time-boxed fuzzing, each with the command that replays it, and a blank line; or
    nothing. code: the quote of a command (Markdown's backtick, or nothing in text)."""
    if not ev.crashes:
        return []
    groups = crash_triage.distinct(ev.crashes)
    lines = [f"Crash files of the time-boxed fuzzing ({len(ev.crashes)}, {len(groups)} distinct):"]
    for c, n in groups:
        lines += [f"- {c['kind']} {c['file']} ({c['target']} in {c['env']})"]
        if c.get("signature"):
            lines += [f"  {c['signature']}; filed in {c['stored']}" + (f", {n} files" if n > 1 else "")]
        lines += [f"  reproduce: {code}{c['repro']}{code}"]
    return lines + [""]


def _ct_lines(ev):
    """The constant-time section after a blank line, or nothing."""
    lines = ct_coverage.markdown_lines(ev.constant_time) if ev.constant_time else []
    return [""] + lines + [""] if lines else []


def markdown(ev, meta):
    out = ["# shakedown verification matrix", "", _meta_line(meta), ""]
    for arch, header, rows in sections(ev):
        out += [f"## {arch}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(r + [""] * (len(header) - len(r))) + " |" for r in rows] + [""]
    if ev.third_party:
        out += ["## Third-party code on the models", "", "| " + " | ".join(THIRD_PARTY_HEADER) + " |",
                "|" + "---|" * len(THIRD_PARTY_HEADER)] + ["| " + " | ".join(r) + " |" for r in third_party_rows(ev)]
        out += [""]
    out += [LEGEND] + (_ct_lines(ev) or [""])
    if ev.crashes:
        out += ["## Crash files", ""] + _crash_lines(ev, "`")[1:]
    out += ["## Gate", ""]
    out += [f"- {p.text}" for p in ev.problems] or ["all expectations met"]
    out += ["", "## ctest", "", summary_lines(ev)[0]]
    out += [f"- `{f['test']}` ({f['kind']}, {f['env']}): `{f['repro']}`" for f in ev.ctest["failures"]]
    return "\n".join(out) + "\n"


def as_json(ev, meta):
    return json.dumps({
        "schema": SCHEMA_VERSION,
        "run": meta,
        "environments": ev.envs,
        "arch_of_environment": {e: ev.env_arch.get(e, "") for e in ev.envs},
        "backends": ev.backends,
        "cells": {f"{b}@{env}": {"ran": c.ran, "how": c.how, "result": c.result, "counts": c.counts,
                                 "failed": c.failed} for (b, env), c in ev.cells.items()},
        "expectations": [{"env": e.env, "backend": e.backend, "how": e.how, "suites": e.suites, "where": e.where,
                          "implied_by_select": e.implied} for e in ev.expectations],
        "problems": [p.to_json() for p in ev.problems],
        "crashes": ev.crashes,
        "notes": ev.notes,
        "ctest": ev.ctest,
        "constant_time": ev.constant_time.to_json() if ev.constant_time else None,
        "third_party": [{"env": env, "backend": b, "code": code, "digests": n, "instructions": insns}
                        for _, env, b, code, n, insns in ev.third_party],
    }, indent=2) + "\n"


def as_html(ev, meta):
    out = ["<!doctype html><meta charset=utf-8><title>shakedown verification</title>"
           "<style>body{font-family:sans-serif}td,th{padding:4px 8px;border:1px solid #999}"
           "table{border-collapse:collapse}</style><h1>shakedown verification matrix</h1>",
           f"<p>{html.escape(_meta_line(meta))}</p>"]
    for arch, header, rows in sections(ev):
        out.append(f"<h2>{html.escape(arch)}</h2><table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header)
                   + "</tr>")
        for r in rows:
            b = r[0]
            out.append(f"<tr><th>{html.escape(b)}</th>")
            if len(r) < len(header):  # not run here: one cell across the environments
                out.append(f'<td colspan="{len(header) - 1}" style="background:{COLOUR["FAIL"]}">'
                           f"{html.escape(r[1])}</td></tr>")
                continue
            for env, text_ in zip(header[1:], r[1:]):
                cell = ev.cells[(b, env)]
                title = html.escape("; ".join(cell.failed), quote=True)
                out.append(f'<td style="background:{COLOUR[cell.result]}" title="{title}">{html.escape(text_)}</td>')
            out.append("</tr>")
        out.append("</table>")
    if ev.third_party:
        out.append("<h2>Third-party code on the models</h2><table><tr>" +
                   "".join(f"<th>{html.escape(h)}</th>" for h in THIRD_PARTY_HEADER) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in third_party_rows(ev)]
        out.append("</table>")
    out.append(f"<p>{html.escape(LEGEND)}</p>")
    if _ct_lines(ev):
        out.append(f"<pre>{html.escape(chr(10).join(_ct_lines(ev)).strip())}</pre>")
    if ev.crashes:
        out.append("<h2>Crash files</h2><ul>")
        out += [f"<li>{html.escape(c['kind'])} <code>{html.escape(c['file'])}</code> ({html.escape(c['target'])} in "
                f"{html.escape(c['env'])}{', ' + html.escape(c['signature']) if c.get('signature') else ''}"
                f"{f', {n} files' if n > 1 else ''}): <code>{html.escape(c['repro'])}</code></li>"
                for c, n in crash_triage.distinct(ev.crashes)]
        out.append("</ul>")
    out.append("<h2>Gate</h2><ul>")
    out.append("".join(f"<li>{html.escape(p.text)}</li>" for p in ev.problems) or "<li>all expectations met</li>")
    out.append(f"</ul><h2>ctest</h2><p>{html.escape(summary_lines(ev)[0])}</p><ul>")
    out += [f"<li><code>{html.escape(f['test'])}</code> ({html.escape(f['kind'])}, {html.escape(f['env'])}): "
            f"<code>{html.escape(f['repro'])}</code></li>" for f in ev.ctest["failures"]]
    out.append("</ul>")
    return "".join(out) + "\n"


def _meta_line(meta):
    return ", ".join(f"{k}: {v}" for k, v in meta.items() if v not in ("", None, []))
