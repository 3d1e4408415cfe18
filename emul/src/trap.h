// The seam between the arch-neutral SIGILL handler (handler.cc) and one architecture's signal context.
//
// Each arch supplies one trap_<arch>.cc implementing these three functions. Resume rules differ
// (docs/isa/trap-and-emulate.md §0.2):
//   x86-64   RIP points AT the instruction: completed -> RIP += 4; interrupted -> leave RIP.
//   s390x    psw.addr already points PAST it: completed -> leave; interrupted (CC3) -> leave, set CC in psw.mask;
//            before chaining to SIG_DFL, psw.addr -= 4 so the re-executed instruction traps again.
//   riscv64  sc_regs.pc points AT it: completed -> pc += 4, vstart = 0.
#pragma once

#include <signal.h>
#include <ucontext.h>

#include <cstddef>
#include <cstdint>

#include "emul/emul.h"

// qemu-x86_64 enters handlers with a misaligned stack (docs/platforms.md §2.4):
// realign so that compiler-generated aligned SSE spills in the handler do not fault.
#if defined(__x86_64__) || defined(__i386__)
#define SHAKEDOWN_EMUL_HANDLER_ATTR __attribute__((force_align_arg_pointer))
#else
#define SHAKEDOWN_EMUL_HANDLER_ATTR
#endif

namespace shakedown::emul::detail {

enum class TrapOutcome : std::uint8_t {
  not_ours,     // not an instruction any active model emulates: chain to the previous handler
  completed,    // emulated; the context now resumes after the instruction
  interrupted,  // partially emulated; the context resumes at the same instruction, which continues
  fault,        // the program misused the instruction (e.g. misaligned state): report and abort
};

// The operands of an emulated instruction as text ("ymm12, ymm11, xmm0", "fc 0x02 (sha256), ..."), written inside
// the handler: no allocation, no stdio. Cut off when full.
struct OperandText {
  static constexpr std::size_t kRoom = 96;
  char text[kRoom] = {};
  std::size_t used = 0;
  OperandText& put(const char* s) noexcept {
    while (*s != '\0' && used + 1 < kRoom) text[used++] = *s++;
    return *this;
  }
  OperandText& dec(std::uint64_t v) noexcept {
    char digits[20];
    int n = 0;
    do digits[n++] = static_cast<char>('0' + v % 10);
    while ((v /= 10) != 0);
    while (n > 0 && used + 1 < kRoom) text[used++] = digits[--n];
    return *this;
  }
  OperandText& hex(std::uint64_t v) noexcept {
    put("0x");
    int shift = 60;
    while (shift > 0 && ((v >> shift) & 0xf) == 0) shift -= 4;
    for (; shift >= 0 && used + 1 < kRoom; shift -= 4) text[used++] = "0123456789abcdef"[(v >> shift) & 0xf];
    return *this;
  }
};

struct TrapResult {
  TrapOutcome outcome = TrapOutcome::not_ours;
  Insn insn = Insn::count_;
  std::uint64_t blocks = 0;
  const char* problem = nullptr;  // for faults
  std::uintptr_t pc = 0;          // address of the trapping instruction
  OperandText operands;           // what it operated on, for recent_emulated() and the test-break note
};

// Decodes the instruction that raised SIGILL in uc and runs its model with options (options.model is
// always this arch's: install() refuses the others).
TrapResult emulate_trap(ucontext_t& uc, const Options& options) noexcept;
// Makes returning from the handler re-execute the trapping instruction (used before restoring SIG_DFL).
void rewind_to_instruction(ucontext_t& uc) noexcept;
// "x86-64", "s390x" or "riscv64": must equal model_arch() of the models this adapter runs.
const char* arch_name() noexcept;

// For an adapter about to chain one of its own instructions that the hardware would refuse too: one line on
// stderr, "shakedown emul: <insn> at <pc>: <what> (<why>): illegal instruction, as on hardware", so the SIGILL
// that follows is explained. Async-signal-safe (handler.cc).
void note_illegal(Insn insn, std::uintptr_t pc, const char* what, const char* why) noexcept;

}  // namespace shakedown::emul::detail
