// OpenSSL reference implementations for the benchmarks (fetch once, then the public EVP calls).
#include "openssl_ref.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstdio>
#include <cstdlib>

#include "oracle.h"

namespace shakedown::bench {
namespace {

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "shakedown_bench: OpenSSL %s failed\n", what);
  std::abort();
}

}  // namespace

void openssl_oneshot(Algorithm alg, const EVP_MD* md, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                     std::size_t outlen) {
  if (!is_xof(alg)) {
    if (EVP_Digest(data, len, out, nullptr, md, nullptr) != 1) die("EVP_Digest");
    return;
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (!ctx || EVP_DigestInit_ex2(ctx, md, nullptr) != 1 || EVP_DigestUpdate(ctx, data, len) != 1 ||
      EVP_DigestFinalXOF(ctx, out, outlen) != 1)
    die("SHAKE digest");
  EVP_MD_CTX_free(ctx);
}

OpensslHmac::OpensslHmac(Algorithm alg) : ctx_(EVP_MAC_CTX_new(test::openssl_hmac_mac())) {
  if (!ctx_) die("EVP_MAC_CTX_new(HMAC)");
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(test::openssl_name(alg)), 0),
      OSSL_PARAM_construct_end()};
  if (EVP_MAC_CTX_set_params(ctx_, params) != 1) die("HMAC digest parameter");
}

OpensslHmac::~OpensslHmac() { EVP_MAC_CTX_free(ctx_); }

void OpensslHmac::mac(const std::uint8_t* key, std::size_t keylen, const std::uint8_t* data, std::size_t len,
                      std::uint8_t* out, std::size_t outlen) {
  std::size_t written = 0;
  if (EVP_MAC_init(ctx_, key, keylen, nullptr) != 1 || EVP_MAC_update(ctx_, data, len) != 1 ||
      EVP_MAC_final(ctx_, out, &written, outlen) != 1 || written != outlen)
    die("HMAC");
}

}  // namespace shakedown::bench
