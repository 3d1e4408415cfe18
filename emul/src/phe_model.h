// The PadLock Hash Engine model: decode F3 0F A6 xx and run XSHA1/XSHA256/XSHA512 on a register view.
#pragma once

#include <cstdint>
#include <optional>

#include "emul/emul.h"

namespace shakedown::emul::detail {

// Every PHE hash instruction is exactly 4 bytes: REP (F3), 0F A6, ModRM-like selector (docs/isa/padlock.md §1.1).
inline constexpr unsigned kPheLength = 4;
// RAX value that selects multi-block mode for XSHA1/XSHA256 (docs/isa/padlock.md §1.2.1).
inline constexpr std::uint64_t kMultiBlockMode = ~std::uint64_t{0};
// Strict-mode poison left in RAX/RCX on completion (padlock.md §1.5 item 9). RAX's value is not a multiple of 64, so
// re-using it as a final-mode "bytes already hashed" input faults; as RCX it is an absurd block count.
inline constexpr std::uint64_t kPoisonRax = 0xdeadbeefdeadbeefull;
inline constexpr std::uint64_t kPoisonRcx = 0xbadc0ffee0ddf00dull;
// Byte written over the VIA scratch area (RDI+state..RDI+127) in strict mode (docs/isa/padlock.md §1.5 item 8).
inline constexpr std::uint8_t kScratchPoison = 0xa5;
// The VIA microcode's state buffer size (docs/isa/padlock.md §1.2.4: 128 bytes, kernel and OpenSSL comments).
inline constexpr std::uint64_t kViaStateBuffer = 128;
// The buffer Zhaoxin's own XSHA512 code reserves (128 bytes in its 2024-2025 patches, padlock.md §1.2); whether the
// microcode uses the 64 bytes after the state is unknown, so strict mode poisons them as scratch, and a caller
// whose buffer is smaller gets its neighbouring memory overwritten (an ASan report or a wrong result).
inline constexpr std::uint64_t kZhaoxinXsha512Buffer = 128;

// The four registers PHE reads or writes. RDI is never written back (docs/isa/padlock.md §1.5 item 9).
struct PheRegisters {
  std::uint64_t rax, rcx, rsi, rdi;
};

enum class StepOutcome : std::uint8_t {
  completed,    // resume after the instruction
  interrupted,  // registers updated, resume AT the instruction (docs/isa/padlock.md §1.5 item 11)
  fault,        // the hardware's behaviour is undefined: report and abort
};

struct PheStep {
  StepOutcome outcome;
  std::uint64_t blocks;  // compressions performed in this step
  const char* problem;   // set for faults: what the caller did wrong, with the spec section
};

// The instruction at pc, when the profile emulates it. XSHA384 (D8) is not emulated (semantics unknown,
// docs/isa/padlock.md §1.5 item 1), nor XSHA512 on the VIA profile (PHE2 is Zhaoxin-only). Other prefixes: not ours.
std::optional<Insn> decode_phe(const std::uint8_t bytes[kPheLength], PheProfile profile) noexcept;

// Runs one execution (or one interrupted step) of insn against regs and memory.
PheStep run_phe(Insn insn, PheRegisters& regs, const Options& options) noexcept;

}  // namespace shakedown::emul::detail
