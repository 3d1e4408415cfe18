// Keccak-p[1600,24] step constants derived at compile time from FIPS 202 (no hand-copied tables).
#pragma once

#include <array>
#include <cstdint>

namespace shakedown::internal::keccak_constants {

// rc(t) of FIPS 202 §3.2.5 Algorithm 5: the LFSR x^8 + x^6 + x^5 + x^4 + 1 over GF(2).
constexpr bool lfsr_bit(int t) {
  if (t % 255 == 0) return true;
  unsigned r = 0x01;  // R = 10000000 with R[0] as the least significant bit
  for (int i = 1; i <= t % 255; ++i) {
    // Shift R right by one position in FIPS order (R = 0 || R), then the feedback taps.
    r <<= 1;
    const unsigned r8 = (r >> 8) & 1;
    r ^= r8 | (r8 << 4) | (r8 << 5) | (r8 << 6);
    r &= 0xFF;
  }
  return r & 1;
}

// RC for round ir (§3.2.5 Algorithm 6): bit 2^j - 1 is rc(j + 7 ir) for j = 0..6.
constexpr std::array<std::uint64_t, 24> make_round_constants() {
  std::array<std::uint64_t, 24> rc{};
  for (int ir = 0; ir < 24; ++ir)
    for (int j = 0; j <= 6; ++j)
      if (lfsr_bit(j + 7 * ir)) rc[ir] |= std::uint64_t{1} << ((1 << j) - 1);
  return rc;
}

// ρ offsets (§3.2.2 Algorithm 2), indexed by lane x + 5y: walk (x, y) -> (y, 2x + 3y) from (1, 0),
// the t-th lane visited rotates by (t + 1)(t + 2) / 2 mod 64.
constexpr std::array<int, 25> make_rho_offsets() {
  std::array<int, 25> rho{};
  int x = 1, y = 0;
  for (int t = 0; t < 24; ++t) {
    rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
    const int nx = y, ny = (2 * x + 3 * y) % 5;
    x = nx;
    y = ny;
  }
  return rho;
}

inline constexpr std::array<std::uint64_t, 24> kRoundConstants = make_round_constants();
inline constexpr std::array<int, 25> kRhoOffsets = make_rho_offsets();

// Spot checks against FIPS 202 (§3.2.5 RC[0], RC[1], RC[23]; §3.2.2 Table 2).
static_assert(kRoundConstants[0] == 0x0000000000000001);
static_assert(kRoundConstants[1] == 0x0000000000008082);
static_assert(kRoundConstants[23] == 0x8000000080008008);
static_assert(kRhoOffsets[1] == 1 && kRhoOffsets[2] == 62 && kRhoOffsets[24] == 14 && kRhoOffsets[0] == 0);

// π (§3.2.3): output lane (x', y') is input lane (x' + 3y' mod 5, x'). Source index for output x' + 5y'.
constexpr int pi_source(int out_x, int out_y) { return (out_x + 3 * out_y) % 5 + 5 * out_x; }

}  // namespace shakedown::internal::keccak_constants
