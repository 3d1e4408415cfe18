// The emulator's own SHA-1/SHA-256/SHA-512 compression functions and Keccak-f[1600], independent of the library under test.
#pragma once

#include <cstdint>

namespace shakedown::emul::detail {

// One compression of a 64-byte (SHA-1, SHA-256) or 128-byte (SHA-512) block into h, FIPS 180-4 §6.1.2,
// §6.2.2, §6.4.2. The block is the raw message bytes (big-endian words); h holds native words.
void sha1_compress(std::uint32_t h[5], const std::uint8_t block[64]) noexcept;
void sha256_compress(std::uint32_t h[8], const std::uint8_t block[64]) noexcept;
void sha512_compress(std::uint64_t h[8], const std::uint8_t block[128]) noexcept;

// Keccak-f[1600] = Keccak-p[1600,24] (FIPS 202 §3.3, §3.4) on 25 native lanes, lane x + 5y = A[x][y].
// Round constants and rotation offsets are derived from their definitions (§3.2.2, §3.2.5), not tabulated.
void keccak_f1600(std::uint64_t lanes[25]) noexcept;

}  // namespace shakedown::emul::detail
