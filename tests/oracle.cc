// Test support implementation: OpenSSL oracle, parameters, hex and execution records.
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "support.h"

namespace shakedown::test {

const char* openssl_name(Algorithm alg) {
  switch (alg) {
    case Algorithm::sha224: return "SHA224";
    case Algorithm::sha256: return "SHA256";
    case Algorithm::sha384: return "SHA384";
    case Algorithm::sha512: return "SHA512";
    case Algorithm::sha512_224: return "SHA512-224";
    case Algorithm::sha512_256: return "SHA512-256";
    case Algorithm::sha3_224: return "SHA3-224";
    case Algorithm::sha3_256: return "SHA3-256";
    case Algorithm::sha3_384: return "SHA3-384";
    case Algorithm::sha3_512: return "SHA3-512";
    case Algorithm::shake128: return "SHAKE128";
    case Algorithm::shake256: return "SHAKE256";
  }
  return "";
}

namespace {
// Fetched algorithm objects, shared by all threads and freed at exit (LeakSanitizer checks every suite).
struct Fetched {
  std::mutex m;
  std::map<Algorithm, EVP_MD*> mds;
  EVP_MAC* hmac = nullptr;
  ~Fetched() {
    for (auto& [alg, md] : mds) EVP_MD_free(md);
    EVP_MAC_free(hmac);
  }
};
Fetched& fetched() {
  static Fetched f;
  return f;
}

const EVP_MD* evp_md(Algorithm alg) {
  Fetched& f = fetched();
  std::lock_guard<std::mutex> lock(f.m);
  auto& md = f.mds[alg];
  if (!md) md = EVP_MD_fetch(nullptr, openssl_name(alg), nullptr);
  if (!md) throw std::runtime_error(std::string("OpenSSL has no ") + openssl_name(alg));
  return md;
}

EVP_MAC* evp_hmac() {
  Fetched& f = fetched();
  std::lock_guard<std::mutex> lock(f.m);
  if (!f.hmac) f.hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  if (!f.hmac) throw std::runtime_error("OpenSSL has no HMAC");
  return f.hmac;
}
}  // namespace

std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen) {
  std::vector<std::uint8_t> out(outlen);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestInit_ex(ctx, evp_md(alg), nullptr) == 1 &&
            EVP_DigestUpdate(ctx, data.data(), data.size()) == 1;
  if (ok) {
    if (is_xof(alg)) {
      // EVP_DigestFinalXOF with length 0 is rejected by some OpenSSL versions: squeeze 1 and drop it.
      std::vector<std::uint8_t> tmp(outlen ? outlen : 1);
      ok = EVP_DigestFinalXOF(ctx, tmp.data(), tmp.size()) == 1;
      std::copy(tmp.begin(), tmp.begin() + static_cast<std::ptrdiff_t>(outlen), out.begin());
    } else {
      unsigned int n = 0;
      out.resize(EVP_MD_get_size(evp_md(alg)));
      ok = EVP_DigestFinal_ex(ctx, out.data(), &n) == 1 && n == out.size() && n == outlen;
    }
  }
  EVP_MD_CTX_free(ctx);
  if (!ok) throw std::runtime_error(std::string("OpenSSL digest failed for ") + openssl_name(alg));
  return out;
}

std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data) {
  return openssl_digest(alg, data, digest_size(alg));
}

std::vector<std::uint8_t> openssl_hmac(Algorithm alg, std::span<const std::uint8_t> key,
                                       std::span<const std::uint8_t> data) {
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(evp_hmac());
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(openssl_name(alg)), 0),
      OSSL_PARAM_construct_end()};
  std::vector<std::uint8_t> out(digest_size(alg));
  std::size_t n = 0;
  static const std::uint8_t empty_key[1] = {0};
  bool ok = ctx && EVP_MAC_init(ctx, key.empty() ? empty_key : key.data(), key.size(), params) == 1 &&
            EVP_MAC_update(ctx, data.data(), data.size()) == 1 &&
            EVP_MAC_final(ctx, out.data(), &n, out.size()) == 1 && n == out.size();
  EVP_MAC_CTX_free(ctx);
  if (!ok) throw std::runtime_error(std::string("OpenSSL HMAC failed for ") + openssl_name(alg));
  return out;
}

std::vector<AlgBackend> all_alg_backends() {
  std::vector<AlgBackend> out;
  for (Algorithm alg : kAllAlgorithms)
    for (const auto& b : available_backends(family_of(alg))) out.push_back({alg, b});
  return out;
}

std::vector<FamilyBackend> all_family_backends() {
  std::vector<FamilyBackend> out;
  for (Family f : kAllFamilies)
    for (const auto& b : available_backends(f)) out.push_back({f, b});
  return out;
}

void PrintTo(const AlgBackend& p, std::ostream* os) { *os << name(p.alg) << " on " << p.backend; }
void PrintTo(const FamilyBackend& p, std::ostream* os) { *os << name(p.family) << " on " << p.backend; }

namespace {
std::string sanitize(std::string s) {
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return s;
}
}  // namespace

std::string param_name(const AlgBackend& p) { return sanitize(std::string(name(p.alg))) + "__" + sanitize(p.backend); }
std::string param_name(const FamilyBackend& p) {
  return sanitize(std::string(name(p.family))) + "__" + sanitize(p.backend);
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (auto b : bytes) {
    s.push_back(digits[b >> 4]);
    s.push_back(digits[b & 15]);
  }
  return s;
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("non-hex character '" + std::string(1, c) + "'");
  };
  if (hex.size() % 2) throw std::invalid_argument("odd-length hex string (" + std::to_string(hex.size()) + " digits)");
  std::vector<std::uint8_t> out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return out;
}

std::vector<std::uint8_t> pattern(std::size_t len, std::uint32_t seed) {
  // xorshift32 stream: deterministic, cheap, and unrelated to the hash functions under test.
  std::vector<std::uint8_t> out(len);
  std::uint32_t x = seed * 0x9e3779b9u + 0x6d2b79f5u;
  for (std::size_t i = 0; i < len; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    out[i] = static_cast<std::uint8_t>(x >> 24);
  }
  return out;
}

namespace {
struct Records {
  std::mutex m;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::uint64_t> counts;
  bool registered = false;
};
Records& records() {
  static Records* r = new Records;  // leaked on purpose: used from atexit
  return *r;
}
}  // namespace

void record(std::string_view suite, Family family, std::string_view backend, std::string_view check,
            std::uint64_t count) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  if (!r.registered) {
    std::atexit(flush_records);
    r.registered = true;
  }
  r.counts[{std::string(suite), std::string(name(family)), std::string(backend), std::string(check)}] += count;
}

void record(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
            std::uint64_t count) {
  record(suite, family_of(alg), backend, std::string(name(alg)) + ":" + std::string(check), count);
}

void record_failure(std::string_view test_name) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  if (!r.registered) {
    std::atexit(flush_records);
    r.registered = true;
  }
  r.counts[{"failure", "", std::string(test_name), ""}] += 1;
}

void flush_records() {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  const char* path = std::getenv("SHAKEDOWN_RECORD");
  if (path == nullptr || *path == '\0' || r.counts.empty()) return;
  FILE* f = std::fopen(path, "a");
  if (!f) {
    std::fprintf(stderr, "shakedown: cannot append execution records to %s\n", path);
    return;
  }
  const char* env = std::getenv("SHAKEDOWN_ENV_NAME");
  for (const auto& [key, count] : r.counts) {
    const auto& [suite, family, backend, check] = key;
    std::fprintf(f, "{\"suite\":\"%s\",\"family\":\"%s\",\"backend\":\"%s\",\"check\":\"%s\",\"count\":%llu,\"env\":\"%s\"}\n",
                 suite.c_str(), family.c_str(), backend.c_str(), check.c_str(),
                 static_cast<unsigned long long>(count), env ? env : "");
  }
  std::fclose(f);
  r.counts.clear();
}

std::size_t scaled(std::size_t iterations, std::size_t minimum) {
  const char* e = std::getenv("SHAKEDOWN_TEST_SCALE");
  double scale = e ? std::strtod(e, nullptr) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  auto n = static_cast<std::size_t>(static_cast<double>(iterations) * scale);
  return n < minimum ? minimum : n;
}

}  // namespace shakedown::test
