// Harness of the inline-asm contract tests: opaque values, register pressure, and checks that name what was lost.
//
// A caller compiled with optimisation cannot tell a correct asm contract from an understated one unless the
// compiler is made to rely on the contract: it must keep values in registers across the statement and read them
// back afterwards. Every check here therefore takes its inputs from volatile storage (the compiler cannot fold or
// recompute them), hands every value back to volatile storage right after the statement (it must then read the
// register it believes holds the value), and only then compares, outside the function that holds the statement.
// docs/asm-contracts.md lists every statement, its declared contract and the test that covers it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace shakedown::asm_contract {

// Counts the checks and prints one line per violation:
//   asm contract violated: <wrapper>: <value>: got 0x..., want 0x...
// The flipped test builds (docs/asm-contracts.md) must print this line for the value they lose.
class Report {
 public:
  void expect(const char* wrapper, const char* what, std::uint64_t got, std::uint64_t want);
  void expect_bytes(const char* wrapper, const char* what, const void* got, const void* want, std::size_t n);
  // A precondition of the environment that does not hold: the run fails, it never counts as passed.
  void fail(const char* wrapper, const char* why);
  // Names the wrapper whose caller runs next: a fatal signal until the next call reports it as
  //   asm contract violated: <wrapper>: fatal signal N (a register its caller relied on was lost)
  // (an understated contract can lose a pointer the caller then dereferences).
  static void running(const char* wrapper);
  int checks() const { return checks_; }
  int violations() const { return violations_; }

 private:
  int checks_ = 0;
  int violations_ = 0;
};

// Each contract test file defines this: runs every check of its wrappers. args are the command-line arguments
// after the program name (the ctest entry names what the environment must execute, e.g. CPACF function codes).
void run_contracts(Report& report, std::span<char* const> args);

// Register pressure: kLive unrelated 64-bit values, more than any of the target arches has general registers, so
// that every register the compiler believes the statement leaves alone holds one of them across it. A statement
// that writes a register it does not declare destroys one of these (or an input kept live).
// Test files keep their Pressure and their other volatile storage at namespace scope, so that the function holding
// the statement needs no pointer register to reach them: a lost pointer would crash instead of naming the value.
inline constexpr int kLive = 32;
struct Pressure {
  volatile std::uint64_t in[kLive];
  volatile std::uint64_t out[kLive];
  // Distinct values that no pointer, counter or hash word of a test equals.
  void reset(std::uint64_t seed);
  // After the statement: every value came back unchanged.
  void check(Report& report, const char* wrapper) const;
};

// The X-macro over the kLive values; SHAKEDOWN_LIVE_LOAD(p) declares live_0..live_31 from p.in before the
// statement, SHAKEDOWN_LIVE_STORE(p) hands them to p.out after it.
#define SHAKEDOWN_LIVE_EACH(X)                                                                                    \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) \
  X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define SHAKEDOWN_LIVE_LOAD_ONE(i) const std::uint64_t live_##i = pressure_.in[i];
#define SHAKEDOWN_LIVE_STORE_ONE(i) pressure_.out[i] = live_##i;
#define SHAKEDOWN_LIVE_LOAD(p)   \
  Pressure& pressure_ = (p);     \
  SHAKEDOWN_LIVE_EACH(SHAKEDOWN_LIVE_LOAD_ONE)
#define SHAKEDOWN_LIVE_STORE() SHAKEDOWN_LIVE_EACH(SHAKEDOWN_LIVE_STORE_ONE)
static_assert(kLive == 32, "SHAKEDOWN_LIVE_EACH lists kLive values");

// A value the compiler cannot know (read from volatile storage) and its sink (written to volatile storage).
template <class T>
[[gnu::always_inline]] inline T opaque(const volatile T& source) {
  return source;
}
template <class T>
[[gnu::always_inline]] inline void sink(volatile T& target, T value) {
  target = value;
}

// Reads p[0] in another translation unit: the compiler must materialise the memory p points to before the call and
// cannot see what the call does with it (the tests are never built with LTO).
void escape(const std::uint8_t* p);

// A pointer as a number, for Report::expect.
inline std::uint64_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace shakedown::asm_contract
