// burn_stack: zeroes the top of its own frame, the stack a just-returned block function used (stack_burn.h).
#include "internal/stack_burn.h"

#include "internal/bytes.h"

namespace shakedown::internal {

// No ASan redzones around the array: they would sit between it and the caller's frame, unburnt.
[[gnu::noinline, gnu::no_sanitize_address]] void burn_stack(std::size_t bytes) noexcept {
  // The array's highest bytes sit right under the caller's frame, where the finished function's frame began.
  unsigned char area[kMaxStackBurn];
  if (bytes > kMaxStackBurn) bytes = kMaxStackBurn;
  secure_zero(area + kMaxStackBurn - bytes, bytes);
}

}  // namespace shakedown::internal
