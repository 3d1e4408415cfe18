// Wiping the stack a block function used once it has returned: what a compiler spills cannot be wiped in place.
//
// A block function written in C++ or intrinsics leaves message schedule words, working variables and state lanes
// in its frame, whether or not it zeroes its own arrays (register spills are the compiler's; diff/
// dead_stack_diff_test.cc finds them). So such a backend's code runs in a function that is never inlined, and its
// seam entry point then calls burn_stack, whose two calls' frames start where the finished function's did and cover it:
//
//   [[gnu::noinline]] void blocks_impl(...) { ... }            // anonymous namespace
//   void sha256_blocks_avx2(...) { blocks_impl(...); burn_stack(kAvx2StackBytes); }
//
// The bytes are the backend's frame depth (gcc -fstack-usage) with margin for other compilers and sanitizers;
// the dead-stack suite checks them on every backend and arch it runs on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::internal {

// The deepest burn: a backend that needs more must shrink its frame.
inline constexpr std::size_t kMaxStackBurn = 4096;

// Bytes of a finished function's frame that it zeroed itself before returning, so that the burn after it can skip
// them: a block loop that wipes its K + W array while its last rounds consume it (stores issued among the rounds,
// which hold the ALUs) instead of leaving the array to the burn (stores issued after them).
struct WipedSpan {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
};

// Returns the span of p[0..bytes), which the caller has zeroed. The asm keeps the compiler from dropping those
// zeroing stores as dead: the array is a local of the returning function.
[[gnu::always_inline]] inline WipedSpan wiped_span(void* p, std::size_t bytes) noexcept {
  __asm__ __volatile__("" : : "r"(p) : "memory");
  return {reinterpret_cast<std::uintptr_t>(p), bytes};
}

// The two halves of burn_stack, defined in stack_burn.cc, compiled without ISA flags: an inline definition
// instantiated in a -mavx512f file could be the one the linker keeps.
//
// burn_stack_area zeroes `bytes` (<= kMaxStackBurn) of stack just below the caller's frame, except what lies in
// `wiped`, with an array in its own frame. That frame also holds what the compiler puts above the array: saved
// registers and padding, bytes of the finished function's frame that no store of the burn reaches. Measured: under
// gcc 12 on x86-64 the word just under the return address (the array is aligned to 16, the return address is not);
// under clang 19 with UBSan on riscv64 the word between eight saved registers and the array.
// burn_stack_top, a leaf whose frame is nothing but kTopBurn bytes of words, then zeroes those.
void burn_stack_area(std::size_t bytes, WipedSpan wiped) noexcept;
void burn_stack_top() noexcept;

// Covers burn_stack_area's saved registers and padding: 72 bytes on riscv64 (above). diff/dead_stack_diff_test.cc
// (DeadStackScan) fails on any arch where it falls short.
inline constexpr std::size_t kTopBurn = 128;

// Zeroes the `bytes` (<= kMaxStackBurn) of stack just below the caller's frame, except what lies in `wiped`. Both
// calls are made from the caller, so that both frames start where the finished function's frame did. Internal
// linkage: every includer has its own copy, whatever its ISA flags.
[[gnu::always_inline]] static inline void burn_stack(std::size_t bytes, WipedSpan wiped = {}) noexcept {
  burn_stack_area(bytes, wiped);
  burn_stack_top();
}


}  // namespace shakedown::internal
