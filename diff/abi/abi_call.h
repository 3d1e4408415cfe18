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
inline constexpr const char* kMisbehaveClobbers = "r12";      // see shakedown_abi_misbehave_for_test
#elif defined(__aarch64__)
// AAPCS64 §6.1.1: x19-x29 (x29 the frame pointer) are preserved; §6.1.2: only the low 64 bits of
// v8-v15 (d8-d15) are. No must-be-clear flag.
inline constexpr const char* kCalleeSavedNames[] = {"x19", "x20", "x21", "x22", "x23", "x24", "x25",
                                                    "x26", "x27", "x28", "x29", "d8",  "d9",  "d10",
                                                    "d11", "d12", "d13", "d14", "d15"};
inline constexpr std::uint64_t kFlagsMustBeClear = 0;
inline constexpr const char* kMisbehaveClobbers = "x19";
#elif defined(__s390x__)
// s390x ELF ABI Supplement, Register usage: r6-r13 and f8-f15 are preserved (r15, the stack pointer,
// too; it cannot carry a canary). No must-be-clear flag.
inline constexpr const char* kCalleeSavedNames[] = {"r6", "r7", "r8",  "r9",  "r10", "r11", "r12", "r13",
                                                    "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15"};
inline constexpr std::uint64_t kFlagsMustBeClear = 0;
inline constexpr const char* kMisbehaveClobbers = "r6";
#elif defined(__riscv) && __riscv_xlen == 64 && defined(__riscv_float_abi_double)
// RISC-V psABI, Integer and Floating-point Register Conventions (LP64D): s0-s11 and fs0-fs11 are
// preserved; every vector register and vector CSR is caller-saved. No must-be-clear flag.
inline constexpr const char* kCalleeSavedNames[] = {"s0",  "s1",  "s2",  "s3",  "s4",  "s5",  "s6",   "s7",
                                                    "s8",  "s9",  "s10", "s11", "fs0", "fs1", "fs2",  "fs3",
                                                    "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11"};
inline constexpr std::uint64_t kFlagsMustBeClear = 0;
inline constexpr const char* kMisbehaveClobbers = "s1";
#elif defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2 && defined(__LITTLE_ENDIAN__)
// 64-Bit ELF V2 ABI §2.2.1.1: r14-r31, f14-f31 (doubleword 0 of vs14-vs31) and v20-v31 (vs52-vs63) are
// nonvolatile; a vector register takes two slots (its doublewords as lxvd2x moves them). No must-be-clear flag.
#define SHAKEDOWN_ABI_VR(n) "v" #n ".dw0", "v" #n ".dw1"
inline constexpr const char* kCalleeSavedNames[] = {"r14",
                                                    "r15",
                                                    "r16",
                                                    "r17",
                                                    "r18",
                                                    "r19",
                                                    "r20",
                                                    "r21",
                                                    "r22",
                                                    "r23",
                                                    "r24",
                                                    "r25",
                                                    "r26",
                                                    "r27",
                                                    "r28",
                                                    "r29",
                                                    "r30",
                                                    "r31",
                                                    "f14",
                                                    "f15",
                                                    "f16",
                                                    "f17",
                                                    "f18",
                                                    "f19",
                                                    "f20",
                                                    "f21",
                                                    "f22",
                                                    "f23",
                                                    "f24",
                                                    "f25",
                                                    "f26",
                                                    "f27",
                                                    "f28",
                                                    "f29",
                                                    "f30",
                                                    "f31",
                                                    SHAKEDOWN_ABI_VR(20),
                                                    SHAKEDOWN_ABI_VR(21),
                                                    SHAKEDOWN_ABI_VR(22),
                                                    SHAKEDOWN_ABI_VR(23),
                                                    SHAKEDOWN_ABI_VR(24),
                                                    SHAKEDOWN_ABI_VR(25),
                                                    SHAKEDOWN_ABI_VR(26),
                                                    SHAKEDOWN_ABI_VR(27),
                                                    SHAKEDOWN_ABI_VR(28),
                                                    SHAKEDOWN_ABI_VR(29),
                                                    SHAKEDOWN_ABI_VR(30),
                                                    SHAKEDOWN_ABI_VR(31)};
#undef SHAKEDOWN_ABI_VR
inline constexpr std::uint64_t kFlagsMustBeClear = 0;
inline constexpr const char* kMisbehaveClobbers = "r14";
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
// Test-only (abi/<arch>.S): clobbers the callee-saved register kMisbehaveClobbers (and, where the ABI
// has one, leaves a must-be-clear flag set), so that the suite proves the trampoline detects both.
extern "C" void shakedown_abi_misbehave_for_test();

}  // namespace shakedown::diff::abi
#endif
