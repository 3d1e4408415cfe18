/* The C API from a C program (C99): known answers from the standards, every backend by name, copies, the XOF,
   HMAC verification, the status of each misuse, and storage never initialized. Exits non-zero on the first wrong
   answer. */
#include <shakedown/c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_checks;

static void fail(const char* what, int line) {
  fprintf(stderr, "c_api_test.c:%d: FAILED: %s (last error: '%s')\n", line, what, shakedown_last_error());
  exit(1);
}
#define CHECK(cond) ((cond) ? (void)++g_checks : fail(#cond, __LINE__))
#define CHECK_STATUS(call, want) CHECK((call) == (want))

static void to_hex(const unsigned char* bytes, size_t n, char* out) {
  for (size_t i = 0; i < n; ++i) sprintf(out + 2 * i, "%02x", bytes[i]);
  out[2 * n] = '\0';
}
static int equals_hex(const unsigned char* bytes, size_t n, const char* hex) {
  char text[2 * SHAKEDOWN_MAX_DIGEST_SIZE + 1];
  to_hex(bytes, n, text);
  return strcmp(text, hex) == 0;
}

/* FIPS 180-2 Appendix B.1 and C.1, FIPS 202 examples (SHA3-256 "abc", SHAKE128 ""), RFC 4231 test case 2. */
static const char kSha256Abc[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
static const char kSha512Abc[] =
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e"
    "2a9ac94fa54ca49f";
static const char kSha3_256Abc[] = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";
static const char kShake128Empty32[] = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
static const char kHmacSha256Jefe[] = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
static const char kJefeData[] = "what do ya want for nothing?";

/* Whether s ends on a UTF-8 character boundary: no lead byte without all its continuation bytes at the end. */
static int ends_on_utf8_boundary(const char* s) {
  size_t n = strlen(s), back = 0;
  while (back < n && back < 4 && ((unsigned char)s[n - 1 - back] & 0xC0) == 0x80) ++back;
  if (back == n) return back == 0;
  const unsigned char lead = (unsigned char)s[n - 1 - back];
  const size_t need = lead < 0x80 ? 0 : lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
  return back == need;
}

static int all_zero(const void* p, size_t n) {
  const unsigned char* b = (const unsigned char*)p;
  for (size_t i = 0; i < n; ++i)
    if (b[i] != 0) return 0;
  return 1;
}

static void one_shot(void) {
  unsigned char out[SHAKEDOWN_MAX_DIGEST_SIZE];
  CHECK_STATUS(shakedown_hash(SHAKEDOWN_SHA256, "abc", 3, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kSha256Abc));
  CHECK_STATUS(shakedown_hash(SHAKEDOWN_SHA512, "abc", 3, out, 64), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 64, kSha512Abc));
  CHECK_STATUS(shakedown_hash(SHAKEDOWN_SHA3_256, "abc", 3, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kSha3_256Abc));
  CHECK_STATUS(shakedown_hash(SHAKEDOWN_SHAKE128, NULL, 0, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kShake128Empty32));
  CHECK_STATUS(shakedown_hmac(SHAKEDOWN_SHA256, "Jefe", 4, kJefeData, strlen(kJefeData), out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kHmacSha256Jefe));
}

/* SHA-256("abc") in two updates on every available backend of the family, by name, plus a copy mid-stream. */
static void every_backend(void) {
  size_t count = 0, i, ran = 0;
  CHECK_STATUS(shakedown_backend_count(SHAKEDOWN_FAMILY_SHA256, &count), SHAKEDOWN_OK);
  CHECK(count >= 1);
  for (i = 0; i < count; ++i) {
    shakedown_backend_info info;
    shakedown_hash_ctx ctx, copy;
    unsigned char out[32], out_copy[32];
    char bound[64];
    CHECK_STATUS(shakedown_backend_get(SHAKEDOWN_FAMILY_SHA256, i, &info), SHAKEDOWN_OK);
    if (!info.available) {
      CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, info.name), SHAKEDOWN_E_BACKEND_UNAVAILABLE);
      CHECK(info.reason[0] != '\0');
      continue;
    }
    CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, info.name), SHAKEDOWN_OK);
    CHECK_STATUS(shakedown_hash_backend(&ctx, bound, sizeof bound), SHAKEDOWN_OK);
    CHECK(strcmp(bound, info.name) == 0);
    CHECK_STATUS(shakedown_hash_update(&ctx, "a", 1), SHAKEDOWN_OK);
    memset(&copy, 0, sizeof copy);
    CHECK_STATUS(shakedown_hash_copy(&copy, &ctx), SHAKEDOWN_OK);
    CHECK_STATUS(shakedown_hash_update(&ctx, "bc", 2), SHAKEDOWN_OK);
    CHECK_STATUS(shakedown_hash_update(&copy, "bc", 2), SHAKEDOWN_OK);
    CHECK_STATUS(shakedown_hash_final(&ctx, out, sizeof out), SHAKEDOWN_OK);
    CHECK_STATUS(shakedown_hash_final(&copy, out_copy, sizeof out_copy), SHAKEDOWN_OK);
    CHECK(equals_hex(out, 32, kSha256Abc));
    CHECK(equals_hex(out_copy, 32, kSha256Abc));
    shakedown_hash_cleanup(&ctx);
    shakedown_hash_cleanup(&copy);
    CHECK(all_zero(&ctx, sizeof ctx));
    printf("  sha256 on %-16s %s%s\n", info.name, kSha256Abc, info.selected ? "  (selected)" : "");
    ++ran;
  }
  CHECK(ran >= 1);
}

static void xof(void) {
  shakedown_xof_ctx ctx;
  unsigned char out[32];
  CHECK_STATUS(shakedown_xof_init(&ctx, SHAKEDOWN_SHAKE128, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_xof_squeeze(&ctx, out, 0), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_xof_squeeze(&ctx, out, 5), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_xof_squeeze(&ctx, out + 5, 27), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kShake128Empty32));
  CHECK_STATUS(shakedown_xof_update(&ctx, "x", 1), SHAKEDOWN_E_WRONG_PHASE);
  CHECK_STATUS(shakedown_xof_reset(&ctx), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_xof_squeeze(&ctx, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kShake128Empty32));
  shakedown_xof_cleanup(&ctx);
  CHECK_STATUS(shakedown_xof_init(&ctx, SHAKEDOWN_SHAKE128, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_xof_init(&ctx, SHAKEDOWN_SHA256, NULL), SHAKEDOWN_E_NOT_XOF);
  CHECK_STATUS(shakedown_xof_squeeze(&ctx, out, 1), SHAKEDOWN_E_NOT_INITIALIZED);
}

static void hmac(void) {
  shakedown_hmac_ctx ctx;
  unsigned char tag[32];
  size_t n = strlen(kJefeData);
  CHECK_STATUS(shakedown_hmac_init(&ctx, SHAKEDOWN_SHA256, "Jefe", 4, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(&ctx, kJefeData, 10), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(&ctx, kJefeData + 10, n - 10), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_final(&ctx, tag, sizeof tag), SHAKEDOWN_OK);
  CHECK(equals_hex(tag, 32, kHmacSha256Jefe));
  CHECK_STATUS(shakedown_hmac_update(&ctx, "x", 1), SHAKEDOWN_E_FINALIZED);
  CHECK_STATUS(shakedown_hmac_reset(&ctx), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(&ctx, kJefeData, n), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_verify(&ctx, tag, sizeof tag), SHAKEDOWN_OK);
  tag[31] ^= 1;
  CHECK_STATUS(shakedown_hmac_reset(&ctx), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(&ctx, kJefeData, n), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_verify(&ctx, tag, sizeof tag), SHAKEDOWN_E_VERIFY_FAILED);
  CHECK_STATUS(shakedown_hmac_reset(&ctx), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(&ctx, kJefeData, n), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_verify(&ctx, tag, 16), SHAKEDOWN_E_VERIFY_FAILED); /* a short tag is not accepted */
  CHECK_STATUS(shakedown_hmac_reset(&ctx), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(&ctx, kJefeData, n), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_verify_truncated(&ctx, tag, 16, 16), SHAKEDOWN_OK); /* the first 16 bytes are intact */
  shakedown_hmac_cleanup(&ctx);
  CHECK(all_zero(&ctx, sizeof ctx));
  CHECK_STATUS(shakedown_hmac_init(&ctx, SHAKEDOWN_SHAKE256, "k", 1, NULL), SHAKEDOWN_E_NOT_HMAC_CAPABLE);
}

static void misuse(void) {
  shakedown_hash_ctx ctx;
  unsigned char out[64];
  shakedown_algorithm alg;
  char name[4];
  memset(&ctx, 0, sizeof ctx);
  CHECK_STATUS(shakedown_hash_update(&ctx, "x", 1), SHAKEDOWN_E_NOT_INITIALIZED);
  CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, "no/such"), SHAKEDOWN_E_UNKNOWN_BACKEND);
  CHECK(strstr(shakedown_last_error(), "no/such") != NULL);
  {
    /* A name of 801 bytes is echoed cut to 80 and its length, so that the reason fits the 511 bytes kept; the cut
       must not split a character (a caller that decodes the message as UTF-8, as ctypes' .decode() does, fails on
       a split one). 'x', then U+00E9 x 400: 80 bytes would end inside one. */
    char long_name[1 + 2 * 400 + 1];
    long_name[0] = 'x';
    for (int i = 0; i < 400; ++i) memcpy(long_name + 1 + 2 * i, "\xc3\xa9", 2);
    long_name[sizeof long_name - 1] = '\0';
    CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, long_name), SHAKEDOWN_E_UNKNOWN_BACKEND);
    CHECK(strstr(shakedown_last_error(), "\xc3\xa9... (801 bytes)' (compiled: ") != NULL);
    CHECK(strlen(shakedown_last_error()) <= 511);
    CHECK(ends_on_utf8_boundary(shakedown_last_error()));
  }
  CHECK_STATUS(shakedown_hash_update(&ctx, "x", 1), SHAKEDOWN_E_NOT_INITIALIZED);
  CHECK_STATUS(shakedown_hash_init(&ctx, (shakedown_algorithm)99, NULL), SHAKEDOWN_E_UNKNOWN_ALGORITHM);
  CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, "no/such"), SHAKEDOWN_E_UNKNOWN_BACKEND);
  CHECK_STATUS(shakedown_hash_update(&ctx, "x", 1), SHAKEDOWN_E_NOT_INITIALIZED); /* a failed init leaves none */
  CHECK(all_zero(&ctx, sizeof ctx));
  CHECK_STATUS(shakedown_hash_init(&ctx, SHAKEDOWN_SHA256, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hash_update(&ctx, NULL, 1), SHAKEDOWN_E_NULL_POINTER);
  CHECK_STATUS(shakedown_hash_final(&ctx, out, 31), SHAKEDOWN_E_BAD_OUTPUT_LENGTH);
  CHECK_STATUS(shakedown_hash_final(&ctx, out, 32), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hash_update(&ctx, "x", 1), SHAKEDOWN_E_FINALIZED);
  CHECK_STATUS(shakedown_hash_backend(&ctx, name, sizeof name), SHAKEDOWN_E_BUFFER_TOO_SMALL);
  CHECK(strlen(name) == sizeof name - 1);
  shakedown_hash_cleanup(&ctx);
  CHECK_STATUS(shakedown_hash_update(&ctx, "x", 1), SHAKEDOWN_E_NOT_INITIALIZED);
  CHECK_STATUS(shakedown_hash_update(NULL, "x", 1), SHAKEDOWN_E_NULL_POINTER);
  CHECK_STATUS(shakedown_hash(SHAKEDOWN_SHA256, "abc", 3, out, 64), SHAKEDOWN_E_BAD_OUTPUT_LENGTH);
  CHECK_STATUS(shakedown_backend_count((shakedown_family)7, NULL), SHAKEDOWN_E_NULL_POINTER);
  {
    size_t count;
    CHECK_STATUS(shakedown_backend_count((shakedown_family)7, &count), SHAKEDOWN_E_UNKNOWN_FAMILY);
  }
  CHECK_STATUS(shakedown_algorithm_from_name("SHA512/256", &alg), SHAKEDOWN_OK);
  CHECK(alg == SHAKEDOWN_SHA512_256);
  CHECK_STATUS(shakedown_algorithm_from_name("md5", &alg), SHAKEDOWN_E_UNKNOWN_ALGORITHM);
  CHECK(strcmp(shakedown_algorithm_name(SHAKEDOWN_SHA3_384), "sha3-384") == 0);
  CHECK(shakedown_algorithm_name((shakedown_algorithm)12) == NULL);
  CHECK(shakedown_digest_size(SHAKEDOWN_SHA512_224) == 28 && shakedown_block_size(SHAKEDOWN_SHA3_256) == 136);
  CHECK(shakedown_is_xof(SHAKEDOWN_SHAKE256) == 1 && shakedown_is_xof(SHAKEDOWN_SHA224) == 0);
  CHECK(shakedown_is_xof((shakedown_algorithm)-1) == -1);
  CHECK(strcmp(shakedown_status_name(SHAKEDOWN_E_FINALIZED), "SHAKEDOWN_E_FINALIZED") == 0);
  CHECK(strcmp(shakedown_status_name(12345), "unknown status") == 0);
  CHECK_STATUS(shakedown_check_environment(), SHAKEDOWN_OK);
}

/* Storage that was never written (malloc's: Valgrind and MemorySanitizer know it is undefined) through init, copy
   into it and cleanup of it: none may read it (run under both tools: tests/c_api/CMakeLists.txt). The storage
   sizes the library reports are the header's. And a message that echoes a hostile name is printable UTF-8. */
static void uninitialized_storage(void) {
  unsigned char out[SHAKEDOWN_MAX_DIGEST_SIZE];
  CHECK(shakedown_hash_ctx_size() == sizeof(shakedown_hash_ctx));
  CHECK(shakedown_xof_ctx_size() == sizeof(shakedown_xof_ctx));
  CHECK(shakedown_hmac_ctx_size() == sizeof(shakedown_hmac_ctx));
  shakedown_hash_ctx* hash = (shakedown_hash_ctx*)malloc(sizeof *hash);
  shakedown_hash_ctx* hash_copy = (shakedown_hash_ctx*)malloc(sizeof *hash_copy);
  shakedown_xof_ctx* xof = (shakedown_xof_ctx*)malloc(sizeof *xof);
  shakedown_hmac_ctx* mac = (shakedown_hmac_ctx*)malloc(sizeof *mac);
  shakedown_hmac_ctx* mac_copy = (shakedown_hmac_ctx*)malloc(sizeof *mac_copy);
  CHECK(hash && hash_copy && xof && mac && mac_copy);
  /* docs/c-api.md's example, on storage never written */
  CHECK_STATUS(shakedown_hash_init(hash, SHAKEDOWN_SHA256, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hash_update(hash, "a", 1), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hash_copy(hash_copy, hash), SHAKEDOWN_OK); /* into storage never written */
  CHECK_STATUS(shakedown_hash_update(hash_copy, "bc", 2), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hash_final(hash_copy, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kSha256Abc));
  shakedown_hash_cleanup(hash);
  shakedown_hash_cleanup(hash_copy);
  CHECK_STATUS(shakedown_xof_init(xof, SHAKEDOWN_SHAKE128, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_xof_squeeze(xof, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kShake128Empty32));
  shakedown_xof_cleanup(xof);
  CHECK_STATUS(shakedown_hmac_init(mac, SHAKEDOWN_SHA256, "Jefe", 4, NULL), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_copy(mac_copy, mac), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_update(mac_copy, kJefeData, strlen(kJefeData)), SHAKEDOWN_OK);
  CHECK_STATUS(shakedown_hmac_final(mac_copy, out, 32), SHAKEDOWN_OK);
  CHECK(equals_hex(out, 32, kHmacSha256Jefe));
  shakedown_hmac_cleanup(mac);
  shakedown_hmac_cleanup(mac_copy);
  free(hash_copy);
  free(xof);
  free(mac_copy);
  /* cleanup of storage never initialized is allowed */
  hash_copy = (shakedown_hash_ctx*)malloc(sizeof *hash_copy);
  CHECK(hash_copy != NULL);
  shakedown_hash_cleanup(hash_copy);
  CHECK(all_zero(hash_copy, sizeof *hash_copy));
  free(hash_copy);
  /* a failed init on storage never written leaves a context that is not initialized */
  CHECK_STATUS(shakedown_hmac_init(mac, SHAKEDOWN_SHAKE128, "k", 1, NULL), SHAKEDOWN_E_NOT_HMAC_CAPABLE);
  CHECK_STATUS(shakedown_hmac_update(mac, "x", 1), SHAKEDOWN_E_NOT_INITIALIZED);
  free(mac);
  CHECK_STATUS(shakedown_hash_init(hash, SHAKEDOWN_SHA256, "bad\x1b[2J\xff"), SHAKEDOWN_E_UNKNOWN_BACKEND);
  CHECK(strstr(shakedown_last_error(), "'bad\\x1b[2J\\xff'") != NULL);
  free(hash);
}

int main(void) {
  printf("shakedown C API %s\n", shakedown_version());
  uninitialized_storage();
  one_shot();
  every_backend();
  xof();
  hmac();
  misuse();
  printf("%d checks passed\n", g_checks);
  return 0;
}
