// What the OpenSSL oracle offers beyond oracle.h, for code that links OpenSSL anyway: the fetched EVP objects
// (the benchmarks time them) and digests by EVP name, SHA-1 included (the emulator tests' PHE XSHA1 and
// CPACF SHA-1 functions, which are no library algorithm).
#pragma once

#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::test {

// Fetched once per algorithm and shared by all threads; throws std::runtime_error if OpenSSL lacks it.
const EVP_MD* openssl_md(Algorithm alg);
// The HMAC EVP_MAC, fetched once.
EVP_MAC* openssl_hmac_mac();
// Digest by EVP name ("SHA1", "SHA256", "SHAKE128"); outlen 0 means the digest size (an XOF needs outlen).
std::vector<std::uint8_t> openssl_evp(const char* name, std::span<const std::uint8_t> data, std::size_t outlen = 0);

}  // namespace shakedown::test
