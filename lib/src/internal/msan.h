// MemorySanitizer and inline asm: carry "uninitialised" through asm blocks clang cannot see into.
//
// clang's MSan treats an asm statement's outputs as initialised (it cannot know what the asm computes), so an
// uninitialised input would silently vanish there (measured: the x86_64/avx2 SHA-2 rounds hid an uninitialised
// message from tests/msan_check.cc). Asm whose every output depends on every input asks before the asm whether
// any input is poisoned and, if so, poisons its outputs afterwards: exact for a hash round, where each output
// bit depends on all inputs. The same holds for instructions MSan has no faithful rule for (measured with
// tests/ct_check.cc: it checks vpternlogq's operands like an asm's, and marks sha256rnds2's output bit i only
// from input bits i, so most of a SHA-NI digest of a marked byte came out unmarked). Outside MSan builds these
// are constant no-ops: the optimised code is the same as without them.
#pragma once

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define SHAKEDOWN_INTERNAL_MSAN 1
#endif
#endif

namespace shakedown::internal::msan {

// MSan also checks every register input of an asm statement, so a secret that tests/ct_check.cc marks would be
// reported merely for entering a hash round or a value barrier, where nothing MSan could see depends on it.
// Such asm takes its register inputs' mark off first (take_mark says whether there was one) and puts it back
// on its outputs afterwards with poison().

#ifdef SHAKEDOWN_INTERNAL_MSAN
inline bool any_poisoned(const void* p, std::size_t n) noexcept { return __msan_test_shadow(p, n) != -1; }
inline void poison(void* p, std::size_t n) noexcept { __msan_poison(p, n); }
inline bool take_mark(void* p, std::size_t n) noexcept {
  const bool marked = any_poisoned(p, n);
  __msan_unpoison(p, n);
  return marked;
}
#else
constexpr bool any_poisoned(const void*, std::size_t) noexcept { return false; }
constexpr void poison(void*, std::size_t) noexcept {}
constexpr bool take_mark(void*, std::size_t) noexcept { return false; }
#endif

}  // namespace shakedown::internal::msan
