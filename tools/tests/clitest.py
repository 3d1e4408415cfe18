"""Shared helpers of the shakedown CLI tests: running commands, normalizing their messages for comparison."""
import os
import re
import subprocess
from dataclasses import dataclass

# Known answers from the standards, never from shakedown: FIPS 180-2 Appendix B.1, C.1 and the SHA-224 example
# of its change notice, and the SHA3-256("abc") example of the NIST FIPS 202 examples.
ABC_SHA224 = b"23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"
ABC_SHA256 = b"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
ABC_SHA512 = (b"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
              b"2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
ABC_SHA3_256 = b"3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"

# coreutils quotes and escapes file names in messages for the locale; shakedown always as for the C locale.
ENV = dict(os.environ, LC_ALL="C")
ENV.pop("SHAKEDOWN_BACKENDS", None)


@dataclass
class Outcome:
    status: int
    stdout: bytes
    stderr: bytes
    merged: bytes = b""  # stdout and stderr through one pipe: the order a terminal shows

    def text(self):
        return (f"exit status {self.status}\n--- stdout\n{self.stdout.decode(errors='replace')}"
                f"--- stderr\n{self.stderr.decode(errors='replace')}")


def run(cmd, cwd=None, stdin=b"", env=None, merged=False, timeout=120):
    env = env or ENV
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, env=env, timeout=timeout)
    out = Outcome(p.returncode, p.stdout, p.stderr)
    if merged:
        m = subprocess.run(cmd, cwd=cwd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           timeout=timeout)
        out.merged = m.stdout
    return out


# The one thing normalized: the program's name at the start of a message ("sha256sum: ", "shakedown sum: ").
# Lines may also end in NUL (-z).
PROGRAM = re.compile(rb"(?:^|(?<=\x00))(?:sha(?:224|256|384|512)sum|cksum|shakedown (?:sum|check)): ", re.M)
# shakedown's one addition to coreutils' messages: a note when a line looks meant for another algorithm.
NOTE = re.compile(rb"^PROG: .*: \d+: note: .*\n", re.M)


def normalized(text):
    """Program names replaced by PROG; shakedown's note lines removed (returned separately)."""
    text = PROGRAM.sub(b"PROG: ", text)
    notes = NOTE.findall(text)
    return NOTE.sub(b"", text), notes
