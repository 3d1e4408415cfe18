// Test-side reference framing written from the specs, not from lib/: SHA-2 padding and digest
// serialization (FIPS 180-4 §5.1, §6.2.2 step 4), sponge byte order and padding (FIPS 202 §B.1, §B.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shakedown/shakedown.h"

namespace shakedown::diff::ref {

// FIPS 180-4 §5.1.1 (64-byte blocks) / §5.1.2 (128-byte blocks): what follows a message of
// (bytes_hi:bytes_lo) bytes — 0x80, zeros, and the bit length big-endian in 8 or 16 bytes — so that
// message || padding is a whole number of blocks. The bit length is computed here in 128-bit
// arithmetic, independently of lib/'s counters.
std::vector<std::uint8_t> md_padding(std::uint64_t bytes_lo, std::uint64_t bytes_hi, std::size_t block);

// The message plus its padding, ready for a blocks() function.
std::vector<std::uint8_t> md_padded(std::span<const std::uint8_t> msg, std::size_t block);

// The digest: H0..H7 big-endian (FIPS 180-4 §6.2.2 step 4, §6.4.2), truncated to outlen (§6.3, §6.5-6.7).
std::vector<std::uint8_t> md_digest(const std::uint32_t h[8], std::size_t outlen);
std::vector<std::uint8_t> md_digest(const std::uint64_t h[8], std::size_t outlen);

// The chaining value of a live SHA-2 context (through the testing::raw_state hook): lets a check start
// from the context's IV or mid-stream state and finish the computation itself.
void chaining_value(const Hasher& ctx, std::uint32_t h[8]);
void chaining_value(const Hasher& ctx, std::uint64_t h[8]);

// FIPS 202 §B.2: message || domain bits || pad10*1, as whole rate-sized blocks
// (0x06 for SHA-3, 0x1F for SHAKE: the suffix bits 01 / 1111 followed by the first pad bit).
std::vector<std::uint8_t> sponge_padded(std::span<const std::uint8_t> msg, std::size_t rate, bool xof);

// FIPS 202 §B.1 byte order: byte j of the state is bit-byte (j mod 8) of lane j/8, least significant first.
void sponge_xor(std::uint64_t state[25], const std::uint8_t* block, std::size_t rate);
void sponge_extract(const std::uint64_t state[25], std::uint8_t* out, std::size_t len);

}  // namespace shakedown::diff::ref
