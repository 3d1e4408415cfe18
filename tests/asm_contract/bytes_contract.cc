// Contract of the optimisation barriers in lib/src/internal/bytes.h: secure_zero and equal_constant_time.
//
// Both statements are empty: their whole contract is what they tell the compiler. secure_zero's barrier takes the
// buffer's address and clobbers "memory", so the compiler must assume the buffer is read and keep the memset even
// when the buffer dies right after; this caller wipes an object in its destructor and reads the storage afterwards.
// equal_constant_time's barrier passes the accumulated difference through "+r", so the compiler cannot know the
// result even when it knows both inputs; __builtin_constant_p asks it.
#include <new>

#include "contract.h"
#include "internal/bytes.h"

namespace shakedown::asm_contract {
namespace {

constexpr std::size_t kSecretBytes = 64;
volatile std::uint8_t g_secret[kSecretBytes];

// Wipes itself on destruction, as the library's contexts do. The destructor ends the object's lifetime, so the
// compiler may drop every store into it just before (gcc does: -flifetime-dse); only the barrier keeps the memset.
struct Secret {
  std::uint8_t bytes[kSecretBytes];
  ~Secret() { internal::secure_zero(bytes, sizeof bytes); }
};
// The storage outlives the object, so what the destructor left can be read afterwards.
alignas(Secret) std::uint8_t g_storage[sizeof(Secret)];

[[gnu::noinline]] void use_and_destroy_secret() {
  auto* secret = new (g_storage) Secret;
  for (std::size_t i = 0; i < kSecretBytes; ++i) secret->bytes[i] = g_secret[i];
  escape(secret->bytes);  // the bytes must really be stored
  secret->~Secret();
}

void check_secure_zero(Report& report) {
  Report::running("secure_zero");
  for (std::size_t i = 0; i < kSecretBytes; ++i) g_secret[i] = static_cast<std::uint8_t>(0xc3 ^ (i * 29));
  use_and_destroy_secret();
  const volatile std::uint8_t* left = g_storage;
  std::uint64_t nonzero = 0;
  for (std::size_t i = 0; i < kSecretBytes; ++i) nonzero += left[i] != 0;
  report.expect("secure_zero", "wipe before the end of the object's lifetime (bytes left nonzero)", nonzero, 0);
}

Pressure g_pressure;
volatile bool g_result;
volatile bool g_known_to_compiler;

// Inputs the compiler knows: a and b differ in their last byte only (unless kEqual). Length 1 is folded by every
// compiler we use; length 16 only by those that unroll the loop before answering __builtin_constant_p (clang).
template <std::size_t kLength, bool kEqual>
[[gnu::noinline, gnu::flatten]] void call_equal_constant_time() {
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  std::uint8_t a[kLength], b[kLength];
  for (std::size_t i = 0; i < kLength; ++i) a[i] = b[i] = static_cast<std::uint8_t>(i + 1);
  if (!kEqual) b[kLength - 1] ^= 0x40;
  const bool equal = internal::equal_constant_time(a, b, kLength);
  sink(g_known_to_compiler, static_cast<bool>(__builtin_constant_p(equal)));
  sink(g_result, equal);
  SHAKEDOWN_LIVE_STORE()
}

template <std::size_t kLength, bool kEqual>
void check_equal_constant_time(Report& report, std::uint64_t seed) {
  Report::running("equal_constant_time");
  g_pressure.reset(seed);
  call_equal_constant_time<kLength, kEqual>();
  report.expect("equal_constant_time", "difference hidden from the compiler (__builtin_constant_p of the result)",
                g_known_to_compiler, false);
  report.expect("equal_constant_time", "result", g_result, kEqual);
  g_pressure.check(report, "equal_constant_time");
}

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  check_secure_zero(report);
  check_equal_constant_time<1, true>(report, 1);
  check_equal_constant_time<1, false>(report, 2);
  check_equal_constant_time<16, true>(report, 3);
  check_equal_constant_time<16, false>(report, 4);
}

}  // namespace shakedown::asm_contract
