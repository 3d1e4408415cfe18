// x86-64 signal-context adapter for the PadLock model (RIP/RAX/RCX/RSI/RDI from ucontext gregs, resume at
// RIP + 4, docs/isa/trap-and-emulate.md §0.2) and the Intel SHA512 model (YMM registers in the frame's XSAVE image,
// resume after the decoded instruction).
#include <cstring>

#include "phe_model.h"
#include "sha512ni_model.h"
#include "trap.h"
#include "xsave_frame.h"

namespace shakedown::emul::detail {
namespace {

TrapResult emulate_phe(ucontext_t& uc, const Options& options) {
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
  result.operands.put("rax=").hex(regs.rax).put(", rcx=").hex(regs.rcx).put(", rsi=").hex(regs.rsi).put(", rdi=").hex(
      regs.rdi);
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

// Everything the instruction architecturally does: the destination YMM (and its ZMM upper bits), RIP. No flags,
// no memory, no other register (docs/intel-sha512.md). What hardware refuses stays illegal, with a note.
TrapResult emulate_sha512ni(ucontext_t& uc) {
  greg_t* g = uc.uc_mcontext.gregs;
  TrapResult result;
  result.pc = static_cast<std::uintptr_t>(g[REG_RIP]);
  const Sha512niDecoded d = decode_sha512ni(reinterpret_cast<const std::uint8_t*>(result.pc));
  if (d.status == VexDecode::not_ours) return result;
  result.insn = d.insn;
  if (d.status == VexDecode::invalid) {
    note_illegal(d.insn, result.pc, "invalid encoding", d.reason);
    return result;  // not_ours: chained, so the process dies by SIGILL unless someone handles it
  }
  YmmFrame frame(uc, xsave_layout());
  if (frame.problem() != nullptr) {
    note_illegal(d.insn, result.pc, "no usable YMM state", frame.problem());
    return result;
  }
  result.operands.put("ymm").dec(d.reg).put(", ");
  if (d.insn == Insn::vsha512rnds2)
    result.operands.put("ymm").dec(d.vvvv).put(", xmm").dec(d.rm);
  else
    result.operands.put(d.insn == Insn::vsha512msg1 ? "xmm" : "ymm").dec(d.rm);
  Ymm dst = frame.read(d.reg);
  execute_sha512ni(d.insn, dst, frame.read(d.vvvv), frame.read(d.rm));
  frame.write(d.reg, dst);
  g[REG_RIP] += d.length;
  result.outcome = TrapOutcome::completed;
  return result;
}

}  // namespace

TrapResult emulate_trap(ucontext_t& uc, const Options& options) noexcept {
  // install() admits only this arch's models.
  return options.model == Model::sha512ni ? emulate_sha512ni(uc) : emulate_phe(uc, options);
}

void rewind_to_instruction(ucontext_t&) noexcept {}  // RIP already points at the instruction

const char* arch_name() noexcept { return "x86-64"; }

}  // namespace shakedown::emul::detail
