#!/usr/bin/env python3
"""Instructions per byte of our backends and of OpenSSL's own code for the same arch, counted under qemu-user.

Under emulation wall time measures QEMU's translator, not the code, so a cross arch's "speed against OpenSSL" is
the ratio of guest instructions each executes for the same work (OpenSSL's / ours: above 1.0 we execute fewer).
QEMU counts them for us: `-d in_asm,exec,nochain` logs every translated block with its instructions and every
execution of a block (nochain: none bypasses the log), so the sum over executions is the exact instruction count.
shakedown_insn_count (bench/insn_count.cc) hashes one message CALLS times; the count at CALLS = 1 + K minus the
count at CALLS = 1 is K calls of hashing alone: loading, OpenSSL's provider fetch and exit cancel out.

  bench/qemu_insn_ratio.py --arch ppc64le --cpu power8 --backend sha256=ppc64le/vcrypto \
                           --backend sha512=ppc64le/vcrypto [--lengths 64,1024,16384] [--json FILE]

Builds build/insn-<arch> (Release, the arch's toolchain file, no tests, no sanitizers) unless --binary is given.
A count is instructions, not cycles: it weighs a vector-crypto instruction like an add, so it is the honest
measure only between two codes for the same core; the README of bench/ says how to read it.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The families' algorithms this measures for each backend family (hash_many is out: one message per call).
ALGORITHMS = {"sha256": ["sha256"], "sha512": ["sha512"], "keccak": ["sha3-256", "shake128"]}
# "Trace 0: 0x7f.. [cs_base/pc/flags/cflags] symbol" (QEMU 7.2 and 10, accel/tcg/cpu-exec.c).
EXEC_LINE = re.compile(rb"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
# An instruction line of an in_asm block: "0x0000004000a01234:  7c0802a6  mflr r0".
INSN_LINE = re.compile(rb"^0x([0-9a-f]+):\s")


def count_instructions(command):
    """Runs command (a qemu-user line with -d in_asm,exec,nochain, log on stderr): (guest instructions, stdout)."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    block_size = {}  # guest pc of a translated block -> its instructions (the latest translation wins)
    current_pc, current_n, total, unknown = None, 0, 0, 0
    for line in proc.stderr:
        m = INSN_LINE.match(line)
        if m:
            if current_pc is None:
                current_pc = int(m.group(1), 16)
            current_n += 1
            continue
        if current_pc is not None:  # the block ended: a separator, a blank line or an exec line
            block_size[current_pc] = current_n
            current_pc, current_n = None, 0
        m = EXEC_LINE.match(line)
        if m:
            n = block_size.get(int(m.group(1), 16))
            if n is None:
                unknown += 1
            else:
                total += n
    stdout = proc.stdout.read().decode()
    if proc.wait() != 0:
        sys.exit(f"qemu_insn_ratio: {shlex.join(command)} exited with {proc.returncode}")
    if unknown:  # an executed block we never saw translated: the log is not what this parser reads
        sys.exit(f"qemu_insn_ratio: {unknown} executed blocks without their in_asm listing in {shlex.join(command)}")
    if total == 0:
        sys.exit(f"qemu_insn_ratio: no instructions counted; is -d exec supported by {command[0]}?")
    return total, stdout.strip()


def measure(emulator, binary, args, alg, backend, n, length):
    """One row: OpenSSL's and the backend's instructions per byte for n messages of length bytes a call."""
    k = args.calls or max(1, 65536 // max(n * length, 1))
    per_byte, digests = {}, set()
    for impl in ("openssl", backend):
        once, d1 = count_instructions(emulator + [binary, alg, impl, str(length), "1", str(n)])
        more, d2 = count_instructions(emulator + [binary, alg, impl, str(length), str(1 + k), str(n)])
        digests.update([d1, d2])
        per_byte[impl] = (more - once) / (k * max(n * length, 1))
    if len(digests) != 1:  # both implementations must compute the same digest
        sys.exit(f"qemu_insn_ratio: {alg} x{n} at {length} B: OpenSSL and {backend} disagree: {digests}")
    case = alg if n == 1 else f"{alg}-x{n}"
    ratio = per_byte["openssl"] / per_byte[backend]
    print(f"| {case} | {backend} | {length} | {per_byte['openssl']:.2f} | {per_byte[backend]:.2f} | {ratio:.2f} |",
          flush=True)
    return {"arch": args.arch, "cpu": args.cpu, "case": case, "messages": n, "backend": backend, "length": length,
            "openssl_insn_per_byte": per_byte["openssl"], "ours_insn_per_byte": per_byte[backend], "ratio": ratio}


def cache_value(build, key):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split("=", 1)[1].strip()
    return ""


def build_tool(arch, build):
    toolchain = os.path.join(ROOT, "ci", "toolchains", f"{arch}.cmake")
    if not os.path.exists(toolchain):
        sys.exit(f"qemu_insn_ratio: no toolchain file {toolchain}: --arch names a line of ci/arches.txt")
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", f"--toolchain={toolchain}",
                        "-DCMAKE_BUILD_TYPE=Release", "-DSHAKEDOWN_BUILD_TESTS=OFF", "-DSHAKEDOWN_BUILD_FUZZ=OFF",
                        "-DSHAKEDOWN_BUILD_TOOLS=OFF", "-DSHAKEDOWN_BUILD_BENCH=ON"], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "shakedown_insn_count"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(build, "bench", "shakedown_insn_count")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", required=True, help="a line of ci/arches.txt (not the host's)")
    ap.add_argument("--cpu", required=True, help="the QEMU CPU model, e.g. power8")
    ap.add_argument("--backend", action="append", required=True,
                    help="FAMILY=NAME: measure NAME's algorithms of FAMILY against OpenSSL (repeatable)")
    ap.add_argument("--lengths", default="64,1024,16384", help="message lengths in bytes, comma-separated")
    ap.add_argument("--messages", default="1",
                    help="messages a call, comma-separated counts: above 1, ours go through hash_many() and the "
                         "backend's lanes, OpenSSL's one after another (the bench's -xN cases)")
    ap.add_argument("--calls", type=int, default=0, help="K extra calls (default: enough for 64 KiB)")
    ap.add_argument("--binary", help="a shakedown_insn_count already built for --arch (skips the build)")
    ap.add_argument("--qemu", help="the qemu-user binary (default: the build's, its toolchain file's)")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()

    build = os.path.join(ROOT, "build", f"insn-{args.arch}")
    binary = args.binary or build_tool(args.arch, build)
    # The toolchain file's qemu-user and its -L root (ci/toolchains/cross-common.cmake).
    tool_build = os.path.dirname(os.path.dirname(binary))
    qemu = args.qemu or cache_value(tool_build, "SHAKEDOWN_QEMU")
    root = cache_value(tool_build, "SHAKEDOWN_CROSS_QEMU_ROOT")
    if not qemu:
        sys.exit(f"qemu_insn_ratio: {tool_build} is not a cross build (no SHAKEDOWN_QEMU); give --qemu")
    emulator = [qemu] + (["-L", root] if root else []) + ["-cpu", args.cpu, "-d", "in_asm,exec,nochain"]

    rows = []
    print("| case | ours | length | OpenSSL insn/B | ours insn/B | OpenSSL / ours |")
    print("|---|---|---:|---:|---:|---:|")
    for spec in args.backend:
        family, _, backend = spec.partition("=")
        if family not in ALGORITHMS or not backend:
            sys.exit(f"qemu_insn_ratio: --backend '{spec}' is not FAMILY=NAME with FAMILY one of {list(ALGORITHMS)}")
        for alg in ALGORITHMS[family]:
            for n in [int(x) for x in args.messages.split(",")]:
                for length in [int(x) for x in args.lengths.split(",")]:
                    rows.append(measure(emulator, binary, args, alg, backend, n, length))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"qemu": emulator[0], "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
