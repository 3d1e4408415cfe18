// Wiping the stack a block function used once it has returned: what a compiler spills cannot be wiped in place.
//
// A block function written in C++ or intrinsics leaves message schedule words, working variables and state lanes
// in its frame, whether or not it zeroes its own arrays (register spills are the compiler's; diff/
// dead_stack_diff_test.cc finds them). So such a backend's code runs in a function that is never inlined, and its
// seam entry point then calls burn_stack, whose frame starts where the finished function's did and covers it:
//
//   [[gnu::noinline]] void blocks_impl(...) { ... }            // anonymous namespace
//   void sha256_blocks_avx2(...) { blocks_impl(...); burn_stack(kAvx2StackBytes); }
//
// The bytes are the backend's frame depth (gcc -fstack-usage) with margin for other compilers and sanitizers;
// the dead-stack suite checks them on every backend and arch it runs on.
#pragma once

#include <cstddef>

namespace shakedown::internal {

// The deepest burn: a backend that needs more must shrink its frame.
inline constexpr std::size_t kMaxStackBurn = 4096;

// Zeroes the `bytes` (<= kMaxStackBurn) of stack just below the caller's frame. Defined in stack_burn.cc, compiled
// without ISA flags: an inline definition instantiated in a -mavx512f file could be the one the linker keeps.
void burn_stack(std::size_t bytes) noexcept;


}  // namespace shakedown::internal
