// burn_stack's halves: zero the stack a just-returned block function used, from their own frames (stack_burn.h).
#include "internal/stack_burn.h"

#include <algorithm>
#include <cstdint>

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
[[gnu::noinline, gnu::no_sanitize_address]] void burn_stack_area(std::size_t bytes, WipedSpan wiped) noexcept {
  // The array's highest bytes sit right under the caller's frame, where the finished function's frame began.
  unsigned char area[kMaxStackBurn];
  constexpr std::size_t kChunks = kMaxStackBurn / kBurnChunk;
  if (bytes > kMaxStackBurn) bytes = kMaxStackBurn;
  // Rounded up to whole chunks (at most kBurnChunk - 1 bytes more): chunks [first, kChunks) of the array.
  const std::size_t first = kChunks - (bytes + kBurnChunk - 1) / kBurnChunk;
  // The chunks wholly inside `wiped` are skipped: two loops around them rather than a test per chunk, which
  // mispredicted. Compared as integers: the finished frame is no object of this function's.
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(area);
  const std::uintptr_t lo = std::max(wiped.begin, base);
  const std::uintptr_t hi = std::min(wiped.begin + wiped.bytes, base + kMaxStackBurn);
  std::size_t skip_begin = kChunks, skip_end = kChunks;
  if (wiped.bytes != 0 && lo < hi) {
    skip_begin = std::max(first, std::size_t((lo - base + kBurnChunk - 1) / kBurnChunk));
    skip_end = std::max(skip_begin, std::size_t((hi - base) / kBurnChunk));
  }
  // secure_zero's barrier in every chunk keeps the compiler from merging a loop into one variable-length memset.
  for (std::size_t i = first; i < skip_begin; ++i) secure_zero(area + i * kBurnChunk, kBurnChunk);
  for (std::size_t i = skip_end; i < kChunks; ++i) secure_zero(area + i * kBurnChunk, kBurnChunk);
}

// A leaf whose frame is nothing but its words (and, where frame pointers are kept, the frame record above them), so
// that they reach the caller's frame: no sanitizer instrumentation (a handler call would make it save registers at
// the top, as in burn_stack_area) and no call to memset. Sixteen separate words, not an array: gcc 12 aligns a
// local array or struct of 16 bytes or more to 16, which on x86-64 leaves out the word just under the return
// address, while single words it lays out from the top down, as clang 19 does on every arch here. The second call
// costs about 1% of SHA3-256 fed 100-byte updates and 1-3% of one-shot hashes of 64 bytes (AMD Zen 4, bench/).
[[gnu::noinline]] __attribute__((no_sanitize("address", "undefined", "thread"))) void burn_stack_top() noexcept {
  static_assert(kTopBurn == 16 * 8);
  [[maybe_unused]] volatile std::uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0, w8 = 0,
                                          w9 = 0, w10 = 0, w11 = 0, w12 = 0, w13 = 0, w14 = 0, w15 = 0;
}

}  // namespace shakedown::internal
