// The ABI trampoline (abi/<arch>.S): calls a function with canaries in every callee-saved register and
// reports what those registers held when it returned (the idea of BoringSSL's abi_test, not its code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

#if SHAKEDOWN_DIFF_ABI_CALL
namespace shakedown::diff::abi {

#if defined(__x86_64__)
// System V AMD64 psABI §3.2.1, Figure 3.4: rbx, rbp, r12-r15 are preserved across calls; the direction
// flag must be clear on return.
inline constexpr const char* kCalleeSavedNames[] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
inline constexpr std::uint64_t kFlagsMustBeClear = 1u << 10;  // RFLAGS.DF
#else
#error "SHAKEDOWN_DIFF_ABI_CALL set for an architecture without a callee-saved register list"
#endif

inline constexpr std::size_t kCalleeSaved = std::size(kCalleeSavedNames);

// Layout read and written by the assembly: keep the offsets below in sync with abi/<arch>.S.
struct Registers {
  std::uint64_t before[kCalleeSaved];  // loaded into the callee-saved registers just before the call
  std::uint64_t after[kCalleeSaved];   // what they held right after the call returned
  std::uint64_t flags_after;           // the flags register right after the call
};
static_assert(offsetof(Registers, before) == 0);
static_assert(offsetof(Registers, after) == 8 * kCalleeSaved);
static_assert(offsetof(Registers, flags_after) == 16 * kCalleeSaved);

// Calls fn(a0, a1, a2, a3) (integer/pointer arguments) with regs->before in the callee-saved registers.
extern "C" void shakedown_abi_call(const void* fn, std::uintptr_t a0, std::uintptr_t a1, std::uintptr_t a2,
                                   std::uintptr_t a3, Registers* regs);
// Test-only (abi/<arch>.S): clobbers a callee-saved register (and, where the ABI has one, leaves a
// must-be-clear flag set), so that the suite proves the trampoline detects both.
extern "C" void shakedown_abi_misbehave_for_test();

}  // namespace shakedown::diff::abi
#endif
