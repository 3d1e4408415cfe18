"""The architectures of ci/arches.txt: the one mapping from a processor name to the matrix's, the arch folder's
and Debian's names (cmake/Arches.cmake reads the same file)."""
import os
from dataclasses import dataclass

ARCHES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "arches.txt")


@dataclass(frozen=True)
class Arch:
    name: str        # ci/matrix/<name>.txt, qemu-<name>
    folder: str      # arch/<folder>, backend names "<folder>/<isa>"
    debian: str      # dpkg architecture
    processors: tuple
    triple: str      # GNU triple: gcc cross compilers, /usr/<triple>, multiarch folders


def read(path=ARCHES_FILE):
    out = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            text = line.split("#", 1)[0].split()
            if not text:
                continue
            if len(text) != 5:
                raise ValueError(f"{path}:{lineno}: expected NAME FOLDER DEBIAN PROCESSORS TRIPLE")
            out.append(Arch(text[0], text[1], text[2], tuple(text[3].split(",")), text[4]))
    return out


ARCHES = read()
HOST_ARCH = ARCHES[0].name
CROSS_ARCHES = tuple(a.name for a in ARCHES[1:])
BY_NAME = {a.name: a for a in ARCHES}


def of_processor(processor):
    """The Arch a processor name (CMAKE_SYSTEM_PROCESSOR, uname -m) means, or None."""
    p = processor.lower()
    return next((a for a in ARCHES if p in a.processors), None)
