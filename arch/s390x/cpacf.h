// The one inline helper every s390x backend uses to run KIMD/KLMD, with the mandatory condition-code-3 loop.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace shakedown::internal::cpacf {

// z/Architecture is big-endian: the SHA-2 parameter blocks (big-endian words, docs/isa/cpacf.md §2.1.6) are
// then the library's native state words, and the Keccak lanes (little-endian in the block) need a byte swap.
static_assert(std::endian::native == std::endian::big, "arch/s390x assumes big-endian z/Architecture");

// RRE opcodes (docs/isa/cpacf.md §2.1.1).
inline constexpr std::uint32_t kKimd = 0xb93e;
inline constexpr std::uint32_t kKlmd = 0xb93f;

// GR0: function codes and flags (docs/isa/cpacf.md §2.1.2, §2.1.4; linux arch/s390/include/asm/cpacf.h).
inline constexpr std::uint64_t kQuery = 0x00;
inline constexpr std::uint64_t kSha256 = 0x02;
inline constexpr std::uint64_t kSha512 = 0x03;
inline constexpr std::uint64_t kSha3_224 = 0x20;
inline constexpr std::uint64_t kSha3_256 = 0x21;
inline constexpr std::uint64_t kSha3_384 = 0x22;
inline constexpr std::uint64_t kSha3_512 = 0x23;
inline constexpr std::uint64_t kShake128 = 0x24;
inline constexpr std::uint64_t kShake256 = 0x25;
inline constexpr std::uint64_t kDufop = 0x4000;  // KLMD with facility 86, as Linux lib/crypto/s390/sha3.h sets it
inline constexpr std::uint64_t kNoIcv = 0x8000;  // NIP: start from the zero state, do not read the block

// Sizes of the parameter blocks (docs/isa/cpacf.md §2.1.4): the query vector and the Keccak state.
inline constexpr std::size_t kQueryBytes = 16;
inline constexpr std::size_t kKeccakStateBytes = 200;

// Runs KIMD (Opcode kKimd) or KLMD (kKlmd) until it completes: GR0 = function code and flags, GR1 = parameter
// block, R2/R2+1 = %r2/%r3 = source and length, R1/R1+1 = %r4/%r5 = output and length (KLMD-SHAKE only; the
// other functions ignore R1). A partial completion sets CC3 with the registers advanced and must be
// re-executed (`brc 1,0b`, docs/isa/cpacf.md §2.1.8); every register it may update is an in/out operand, GR0
// included (an emulator may clear NIP after a partial completion, see emul/README.md).
template <std::uint32_t Opcode>
inline void run(std::uint64_t gr0, void* param, const std::uint8_t* src, std::size_t src_len,
                std::uint8_t* dst = nullptr, std::size_t dst_len = 0) noexcept {
  register std::uint64_t r0 asm("0") = gr0;
  register void* r1 asm("1") = param;
  register const std::uint8_t* r2 asm("2") = src;
  register std::size_t r3 asm("3") = src_len;
  register std::uint8_t* r4 asm("4") = dst;
  register std::size_t r5 asm("5") = dst_len;
#ifndef SHAKEDOWN_TEST_ASM_FLIP_CPACF
  asm volatile("0: .insn rre,%[opc] << 16,%%r4,%%r2\n"
               "   brc 1,0b\n"
               : "+d"(r0), "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5)
               : "d"(r1), [opc] "i"(Opcode)
               : "cc", "memory");
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): R2+1 (the length) input-only.
  asm volatile("0: .insn rre,%[opc] << 16,%%r4,%%r2\n"
               "   brc 1,0b\n"
               : "+d"(r0), "+d"(r2), "+d"(r4), "+d"(r5)
               : "d"(r1), "d"(r3), [opc] "i"(Opcode)
               : "cc", "memory");
#endif
}

// The query function (fc 0): the 16-byte bit vector of available function codes; fc n is available when
// bytes[n >> 3] & (0x80 >> (n & 7)) (linux cpacf_test_func).
template <std::uint32_t Opcode>
inline void query(std::uint8_t out[kQueryBytes]) noexcept {
  run<Opcode>(kQuery, out, nullptr, 0);
}
inline bool has_function(const std::uint8_t vector[kQueryBytes], std::uint64_t fc) noexcept {
  return (vector[fc >> 3] & (0x80u >> (fc & 7))) != 0;
}

// Keccak lanes (native u64 in the library, FIPS 202 §3.1.2 order) <-> the little-endian parameter block.
inline void lanes_to_block(const std::uint64_t lanes[25], std::uint64_t block[25]) noexcept {
  for (int i = 0; i < 25; ++i) block[i] = __builtin_bswap64(lanes[i]);
}
inline void block_to_lanes(const std::uint64_t block[25], std::uint64_t lanes[25]) noexcept {
  for (int i = 0; i < 25; ++i) lanes[i] = __builtin_bswap64(block[i]);
}

}  // namespace shakedown::internal::cpacf
