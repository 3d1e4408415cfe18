// Allocation failure: every allocation the std::vector conveniences make is failed in turn, and each failure must
// surface as a shakedown::Error (the API's one exception type, README), never as std::bad_alloc.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "shakedown/shakedown.h"

// The replacement operator new fails the allocation at which the countdown reaches 0 (when armed), and only that
// one: the library's messages can still be built, as when one large request fails and small ones succeed.
static std::atomic<long> g_countdown{-1};
static std::atomic<bool> g_failed{false};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"  // the standard's own replacements pair malloc/free
#endif
void* operator new(std::size_t n) {
  if (g_countdown.load(std::memory_order_relaxed) >= 0 && g_countdown.fetch_sub(1) == 0) {
    g_failed = true;
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace shakedown {
namespace {

// Runs call with allocation k failed, for k = 0, 1, ... until a run makes fewer than k + 1 allocations; returns
// the first failure that escaped as something other than shakedown::Error ("" if none), and how many were tried.
std::pair<std::string, long> escaped_failures(const std::function<void()>& call) {
  for (long k = 0;; ++k) {
    g_failed = false;
    g_countdown = k;
    std::string escaped;
    try {
      call();
    } catch (const Error&) {
    } catch (const std::exception& e) {
      escaped = "allocation " + std::to_string(k) + " failed: " + e.what() + " escaped";
    }
    g_countdown = -1;
    if (!escaped.empty()) return {escaped, k + 1};
    if (!g_failed) return {"", k};
  }
}

TEST(AllocationFailure, VectorConveniencesThrowShakedownErrors) {
  const std::vector<std::uint8_t> data(300, 0x5a);
  std::vector<std::span<const std::uint8_t>> msgs(40, std::span<const std::uint8_t>(data));
  (void)hash(Algorithm::sha256, data);  // the registry's first selection, outside the injection
  const std::pair<const char*, std::function<void()>> calls[] = {
      {"hash", [&] { (void)hash(Algorithm::sha3_256, data); }},
      {"hash (SHAKE)", [&] { (void)hash(Algorithm::shake128, data, 100); }},
      {"hash_many", [&] { (void)hash_many(Algorithm::sha512, msgs); }},
      {"hash_many (SHAKE)", [&] { (void)hash_many(Algorithm::shake256, msgs, 77); }},
      {"Hasher::final", [&] { (void)Hasher(Algorithm::sha256).update(data).final(); }},
      {"Hmac::final", [&] { (void)Hmac(Algorithm::sha384, data).update(data).final(); }},
      {"hmac", [&] { (void)hmac(Algorithm::sha3_512, data, data); }},
  };
  for (const auto& [what, call] : calls) {
    const auto [escaped, tried] = escaped_failures(call);
    EXPECT_EQ(escaped, "") << what;
    EXPECT_GT(tried, 0) << what << ": no allocation to fail, so the injection tested nothing";
  }
}

}  // namespace
}  // namespace shakedown
