// The oracle on targets with OpenSSL: EVP digests, XOF output and EVP_MAC HMAC, and the fetched EVP objects.
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "openssl.h"
#include "oracle.h"

namespace shakedown::test {

bool have_openssl() { return true; }
const char* oracle_description() { return "OpenSSL EVP (the independent oracle)"; }

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
}  // namespace

const EVP_MD* openssl_md(Algorithm alg) {
  Fetched& f = fetched();
  std::lock_guard<std::mutex> lock(f.m);
  auto& md = f.mds[alg];
  if (!md) md = EVP_MD_fetch(nullptr, openssl_name(alg), nullptr);
  if (!md) throw std::runtime_error(std::string("OpenSSL has no ") + openssl_name(alg));
  return md;
}

EVP_MAC* openssl_hmac_mac() {
  Fetched& f = fetched();
  std::lock_guard<std::mutex> lock(f.m);
  if (!f.hmac) f.hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  if (!f.hmac) throw std::runtime_error("OpenSSL has no HMAC");
  return f.hmac;
}

namespace {
// One EVP_MD_CTX per thread, reinitialised for each digest: a new context per call cost an allocation and the
// provider's newctx/freectx each time, which the fuzz targets paid once per run (fuzz_many: per message).
struct ThreadMdCtx {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~ThreadMdCtx() { EVP_MD_CTX_free(ctx); }
};

// Digest of data through md; outlen for an XOF (EVP_DigestFinalXOF), the digest size otherwise.
bool evp_digest(const EVP_MD* md, std::span<const std::uint8_t> data, std::vector<std::uint8_t>& out) {
  thread_local ThreadMdCtx holder;
  EVP_MD_CTX* ctx = holder.ctx;
  bool ok = ctx && EVP_DigestInit_ex2(ctx, md, nullptr) == 1 && EVP_DigestUpdate(ctx, data.data(), data.size()) == 1;
  if (ok) {
    if (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) {
      // EVP_DigestFinalXOF with length 0 is rejected by some OpenSSL versions: squeeze 1 and drop it.
      if (out.empty()) {
        std::uint8_t tmp[1];
        ok = EVP_DigestFinalXOF(ctx, tmp, sizeof tmp) == 1;
      } else {
        ok = EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1;
      }
    } else {
      unsigned int n = 0;
      ok = out.size() == static_cast<std::size_t>(EVP_MD_get_size(md)) &&
           EVP_DigestFinal_ex(ctx, out.data(), &n) == 1 && n == out.size();
    }
  }
  return ok;
}
}  // namespace

std::vector<std::uint8_t> openssl_evp(const char* name, std::span<const std::uint8_t> data, std::size_t outlen) {
  EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  if (md == nullptr) throw std::runtime_error(std::string("OpenSSL has no digest ") + name);
  const bool xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
  std::vector<std::uint8_t> out(xof || outlen ? outlen : static_cast<std::size_t>(EVP_MD_get_size(md)));
  const bool ok = evp_digest(md, data, out);
  EVP_MD_free(md);
  if (!ok) throw std::runtime_error(std::string("OpenSSL digest failed for ") + name);
  return out;
}

std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen) {
  std::vector<std::uint8_t> out(outlen);
  if (!evp_digest(openssl_md(alg), data, out))
    throw std::runtime_error(std::string("OpenSSL digest failed for ") + openssl_name(alg));
  return out;
}

std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data) {
  return openssl_digest(alg, data, digest_size(alg));
}

namespace {
// Per thread, one EVP_MAC_CTX per algorithm with its digest set once: EVP_MAC_init with the digest parameter
// fetches the digest by name on every call. Each call below re-keys the context (a non-null key pointer, so
// that an empty key is a key and not "keep the previous one").
struct ThreadMacCtxs {
  std::map<Algorithm, EVP_MAC_CTX*> ctxs;
  ~ThreadMacCtxs() {
    for (auto& [alg, ctx] : ctxs) EVP_MAC_CTX_free(ctx);
  }
};

EVP_MAC_CTX* hmac_ctx(Algorithm alg) {
  thread_local ThreadMacCtxs holder;
  EVP_MAC_CTX*& ctx = holder.ctxs[alg];
  if (ctx) return ctx;
  ctx = EVP_MAC_CTX_new(openssl_hmac_mac());
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(openssl_name(alg)), 0),
      OSSL_PARAM_construct_end()};
  if (ctx && EVP_MAC_CTX_set_params(ctx, params) != 1) {
    EVP_MAC_CTX_free(ctx);
    ctx = nullptr;
  }
  return ctx;
}
}  // namespace

std::vector<std::uint8_t> openssl_hmac(Algorithm alg, std::span<const std::uint8_t> key,
                                       std::span<const std::uint8_t> data) {
  EVP_MAC_CTX* ctx = hmac_ctx(alg);
  std::vector<std::uint8_t> out(digest_size(alg));
  std::size_t n = 0;
  static const std::uint8_t empty_key[1] = {0};
  bool ok = ctx && EVP_MAC_init(ctx, key.empty() ? empty_key : key.data(), key.size(), nullptr) == 1 &&
            EVP_MAC_update(ctx, data.data(), data.size()) == 1 && EVP_MAC_final(ctx, out.data(), &n, out.size()) == 1 &&
            n == out.size();
  if (!ok) throw std::runtime_error(std::string("OpenSSL HMAC failed for ") + openssl_name(alg));
  return out;
}

}  // namespace shakedown::test
