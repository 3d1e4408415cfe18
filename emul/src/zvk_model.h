// RISC-V vector-crypto model: decode and execute Zvknha/Zvknhb and Zvkb on a register-file view (no signals).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "emul/emul.h"

namespace shakedown::emul::detail {

// The architectural state one instruction reads and writes. The trap adapter points `regs` at the
// signal frame's register images (RISCV_V_MAGIC record) or at a copy of the live registers.
struct VectorState {
  std::uint8_t* regs = nullptr;  // 32 * vlenb bytes; register r at r * vlenb; elements little-endian
  std::size_t vlenb = 0;         // VLEN / 8
  std::uint64_t vtype = 0;       // CSR 0xC21 (RVV 1.0 §3.4): vill bit 63, vma 7, vta 6, vsew 5:3, vlmul 2:0
  std::uint64_t vl = 0;          // CSR 0xC20
  std::uint64_t vstart = 0;      // CSR 0x008; the model sets it to 0 when the instruction completes
  std::array<std::uint64_t, 32> x{};  // integer registers x0..x31 (x0 = 0), for the .vx forms
};

enum class ZvkOutcome : std::uint8_t {
  not_ours,   // not a Zvknh*/Zvkb encoding: somebody else's illegal instruction
  reserved,   // a Zvk* instruction in a reserved configuration: illegal, exactly as on hardware
  completed,  // executed; vstart is 0 and the caller resumes at pc + 4
};

struct ZvkStep {
  ZvkOutcome outcome = ZvkOutcome::not_ours;
  Insn insn = Insn::count_;
  std::uint64_t groups = 0;       // vsha2* element groups processed (the counters' "blocks"); 0 for Zvkb
  const char* reason = nullptr;   // for reserved: which rule (docs/isa/riscv-crypto.md §3.3 item 3)
};

// The Zvk* kind of a 32-bit instruction word, or Insn::count_ (cheap: the adapter calls it before it
// touches any vector state).
Insn decode_zvk(std::uint32_t word) noexcept;
// Executes word on state (docs/isa/riscv-crypto.md §3.2, §3.3). Reserved configurations change nothing.
ZvkStep run_zvk(std::uint32_t word, VectorState& state, const Options& options) noexcept;

// The vector registers run_zvk may read and may write for word under vtype (bit r = v<r>). The trap adapter
// moves only these between the live registers and its copy, so a trap costs the same at every VLEN instead of
// two 32-register copies; a register outside `read` may hold anything without changing the result.
struct ZvkRegisterUse {
  std::uint32_t read = 0, written = 0;
};
ZvkRegisterUse zvk_register_use(std::uint32_t word, std::uint64_t vtype) noexcept;

}  // namespace shakedown::emul::detail
