#!/usr/bin/env python3
"""Using libshakedown from Python through ctypes and the C API (shakedown/c.h); docs/c-api.md shows it.

Usage: ctypes_example.py PATH/TO/libshakedown.so
Prints SHA-256("abc") from the one-shot call, then the same digest from a context fed in two updates on every
available SHA-256 backend, then HMAC-SHA-256 of RFC 4231 test case 2, then the error a hostile backend name gets
(printable: its control bytes and malformed UTF-8 escaped). Context storage is sized by the library itself
(shakedown_hash_ctx_size), never by a number copied from the header. Exits 1 on any unexpected status."""
import ctypes
import sys

SHAKEDOWN_OK = 0
SHAKEDOWN_SHA256 = 1           # shakedown_algorithm
SHAKEDOWN_FAMILY_SHA256 = 0    # shakedown_family
SHAKEDOWN_E_UNKNOWN_BACKEND = 3


def context_storage(size):
    """Storage for a context of `size` bytes (from shakedown_*_ctx_size), aligned like long double as the header's
    union is: an array of long doubles, as ctypes aligns an array like its elements."""
    unit = ctypes.sizeof(ctypes.c_longdouble)
    return (ctypes.c_longdouble * ((size + unit - 1) // unit))()


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
    lib.shakedown_hash_ctx_size.restype = size_t
    lib.shakedown_hash_ctx_size.argtypes = []
    lib.shakedown_hash_init.argtypes = [cvoid, ctypes.c_int, ccharp]
    lib.shakedown_hash_update.argtypes = [cvoid, cvoid, size_t]
    lib.shakedown_hash_final.argtypes = [cvoid, cvoid, size_t]
    lib.shakedown_hash_cleanup.argtypes = [cvoid]
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
        ctx = context_storage(lib.shakedown_hash_ctx_size())
        check(lib, lib.shakedown_hash_init(ctx, SHAKEDOWN_SHA256, info.name), "shakedown_hash_init")
        for part in (b"a", b"bc"):
            check(lib, lib.shakedown_hash_update(ctx, part, len(part)), "shakedown_hash_update")
        check(lib, lib.shakedown_hash_final(ctx, out, 32), "shakedown_hash_final")
        lib.shakedown_hash_cleanup(ctx)
        print(f"sha256 on {info.name.decode()}: {out.raw.hex()}")

    data = b"what do ya want for nothing?"
    check(lib, lib.shakedown_hmac(SHAKEDOWN_SHA256, b"Jefe", 4, data, len(data), out, 32), "shakedown_hmac")
    print(f"hmac-sha256: {out.raw.hex()}")

    # An unknown backend name from an untrusted source: the message quotes it escaped, so it decodes as UTF-8 and
    # carries no control byte to a terminal or a log.
    ctx = context_storage(lib.shakedown_hash_ctx_size())
    status = lib.shakedown_hash_init(ctx, SHAKEDOWN_SHA256, b"no\xff\x1b[2Jsuch")
    if status != SHAKEDOWN_E_UNKNOWN_BACKEND:
        sys.exit(f"a hostile backend name gave {lib.shakedown_status_name(status).decode()}")
    print(f"error: {lib.shakedown_last_error().decode()}")


if __name__ == "__main__":
    main()
