"""Which backends a working tree changes, for --fail-fast's order (ci/driver.py): the files that differ from main
(committed on this branch, staged, unstaged or untracked), each mapped to the backends whose code or emulator
model it is.

  arch/<folder>/<family>_<isa>.cc      that backend: <family>/<folder>/<isa>
  arch/<folder>/ anything else         every backend of that folder (CPU detection, shared headers, the table)
  lib/src/<family>_generic.cc          <family>/generic
  emul/src/<model>_model.*             the backends expected "emulated" in the environments whose profile is that
                                       model (emulate=phe:..., emulate=sha512ni, ...)
"""
import os
import re
import subprocess


def changed_files(root, base="main"):
    """Paths (relative to root) that differ from `base`, or [] when there is no such branch or nothing differs."""
    def git(*args):
        r = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
        return r.stdout.splitlines() if r.returncode == 0 else None
    diff = git("diff", "--name-only", base)
    if diff is None:
        return []
    return sorted(set(diff) | set(git("ls-files", "--others", "--exclude-standard") or []))


def backends_of(path, known, emulated_by_model):
    """The known backends a changed file belongs to (a set, possibly empty)."""
    parts = path.split("/")
    if len(parts) == 3 and parts[0] == "arch":
        folder, name = parts[1], parts[2]
        m = re.fullmatch(r"(sha256|sha512|keccak)_([a-z0-9_]+)\.cc", name)
        if m and f"{m.group(1)}/{folder}/{m.group(2)}" in known:
            return {f"{m.group(1)}/{folder}/{m.group(2)}"}
        return {b for b in known if b.split("/")[1] == folder}
    m = re.fullmatch(r"lib/src/(sha256|sha512|keccak)_generic\.cc", path)
    if m:
        return {f"{m.group(1)}/generic"} & known
    m = re.fullmatch(r"emul/src/([a-z0-9]+)_model\.(cc|h)", path)
    if m:
        return emulated_by_model.get(m.group(1), set()) & known
    return set()


def emulated_by_model(matrix):
    """{model: backends expected emulated in an environment whose profile is that model}."""
    out = {}
    for arch in matrix.arches():
        rows = {r.name: r for r in matrix.envs(arch)}
        for e in matrix.expectations(arch):
            row = rows.get(e.env)
            if e.how == "emulated" and row is not None and row.get("emulate"):
                model = re.split(r"[:,]", row.get("emulate"), maxsplit=1)[0]
                out.setdefault(model, set()).add(e.backend)
    return out


def changed_backends(root, matrix, known, base="main"):
    """The backends the working tree changes against `base`, in the order of `known`'s sorting."""
    by_model = emulated_by_model(matrix)
    found = set()
    for path in changed_files(root, base):
        found |= backends_of(path, set(known), by_model)
    return sorted(found)


if __name__ == "__main__":
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from matrix import Matrix
    m = Matrix()
    print("\n".join(changed_backends(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), m,
                                     {b for bs in m.backends().values() for b in bs})))
