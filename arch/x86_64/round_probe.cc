// The library's SHA-512 round code as a probe for bench/limits.cc: x86_64/avx2's and x86_64/avx512's rounds for one
// message (sha2_rounds8, sha2_x86.h), run alone so that the bench can time a round with nothing else to do, without
// reaching into a backend's private header itself. Built into shakedown_limits only (bench/CMakeLists.txt).
#include <cstdint>

#include "internal/sha2_constants.h"
#include "sha2_x86.h"

namespace shakedown::internal::x86 {

// `blocks` times the 80 rounds over a fixed K + W block, in loops of eight rounds as in the backends' second block of
// a pair (sha512_x86.h). The working variables stay in registers from block to block: adding them into h[] after
// every block made gcc copy h[] with 16-byte loads of 8-byte stores, which cannot forward (7.1-7.8 cycles a round on
// Zen 4 against 6.05); the 80 rounds unrolled measured 6.45.
void sha512_rounds_probe(std::uint64_t h[8], long blocks) {
  alignas(64) static std::uint64_t wk[80];
  for (int t = 0; t < 80; ++t) wk[t] = kSha512K[t] + 0x9e3779b97f4a7c15u * static_cast<unsigned>(t);
  auto s = sha2_load_vars(h);
  for (long b = 0; b < blocks; ++b) {
#pragma GCC unroll 1
    for (int t = 0; t < 80; t += 8) sha2_rounds8(s, wk + t);
  }
  sha2_add_vars(h, s);
}

}  // namespace shakedown::internal::x86
