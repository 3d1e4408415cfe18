// The portable block functions and their backend rows, which every arch list ends with.
#pragma once

#include <cstddef>
#include <cstdint>

#include "shakedown/backend.h"

namespace shakedown::internal {

void sha256_blocks_generic(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_generic(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
void keccak_permute_generic(std::uint64_t state[25]);
void keccak_absorb_generic(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                           std::size_t rate);

// XOR `len` bytes into the sponge state starting at byte `offset` (byte order of FIPS 202 §B.1:
// lane i holds bytes 8i..8i+7, least significant first), and the reverse extraction.
void keccak_xor_bytes(std::uint64_t state[25], std::size_t offset, const std::uint8_t* data, std::size_t len);
void keccak_extract_bytes(const std::uint64_t state[25], std::size_t offset, std::uint8_t* out, std::size_t len);

// The portable rows (defined beside their code): every arch's list ends with them.
extern const Sha256Backend kSha256Generic;
extern const Sha512Backend kSha512Generic;
extern const KeccakBackend kKeccakGeneric;
inline bool always_available(const CpuFeatures&) { return true; }

}  // namespace shakedown::internal
