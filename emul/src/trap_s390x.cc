// s390x signal-context adapter: GR0-15 from uc_mcontext.gregs, CC into psw.mask, psw.addr already past
// (docs/isa/cpacf.md §2.3).
#include <cstring>

#include "cpacf_model.h"
#include "trap.h"

namespace shakedown::emul::detail {
namespace {

constexpr std::uint64_t kConditionCodeMask = std::uint64_t{3} << kPswConditionCodeShift;

void set_condition_code(ucontext_t& uc, unsigned cc) {
  uc.uc_mcontext.psw.mask =
      (uc.uc_mcontext.psw.mask & ~kConditionCodeMask) | (static_cast<std::uint64_t>(cc) << kPswConditionCodeShift);
}

}  // namespace

TrapResult emulate_trap(ucontext_t& uc, const Options& options) noexcept {
  TrapResult result;
  // Both the specification exception (QEMU without the function, si_code ILL_ILLOPN) and the operation exception
  // (no MSA, ILL_ILLOPC) leave psw.addr after the 4-byte instruction (docs/isa/trap-and-emulate.md §0.2).
  result.pc = static_cast<std::uintptr_t>(uc.uc_mcontext.psw.addr) - kCpacfLength;
  std::uint8_t bytes[kCpacfLength];
  std::memcpy(bytes, reinterpret_cast<const void*>(result.pc), sizeof bytes);
  const std::optional<CpacfInstruction> insn = decode_cpacf(bytes);
  if (!insn) return result;

  CpacfRegisters regs;
  for (int i = 0; i < 16; ++i) regs.gr[i] = uc.uc_mcontext.gregs[i];
  regs.psw_mask = uc.uc_mcontext.psw.mask;
  // "GR0=0x8020 (fc 0x20, NIP), r2=%r2 (len 136), GR1=0x..., M3=8": the function code and the operands.
  result.operands.put("GR0=")
      .hex(regs.gr[0])
      .put(" (fc ")
      .hex(regs.gr[0] & 0x7f)
      .put((regs.gr[0] & 0x8000) ? ", NIP" : "");
  if (insn->klmd && insn->r1 != 0)
    result.operands.put("), r1=%r").dec(insn->r1).put(" (len ").dec(regs.gr[insn->r1 + 1]);
  result.operands.put("), r2=%r").dec(insn->r2).put(" (len ").dec(regs.gr[(insn->r2 + 1) & 15]).put("), GR1=");
  result.operands.hex(regs.gr[1]).put(", M3=").dec(insn->m3);
  const CpacfStep step = run_cpacf(*insn, regs, options);
  result.insn = step.insn;
  result.blocks = step.blocks;
  switch (step.outcome) {
    case CpacfOutcome::not_emulated: return result;  // not_ours: a machine without the function raises the exception
    case CpacfOutcome::exception:
      result.outcome = TrapOutcome::fault;
      result.problem = step.problem;
      return result;
    case CpacfOutcome::completed:
    case CpacfOutcome::partial: break;
  }
  for (int i = 0; i < 16; ++i) uc.uc_mcontext.gregs[i] = regs.gr[i];
  // psw.addr stays past the instruction in both cases: CC3 makes the caller's `brc 1,0b` re-execute it.
  const bool partial = step.outcome == CpacfOutcome::partial;
  set_condition_code(uc, partial ? 3 : 0);
  result.outcome = partial ? TrapOutcome::interrupted : TrapOutcome::completed;
  return result;
}

// psw.addr is past the instruction: step back so that returning with SIG_DFL restored re-executes (and re-traps)
// it instead of silently skipping it. The step is known only for KIMD/KLMD (4 bytes); any other illegal
// instruction's length cannot be recovered from its end, so the signal is re-raised instead (pending while the
// handler runs, delivered with the default action on return).
void rewind_to_instruction(ucontext_t& uc) noexcept {
  std::uint8_t bytes[kCpacfLength];
  std::memcpy(bytes, reinterpret_cast<const void*>(uc.uc_mcontext.psw.addr - kCpacfLength), sizeof bytes);
  if (decode_cpacf(bytes))
    uc.uc_mcontext.psw.addr -= kCpacfLength;
  else
    raise(SIGILL);
}

const char* arch_name() noexcept { return "s390x"; }

}  // namespace shakedown::emul::detail
