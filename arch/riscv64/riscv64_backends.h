// Block functions of the riscv64 backends, declared once for backends.cc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::internal {

// The seam of backend.h. Each is compiled only when its ISA is enabled (SHAKEDOWN_RISCV64_<ISA>,
// see CMakeLists.txt) and must only be called when its predicate in backends.cc holds.
void sha256_blocks_riscv64_zknh(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_riscv64_zknh(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha256_blocks_riscv64_zvknha(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_riscv64_zvknhb(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);

}  // namespace shakedown::internal
