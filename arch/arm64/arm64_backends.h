// Block functions and predicates of the arm64 backends, declared once for backends.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "shakedown/cpu.h"

namespace shakedown::internal {

// The seam of backend.h. Each is compiled only when its ISA is enabled (SHAKEDOWN_ARM64_<ISA>,
// see CMakeLists.txt) and must only be called when the predicate beside it holds.
void sha256_blocks_arm64_ce(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_arm64_sha512(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
void keccak_permute_arm64_sha3(std::uint64_t state[25]);

}  // namespace shakedown::internal
