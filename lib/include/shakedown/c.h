/* The C API: opaque contexts for hashing, SHAKE output and HMAC, one-shot functions, backend listing and binding,
   and status codes instead of exceptions. Valid C89, C99 and C++; docs/c-api.md tells how to use it. */
#ifndef SHAKEDOWN_C_H
#define SHAKEDOWN_C_H

#include <stddef.h>

#include "shakedown/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every function that can fail returns one of these (as int); SHAKEDOWN_OK is 0. Codes 1..13 are the C++ API's
   shakedown::Errc values plus one, in the same order; the values are part of the ABI and never change. */
typedef enum shakedown_status {
  SHAKEDOWN_OK = 0,
  SHAKEDOWN_E_UNKNOWN_ALGORITHM = 1,   /* an algorithm value or name that is not one of shakedown_algorithm */
  SHAKEDOWN_E_UNKNOWN_FAMILY = 2,      /* a family value that is not one of shakedown_family */
  SHAKEDOWN_E_UNKNOWN_BACKEND = 3,     /* backend name not compiled into this build for that family */
  SHAKEDOWN_E_BACKEND_UNAVAILABLE = 4, /* backend compiled, but this CPU (or its self-test) rules it out */
  SHAKEDOWN_E_BAD_ENVIRONMENT = 5,     /* SHAKEDOWN_BACKENDS is malformed */
  SHAKEDOWN_E_UNKNOWN_FEATURE = 6,     /* (C++ test hooks only) */
  SHAKEDOWN_E_FINALIZED = 7,           /* update/final/squeeze after final: reset first */
  SHAKEDOWN_E_NOT_XOF = 8,             /* an XOF context for a fixed-length digest */
  SHAKEDOWN_E_WRONG_PHASE = 9,         /* update on an XOF that already started squeezing */
  SHAKEDOWN_E_BAD_OUTPUT_LENGTH = 10,  /* output length invalid for the algorithm */
  SHAKEDOWN_E_NULL_POINTER = 11,       /* a null pointer where one is not allowed */
  SHAKEDOWN_E_MESSAGE_TOO_LONG = 12,   /* input beyond the algorithm's length limit (FIPS 180-4 section 1) */
  SHAKEDOWN_E_NOT_HMAC_CAPABLE = 13,   /* HMAC over SHAKE is not defined */
  SHAKEDOWN_E_VERIFY_FAILED = 100,     /* HMAC tag mismatch (a result, not a misuse) */
  SHAKEDOWN_E_BUFFER_TOO_SMALL = 101,  /* a name buffer too small: the text was truncated (still terminated) */
  SHAKEDOWN_E_NOT_INITIALIZED = 102,   /* a context never initialized, or cleaned up */
  SHAKEDOWN_E_OUT_OF_MEMORY = 103,     /* only where a function says it allocates (backend listing, errors) */
  SHAKEDOWN_E_INTERNAL = 104           /* an unexpected C++ exception: a bug, please report it */
} shakedown_status;

/* Algorithms and families: int, with these constants, whose values are part of the ABI and equal the C++
   shakedown::Algorithm / shakedown::Family values. Not enum types: a caller may pass any int (a value outside the
   list is SHAKEDOWN_E_UNKNOWN_ALGORITHM / _FAMILY), and an out-of-range enum value would be undefined in C++. */
typedef int shakedown_algorithm;
enum shakedown_algorithm_value {
  SHAKEDOWN_SHA224 = 0,
  SHAKEDOWN_SHA256 = 1,
  SHAKEDOWN_SHA384 = 2,
  SHAKEDOWN_SHA512 = 3,
  SHAKEDOWN_SHA512_224 = 4,
  SHAKEDOWN_SHA512_256 = 5,
  SHAKEDOWN_SHA3_224 = 6,
  SHAKEDOWN_SHA3_256 = 7,
  SHAKEDOWN_SHA3_384 = 8,
  SHAKEDOWN_SHA3_512 = 9,
  SHAKEDOWN_SHAKE128 = 10,
  SHAKEDOWN_SHAKE256 = 11
};

typedef int shakedown_family;
enum shakedown_family_value {
  SHAKEDOWN_FAMILY_SHA256 = 0, /* SHA-224, SHA-256 */
  SHAKEDOWN_FAMILY_SHA512 = 1, /* SHA-384, SHA-512, SHA-512/224, SHA-512/256 */
  SHAKEDOWN_FAMILY_KECCAK = 2  /* SHA-3, SHAKE */
};

#define SHAKEDOWN_ALGORITHM_COUNT 12
#define SHAKEDOWN_FAMILY_COUNT 3
#define SHAKEDOWN_MAX_DIGEST_SIZE 64

/* Context storage. The caller owns it (on the stack, in a struct, anywhere); init constructs the context inside,
   cleanup zeroizes it. No function allocates for a context: init (once the library has started: the first use
   selects backends), update, final, squeeze, verify, reset, copy and cleanup never touch the heap, except that a
   failing call builds its error message. The sizes are ABI: they only change with the SONAME (docs/abi.md). */
#define SHAKEDOWN_HASH_CTX_SIZE 384
#define SHAKEDOWN_HMAC_CTX_SIZE 1536
typedef union shakedown_ctx_align_ {
  double d;
  long double ld;
  void* p;
  long l;
} shakedown_ctx_align_;
typedef struct shakedown_hash_ctx {
  union {
    unsigned char bytes[SHAKEDOWN_HASH_CTX_SIZE];
    shakedown_ctx_align_ align;
  } opaque;
} shakedown_hash_ctx;
typedef struct shakedown_xof_ctx {
  union {
    unsigned char bytes[SHAKEDOWN_HASH_CTX_SIZE];
    shakedown_ctx_align_ align;
  } opaque;
} shakedown_xof_ctx;
typedef struct shakedown_hmac_ctx {
  union {
    unsigned char bytes[SHAKEDOWN_HMAC_CTX_SIZE];
    shakedown_ctx_align_ align;
  } opaque;
} shakedown_hmac_ctx;

/* The storage each context type needs, as this library was built: sizeof(shakedown_hash_ctx) and so on. A caller
   that cannot include this header (an FFI: Python's ctypes, say) must size its storage from these, never from a
   number copied by hand: a context passed in storage too small for its kind is written past its end (a
   shakedown_hmac_ctx needs four times a shakedown_hash_ctx). The alignment needed is that of long double. */
SHAKEDOWN_API size_t shakedown_hash_ctx_size(void);
SHAKEDOWN_API size_t shakedown_xof_ctx_size(void);
SHAKEDOWN_API size_t shakedown_hmac_ctx_size(void);

/* ---- Errors and names ---- */

/* "SHAKEDOWN_E_FINALIZED" for a status; "unknown status" for anything else. Never null. */
SHAKEDOWN_API const char* shakedown_status_name(int status);
/* The message of the last call that failed on this thread (what the C++ API's exception said); "" if none.
   At most 511 bytes, cut on a UTF-8 character boundary. Valid until the next failing call on this thread. */
SHAKEDOWN_API const char* shakedown_last_error(void);
/* The library's version, "MAJOR.MINOR.PATCH". */
SHAKEDOWN_API const char* shakedown_version(void);

/* Canonical name ("sha512-256", "shake128"); null for a value outside shakedown_algorithm. */
SHAKEDOWN_API const char* shakedown_algorithm_name(shakedown_algorithm alg);
/* Case-insensitive, the C++ parse_algorithm spellings ("SHA512/256", "sha3_256"). */
SHAKEDOWN_API int shakedown_algorithm_from_name(const char* name, shakedown_algorithm* alg);
/* Digest size in bytes (SHAKE: the default output, 32 or 64) and block size (SHA-3: the rate); 0 when invalid. */
SHAKEDOWN_API size_t shakedown_digest_size(shakedown_algorithm alg);
SHAKEDOWN_API size_t shakedown_block_size(shakedown_algorithm alg);
/* 1 for SHAKE, 0 for the fixed-length digests, -1 for a value outside shakedown_algorithm. */
SHAKEDOWN_API int shakedown_is_xof(shakedown_algorithm alg);
SHAKEDOWN_API int shakedown_family_of(shakedown_algorithm alg, shakedown_family* family);

/* ---- One-shot ---- */

/* outlen must be shakedown_digest_size(alg); for SHAKE any length, 0 included. data may be null when len is 0. */
SHAKEDOWN_API int shakedown_hash(shakedown_algorithm alg, const void* data, size_t len, void* out, size_t outlen);
/* HMAC (FIPS 198-1) of data under key; outlen 1..digest size (shorter is a truncated tag, FIPS 198-1 section 5). */
SHAKEDOWN_API int shakedown_hmac(shakedown_algorithm alg, const void* key, size_t keylen, const void* data, size_t len,
                                 void* out, size_t outlen);

/* ---- Incremental hashing (every algorithm; SHAKE's final gives outlen bytes and ends the output) ----
   backend: null for the selected backend of the family, or a name from shakedown_backend_get ("generic",
   "x86_64/shani"): the context is bound to it. After a failed init the context is not initialized (cleanup is
   still allowed). copy: dst is either not initialized or is overwritten. cleanup zeroizes; call it once done. */
SHAKEDOWN_API int shakedown_hash_init(shakedown_hash_ctx* ctx, shakedown_algorithm alg, const char* backend);
SHAKEDOWN_API int shakedown_hash_update(shakedown_hash_ctx* ctx, const void* data, size_t len);
SHAKEDOWN_API int shakedown_hash_final(shakedown_hash_ctx* ctx, void* out, size_t outlen);
SHAKEDOWN_API int shakedown_hash_reset(shakedown_hash_ctx* ctx);
SHAKEDOWN_API int shakedown_hash_copy(shakedown_hash_ctx* dst, const shakedown_hash_ctx* src);
SHAKEDOWN_API int shakedown_hash_backend(const shakedown_hash_ctx* ctx, char* name, size_t size);
SHAKEDOWN_API void shakedown_hash_cleanup(shakedown_hash_ctx* ctx);

/* ---- SHAKE as an XOF: absorb with update, then squeeze any number of times, any lengths ---- */
SHAKEDOWN_API int shakedown_xof_init(shakedown_xof_ctx* ctx, shakedown_algorithm alg, const char* backend);
SHAKEDOWN_API int shakedown_xof_update(shakedown_xof_ctx* ctx, const void* data, size_t len);
SHAKEDOWN_API int shakedown_xof_squeeze(shakedown_xof_ctx* ctx, void* out, size_t len);
SHAKEDOWN_API int shakedown_xof_reset(shakedown_xof_ctx* ctx);
SHAKEDOWN_API int shakedown_xof_copy(shakedown_xof_ctx* dst, const shakedown_xof_ctx* src);
SHAKEDOWN_API int shakedown_xof_backend(const shakedown_xof_ctx* ctx, char* name, size_t size);
SHAKEDOWN_API void shakedown_xof_cleanup(shakedown_xof_ctx* ctx);

/* ---- HMAC ----
   final: outlen 1..digest size. verify: SHAKEDOWN_OK only for the full-length tag equal to the MAC (constant time
   in the contents), SHAKEDOWN_E_VERIFY_FAILED otherwise. verify_truncated: the verifier states the tag length it
   expects, at least max(10, digest size / 2) bytes (RFC 2104 section 5). final and verify end the message. */
SHAKEDOWN_API int shakedown_hmac_init(shakedown_hmac_ctx* ctx, shakedown_algorithm alg, const void* key, size_t keylen,
                                      const char* backend);
SHAKEDOWN_API int shakedown_hmac_update(shakedown_hmac_ctx* ctx, const void* data, size_t len);
SHAKEDOWN_API int shakedown_hmac_final(shakedown_hmac_ctx* ctx, void* out, size_t outlen);
SHAKEDOWN_API int shakedown_hmac_verify(shakedown_hmac_ctx* ctx, const void* tag, size_t taglen);
SHAKEDOWN_API int shakedown_hmac_verify_truncated(shakedown_hmac_ctx* ctx, const void* tag, size_t taglen,
                                                  size_t expected_len);
SHAKEDOWN_API int shakedown_hmac_reset(shakedown_hmac_ctx* ctx);
SHAKEDOWN_API int shakedown_hmac_copy(shakedown_hmac_ctx* dst, const shakedown_hmac_ctx* src);
SHAKEDOWN_API int shakedown_hmac_backend(const shakedown_hmac_ctx* ctx, char* name, size_t size);
SHAKEDOWN_API void shakedown_hmac_cleanup(shakedown_hmac_ctx* ctx);

/* ---- Backends ----
   Every compiled backend of a family, in preference order (generic last), with its availability on this CPU.
   Pinning: per context, by name in init; process-wide, with the SHAKEDOWN_BACKENDS environment variable
   ("sha256=generic,keccak=x86_64/bmi2"; docs/design.md), read at the first use of a family. These functions
   allocate internally and may return SHAKEDOWN_E_OUT_OF_MEMORY; SHAKEDOWN_E_BAD_ENVIRONMENT for a malformed
   SHAKEDOWN_BACKENDS. */
typedef struct shakedown_backend_info {
  char name[64];    /* "x86_64/shani", "generic" */
  int available;    /* 1 if a context may be bound to it on this CPU */
  int selected;     /* 1 for the backend new contexts of the family use */
  char reason[256]; /* why unavailable or not selected; "" for the selected one (truncated if longer) */
} shakedown_backend_info;

SHAKEDOWN_API int shakedown_backend_count(shakedown_family family, size_t* count);
SHAKEDOWN_API int shakedown_backend_get(shakedown_family family, size_t index, shakedown_backend_info* info);
SHAKEDOWN_API int shakedown_selected_backend(shakedown_family family, char* name, size_t size);
/* Validates SHAKEDOWN_BACKENDS now (call at start-up to fail early). */
SHAKEDOWN_API int shakedown_check_environment(void);

#ifdef __cplusplus
}
#endif

#endif /* SHAKEDOWN_C_H */
