// x86-64 signal-context adapter: RIP/RAX/RCX/RSI/RDI from ucontext gregs, resume at RIP + 4 (docs/isa/trap-and-emulate.md §0.2).
#include <cstring>

#include "phe_model.h"
#include "trap.h"

namespace shakedown::emul::detail {

TrapResult emulate_trap(ucontext_t& uc, const Options& options) noexcept {
  greg_t* g = uc.uc_mcontext.gregs;
  TrapResult result;
  result.pc = static_cast<std::uintptr_t>(g[REG_RIP]);
  // The trapping instruction's bytes. A 2-byte UD2 as the last bytes of a mapped page would make this read
  // fault; no code we trap is laid out that way, and the fault would still be loud.
  std::uint8_t bytes[kPheLength];
  std::memcpy(bytes, reinterpret_cast<const void*>(result.pc), sizeof bytes);
  std::optional<Insn> insn = decode_phe(bytes, options.profile);
  if (!insn) return result;
  result.insn = *insn;

  PheRegisters regs{static_cast<std::uint64_t>(g[REG_RAX]), static_cast<std::uint64_t>(g[REG_RCX]),
                    static_cast<std::uint64_t>(g[REG_RSI]), static_cast<std::uint64_t>(g[REG_RDI])};
  PheStep step = run_phe(*insn, regs, options);
  result.blocks = step.blocks;
  if (step.outcome == StepOutcome::fault) {
    result.outcome = TrapOutcome::fault;
    result.problem = step.problem;
    return result;
  }
  g[REG_RAX] = static_cast<greg_t>(regs.rax);
  g[REG_RCX] = static_cast<greg_t>(regs.rcx);
  g[REG_RSI] = static_cast<greg_t>(regs.rsi);
  // Flags are undocumented: left as they were (docs/isa/padlock.md §1.5 item 9).
  if (step.outcome == StepOutcome::completed) {
    g[REG_RIP] += kPheLength;
    result.outcome = TrapOutcome::completed;
  } else {
    result.outcome = TrapOutcome::interrupted;
  }
  return result;
}

void rewind_to_instruction(ucontext_t&) noexcept {}  // RIP already points at the instruction

const char* arch_name() noexcept { return "x86-64"; }

}  // namespace shakedown::emul::detail
