"""Checks of the ClusterFuzzLite build image and script that no local build exercises: the base image is pinned,
OpenSSL's Configure line holds only options the cloned OpenSSL branch knows, and build.sh stops at its first error
however it is started. ci/check_workflows.py reports what these functions find (ctest ci.workflows)."""
import re
import shlex

# What OpenSSL 3.0's Configure accepts after no- or enable-: its @disablables plus the TLS and DTLS protocol names
# (and their -method forms) it appends to them, copied from openssl-3.0.22's Configure (Debian bookworm's
# openssl_3.0.22.orig.tar.gz). no-docs is not there: it came with 3.2, and 3.0's Configure stops on it with
# "Unsupported options: no-docs"; 3.0 leaves the documentation out with `make build_sw` / `make install_sw`.
OPENSSL30_FEATURES = set("""
    acvp-tests afalgeng aria asan asm async atexit autoalginit autoerrinit autoload-config bf blake2 buildtest-c++
    bulk cached-fetch camellia capieng cast chacha cmac cmp cms comp crypto-mdebug ct deprecated des devcryptoeng
    dgram dh dsa dso dtls dynamic-engine ec ec2m ec_nistp_64_gcc_128 ecdh ecdsa egd engine err external-tests
    filenames fips fips-securitychecks fuzz-afl fuzz-libfuzzer gost idea ktls legacy loadereng makedepend md2 md4
    mdc2 module msan multiblock nextprotoneg ocb ocsp padlockeng pic pinshared poly1305 posix-io psk rc2 rc4 rc5
    rdrand rfc3779 rmd160 scrypt sctp secure-memory seed shared siphash siv sm2 sm3 sm4 sock srp srtp sse2 ssl
    ssl-trace static-engine stdio tests threads tls trace ts ubsan ui-console unit-test uplink weak-ssl-ciphers
    whirlpool zlib zlib-dynamic
    ssl3 tls1 tls1_1 tls1_2 tls1_3 dtls1 dtls1_2
    ssl3-method tls1-method tls1_1-method tls1_2-method dtls1-method dtls1_2-method
    """.split())
# The other argument forms 3.0's Configure takes that this image could use (INSTALL.md "Configuration Options").
OPENSSL30_OTHER = re.compile(r"^(--(prefix|openssldir|libdir|cross-compile-prefix)=.+|--(release|debug)|"
                             r"(shared|threads|zlib|no-shared)|-[DLlIW].*|linux-[a-z0-9_]+)$")
# The OpenSSL branches whose Configure options OPENSSL30_FEATURES lists.
KNOWN_BRANCHES = {"openssl-3.0"}


def commands(dockerfile):
    """The Dockerfile's instructions as (line number, keyword, text), continuation lines joined."""
    out, pending, start = [], "", 0
    for number, line in enumerate(dockerfile.splitlines(), 1):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        text = (pending + line).strip()
        pending = ""
        keyword, _, rest = text.partition(" ")
        out.append((start, keyword.upper(), rest.strip()))
    return out


def pinned(image):
    """Whether an image reference names one version: a digest, or a tag other than latest."""
    if "@sha256:" in image:
        return True
    name = image.rsplit("/", 1)[-1]
    return ":" in name and name.rpartition(":")[2] not in ("", "latest")


def dockerfile_problems(dockerfile, where="Dockerfile"):
    """A pinned FROM in every stage; every OpenSSL Configure option known to the branch the image clones."""
    problems = []
    branch = None
    for line, keyword, rest in commands(dockerfile):
        if keyword == "FROM":
            image = [w for w in rest.split() if not w.startswith("--")][0]
            if not pinned(image):
                problems.append(f"{where}:{line}: FROM {image} is not pinned: name a tag (the ClusterFuzzLite "
                                f"documentation's base-builder:v1) or a digest, so that a rebuild gets the same image")
        if keyword != "RUN":
            continue
        for part in re.split(r"&&|;", rest):
            try:
                words = shlex.split(part)
            except ValueError as e:
                problems.append(f"{where}:{line}: cannot read '{part.strip()}': {e}")
                continue
            if words[:2] == ["git", "clone"] and "openssl" in " ".join(words) and "--branch" in words:
                branch = words[words.index("--branch") + 1]
            if words and words[0].endswith("/Configure"):
                problems += configure_problems(words[1:], branch, f"{where}:{line}")
    return problems


def configure_problems(args, branch, where):
    if branch not in KNOWN_BRANCHES:
        return [f"{where}: OpenSSL's Configure of branch {branch or '(none cloned before it)'}: its options are not "
                f"known here (ci/cflite_image.py lists those of {', '.join(sorted(KNOWN_BRANCHES))})"]
    problems = []
    for arg in args:
        feature = arg.partition("-")[2] if arg.startswith(("no-", "enable-")) else None
        if feature in OPENSSL30_FEATURES or (feature is None and OPENSSL30_OTHER.match(arg)):
            continue
        problems.append(f"{where}: '{arg}' is not an option OpenSSL 3.0's Configure knows "
                        f"(it stops with \"Unsupported options: {arg}\")")
    return problems


def build_script_problems(script, where="build.sh"):
    """build.sh must stop at the first failing command even when run as `bash build.sh`, which ignores the
    shebang's flags: `set -e` (and -u, -o pipefail) in the script itself, before its first command."""
    for line in script.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = re.match(r"^set\s+-([a-z]+)\b", stripped)
        if m and "e" in m.group(1) and "u" in m.group(1) and "pipefail" in stripped:
            return []
        break
    return [f"{where}: the first command must be `set -euo pipefail`: run as `bash build.sh` (ci/fuzz-build-check "
            f"does), the shebang's -e is ignored and a failed build goes on to copy what it did not build"]
