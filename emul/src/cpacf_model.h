// The CPACF KIMD/KLMD model: decode B93E/B93F and run one execution on a register view (no signals here).
#pragma once

#include <cstdint>
#include <optional>

#include "emul/emul.h"

namespace shakedown::emul::detail {

// KIMD and KLMD are RRE instructions: 4 bytes, B9 3E|3F 00 R1R2 (docs/isa/cpacf.md §2.1.1).
inline constexpr unsigned kCpacfLength = 4;
inline constexpr std::uint16_t kKimdOpcode = 0xb93e;
inline constexpr std::uint16_t kKlmdOpcode = 0xb93f;

// General register 0 (docs/isa/cpacf.md §2.1.2).
inline constexpr std::uint64_t kGr0FunctionCode = 0x7f;
inline constexpr std::uint64_t kGr0Modifier = 0x80;       // must be 0 for KIMD/KLMD: specification exception
inline constexpr std::uint64_t kGr0PaddingState = 0x100;  // KLMD-SHAKE: squeeze on, no absorb, no padding
inline constexpr std::uint64_t kGr0Dufop = 0x4000;        // KLMD with facility 86: accepted, no modelled effect
inline constexpr std::uint64_t kGr0NoIcv = 0x8000;        // NIP: SHA-3/SHAKE start from the zero state

// Function codes (docs/isa/cpacf.md §2.1.4).
inline constexpr unsigned kFcQuery = 0x00;
inline constexpr unsigned kFcSha1 = 0x01;
inline constexpr unsigned kFcSha256 = 0x02;
inline constexpr unsigned kFcSha512 = 0x03;
inline constexpr unsigned kFcSha3_224 = 0x20;
inline constexpr unsigned kFcSha3_256 = 0x21;
inline constexpr unsigned kFcSha3_384 = 0x22;
inline constexpr unsigned kFcSha3_512 = 0x23;
inline constexpr unsigned kFcShake128 = 0x24;
inline constexpr unsigned kFcShake256 = 0x25;

// The 16-byte status vector of the query function (fc 0).
inline constexpr unsigned kCpacfQueryBytes = 16;
// The SHA-3/SHAKE parameter block: the 1600-bit state as 25 little-endian lanes (FIPS 202 §B.1 byte order).
inline constexpr unsigned kKeccakParamBytes = 200;

struct CpacfInstruction {
  bool klmd;        // false: KIMD
  unsigned r1, r2;  // register fields of byte 3 (high, low nibble)
  unsigned m3 = 0;  // the high nibble of byte 2 (docs/isa/cpacf.md §2.1.1): a modifier, ignored
};
// Decodes the 4 instruction bytes; nullopt for anything that is not KIMD/KLMD. Byte 2 is not looked at beyond
// keeping M3 for the record: OpenSSL 3.4+ issues KIMD/KLMD with M3 = 8, which machines before MSA 12 and QEMU
// ignore (docs/isa/cpacf.md §2.1.1).
std::optional<CpacfInstruction> decode_cpacf(const std::uint8_t bytes[kCpacfLength]) noexcept;

// The parts of the CPU state KIMD/KLMD read or write: GR0..GR15 and the PSW mask (addressing mode bits 31/32).
struct CpacfRegisters {
  std::uint64_t gr[16];
  std::uint64_t psw_mask;
};
// PSW mask of 64-bit addressing (EA = PSW bit 31, BA = PSW bit 32): what Linux user space always runs with.
inline constexpr std::uint64_t kPswExtendedAddressing = std::uint64_t{1} << 32;
inline constexpr std::uint64_t kPswBasicAddressing = std::uint64_t{1} << 31;
inline constexpr std::uint64_t kPsw64BitMode = kPswExtendedAddressing | kPswBasicAddressing;
// The condition code lives in PSW bits 18-19 (docs/isa/cpacf.md §2.3 item 1).
inline constexpr unsigned kPswConditionCodeShift = 44;

enum class CpacfOutcome : std::uint8_t {
  completed,     // condition code 0: everything processed
  partial,       // condition code 3: registers advanced, the caller's `brc 1` loop must re-execute
  not_emulated,  // a function this profile lacks: hardware without it raises a specification exception
  exception,     // specification exception caused by the program (odd R2, bad length, modifier bit)
};

struct CpacfStep {
  CpacfOutcome outcome = CpacfOutcome::not_emulated;
  Insn insn = Insn::count_;
  std::uint64_t blocks = 0;       // compressions / permutations performed in this execution
  const char* problem = nullptr;  // set for exceptions: what the program did wrong, with the spec section
};

// One execution of the instruction with the registers in regs (updated in place; the condition code is the
// caller's to set from the outcome). Reads and writes the process memory named by the registers, exactly the
// documented parameter-block size and exactly the consumed bytes, so guard pages catch undersized buffers.
CpacfStep run_cpacf(const CpacfInstruction& insn, CpacfRegisters& regs, const Options& options) noexcept;

// The query (fc 0) status vector of a profile: bit n set when fc n is emulated (bytes[n>>3] & (0x80 >> (n&7))).
void cpacf_query_vector(const Options& options, std::uint8_t out[kCpacfQueryBytes]) noexcept;

}  // namespace shakedown::emul::detail
