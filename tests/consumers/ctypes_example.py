#!/usr/bin/env python3
"""Using libshakedown from Python through ctypes and the C API (shakedown/c.h); docs/c-api.md shows it.

Usage: ctypes_example.py PATH/TO/libshakedown.so
Prints SHA-256("abc") from the one-shot call, then the same digest from a context fed in two updates on every
available SHA-256 backend, then HMAC-SHA-256 of RFC 4231 test case 2. Exits 1 on any status other than OK."""
import ctypes
import sys

SHAKEDOWN_OK = 0
SHAKEDOWN_SHA256 = 1           # shakedown_algorithm
SHAKEDOWN_FAMILY_SHA256 = 0    # shakedown_family
HASH_CTX_SIZE = 384            # SHAKEDOWN_HASH_CTX_SIZE


class HashCtx(ctypes.Structure):
    # Storage only: 16-byte aligned as the header's union (long double) makes it.
    _fields_ = [("bytes", ctypes.c_longdouble * (HASH_CTX_SIZE // ctypes.sizeof(ctypes.c_longdouble)))]


class BackendInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 64), ("available", ctypes.c_int), ("selected", ctypes.c_int),
                ("reason", ctypes.c_char * 256)]


def load(path):
    lib = ctypes.CDLL(path)
    size_t, cvoid, ccharp = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_char_p
    lib.shakedown_status_name.restype = ccharp
    lib.shakedown_last_error.restype = ccharp
    lib.shakedown_version.restype = ccharp
    lib.shakedown_hash.argtypes = [ctypes.c_int, cvoid, size_t, cvoid, size_t]
    lib.shakedown_hmac.argtypes = [ctypes.c_int, cvoid, size_t, cvoid, size_t, cvoid, size_t]
    lib.shakedown_hash_init.argtypes = [ctypes.POINTER(HashCtx), ctypes.c_int, ccharp]
    lib.shakedown_hash_update.argtypes = [ctypes.POINTER(HashCtx), cvoid, size_t]
    lib.shakedown_hash_final.argtypes = [ctypes.POINTER(HashCtx), cvoid, size_t]
    lib.shakedown_hash_cleanup.argtypes = [ctypes.POINTER(HashCtx)]
    lib.shakedown_hash_cleanup.restype = None
    lib.shakedown_backend_count.argtypes = [ctypes.c_int, ctypes.POINTER(size_t)]
    lib.shakedown_backend_get.argtypes = [ctypes.c_int, size_t, ctypes.POINTER(BackendInfo)]
    return lib


def check(lib, status, call):
    if status != SHAKEDOWN_OK:
        sys.exit(f"{call}: {lib.shakedown_status_name(status).decode()} ({lib.shakedown_last_error().decode()})")


def main():
    lib = load(sys.argv[1])
    out = ctypes.create_string_buffer(32)
    check(lib, lib.shakedown_hash(SHAKEDOWN_SHA256, b"abc", 3, out, 32), "shakedown_hash")
    print(f"one-shot sha256: {out.raw.hex()}")

    count = ctypes.c_size_t()
    check(lib, lib.shakedown_backend_count(SHAKEDOWN_FAMILY_SHA256, ctypes.byref(count)), "shakedown_backend_count")
    for i in range(count.value):
        info = BackendInfo()
        check(lib, lib.shakedown_backend_get(SHAKEDOWN_FAMILY_SHA256, i, ctypes.byref(info)), "shakedown_backend_get")
        if not info.available:
            continue
        ctx = HashCtx()
        check(lib, lib.shakedown_hash_init(ctypes.byref(ctx), SHAKEDOWN_SHA256, info.name), "shakedown_hash_init")
        for part in (b"a", b"bc"):
            check(lib, lib.shakedown_hash_update(ctypes.byref(ctx), part, len(part)), "shakedown_hash_update")
        check(lib, lib.shakedown_hash_final(ctypes.byref(ctx), out, 32), "shakedown_hash_final")
        lib.shakedown_hash_cleanup(ctypes.byref(ctx))
        print(f"sha256 on {info.name.decode()}: {out.raw.hex()}")

    data = b"what do ya want for nothing?"
    check(lib, lib.shakedown_hmac(SHAKEDOWN_SHA256, b"Jefe", 4, data, len(data), out, 32), "shakedown_hmac")
    print(f"hmac-sha256: {out.raw.hex()}")


if __name__ == "__main__":
    main()
