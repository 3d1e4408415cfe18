// Block functions of the x86-64 backends, declared once for backends.cc and the direct tests.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::internal {

// The seam of backend.h (Sha256BlocksFn / Sha512BlocksFn). Each is defined only when its ISA is
// compiled in (SHAKEDOWN_X86_<ISA> is defined then; see CMakeLists.txt) and must only be called
// when the CPU has the features its backend row's predicate asks for.
void sha256_blocks_shani(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha256_blocks_avx2(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_avx2(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_avx512(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);

}  // namespace shakedown::internal
