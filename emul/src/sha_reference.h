// The emulator's own SHA-1/SHA-256/SHA-512 compression functions, independent of the library under test.
#pragma once

#include <cstdint>

namespace shakedown::emul::detail {

// One compression of a 64-byte (SHA-1, SHA-256) or 128-byte (SHA-512) block into h, FIPS 180-4 §6.1.2,
// §6.2.2, §6.4.2. The block is the raw message bytes (big-endian words); h holds native words.
void sha1_compress(std::uint32_t h[5], const std::uint8_t block[64]) noexcept;
void sha256_compress(std::uint32_t h[8], const std::uint8_t block[64]) noexcept;
void sha512_compress(std::uint64_t h[8], const std::uint8_t block[128]) noexcept;

}  // namespace shakedown::emul::detail
