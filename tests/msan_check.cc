// MemorySanitizer driver: every available backend of every family, through the public API, against OpenSSL.
//
// Why not the GoogleTest suites: MSan needs every byte-writer instrumented, and libstdc++ (iostreams inside
// GoogleTest, std::string members instantiated in libstdc++.so) is not, so those suites report false positives
// before the first test runs (docs/platforms.md §6.4). This program therefore uses no iostreams, no
// std::string and no GoogleTest: only the library, fixed buffers, stdio and OpenSSL's C API.
//
// What it checks: each digest/XOF/HMAC output is written into a deliberately uninitialised buffer and then
// __msan_check_mem_is_initialized() — a byte the library failed to write, or computed from uninitialised
// state (framing buffer, backend scratch, asm output), is reported with its origin. Values are compared with
// OpenSSL. OpenSSL is not instrumented, so its outputs are unpoisoned: the one suppression, and it only
// concerns the oracle's bytes, never ours. In a non-MSan build the same program is a plain differential test.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "shakedown/backend.h"
#include "shakedown/hash.h"
#include "shakedown/hmac.h"
#include "support.h"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define SHAKEDOWN_MSAN 1
#endif
#endif
#ifndef SHAKEDOWN_MSAN
#define SHAKEDOWN_MSAN 0
inline void __msan_unpoison(const volatile void*, std::size_t) {}
inline void __msan_check_mem_is_initialized(const volatile void*, std::size_t) {}
inline void __msan_poison(const volatile void*, std::size_t) {}
#endif

// The proof that this run can fail: in a child process, hash a message whose bytes are uninitialised
// with one backend and check the digest. MSan must report it (the child dies); true when it did.
template <typename Backend>
bool msan_catches_uninitialised_message(const Backend& b, shakedown::Algorithm alg) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    std::uint8_t message[200];
    std::uint8_t out[64];
    __msan_poison(message, sizeof message);
    std::freopen("/dev/null", "w", stderr);  // the expected report
    shakedown::hash(alg, b.info.name, {message, sizeof message}, {out, shakedown::digest_size(alg)});
    __msan_check_mem_is_initialized(out, shakedown::digest_size(alg));
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

namespace {

using shakedown::Algorithm;
using shakedown::Family;

constexpr std::size_t kMaxMessage = 4096 + 300;
constexpr std::size_t kMaxOut = 512;  // XOF outputs up to several SHAKE128 blocks
std::uint8_t g_message[kMaxMessage];
int g_failures = 0;
shakedown::test::RecordBuffer g_records;  // execution records, written at the end
unsigned long long g_checks = 0;

// Deterministic split sizes (xorshift), so a failure reproduces.
std::uint32_t next_random(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

void fail(std::string_view what, Algorithm alg, std::string_view backend, std::size_t len) {
  ++g_failures;
  std::fprintf(stderr, "MISMATCH %.*s: %.*s via %.*s, message length %zu\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(shakedown::name(alg).size()), shakedown::name(alg).data(),
               static_cast<int>(backend.size()), backend.data(), len);
}

void openssl_digest(Algorithm alg, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                    std::size_t outlen) {
  EVP_MD* md = EVP_MD_fetch(nullptr, shakedown::test::openssl_name(alg), nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int n = 0;
  bool ok = md && ctx && EVP_DigestInit_ex(ctx, md, nullptr) == 1 && EVP_DigestUpdate(ctx, data, len) == 1;
  if (ok && shakedown::is_xof(alg)) {
    std::uint8_t tmp[kMaxOut + 1];
    ok = EVP_DigestFinalXOF(ctx, tmp, outlen + 1) == 1;  // +1: some versions reject length 0
    __msan_unpoison(tmp, sizeof tmp);
    std::memcpy(out, tmp, outlen);
  } else if (ok) {
    ok = EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == outlen;
  }
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  if (!ok) {
    std::fprintf(stderr, "OpenSSL digest failed for %s\n", shakedown::test::openssl_name(alg));
    std::exit(2);
  }
  __msan_unpoison(out, outlen);  // written by uninstrumented code
}

void openssl_hmac(Algorithm alg, const std::uint8_t* key, std::size_t keylen, const std::uint8_t* data,
                  std::size_t len, std::uint8_t* out) {
  std::size_t n = 0;
  static const std::uint8_t empty_key[1] = {0};
  unsigned char* r = EVP_Q_mac(nullptr, "HMAC", nullptr, shakedown::test::openssl_name(alg), nullptr,
                               keylen ? key : empty_key, keylen, data, len, out, shakedown::digest_size(alg), &n);
  if (r == nullptr || n != shakedown::digest_size(alg)) {
    std::fprintf(stderr, "OpenSSL HMAC failed for %s\n", shakedown::test::openssl_name(alg));
    std::exit(2);
  }
  __msan_unpoison(out, n);
}

// The lengths that matter to framing: every length up to three blocks, then a few long ones.
template <typename F>
void for_each_length(std::size_t block, F f) {
  for (std::size_t len = 0; len <= 3 * block + 1; ++len) f(len);
  for (std::size_t len : {1000u, 4096u, 4096u + 7u, 4096u + 300u}) f(len);
}

// One (algorithm, backend): streaming with random splits, one-shot, XOF squeezes in pieces, HMAC.
unsigned long long check_backend(Algorithm alg, std::string_view backend) {
  unsigned long long checks = 0;
  std::uint32_t seed = 0x9e3779b9u ^ static_cast<std::uint32_t>(alg);
  const std::size_t outlen = shakedown::is_xof(alg) ? 300 : shakedown::digest_size(alg);
  for_each_length(shakedown::block_size(alg), [&](std::size_t len) {
    std::uint8_t expected[kMaxOut];
    openssl_digest(alg, g_message, len, expected, outlen);

    std::uint8_t got[kMaxOut];  // deliberately uninitialised: every byte must be written by the library
    __msan_poison(got, sizeof got);
    shakedown::Hasher h(alg, backend);
    for (std::size_t done = 0; done < len;) {
      std::size_t n = next_random(seed) % 200;
      if (n > len - done) n = len - done;
      h.update(g_message + done, n);
      done += n;
    }
    if (shakedown::is_xof(alg)) {
      for (std::size_t done = 0; done < outlen;) {  // squeeze in uneven pieces, across rate boundaries
        std::size_t n = 1 + next_random(seed) % 97;
        if (n > outlen - done) n = outlen - done;
        h.squeeze(got + done, n);
        done += n;
      }
    } else {
      h.final(got, outlen);
    }
    __msan_check_mem_is_initialized(got, outlen);
    if (std::memcmp(got, expected, outlen) != 0) fail("streaming", alg, backend, len);

    __msan_poison(got, sizeof got);
    shakedown::hash(alg, backend, {g_message, len}, {got, outlen});
    __msan_check_mem_is_initialized(got, outlen);
    if (std::memcmp(got, expected, outlen) != 0) fail("one-shot", alg, backend, len);
    checks += 2;

    if (shakedown::is_xof(alg) || len > 2 * shakedown::block_size(alg) + 1) return;
    for (std::size_t keylen : {0u, 13u, 64u, 128u, 200u}) {
      openssl_hmac(alg, g_message + 7, keylen, g_message, len, expected);
      __msan_poison(got, sizeof got);
      shakedown::Hmac mac(alg, {g_message + 7, keylen}, backend);
      mac.update(g_message, len / 2).update(g_message + len / 2, len - len / 2);
      mac.final({got, outlen});
      __msan_check_mem_is_initialized(got, outlen);
      if (std::memcmp(got, expected, outlen) != 0) fail("hmac", alg, backend, len);
      ++checks;
    }
  });
  return checks;
}

// Every backend of every family: run or, when this CPU (as the tool presents it) lacks it, say so.
void check_all_backends() {
  using shakedown::test::print_backend_row;
  auto unavailable = [](Family family, const auto& b) {
    print_backend_row(family, b.info.name, "not available on this CPU");
  };
  auto run = [](Family family, const auto& b) {
    if (SHAKEDOWN_MSAN) {
      const Algorithm probe = family == Family::sha256 ? Algorithm::sha256
                              : family == Family::sha512 ? Algorithm::sha512 : Algorithm::sha3_256;
      const bool caught = msan_catches_uninitialised_message(b, probe);
      print_backend_row(family, b.info.name,
                        caught ? "uninitialised message: reported by MSan"
                               : "uninitialised message: NOT reported (the shadow is lost in this backend)");
      // A backend MSan cannot see through proves nothing here: asm must carry the shadow
      // (lib/src/internal/msan.h), so this is a failure, not a note.
      if (!caught) {
        const std::string_view fam = shakedown::name(family);
        std::fprintf(stderr, "MSan did not report an uninitialised message through %.*s/%.*s\n",
                     static_cast<int>(fam.size()), fam.data(), static_cast<int>(b.info.name.size()),
                     b.info.name.data());
        ++g_failures;
      }
    }
    for (Algorithm alg : shakedown::kAllAlgorithms) {
      if (shakedown::family_of(alg) != family) continue;
      const int failures_before = g_failures;
      const unsigned long long n = check_backend(alg, b.info.name);
      g_checks += n;
      // The coverage gate's execution records (tests/support/records.h), appended in one locked write at exit:
      // the checks, and a failure charged to this backend when its output was wrong. They count as MSan checks
      // only under MemorySanitizer; elsewhere this is a differential run, and the matrix says so.
      if (!g_records.report(SHAKEDOWN_MSAN ? "msan" : "diff", alg, b.info.name, "digest", n)) std::exit(2);
      if (g_failures != failures_before && !g_records.add_failure("msan.check", alg, b.info.name)) std::exit(2);
    }
  };
  shakedown::test::for_each_backend(unavailable, run);
}

}  // namespace

int main() {
  // No openssl.cnf: loading it passes buffers written by uninstrumented libcrypto to intercepted fopen(),
  // which MSan reports. The digests and HMAC need no configuration.
  if (OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr) != 1) {
    std::fprintf(stderr, "msan_check: OPENSSL_init_crypto failed\n");
    return 2;
  }
  for (std::size_t i = 0; i < kMaxMessage; ++i) g_message[i] = static_cast<std::uint8_t>(i * 131 + (i >> 8));
  std::printf("msan_check: MemorySanitizer %s\n", SHAKEDOWN_MSAN ? "on" : "off (plain differential run)");
  check_all_backends();
  if (!g_records.flush()) return 2;
  std::printf("msan_check: %llu checks, %d mismatches\n", g_checks, g_failures);
  return g_failures == 0 && g_checks > 0 ? 0 : 1;
}
