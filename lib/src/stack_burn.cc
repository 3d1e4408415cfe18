// burn_stack: zeroes the top of its own frame, the stack a just-returned block function used (stack_burn.h).
#include "internal/stack_burn.h"

#include "internal/bytes.h"

namespace shakedown::internal {

namespace {
// The burn goes in chunks of this many bytes, each a fixed-size memset that the compiler writes as a few vector
// stores. One memset of the whole variable length was compiled to `rep stosq`, whose start-up cost on AMD Zen 3
// (family 19h model 01h) was 11% of the time of SHA3-256 fed 100-byte updates (bench/: sha3-256-upd100, sampled
// with perf): every block-function call pays it.
constexpr std::size_t kBurnChunk = 64;
static_assert(kMaxStackBurn % kBurnChunk == 0);
}  // namespace

// No ASan redzones around the array: they would sit between it and the caller's frame, unburnt.
[[gnu::noinline, gnu::no_sanitize_address]] void burn_stack(std::size_t bytes) noexcept {
  // The array's highest bytes sit right under the caller's frame, where the finished function's frame began.
  unsigned char area[kMaxStackBurn];
  if (bytes > kMaxStackBurn) bytes = kMaxStackBurn;
  // Rounded up to whole chunks (at most kBurnChunk - 1 bytes more). secure_zero's barrier in every chunk keeps
  // the compiler from merging the loop back into one variable-length memset.
  const std::size_t chunks = (bytes + kBurnChunk - 1) / kBurnChunk;
  for (std::size_t i = kMaxStackBurn / kBurnChunk - chunks; i < kMaxStackBurn / kBurnChunk; ++i)
    secure_zero(area + i * kBurnChunk, kBurnChunk);
}

}  // namespace shakedown::internal
