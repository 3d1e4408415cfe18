// OpenSSL EVP digests by name, the oracle for the emulator's model tests (SHA-1 is not a library algorithm).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shakedown/hex.h"

namespace shakedown::emul::test {

// EVP digest of data; name is an EVP name ("SHA1", "SHA256", "SHA512").
std::vector<std::uint8_t> openssl(const char* name, std::span<const std::uint8_t> data);
using ::shakedown::to_hex;  // shakedown/hex.h

}  // namespace shakedown::emul::test
