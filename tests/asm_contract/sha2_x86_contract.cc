// Contract of the x86-64 scalar SHA-2 rounds (arch/x86_64/sha2_x86.h): sha2_rounds8, four asm statements of two rounds.
//
// Each statement reads and writes the nine working operands a..h and b ^ c ("+r"), writes three scratch registers
// before it has read every input (early-clobber "=&r"), reads its two K + W words as memory operands ("m"), and
// changes the flags ("cc"). The caller below keeps its inputs (the state it passed and the wk pointer) and 32
// unrelated values live across the eight rounds, and checks them against FIPS 180-4 §6.2.2 / §6.4.2 step 3
// computed here. rorx needs BMI2 (checked, never skipped).
#include <cpuid.h>

#include "contract.h"
#include "sha2_x86.h"

namespace shakedown::asm_contract {
namespace {

template <class Word>
struct Io {
  volatile Word v[8];
  volatile Word wk[8];
  volatile Word v_after[8];
  volatile Word bc_after;
  volatile Word input_after[8];  // the caller's copies of the input state
  const Word* volatile wk_before;
  const Word* volatile wk_after;
};

Pressure g_pressure;
template <class Word>
Io<Word> g_io;

template <class Word>
[[gnu::noinline, gnu::flatten]] void call_rounds8() {
  auto& io = g_io<Word>;
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  Word input[8];
  for (int i = 0; i < 8; ++i) input[i] = opaque(io.v[i]);
  Word wk[8];  // this frame's K + W words: only the "m" operands tell the compiler that the asm reads them
  for (int i = 0; i < 8; ++i) wk[i] = opaque(io.wk[i]);
  const Word* wk_pointer = wk;
  sink(io.wk_before, wk_pointer);
  auto s = internal::sha2_load_vars(input);
  internal::sha2_rounds8(s, wk_pointer);
  for (int i = 0; i < 8; ++i) sink(io.v_after[i], s.v[i]);
  sink(io.bc_after, s.bc);
  for (int i = 0; i < 8; ++i) sink(io.input_after[i], input[i]);
  sink(io.wk_after, wk_pointer);
  SHAKEDOWN_LIVE_STORE()
}

// FIPS 180-4 §4.1.2 (4.4)-(4.5) and §4.1.3 (4.10)-(4.11): the rotation counts of Σ0 and Σ1.
struct Sigmas {
  int s0[3], s1[3];
};
constexpr Sigmas kSigmas256 = {{2, 13, 22}, {6, 11, 25}};
constexpr Sigmas kSigmas512 = {{28, 34, 39}, {14, 18, 41}};

template <class Word>
Word rotr(Word x, int n) {
  return static_cast<Word>(x >> n | x << (8 * sizeof(Word) - n));
}

// Eight rounds of §6.2.2 / §6.4.2 step 3 on v = {a, ..., h}, with K[t] + W[t] given as wk[t].
template <class Word>
void reference_rounds8(Word v[8], const Word wk[8], const Sigmas& sig) {
  for (int t = 0; t < 8; ++t) {
    const Word a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
    const Word big_sigma1 = rotr(e, sig.s1[0]) ^ rotr(e, sig.s1[1]) ^ rotr(e, sig.s1[2]);
    const Word big_sigma0 = rotr(a, sig.s0[0]) ^ rotr(a, sig.s0[1]) ^ rotr(a, sig.s0[2]);
    const Word t1 = h + big_sigma1 + ((e & f) ^ (~e & g)) + wk[t];  // Ch, (4.2)
    const Word t2 = big_sigma0 + ((a & b) ^ (a & c) ^ (b & c));     // Maj, (4.3)
    v[7] = g, v[6] = f, v[5] = e, v[4] = d + t1, v[3] = c, v[2] = b, v[1] = a, v[0] = t1 + t2;
  }
}

template <class Word>
void check(Report& report, const char* wrapper, const Sigmas& sig, std::uint64_t seed) {
  Report::running(wrapper);
  auto& io = g_io<Word>;
  Word want[8], wk[8];
  for (int i = 0; i < 8; ++i) {
    io.v[i] = want[i] = static_cast<Word>((seed + i) * 0xd1b54a32d192ed03u);
    io.wk[i] = wk[i] = static_cast<Word>((seed + 8 + i) * 0x9e3779b97f4a7c15u);
  }
  Word input[8];
  std::memcpy(input, want, sizeof input);
  reference_rounds8(want, wk, sig);
  g_pressure.reset(seed);
  call_rounds8<Word>();
  static const char* const kVars[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
  static const char* const kInputs[8] = {"caller's input a", "caller's input b", "caller's input c",
                                         "caller's input d", "caller's input e", "caller's input f",
                                         "caller's input g", "caller's input h"};
  for (int i = 0; i < 8; ++i) report.expect(wrapper, kVars[i], io.v_after[i], want[i]);
  report.expect(wrapper, "b ^ c carried to the next call", io.bc_after, static_cast<Word>(want[1] ^ want[2]));
  for (int i = 0; i < 8; ++i) report.expect(wrapper, kInputs[i], io.input_after[i], input[i]);
  report.expect(wrapper, "wk pointer", address(io.wk_after), address(io.wk_before));
  g_pressure.check(report, wrapper);
}

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 8))) {  // CPUID.(7,0):EBX.BMI2[bit 8]
    report.fail("sha2_rounds8", "this CPU has no BMI2 (rorx): run on one that has");
    return;
  }
  for (std::uint64_t seed : {1, 2, 3}) {
    check<std::uint32_t>(report, "sha2_rounds8<uint32_t>", kSigmas256, seed);
    check<std::uint64_t>(report, "sha2_rounds8<uint64_t>", kSigmas512, seed);
  }
}

}  // namespace shakedown::asm_contract
