// MemorySanitizer and inline asm: carry "uninitialised" through asm blocks clang cannot see into.
//
// clang's MSan treats an asm statement's outputs as initialised (it cannot know what the asm computes), so an
// uninitialised input would silently vanish there (measured: the x86_64/avx2 SHA-2 rounds hid an uninitialised
// message from tests/msan_check.cc). Asm whose every output depends on every input asks before the asm whether
// any input is poisoned and, if so, poisons its outputs afterwards: exact for a hash round, where each output
// bit depends on all inputs. Outside MSan builds these are constant no-ops and take no addresses.
#pragma once

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define SHAKEDOWN_INTERNAL_MSAN 1
#endif
#endif

namespace shakedown::internal::msan {

#ifdef SHAKEDOWN_INTERNAL_MSAN
inline bool any_poisoned(const void* p, std::size_t n) noexcept { return __msan_test_shadow(p, n) != -1; }
inline void poison(void* p, std::size_t n) noexcept { __msan_poison(p, n); }
#else
constexpr bool any_poisoned(const void*, std::size_t) noexcept { return false; }
constexpr void poison(void*, std::size_t) noexcept {}
#endif

}  // namespace shakedown::internal::msan
