// The OpenSSL side of each comparison: pre-fetched EVP objects, used exactly like an application would.
#pragma once

#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>

#include "openssl.h"  // tests/support: the oracle's EVP objects, fetched once
#include "shakedown/algorithm.h"

namespace shakedown::bench {

// Fetched once per algorithm; throws std::runtime_error if this OpenSSL lacks the algorithm.
using test::openssl_md;

// One-shot digest: EVP_Digest for fixed-size digests; for SHAKE the same sequence with
// EVP_DigestFinalXOF, since EVP_Digest cannot ask for outlen bytes. Aborts on failure.
void openssl_oneshot(Algorithm alg, const EVP_MD* md, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                     std::size_t outlen);

// HMAC through EVP_MAC with the context and digest parameter prepared once; each call keys it.
class OpensslHmac {
 public:
  explicit OpensslHmac(Algorithm alg);
  ~OpensslHmac();
  OpensslHmac(const OpensslHmac&) = delete;
  OpensslHmac& operator=(const OpensslHmac&) = delete;
  void mac(const std::uint8_t* key, std::size_t keylen, const std::uint8_t* data, std::size_t len,
           std::uint8_t* out, std::size_t outlen);

 private:
  EVP_MAC_CTX* ctx_;
};

}  // namespace shakedown::bench
