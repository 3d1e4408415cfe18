// The oracle every comparison uses: OpenSSL EVP where the target has it (oracle_openssl.cc); elsewhere the
// generic backend (oracle_generic.cc), itself verified by the vectors and the consolidated checksums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::test {

bool have_openssl();
const char* oracle_description();
// EVP name of an algorithm ("SHA512-256", "SHAKE128", ...).
const char* openssl_name(Algorithm alg);
// Digest of data; outlen is used for SHAKE (EVP_DigestFinalXOF), must equal digest_size otherwise.
std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen);
std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data);
// HMAC through EVP_MAC.
std::vector<std::uint8_t> openssl_hmac(Algorithm alg, std::span<const std::uint8_t> key,
                                       std::span<const std::uint8_t> data);

}  // namespace shakedown::test
