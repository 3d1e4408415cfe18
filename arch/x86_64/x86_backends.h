// Block functions of the x86-64 backends, declared once for backends.cc and the direct tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "shakedown/cpu.h"

namespace shakedown::internal {

// The seam of backend.h (Sha256BlocksFn / Sha512BlocksFn). Each is defined only when its ISA is
// compiled in (SHAKEDOWN_X86_<ISA> is defined then; see CMakeLists.txt) and must only be called
// when the CPU has the features its backend row's predicate asks for.
void sha256_blocks_shani(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha256_blocks_avx2(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_avx2(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_avx512(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
// Their predicates (available.cc, compiled without ISA flags). AVX2 serves both families.
bool sha256_shani_available(const CpuFeatures& f);
bool sha2_avx2_available(const CpuFeatures& f);
bool sha512_avx512_available(const CpuFeatures& f);

// Intel SHA512 extension (sha512_sha512ni.cc; SHAKEDOWN_X86_SHA512NI): block function and predicate in one
// file, compiled without ISA flags (the block function carries its own target attribute).
void sha512_blocks_sha512ni(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
bool sha512_sha512ni_available(const CpuFeatures& f);

// Keccak-p[1600,24] with BMI1/BMI2 (keccak_bmi2.cc; SHAKEDOWN_X86_BMI2): KeccakPermuteFn / KeccakAbsorbFn.
void keccak_permute_bmi2(std::uint64_t state[25]);
void keccak_absorb_bmi2(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks, std::size_t rate);
bool keccak_bmi2_available(const CpuFeatures& f);  // in available.cc: compiled without -mbmi2

// Zhaoxin PadLock REP XSHA256 / REP XSHA512 (sha256_phe.cc, sha512_phe2.cc; SHAKEDOWN_X86_PHE;
// specs/instructions.md §1). nblocks == 0 returns without executing the instruction.
void sha256_blocks_phe(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_phe2(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
bool sha256_phe_available(const CpuFeatures& f);
bool sha512_phe2_available(const CpuFeatures& f);

}  // namespace shakedown::internal
